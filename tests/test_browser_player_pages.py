"""The players' pages in a real browser against a real server, past what test_browser_players.py
covers: a returning visitor whose session is gone asks who they are without a failed request
(no 401 in the console), the profile's rating chart with its table for screen readers, dates
in the page's language (Kazakh from the catalogue, as Chromium's Intl has no Kazakh month
names), a tournament round in the history, and "rated" on the lobby's rows; screenshots at
1366x768 and 390x844 in ``test-output/``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Response, ViewportSize, expect

from browser_kit import LOCALES, Console, check_page, in_thread, post, shot
from browser_kit import browser as browser  # the fixtures
from browser_kit import console as console
from browser_kit import server_url as server_url
from players_kit import anonymous, api, race_rated, recorded
from server_kit import Client

SIZES: dict[str, ViewportSize] = {
    "1366": {"width": 1366, "height": 768},
    "390": {"width": 390, "height": 844},
}

# A date and time as each language writes it (Kazakh: the catalogue's, "2025 ж. 1 жел., 09:05").
DATES = {
    "en": re.compile(r"^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d\s[AP]M$"),
    "pl": re.compile(r"^\d{1,2} \w{3} \d{4}, \d\d:\d\d$"),
    "kk": re.compile(r"^\d{4} ж\. \d{1,2} \w{3}\., \d\d:\d\d$"),
}


@pytest.fixture
def signed_in(browser: Browser, server_url: str, console: Console) -> Iterator[Callable[..., Page]]:
    """A page in a browser context of its own, signed in with this session (its cookie)."""
    contexts: list[BrowserContext] = []

    def make(session: dict[str, Any] | None, path: str, lang: str, size: str) -> Page:
        context = browser.new_context(viewport=SIZES[size], locale=LOCALES[lang])
        contexts.append(context)
        if session is not None:
            name, token = "stalactites_session", session["token"]
            context.add_cookies(
                [{"name": name, "value": token, "url": server_url, "httpOnly": True}]
            )
        page = console.watch(context.new_page())
        page.goto(f"{server_url}{path}")
        return page

    yield make
    for context in contexts:
        context.close()


def failed(page: Page) -> list[str]:
    """Every request of the page answered 400 or more, from now on."""
    seen: list[str] = []

    def note(response: Response) -> None:
        if response.status >= 400:
            seen.append(f"{response.status} {response.request.method} {response.url}")

    page.on("response", note)
    return seen


def test_a_visitor_whose_session_is_gone_asks_who_they_are_with_no_failed_request(
    signed_in: Callable[..., Page],
) -> None:
    page = signed_in(None, "/", "en", "1366")
    errors = failed(page)
    first = page.locator("#me .me-name")
    expect(first).not_to_be_empty()
    name = first.inner_text()
    page.context.clear_cookies()  # expired, or signed out on another device
    page.reload()
    expect(page.locator("#me .me-name")).not_to_have_text(name)  # a new anonymous player
    expect(page.locator("#me .me-name")).not_to_be_empty()
    assert errors == []  # (and the console fixture: no console error)


async def _round_with(base: str, ann: dict[str, Any], bo: dict[str, Any]) -> tuple[str, str]:
    """A one-round tournament Ann and Bo enter with their sessions and both resign; its id and
    the round's room."""
    body = {"name": "Winter Cup", "rounds": 1, "round_time_s": 60, "deals": ["ms:4"]}
    status, made, _ = await api("POST", f"{base}/api/tournaments", body)
    assert status == 201, made
    tournament_id = made["tournament_id"]
    for player in (ann, bo):
        url = f"{base}/api/tournaments/{tournament_id}/players"
        status, entry, _ = await api("POST", url, {}, player["token"])
        assert status == 201 and entry["player_id"] == player["player_id"], entry
    headers = {"Authorization": f"Bearer {made['admin_token']}"}
    start = f"{base}/api/tournaments/{tournament_id}/start"
    status, shown, _ = await api("POST", start, {}, headers=headers)
    assert status == 200, shown
    room_id = shown["current_round"]["room_id"]
    ws = base.replace("http", "ws", 1)
    for player in (ann, bo):
        client = await Client.open(f"{ws}/ws/rooms/{room_id}")
        await client.hello(player["token"])  # the session is the seat
        await client.send(type="resign")
        await client.expect("finished", player_id=client.you, status="resigned")
        await client.close()
    for player in (ann, bo):
        await recorded(base, player["player_id"], 4)
    return tournament_id, room_id


async def _history(base: str) -> tuple[dict[str, Any], str, str]:
    """Ann: three rated races against Bo, then a tournament round; Ann's session, the
    tournament and the round's room."""
    ann, bo = await anonymous(base), await anonymous(base)
    await race_rated(base, [ann, bo], 3)
    tournament_id, room_id = await _round_with(base, ann, bo)
    return ann, tournament_id, room_id


@pytest.fixture(scope="module")
def history(server_url: str) -> tuple[dict[str, Any], str, str]:
    return in_thread(_history(server_url))


@pytest.mark.parametrize("lang", ["en", "pl", "kk"])
@pytest.mark.parametrize("size", ["1366", "390"])
def test_the_profile_charts_the_rating_with_its_races_in_a_table_and_dates_in_the_language(
    signed_in: Callable[..., Page],
    history: tuple[dict[str, Any], str, str],
    lang: str,
    size: str,
) -> None:
    ann, tournament_id, room_id = history
    page = signed_in(ann, "/#/me", lang, size)
    card = page.locator('.rating-card[data-game="stalactites"]')
    chart = card.locator("svg.chart[role=img]")
    expect(chart).to_be_visible()
    label = chart.get_attribute("aria-label") or ""
    races = page.request.get(page.url.split("#")[0] + f"api/players/{ann['player_id']}/races")
    rated = [race for race in races.json()["races"] if race["rated"]]
    assert len(rated) == 3
    assert f"{rated[-1]['rating_before']}" in label.replace("\u00a0", "").replace(",", "")
    table = card.locator("details.chart-table")
    table.locator("summary").click()
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(3)
    for row, race in zip(rows.all(), rated, strict=True):  # newest first, as the history
        change = row.locator(".rating-change").inner_text()
        digits = re.sub(r"[\s,\u00a0]", "", change)
        assert f"{race['rating_before']}→{race['rating_after']}" in digits, change
        assert DATES[lang].match(row.locator("td").first.inner_text()), row.inner_text()
    round_line = page.locator(f'table.history tr[data-room="{room_id}"]')
    link = round_line.locator(".history-round a")
    expect(link).to_have_attribute("href", f"#/tournament/{tournament_id}")
    expect(link).to_contain_text("Winter Cup")
    when = round_line.locator("td").first.inner_text()
    assert DATES[lang].match(when), when
    check_page(page, lang)
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    shot(page, f"players-chart-{lang}-{size}")
    if size == "1366":  # the round's replay names its tournament and round
        round_line.locator("a[href^='#/replay/']").click()
        expect(page.locator("body")).to_have_attribute("data-page", "replay")
        expect(page.locator("#app")).to_contain_text("Winter Cup")
        check_page(page, lang)
        shot(page, f"players-round-replay-{lang}-1366")


@pytest.mark.parametrize("size", ["1366", "390"])
def test_a_rated_room_says_rated_on_its_lobby_row(
    signed_in: Callable[..., Page], server_url: str, size: str
) -> None:
    rated = post(f"{server_url}/api/rooms", {"seats": 2, "rated": True})["room_id"]
    unrated = post(f"{server_url}/api/rooms", {"seats": 2})["room_id"]
    page = signed_in(None, "/", "en", size)
    row = page.locator(f'.room-item[data-room="{rated}"]')
    expect(row.locator(".tag-rated")).to_have_text("rated")
    expect(page.locator(f'.room-item[data-room="{unrated}"] .tag-rated')).to_have_count(0)
    shot(page, f"players-lobby-rated-{size}")


def test_entering_a_tournament_from_the_page_enters_the_signed_in_player(
    signed_in: Callable[..., Page], server_url: str
) -> None:
    made = post(f"{server_url}/api/tournaments", {"name": "Spring Cup", "rounds": 1})
    page = signed_in(None, f"/#/tournament/{made['tournament_id']}", "en", "390")
    field = page.locator(".tournament input[name=name]")
    expect(field).to_have_attribute("placeholder", re.compile(r"\w"))  # the page has its player
    me = page.request.get(f"{server_url}/api/session").json()["player"]
    expect(field).to_have_attribute("placeholder", me["name"])
    page.get_by_role("button", name="Enter the tournament").click()  # no name typed
    expect(page.locator(".tournament .ok")).to_be_visible()
    shown = page.request.get(f"{server_url}/api/tournaments/{made['tournament_id']}").json()
    assert [(s["player_id"], s["name"]) for s in shown["standings"]] == [
        (me["player_id"], me["name"])
    ]
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES["390"]["width"]
    shot(page, "players-tournament-entered-390")
