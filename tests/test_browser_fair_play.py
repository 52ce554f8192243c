"""Fair play in the web client, in chromium against a server of this process that holds runs
(``fairplay_holds=True``, as in production): reporting a player from a replay's results, a
profile and a daily board entry; a solver bot's held daily run, which its player sees "under
review", a moderator sees as a case on ``#/mod`` with its signals and plots (once the deal's
day is over) and marks, whose profile then says marked and whose player appeals; and the
page's "moderators only" for anyone else.  Screenshots at 1366 and 390 wide in
``test-output/`` (``fair-*``)."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from browser_kit import LOCALES, Console, check_page, in_thread, shot
from browser_kit import browser as browser  # the fixtures
from browser_kit import console as console
from daily_kit import attempt, board_until, resign_attempt
from players_kit import anonymous, api, race_rated, recorded
from server_kit import Client, InProcessServer, ManualClock, make_config
from stalactites.fairplay.record import FairRecord
from stalactites.fairplay.service import set_moderator

GAME = "stalactites"
SIZES: dict[str, ViewportSize] = {
    "desktop": {"width": 1366, "height": 768},
    "phone": {"width": 390, "height": 844},
}


@pytest.fixture(scope="module")
def fair() -> Iterator[tuple[InProcessServer, ManualClock]]:
    """One server for the module, on the in-memory store, holding runs beyond human reach."""
    clock = ManualClock()
    with InProcessServer(make_config("memory://", fairplay_holds=True), clock) as running:
        yield running, clock


@pytest.fixture
def signed_in(
    browser: Browser, fair: tuple[InProcessServer, ManualClock], console: Console
) -> Iterator[Callable[..., Page]]:
    """A page in a browser context of its own, with this session's cookie."""
    server, _ = fair
    contexts: list[BrowserContext] = []

    def make(
        session: dict[str, Any] | None, path: str, size: str = "desktop", lang: str = "en"
    ) -> Page:
        context = browser.new_context(viewport=SIZES[size], locale=LOCALES[lang])
        contexts.append(context)
        if session is not None:
            token = str(session["token"])
            cookie = "stalactites_session"
            context.add_cookies(
                [{"name": cookie, "value": token, "url": server.url, "httpOnly": True}]
            )
        page = console.watch(context.new_page())
        page.goto(f"{server.url}/{path}")
        return page

    yield make
    for context in contexts:
        context.close()


async def account(base: str, username: str) -> dict[str, Any]:
    made = await anonymous(base)
    body = {"username": username, "password": "correct horse battery"}
    status, answer, _ = await api("POST", f"{base}/api/accounts", body, made["token"])
    assert status == 201, answer
    return made


async def fair_record(server: InProcessServer, player_id: str) -> FairRecord:
    text, _ = await server.call(server.app.state.process.fairplay_store.read(player_id))
    return FairRecord() if text is None else FairRecord.model_validate_json(text)


# Reports.


async def _two_racers(server: InProcessServer) -> tuple[dict[str, Any], dict[str, Any], str, str]:
    """Ann and Bo race a room (both resign), and Bo makes today's official attempt (resigned,
    on the guests' board): their sessions, the room and the day."""
    ann, bo = await anonymous(server.url), await anonymous(server.url)
    await race_rated(server.url, [ann, bo], 1)
    room_id = (await recorded(server.url, ann["player_id"]))[0]["room_id"]
    made = await attempt(server.url, GAME, bo["token"])
    await resign_attempt(server.url, made)
    await board_until(server.url, GAME, made["date"], bo["player_id"])
    return ann, bo, room_id, made["date"]


def report(page: Page, reason: str, text: str) -> None:
    dialog = page.locator("dialog.report-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_label(reason).check()
    dialog.get_by_label("What happened (optional)").fill(text)
    dialog.get_by_role("button", name="Send the report").click()
    expect(dialog.locator(".report-thanks")).to_have_text("Thanks, moderators will look.")


def test_a_player_reports_another_from_the_results_a_profile_and_the_daily_board(
    signed_in: Callable[..., Page], fair: tuple[InProcessServer, ManualClock]
) -> None:
    server, _ = fair
    ann, bo, room_id, _ = in_thread(_two_racers(server))

    page = signed_in(ann, f"#/replay/{room_id}")
    results = page.locator(".replay-results")
    expect(results.locator(f"tr[data-player='{bo['player_id']}'] .report-player")).to_be_visible()
    expect(results.locator(f"tr[data-player='{ann['player_id']}'] .report-player")).to_have_count(0)
    results.get_by_role("button", name=f"Report {bo['name']}").click()
    report(page, "Cheating", "every move at once")
    shot(page, "fair-report-desktop")
    page.get_by_role("button", name="Close").click()
    expect(page.locator("dialog.report-dialog")).to_have_count(0)
    record = in_thread(fair_record(server, bo["player_id"]))
    [sent] = record.reports
    assert (sent.reporter_id, sent.reason, sent.text, sent.room_id) == (
        ann["player_id"],
        "cheating",
        "every move at once",
        room_id,
    )

    phone = signed_in(ann, f"#/player/{bo['player_id']}", "phone")
    phone.locator(".profile-head").get_by_role("button", name=f"Report {bo['name']}").click()
    report(phone, "Abuse", "")  # the same reporter again within a day: counted once
    shot(phone, "fair-report-phone")
    phone.keyboard.press("Escape")
    expect(phone.locator("dialog.report-dialog")).to_have_count(0)
    assert len(in_thread(fair_record(server, bo["player_id"])).reports) == 1

    phone.goto(f"{server.url}/#/daily/{GAME}")
    entry = phone.locator(f".daily-table tr[data-player='{bo['player_id']}']")
    expect(entry.locator(".report-player")).to_be_visible()
    phone.goto(f"{server.url}/#/me")
    expect(phone.locator(".profile-name")).to_have_text(ann["name"])
    expect(phone.locator(".report-player")).to_have_count(0)  # never yourself

    polish = signed_in(ann, f"#/player/{bo['player_id']}", "desktop", "pl")
    polish.get_by_role("button", name=f"Zgłoś gracza {bo['name']}").click()
    expect(polish.locator("dialog.report-dialog")).to_be_visible()
    check_page(polish, "pl")


# A held run, the moderators' page, the mark and the appeal.


async def _held_run(server: InProcessServer) -> tuple[dict[str, Any], dict[str, Any], str]:
    """A registered solver bot plays today's official attempt's winning line at machine
    speed (held at once), and a registered player who will be a moderator: their sessions and
    the bot's room."""
    bot, mod = await account(server.url, "fastbot"), await account(server.url, "moddy")
    made = await attempt(server.url, GAME, bot["token"])
    client = await Client.open(server.ws_url(made["room_id"]))
    await client.hello(made["token"])
    await client.send(type="ready")
    await client.expect("started")
    solution = server.app.state.process.rooms.known_settings(made["room_id"]).solution
    for number, move in enumerate(next(iter(solution.values()))):
        assert (await client.move(f"m{number}", move))["type"] == "accepted"
    if not any(frame["type"] == "results" for frame in client.frames):
        await client.expect("results")
    await client.close()
    await recorded(server.url, bot["player_id"])
    held = f"held:{made['room_id']}"  # (its case is stored apart from the history: wait for both)
    deadline = time.monotonic() + 60
    while (case := (await fair_record(server, bot["player_id"])).case) is None or (
        held not in case.reasons
    ):
        assert time.monotonic() < deadline, "the bot's run was never held"
        await asyncio.sleep(0.05)
    return bot, mod, made["room_id"]


def test_a_held_run_is_under_review_a_moderator_marks_it_and_its_player_appeals(
    signed_in: Callable[..., Page], fair: tuple[InProcessServer, ManualClock]
) -> None:
    server, clock = fair
    bot, mod, room_id = in_thread(_held_run(server))

    own = signed_in(bot, "#/me")
    expect(own.locator(".fair-review")).to_have_text(
        "A run of yours is under review by moderators: it is not shown on public boards until"
        " they decide."
    )
    expect(own.locator(f".history tr[data-room='{room_id}'] .tag-review")).to_have_text(
        "under review"
    )
    expect(own.locator(".fair-marked")).to_have_count(0)
    shot(own, "fair-under-review-desktop")
    other = signed_in(None, f"#/player/{bot['player_id']}", "phone")
    expect(other.locator(f".history tr[data-room='{room_id}']")).to_be_visible()
    expect(other.locator(".tag-review, .fair-notices")).to_have_count(0)  # only its player

    page = signed_in(mod, "#/mod")
    expect(page.locator(".mod-refused [role=alert]")).to_have_text(
        "This page is for moderators only."
    )
    expect(page.locator(".mod-case")).to_have_count(0)
    in_thread(
        set_moderator(
            server.app.state.process.fairplay_store, mod["player_id"], True, clock.now_ms()
        )
    )
    page.reload()
    case = page.locator(f".mod-case[data-player='{bot['player_id']}']")
    expect(case.get_by_role("link", name=bot["name"])).to_have_attribute(
        "href", f"#/player/{bot['player_id']}"
    )
    expect(case.locator(f"[data-reason='held:{room_id}']")).to_contain_text(
        "A run held at once as beyond human reach"
    )
    row = case.locator(f".mod-signals tr[data-room='{room_id}']")
    expect(row).to_contain_text(re.compile("inhuman speed|perfect and fast"))
    expect(row).to_contain_text("100%")
    plots = case.locator(f".mod-plots[data-room='{room_id}']")
    expect(plots.get_by_role("link", name="replay")).to_have_attribute(
        "href", f"#/replay/{room_id}"
    )
    expect(plots.locator(".mod-plot-note")).to_have_text(  # a daily deal's day: no analysis yet
        "A daily deal's run: its analysis opens once the deal's day is over."
    )

    clock.advance(86_400)
    page.reload()
    plots = page.locator(f".mod-plots[data-room='{room_id}']")
    expect(plots).to_have_attribute("data-drawn", "true", timeout=30_000)
    expect(plots.locator("svg.mod-plot")).to_have_count(2)
    moves = plots.locator(".gap-bar").count()
    assert moves > 20
    expect(plots.locator(".pos-cell")).to_have_count(moves)
    expect(plots.locator(".pos-cell.pos-kept")).to_have_count(moves)  # a perfect line
    expect(plots.locator(".mod-strip svg")).to_have_attribute(
        "aria-label", re.compile(rf"^{moves} actions; median \d+ ms, fastest \d+ ms;")
    )
    shot(page, "fair-mod-desktop")
    phone = signed_in(mod, "#/mod", "phone")
    expect(phone.locator(f".mod-plots[data-room='{room_id}']")).to_have_attribute(
        "data-drawn", "true", timeout=30_000
    )
    shot(phone, "fair-mod-phone")
    for lang in ("pl", "kk"):
        words = signed_in(mod, "#/mod", "desktop", lang)
        drawn = words.locator(f".mod-plots[data-room='{room_id}'][data-drawn='true']")
        expect(drawn).to_have_count(1, timeout=30_000)
        check_page(words, lang)

    case = page.locator(f".mod-case[data-player='{bot['player_id']}']")
    case.get_by_label("The reason for your decision (required)").fill("a line no human plays")
    case.get_by_role("button", name="Mark").click()
    expect(page.locator(f".mod-case[data-player='{bot['player_id']}']")).to_have_count(0)
    audit = page.locator(
        f".mod-audit-table tr[data-action='mark'][data-player='{bot['player_id']}']"
    )
    expect(audit).to_contain_text("a line no human plays")
    expect(
        page.locator(f".mod-audit-table tr[data-action='grant'][data-player='{mod['player_id']}']")
    ).to_contain_text("an operator")

    other.reload()
    expect(other.locator(".fair-marked")).to_have_text("Marked by moderators for unfair play.")
    expect(other.locator(".appeal-form")).to_have_count(0)  # not theirs to appeal
    own.reload()
    expect(own.locator(".fair-marked")).to_be_visible()
    expect(own.locator(".fair-review")).to_have_count(0)  # decided
    appeal = own.locator(".appeal-form")
    appeal.get_by_label("Tell the moderators why the mark is wrong").fill("I practised this deal")
    shot(own, "fair-appeal-desktop")
    appeal.get_by_role("button", name="Send the appeal").click()
    expect(own.locator(".fair-appeal-sent")).to_contain_text("Your appeal is with the moderators:")
    expect(own.locator(".fair-appeal-sent blockquote")).to_have_text("I practised this deal")
    expect(own.locator(".appeal-form")).to_have_count(0)  # once

    page.reload()
    case = page.locator(f".mod-case[data-player='{bot['player_id']}']")
    expect(case.locator("[data-reason='appeal']")).to_have_text(
        "The player appealed against the mark"
    )
    expect(case.locator(".appeal-text")).to_have_text("I practised this deal")
    expect(case.locator(".mod-earlier")).to_contain_text("a line no human plays")
    expect(case.locator("h3 .tag-off")).to_have_text("marked")
    appeal_phone = signed_in(bot, "#/me", "phone")
    expect(appeal_phone.locator(".fair-appeal-sent")).to_be_visible()
    shot(appeal_phone, "fair-marked-phone")
