"""The daily deal against its own players, on the in-memory store and on Redis: an attempt is
official when it starts, not when it is made; no attempt gives the day's deal or a line of it
away during the day (a practice's results, view, welcome, record, hints); an attempt made
before midnight and not started by then never starts, and a race started before midnight
ends at midnight; attempts and analyses are limited per address like new rooms."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from daily_kit import attempt, board_until, resign_attempt
from players_kit import anonymous, api
from server_kit import REDIS_URL, Client, InProcessServer, ManualClock, make_config, play
from stalactites.daily.deal import DAY_MS

pytestmark = pytest.mark.usefixtures("close_clients")

GAME = "squadron"  # no step to declare: its certified line is played as it is


def line_of(server: InProcessServer, room_id: str) -> list[str]:
    """The attempt's winning line, read from the server's own settings of the room (no
    answer shows it during the day: the cheat this test plays needs it)."""
    settings = server.app.state.process.rooms.known_settings(room_id)
    assert settings is not None and settings.solution is not None
    return list(settings.solution["play"])


async def seated(server: InProcessServer, made: dict[str, Any]) -> Client:
    """The attempt's player on its websocket, welcomed."""
    client = await Client.open(server.ws_url(made["room_id"]))
    client.token = made["token"]
    await client.hello(made["token"])
    return client


def to_before_midnight(clock: ManualClock, seconds: int) -> int:
    """Move the clock to ``seconds`` before the next UTC midnight; that midnight (unix ms)."""
    now = clock.now_ms()
    midnight = (now // DAY_MS + 1) * DAY_MS
    clock.advance((midnight - seconds * 1000 - now) / 1000)
    return midnight


async def test_an_attempt_left_unstarted_is_not_official_and_a_practice_reveals_nothing(
    any_server: InProcessServer,
) -> None:
    base = any_server.url
    ann = await anonymous(base)
    left = await attempt(base, GAME, ann["token"])  # made, and left alone
    practice = await attempt(base, GAME, ann["token"])
    assert (left["official"], practice["official"]) == (True, True)  # neither has started
    results = await resign_attempt(base, practice)  # the first to start: the official one
    assert (results["deal"], results["salt"], results["solution"]) == (None, None, None)
    assert results["commitment"] is not None
    _, today, _ = await api("GET", f"{base}/api/daily/{GAME}", None, ann["token"])
    assert today["room_id"] == practice["room_id"]
    room_url = f"{base}/api/rooms/{practice['room_id']}"
    _, view, _ = await api("GET", room_url)
    assert view["status"] == "finished" and (view["deal"], view["solution"]) == (None, None)
    again = await Client.open(any_server.ws_url(practice["room_id"]))
    welcome = (await again.hello(practice["token"]))["room"]
    assert (welcome["status"], welcome["deal"], welcome["solution"]) == ("finished", None, None)
    status, body, _ = await api("GET", f"{room_url}/record")
    assert (status, body["code"]) == (409, "not_finished")
    late = await attempt(base, GAME, ann["token"])
    assert late["official"] is False
    # The attempt made first, raced now along the line: practice, whatever it does.
    client = await seated(any_server, left)
    await client.send(type="ready")
    await client.expect("started")
    hint_url = f"{base}/api/rooms/{left['room_id']}/hint"
    status, body, _ = await api("POST", hint_url, {"token": left["token"]})
    assert (status, body["code"]) == (403, "hints_off")  # no line from a hint either
    await play(client, line_of(any_server, left["room_id"]), "w")
    won = await client.expect("results")
    assert [line["status"] for line in won["standings"]] == ["won"] and won["deal"] is None
    board = await board_until(base, GAME, practice["date"], ann["player_id"])
    assert [(e["room_id"], e["won"]) for e in board["entries"]] == [(practice["room_id"], False)]


async def test_an_attempt_made_before_midnight_cannot_start_after_it(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    base = any_server.url
    ann = await anonymous(base)
    to_before_midnight(clock, 60)  # 23:59
    made = await attempt(base, GAME, ann["token"])
    clock.advance(120)  # 00:01: the archive has published the deal it was made on
    _, archive, _ = await api("GET", f"{base}/api/daily/{GAME}/archive")
    client = await seated(any_server, made)
    await client.send(type="ready")
    refused = await client.expect("error")
    assert refused["code"] == "day_over"
    _, view, _ = await api("GET", f"{base}/api/rooms/{made['room_id']}")
    assert view["status"] == "waiting" and view["ends_at"] is None
    _, today, _ = await api("GET", f"{base}/api/daily/{GAME}", None, ann["token"])
    assert today["date"] > made["date"] and today["room_id"] is None
    _, yesterday, _ = await api(
        "GET", f"{base}/api/daily/{GAME}/{made['date']}/leaderboard?board=guests"
    )
    assert yesterday["total"] == 0
    assert made["date"] not in [day["date"] for day in archive["days"]]  # nobody played it


async def test_a_race_started_before_midnight_ends_at_midnight(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    base = any_server.url
    ann = await anonymous(base)
    midnight = to_before_midnight(clock, 30)
    made = await attempt(base, GAME, ann["token"])
    client = await seated(any_server, made)
    await client.send(type="ready")
    started = await client.expect("started")
    assert started["ends_at"] == midnight  # not 15 minutes on, into the next day
    clock.advance(31)
    _, view, _ = await api("GET", f"{base}/api/rooms/{made['room_id']}")
    assert view["status"] == "finished" and view["players"][0]["status"] == "timeout"
    assert view["deal"] is not None  # the day is over: published, and nobody plays it now


@pytest.fixture(params=["memory", "redis"])
def limited_server(request: pytest.FixtureRequest, clock: ManualClock) -> Iterator[Any]:
    """A server whose addresses may make 3 rooms, then one every 1000 s."""
    url = "memory://" if request.param == "memory" else REDIS_URL
    prefix = "sr:" if request.param == "memory" else request.getfixturevalue("redis_prefix")
    config = make_config(url, prefix=prefix, create_rate=0.001, create_burst=3)
    with InProcessServer(config, clock) as running:
        yield running


async def test_attempts_and_analyses_are_limited_per_address_like_new_rooms(
    limited_server: InProcessServer,
) -> None:
    base = limited_server.url
    ann = await anonymous(base)
    made = [await attempt(base, GAME, ann["token"]) for _ in range(2)]
    analysis = f"{base}/api/rooms/{made[0]['room_id']}/analysis"
    status, body, _ = await api("GET", analysis)
    assert (status, body["code"]) == (409, "not_finished")  # the third: still let through
    for method, url in [("POST", f"{base}/api/daily/{GAME}/attempts"), ("GET", analysis)]:
        sent: dict[str, Any] | None = {} if method == "POST" else None
        status, body, headers = await api(method, url, sent, ann["token"])
        assert (status, body["code"]) == (429, "rate_limited"), (method, url)
        assert int({k.lower(): v for k, v in headers.items()}["retry-after"]) >= 1
    status, _, _ = await api("POST", f"{base}/api/rooms", {})
    assert status == 429  # one allowance for rooms, attempts and analyses together


async def test_a_history_names_a_daily_attempts_deal_only_once_its_day_is_over(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    base = any_server.url
    ann = await anonymous(base)
    made = await attempt(base, GAME, ann["token"])
    await resign_attempt(base, made)
    url = f"{base}/api/players/{ann['player_id']}/races"
    entries: list[dict[str, Any]] = []
    for _ in range(200):  # recorded in the background once the race is over
        entries = (await api("GET", url))[1]["races"]
        if entries:
            break
        await asyncio.sleep(0.05)
    [entry] = entries
    assert entry["room_id"] == made["room_id"] and entry["deal"] is None  # public: no deal
    to_before_midnight(clock, 0)
    clock.advance(1)  # the next day: the archive names it, and so does the history
    [entry] = (await api("GET", url))[1]["races"]
    assert entry["deal"] is not None
