"""Friends in the web client (docs/friends.md), in chromium against a real ``stalactites
serve``: two players with accounts follow each other from their profiles, see each other
online in the header, one challenges the other from the header, the other accepts from the
challenge's card, and both land seated in the same race, which starts.  And the header's
friends, the inbox, the challenge dialog and the challenge's card, laid out in Polish and
Kazakh and at phone size: no English left, every control named, nothing off the screen.
Screenshots go to ``test-output/`` (``friends-*``)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, ViewportSize, expect

from browser_kit import LOCALES, Console, check_page, shot
from browser_kit import browser as browser
from browser_kit import console as console
from browser_kit import server_url as server_url

PHONE, DESKTOP = 390, 1366


@dataclass
class Player:
    player_id: str
    name: str
    page: Page


@pytest.fixture
def players(browser: Browser, server_url: str, console: Console) -> Iterator[Callable[..., Player]]:
    """Two new registered players, each signed in in a browser context of their own (the
    width and language of the test's ``request.param``, else English desktop)."""
    contexts: list[BrowserContext] = []

    def make(stem: str, lang: str = "en", width: int = DESKTOP) -> Player:
        viewport: ViewportSize = {"width": width, "height": 844 if width == PHONE else 900}
        context = browser.new_context(viewport=viewport, locale=LOCALES[lang])
        contexts.append(context)
        origin = {"Origin": server_url}
        context.request.post(f"{server_url}/api/session", data={}, headers=origin)
        suffix = uuid.uuid4().hex[:6]
        account = {"username": f"{stem.lower()}_{suffix}", "password": "correct horse battery"}
        made = context.request.post(f"{server_url}/api/accounts", data=account, headers=origin)
        assert made.status == 201, made.text()
        name = f"{stem} {suffix}"
        renamed = context.request.patch(f"{server_url}/api/me", data={"name": name}, headers=origin)
        assert renamed.ok, renamed.text()
        page = console.watch(context.new_page())
        page.goto(f"{server_url}/#/")
        return Player(made.json()["player_id"], name, page)

    yield make
    for context in contexts:
        context.close()


def follow_from_profile(player: Player, other: Player) -> None:
    player.page.goto(player.page.url.split("#")[0] + f"#/player/{other.player_id}")
    actions = player.page.locator(".profile-head .friend-actions")
    actions.get_by_role("button", name=re.compile("^(Follow|Obserwuj|Бақылау)$")).click()
    expect(actions.locator("[data-friend=unfollow]")).to_be_visible()


def friends_toggle(page: Page) -> Locator:
    return page.locator("#friends .friends-toggle")


def test_two_friends_follow_see_each_other_online_and_a_challenge_seats_both_in_a_race(
    players: Callable[..., Player], server_url: str
) -> None:
    ann, bob = players("Ann"), players("Bob")
    follow_from_profile(ann, bob)
    follow_from_profile(bob, ann)
    # Each sees the other online in the header, live.
    for player, other in ((ann, bob), (bob, ann)):
        expect(friends_toggle(player.page).locator(".friends-word")).to_have_text(
            "Friends online (1)"
        )
        friends_toggle(player.page).click()
        panel = player.page.locator("#friends-panel")
        expect(panel.get_by_role("link", name=other.name)).to_have_attribute(
            "href", f"#/player/{other.player_id}"
        )
    # Bob was told Ann follows him: the bell's count, the inbox in words, then read.
    bell = bob.page.locator("#friends .notes-bell")
    expect(bell).to_have_attribute("aria-label", "Notifications: 1 unread")
    bell.click()
    expect(bob.page.locator(".notes-list li").first).to_have_text(
        re.compile(f"^{ann.name} follows you now\\.")
    )
    expect(bell).to_have_attribute("aria-label", "Notifications: 0 unread")
    shot(bob.page, "friends-inbox-1366")
    bob.page.keyboard.press("Escape")
    # Ann challenges Bob from the header: Stalactites by ones, 3 minutes, unrated.
    ann.page.locator("#friends-panel").get_by_role("button", name=f"Challenge {bob.name}").click()
    dialog = ann.page.locator("dialog.challenge-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Game").select_option("stalactites")
    dialog.get_by_label("Foundation step").select_option("ones")
    dialog.get_by_label("Time limit").select_option("3")
    shot(ann.page, "friends-challenge-dialog-1366")
    dialog.get_by_role("button", name="Send the challenge").click()
    expect(dialog).to_have_count(0)
    waiting = ann.page.locator(".challenge-card.challenge-out")
    expect(waiting).to_contain_text(f"Waiting for {bob.name}…")
    # Bob's card says who and on what, with the seconds left; he accepts.
    card = bob.page.locator(".challenge-card.challenge-in")
    expect(card).to_contain_text(f"{ann.name} challenges you")
    expect(card).to_contain_text("Stalactites · by ones · 3 min · unrated")
    expect(card).to_contain_text(re.compile(r"\d+ seconds left to answer"))
    shot(bob.page, "friends-challenge-card-1366")
    card.get_by_role("button", name="Accept").click()
    # Both land in the same room, seated, and the race starts by itself.
    for player in (bob, ann):
        expect(player.page).to_have_url(re.compile(r"#/room/[^/]+$"))
    assert ann.page.url.rsplit("/", 1)[-1] == bob.page.url.rsplit("/", 1)[-1]
    for player in (ann, bob):
        race = player.page.locator("section.race")
        expect(race).to_have_attribute("data-status", re.compile("countdown|racing"))
        expect(player.page.locator(".board .pile-t").first).to_be_visible()
        expect(player.page.locator(".challenge-card")).to_have_count(0)
    shot(ann.page, "friends-race-1366")
    # Both resign: beside the other racer, Following (said by the server) and Challenge
    # again, on the same terms.
    for player in (ann, bob):
        expect(player.page.locator("section.race")).to_have_attribute("data-status", "racing")
        player.page.once("dialog", lambda dialog: dialog.accept())
        player.page.get_by_role("button", name="Resign").click()
    row = ann.page.locator(f"table.results tr[data-player='{bob.player_id}']")
    expect(row.locator(".friend-row .tag")).to_have_text("Following")
    shot(ann.page, "friends-results-1366")
    row.get_by_role("button", name=f"Challenge {bob.name} again").click()
    card = bob.page.locator(".challenge-card.challenge-in")
    expect(card).to_contain_text("Stalactites · by ones · 3 min · unrated")
    # Ann's own profile: her friends' section, with her presence setting and whom she follows.
    ann.page.goto(f"{server_url}/#/me")
    friends = ann.page.locator(".own-friends")
    expect(friends.get_by_label("Hide my online status")).to_be_enabled()
    expect(friends.locator(".friends-following summary")).to_have_text("You follow (1)")
    friends.locator(".friends-following summary").click()
    expect(friends.locator(".friends-following")).to_contain_text(bob.name)
    shot(ann.page, "friends-own-profile-1366")


@pytest.mark.parametrize(("lang", "width"), [("pl", DESKTOP), ("kk", PHONE), ("en", PHONE)])
def test_the_header_and_the_challenge_fit_the_screen_in_every_language(
    players: Callable[..., Player], lang: str, width: int
) -> None:
    zed, you = players("Zed", lang, width), players("Ivy", lang, width)
    follow_from_profile(you, zed)
    page = you.page
    fits = "(el) => el.getBoundingClientRect().right <= window.innerWidth + 0.5"
    toggle = friends_toggle(page)
    expect(toggle).to_contain_text("(1)")
    toggle.click()
    panel = page.locator("#friends-panel")
    expect(panel.get_by_role("link", name=zed.name)).to_be_visible()
    for part in (toggle, page.locator("#friends .notes-bell"), panel):
        assert part.evaluate(fits), f"{part} runs off a {width} px screen"
    check_page(page, lang)
    shot(page, f"friends-header-{lang}-{width}")
    panel.locator("button").last.click()
    dialog = page.locator("dialog.challenge-dialog")
    expect(dialog).to_be_visible()
    assert dialog.evaluate(fits)
    check_page(page, lang)
    shot(page, f"friends-dialog-{lang}-{width}")
    dialog.locator("button[type=submit]").click()
    # Zed's card: the challenge received, in his language, on his screen.
    card = zed.page.locator(".challenge-card.challenge-in")
    expect(card).to_be_visible()
    assert card.evaluate(fits)
    check_page(zed.page, lang)
    shot(zed.page, f"friends-card-{lang}-{width}")
    card.locator("button").last.click()  # Decline: the challenger is told
    expect(page.locator(".toast")).to_contain_text(zed.name)
