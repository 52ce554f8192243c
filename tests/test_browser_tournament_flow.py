"""Presence and tournaments in chromium.  A connected player shows as connected to everyone
in the room from their hello on (not from their ready), and as offline once their last page
has gone.  A tournament carries its entrants along, in chromium: each round's board opens by itself
from wherever they are on the tournament's pages (the last round's end screen included), the
race page names the round, and the end screen counts down to the next round beside the
standings.  A real ``stalactites serve`` process (in-memory store)."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Locator, Page, WebSocketRoute, expect

from browser_kit import SOLVER_MS, join_room, new_room, post, shot, wait_racing
from browser_kit import browser as browser
from browser_kit import console as console
from browser_kit import new_page as new_page
from browser_kit import server_url as server_url
from tournament_kit import start_now

ROOM = re.compile(r"#/room/([^/]+)$")


def enter(new_page: Callable[..., Page], tid: str, name: str, width: int = 1366) -> Page:
    page = new_page(f"/#/tournament/{tid}", width=width)
    page.locator("input[name=name]").fill(name)
    page.get_by_role("button", name="Enter the tournament").click()
    expect(page.locator(".tournament-actions")).to_contain_text("You are entered")
    return page


def room_of(page: Page) -> str:
    match = ROOM.search(page.url)
    assert match, page.url
    return match.group(1)


def tournament(server_url: str, tid: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server_url}/api/tournaments/{tid}", timeout=10) as answer:
        view: dict[str, Any] = json.loads(answer.read())
    return view


def until(page: Page, done: Callable[[], bool]) -> None:
    """Let the page run (and Playwright hand over its events) until ``done()``."""
    deadline = time.monotonic() + SOLVER_MS / 1000
    while not done():
        assert time.monotonic() < deadline, "waited in vain"
        page.wait_for_timeout(20)


def racer(page: Page, name: str) -> Locator:
    return page.locator(".side .racer", has_text=name)


def resign(page: Page) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()


def test_each_round_board_opens_by_itself_from_the_last_rounds_end_screen(
    new_page: Callable[..., Page], server_url: str
) -> None:
    settings = {"name": "Cup", "game": "stalactites", "step": "ones", "rounds": 2}
    made = post(f"{server_url}/api/tournaments", {**settings, "round_time_s": 60, "break_s": 3})
    tid = made["tournament_id"]
    watcher = new_page(f"/#/tournament/{tid}", width=1366)
    expect(watcher.locator(".race-settings")).to_contain_text("0/")
    ada = enter(new_page, tid, "Ada")
    bo = enter(new_page, tid, "Bo", width=390)
    bo.set_viewport_size({"width": 390, "height": 844})
    cy = enter(new_page, tid, "Cy")
    # The header's count keeps up with the table of entrants, on a page opened before them.
    expect(watcher.locator("table.standings tbody tr")).to_have_count(3)
    expect(watcher.locator(".race-settings")).to_contain_text("3/")
    expect(watcher.locator(".invite")).to_be_visible()  # while entries are open
    shot(watcher, "tournament-entries-open-1366")
    start_now(server_url, tid, made["admin_token"])
    expect(watcher.locator("section.tournament")).to_have_attribute("data-status", "running")
    expect(watcher.locator(".invite")).to_be_hidden()
    for page in (ada, bo, cy):
        page.wait_for_url(ROOM, timeout=SOLVER_MS)
        wait_racing(page)
        expect(page.locator(".race-round")).to_have_text("Round 1 of 2 · Cup")
    # Every entrant on the round's board shows as connected to the others.
    expect(racer(ada, "Bo")).to_be_visible()
    expect(racer(ada, "Bo").locator(".tag-off")).to_have_count(0)
    expect(racer(bo, "Ada").locator(".tag-off")).to_have_count(0)
    first = room_of(ada)
    resign(ada)
    resign(bo)
    resign(cy)
    # The end screen: the standings after the round, and the next round's countdown.
    end = ada.locator(".after-round")
    expect(end.locator("table.standings tbody tr")).to_have_count(3)
    expect(end.locator(".next-round")).to_contain_text("Round 2 starts in")
    shot(ada, "tournament-between-rounds-1366")
    shot(bo, "tournament-between-rounds-390")
    # The round's results: equal points (the base cards each) share first place.
    places = watcher.locator('.round-item[data-round="1"] .round-results span')
    expect(places).to_have_text([re.compile(r"^1st \w+ \(4 pts\)$")] * 3)
    # Nobody clicks anything: round 2's board opens on every entrant's page.
    for page in (ada, bo, cy):
        page.wait_for_url(lambda url: ROOM.search(url) is not None and first not in url)
        wait_racing(page)
        expect(page.locator(".race-round")).to_have_text("Round 2 of 2 · Cup")
    assert room_of(ada) == room_of(bo) != first
    ada.set_viewport_size({"width": 1366, "height": 768})
    shot(ada, "tournament-round-2-1366")
    shot(bo, "tournament-round-2-390")


def test_an_entrant_whose_hello_comes_after_the_round_began_is_taken_to_the_board(
    new_page: Callable[..., Page], server_url: str
) -> None:
    """Entering opens the page's socket again; when the round begins before that socket's
    hello reaches the server, its welcome shows the round on and no round_started follows."""
    settings = {"name": "Cup", "game": "stalactites", "step": "ones", "rounds": 1}
    made = post(f"{server_url}/api/tournaments", {**settings, "round_time_s": 60, "break_s": 0})
    tid = made["tournament_id"]
    page = new_page(f"/#/tournament/{tid}", width=1366)
    expect(page.locator(".race-settings")).to_contain_text("0/")
    held: list[tuple[WebSocketRoute, str | bytes]] = []
    holding = [True]

    def hold_hellos(ws: WebSocketRoute) -> None:  # what the page says waits while holding
        server = ws.connect_to_server()
        ws.on_message(
            lambda message: held.append((server, message)) if holding[0] else server.send(message)
        )

    page.context.route_web_socket(re.compile(r"/ws/tournaments/"), hold_hellos)
    page.locator("input[name=name]").fill("Ada")
    page.get_by_role("button", name="Enter the tournament").click()
    expect(page.locator(".tournament-actions")).to_contain_text("You are entered")
    until(page, lambda: bool(held))  # the new socket's hello, held
    start_now(server_url, tid, made["admin_token"])
    until(page, lambda: tournament(server_url, tid)["current_round"] is not None)
    holding[0] = False
    for server, message in held:
        server.send(message)
    page.wait_for_url(ROOM, timeout=SOLVER_MS)
    wait_racing(page)
    expect(page.locator(".race-round")).to_have_text("Round 1 of 1 · Cup")


def test_a_joined_player_shows_connected_before_ready_and_offline_once_gone(
    new_page: Callable[..., Page], server_url: str
) -> None:
    room = new_room(server_url, 2)
    ada = new_page(f"/#/room/{room}", width=1366)
    join_room(ada, "Ada")
    bo = new_page(f"/#/room/{room}", width=1366)
    join_room(bo, "Bo")
    expect(racer(ada, "Bo")).to_be_visible()
    expect(racer(ada, "Bo").locator(".tag-off")).to_have_count(0)
    expect(racer(bo, "Ada").locator(".tag-off")).to_have_count(0)
    shot(ada, "presence-waiting-1366")
    bo.close()
    expect(racer(ada, "Bo").locator(".tag-off")).to_have_count(1)


LOCAL_IN_TWO_HOURS = """() => {
  const at = new Date(Date.now() + 2 * 3600000 - new Date().getTimezoneOffset() * 60000);
  return [at.toISOString().slice(0, 16), Date.now() + 2 * 3600000];
}"""


def test_the_organisers_form_sets_a_start_time(
    new_page: Callable[..., Page], server_url: str
) -> None:
    page = new_page("/", width=1366)
    page.get_by_text("Organise a tournament").click()
    form = page.locator("form.create", has=page.locator("input[name=starts_at]"))
    form.locator("input[name=name]").fill("Evening cup")
    local, expected_ms = page.evaluate(LOCAL_IN_TWO_HOURS)
    form.locator("input[name=starts_at]").fill(local)
    shot(page, "tournament-organise-1366")
    form.get_by_role("button", name="Create tournament").click()
    page.wait_for_url(re.compile(r"#/tournament/"))
    tid = page.url.rsplit("/", 1)[1]
    starts_at = tournament(server_url, tid)["starts_at"]
    assert abs(starts_at - expected_ms) < 60_000  # the minute chosen, in the browser's time
    expect(page.locator(".clock")).to_have_text(re.compile(r"^(1:59|2:00):\d\d$"))
    expect(page.locator(".invite")).to_be_visible()


def test_the_lobby_lists_tournaments_starting_soon_and_running(
    new_page: Callable[..., Page], server_url: str
) -> None:
    soon = post(f"{server_url}/api/tournaments", {"name": "Evening Cup", "rounds": 2})
    now = post(f"{server_url}/api/tournaments", {"name": "Noon Cup", "rounds": 3})
    post(f"{server_url}/api/tournaments/{now['tournament_id']}/players", {"name": "Ada"})
    start_now(server_url, now["tournament_id"], now["admin_token"])
    page = new_page("/", width=1366)
    starting = page.locator(f"[data-list=scheduled] [data-tournament='{soon['tournament_id']}']")
    expect(starting).to_contain_text("Evening Cup")
    expect(starting).to_contain_text("starts when its organiser says")
    expect(starting).to_contain_text("0/100 entrants")
    running = page.locator(f"[data-list=running] [data-tournament='{now['tournament_id']}']")
    expect(running).to_contain_text("Noon Cup")
    expect(running).to_contain_text("round 1 of 3")
    scheduled_now = f"[data-list=scheduled] [data-tournament='{now['tournament_id']}']"
    expect(page.locator(scheduled_now)).to_have_count(0)
    shot(page, "lobby-tournaments-1366")
    starting.get_by_role("link", name="Enter").click()
    page.wait_for_url(f"**/#/tournament/{soon['tournament_id']}")
    expect(page.get_by_role("button", name="Enter the tournament")).to_be_visible()


def test_the_lobby_room_form_offers_auto_play_off_by_default(
    new_page: Callable[..., Page], server_url: str
) -> None:
    page = new_page("/", width=390)
    form = page.locator("form.create").first
    autoplay = form.get_by_label("Auto-play to the foundations")
    expect(autoplay).not_to_be_checked()
    form.locator("input[name=name]").fill("Ada")
    autoplay.check()
    form.get_by_role("button", name="Create room and join").click()
    page.wait_for_url(ROOM)
    with urllib.request.urlopen(f"{server_url}/api/rooms/{room_of(page)}", timeout=10) as answer:
        assert json.loads(answer.read())["autoplay"] is True
    expect(page.locator(".race-settings")).to_contain_text("auto-play to the foundations")
