"""A new player's first hour (issue 35), the web client's part, in chromium against a real
``stalactites serve``: alone in a queue, the page says nobody else waits, promises no ghost
that cannot come and offers a solo race or the daily deal (item 2); a daily attempt left is
taken up again from another tab (item 3); the daily's end screen says official or practice,
offers no rematch, and its replay says when it opens (item 6); the rules pages say how places
and ratings work, and the results show the tie-break where it decided (item 8); expected
refusals are shown, with no error in the console (item 11).  Screenshots go to
``test-output/`` (``first-hour-*``), at phone (390 px) and desktop size."""

from __future__ import annotations

import asyncio
import json
import re
import urllib.request
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Browser, Page, expect

from browser_kit import DEAL, STEP, Console, check_page, in_thread, ready, shot, wait_racing
from browser_kit import browser as browser
from browser_kit import console as console
from browser_kit import new_page as new_page
from browser_kit import server_url as server_url
from server_kit import Client, lasting_moves, resign

PHONE, DESKTOP = 390, 1366


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.loads(answer.read())


def resign_page(page: Page) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()


# Item 2.


def test_alone_in_a_queue_the_page_offers_a_solo_race_and_the_daily_deal(
    new_page: Callable[..., Page], server_url: str
) -> None:
    # Two players of one address would be paired (the tests' loopback is not told apart):
    # each size waits in a queue of its own, the first page closed before the second.
    for width, queue, game in (
        (PHONE, "squadron", "squadron"),
        (DESKTOP, "stalactites/twos", "stalactites"),
    ):
        page = new_page(f"/#/quick/{queue}", width=width)
        expect(page.locator(".queue-waiting")).to_have_text("Nobody else is waiting")
        expect(page.locator(".queue-ghost-hint")).to_contain_text("no ghost will come")
        expect(page.get_by_role("button", name="Race a ghost now")).to_be_hidden()
        alone = page.locator(".queue-alone")
        expect(alone).to_be_visible()
        expect(alone.get_by_role("link", name="Today's daily deal")).to_have_attribute(
            "href", f"#/daily/{game}"
        )
        shot(page, f"first-hour-queue-alone-{width}")
        if width == PHONE:
            page.close()
    alone.get_by_role("button", name="Race the clock alone").click()
    expect(page).to_have_url(re.compile(r"#/room/[A-Za-z0-9_-]+$"))
    room_id = page.url.rsplit("/", 1)[-1]
    room = get(f"{server_url}/api/rooms/{room_id}")
    assert (room["seats"], room["certified"], room["rated"], room["step"]) == (
        1,
        True,
        False,
        "twos",
    )
    ready(page)
    wait_racing(page)


# Items 3 and 6.


def test_a_daily_attempt_left_is_taken_up_again_and_ends_as_official_or_practice(
    new_page: Callable[..., Page], server_url: str
) -> None:
    page = new_page("/", width=PHONE)
    line = page.locator(".daily-line[data-game=stalactites]")
    line.get_by_role("button", name="Play today's deal").click()
    expect(page.locator("section.race")).to_be_visible()
    room_id = page.url.rsplit("/", 1)[-1]
    ready(page)
    wait_racing(page)
    # Left for the lobby, then this browser forgets its seat (another tab or device, signed
    # in as the same player): the lobby takes them back to their own attempt.
    page.goto(f"{server_url}/#/")
    page.evaluate("localStorage.clear()")
    page.reload()
    line = page.locator(".daily-line[data-game=stalactites]")
    back = line.get_by_role("button", name="Back to your attempt")
    expect(back).to_be_visible()
    expect(line.get_by_role("button", name="Practise again")).to_be_visible()
    shot(page, "first-hour-daily-back-390")
    back.click()
    expect(page.locator("section.race")).to_have_attribute("data-status", "racing")
    expect(page.locator(".board .pile-t").first).to_be_visible()
    # The room's own link, opened where no seat is kept, is the race too (not "room full").
    page.evaluate("localStorage.clear()")
    page.goto(f"{server_url}/#/")
    page.goto(f"{server_url}/#/room/{room_id}")
    expect(page.locator("section.race")).to_have_attribute("data-status", "racing")
    resign_page(page)
    end = page.locator(".daily-end")
    expect(end).to_contain_text("This was your official attempt")
    expect(end).to_contain_text("replay and analysis open when the day ends")
    expect(page.get_by_role("button", name="Rematch")).to_have_count(0)
    shot(page, "first-hour-daily-end-official-390")
    page.get_by_role("link", name="Results, analysis and replay").click()
    expect(page.locator(".replay-none")).to_contain_text("open when the day ends")
    shot(page, "first-hour-daily-replay-later-390")
    # Practice: said so at its end.
    page.goto(f"{server_url}/#/")
    page.locator(".daily-line[data-game=stalactites]").get_by_role(
        "button", name="Practise again"
    ).click()
    expect(page.locator("section.race")).to_be_visible()
    ready(page)
    wait_racing(page)
    resign_page(page)
    expect(page.locator(".daily-end")).to_contain_text("This was a practice attempt")
    expect(page.get_by_role("button", name="Rematch")).to_have_count(0)
    page.set_viewport_size({"width": DESKTOP, "height": 800})
    shot(page, "first-hour-daily-end-practice-1366")


# Item 8.


def test_the_rules_pages_say_how_places_and_ratings_work_in_every_language(
    browser: Browser, server_url: str, console: Console
) -> None:
    for lang, locale in (("en", "en-US"), ("pl", "pl-PL"), ("kk", "kk-KZ")):
        context = browser.new_context(viewport={"width": PHONE, "height": 844}, locale=locale)
        page = console.watch(context.new_page())
        for game in ("stalactites", "squadron"):
            page.goto(f"{server_url}/#/rules/{game}")
            section = page.locator(".rules-race")
            expect(section.locator("h2")).to_be_visible()
            expect(section.locator("p")).to_have_count(3)
            check_page(page, lang)
        if lang == "en":
            expect(section).to_contain_text("last card reached a foundation earlier")
            expect(section).to_contain_text("A race nobody played changes no rating")
            shot(page, "first-hour-rules-race-390")
        context.close()


async def _equal_cards_race(server_url: str) -> str:
    """Two guests race ``DEAL``: each plays the same three moves, the second later; the
    second resigns first.  The room's id, once its results are out."""
    base = server_url.replace("http://", "ws://")
    body = {"deal": DEAL, "step": STEP, "seats": 2, "countdown_s": 0}
    room_id: str = (await asyncio.to_thread(_post, f"{server_url}/api/rooms", body))["room_id"]
    clients = []
    for name in ("Early", "Late"):
        seat = await asyncio.to_thread(
            _post, f"{server_url}/api/rooms/{room_id}/players", {"name": name}
        )
        client = await Client.open(f"{base}/ws/rooms/{room_id}")
        await client.hello(seat["token"])
        clients.append(client)
    for client in clients:
        await client.send(type="ready")
    states = [(await client.expect("started"))["state"] for client in clients]
    moves = lasting_moves(states[0], 3)
    for client in clients:
        for number, move in enumerate(moves):
            assert (await client.move(f"m{number}", move))["type"] == "accepted"
        await asyncio.sleep(1.2)  # the second racer's last card comes visibly later
    await resign(clients[1])
    await resign(clients[0])
    await clients[0].expect("results")
    for client in clients:
        await client.close()
    return room_id


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        data: dict[str, Any] = json.loads(answer.read())
        return data


def test_the_results_show_the_tie_break_where_it_decided(
    new_page: Callable[..., Page], server_url: str
) -> None:
    room_id = in_thread(_equal_cards_race(server_url))
    page = new_page(f"/#/replay/{room_id}", width=PHONE)
    rows = page.locator("table.results tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Early")
    expect(rows.nth(0).locator(".tie-break")).to_contain_text(re.compile(r"last card \d+:\d\d"))
    expect(rows.nth(1).locator(".tie-break")).to_contain_text("last card")
    shot(page, "first-hour-tie-break-390")
    page.set_viewport_size({"width": DESKTOP, "height": 800})
    shot(page, "first-hour-tie-break-1366")


# Item 11.


def test_expected_refusals_are_shown_and_log_no_console_error(
    new_page: Callable[..., Page], console: Console
) -> None:
    page = new_page("/#/me")
    expect(page.locator(".profile-name")).to_be_visible()
    form = page.locator("form.account-rename")
    form.locator("input[name=name]").fill("Zoe Newcomer")
    form.get_by_role("button").click()
    expect(page.locator(".profile-name")).to_have_text("Zoe Newcomer")
    form = page.locator("form.account-rename")
    form.locator("input[name=name]").fill("Zoe Again")
    form.get_by_role("button").click()
    expect(form.locator(".form-error")).to_contain_text("You may change your name again on")
    sign_in = page.locator("form.account-sign-in")  # a guest's sign-in form is open already
    sign_in.locator("input[name=username]").fill("nobody_at_all")
    sign_in.locator("input[name=password]").fill("not the password")
    sign_in.get_by_role("button").click()
    expect(sign_in.locator(".form-error")).to_be_visible()
    assert console.unexpected() == []  # (and the fixture checks again at the end)
