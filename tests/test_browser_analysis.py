"""After the race, in a real browser: the results page's analysis and the replay by the clock.

Ada and Bo race the fixed deal in a room with undo.  Bo plays a move and takes it back, plays
on, then parks a card that loses the deal (the solver says so) and resigns; Ada clicks the
solver's line to the win.  The page must show the server's analysis as the server made it
(accuracy, moves against the fewest, the slowest actions, Bo's turning point with the move
played and the one that kept it winnable, the winning line stepped through on a board, the
timeline with Bo's lost win marked first), and the replay must show every board as the record
says it stood at the race time on its slider, play at 8x the page's clock, and jump to Bo's
turning point.  Screenshots at 1366x768 and 390x844, in English, Polish and Kazakh.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from browser_kit import (
    DEAL,
    SOLVER_MS,
    STEP,
    Console,
    board_of,
    check_page,
    click_move,
    engine_board,
    join_room,
    new_room,
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
from stalactites.engine.actions import apply_action
from stalactites.engine.stalactites import Stalactites
from stalactites.solver import Verdict, solve

LOSING = "t5-c1"  # after the line's first four moves, parking t5's card loses ms:1 by ones
SIZES = {"desktop": (1366, 768), "phone": (390, 844)}


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=60) as answer:
        return json.loads(answer.read())


def undo(page: Page) -> None:
    page.get_by_role("button", name=re.compile("^Undo")).click()
    settled(page)


def resign(page: Page) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()


@pytest.fixture(scope="module")
def race(browser: Browser, server_url: str, line: list[str]) -> Iterator[dict[str, Any]]:
    """A finished race of Ada (the solver's line, won) and Bo (an undo, then a lost board)."""
    game = Stalactites(DEAL, step=STEP)
    for move in line[:4]:
        game.push(move)
    game.push(LOSING)
    assert solve(game).verdict is Verdict.LOST, "the test's losing move must lose"
    room = new_room(server_url, seats=2, undo=True)
    contexts = {
        name: browser.new_context(viewport={"width": 1366, "height": 768}) for name in ("Ada", "Bo")
    }
    pages = {}
    for name, context in contexts.items():
        page = context.new_page()
        page.goto(f"{server_url}/#/room/{room}")
        join_room(page, name)
        pages[name] = page
    for page in pages.values():
        ready(page)
    for page in pages.values():
        wait_racing(page)
    ada, bo = pages["Ada"], pages["Bo"]
    click_move(bo, line[0])
    undo(bo)
    for move in [*line[:4], LOSING, line[4]]:
        click_move(bo, move)
    for move in line:
        click_move(ada, move)
    resign(bo)
    expect(ada.locator(".overlay-card .replay-link")).to_be_visible()
    record = get_json(f"{server_url}/api/rooms/{room}/record")
    analysis = get_json(f"{server_url}/api/rooms/{room}/analysis")
    contexts["Bo"].close()
    yield {"room": room, "page": ada, "record": record, "analysis": analysis}
    contexts["Ada"].close()


def player(data: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(p for p in data["players"] if p["name"] == name)
    return found


def cards_at(record: dict[str, Any], name: str, ms: int) -> tuple[int, Stalactites]:
    """A racer's foundation cards at race time ``ms``, by the record's timed actions."""
    game = Stalactites(DEAL, step=STEP)
    for entry in player(record, name)["actions"]:
        if entry["at_ms"] <= ms:
            apply_action(game, entry["action"])
    return game.foundation_cards, game


def test_the_results_page_shows_the_servers_analysis(race: dict[str, Any]) -> None:
    page, analysis = race["page"], race["analysis"]
    page.locator(".overlay-card .replay-link").click()
    section = page.locator(".analysis")
    expect(section).to_have_attribute("data-state", "ready", timeout=SOLVER_MS)
    ada, bo = player(analysis, "Ada"), player(analysis, "Bo")
    assert bo["turning_point"] is not None and ada["turning_point"] is None
    for who in (ada, bo):
        card = section.locator(f'.analysis-racer[data-player="{who["player_id"]}"]')
        percent = f"{round(who['accuracy'] * 100)}%"
        expect(card.locator(".stat-accuracy")).to_have_text(percent)
        # The fewest a win needs only beside a win (Ada's), never after Bo's early resignation.
        fewest = who["fewest_moves"]
        against = who is ada and fewest["exact"]
        expect(card.locator(".stat-moves")).to_have_text(
            f"{who['moves']} (the fewest a win needs: {fewest['value']})"
            if against
            else str(who["moves"])
        )
        slowest = card.locator(".analysis-slowest li")
        expect(slowest).to_have_count(len(who["slowest"]))
        indexes = [int(i) for i in slowest.evaluate_all("(els) => els.map((e) => e.dataset.index)")]
        assert indexes == who["slowest"]
        for text in slowest.all_inner_texts():
            assert not re.search(r"\b[tcfsw]\d*-[tcfw]\d", text), f"notation in {text!r}"
    expect(section.locator(f'[data-player="{ada["player_id"]}"] .analysis-verdict')).to_have_text(
        "The win was never thrown away."
    )
    turning = bo["turning_point"]
    assert turning["action"] == LOSING
    tp = section.locator(f'.analysis-racer[data-player="{bo["player_id"]}"] .turning-point')
    # The board before the turning point, then the winning line from it, move by move; the
    # moves in words with their cards, never in notation.
    before = Stalactites(DEAL, step=STEP)
    for entry in player(race["record"], "Bo")["actions"][: turning["action_index"] - 1]:
        apply_action(before, entry["action"])
    expect(tp.locator(".played-move")).to_have_text(move_words(before, LOSING))
    expect(tp.locator(".kept-move")).to_have_text(move_words(before, turning["continuation"][0]))
    assert board_of(page, ".turning-point") == engine_board(before)
    forward = tp.get_by_role("button", name="one move on along the winning line")
    for move in turning["continuation"][:3]:
        forward.click()
        before.push(move)
    line_length = len(turning["continuation"])
    expect(tp.locator(".line-counter")).to_have_text(f"winning line: move 3 of {line_length}")
    assert board_of(page, ".turning-point") == engine_board(before)
    # The timeline: Bo lost the win first, marked on Bo's line.
    first = analysis["timeline"]["first_to_lose_win"]
    assert first == bo["player_id"]
    lost = next(r for r in analysis["timeline"]["racers"] if r["player_id"] == first)
    minutes, seconds = divmod(lost["lost_win_at_ms"] // 1000, 60)
    expect(section.locator(".timeline-caption")).to_have_text(
        f"Bo lost the win first, at {minutes}:{seconds:02d}."
    )
    expect(section.locator(f'.timeline-lost[data-player="{first}"]')).to_have_count(1)
    expect(section.locator(".timeline-lost")).to_have_count(1)
    label = section.locator(".timeline-chart").get_attribute("aria-label") or ""
    assert "Bo lost the win first" in label, "the chart says in words what it shows"


RANK_WORDS = {"T": "10"}
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def move_words(game: Stalactites, move: str) -> str:
    """A Stalactites move as the analysis says it: "7♥ from column 1 to a free cell"."""
    src, dst = move.split("-")
    state = game.state()
    index = int(src[1:]) - 1
    card = state["tableau"][index][-1] if src[0] == "t" else state["cells"][index]
    label = RANK_WORDS.get(card[0], card[0]) + SUITS[card[1]]
    start = f"from column {src[1:]}" if src[0] == "t" else "from a cell"
    end = "to a free cell" if dst[0] == "c" else f"to foundation {dst[1:]}"
    return f"{label} {start} {end}"


def test_the_replay_shows_every_board_as_it_stood_at_the_slider_time(race: dict[str, Any]) -> None:
    page, record = race["page"], race["record"]
    ada_actions = player(record, "Ada")["actions"]
    # The slider moves by tenths of a second: a time on it is a multiple of 100 ms.
    for at in (
        ada_actions[10]["at_ms"] // 100 * 100 + 100,
        ada_actions[30]["at_ms"] // 100 * 100,
        0,
    ):
        set_slider(page, at)
        for who in ("Ada", "Bo"):
            cards, game = cards_at(record, who, at)
            board = f'.replay-board[data-player="{player(record, who)["player_id"]}"]'
            expect(page.locator(f"{board} .replay-cards")).to_have_attribute(
                "data-cards", str(cards)
            )
            assert board_of(page, board) == engine_board(game), f"{who} at {at} ms"
    # Bo's first move was taken back: shown as undone, and so is nothing else.
    bo = f'.replay-board[data-player="{player(record, "Bo")["player_id"]}"]'
    expect(page.locator(f"{bo} .action-list li.undone")).to_have_count(1)
    expect(page.locator(f"{bo} .action-list li.undone")).to_have_attribute("data-index", "1")
    expect(page.locator(f'{bo} .action-list li[data-index="2"] .action-text')).to_have_text("undo")


def set_slider(page: Page, ms: int) -> None:
    page.locator(".replay-slider").evaluate(
        "(el, ms) => { el.value = String(ms); el.dispatchEvent(new Event('input')); }", ms
    )
    expect(page.locator(".replay-readout")).to_have_attribute("data-ms", str(ms))


READ = """() => { const el = document.querySelector('.replay-readout');
    return [performance.now(), Number(el.dataset.wall), Number(el.dataset.ms)]; }"""


def test_play_at_8x_runs_the_race_clock_eight_times_the_pages_clock(
    race: dict[str, Any],
) -> None:
    page = race["page"]
    duration = int(page.locator(".replay-slider").get_attribute("max") or 0)
    assert duration > 4000, "the race is long enough to measure"
    set_slider(page, 0)
    page.locator('.replay-speed[data-speed="8"]').click()
    expect(page.locator('.replay-speed[data-speed="8"]')).to_have_attribute("aria-pressed", "true")
    page.locator(".replay-play").click()
    page.wait_for_function(
        "() => Number(document.querySelector('.replay-readout').dataset.ms) > 500"
    )
    now0, wall0, clock0 = page.evaluate(READ)
    # Stop measuring halfway to the end: the clock stops at the end, so a frame late by more
    # than the race time left over eight would read slow.
    goal = clock0 + min(8000, (duration - clock0) // 2)
    page.wait_for_function(
        f"() => Number(document.querySelector('.replay-readout').dataset.ms) >= {goal}"
    )
    now1, wall1, clock1 = page.evaluate(READ)
    assert clock1 < duration, "read before the end, where the clock stops"
    # The readout says when (by the page's performance.now()) it showed its time: the race
    # clock ran eight times that; and never faster than eight times the page's clock between
    # the two readings (a slow frame only makes the readout late).
    ratio = (clock1 - clock0) / (wall1 - wall0)
    assert 7.8 < ratio < 8.2, f"the race clock ran {ratio:.2f}x the page's"
    assert (clock1 - clock0) / (now1 - wall0 + 1) < 8.2  # from clock0's showing to our read
    page.locator(".replay-play").click()
    expect(page.locator(".replay-play")).to_have_attribute("aria-pressed", "false")


def test_the_replay_jumps_to_a_racers_turning_point(race: dict[str, Any]) -> None:
    page, analysis = race["page"], race["analysis"]
    bo = player(analysis, "Bo")
    turning = bo["turning_point"]
    page.locator(f'.replay-jump[data-player="{bo["player_id"]}"]').click()
    readout = page.locator(".replay-readout")
    expect(readout).to_have_attribute("data-ms", str(turning["at_ms"] - 1))
    current = page.locator(f'.replay-board[data-player="{bo["player_id"]}"] li.current')
    expect(current).to_have_attribute("data-index", str(turning["action_index"] - 1))
    expect(
        page.locator(f'.replay-board[data-player="{bo["player_id"]}"] li.later').first
    ).to_contain_text(LOSING)


WIDER = """() => [...document.querySelectorAll('#app *')]
    .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
    .filter((el) => !el.closest('.table-scroll, .action-list'))
    .map((el) => `${el.tagName}.${el.className?.baseVal ?? el.className}`).slice(0, 8)"""


@pytest.mark.parametrize("lang", ["en", "pl", "kk"])
@pytest.mark.parametrize("size", SIZES)
def test_the_results_page_reads_well_on_a_desktop_and_a_phone(
    new_page: Callable[..., Page], race: dict[str, Any], browser: Browser, size: str, lang: str
) -> None:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    saved = json.dumps(json.dumps(lang))
    context.add_init_script(f"localStorage.setItem('sr.lang', {saved})")
    page = new_page(f"/#/replay/{race['room']}", context=context)
    expect(page.locator(".analysis")).to_have_attribute("data-state", "ready", timeout=SOLVER_MS)
    set_slider(page, player(race["record"], "Ada")["actions"][20]["at_ms"] // 100 * 100)
    check_page(page, lang)
    shot(page, f"results-page-{size}-{lang}")
    for part in ("analysis", "replay-clock"):
        shot(page.locator(f".{part}"), f"results-{part}-{size}-{lang}")
    overflow = page.evaluate(WIDER)
    assert overflow == [], f"wider than the {size} screen: {overflow}"
    context.close()


def test_the_analysis_says_it_is_being_made_and_why_it_failed_then_tries_again(
    new_page: Callable[..., Page], race: dict[str, Any], browser: Browser, console: Console
) -> None:
    console.allow("status of 500")  # the failure made here, as the browser logs it
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    held: list[Route] = []
    context.route("**/analysis", lambda route: held.append(route))
    page = new_page(f"/#/replay/{race['room']}", context=context)
    section = page.locator(".analysis")
    expect(section.locator(".analysis-loading")).to_have_text(
        "The solver is analysing every board of the race…"
    )
    expect(section).to_have_attribute("data-state", "loading")
    expect(page.locator(".replay-board")).to_have_count(2)  # the replay does not wait for it
    held.pop().fulfill(
        status=500,
        content_type="application/json",
        body=json.dumps({"code": "internal", "message": "the server failed"}),
    )
    expect(section).to_have_attribute("data-state", "failed")
    expect(section.locator(".analysis-error")).to_have_text(
        "The analysis could not be made: The server had a problem. Try again."
    )
    context.unroute("**/analysis")
    section.get_by_role("button", name="Try again").click()
    expect(section).to_have_attribute("data-state", "ready", timeout=SOLVER_MS)
    expect(section.locator(".analysis-racer")).to_have_count(2)
    context.close()
