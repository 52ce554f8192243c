"""Issue 35's second walk (item 12) and the analysis in words (item 7), in a real browser
against one server for the module.

- A racer whose race is over while a rival still races sees the results so far (and can put
  them away and bring them back); the end screen takes over when the race is over.
- A finished room opened again still names who offered the rematch, not "? offers".
- "Race this run" is never offered on one's own run (the replay page's results too).
- The guided first game shows no clock, no Resign and no racer called "Learner".
- A resigned, still winnable board says the win was still there; the moves are in words and
  the fewest moves a win needs are not shown after an early resignation.
- A guest finds the sign-in form open; signing out says the browser is a new guest now.
- The leaderboard says where the player stands, provisional races included.

Screenshots (``test-output/second-walk-*``) at 1366 and 390 px wide.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from browser_kit import (
    SOLVER_MS,
    Console,
    click_move,
    in_thread,
    join_room,
    new_room,
    ready,
    shot,
    wait_racing,
)
from browser_kit import browser as browser  # the fixtures
from browser_kit import console as console
from browser_kit import line as line
from browser_kit import server_url as server_url
from players_kit import anonymous, api, race_rated, recorded

DESKTOP: ViewportSize = {"width": 1366, "height": 768}
PHONE: ViewportSize = {"width": 390, "height": 844}
PASSWORD = "correct horse battery"
NOTATION = re.compile(r"\b[tcfsw]\d*-[tcfw]\d")


@pytest.fixture
def visitor(browser: Browser, server_url: str, console: Console) -> Iterator[Callable[..., Page]]:
    """A visitor: a page in a browser context of its own (its own cookies and storage)."""
    contexts: list[BrowserContext] = []

    def make(path: str = "/", viewport: ViewportSize = DESKTOP) -> Page:
        context = browser.new_context(viewport=viewport, locale="en-US")
        contexts.append(context)
        page = console.watch(context.new_page())
        page.goto(f"{server_url}{path}")
        return page

    yield make
    for context in contexts:
        context.close()


def both_sizes(page: Page, name: str) -> None:
    """Screenshots at 1366 and at 390 px wide, the page left at its first size."""
    size = page.viewport_size or DESKTOP
    for label, viewport in (("1366", DESKTOP), ("390", PHONE)):
        page.set_viewport_size(viewport)
        shot(page, f"second-walk-{name}-{label}")
    page.set_viewport_size(size)


def resign(page: Page) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".race-actions").get_by_role("button", name="Resign").click()


def test_a_finished_racer_sees_the_results_so_far_and_no_race_of_their_own_run(
    visitor: Callable[..., Page], server_url: str
) -> None:
    room = new_room(server_url, seats=2, deal=None)  # the server's certified deal
    ada, bo = visitor(f"/#/room/{room}"), visitor(f"/#/room/{room}", viewport=PHONE)
    join_room(ada, "Ada")
    join_room(bo, "Bo")
    for page in (ada, bo):
        ready(page)
    for page in (ada, bo):
        wait_racing(page)
    resign(ada)
    card = ada.locator(".overlay-card")
    expect(card.locator("h2")).to_have_text("Your race is over. The others are still racing.")
    rows = card.locator("table.results tbody tr")
    expect(rows).to_have_count(2)
    expect(card.locator("tr:not(.you) td.result")).to_have_text("racing")
    expect(card.locator(".replay-link")).to_have_count(0)  # the replay opens once all are done
    both_sizes(ada, "results-so-far")
    # Put away and brought back.
    card.get_by_role("button", name="Look at my board").click()
    expect(ada.locator(".overlay")).to_be_hidden()
    ada.locator(".race-actions").get_by_role("button", name="Results so far").click()
    expect(card.locator("h2")).to_be_visible()
    card.get_by_role("button", name="Look at my board").click()
    # The race ends: the end screen shows, though the results so far were put away.
    resign(bo)
    expect(card.locator(".replay-link")).to_be_visible()
    you = ada.locator(".overlay-card tr.you").get_attribute("data-player")
    rival = ada.locator(".overlay-card tbody tr:not(.you)").get_attribute("data-player")
    expect(ada.locator(f'.overlay-card tr[data-player="{you}"] .race-run')).to_have_count(0)
    expect(ada.locator(f'.overlay-card tr[data-player="{rival}"] .race-run')).to_have_count(1)

    # Bo proposes a rematch: Ada is told by name, and again once the room is opened again.
    bo.locator(".overlay-card .rematch").click()
    expect(bo).to_have_url(re.compile(r"#/room/(?!" + room + ")"))
    expect(ada.locator(".rematch-offer")).to_contain_text("Bo offers a rematch.")
    ada.reload()
    expect(ada.locator(".rematch-offer")).to_contain_text("Bo offers a rematch.")
    expect(ada.locator(".rematch-offer")).not_to_contain_text("?")

    # The replay page's results: no "Race this run" on Ada's own run, one on Bo's.
    ada.goto(ada.url.split("#")[0] + f"#/replay/{room}")
    results = ada.locator(".replay-results")
    expect(results.locator(f'tr[data-player="{rival}"] .race-run')).to_have_count(1)
    expect(results.locator(f'tr[data-player="{you}"] .race-run')).to_have_count(0)


def test_the_guided_game_shows_no_clock_no_resign_and_no_learner(
    visitor: Callable[..., Page],
) -> None:
    page = visitor("/#/learn")
    expect(page.locator("section.race")).to_have_attribute("data-status", "racing")
    expect(page.locator(".guide")).to_be_visible()
    expect(page.locator(".race .clock")).to_be_hidden()
    expect(page.locator(".race .side")).to_be_hidden()
    actions = page.locator(".race-actions")
    expect(actions.get_by_role("button", name=re.compile("^Undo"))).to_be_visible()
    expect(actions.get_by_role("button", name="Resign")).to_have_count(0)
    for words in ("Learner", "30 min", "30:00"):
        expect(page.locator("section.race")).not_to_contain_text(words, use_inner_text=True)
    both_sizes(page, "guided")


def test_a_resigned_winnable_board_says_the_win_was_still_there_in_words(
    visitor: Callable[..., Page], server_url: str, line: list[str]
) -> None:
    room = new_room(server_url, seats=1)
    page = visitor(f"/#/room/{room}")
    join_room(page, "Solo")
    ready(page)
    wait_racing(page)
    for move in line[:2]:
        click_move(page, move)
    resign(page)
    page.locator(".overlay-card .replay-link").click()
    section = page.locator(".analysis")
    expect(section).to_have_attribute("data-state", "ready", timeout=SOLVER_MS)
    expect(section.locator(".analysis-verdict")).to_have_text(
        "The win was still there when Solo stopped: no move had thrown it away."
    )
    expect(section.locator(".stat-moves")).to_have_text("2")  # no "fewest a win needs"
    slowest = section.locator(".analysis-slowest li")
    expect(slowest.first).to_contain_text(" from column ")
    for text in slowest.all_inner_texts():
        assert not NOTATION.search(text), f"notation in {text!r}"
    section.scroll_into_view_if_needed()
    both_sizes(page, "analysis")


def test_a_guest_finds_sign_in_and_is_told_signing_out_makes_a_new_guest(
    visitor: Callable[..., Page],
) -> None:
    page = visitor("/#/me")
    expect(page.locator("form.account-sign-in")).to_be_visible()
    expect(page.locator("form.account-register")).to_be_visible()
    both_sizes(page, "account-guest")
    form = page.locator("form.account-register")
    form.locator("input[name=username]").fill(f"ev_{uuid.uuid4().hex[:8]}")
    form.locator("input[name=password]").fill(PASSWORD)
    form.get_by_role("button").click()
    page.locator("dialog.recovery-codes .codes-saved").click()  # its recovery codes, shown once
    expect(page.locator(".profile-head")).to_contain_text("account ev_")
    page.get_by_role("button", name="Sign out", exact=True).click()
    expect(page.locator(".signed-out-note")).to_have_text(
        "You signed out: this browser now plays as a new guest. "
        "Sign in to get back to your account."
    )
    expect(page.locator("form.account-sign-in")).to_be_visible()


async def provisional_player(base: str, username: str, races: int) -> None:
    """A registered player with ``races`` rated races (each against a new opponent)."""
    made = await anonymous(base)
    body = {"username": username, "password": PASSWORD}
    status, answer, _ = await api("POST", f"{base}/api/accounts", body, made["token"])
    assert status == 201, answer
    for _ in range(races):
        await race_rated(base, [made, await anonymous(base)], 1)
    await recorded(base, made["player_id"], races)


def test_the_leaderboard_says_where_the_player_stands(
    visitor: Callable[..., Page], server_url: str
) -> None:
    page = visitor("/#/leaderboard/stalactites")
    expect(page.locator(".where-i-stand")).to_contain_text(
        "no rated race in this game yet. After 10 rated races"
    )
    username = f"fa_{uuid.uuid4().hex[:8]}"
    in_thread(provisional_player(server_url, username, 2))
    page.goto(page.url.split("#")[0] + "#/me")
    form = page.locator("form.account-sign-in")
    form.locator("input[name=username]").fill(username)
    form.locator("input[name=password]").fill(PASSWORD)
    form.get_by_role("button").click()
    expect(page.locator(".profile-head")).to_contain_text(f"account {username}")
    page.goto(page.url.split("#")[0] + "#/leaderboard/stalactites")
    stand = page.locator(".where-i-stand")
    expect(stand).to_contain_text("provisional: 2 of 10 rated races so far. 8 more")
    both_sizes(page, "leaderboard")
