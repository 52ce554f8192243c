"""Ghost races in the web client, in a real browser against a real server: "Race this run"
from a player's history and from a replay makes a ghost race, the ghost shows as an opponent
named "ghost of NAME" with its mark, its progress moves while its board is never shown, the
results and the racer's history say whose ghost it was; screenshots at 1366x768 and 390x844,
and the Polish and Kazakh pages leave no English.
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from playwright.sync_api import Browser, Page, ViewportSize, expect

from browser_kit import LOCALES, Console, check_page, in_thread, recorded, shot
from browser_kit import browser as browser  # the fixtures
from browser_kit import console as console
from browser_kit import server_url as server_url
from ghosts_kit import SourceRun, source_run

DESKTOP: ViewportSize = {"width": 1366, "height": 768}
PHONE: ViewportSize = {"width": 390, "height": 844}


def recorded_run(server_url: str, moves: int) -> SourceRun:
    ws = server_url.replace("http://", "ws://")
    server = SimpleNamespace(url=server_url, ws_url=lambda room_id: f"{ws}/ws/rooms/{room_id}")
    return in_thread(source_run(server, moves=moves))


def visitor(
    browser: Browser, console: Console, url: str, lang: str = "en", viewport: Any = DESKTOP
) -> Page:
    context = browser.new_context(viewport=viewport, locale=LOCALES[lang])
    page = console.watch(context.new_page())
    page.goto(url)
    return page


def test_race_this_run_from_a_history_races_the_ghost_labelled_as_one(
    browser: Browser, server_url: str, console: Console
) -> None:
    run = recorded_run(server_url, moves=4)
    name = run.player["name"]
    page = visitor(browser, console, f"{server_url}/#/player/{run.player['player_id']}")
    button = page.locator(f"tr[data-room='{run.room_id}']").get_by_role(
        "button", name="Race this run"
    )
    button.click()
    expect(page.locator("section.race")).to_be_visible()
    ghost = page.locator(".waiting-list li", has_text=f"ghost of {name}")
    expect(ghost.locator(".ghost-mark")).to_have_count(1)
    shot(page, "ghost-waiting-1366")
    page.get_by_role("button", name=re.compile("ready", re.I)).click()
    expect(page.locator("section.race")).to_have_attribute("data-status", "racing")
    racer = page.locator(".racers .racer", has_text=f"ghost of {name}")
    # The moves on its board at the end: 4 actions, fewer moves where the run had to undo one
    # (a racer's count is of the moves standing, as its board's).
    standing = len(run.line["record"]["moves"])
    counted = f"{standing} move" if standing == 1 else f"{standing} moves"
    expect(racer.locator(".racer-moves")).to_have_text(counted)
    expect(racer).to_have_class(re.compile("racer-resigned"))
    expect(page.get_by_text(f"ghost of {name} has resigned.").first).to_be_visible()  # news
    expect(racer.locator(".tag-off")).to_have_count(0)  # a ghost is always there
    assert page.locator(".board").count() == 1  # one's own board: never the ghost's
    shot(page, "ghost-racing-1366")
    page.set_viewport_size(PHONE)
    shot(page, "ghost-racing-390")
    page.set_viewport_size(DESKTOP)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()
    results = page.locator("table.results")
    expect(results.get_by_text(f"ghost of {name}")).to_be_visible()
    expect(results.get_by_role("button", name="Race this run")).to_have_count(0)
    # A ghost cannot join a rematch: Race again goes to the quick race's queue instead.
    expect(page.get_by_role("button", name="Rematch")).to_have_count(0)
    again = page.get_by_role("link", name="Race again")
    expect(again).to_have_attribute("href", "#/quick/stalactites/choice")
    shot(page, "ghost-results-1366")
    recorded(page, server_url)
    page.goto(f"{server_url}/#/me")
    expect(page.locator(".ghost-note").first).to_contain_text(f"ghost of {name}")
    # On one's own history, a ghost race's button races that ghost's run again.
    page.locator("tr", has=page.locator(".ghost-note")).first.get_by_role(
        "button", name="Race this run"
    ).click()
    expect(page.locator(".waiting-list li", has_text=f"ghost of {name}")).to_be_visible()
    page.context.close()


def test_race_this_run_from_a_replay_and_the_pages_in_every_language(
    browser: Browser, server_url: str, console: Console
) -> None:
    run = recorded_run(server_url, moves=2)
    page = visitor(browser, console, f"{server_url}/#/replay/{run.room_id}")
    page.locator("details summary").click()
    page.get_by_role("button", name="Race this run").click()
    ghost = page.locator(".waiting-list li", has_text=f"ghost of {run.player['name']}")
    expect(ghost).to_be_visible()
    page.context.close()
    for lang in ("pl", "kk"):
        page = visitor(browser, console, f"{server_url}/#/player/{run.player['player_id']}", lang)
        expect(page.locator(".race-run")).to_have_count(1)
        check_page(page, lang)
        page.locator(".race-run").click()
        expect(page.locator(".waiting-list .ghost-mark")).to_have_count(1)
        check_page(page, lang)
        shot(page, f"ghost-waiting-{lang}-390" if lang == "kk" else f"ghost-waiting-{lang}")
        page.context.close()
