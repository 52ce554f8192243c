"""The quality bars of the web client in a real browser: no serious or critical axe-core
violation on any page, at desktop and at phone size, pages that load only the modules (and
the one language catalogue) they use, and a race played to its end with the keyboard
alone."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from browser_kit import (
    DEAL,
    STEP,
    Console,
    _solved,
    join_room,
    new_room,
    post,
    ready,
    settled,
    shot,
    wait_racing,
)
from browser_kit import browser as browser  # the fixtures
from browser_kit import console as console
from browser_kit import line as line
from browser_kit import new_page as new_page
from browser_kit import server_url as server_url
from stalactites.engine.stalactites import Stalactites

AXE = Axe()
GRAVE = ("serious", "critical")


def grave_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as shown, one line each."""
    results: dict[str, Any] = AXE.run(page).response
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(str(node["target"]) for node in v["nodes"][:4])
        for v in results["violations"]
        if v["impact"] in GRAVE
    ]


def new_tournament(server_url: str) -> str:
    body = {"name": "Winter cup", "game": "stalactites", "rounds": 1, "round_time_s": 60}
    tournament_id: str = post(f"{server_url}/api/tournaments", body)["tournament_id"]
    return tournament_id


def resign(page: Page) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".race-actions .btn-quiet").first.click()


@pytest.mark.parametrize("width", [1366, 390], ids=["desktop", "phone"])
def test_no_page_has_a_serious_or_critical_axe_violation(
    new_page: Callable[..., Page], server_url: str, width: int
) -> None:
    found: dict[str, list[str]] = {}

    def check(page: Page, name: str) -> None:
        found[name] = grave_violations(page)
        shown = re.sub(r"^(tournament)/.*", r"\1", name.strip("/#")) or "lobby"
        shot(page, f"axe-{re.sub(r'[/ ]', '-', shown)}-{width}")

    def sized(path: str) -> Page:
        page = new_page(path, width=width)
        page.set_viewport_size({"width": width, "height": 768 if width > 800 else 844})
        return page

    lobby = sized("/#/")
    expect(lobby.locator(".room-list").first).not_to_be_empty()
    check(lobby, "lobby")
    for path, ready_mark in (
        ("/#/rules/stalactites", "main h1"),
        ("/#/rules/squadron", "main h1"),
        ("/#/learn", "main .board"),
        ("/#/help", "main h1"),
        ("/#/me", "main h1"),
        ("/#/leaderboard/stalactites", "main h1"),
        ("/#/daily/stalactites", "main h1"),
        (f"/#/tournament/{new_tournament(server_url)}", ".round-line"),
    ):
        lobby.goto(f"{server_url}{path}")
        expect(lobby.locator(ready_mark).first).to_be_visible()
        check(lobby, path)

    room = new_room(server_url, seats=2, spectator_delay_s=1)
    lobby.goto(f"{server_url}/#/room/{room}")
    expect(lobby.locator("form input[name=name]")).to_be_visible()
    check(lobby, "join")
    join_room(lobby, "Ada")
    check(lobby, "waiting room")
    other = sized(f"/#/room/{room}")
    join_room(other, "Bo")
    ready(lobby)
    ready(other)
    wait_racing(lobby)
    check(lobby, "race")
    watcher = sized(f"/#/watch/{room}")
    expect(watcher.locator(".spectated .pile-t").first).to_be_visible()
    check(watcher, "spectate")
    resign(lobby)
    resign(other)
    expect(lobby.locator("section.race")).to_have_attribute("data-status", "finished")
    expect(lobby.locator(".overlay-card .results")).to_be_visible()
    # Equal on cards, both resigned: placed first together, never told "You finished 1st".
    expect(lobby.locator(".overlay-card h2")).to_have_text("You resigned, placed 1st")
    check(lobby, "results")
    lobby.goto(f"{server_url}/#/replay/{room}")
    expect(lobby.locator(".replay-readout")).to_be_visible()
    check(lobby, "replay")
    # The racer's own profile, now with the race in its history table.
    lobby.goto(f"{server_url}/#/me")
    expect(lobby.locator("table.history tbody tr").first).to_be_visible()
    check(lobby, "profile")
    grave = [f"{name}: {line}" for name, lines in found.items() for line in lines]
    assert grave == [], "\n".join(grave)


def test_the_lobby_loads_none_of_the_race_replay_or_tournament_modules(
    browser: Browser, console: Console, server_url: str
) -> None:
    scripts: list[str] = []
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = console.watch(context.new_page())
    page.on("request", lambda r: scripts.append(r.url) if r.url.endswith(".js") else None)
    page.goto(f"{server_url}/#/")
    expect(page.locator(".room-list").first).not_to_be_empty()
    loaded = {re.sub(r".*/js/", "", url) for url in scripts}
    assert "lobby.js" in loaded
    race_only = {"race.js", "board.js", "cardface.js", "controls.js", "replay.js", "chart.js"}
    assert loaded.isdisjoint(race_only | {"tournament.js", "spectate.js", "profile.js"})
    page.goto(f"{server_url}/#/room/{new_room(server_url, seats=1)}")
    join_room(page, "Solo")  # the race's modules come when its page is first shown
    assert "race.js" in {re.sub(r".*/js/", "", url) for url in scripts}
    context.close()


def test_only_the_chosen_languages_catalogue_is_loaded_and_a_switch_loads_the_next(
    browser: Browser, console: Console, server_url: str
) -> None:
    catalogues: list[str] = []
    context = browser.new_context(locale="pl-PL", viewport={"width": 1366, "height": 768})
    page = console.watch(context.new_page())
    page.on("request", lambda r: catalogues.extend(re.findall(r"/js/lang/(\w+)\.js$", r.url)))
    page.goto(f"{server_url}/#/")
    expect(page.locator("main h1")).to_have_text("Zacznij wyścig")
    expect(page.locator("#lang option")).to_have_text(["English", "Polski", "Қазақша"])
    assert catalogues == ["pl"]
    page.select_option("#lang", "kk")
    expect(page.locator("main h1")).to_have_text("Жарыс бастау")
    assert catalogues == ["pl", "kk"]
    page.select_option("#lang", "pl")  # back: already here, nothing fetched again
    expect(page.locator("main h1")).to_have_text("Zacznij wyścig")
    assert catalogues == ["pl", "kk"]
    context.close()


def keys_of(move: str, game: Stalactites) -> tuple[list[str], str]:
    """The keys that play ``move`` and the move they play: a column by its number, a cell by
    q w, and f or c for the first foundation or cell that takes the card."""
    src, dst = move.split("-")
    first = src[1:] if src[0] == "t" else "qwe"[int(src[1:]) - 1]
    if dst[0] == "t":
        return [first, dst[1:]], move
    legal = sorted(
        (str(m) for m in game.generate_legal_moves() if str(m).startswith(f"{src}-{dst[0]}")),
        key=lambda m: int(m.split("-")[1][1:]),
    )
    return [first, dst[0]], legal[0]


def test_a_solo_race_is_joined_started_and_won_with_the_keyboard_alone(
    new_page: Callable[..., Page], server_url: str, line: list[str]
) -> None:
    page = new_page(f"/#/room/{new_room(server_url, seats=1)}", width=1366)
    expect(page.locator("form input[name=name]")).to_be_visible()
    for _ in range(40):  # Tab to the name field, as a keyboard user would
        if page.evaluate("document.activeElement?.name") == "name":
            break
        page.keyboard.press("Tab")
    page.keyboard.type("Keys")
    page.keyboard.press("Enter")
    # The race page is drawn before the room's view arrives; its keys work once it has.
    expect(page.locator("section.race")).to_have_attribute("data-status", "waiting")
    page.keyboard.press("r")  # ready
    wait_racing(page)
    game = Stalactites(DEAL, step=STEP)
    plan = list(line)
    while plan:
        move = plan.pop(0)
        keys, played = keys_of(move, game)
        for key in keys:
            page.keyboard.press(key)
        settled(page)
        game.push(played)
        if played != move:  # the keys chose another foundation or cell: a new line from here
            plan = _solved(game)
    expect(page.locator("section.race")).to_have_attribute("data-status", "finished")
    shot(page, "quality-keyboard-race")
