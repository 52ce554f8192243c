"""A new player's first hour, measured in chromium (issue 35, items 4, 5, 9 and 10): at phone
widths (360, 390, 430 px) and at desktop size, in English, Polish and Kazakh.

- The race's buttons never cover the cards that can move (the bottom card of each column), at
  any scroll of the page, in the guided game, whose bar has the most buttons.
- The results table: no name broken inside a word, "Race this run" whole, nothing in a
  sideways scroll (time and rating shown), and a toast never over the results dialog.
- Long words: the foundations' captions stay apart, the cell's label inside its cell, a
  drop-down's choice whole, the header's links on the screen.
- No stale lines: toasts never over the header, a finished tournament says it is over, and
  a spectator sees a won board as won, not "Still winnable".

The geometry is read with getBoundingClientRect, scrollWidth and Range rects; screenshots go to
``test-output/`` as ``first-hour-*``. One server and one browser serve the whole module.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, FloatRect, Page, ViewportSize, expect

from browser_kit import (
    LANGUAGES,
    LOCALES,
    SOLVER_MS,
    Console,
    click_move,
    join_room,
    new_room,
    post,
    ready,
    shot,
    wait_racing,
    winning_line,
)
from browser_kit import browser as browser  # the fixtures
from browser_kit import console as console
from browser_kit import server_url as server_url
from tournament_kit import start_now

PHONES = [(360, 740), (390, 844), (430, 932)]
DESKTOP = (1366, 768)
# Names as long as the server takes (24 characters), with words longer than a phone's column.
NAMES = ["Wojciechowski-Kowalczyk", "Гүлнара Әбдірахманова", "Ada"]


@pytest.fixture
def lang_page(browser: Browser, server_url: str, console: Console) -> Iterator[Callable[..., Page]]:
    """A page in its own context whose browser language is ``lang``, at ``size``; ``seat``
    puts a room's seat in its storage first."""
    contexts: list[BrowserContext] = []

    def make(
        path: str, lang: str, size: tuple[int, int], seat: tuple[str, dict[str, Any]] | None = None
    ) -> Page:
        viewport: ViewportSize = {"width": size[0], "height": size[1]}
        context = browser.new_context(viewport=viewport, locale=LOCALES[lang])
        contexts.append(context)
        if seat is not None:
            key, value = f"sr.room.{seat[0]}", json.dumps(seat[1])
            context.add_init_script(f"localStorage.setItem({json.dumps(key)}, {json.dumps(value)})")
        page = console.watch(context.new_page())
        page.goto(f"{server_url}{path}")
        return page

    yield make
    for context in contexts:
        context.close()


def resize(page: Page, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})


def overlaps(a: FloatRect | None, b: FloatRect | None) -> bool:
    assert a is not None and b is not None
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def show_toast(page: Page, text: str) -> None:
    """A toast as long as the server's messages are, for a minute."""
    toast = "async (text) => (await import('./js/shared/dom.js')).toast(text, 'error', 60000)"
    page.evaluate(toast, text)
    expect(page.locator(".toast").last).to_be_visible()


LONG_TOAST = "Your other tab made a move at the same moment: play this move again."


# Item 4: the buttons never over the cards that play.

# Every scroll of the page, top to bottom: where a playable card (the bottom card of a
# column, a card in a cell) shows on the screen, the race's buttons are not over it.
COVERED = """() => {
    const bar = document.querySelector('.race-actions');
    const playable = [...document.querySelectorAll('.board-host .pile-t, .board-host .pile-c')]
        .map((pile) => [...pile.querySelectorAll('.card[data-index]')].pop())
        .filter(Boolean);
    const hit = (a, b) => !(a.right <= b.left || b.right <= a.left
        || a.bottom <= b.top || b.bottom <= a.top);
    const found = [];
    const end = document.documentElement.scrollHeight - innerHeight;
    for (let y = 0; y <= end + 20; y += 20) {
        window.scrollTo(0, Math.min(y, end));
        const b = bar.getBoundingClientRect();
        for (const card of playable) {
            const c = card.getBoundingClientRect();
            if (c.bottom <= 0 || c.top >= innerHeight) continue;  // not on the screen
            if (hit(b, c)) found.push(`${card.dataset.card} at scroll ${Math.min(y, end)}`);
        }
    }
    window.scrollTo(0, 0);
    return found;
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_buttons_never_cover_the_cards_that_play_on_a_phone(
    lang_page: Callable[..., Page], lang: str
) -> None:
    page = lang_page("/#/learn", lang, PHONES[0])
    wait_racing(page)
    expect(page.locator(".race-actions .btn").first).to_be_visible()
    for size in PHONES:
        resize(page, size)
        assert page.evaluate(COVERED) == [], (lang, size)
        # Nothing wider than the screen, and the buttons take at most two rows.
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        bar = page.locator(".race-actions").bounding_box()
        button = page.locator(".race-actions .btn").first.bounding_box()
        assert bar is not None and button is not None
        assert bar["height"] < 3 * button["height"], (lang, size, "more than two rows")
        # Scrolled to the board's bottom, its buttons are right under it, on the screen.
        page.locator(".race-actions").evaluate("(el) => el.scrollIntoView({block: 'end'})")
        shot(page, f"first-hour-guide-{lang}-{size[0]}")
    # Undo's name is whole for screen readers, its key left out of the words shown.
    undo = page.locator('.race-actions button[aria-label$="(u)"]')
    expect(undo).to_have_count(1)
    assert "(u)" not in undo.inner_text()


# Item 5: the results table, and item 10's toast over it.

# Where a results table falls short: a sideways scroll, a name broken inside a word, a cell's
# words (the time, the rating, "Race this run") outside the dialog or cut off.
RESULTS_FAULTS = """() => {
    const card = document.querySelector('.overlay-card');
    const box = card.getBoundingClientRect();
    const faults = [];
    for (const scroll of card.querySelectorAll('.table-scroll')) {
        if (scroll.scrollWidth > scroll.clientWidth + 1)
            faults.push(`sideways scroll ${scroll.scrollWidth} > ${scroll.clientWidth}`);
    }
    for (const name of card.querySelectorAll('.results .racer-name')) {
        const node = [...name.childNodes].find((n) => n.nodeType === 3);
        let at = 0;
        for (const word of node.nodeValue.split(/(?<=[\\s-])/)) {
            const range = document.createRange();
            const text = word.trimEnd();
            range.setStart(node, at);
            range.setEnd(node, at + text.length);
            at += word.length;
            if (text && range.getClientRects().length > 1) faults.push(`"${text}" broken`);
        }
    }
    const cells = card.querySelectorAll('.results td.time, .results td.rating, .results .btn');
    for (const el of cells) {
        const r = el.getBoundingClientRect();
        if (r.left < box.left - 1 || r.right > box.right + 1)
            faults.push(`${el.textContent} outside the dialog`);
        if (el.scrollWidth > el.clientWidth + 1) faults.push(`${el.textContent} cut off`);
    }
    return faults;
}"""

# The same table with ratings, drawn in the dialog's place (a rated race's results).
RATED = """async (names) => {
    const { resultsTable } = await import('./js/shared/widgets.js');
    const rows = names.map((name, i) => ({
        player_id: `p${i}`, name, place: i + 1, status: i ? 'resigned' : 'won',
        foundation_cards: 52 - 20 * i, elapsed_ms: 61234 + 600000 * i, rated: true,
        rating_before: 1000 + 111 * i, rating_after: 1012 + 99 * i,
    }));
    const action = () => (row) => {
        const b = document.createElement('button');
        b.className = 'btn btn-small race-run';
        b.textContent = document.querySelector('.race-run')?.textContent ?? 'Race this run';
        return row.player_id === 'p0' ? null : b;
    };
    const table = resultsTable(rows, { game: 'stalactites', you: 'p0', action: action() });
    document.querySelector('.overlay-card .table-scroll').replaceChildren(table);
}"""


@pytest.fixture(scope="module")
def finished_room(server_url: str) -> tuple[str, list[dict[str, Any]]]:
    """A certified three-seat room whose racers (long names) have all resigned."""
    room = post(f"{server_url}/api/rooms", {"seats": 3, "countdown_s": 0, "step": "ones"})
    assert room["certified"]
    seats = [post(f"{server_url}/api/rooms/{room['room_id']}/players", {"name": n}) for n in NAMES]
    return room["room_id"], seats


def test_the_results_fit_at_every_size_and_a_toast_never_covers_them(
    lang_page: Callable[..., Page], finished_room: tuple[str, list[dict[str, Any]]]
) -> None:
    room, seats = finished_room
    pages = [
        lang_page(f"/#/room/{room}", "en", DESKTOP, seat=(room, s))
        for s in seats  # each racer's own browser
    ]
    for page in pages:
        ready(page)
    for page in pages:
        wait_racing(page)
    for page in pages:
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator(".race-actions .btn-quiet").first.click()  # Resign
    page = pages[0]
    expect(page.locator(".overlay-card .results .race-run")).to_have_count(2)
    for lang in LANGUAGES:
        page.evaluate("(lang) => localStorage.setItem('sr.lang', JSON.stringify(lang))", lang)
        for size in [DESKTOP, *PHONES]:
            resize(page, size)
            page.reload()
            expect(page.locator(".overlay-card .results .race-run")).to_have_count(2)
            assert page.evaluate(RESULTS_FAULTS) == [], (lang, size)
            # A toast (stale or new) is never over the dialog, nor over its last button.
            show_toast(page, LONG_TOAST)
            toast = page.locator(".toast").last.bounding_box()
            look = page.locator(".overlay-card .end-actions .btn").last
            look.evaluate("(el) => el.scrollIntoView({block: 'end'})")
            assert not overlaps(toast, page.locator(".overlay-card").bounding_box()), (lang, size)
            assert not overlaps(toast, look.bounding_box()), (lang, size)
            shot(page, f"first-hour-results-{lang}-{size[0]}")
            page.evaluate("async () => (await import('./js/shared/dom.js')).clearToasts()")
            page.evaluate(RATED, NAMES)
            assert page.evaluate(RESULTS_FAULTS) == [], ("rated", lang, size)
            shot(page, f"first-hour-results-rated-{lang}-{size[0]}")


# Item 9: long words.

# The foundations' captions: each inside its pile's width, and none over another.
CAPTIONS = """() => {
    const faults = [];
    const shown = [...document.querySelectorAll('.board-host .pile-f')].map((pile) => {
        const p = pile.getBoundingClientRect();
        const next = pile.querySelector('.next');
        const range = document.createRange();
        range.selectNodeContents(next);
        const r = range.getBoundingClientRect();
        if (r.width && (r.left < p.left - 1 || r.right > p.right + 1))
            faults.push(`${pile.dataset.pile}: "${next.textContent}" wider than its pile`);
        return r;
    });
    for (let i = 1; i < shown.length; i++) {
        if (shown[i].width && shown[i - 1].right > shown[i].left)
            faults.push(`captions ${i} and ${i + 1} run into each other`);
    }
    // The cells' word for "cell" inside the cell.
    for (const slot of document.querySelectorAll('.board-host .pile-c .slot')) {
        const range = document.createRange();
        range.selectNodeContents(slot);
        const r = range.getBoundingClientRect();
        const s = slot.getBoundingClientRect();
        if (r.left < s.left || r.right > s.right || slot.scrollWidth > slot.clientWidth)
            faults.push(`"${slot.textContent}" overflows its cell`);
    }
    // A caption over the columns' cards below it.
    const first = document.querySelector('.board-host .pile-t .card');
    const lowest = Math.max(...shown.map((r) => r.bottom));
    if (first && lowest > first.getBoundingClientRect().top)
        faults.push('a caption over the columns');
    return faults;
}"""

# Each drop-down shows its choice whole (the text's width against the room inside it).
CUT_SELECTS = """() => {
    const ctx = document.createElement('canvas').getContext('2d');
    const out = [];
    for (const s of document.querySelectorAll('select')) {
        if (!s.offsetParent) continue;
        const cs = getComputedStyle(s);
        ctx.font = cs.font;
        const text = s.options[s.selectedIndex]?.text ?? '';
        const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
        if (ctx.measureText(text).width > room) out.push(`${s.name || s.id}: ${text}`);
    }
    return out;
}"""

# The header's links all on the screen, none scrolled out of sight.
CUT_LINKS = """() => {
    const nav = document.querySelector('.topnav');
    const out = [...nav.querySelectorAll('a')]
        .filter((a) => a.getBoundingClientRect().right > innerWidth)
        .map((a) => a.textContent);
    if (nav.scrollWidth > nav.clientWidth + 1) out.push('the links scroll sideways');
    return out;
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_long_words_stay_in_their_places(lang_page: Callable[..., Page], lang: str) -> None:
    page = lang_page("/#/learn", lang, DESKTOP)
    wait_racing(page)
    for size in [DESKTOP, (1100, 800), (900, 800), *PHONES]:
        resize(page, size)
        assert page.evaluate(CAPTIONS) == [], (lang, size)
    resize(page, DESKTOP)
    shot(page, f"first-hour-board-{lang}-{DESKTOP[0]}")
    page.goto(page.url.split("#")[0] + "#/")
    expect(page.locator("select[name=step]").first).to_be_visible()
    for size in [DESKTOP, *PHONES]:
        resize(page, size)
        assert page.evaluate(CUT_SELECTS) == [], (lang, size)
        assert page.evaluate(CUT_LINKS) == [], (lang, size)
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    shot(page, f"first-hour-lobby-{lang}-{PHONES[0][0]}")


# Item 10: stale lines.


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_toast_never_covers_the_header(lang_page: Callable[..., Page], lang: str) -> None:
    page = lang_page("/#/learn", lang, PHONES[0])
    wait_racing(page)
    for size in [*PHONES, DESKTOP]:
        resize(page, size)
        show_toast(page, LONG_TOAST)
        toast = page.locator(".toast").last.bounding_box()
        assert not overlaps(toast, page.locator(".topbar").bounding_box()), (lang, size)
        page.evaluate("async () => (await import('./js/shared/dom.js')).clearToasts()")


def test_a_finished_tournament_says_it_is_over_not_that_a_board_opens(
    lang_page: Callable[..., Page], server_url: str
) -> None:
    body = {"name": "Cup", "game": "stalactites", "step": "ones", "rounds": 1}
    made = post(f"{server_url}/api/tournaments", {**body, "round_time_s": 60})
    tid = made["tournament_id"]
    page = lang_page(f"/#/tournament/{tid}", "en", DESKTOP)
    page.locator("input[name=name]").fill("Ada")
    page.get_by_role("button", name="Enter the tournament").click()
    expect(page.locator(".tournament-actions")).to_contain_text("when a round starts")
    start_now(server_url, tid, made["admin_token"])
    page.wait_for_url(re.compile(r"#/room/"), timeout=SOLVER_MS)
    wait_racing(page)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()
    expect(page.locator(".after-round .next-round")).to_have_text("The tournament is over.")
    page.goto(f"{server_url}/#/tournament/{tid}")
    expect(page.locator("section.tournament")).to_have_attribute("data-status", "finished")
    actions = page.locator(".tournament-actions")
    expect(actions).to_contain_text("The tournament is over.")
    expect(actions).not_to_contain_text("when a round starts")


def test_a_spectator_sees_a_won_board_as_won_not_still_winnable(
    lang_page: Callable[..., Page], server_url: str
) -> None:
    room = new_room(server_url, seats=1, spectator_delay_s=0)
    racer = lang_page(f"/#/room/{room}", "en", DESKTOP)
    join_room(racer, "Solo")
    watcher = lang_page(f"/#/watch/{room}", "en", DESKTOP)
    expect(watcher.locator(".spectated")).to_have_count(1)
    ready(racer)
    wait_racing(racer)
    expect(watcher.locator(".board-verdict")).to_be_visible()
    for move in winning_line("ms:1", "ones"):
        click_move(racer, move)
    expect(watcher.locator("section.spectate")).to_have_attribute("data-status", "finished")
    verdict = watcher.locator(".board-verdict")
    expect(verdict).to_have_attribute("data-verdict", "done")
    expect(verdict).to_have_text("Won: every card home")
    shot(watcher, "first-hour-spectator-won")
