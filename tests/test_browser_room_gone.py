"""The web client when the store has lost the room mid-race (issue 18, item 8): the move is
answered ``room_gone`` and the page goes back to the lobby, forgetting the seat.  A real
server process on a real Redis, driven in chromium."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator

import pytest
import redis
from playwright.sync_api import Browser, expect

from browser_kit import browser as browser  # the fixture
from server_kit import REDIS_URL, ProcessServer, _request


@pytest.fixture
def prefix() -> Iterator[str]:
    prefix = f"test:gone:{uuid.uuid4().hex[:12]}:"
    yield prefix
    client = redis.Redis.from_url(REDIS_URL)
    keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
    if keys:
        client.delete(*keys)
    client.close()


def test_a_room_lost_mid_race_sends_the_player_back_to_the_lobby(
    browser: Browser, prefix: str
) -> None:
    server = ProcessServer(REDIS_URL, prefix)
    try:
        room = {"deal": "ms:1", "step": "ones", "seats": 1, "countdown_s": 0}
        status, created = _request("POST", f"{server.url}/api/rooms", room)
        assert status == 201
        room_id = created["room_id"]
        page = browser.new_context().new_page()
        page.goto(f"{server.url}/#/room/{room_id}")
        page.fill("#app form input", "Ada")
        page.press("#app form input", "Enter")
        page.get_by_role("button", name=re.compile("ready", re.I)).click()
        page.wait_for_selector("body[data-page='room'] .card")
        store = redis.Redis.from_url(REDIS_URL)
        keys = list(store.scan_iter(match=f"{prefix}*{room_id}*"))
        assert keys
        store.delete(*keys)
        store.close()
        page.keyboard.press("1")
        page.keyboard.press("c")  # the first column's card to a free cell
        expect(page.locator("body[data-page='lobby']")).to_be_visible()
        assert page.evaluate("location.hash") in ("", "#/")
        kept = page.evaluate(f"Object.keys(localStorage).filter((k) => k.includes({room_id!r}))")
        assert kept == [], "the seat is forgotten"
        page.context.close()
    finally:
        server.stop()
