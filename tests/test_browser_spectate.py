"""The spectate page in a real browser (Debian's chromium, driven by Playwright): beside each
racer's board, in words, whether that delayed board can still be won; the racers' own pages
show no such mark.  Screenshots go to ``test-output/``."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from browser_kit import browser as browser  # the fixtures
from browser_kit import click_move, join_room, new_room, ready, shot, wait_racing
from browser_kit import console as console
from browser_kit import new_page as new_page
from browser_kit import server_url as server_url

LOSING = "t5-c1"  # on the kit's deal (ms:1 by ones) the first move can lose the win


def test_a_spectator_sees_which_boards_can_still_be_won_and_racers_do_not(
    new_page: Callable[..., Page], server_url: str
) -> None:
    room = new_room(server_url, seats=2, spectator_delay_s=1)
    ada = new_page(f"/#/room/{room}")
    join_room(ada, "Ada")
    bo = new_page(f"/#/room/{room}")
    join_room(bo, "Bo")
    watcher = new_page(f"/#/watch/{room}", width=1366)
    expect(watcher.locator(".spectated")).to_have_count(2)
    expect(watcher.locator(".board-verdict")).to_have_count(0)  # no boards before the start
    ready(ada)
    ready(bo)
    wait_racing(ada)
    ada_card = watcher.locator(".spectated", has_text="Ada")
    bo_card = watcher.locator(".spectated", has_text="Bo")
    expect(ada_card.locator(".board-verdict")).to_have_text("Still winnable")
    expect(bo_card.locator(".board-verdict")).to_have_text("Still winnable")
    click_move(ada, LOSING)
    expect(ada_card.locator(".board-verdict")).to_have_text("Lost the win")
    expect(ada_card.locator(".board-verdict")).to_have_attribute("data-verdict", "lost")
    expect(bo_card.locator(".board-verdict")).to_have_text("Still winnable")
    shot(watcher, "spectator-verdicts")
    watcher.set_viewport_size({"width": 390, "height": 844})
    expect(ada_card.locator(".board-verdict")).to_be_visible()
    shot(watcher, "spectator-verdicts-narrow")
    for racer in (ada, bo):
        expect(racer.locator(".board-verdict")).to_have_count(0)
