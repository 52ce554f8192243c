"""The lobby's Today's deal, the daily deal's page and Rematch on the results, in chromium
against a real ``stalactites serve`` process (screenshots at 1366x768 and 390x844); and a past
day's leaderboard, each run with its replay and "Race this run", on a server of this process
whose clock the test moves on a day."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from browser_kit import browser as browser
from browser_kit import console as console
from browser_kit import in_thread, join_room, new_room, ready, shot, wait_racing
from browser_kit import new_page as new_page
from browser_kit import server_url as server_url
from daily_kit import attempt, board_until, resign_attempt
from players_kit import anonymous
from server_kit import InProcessServer, ManualClock, make_config

SIZES = {"desktop": (1366, 768), "phone": (390, 844)}


def resign(page: Page) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()


def sized(browser: Browser, url: str, size: str) -> Page:
    width, height = SIZES[size]
    return browser.new_context(viewport={"width": width, "height": height}).new_page()


def test_todays_deal_is_played_from_the_lobby_and_shows_on_its_leaderboard(
    new_page: Callable[..., Page], browser: Browser, server_url: str
) -> None:
    page = new_page("/")
    line = page.locator(".daily-line[data-game=stalactites]")
    expect(line.locator(".daily-result")).to_have_text("not played yet")
    line.get_by_role("button", name="Play today's deal").click()
    expect(page.locator("section.race")).to_be_visible()
    ready(page)
    wait_racing(page)
    resign(page)
    expect(page.locator(".daily-end")).to_contain_text("This was your official attempt")
    page.goto(f"{server_url}/#/")
    line = page.locator(".daily-line[data-game=stalactites]")
    expect(line.locator(".daily-result")).to_have_text(re.compile(r"not won: \d+ cards home"))
    expect(line.get_by_role("button", name="Practise again")).to_be_visible()
    page.goto(f"{server_url}/#/daily/stalactites")
    rows = page.locator(".daily-table tbody tr")
    expect(rows).to_have_count(1)
    expect(page.locator(".daily-board")).to_contain_text("Replays of today's attempts open")
    for size in SIZES:
        for path, name in (("/#/", "lobby"), ("/#/daily/stalactites", "daily")):
            other = sized(browser, server_url, size)
            other.goto(f"{server_url}{path}")
            expect(other.locator(".daily-line, .daily-board").first).to_be_visible()
            other.wait_for_load_state("networkidle")
            shot(other, f"daily-{name}-{size}")
            other.context.close()


def test_play_a_friend_makes_a_private_room_with_a_link(new_page: Callable[..., Page]) -> None:
    page = new_page("/")
    page.get_by_role("button", name="Create a private room").click()
    link = page.locator(".friend-link .share-link")
    expect(link).to_have_value(re.compile(r"#/room/[A-Za-z0-9_-]+$"))
    waiting = page.locator(".room-list").first
    room_id = (link.input_value() or "").rsplit("/", 1)[-1]
    expect(waiting).not_to_contain_text(room_id)


def test_rematch_is_offered_live_and_joined_with_one_click(
    new_page: Callable[..., Page], browser: Browser, server_url: str
) -> None:
    room_id = new_room(server_url, 2)
    ann = new_page(f"/#/room/{room_id}", width=1366)
    join_room(ann, "Ann")
    bob = new_page(f"/#/room/{room_id}", width=390)
    join_room(bob, "Bob")
    ready(ann)
    ready(bob)
    wait_racing(ann)
    wait_racing(bob)
    resign(ann)
    resign(bob)
    ann.get_by_role("button", name="Rematch").click()
    expect(ann).to_have_url(re.compile(r"#/room/(?!" + re.escape(room_id) + r"$)"))
    offer = bob.locator(".rematch-offer")
    expect(offer).to_contain_text("Ann offers a rematch.")
    shot(bob, "rematch-offer-phone")
    bob.get_by_role("button", name="Join the rematch").click()
    new_id = ann.url.rsplit("/", 1)[-1]
    expect(bob).to_have_url(re.compile(re.escape(new_id) + "$"))
    expect(ann.locator(".racer")).to_have_count(2)
    shot(ann, "rematch-room-desktop")


@pytest.fixture(scope="module")
def day_server() -> Iterator[tuple[InProcessServer, ManualClock]]:
    clock = ManualClock()
    with InProcessServer(make_config("memory://"), clock) as running:
        yield running, clock


async def _official_run(url: str) -> tuple[dict[str, str], dict[str, str]]:
    """Ann's official attempt today, resigned and on the board: her session and the attempt."""
    ann = await anonymous(url)
    made = await attempt(url, "stalactites", ann["token"])
    await resign_attempt(url, made)
    await board_until(url, "stalactites", made["date"], ann["player_id"])
    return ann, made


def test_a_past_days_runs_link_to_their_replay_and_race_this_run(
    browser: Browser, day_server: tuple[InProcessServer, ManualClock]
) -> None:
    server, clock = day_server
    ann, made = in_thread(_official_run(server.url))
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(f"{server.url}/#/daily/stalactites")
    expect(page.locator(".daily-table tbody tr")).to_have_count(1)
    expect(page.locator(".daily-board .race-run")).to_have_count(0)  # the deal is secret
    expect(page.locator(".daily-board .daily-replay")).to_have_count(0)
    clock.advance(86_400)
    page.reload()
    day = page.locator(f".daily-days li[data-date='{made['date']}']")
    expect(day).to_contain_text("nobody won")
    day.get_by_role("link", name=made["date"]).click()
    expect(page).to_have_url(re.compile(f"#/daily/stalactites/{made['date']}$"))
    expect(page.get_by_role("heading", name=f"Leaderboard of {made['date']}")).to_be_visible()
    row = page.locator(f".daily-table tr[data-player='{ann['player_id']}']")
    expect(row.get_by_role("link", name="Replay")).to_have_attribute(
        "href", f"#/replay/{made['room_id']}"
    )
    shot(page, "daily-past-day-desktop")
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(f"{server.url}/#/daily/stalactites/{made['date']}")
    expect(phone.locator(".daily-table .race-run")).to_have_count(1)
    phone.wait_for_load_state("networkidle")
    shot(phone, "daily-past-day-phone")
    phone.context.close()
    row.get_by_role("button", name="Race this run").click()
    expect(page).to_have_url(re.compile(r"#/room/(?!" + re.escape(made["room_id"]) + r"$)"))
    expect(page.locator(".racer-name.ghost").first).to_contain_text(f"ghost of {ann['name']}")
    page.context.close()
