"""The board as a card game in a real browser (issue 16): card faces, foundations drawn as
piles, cards that glide (and stay still with reduced motion), the assists, the phone and the
desktop fold, the opponents' track, and the faults seen: a key-picked card highlighted, "1 move",
a refusal note cleared by the next good move, toasts clear of Undo and Resign and left behind
when the page changes.  A real ``stalactites serve`` process; nothing waits by sleeping."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal

from playwright.sync_api import Browser, FloatRect, Page, WebSocketRoute, expect

from browser_kit import (
    DEAL,
    STEP,
    click_move,
    engine_board,
    expect_board,
    join_room,
    new_room,
    ready,
    settled,
    shot,
    start_solo,
    top_card,
    wait_racing,
)
from browser_kit import browser as browser  # the fixtures
from browser_kit import console as console
from browser_kit import line as line
from browser_kit import new_page as new_page
from browser_kit import server_url as server_url
from stalactites.engine.stalactites import Stalactites


def pile(page: Page, name: str):  # type: ignore[no-untyped-def]
    return page.locator(f'.board-host .pile[data-pile="{name}"]')


# The faults seen.


def test_a_card_picked_by_its_key_is_highlighted(
    new_page: Callable[..., Page], server_url: str
) -> None:
    page, _ = start_solo(new_page, server_url)
    page.keyboard.press("3")
    expect(top_card(page, "t3")).to_have_class(re.compile(r"\bselected\b"))
    page.keyboard.press("Escape")
    expect(top_card(page, "t3")).not_to_have_class(re.compile(r"\bselected\b"))


def test_one_move_is_counted_as_one_move(
    new_page: Callable[..., Page], server_url: str, line: list[str]
) -> None:
    page, room = start_solo(new_page, server_url)
    click_move(page, line[0])
    expect(page.locator(".racer.you .racer-moves")).to_have_text("1 move")
    one_moves = re.compile(r"\b1 moves\b")
    expect(page.locator("body")).not_to_contain_text(one_moves)
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()
    page.get_by_role("link", name="Results, analysis and replay").click()
    expect(page.locator(".replay-actions h3").first).to_have_text("1 action")
    expect(page.locator("body")).not_to_contain_text(one_moves)


def stale_second_tab(first: Page, new_page: Callable[..., Page], room: str) -> tuple[Page, dict]:  # type: ignore[type-arg]
    """A second tab of the same seat that hears nothing of the first tab's moves while
    ``hold["synced"]`` is true (the server's ``synced`` frames to it are held back)."""
    hold = {"synced": True}

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        server.on_message(
            lambda m: None if hold["synced"] and '"type":"synced"' in str(m) else ws.send(m)
        )

    first.context.route_web_socket(re.compile(r"/ws/rooms/"), route)
    second = new_page(f"/#/room/{room}", context=first.context)
    wait_racing(second)
    return second, hold


def refuse_in_second_tab(first: Page, second: Page) -> None:
    click_move(first, "t1-c1")
    # The second tab still sees cell 1 empty: its move there is refused.
    top_card(second, "t2").click()
    pile(second, "c1").click()
    expect(second.locator(".move-note")).to_contain_text("Refused")
    settled(second)
    expect(pile(second, "c1").locator(".card")).to_have_count(1)


def test_a_refusal_note_goes_with_the_next_good_move(
    new_page: Callable[..., Page], server_url: str
) -> None:
    first, room = start_solo(new_page, server_url)
    second, _ = stale_second_tab(first, new_page, room)
    refuse_in_second_tab(first, second)
    click_move(second, "t2-c2")
    expect(second.locator(".move-note")).to_have_text("")


def test_a_refusal_note_goes_when_the_other_tab_plays_on(
    new_page: Callable[..., Page], server_url: str
) -> None:
    first, room = start_solo(new_page, server_url)
    second, hold = stale_second_tab(first, new_page, room)
    refuse_in_second_tab(first, second)
    hold["synced"] = False
    click_move(first, "t3-c2")
    expect(pile(second, "c2").locator(".card")).to_have_count(1)
    expect(second.locator(".move-note")).to_have_text("")


def overlaps(a: FloatRect | None, b: FloatRect | None) -> bool:
    assert a is not None and b is not None
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


# A toast as long as the server's messages are (this one is error.retry's).
SHOW_TOAST = """async () => (await import('./js/shared/dom.js')).toast(
    'Your other tab made a move at the same moment: play this move again.', 'error', 60000)"""


def test_toasts_leave_undo_and_resign_uncovered(
    new_page: Callable[..., Page], server_url: str
) -> None:
    for width, height in ((1366, 768), (390, 844)):
        room = new_room(server_url, seats=1, undo=True)
        page = new_page(f"/#/room/{room}")
        page.set_viewport_size({"width": width, "height": height})
        join_room(page, "Solo")
        ready(page)
        wait_racing(page)
        page.evaluate(SHOW_TOAST)
        toast = page.locator(".toast").first
        expect(toast).to_be_visible()
        for name in ("Undo (u)", "Resign"):
            button = page.get_by_role("button", name=name)
            # Where a player's eye meets it: scrolled up from below, at the screen's bottom.
            button.evaluate("(el) => el.scrollIntoView({block: 'end'})")
            assert not overlaps(toast.bounding_box(), button.bounding_box()), (width, name)


def test_a_toast_does_not_follow_you_onto_the_replay(
    new_page: Callable[..., Page], server_url: str
) -> None:
    page, room = start_solo(new_page, server_url)
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()
    expect(page.locator(".toast")).to_have_count(1)
    page.get_by_role("link", name="Results, analysis and replay").click()
    expect(page).to_have_url(re.compile(f"#/replay/{room}"))
    expect(page.locator(".toast")).to_have_count(0)


# How the race page looks, for both games, on a laptop and on a phone.


def race_page(
    new_page: Callable[..., Page], server_url: str, game: str, size: tuple[int, int]
) -> Page:
    settings = {"game": game, "step": None} if game == "squadron" else {}
    room = new_room(server_url, seats=2, undo=True, **settings)
    page = new_page(f"/#/room/{room}")
    page.set_viewport_size({"width": size[0], "height": size[1]})
    join_room(page, "Ada Lovelace")
    other = new_page(f"/#/room/{room}")
    join_room(other, "Grace")
    ready(other)
    ready(page)
    wait_racing(page)
    return page


def test_the_race_page_looks_like_a_card_table(
    new_page: Callable[..., Page], server_url: str, line: list[str]
) -> None:
    for game in ("stalactites", "squadron"):
        for width, height in ((1366, 768), (390, 844)):
            page = race_page(new_page, server_url, game, (width, height))
            if game == "stalactites":  # a few cards home: foundations as piles, a lead
                for move in line[:5]:
                    click_move(page, move)
                expect(page.locator(".racer.you .racer-gap")).to_have_text(
                    re.compile(r"you lead by \d+ cards?")
                )
            else:
                for _ in range(3):
                    page.locator('.board-host .pile[data-pile="s"]').click()
                    settled(page)
            # Nothing below the fold on a laptop: the whole board and the race's buttons.
            if width > 1000:
                for name in ("Undo (u)", "Resign"):
                    box = page.get_by_role("button", name=name).bounding_box()
                    assert box is not None and box["y"] + box["height"] <= height, (game, name)
                board = page.locator(".board-host .board").bounding_box()
                assert board is not None and board["y"] + board["height"] <= height, game
            else:  # a phone: the board fills the width, with cards big enough to tap
                board = page.locator(".board-host .board").bounding_box()
                assert board is not None and board["width"] >= width - 24, game
                card = top_card(page, "t1").bounding_box()
                assert card is not None and card["width"] >= 34 and card["height"] >= 44, game
            shot(page, f"race-{game}-{width}x{height}", full_page=False)
            shot(page, f"race-{game}-{width}x{height}-full")


# Motion: cards glide, unless the player asked for reduced motion.

COUNT_ANIMATIONS = """() => {
    window.glides = 0;
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (...args) {
        if (this.matches('.card[data-card]')) window.glides += 1;
        return animate.apply(this, args);
    };
}"""


def test_a_card_glides_to_where_it_goes_and_stays_still_with_reduced_motion(
    browser: Browser, server_url: str, line: list[str]
) -> None:
    motions: list[tuple[Literal["no-preference", "reduce"], bool]]
    motions = [("no-preference", True), ("reduce", False)]
    for motion, glides in motions:
        context = browser.new_context(
            viewport={"width": 1366, "height": 768}, reduced_motion=motion
        )
        page = context.new_page()
        page.add_init_script(f"({COUNT_ANIMATIONS})()")
        room = new_room(server_url, seats=1)
        page.goto(f"{server_url}/#/room/{room}")
        join_room(page, "Solo")
        ready(page)
        wait_racing(page)
        page.keyboard.press(line[0].split("-")[0][1:])
        page.keyboard.press(line[0].split("-")[1][0])
        settled(page)
        count = page.evaluate("window.glides")
        assert (count > 0) == glides, (motion, count)
        spring = page.evaluate(
            """() => { const el = document.createElement('div'); el.className = 'card spring';
                document.querySelector('.board').append(el);
                const name = getComputedStyle(el).animationName; el.remove(); return name; }"""
        )
        assert (spring == "none") == (not glides), (motion, spring)
        context.close()


# Foundations drawn as piles.


def test_a_foundation_shows_its_base_under_its_top_and_the_card_it_takes_next(
    new_page: Callable[..., Page], server_url: str, line: list[str]
) -> None:
    page, _ = start_solo(new_page, server_url)
    move = next(m for m in line if m.split("-")[1].startswith("f"))
    dst = move.split("-")[1]
    base = pile(page, dst).locator(".card").first.get_attribute("data-card")
    assert base is not None
    rank = "A23456789TJQK"
    step = {"ones": 1, "twos": 2}[STEP]
    wanted = rank[(rank.index(base[0]) + step) % 13]
    label = {"T": "10"}.get(wanted, wanted)
    expect(pile(page, dst).locator(".next")).to_have_text(f"next {label}")
    click_move(page, move)
    cards = pile(page, dst).locator(".card")
    expect(cards).to_have_count(2)
    expect(cards.first).to_have_attribute("data-card", base)
    expect(cards.first).to_have_class(re.compile(r"\bbase\b"))
    # The base peeks out above the top card, which lies over it (once the card has landed:
    # it glides there).
    page.evaluate("Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)))")
    first, top = cards.first.bounding_box(), cards.last.bounding_box()
    assert first is not None and top is not None
    assert first["y"] < top["y"] < first["y"] + first["height"]
    then = rank[(rank.index(wanted) + step) % 13]
    expect(pile(page, dst).locator(".next")).to_have_text(f"next {({'T': '10'}).get(then, then)}")
    expect(pile(page, dst)).to_have_attribute("aria-label", re.compile("takes the .* next"))


# Touch: a finger drags a card, and a double tap sends it home.


def touch_drag(page: Page, src: Any, dst: Any) -> None:
    """Drag with a finger (touch events through the DevTools protocol, as a phone sends)."""
    a, b = src.bounding_box(), dst.bounding_box()
    assert a is not None and b is not None
    session = page.context.new_cdp_session(page)
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2

    def send(kind: str, x: float, y: float) -> None:
        session.send(
            "Input.dispatchTouchEvent",
            {"type": kind, "touchPoints": [{"x": x, "y": y}] if kind != "touchEnd" else []},
        )

    send("touchStart", x0, y0)
    for k in range(1, 11):
        send("touchMove", x0 + (x1 - x0) * k / 10, y0 + (y1 - y0) * k / 10)
    send("touchEnd", x1, y1)
    session.detach()


def test_a_finger_drags_a_card_and_a_double_tap_sends_one_to_its_foundation(
    browser: Browser, server_url: str, line: list[str]
) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    room = new_room(server_url, seats=1)
    page.goto(f"{server_url}/#/room/{room}")
    join_room(page, "Thumb")
    ready(page)
    wait_racing(page)
    game = Stalactites(DEAL, step=STEP)
    src, dst = line[0].split("-")
    touch_drag(page, top_card(page, src), pile(page, dst))
    settled(page)
    game.push(line[0])
    expect_board(page, engine_board(game))
    # A column whose card a foundation takes: the double tap sends it to the first that does.
    home = sorted(
        str(m) for m in game.generate_legal_moves() if str(m)[0] == "t" and "-f" in str(m)
    )
    src = home[0].split("-")[0]
    box = top_card(page, src).bounding_box()
    assert box is not None
    # Both taps at once, as a thumb makes them: Locator.tap() waits for the card to be still
    # before each, and on a loaded machine those waits can outlast the double tap's 0.4 s.
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.touchscreen.tap(x, y)
    settled(page)
    game.push(next(m for m in home if m.startswith(f"{src}-")))
    expect_board(page, engine_board(game))
    shot(page, "race-touch")
    context.close()


# Auto-play: a card the foundations take, when no choice is lost by it, goes by itself.


def squadron_solo(new_page: Callable[..., Page], server_url: str, autoplay: bool) -> Page:
    room = new_room(server_url, seats=1, game="squadron", step=None, autoplay=autoplay)
    page = new_page(f"/#/room/{room}")
    join_room(page, "Solo")
    ready(page)
    wait_racing(page)
    return page


def foundation_count(page: Page) -> int:
    return page.locator(".board-host .pile-f .card").count()


def test_auto_play_sends_an_ace_home_by_itself_only_where_the_room_allows_it(
    new_page: Callable[..., Page], server_url: str
) -> None:
    on = squadron_solo(new_page, server_url, autoplay=True)
    expect(on.locator(".race-settings")).to_contain_text("auto-play")
    deals = 0
    while foundation_count(on) == 0:
        assert deals < 61, "no ace came from the stock"
        on.locator('.board-host .pile[data-pile="s"]').click()
        deals += 1
        settled(on)
    expect(on.locator(".board-host .pile-f .card").first).to_have_attribute(
        "data-card", re.compile("^A")
    )
    off = squadron_solo(new_page, server_url, autoplay=False)
    for _ in range(deals):
        off.locator('.board-host .pile[data-pile="s"]').click()
        settled(off)
    expect(off.locator('.board-host .pile[data-pile="w"] .card').last).to_have_attribute(
        "data-card", re.compile("^A")
    )
    assert foundation_count(off) == 0


# A hint from the solver, in solo practice only.


def test_a_solo_player_asks_for_a_hint_and_plays_it(
    new_page: Callable[..., Page], server_url: str
) -> None:
    page, _ = start_solo(new_page, server_url)
    page.get_by_role("button", name="Hint (h)").click()
    note = page.locator(".move-note")
    expect(note).to_contain_text("Hint: the ")
    lit = page.locator(".board-host .pile.hint")
    expect(lit).to_have_count(2)
    piles = sorted(str(lit.nth(i).get_attribute("data-pile")) for i in range(2))
    # A Stalactites move leaves a column (for a cell or a foundation) or a cell (for a
    # foundation): "c" < "f" < "t" in the sort, so the source is the last of the two unless
    # they are a cell and a foundation.
    src, dst = (piles[0], piles[1]) if piles[1][0] == "f" else (piles[1], piles[0])
    click_move(page, f"{src}-{dst}")
    expect(lit).to_have_count(0)
    expect(note).to_have_text("")


def test_a_race_with_others_offers_no_hint(new_page: Callable[..., Page], server_url: str) -> None:
    page = race_page(new_page, server_url, "stalactites", (1366, 768))
    expect(page.get_by_role("button", name="Resign")).to_be_visible()
    expect(page.get_by_role("button", name="Hint (h)")).to_have_count(0)


# A win is celebrated.

WATCH_CONFETTI = """() => {
    window.celebrated = false;
    new MutationObserver((changes) => {
        if (changes.some((c) => [...c.addedNodes].some((n) => n.classList?.contains('confetti'))))
            window.celebrated = true;
    }).observe(document.documentElement, { childList: true, subtree: true });
}"""


def test_a_won_race_is_celebrated(browser: Browser, server_url: str, line: list[str]) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.add_init_script(f"window.addEventListener('DOMContentLoaded', {WATCH_CONFETTI})")
    room = new_room(server_url, seats=1)
    page.goto(f"{server_url}/#/room/{room}")
    join_room(page, "Winner")
    ready(page)
    wait_racing(page)
    for move in line:
        click_move(page, move)
    expect(page.locator(".overlay-card")).to_contain_text("You finished 1st")
    page.wait_for_function("window.celebrated === true")
    shot(page, "race-won")
    context.close()


# Opponents: how far ahead, and a notice when one finishes.


def two_racers(new_page: Callable[..., Page], server_url: str) -> tuple[Page, Page]:
    """Ada's page and Grace's, racing each other in a room of two."""
    room = new_room(server_url, seats=2)
    mine = new_page(f"/#/room/{room}")
    join_room(mine, "Ada")
    theirs = new_page(f"/#/room/{room}")
    join_room(theirs, "Grace")
    ready(theirs)
    ready(mine)
    wait_racing(mine)
    wait_racing(theirs)
    return mine, theirs


def test_a_racer_sees_who_is_ahead_by_how_many_cards_and_hears_when_one_resigns(
    new_page: Callable[..., Page], server_url: str, line: list[str]
) -> None:
    mine, theirs = two_racers(new_page, server_url)
    home = [m for m in line[:8] if "-f" in m][:2]
    for move in line[: line.index(home[-1]) + 1]:
        click_move(theirs, move)
    grace = mine.locator(".racer", has_text="Grace")
    expect(grace.locator(".racer-gap")).to_have_text(re.compile(r"^\d+ cards? ahead of you$"))
    expect(mine.locator(".racer.you .racer-gap")).to_have_text(
        re.compile(r"^\d+ cards? behind the leader$")
    )
    # Never the other racer's cards: only this player's board is drawn.
    expect(mine.locator(".board")).to_have_count(1)
    theirs.on("dialog", lambda dialog: dialog.accept())
    theirs.get_by_role("button", name="Resign").click()
    expect(mine.locator(".race-news")).to_have_text("Grace has resigned.")
    # The one who resigned has no place yet (given once every racer is done), and is out:
    # nobody is "ahead" of anyone by a resigned racer's cards.
    expect(theirs.locator(".toast").first).to_contain_text("your place is known once")
    expect(theirs.locator("body")).not_to_contain_text("— place")
    expect(grace.locator(".racer-gap")).to_have_count(0)
    shot(mine, "race-opponent-resigned")


# What the race page redraws (docs/client.md, "One state and one render per page").

# Count the card faces built from here on: drawn (an <svg> made) or copied (a drawn face
# cloned), which is what rebuilding a board costs.
COUNT_FACES = """() => {
    window.facesBuilt = 0;
    const make = Document.prototype.createElementNS;
    Document.prototype.createElementNS = function (ns, tag, ...rest) {
        if (tag === 'svg') window.facesBuilt += 1;
        return make.call(this, ns, tag, ...rest);
    };
    const copy = Node.prototype.cloneNode;
    Node.prototype.cloneNode = function (...args) {
        if (this.classList?.contains('face')) window.facesBuilt += 1;
        return copy.apply(this, args);
    };
}"""


def test_the_clock_and_a_rivals_moves_leave_your_board_as_it_is(
    new_page: Callable[..., Page], server_url: str, line: list[str]
) -> None:
    mine, theirs = two_racers(new_page, server_url)
    expect(mine.locator(".board-host .card[data-card]").first).to_be_visible()
    mine.evaluate(COUNT_FACES)
    clock = mine.locator(".clock")
    shown = clock.inner_text()
    expect(clock).not_to_have_text(shown)  # a second on the clock: five of its ticks
    click_move(theirs, line[0])
    expect(mine.locator(".racer", has_text="Grace").locator(".racer-moves")).to_have_text("1 move")
    assert mine.evaluate("window.facesBuilt") == 0, "the ticks and the rival's move built no card"
    click_move(mine, line[0])
    assert mine.evaluate("window.facesBuilt") > 0, "your own move redraws your board"
