"""How a room is shown: a deal its creator chose is marked wherever the room is (it may have
been studied), a long name never pushes a lobby row's button out of its panel, and a solo room
asks nobody to share its link."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from browser_kit import browser as browser  # the fixtures
from browser_kit import console as console
from browser_kit import join_room, new_room, post, ready, shot, wait_racing
from browser_kit import new_page as new_page
from browser_kit import server_url as server_url

CHOSEN = "deal chosen by the room's creator"
LONG_NAME = "W" * 24  # the widest 24 characters, with no space to break at


def resign(page: Page) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".race-actions .btn-quiet").first.click()
    expect(page.locator("section.race")).to_have_attribute("data-status", "finished")


def test_a_deal_the_creator_chose_is_marked_in_the_lobby_join_page_race_and_results(
    new_page: Callable[..., Page], server_url: str
) -> None:
    chosen = new_room(server_url, seats=2)  # the kit's rooms name their deal
    dealt = new_room(server_url, seats=2, deal=None)
    for room in (chosen, dealt):
        post(f"{server_url}/api/rooms/{room}/players", {"name": "Ada"})
    lobby = new_page("/#/", width=1366)
    expect(lobby.locator(f'.room-item[data-room="{chosen}"]')).to_contain_text(CHOSEN)
    expect(lobby.locator(f'.room-item[data-room="{dealt}"]')).to_be_visible()
    expect(lobby.locator(f'.room-item[data-room="{dealt}"]')).not_to_contain_text(CHOSEN)

    solo = new_room(server_url, seats=1)
    page = new_page(f"/#/room/{solo}", width=1366)
    expect(page.locator(".race-settings")).to_contain_text(CHOSEN)  # the join page
    join_room(page, "Solo")
    ready(page)
    wait_racing(page)
    expect(page.locator(".race-head .race-settings")).to_contain_text(CHOSEN)
    resign(page)
    expect(page.locator(".overlay-card .deal-chosen")).to_have_text(CHOSEN)
    shot(page, "rooms-chosen-deal-results")


@pytest.mark.parametrize("width", [1366, 390])
def test_a_24_character_name_leaves_join_and_watch_inside_the_lobby_panel(
    new_page: Callable[..., Page], server_url: str, width: int
) -> None:
    waiting = new_room(server_url, seats=2)
    post(f"{server_url}/api/rooms/{waiting}/players", {"name": LONG_NAME})
    racing = new_room(server_url, seats=1)
    racer = new_page(f"/#/room/{racing}", width=width)
    join_room(racer, LONG_NAME)
    ready(racer)
    wait_racing(racer)
    lobby = new_page("/#/", width=width)
    for room in (waiting, racing):
        row = lobby.locator(f'.room-item[data-room="{room}"]')
        expect(row).to_contain_text(LONG_NAME)
        panel = lobby.locator(".panel", has=row).first.bounding_box()
        button = row.locator(".btn").bounding_box()
        assert panel and button
        assert button["x"] + button["width"] <= panel["x"] + panel["width"], room
    assert lobby.evaluate("document.documentElement.scrollWidth") <= width
    shot(lobby, f"rooms-long-name-lobby-{width}")


def test_a_solo_room_asks_nobody_to_share_its_link(
    new_page: Callable[..., Page], server_url: str
) -> None:
    solo = new_page(f"/#/room/{new_room(server_url, seats=1)}", width=390)
    join_room(solo, "Solo")
    expect(solo.get_by_role("button", name="Ready")).to_be_visible()
    expect(solo.locator(".share-link")).to_have_count(0)
    expect(solo.locator("main")).not_to_contain_text("Share this link")
    shot(solo, "rooms-solo-waiting-390")
    pair = new_page(f"/#/room/{new_room(server_url, seats=2)}", width=390)
    join_room(pair, "Ada")
    expect(pair.locator(".share-link")).to_have_count(1)
