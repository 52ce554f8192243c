"""Two tabs of one seat in chromium (issue 18, item 11): a move made in one tab shows in the
other, which is kept in step by ``synced`` frames.  A real ``stalactites serve`` process."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Browser, Page

from browser_kit import browser as browser  # the fixture
from server_kit import ProcessServer, _request

BOARD = """() => Object.fromEntries([...document.querySelectorAll('.board-host .pile')]
    .map((p) => [p.dataset.pile,
        [...p.querySelectorAll('.card[data-card]')].map((c) => c.dataset.card)]))"""

DIFFERS = f"(board) => JSON.stringify(({BOARD})()) !== board"
EQUALS = f"(board) => JSON.stringify(({BOARD})()) === board"


def board_of(page: Page) -> dict[str, list[str]]:
    shown: dict[str, list[str]] = page.evaluate(BOARD)
    return shown


def text(board: dict[str, list[str]]) -> str:
    """The board as the page's JSON.stringify writes it."""
    return json.dumps(board, separators=(",", ":"))


def test_a_move_in_one_tab_shows_in_the_other(browser: Browser) -> None:
    server = ProcessServer(None)
    try:
        room = {"deal": "ms:1", "step": "ones", "seats": 1, "countdown_s": 0}
        status, created = _request("POST", f"{server.url}/api/rooms", room)
        assert status == 201
        address = f"{server.url}/#/room/{created['room_id']}"
        context = browser.new_context()  # one browser: the tabs share the seat
        first = context.new_page()
        first.goto(address)
        first.fill("#app form input", "Ada")
        first.press("#app form input", "Enter")
        first.get_by_role("button", name=re.compile("ready", re.I)).click()
        first.wait_for_selector("body[data-page='room'] .card")
        second = context.new_page()
        second.goto(address)
        second.wait_for_selector("body[data-page='room'] .card")
        before = board_of(second)
        first.keyboard.press("1")
        first.keyboard.press("c")  # the first column's card to a free cell
        first.wait_for_function(DIFFERS, arg=text(before))
        moved = board_of(first)
        second.wait_for_function(EQUALS, arg=text(moved))
        assert board_of(second) == moved
        context.close()
    finally:
        server.stop()
