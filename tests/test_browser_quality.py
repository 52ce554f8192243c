"""The quality bars of the web client in a real browser: no serious or critical axe-core
violation on any page (axe-core as pinned in package.json, every rule on, experimental
included), at desktop and at phone size, pages that load only the modules (and
the one language catalogue) they use, and a race played to its end with the keyboard
alone."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from typing import Any, Literal

import pytest
from playwright.sync_api import Browser, Page, expect

from browser_kit import (
    DEAL,
    ROOT,
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
from tournament_kit import start_now

GRAVE = ("serious", "critical")
AXE_CORE = ROOT / "node_modules" / "axe-core"
# Every rule axe-core has, experimental and deprecated ones included (a rule list in runOnly
# runs a rule whatever its tags or its default), every one of them found in some result group.
EVERY_RULE = """async () => {
    const rules = axe.getRules().map((rule) => rule.ruleId);
    const results = await axe.run(document, {
        runOnly: { type: 'rule', values: rules },
        resultTypes: ['violations'],
    });
    const groups = ['violations', 'incomplete', 'passes', 'inapplicable'];
    return {
        version: axe.version,
        rules: rules.length,
        ran: new Set(groups.flatMap((group) => results[group].map((rule) => rule.id))).size,
        violations: results.violations,
    };
}"""


@cache
def axe_core() -> tuple[str, str]:
    """The version package.json pins and axe-core's script, as installed by tests/run.sh."""
    pinned: str = json.loads((ROOT / "package.json").read_text())["devDependencies"]["axe-core"]
    script = AXE_CORE / "axe.min.js"
    assert script.exists(), f"{script} is missing: `npm ci` (tests/run.sh) installs it"
    return pinned, script.read_text()


def grave_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as shown, one line each."""
    pinned, script = axe_core()
    page.evaluate(script)  # through the DevTools protocol: the page's CSP does not apply
    results: dict[str, Any] = page.evaluate(EVERY_RULE)
    assert results["version"] == pinned
    assert results["ran"] == results["rules"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(str(node["target"]) for node in v["nodes"][:4])
        for v in results["violations"]
        if v["impact"] in GRAVE
    ]


def new_tournament(server_url: str) -> tuple[str, str]:
    """A tournament's id and its organiser's token."""
    body = {"name": "Winter cup", "game": "stalactites", "rounds": 1, "round_time_s": 60}
    made = post(f"{server_url}/api/tournaments", body)
    return made["tournament_id"], made["admin_token"]


def resign(page: Page) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".race-actions .btn-quiet").first.click()


# The client has one palette of its own; the browser's light or dark preference changes only
# what the browser draws itself (index.html: color-scheme "dark light"), so each is run once.
@pytest.mark.parametrize(
    ("width", "scheme"), [(1366, "light"), (390, "dark")], ids=["desktop-light", "phone-dark"]
)
def test_no_page_has_a_serious_or_critical_axe_violation(
    new_page: Callable[..., Page], server_url: str, width: int, scheme: Literal["light", "dark"]
) -> None:
    found: dict[str, list[str]] = {}

    def check(page: Page, name: str) -> None:
        found[name] = grave_violations(page)
        shown = re.sub(r"^(tournament)/.*", r"\1", name.strip("/#")) or "lobby"
        shot(page, f"axe-{re.sub(r'[/ ]', '-', shown)}-{width}")

    def sized(path: str) -> Page:
        page = new_page(path, width=width)
        page.set_viewport_size({"width": width, "height": 768 if width > 800 else 844})
        page.emulate_media(color_scheme=scheme)
        return page

    tournament, admin_token = new_tournament(server_url)
    lobby = sized("/#/")
    expect(lobby.locator(".room-list").first).not_to_be_empty()
    check(lobby, "lobby")
    for path, ready_mark in (
        ("/#/rules/stalactites", "main h1"),
        ("/#/rules/squadron", "main h1"),
        ("/#/learn", "main .board"),
        ("/#/help", "main h1"),
        ("/#/me", "main .rating-number"),
        ("/#/leaderboard/stalactites", "main h1"),
        ("/#/daily/stalactites", "main h1"),
        (f"/#/tournament/{tournament}", ".round-line"),
    ):
        lobby.goto(f"{server_url}{path}")
        expect(lobby.locator(ready_mark).first).to_be_visible()
        check(lobby, path)
    # The tournament once running: its live standings (seen by a visitor) and an entrant's round.
    entrant = sized(f"/#/tournament/{tournament}")
    entrant.locator("input[name=name]").fill("Cy")
    entrant.get_by_role("button", name="Enter the tournament").click()
    expect(entrant.locator(".tournament-actions")).to_contain_text("You are entered")
    start_now(server_url, tournament, admin_token)
    expect(lobby.locator(".standings-box .tag.live")).to_be_visible()
    check(lobby, "tournament running")
    entrant.wait_for_url(re.compile(r"#/room/"))
    wait_racing(entrant)
    check(entrant, "tournament round")

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
    for summary in lobby.locator(".account details summary").all():  # sign in, delete
        summary.click()
    expect(lobby.locator(".account .btn-danger")).to_be_visible()
    check(lobby, "account forms")
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
    assert "lobby/lobby.js" in loaded
    race_only = {"race/race.js", "board/board.js", "board/cardface.js", "race/controls.js"}
    race_only |= {"replay/replay.js", "shared/chart.js"}
    others = {"tournament/tournament.js", "race/spectate.js", "profile/profile.js"}
    assert loaded.isdisjoint(race_only | others)
    page.goto(f"{server_url}/#/room/{new_room(server_url, seats=1)}")
    join_room(page, "Solo")  # the race's modules come when its page is first shown
    assert "race/race.js" in {re.sub(r".*/js/", "", url) for url in scripts}
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
