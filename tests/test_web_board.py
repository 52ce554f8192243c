"""The board as a card game in a real browser (issue 16): card faces, foundations drawn as
piles, cards that glide (and stay still with reduced motion), the assists, the phone and the
desktop fold, the opponents' track, and the faults seen: a key-picked card highlighted, "1 move",
a refusal note cleared by the next good move, toasts clear of Undo and Resign and left behind
when the page changes.  A real ``stalactites serve`` process; nothing waits by sleeping."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, WebSocketRoute, expect

from browser_kit import browser as browser  # the fixtures
from browser_kit import (
    click_move,
    join_room,
    new_room,
    ready,
    settled,
    shot,
    start_solo,
    top_card,
    wait_racing,
)
from browser_kit import console as console
from browser_kit import line as line
from browser_kit import new_page as new_page
from browser_kit import server_url as server_url


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
    page.get_by_role("link", name="Watch the replay").click()
    expect(page.locator(".replay-head").first).to_contain_text("1")
    page.keyboard.press("End")
    expect(page.locator(".replay-head").first).to_contain_text("moves: 1/1")
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


def overlaps(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    assert a is not None and b is not None
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


# A toast as long as the server's messages are (this one is error.retry's).
SHOW_TOAST = """async () => (await import('./js/dom.js')).toast(
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
    page.get_by_role("link", name="Watch the replay").click()
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
    new_page: Callable[..., Page], server_url: str
) -> None:
    for game in ("stalactites", "squadron"):
        for width, height in ((1366, 768), (390, 844)):
            page = race_page(new_page, server_url, game, (width, height))
            page.screenshot(path=f"test-output/race-{game}-{width}x{height}.png")
            shot(page, f"race-{game}-{width}x{height}-full")
