"""Players in the web client (issue 13), in a real browser against a real server: a first
visit gets a player named in the header (its session an HttpOnly cookie the page cannot
read), registering, signing out and in again (here and on another device) keep the same
player and ratings, a rated two-player race played in two browser contexts shows both rating
changes on the results, then on each profile (provisional) and the leaderboard, deleting the
account, and the catalogue check of every new page in English, Polish and Kazakh, with
screenshots at 1366x768 and 390x844 in ``test-output/``.

The browser, the server and the pages come from ``tests/browser_kit.py``.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from browser_kit import (
    LOCALES,
    Console,
    board_of,
    check_page,
    click_move,
    first_moves,
    in_thread,
    post,
    shot,
)
from browser_kit import browser as browser  # the fixtures
from browser_kit import console as console
from browser_kit import server_url as server_url
from players_kit import anonymous, api, race_rated, recorded
from stalactites.rooms.rating import NO_PLAY_MOVES

DESKTOP: ViewportSize = {"width": 1366, "height": 768}
PHONE: ViewportSize = {"width": 390, "height": 844}
PASSWORD = "correct horse battery"


@pytest.fixture
def visitor(browser: Browser, server_url: str, console: Console) -> Iterator[Callable[..., Page]]:
    """A visitor: a page in a browser context of its own (its own cookies and storage)."""
    contexts: list[BrowserContext] = []

    def make(path: str = "/", lang: str = "en", viewport: ViewportSize = DESKTOP) -> Page:
        context = browser.new_context(viewport=viewport, locale=LOCALES[lang])
        contexts.append(context)
        page = console.watch(context.new_page())
        page.goto(f"{server_url}{path}")
        return page

    yield make
    for context in contexts:
        context.close()


def player_of(page: Page) -> dict[str, Any]:
    """The page's signed-in player, asked of the server with the page's own cookie."""
    answer = page.request.get(f"{page.url.split('#')[0]}api/me")
    assert answer.status == 200, answer.text()
    data: dict[str, Any] = answer.json()
    return data


def header_name(page: Page) -> str:
    expect(page.locator("#me .me-rating")).to_be_visible()
    return page.locator("#me .me-name").inner_text()


def get_json(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def history(server_url: str, player_id: str) -> list[dict[str, Any]]:
    """The player's races once the finished race is recorded on them (players_kit's wait)."""
    return in_thread(recorded(server_url, player_id))


def register(page: Page, username: str) -> None:
    page.goto(page.url.split("#")[0] + "#/me")
    form = page.locator("form.account-register")
    form.locator("input[name=username]").fill(username)
    form.locator("input[name=password]").fill(PASSWORD)
    form.get_by_role("button").click()
    page.locator("dialog.recovery-codes .codes-saved").click()  # its recovery codes, shown once
    expect(page.locator(".profile-head")).to_contain_text(f"account {username}")


def sign_in(page: Page, username: str, password: str = PASSWORD) -> None:
    # A guest's sign-in form is open from the start; another account's is behind its summary.
    expect(page.locator("details.sign-in summary")).to_be_visible()
    if page.locator("details.sign-in[open]").count() == 0:
        page.locator("details.sign-in summary").click()
    form = page.locator("form.account-sign-in")
    form.locator("input[name=username]").fill(username)
    form.locator("input[name=password]").fill(password)
    form.get_by_role("button").click()


def resign(page: Page) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".race-actions").get_by_role(
        "button", name=re.compile("^(Resign|Poddaj|Бер)")
    ).click()


def test_a_first_visit_gets_a_player_named_in_the_header(visitor: Callable[..., Page]) -> None:
    page = visitor("/")
    name = header_name(page)
    me = player_of(page)
    assert name == me["name"] and name
    assert me["registered"] is False
    expect(page.locator("#me .me-rating")).to_have_text("1,000")
    # The session is a cookie the page's scripts cannot read.
    cookies = {c["name"]: c for c in page.context.cookies()}
    assert cookies["stalactites_session"]["httpOnly"] is True
    assert "stalactites_session" not in page.evaluate("document.cookie")
    # A reload is the same player: no second one is made.
    page.reload()
    assert header_name(page) == name
    assert player_of(page)["player_id"] == me["player_id"]
    page.locator("#me").click()
    expect(page.locator(".profile-name")).to_have_text(name)
    expect(page.locator(".profile-head")).to_contain_text("no account yet")
    shot(page, "players-first-visit")


def test_register_sign_out_and_sign_in_again_keep_the_player(
    visitor: Callable[..., Page], console: Console
) -> None:
    console.allow("status of 401")  # the wrong password, asked on purpose
    page = visitor("/")
    first = header_name(page)
    before = player_of(page)
    username = f"ada_{uuid.uuid4().hex[:8]}"
    register(page, username)
    assert player_of(page)["registered"] is True

    page.get_by_role("button", name="Sign out", exact=True).click()
    expect(page.locator("#toasts")).to_contain_text("Signed out.")
    # Signed out, the browser is a newcomer: another player (anonymous) is made for it.
    expect(page.locator(".profile-head")).to_contain_text("no account yet")
    assert player_of(page)["player_id"] != before["player_id"]

    sign_in(page, username, "not the password")
    expect(page.locator("form.account-sign-in .form-error")).to_have_text(
        "Wrong username or password."
    )
    sign_in(page, username)
    expect(page.locator(".profile-head")).to_contain_text(f"account {username}")
    again = player_of(page)
    assert again["player_id"] == before["player_id"]
    assert again["ratings"] == before["ratings"]
    assert header_name(page) == first

    # Another device: the same player.
    other = visitor("/#/me")
    expect(other.locator(".profile-head")).to_be_visible()
    sign_in(other, username)
    expect(other.locator(".profile-name")).to_have_text(first)
    assert player_of(other)["player_id"] == before["player_id"]
    # Sign out everywhere ends the first device's session too.
    other.get_by_role("button", name="Sign out everywhere").click()
    expect(other.locator("#toasts")).to_contain_text("Signed out on every device.")
    answer = page.request.get(f"{page.url.split('#')[0]}api/me")
    assert answer.status == 401


def create_rated_room(page: Page) -> str:
    form = page.locator("form.create").first
    form.locator("input[name=countdown_s]").fill("0")
    rated = form.locator(".rated-option")
    expect(rated).to_be_visible()
    rated.locator("input").check()
    form.get_by_role("button", name="Create room and join").click()
    expect(page.locator("section.race")).to_be_visible()
    match = re.search(r"#/room/([^/]+)$", page.url)
    assert match
    return match.group(1)


def play_rated_race(visitor: Callable[..., Page], viewport: ViewportSize) -> tuple[Page, Page, str]:
    """Two players race a rated room to its end (both resign); the results are shown."""
    ann = visitor("/", viewport=viewport)
    header_name(ann)
    room = create_rated_room(ann)
    expect(ann.locator(".race-settings")).to_contain_text("rated")
    bo = visitor(f"/#/room/{room}", viewport=viewport)
    expect(bo.locator(".join .race-settings")).to_contain_text("rated")
    expect(bo.locator(".rated-note")).to_be_visible()
    bo.get_by_role("button", name="Join the race").click()
    expect(bo.locator("section.race")).to_be_visible()
    for page in (ann, bo):
        page.get_by_role("button", name=re.compile("ready", re.I)).click()
    for page in (ann, bo):
        expect(page.locator("section.race")).to_have_attribute("data-status", "racing")
        for move in first_moves(board_of(page), NO_PLAY_MOVES):  # real play: stays rated
            click_move(page, move)
    resign(ann)
    resign(bo)
    for page in (ann, bo):
        expect(page.locator("section.race")).to_have_attribute("data-status", "finished")
    return ann, bo, room


def test_a_rated_race_shows_both_rating_changes_on_the_results_profiles_and_leaderboard(
    visitor: Callable[..., Page], server_url: str
) -> None:
    ann, bo, room = play_rated_race(visitor, DESKTOP)
    players = {p["player_id"]: p for p in (player_of(ann), player_of(bo))}
    races = {pid: history(server_url, pid)[0] for pid in players}
    for race in races.values():
        assert race["room_id"] == room and race["rated"] is True
    for page in (ann, bo):
        rows = page.locator(".overlay table.results tbody tr")
        expect(rows).to_have_count(2)
        for pid, race in races.items():
            row = page.locator(f'.overlay table.results tr[data-player="{pid}"] td.rating')
            before, after = race["rating_before"], race["rating_after"]
            expect(row).to_contain_text(f"{before:,} → {after:,}")
    shot(ann, "players-results-1366")

    for page in (ann, bo):
        me = player_of(page)
        race = races[me["player_id"]]
        page.goto(page.url.split("#")[0] + "#/me")
        card = page.locator('.rating-card[data-game="stalactites"]')
        expect(card.locator(".rating-number")).to_have_text(f"{race['rating_after']:,}")
        expect(card).to_contain_text("1 rated race")
        expect(card.locator(".provisional")).to_have_text("provisional")
        expect(card.locator("svg.chart")).to_be_visible()
        line = page.locator(f'table.history tr[data-room="{room}"]')
        expect(line).to_contain_text(f"{race['rating_before']:,} → {race['rating_after']:,}")
        expect(line.get_by_role("link", name="Replay")).to_have_attribute(
            "href", f"#/replay/{room}"
        )
        expect(page.locator("table.stats tbody tr")).to_have_count(1)
        expect(page.locator("#me .me-rating")).to_have_text(f"{race['rating_after']:,}")
    shot(ann, "players-profile-1366")
    # Neither is on the leaderboard: registered, non-provisional players only.
    ann.goto(ann.url.split("#")[0] + "#/leaderboard/stalactites")
    expect(ann.locator(".board-empty")).to_have_text("Nobody on this leaderboard yet.")
    expect(ann.locator(".leaderboard")).to_contain_text("Register to be on the leaderboard.")
    shot(ann, "players-leaderboard-1366")
    # The replay link from the history opens the race's replay.
    bo.locator(f'table.history tr[data-room="{room}"]').get_by_role("link").click()
    expect(bo.locator("body")).to_have_attribute("data-page", "replay")


def test_a_player_renames_once_a_day(visitor: Callable[..., Page], console: Console) -> None:
    console.allow("status of 429")  # the second rename, refused on purpose
    page = visitor("/#/me")
    expect(page.locator(".profile-name")).to_be_visible()
    new_name = f"Zoë {uuid.uuid4().hex[:6]}"
    form = page.locator("form.account-rename")
    form.locator("input[name=name]").fill(new_name)
    form.get_by_role("button").click()
    expect(page.locator("#toasts")).to_contain_text("Your name is changed.")
    expect(page.locator(".profile-name")).to_have_text(new_name)
    expect(page.locator("#me .me-name")).to_have_text(new_name)
    assert player_of(page)["name"] == new_name
    form.locator("input[name=name]").fill(f"{new_name} 2")
    form.get_by_role("button").click()
    expect(form.locator(".form-error")).to_contain_text("You may change your name again on")
    assert player_of(page)["name"] == new_name


def test_deleting_the_account_asks_first_and_then_the_player_is_gone(
    visitor: Callable[..., Page], server_url: str
) -> None:
    page = visitor("/#/me")
    expect(page.locator(".profile-name")).to_be_visible()  # the page has its player
    gone = player_of(page)["player_id"]
    old_name = page.locator(".profile-name").inner_text()
    page.locator("details.danger summary").click()
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_role("button", name="Delete my account").click()
    assert get_json(f"{server_url}/api/players/{gone}")[0] == 200  # dismissed: nothing gone
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Delete my account").click()
    expect(page.locator("#toasts")).to_contain_text("Your account is deleted.")
    assert get_json(f"{server_url}/api/players/{gone}")[0] == 404
    # The browser goes on as a newcomer, with a new player (its page drawn anew: until then
    # the old one's name is still on it, and the new session may not be made yet).
    expect(page.locator(".profile-name")).not_to_have_text(old_name)
    assert player_of(page)["player_id"] != gone


def test_the_lobby_offers_rated_only_where_it_applies(visitor: Callable[..., Page]) -> None:
    page = visitor("/")
    header_name(page)
    form = page.locator("form.create").first
    rated = form.locator(".rated-option")
    expect(rated).to_be_visible()
    form.locator("input[name=seats]").fill("1")
    expect(rated).to_be_hidden()
    form.locator("input[name=seats]").fill("2")
    expect(rated).to_be_visible()
    form.locator("input[name=deal]").fill("ms:1")
    expect(rated).to_be_hidden()


@pytest.mark.parametrize("lang", ["en", "pl", "kk"])
def test_every_players_page_in_each_language(
    visitor: Callable[..., Page], server_url: str, lang: str
) -> None:
    """The catalogue check over the new pages: the header, your profile with its account
    panel (anonymous and registered), another's profile, both leaderboards, a rated room's
    join page, and a rated race's results; at 1366x768 and 390x844."""
    for viewport, size in ((DESKTOP, "1366"), (PHONE, "390")):
        page = visitor("/", lang=lang, viewport=viewport)
        header_name(page)
        check_page(page, lang)
        page.goto(page.url.split("#")[0] + "#/me")
        expect(page.locator("form.account-register")).to_be_visible()
        page.locator("details").first.click()
        page.locator("details.danger summary").click()
        check_page(page, lang)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        shot(page, f"players-me-{lang}-{size}")
        for game in ("stalactites", "squadron"):
            page.goto(page.url.split("#")[0] + f"#/leaderboard/{game}")
            expect(page.locator(".board-empty")).to_be_visible()
            check_page(page, lang)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        shot(page, f"players-leaderboard-{lang}-{size}")
        room = post(f"{server_url}/api/rooms", {"seats": 2, "rated": True})["room_id"]
        page.goto(page.url.split("#")[0] + f"#/room/{room}")
        expect(page.locator(".rated-note")).to_be_visible()
        check_page(page, lang)
        shot(page, f"players-join-rated-{lang}-{size}")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


@pytest.mark.parametrize("lang", ["pl", "kk"])
def test_a_rated_race_and_its_profiles_in_each_language(
    visitor: Callable[..., Page], server_url: str, lang: str
) -> None:
    ann = visitor("/", lang=lang, viewport=PHONE)
    header_name(ann)
    room = post(f"{server_url}/api/rooms", {"seats": 2, "rated": True, "countdown_s": 0})
    bo = visitor(f"/#/room/{room['room_id']}", lang=lang, viewport=PHONE)
    for page in (ann, bo):
        page.goto(page.url.split("#")[0] + f"#/room/{room['room_id']}")
        page.locator(".join button[type=submit]").click()
        # Drawn before the room's view arrives; its keys work once it has.
        expect(page.locator("section.race")).to_have_attribute("data-status", "waiting")
    for page in (ann, bo):
        page.keyboard.press("r")
    for page in (ann, bo):
        expect(page.locator("section.race")).to_have_attribute("data-status", "racing")
        for move in first_moves(board_of(page), NO_PLAY_MOVES):  # real play: stays rated
            click_move(page, move)
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator(".race-actions .btn-quiet").first.click()
    for page in (ann, bo):
        expect(page.locator(".overlay td.rating").first).to_be_visible()
    check_page(ann, lang)
    shot(ann, f"players-results-{lang}-390")
    history(server_url, player_of(ann)["player_id"])
    ann.goto(ann.url.split("#")[0] + "#/me")
    expect(ann.locator("table.history tbody tr")).to_have_count(1)
    check_page(ann, lang)
    assert ann.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(ann, f"players-profile-{lang}-390")
    other = player_of(bo)["player_id"]
    ann.goto(ann.url.split("#")[0] + f"#/player/{other}")
    expect(ann.locator("table.history tbody tr")).to_have_count(1)
    expect(ann.locator(".account")).to_have_count(0)
    check_page(ann, lang)


async def rated_races(base: str, usernames: list[str], races: int) -> list[str]:
    """Registered players (made over the API, Bearer sessions), each racing ``races`` rated
    rooms, each against a new opponent (races against one opponent count less and less:
    docs/players.md), each playing a little and resigning first (placed second); their ids."""
    players = [await anonymous(base) for _ in usernames]
    for made, username in zip(players, usernames, strict=True):
        body = {"username": username, "password": PASSWORD}
        status, answer, _ = await api("POST", f"{base}/api/accounts", body, made["token"])
        assert status == 201, answer
    for made in players:
        for _ in range(races):
            await race_rated(base, [made, await anonymous(base)], 1)
        await recorded(base, made["player_id"], races)
    return [made["player_id"] for made in players]


def test_the_leaderboard_lists_registered_players_past_their_provisional_races(
    visitor: Callable[..., Page], server_url: str
) -> None:
    tag = uuid.uuid4().hex[:6]
    usernames = [f"cy_{tag}", f"di_{tag}"]
    ids = in_thread(rated_races(server_url, usernames, 11))
    status, board = get_json(f"{server_url}/api/leaderboards/stalactites")
    assert status == 200
    lines = [line for line in board["players"] if line["player_id"] in ids]
    assert len(lines) == 2
    page = visitor("/#/leaderboard/stalactites")
    for line in lines:
        row = page.locator(f'table.leaderboard-table tr[data-player="{line["player_id"]}"]')
        expect(row).to_contain_text(f"{line['rating']:,}")
        expect(row.locator("td.place")).to_have_text(str(line["rank"]))
    # Signed in as one of them: "around me" shows your line, marked as yours.
    page.goto(page.url.split("#")[0] + "#/me")
    sign_in(page, usernames[1])
    expect(page.locator(".profile-head")).to_contain_text(f"account {usernames[1]}")
    card = page.locator('.rating-card[data-game="stalactites"]')
    expect(card).to_contain_text("11 rated races")
    expect(card.locator(".provisional")).to_have_count(0)
    expect(page.locator("table.history tbody tr")).to_have_count(10)
    page.get_by_role("button", name="Older").click()
    expect(page.locator("table.history tbody tr")).to_have_count(1)
    expect(page.get_by_role("button", name="Older")).to_be_disabled()
    page.get_by_role("button", name="Newer").click()
    expect(page.locator("table.history tbody tr")).to_have_count(10)
    card.get_by_role("link", name="Leaderboard").click()
    page.get_by_role("button", name="Around me").click()
    expect(page.locator(f'table.leaderboard-table tr.you[data-player="{ids[1]}"]')).to_be_visible()
    shot(page, "players-leaderboard-around-me-1366")
