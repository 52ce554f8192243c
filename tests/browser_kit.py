"""The web tests' browser and server: Debian's chromium started by Playwright with these flags
(no sandbox, as root in a container; nothing fetched in the background), a ``stalactites
serve`` subprocess for the pages, the page helpers the browser test modules share, and the
catalogue check (no English left on a Polish or Kazakh page, every control named).

The fixtures here (``server_url``, ``redis_server``, ``browser``, ``console``, ``new_page``,
``line``) are taken into a test module by importing them under their own names.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
import uuid
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
import redis
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import players_kit
from server_kit import TEST_DEAL_POOL, board_game, end_process, free_port
from stalactites.engine.stalactites import Stalactites
from stalactites.solver import Verdict, solve

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "Console",
    "DEAL",
    "REDIS_URL",
    "ROOT",
    "SHOTS",
    "SHOWS_BOARD",
    "SOLVER_MS",
    "STEP",
    "ServerProcess",
    "_solved",
    "board_of",
    "browser",
    "click_move",
    "console",
    "engine_board",
    "expect_board",
    "in_thread",
    "join_room",
    "line",
    "new_page",
    "new_room",
    "post",
    "ready",
    "recorded",
    "redis_server",
    "server_url",
    "settled",
    "shot",
    "start_solo",
    "top_card",
    "wait_racing",
    "winning_line",
    "winning_line_from",
]

T = TypeVar("T")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # Each new window would build the address bar's popup (a WebUI page in a renderer of its
    # own) ahead of use: half of a fresh context's CPU, for a bar no test types in.
    "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
]

# What a page is expected to show, it shows within this: the suite runs four workers' servers
# and browsers on two cores, where a frame may take seconds (the wait ends at the event).
expect.set_options(timeout=15_000)

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "test-output"
DEAL = "ms:1"
REDIS_URL = "redis://127.0.0.1:6379/0"
STEP = "ones"
LANGUAGES = ["en", "pl", "kk"]  # the client's languages, each with a browser locale
LOCALES = {"en": "en-US", "pl": "pl-PL", "kk": "kk-KZ"}


# The server and the browser.


class ServerProcess:
    """``stalactites serve`` in its own process on a fixed free port; stop and start it again."""

    def __init__(self, env: dict[str, str]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
        # Every test's rooms and players come from 127.0.0.1: creating and joining rooms and
        # making players and accounts are not limited here (tests/test_abuse.py and
        # tests/test_players_hardening.py test those limits).  Moves and frames keep the
        # default limits, which the web client, played at a test's speed, must stay within.
        self.env.update(STALACTITES_CREATE_RATE="0", STALACTITES_JOIN_RATE="0")
        self.env.update(STALACTITES_SESSION_ADDRESS_RATE="0", STALACTITES_REGISTER_ADDRESS_RATE="0")
        # Fewer quick-race deals certified at each start, as for the other tests' servers.
        self.env.update(STALACTITES_MATCH_DEAL_POOL=str(TEST_DEAL_POOL))
        self.env.update(env)
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> None:
        command = [str(Path(sys.executable).parent / "stalactites"), "serve"]
        self.process = subprocess.Popen(
            [*command, "--port", str(self.port)],
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=ROOT,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()  # its URL, once it listens ("": it exited)
        if f"http://127.0.0.1:{self.port}/" not in line:
            self.stop()
            raise RuntimeError(f"the server did not start: {line!r}")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is None:
            return
        end_process(self.process, sig)
        if self.process.stdout is not None:
            self.process.stdout.close()
        self.process = None


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    """A real server (in-memory store) in its own process, on a free loopback port."""
    server = ServerProcess({})
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def redis_server() -> Iterator[ServerProcess]:
    """A server on the real Redis, under a key prefix of this test's own (deleted afterwards)."""
    prefix = f"test:web:{uuid.uuid4().hex[:12]}:"
    server = ServerProcess({"REDIS_URL": REDIS_URL, "STALACTITES_REDIS_PREFIX": prefix})
    server.start()
    try:
        yield server
    finally:
        server.stop()
        client = redis.Redis.from_url(REDIS_URL)
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            client.delete(*keys)
        client.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


class Console:
    """Every console error and uncaught exception of the pages it watches."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.allowed: list[re.Pattern[str]] = []

    def allow(self, pattern: str) -> None:
        """Errors matching ``pattern`` are expected in this test (and only in this one)."""
        self.allowed.append(re.compile(pattern))

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p in self.allowed)]

    def watch(self, page: Page) -> Page:
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        return page


@pytest.fixture
def console() -> Iterator[Console]:
    watcher = Console()
    yield watcher
    assert watcher.unexpected() == [], f"console errors: {watcher.unexpected()}"


@pytest.fixture
def new_page(browser: Browser, server_url: str, console: Console) -> Iterator[Callable[..., Page]]:
    """Open pages, each in its own browser context (its own storage) unless one is given."""
    contexts: list[BrowserContext] = []

    def make(path: str = "/", context: BrowserContext | None = None, width: int = 1200) -> Page:
        if context is None:
            context = browser.new_context(viewport={"width": width, "height": 900})
            contexts.append(context)
        page = console.watch(context.new_page())
        page.goto(path if path.startswith("http") else f"{server_url}{path}")
        return page

    yield make
    for context in contexts:
        context.close()


def shot(target: Page | Locator, name: str, full_page: bool = True) -> None:
    """A picture of the page (all of it, unless ``full_page`` is false) or of one element, for
    people to look at: ``test-output/NAME.jpg``.  A JPEG costs chromium a sixth of a PNG's CPU."""
    SHOTS.mkdir(exist_ok=True)
    path = str(SHOTS / f"{name}.jpg")
    if isinstance(target, Page):
        target.screenshot(path=path, full_page=full_page, type="jpeg", quality=85)
    else:
        target.screenshot(path=path, type="jpeg", quality=85)


# Winning lines, from the solver.


def winning_line(deal: str, step: str) -> list[str]:
    return _solved(Stalactites(deal, step=step))


def winning_line_from(board: dict[str, list[str]], step: str) -> list[str]:
    """A winning line for a Stalactites deal known only by its layout (as a page shows it)."""
    return _solved(_dealt(board, step))


def first_moves(board: dict[str, list[str]], count: int) -> list[str]:
    """``count`` legal moves from a dealt layout, moves to no foundation tried first (then
    foundation plays by ones), the first line found that does not run out of moves."""
    game = _dealt(board, "ones")

    def line(left: int) -> list[str] | None:
        if not left:
            return []
        legal = game.generate_legal_moves()
        for move in sorted(legal, key=lambda m: str(m).split("-")[1].startswith("f")):
            game.push(move)
            rest = line(left - 1)
            game.pop()
            if rest is not None:
                return [str(move), *rest]
        return None

    found = line(count)
    assert found is not None, f"no {count} moves from this deal"
    return found


def _dealt(board: dict[str, list[str]], step: str) -> Stalactites:
    """The game of a Stalactites deal known only by its layout as dealt (as a page shows it)."""
    dealt = {
        "tableau": [board[f"t{i + 1}"] for i in range(8)],
        "foundations": [board[f"f{i + 1}"][:1] for i in range(4)],
        "cells": [None, None],
    }
    return board_game(dealt, step)


def _solved(game: Stalactites) -> list[str]:
    solution = solve(game)
    assert solution.verdict is Verdict.WON, f"{game.deal}: {solution.verdict}"
    return [str(move) for move in solution.moves]


@pytest.fixture(scope="module")
def line() -> list[str]:
    return winning_line(DEAL, STEP)


# Driving the pages.


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        data: dict[str, Any] = json.loads(answer.read())
        return data


SOLVER_MS = 60_000
"""How long a page may wait on the server's solver (an analysis, a finished race's fair-play
assessment, which its recording waits on): a queue of them can run long on a loaded machine."""


def in_thread(work: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end on a loop of its own (Playwright's sync API holds this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, work).result()


def recorded(page: Page, server_url: str, races: int = 1) -> None:
    """Wait until the page's player has ``races`` races in their history: a race is recorded
    by the results log after its fair-play assessment, a moment after its results are shown."""
    me = page.request.get(f"{server_url}/api/me").json()["player_id"]
    in_thread(players_kit.recorded(server_url, me, races))


def new_room(server_url: str, seats: int, **settings: Any) -> str:
    """A room on the fixed deal, made through the HTTP API as a host would; returns its id."""
    body = {"deal": DEAL, "step": STEP, "seats": seats, "countdown_s": 0, **settings}
    body = {key: value for key, value in body.items() if value is not None}
    room_id: str = post(f"{server_url}/api/rooms", body)["room_id"]
    return room_id


def join_room(page: Page, name: str) -> None:
    """Join from the room's join form (waited for: the page may still be leaving the lobby,
    whose forms have name fields too)."""
    button = page.get_by_role("button", name="Join the race")
    page.locator("form", has=button).locator("input[name=name]").fill(name)
    button.click()
    expect(page.locator("section.race")).to_be_visible()


def ready(page: Page) -> None:
    page.get_by_role("button", name=re.compile("ready", re.I)).click()


def wait_racing(page: Page) -> None:
    expect(page.locator("section.race")).to_have_attribute("data-status", "racing")
    expect(page.locator(".board .pile-t").first).to_be_visible()


def board_of(page: Page, scope: str = ".board-host") -> dict[str, list[str]]:
    """The cards the page shows on every pile in ``scope``, bottom to top, by pile name."""
    result: dict[str, list[str]] = page.evaluate(
        """(scope) => Object.fromEntries([...document.querySelectorAll(scope + ' .pile')]
            .map((p) => [p.dataset.pile,
                [...p.querySelectorAll('.card[data-card]')].map((c) => c.dataset.card)]))""",
        scope,
    )
    return result


SHOWS_BOARD = """([scope, expected]) => {
    const shown = Object.fromEntries([...document.querySelectorAll(scope + ' .pile')]
        .map((p) => [p.dataset.pile,
            [...p.querySelectorAll('.card[data-card]')].map((c) => c.dataset.card)]));
    const piles = new Set([...Object.keys(shown), ...Object.keys(expected)]);
    return [...piles].every((pile) =>
        JSON.stringify(shown[pile] ?? null) === JSON.stringify(expected[pile] ?? null));
}"""


def expect_board(
    page: Page, expected: dict[str, list[str]], scope: str = ".board-host", timeout: int = 10_000
) -> None:
    """Wait until the page shows exactly this board in ``scope`` (failing with the difference)."""
    try:
        page.wait_for_function(SHOWS_BOARD, arg=[scope, expected], timeout=timeout)
    except PlaywrightTimeout:
        pass  # the assertion below shows what differs
    assert board_of(page, scope) == expected


def engine_board(game: Stalactites) -> dict[str, list[str]]:
    state = game.state()
    piles = {f"t{i + 1}": column for i, column in enumerate(state["tableau"])}
    piles |= {f"c{i + 1}": [card] if card else [] for i, card in enumerate(state["cells"])}
    # A foundation shows its base (sideways) and its top card.
    piles |= {
        f"f{i + 1}": pile[:1] + pile[-1:] if len(pile) > 1 else pile
        for i, pile in enumerate(state["foundations"])
    }
    return piles


def settled(page: Page) -> None:
    """Wait until the move sent has been answered."""
    expect(page.locator(".board-host")).to_have_attribute("data-pending", "false")


def top_card(page: Page, pile: str) -> Any:
    return page.locator(f'.board-host .pile[data-pile="{pile}"] .card[data-index]').last


def click_move(page: Page, move: str) -> None:
    src, dst = move.split("-")
    top_card(page, src).click()
    expect(page.locator(f'.board-host .pile[data-pile="{dst}"]')).to_have_class(
        re.compile(r"\btarget\b")
    )
    page.locator(f'.board-host .pile[data-pile="{dst}"]').click()
    settled(page)


def start_solo(
    new_page: Callable[..., Page], server_url: str, width: int = 1200
) -> tuple[Page, str]:
    room = new_room(server_url, seats=1)
    page = new_page(f"/#/room/{room}", width=width)
    join_room(page, "Solo")
    ready(page)
    wait_racing(page)
    return page, room


# The catalogue check: the texts a page shows (text nodes, and the labels, titles and
# placeholders of its elements) against the English catalogue.  A text that is the same in
# both catalogues (a number, notation such as "10/52", a symbol) is language-neutral.
UNTRANSLATED = r"""async (lang) => {
    const en = (await import('./js/lang/en.js')).default;
    const mine = (await import(`./js/lang/${lang}.js`)).default;
    const forms = (v) => (typeof v === 'object' ? Object.values(v) : [v]);
    const escape = (s) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
    const exact = new Set();
    const patterns = [];
    for (const [key, value] of Object.entries(en)) {
        if (JSON.stringify(mine[key]) === JSON.stringify(value)) continue;
        for (const form of forms(value)) {
            if (!/\p{L}{2,}/u.test(form.replace(/\{\w+\}/g, ''))) continue;
            if (form.includes('{')) {
                const parts = form.split(/\{\w+\}/).map(escape);
                patterns.push([key, new RegExp('^' + parts.join('.+') + '$', 's')]);
            } else exact.add(form);
        }
    }
    const shown = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const node = walker.currentNode;
        // The language switch names each language in its own words, on every page.
        if (node.parentElement?.closest('script, style, noscript, #lang')) continue;
        shown.push(node.nodeValue.trim());
    }
    for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder]')) {
        for (const name of ['aria-label', 'title', 'placeholder']) {
            if (el.hasAttribute(name)) shown.push(el.getAttribute(name).trim());
        }
    }
    shown.push(document.title);
    const bad = [];
    for (const item of shown) {
        if (!item) continue;
        if (exact.has(item)) bad.push(item);
        else {
            const hit = patterns.find(([, re]) => re.test(item));
            if (hit) bad.push(`${item} (like en.${hit[0]})`);
        }
    }
    return bad;
}"""

# Every control has a name a screen reader can say, and the page says its language.
UNNAMED = r"""() => {
    const named = (el) => (el.getAttribute('aria-label') || el.textContent || el.title
        || el.closest('label')?.textContent || el.getAttribute('placeholder') || '').trim();
    const controls = [...document.querySelectorAll('button, a[href], select, input')];
    const shown = controls.filter((el) => el.offsetParent !== null);
    return shown.filter((el) => !named(el)).map((el) => el.outerHTML);
}"""


def check_page(page: Page, lang: str) -> None:
    """No English left on a Polish or Kazakh page, every control named, the language said."""
    expect(page.locator("html")).to_have_attribute("lang", lang)
    if lang != "en":
        assert page.evaluate(UNTRANSLATED, lang) == [], f"English on a {lang} page {page.url}"
    assert page.evaluate(UNNAMED) == [], f"unnamed controls on {page.url}"
