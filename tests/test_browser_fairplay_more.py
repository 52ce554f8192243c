"""Fair play in a room's views and the header, in chromium against a server of this process:
a declared bot's BOT tag beside its name on its human rival's race page (waiting room,
racers' panel, results) and on the spectators' page; Report on each racer's line of a
finished race's spectator results; and the header's Moderation link, for moderators only.
Screenshots at 1366 and 390 wide in ``test-output/`` (``fair-more-*``)."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from browser_kit import LOCALES, Console, check_page, in_thread, join_room, ready, shot
from browser_kit import browser as browser  # the fixtures
from browser_kit import console as console
from players_kit import anonymous, api
from server_kit import Client, InProcessServer, make_config
from stalactites.fairplay.service import set_moderator

SIZES: dict[str, ViewportSize] = {
    "desktop": {"width": 1366, "height": 768},
    "phone": {"width": 390, "height": 844},
}


@pytest.fixture(scope="module")
def server() -> Iterator[InProcessServer]:
    with InProcessServer(make_config("memory://")) as running:
        yield running


@pytest.fixture
def signed_in(
    browser: Browser, server: InProcessServer, console: Console
) -> Iterator[Callable[..., Page]]:
    """A page in a browser context of its own, with this session's cookie; `asked`: a path
    whose answer the page is waited for to have had; `requests`: every address it asks."""
    contexts: list[BrowserContext] = []

    def make(
        session: dict[str, Any],
        path: str,
        size: str = "desktop",
        lang: str = "en",
        asked: str | None = None,
        requests: list[str] | None = None,
    ) -> Page:
        context = browser.new_context(viewport=SIZES[size], locale=LOCALES[lang])
        contexts.append(context)
        name, token = "stalactites_session", str(session["token"])
        context.add_cookies([{"name": name, "value": token, "url": server.url, "httpOnly": True}])
        page = console.watch(context.new_page())
        if requests is not None:
            page.on("request", lambda request: requests.append(request.url))
        if asked is None:
            page.goto(f"{server.url}/{path}")
            return page
        with page.expect_response(lambda answer: answer.url.endswith(asked)):
            page.goto(f"{server.url}/{path}")
        return page

    yield make
    for context in contexts:
        context.close()


async def account(base: str, username: str, bot: bool = False) -> dict[str, Any]:
    """A registered player's session (a declared bot's, with `bot`)."""
    made = await anonymous(base)
    body = {"username": username, "password": "correct horse battery"}
    status, answer, _ = await api("POST", f"{base}/api/accounts", body, made["token"])
    assert status == 201, answer
    if bot:
        status, answer, _ = await api("PATCH", f"{base}/api/me", {"bot": True}, made["token"])
        assert status == 200 and answer["bot"] is True, answer
    return made


async def _bot_seated(base: str) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """A declared bot seated in a new room for two: its session, the room and its seat."""
    bot = await account(base, "robo", bot=True)
    status, room, _ = await api("POST", f"{base}/api/rooms", {"seats": 2, "countdown_s": 0})
    assert status == 201, room
    url = f"{base}/api/rooms/{room['room_id']}/players"
    status, seat, _ = await api("POST", url, {}, bot["token"])
    assert status == 201, seat
    return bot, room["room_id"], seat


async def _bot_races(server: InProcessServer, room_id: str, token: str) -> None:
    """The bot: ready, resigns as the race starts, and stays until the results."""
    client = await Client.open(server.ws_url(room_id))
    try:
        await client.hello(token)
        await client.send(type="ready")
        await client.expect("started", timeout=60)
        await client.send(type="resign")
        await client.expect("results", timeout=60)
    finally:
        await client.close()


def test_a_bot_is_tagged_in_its_rivals_race_and_a_spectator_reports_a_racer(
    signed_in: Callable[..., Page], server: InProcessServer
) -> None:
    bot, room_id, seat = in_thread(_bot_seated(server.url))
    human, watcher = in_thread(anonymous(server.url)), in_thread(anonymous(server.url))
    with ThreadPoolExecutor(1) as pool:
        racing = pool.submit(asyncio.run, _bot_races(server, room_id, seat["token"]))
        page = signed_in(human, f"#/room/{room_id}")
        join_room(page, "Hugo")
        waiting = page.locator(".waiting-list li").filter(has_text=bot["name"])
        expect(waiting.locator(".tag-bot")).to_have_text("BOT")
        ready(page)
        line = page.locator(f".side .racer[data-player='{bot['player_id']}'] .tag-bot")
        expect(line).to_have_text("BOT")
        expect(line).to_have_attribute(
            "title", "A declared bot: its races against people are unrated"
        )
        mine = page.locator(f".side .racer[data-player='{human['player_id']}']")
        expect(mine).to_be_visible()
        expect(mine.locator(".tag-bot")).to_have_count(0)
        shot(page, "fair-more-bot-race-desktop")
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator(".race-actions").get_by_role("button", name=re.compile("^Resign")).click()
        results = page.locator(".overlay .results-final")
        expect(results.locator(f"tr[data-player='{bot['player_id']}'] .tag-bot")).to_be_visible()
        expect(results.locator(f"tr[data-player='{human['player_id']}'] .tag-bot")).to_have_count(0)
        shot(page, "fair-more-bot-results-desktop")
        racing.result()

    phone = signed_in(watcher, f"#/watch/{room_id}", "phone")
    results = phone.locator(".spectator-results .results-final")
    bot_row = results.locator(f"tr[data-player='{bot['player_id']}']")
    human_row = results.locator(f"tr[data-player='{human['player_id']}']")
    expect(bot_row.locator(".tag-bot")).to_have_text("BOT")
    expect(human_row.locator(".tag-bot")).to_have_count(0)
    board = phone.locator(f".spectated[data-player='{bot['player_id']}'] .tag-bot")
    expect(board).to_have_text("BOT")
    expect(bot_row.locator(".report-player")).to_be_visible()
    shot(phone, "fair-more-watch-phone")
    human_row.get_by_role("button", name="Report Hugo").click()
    dialog = phone.locator("dialog.report-dialog")
    expect(dialog.locator("h2")).to_contain_text("Hugo")
    shot(phone, "fair-more-watch-report-phone")
    dialog.get_by_label("Abuse").check()
    dialog.get_by_role("button", name="Send the report").click()
    expect(dialog.locator(".report-thanks")).to_have_text("Thanks, moderators will look.")
    phone.keyboard.press("Escape")
    expect(dialog).to_have_count(0)

    desktop = signed_in(watcher, f"#/watch/{room_id}", "desktop", "pl")
    rows = desktop.locator(".spectator-results .results-final tbody tr")
    expect(rows.locator(".report-player")).to_have_count(2)
    expect(rows.locator(".tag-bot")).to_have_count(1)
    shot(desktop, "fair-more-watch-desktop")
    check_page(desktop, "pl")


def test_the_header_links_moderators_to_their_page_and_nobody_else(
    signed_in: Callable[..., Page], server: InProcessServer
) -> None:
    mod, plain = in_thread(account(server.url, "moddy")), in_thread(account(server.url, "plain"))
    store = server.app.state.process.fairplay_store
    in_thread(set_moderator(store, mod["player_id"], True, int(time.time() * 1000)))

    asked: list[str]
    anonymous_player, asked = in_thread(anonymous(server.url)), []
    guest = signed_in(anonymous_player, "#/", requests=asked)
    expect(guest.locator("#me .me-name")).to_have_text(anonymous_player["name"])

    page = signed_in(mod, "#/")
    link = page.locator(".topnav").get_by_role("link", name="Moderation")
    link.click()
    expect(page).to_have_url(re.compile("#/mod$"))
    expect(page.locator(".mod-page h1")).to_have_text("Moderation")
    shot(page, "fair-more-mod-link-desktop")
    phone = signed_in(mod, "#/mod", "phone", "kk")
    expect(phone.locator("#mod-link")).to_have_text("Модерация")
    expect(phone.locator(".mod-page h1")).to_be_visible()
    shot(phone, "fair-more-mod-link-phone")
    check_page(phone, "kk")

    other = signed_in(plain, "#/", asked="/api/mod/cases")  # asked, and refused
    expect(other.locator("#me .me-name")).to_have_text(plain["name"])
    expect(other.locator("#mod-link")).to_be_hidden()
    assert not [url for url in asked if "/api/mod/" in url]  # an anonymous player is not asked
