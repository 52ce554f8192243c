"""Arenas in the web client, in chromium against a real ``stalactites serve``: an arena made
over HTTP; two players open its page and join, and are taken to the same race by
themselves; each resigns, a spectator's page sees the standings change live, and both are
taken to their next race by themselves; a paused player's race ends with no next race, and
Resume pairs them again.  And the arena page, the lobby's arenas and the podium laid out in
Polish and Kazakh and at phone size: no English left, every control named, nothing off the
screen.  Screenshots go to ``test-output/`` (``arena-*``)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from browser_kit import LOCALES, Console, check_page, shot, wait_racing
from browser_kit import browser as browser
from browser_kit import console as console
from browser_kit import server_url as server_url

PHONE, DESKTOP = 390, 1366
ROOM = re.compile(r"#/room/([^/]+)$")


@pytest.fixture
def contexts(
    browser: Browser, server_url: str, console: Console
) -> Iterator[Callable[..., tuple[BrowserContext, Page]]]:
    """Browser contexts, each a new player with a session, and a page watched for errors."""
    made: list[BrowserContext] = []

    def make(lang: str = "en", width: int = DESKTOP) -> tuple[BrowserContext, Page]:
        viewport: ViewportSize = {"width": width, "height": 844 if width == PHONE else 900}
        context = browser.new_context(viewport=viewport, locale=LOCALES[lang])
        made.append(context)
        answer = context.request.post(
            f"{server_url}/api/session", data={}, headers={"Origin": server_url}
        )
        assert answer.status == 201, answer.text()
        return context, console.watch(context.new_page())

    yield make
    for context in made:
        context.close()


def new_arena(context: BrowserContext, server_url: str, **settings: Any) -> str:
    """An arena made through the HTTP API by the context's player; its id."""
    body = {
        "name": f"Arena {uuid.uuid4().hex[:6]}",
        "duration_min": 10,
        "time_limit_s": 120,
        "rated": False,
    } | settings
    made = context.request.post(
        f"{server_url}/api/arenas", data=body, headers={"Origin": server_url}
    )
    assert made.status == 201, made.text()
    arena_id: str = made.json()["arena"]["arena_id"]
    return arena_id


def open_arena(page: Page, server_url: str, arena_id: str) -> None:
    page.goto(f"{server_url}/#/arena/{arena_id}")
    expect(page.locator("section.arena")).to_have_attribute("data-status", "running")


def room_of(page: Page, not_in: tuple[str, ...] = ()) -> str:
    """The race the page was taken to by itself (waited for): not one of ``not_in``."""
    page.wait_for_url(
        lambda url: (found := ROOM.search(url)) is not None and found[1] not in not_in
    )
    room = ROOM.search(page.url)
    assert room is not None
    return room[1]


def resign(page: Page) -> None:
    expect(page.locator("section.race")).to_have_attribute("data-status", "racing")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()


def to_arena(page: Page, arena_id: str) -> None:
    """Back to the arena's page within the tab (its arena socket stays open)."""
    page.evaluate("(id) => { location.hash = `#/arena/${id}`; }", arena_id)
    expect(page.locator("section.arena .arena-standings")).to_be_visible()


def races_column(page: Page) -> list[str]:
    return page.locator(".arena-standings tbody tr td:nth-child(4)").all_inner_texts()


def test_entrants_are_taken_to_each_race_by_themselves_and_see_the_standings_change(
    contexts: Callable[..., tuple[BrowserContext, Page]], server_url: str
) -> None:
    ann_context, ann = contexts()
    _, bob = contexts(width=PHONE)
    _, watcher = contexts()
    arena_id = new_arena(ann_context, server_url)
    open_arena(watcher, server_url, arena_id)
    expect(watcher.locator(".standings-box")).to_contain_text("Nobody has entered yet.")
    for page in (ann, bob):
        open_arena(page, server_url, arena_id)
        expect(page.locator(".arena-clock")).to_contain_text(re.compile(r"Ends in\s*\d+:\d\d"))
    shot(ann, "arena-page-1366")
    # Both join; the second to join makes a pair: each is taken to the race by themselves.
    for page in (ann, bob):
        page.get_by_role("button", name="Join the arena").click()
    first = room_of(ann)
    assert room_of(bob) == first
    for page in (ann, bob):
        wait_racing(page)
    # The spectator's page: both entrants, and the top race to watch.
    expect(watcher.locator(".arena-standings tbody tr")).to_have_count(2)
    expect(watcher.get_by_role("link", name="Watch the top race")).to_have_attribute(
        "href", f"#/watch/{first}"
    )
    shot(watcher, "arena-spectator-1366")
    # Ann resigns first: while Bob races on, her results say the next race comes by itself.
    resign(ann)
    expect(ann.locator(".arena-next")).to_have_text("Your next race starts by itself.")
    expect(ann.get_by_role("link", name="Back to the arena")).to_have_attribute(
        "href", f"#/arena/{arena_id}"
    )
    expect(ann.get_by_role("button", name="Rematch")).to_have_count(0)
    shot(ann, "arena-race-over-1366")
    resign(bob)
    # The race is scored (both resigned early: 0 points, a race each) and both are paired
    # again, each taken to the next race by themselves.
    second = room_of(ann, (first,))
    assert room_of(bob, (first,)) == second
    for page in (ann, bob):  # (a seat not connected when its race starts is out of it)
        wait_racing(page)
    expect(watcher.locator(".arena-standings tbody tr td:nth-child(4)")).to_have_text(["1", "1"])
    # Ann looks at the arena meanwhile (her socket lives on), and pauses.
    to_arena(ann, arena_id)
    expect(ann.locator(".arena-standings tbody tr td:nth-child(4)")).to_have_text(["1", "1"])
    assert races_column(ann) == ["1", "1"]
    ann.get_by_role("button", name="Pause").click()
    expect(ann.get_by_role("button", name="Resume")).to_be_visible()
    expect(ann.locator(".entrant-line")).to_have_text(
        "You are paused: no new race until you resume."
    )
    shot(ann, "arena-paused-1366")
    ann.get_by_role("link", name="Back to your race").click()
    assert room_of(ann) == second
    resign(ann)
    expect(ann.locator(".arena-next")).to_have_text(
        "You are paused: resume on the arena's page to race again."
    )
    resign(bob)
    expect(bob.locator(".overlay .arena-next")).to_have_text("Your next race starts by itself.")
    shot(bob, "arena-race-end-390")
    # Back in the arena, Ann resumes: both are taken to a third race by themselves.
    ann.locator(".overlay").get_by_role("link", name="Back to the arena").click()
    expect(ann.locator(".arena-standings tbody tr td:nth-child(4)")).to_have_text(["2", "2"])
    ann.get_by_role("button", name="Resume").click()
    third = room_of(ann, (first, second))
    assert room_of(bob, (first, second)) == third
    wait_racing(bob)
    shot(bob, "arena-third-race-390")


FITS = """() => [...document.querySelectorAll('section.arena *, .panel-arenas *')]
    .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5
        && !el.closest('.table-scroll'))
    .map((el) => el.outerHTML.slice(0, 80))"""

PODIUM = """async () => {
    const { podiumView } = await import('./js/arena/arenaviews.js');
    const line = (rank, name, score) => ({ rank, player_id: `p${rank}`, name, score, races: 9,
        wins: 5, streak: 0, fire: false, paused: false, racing: false, performance: 1500 });
    const box = document.createElement('div');
    box.className = 'arena-podium-shown';
    box.append(podiumView([line(1, 'Ann', 24), line(2, 'Bob Longname-Longname', 17),
        line(3, 'Cy', 9)], line(7, 'You', 4)));
    document.querySelector('section.arena').prepend(box);
}"""


@pytest.mark.parametrize(("lang", "width"), [("pl", PHONE), ("kk", PHONE), ("kk", DESKTOP)])
def test_the_arena_page_and_the_lobby_panel_fit_the_screen_in_every_language(
    contexts: Callable[..., tuple[BrowserContext, Page]], server_url: str, lang: str, width: int
) -> None:
    context, page = contexts(lang, width)
    arena_id = new_arena(context, server_url, name="Arena Zakopane", seats=3, step="ones")
    open_arena(page, server_url, arena_id)
    page.locator("button.arena-join").click()
    expect(page.locator(".arena-standings tbody tr")).to_have_count(1)
    expect(page.locator(".arena-actions .entrant-line")).to_be_visible()
    page.locator(".arena-rules summary").click()
    page.locator(".arena-all summary").click()
    expect(page.locator(".arena-all .arena-standings")).to_be_visible()
    page.evaluate(PODIUM)
    expect(page.locator(".podium-place")).to_have_count(3)
    check_page(page, lang)
    assert page.evaluate(FITS) == [], f"off a {width} px screen"
    shot(page, f"arena-page-{lang}-{width}")
    # The lobby's panel: the arena listed with its link, and the create form unfolded.
    page.goto(f"{server_url}/#/")
    panel = page.locator(".panel-arenas")
    item = panel.locator(f"li[data-arena='{arena_id}']")
    expect(item).to_be_visible()
    expect(item.locator("a")).to_have_attribute("href", f"#/arena/{arena_id}")
    panel.locator(".arena-create summary").click()
    expect(panel.locator(".arena-create form")).to_be_visible()
    check_page(page, lang)
    assert page.evaluate(FITS) == [], f"off a {width} px screen"
    shot(panel, f"arena-lobby-{lang}-{width}")


def test_an_arena_created_from_the_lobby_opens_its_page(
    contexts: Callable[..., tuple[BrowserContext, Page]], server_url: str
) -> None:
    _, page = contexts(width=PHONE)
    page.goto(f"{server_url}/#/")
    panel = page.locator(".panel-arenas")
    panel.get_by_text("Create an arena").click()
    panel.get_by_label("Arena name").fill("Lunch arena")
    panel.get_by_label("Game").select_option("squadron")
    expect(panel.get_by_label("Foundation step")).to_be_hidden()
    panel.get_by_label("Length").select_option("30")
    panel.get_by_label("Racers per race").select_option("3")
    panel.get_by_role("button", name="Create the arena").click()
    expect(page).to_have_url(re.compile(r"#/arena/[^/]+$"))
    expect(page.locator("section.arena h1")).to_have_text("Lunch arena")
    expect(page.locator(".race-settings")).to_have_text(
        "Squadron · races of 5 min · 3 seats · lasts 30 min · rated"
    )
    expect(page.get_by_role("button", name="Join the arena")).to_be_visible()
    shot(page, "arena-created-390")
