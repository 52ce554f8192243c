"""Tournaments over real websockets against a running server: rounds, points, standings, errors.

Rounds last at least 60 s, so these tests move the server's clock (the
``clock`` fixture) past a round's end, or finish rounds early by having
every entrant done (a win by a known line, or a resignation).
"""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

import pytest

from conftest import REDIS_URL
from server_kit import Client, InProcessServer, ManualClock, play, resign, winning_line
from stalactites.engine import Stalactites
from stalactites.store.tournaments.redis import RedisTournamentStore
from stalactites.tournaments.points import round_points
from tournament_kit import Watcher, enter, new_tournament, seat_in_round, start, view

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")
SETTINGS: dict[str, Any] = {
    "step": "ones",
    "rounds": 2,
    "round_time_s": 60,
    "break_s": 0,
    "deals": [DEAL, DEAL],
}


def prefix_to(cards: int) -> list[str]:
    """The shortest start of the winning line that puts this many cards on the foundations."""
    game = Stalactites(DEAL, "ones")
    for index, move in enumerate(LINE):
        game.push(move)
        if game.foundation_cards == cards:
            return LINE[: index + 1]
    raise AssertionError(cards)


async def standings_until(
    watcher: Watcher, player_id: str, points: int
) -> list[tuple[float, dict[str, Any]]]:
    """Read standings frames as they come (with their arrival times) until the player has
    these points."""
    frames = []
    while True:
        frame = await watcher.expect("standings")
        frames.append((time.monotonic(), frame))
        if any(s["player_id"] == player_id and s["points"] == points for s in frame["standings"]):
            return frames


async def begun(server: InProcessServer, **settings: Any) -> tuple[str, list[tuple[str, str]]]:
    """A tournament with ann, bob and cat entered, started by its organiser."""
    tournament_id, admin = await new_tournament(server.url, **{**SETTINGS, **settings})
    entrants = [await enter(server.url, tournament_id, name) for name in ("Ann", "Bob", "Cat")]
    status, body, _ = await start(server.url, tournament_id, f"Bearer {admin}")
    assert status == 200, body
    return tournament_id, entrants


async def test_three_entrants_play_two_rounds_to_the_final_standings(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    server = any_server
    tournament_id, admin = await new_tournament(server.url, **SETTINGS)
    (ann_id, ann), (bob_id, bob), (cat_id, cat) = [
        await enter(server.url, tournament_id, name) for name in ("Ann", "Bob", "Cat")
    ]
    spectator = await Watcher.open(server.url, tournament_id)
    welcome = await spectator.hello(spectator=True)
    assert welcome["you"] is None and welcome["tournament"]["status"] == "scheduled"
    assert {line["player_id"] for line in welcome["tournament"]["standings"]} == {
        ann_id,
        bob_id,
        cat_id,
    }
    status, body, _ = await start(server.url, tournament_id, f"Bearer {admin}")
    assert status == 200 and body["status"] == "running" and body["round"] == 1

    # Round 1: Ann wins, Bob puts two more cards up and resigns, Cat runs out of time.
    first = await spectator.expect("round_started", round=1)
    room = first["room_id"]
    players = [await seat_in_round(server, room, token) for token in (ann, bob, cat)]
    assert [client.you for client in players] == [ann_id, bob_id, cat_id]
    assert all(client.frames[0]["room"]["status"] == "racing" for client in players)
    won = await play(players[0], LINE, "a")
    assert won["status"] == "won"
    await play(players[1], prefix_to(6), "b")
    await resign(players[1])
    clock.advance(61)
    round1 = await spectator.expect("round_finished", round=1)
    assert round1["deal"] == DEAL and round1["room_id"] == room
    lines = {line["player_id"]: line for line in round1["results"]}
    ann1 = lines[ann_id]
    assert (ann1["status"], ann1["place"], ann1["foundation_cards"]) == ("won", 1, 52)
    assert ann1["points"] == 52 + (60_000 - ann1["elapsed_ms"]) // 10_000
    assert (lines[bob_id]["status"], lines[bob_id]["points"]) == ("resigned", 6)
    assert (lines[cat_id]["status"], lines[cat_id]["points"]) == ("timeout", 4)
    after1 = [(s["player_id"], s["points"], s["rank"]) for s in round1["standings"]]
    assert after1 == [(ann_id, ann1["points"], 1), (bob_id, 6, 2), (cat_id, 4, 3)]

    # Round 2 (no break): Cat wins after 15 s; Ann and Bob resign at once.
    second = await spectator.expect("round_started", round=2)
    assert second["room_id"] != room
    players = [await seat_in_round(server, second["room_id"], t) for t in (ann, bob, cat)]
    await resign(players[0])
    await resign(players[1])
    clock.advance(15)
    await play(players[2], LINE, "c")
    round2 = await spectator.expect("round_finished", round=2)
    cat2 = next(line for line in round2["results"] if line["player_id"] == cat_id)
    assert cat2["points"] == round_points(52, "won", cat2["elapsed_ms"], 60_000)
    assert cat2["elapsed_ms"] >= 15_000

    final = await spectator.expect("finished")
    table = [(s["player_id"], s["points"], s["rounds_won"], s["rank"]) for s in final["standings"]]
    ann_points = ann1["points"] + 4
    cat_points = 4 + cat2["points"]
    assert ann_points > cat_points  # Ann's win was the faster one
    assert table == [(ann_id, ann_points, 1, 1), (cat_id, cat_points, 1, 2), (bob_id, 10, 0, 3)]
    times = {s["player_id"]: s["total_time_ms"] for s in final["standings"]}
    assert times == {
        ann_id: ann1["elapsed_ms"] + 60_000,
        cat_id: 60_000 + cat2["elapsed_ms"],
        bob_id: 120_000,
    }
    shown = await view(server.url, tournament_id)
    assert shown["status"] == "finished" and shown["current_round"] is None
    assert shown["standings"] == final["standings"]
    assert [r["deal"] for r in shown["round_results"]] == [DEAL, DEAL]
    kinds = [f["type"] for f in spectator.frames if "seq" in f and f["type"] != "welcome"]
    assert kinds == ["round_started", "round_finished"] * 2 + ["finished"]


async def test_a_round_room_seats_every_entrant_and_races_without_ready(
    server: InProcessServer,
) -> None:
    tournament_id, entrants = await begun(server)
    shown = await view(server.url, tournament_id)
    room_id = shown["current_round"]["room_id"]
    assert shown["round_results"][0]["deal"] is None  # not shown before the round ends
    ann = await seat_in_round(server, room_id, entrants[0][1])
    room = ann.frames[0]["room"]
    assert (room["status"], room["seats"], room["time_limit_s"], room["deal"]) == (
        "racing",
        3,
        60,
        None,
    )
    assert [p["player_id"] for p in room["players"]] == [pid for pid, _ in entrants]
    assert all(p["ready"] for p in room["players"])
    assert room["ends_at"] == shown["current_round"]["ends_at"]
    answer = await ann.move("m0", LINE[0])
    assert answer["type"] == "accepted"
    stranger = await Client.open(server.ws_url(room_id))
    await stranger.send(type="hello", token="not-an-entrant")
    assert (await stranger.recv())["code"] == "unauthorized"


async def test_a_scheduled_tournament_starts_by_itself_at_its_start_time(
    server: InProcessServer, clock: ManualClock
) -> None:
    starts_at = clock.now_ms() + 60_000
    tournament_id, _ = await new_tournament(server.url, **SETTINGS, starts_at=starts_at)
    await enter(server.url, tournament_id, "Ann")
    watcher = await Watcher.open(server.url, tournament_id)
    await watcher.hello(spectator=True)
    await asyncio.sleep(0.3)
    assert (await view(server.url, tournament_id))["status"] == "scheduled"
    clock.advance(60)
    started = await watcher.expect("round_started", round=1)
    assert started["ends_at"] >= starts_at + 60_000


async def test_a_tournament_no_one_entered_is_over_at_its_start_time(
    server: InProcessServer, clock: ManualClock
) -> None:
    tournament_id, _ = await new_tournament(server.url, starts_at=clock.now_ms() + 60_000)
    watcher = await Watcher.open(server.url, tournament_id)
    await watcher.hello(spectator=True)
    clock.advance(60)
    finished = await watcher.expect("finished")
    assert finished["standings"] == []
    assert (await view(server.url, tournament_id))["status"] == "finished"


async def test_standings_come_at_most_once_a_second_and_live_during_a_round(
    server: InProcessServer,
) -> None:
    tournament_id, entrants = await begun(server)
    watcher = await Watcher.open(server.url, tournament_id)
    await watcher.hello(token=entrants[1][1])
    room_id = (await view(server.url, tournament_id))["current_round"]["room_id"]
    ann = await seat_in_round(server, room_id, entrants[0][1])
    game = Stalactites(DEAL, "ones")
    for move in LINE[:40]:
        game.push(move)
    reading = asyncio.create_task(standings_until(watcher, entrants[0][0], game.foundation_cards))
    for index, move in enumerate(LINE[:40]):
        await ann.move(f"m{index}", move)
        await asyncio.sleep(0.06)  # about 2.5 s of play, a change every few moves
    frames = await asyncio.wait_for(reading, 10)
    frame = frames[-1][1]
    ann_line = next(s for s in frame["standings"] if s["player_id"] == entrants[0][0])
    assert frame["live"] and frame["round"] == 1 and ann_line["rank"] == 1
    assert len(frames) >= 2
    gaps = [later[0] - earlier[0] for earlier, later in itertools.pairwise(frames)]
    assert min(gaps) >= 0.9, gaps


async def test_a_watcher_reconnecting_with_last_seq_gets_the_events_it_missed(
    server: InProcessServer, clock: ManualClock
) -> None:
    tournament_id, entrants = await begun(server)
    watcher = await Watcher.open(server.url, tournament_id)
    welcome = await watcher.hello(token=entrants[0][1])
    assert welcome["seq"] == 1 and welcome["tournament"]["current_round"]["round"] == 1
    await watcher.close()
    clock.advance(61)
    later = await Watcher.open(server.url, tournament_id)
    resumed = await later.hello(token=entrants[0][1], last_seq=1)
    assert resumed["resumed"] and resumed["seq"] == 1 and resumed["you"] == entrants[0][0]
    assert (await later.expect("round_finished"))["seq"] == 2
    assert (await later.expect("round_started"))["round"] == 2
    fresh = await Watcher.open(server.url, tournament_id)
    again = await fresh.hello(spectator=True, last_seq=99)
    assert not again["resumed"] and again["seq"] == 3


async def test_the_tournament_socket_refuses_a_bad_hello_and_answers_ping(
    server: InProcessServer,
) -> None:
    tournament_id, _ = await new_tournament(server.url, **SETTINGS)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"type": "hello", "token": "wrong"}, "unauthorized"),
        ({"type": "ping"}, "unauthorized"),
    ]
    for frame, code in cases:
        client = await Watcher.open(server.url, tournament_id)
        await client.send(**frame)
        error = await client.recv()
        assert (error["type"], error["code"]) == ("error", code)
        assert await client.closed() == 1008
    nowhere = await Watcher.open(server.url, "no-such-tournament")
    await nowhere.send(type="hello", spectator=True)
    assert (await nowhere.recv())["code"] == "tournament_not_found"
    assert await nowhere.closed() == 1008
    client = await Watcher.open(server.url, tournament_id)
    await client.send(type="hello", token="x", spectator=True)
    assert (await client.recv())["code"] == "bad_message"
    await client.hello(spectator=True)
    await client.send(type="ping")
    assert (await client.recv())["type"] == "pong"
    await client.send(type="hello", spectator=True)
    assert (await client.recv())["code"] == "bad_message"
    await client.ws.send("{not json")
    assert (await client.recv())["code"] == "bad_message"
    await client.send(type="ping")
    assert (await client.recv())["type"] == "pong"  # the connection survives a bad frame


async def test_a_start_missing_from_the_due_index_is_found_when_the_tournament_is_read(
    redis_server: InProcessServer, clock: ManualClock, redis_prefix: str
) -> None:
    server = redis_server
    tournament_id, _ = await new_tournament(server.url, starts_at=clock.now_ms() + 60_000)
    await enter(server.url, tournament_id, "Ann")
    index = RedisTournamentStore(REDIS_URL, redis_prefix)
    try:  # as if the process that stored the start died before indexing it
        claim = await index.claim(tournament_id, clock.now_ms() + 60_000, 60_000)
        assert claim is not None
        await index.release(claim, None, clock.now_ms())
        clock.advance(70)
        await asyncio.sleep(0.6)
        assert (await view(server.url, tournament_id))["status"] == "scheduled"
        for _ in range(50):  # the read above noticed the overdue start
            await asyncio.sleep(0.1)
            if (await view(server.url, tournament_id))["status"] == "running":
                break
        assert (await view(server.url, tournament_id))["status"] == "running"
    finally:
        await index.close()
