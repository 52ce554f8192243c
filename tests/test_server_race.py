"""Whole races over real websockets, on both stores: the start, live progress, places, results."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from typing import Any

import pytest
import redis

from server_kit import (
    REDIS_URL,
    Client,
    InProcessServer,
    ManualClock,
    http,
    new_room,
    play,
    player,
    start_race,
    winning_line,
)
from stalactites.engine import GameRecord, Stalactites, Status, replay
from stalactites.store.rooms.keys import RoomKeys

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")


async def new_race(
    server: InProcessServer, seats: int = 2, **settings: Any
) -> tuple[str, list[Client]]:
    """A room on ms:4 by ones with these seats, everyone seated, ready and started."""
    options = {"deal": DEAL, "step": "ones", "seats": seats, "countdown_s": 0, **settings}
    room_id = await new_room(server.url, **options)
    clients = [await player(server, room_id, f"Player {n}") for n in range(seats)]
    await start_race(*clients)
    return room_id, clients


async def test_two_players_race_a_winning_line_to_the_results(any_server: InProcessServer) -> None:
    room_id, (ann, bob) = await new_race(any_server)
    started = [frame for frame in ann.frames + bob.frames if frame["type"] == "started"]
    assert started[0]["state"] == started[1]["state"]  # the identical deal
    assert "deal" not in started[0]["state"]  # never shown before the end
    for index, move in enumerate(LINE):
        answer = await ann.move(f"a{index}", move)
        assert answer["type"] == "accepted", answer
        assert answer["move"] == move
    assert answer["status"] == "won" and answer["legal"] == []
    progress = await bob.expect("progress", foundation_cards=52)
    assert progress["player_id"] == ann.you and progress["status"] == "won"
    won = await bob.expect("finished", player_id=ann.you)
    assert (won["place"], won["status"]) == (1, "won")
    for index, move in enumerate(LINE):
        assert (await bob.move(f"b{index}", move))["type"] == "accepted"
    results = await ann.expect("results")
    places = [(line["player_id"], line["place"], line["status"]) for line in results["standings"]]
    assert places == [(ann.you, 1, "won"), (bob.you, 2, "won")]
    assert results["deal"] == DEAL
    status, view = await http("GET", f"{any_server.url}/api/rooms/{room_id}")
    assert status == 200 and view["status"] == "finished" and view["deal"] == DEAL
    for client in (ann, bob):
        await client.close()


async def test_the_record_of_a_finished_race_replays_to_its_results(
    server: InProcessServer, tmp_path: Any
) -> None:
    room_id, (ann,) = await new_race(server, seats=1)
    status, early = await http("GET", f"{server.url}/api/rooms/{room_id}/record")
    assert (status, early["code"]) == (409, "not_started")
    for index, move in enumerate(LINE):
        await ann.move(f"m{index}", move)
    await ann.expect("results")
    status, record = await http("GET", f"{server.url}/api/rooms/{room_id}/record")
    assert status == 200
    entry = record["players"][0]
    assert (entry["place"], entry["status"], entry["foundation_cards"]) == (1, "won", 52)
    result = replay(GameRecord.from_json(entry["record"]))
    assert result.valid and result.status is Status.WON
    path = tmp_path / "record.json"
    path.write_text(GameRecord.from_json(entry["record"]).dumps())
    code = "import sys; from stalactites.cli import main; sys.exit(main())"
    run = subprocess.run([sys.executable, "-c", code, "replay", str(path)], capture_output=True)
    assert run.returncode == 0, run.stderr
    await ann.close()


def prefix_to(cards: int) -> list[str]:
    """The shortest start of the winning line that puts this many cards on the foundations."""
    game = Stalactites(DEAL, "ones")
    for index, move in enumerate(LINE):
        game.push(move)
        if game.foundation_cards == cards:
            return LINE[: index + 1]
    raise AssertionError(cards)


async def test_when_time_runs_out_the_rest_are_placed_by_cards_then_by_time(
    server: InProcessServer, clock: ManualClock
) -> None:
    room_id, (ann, bob, cat, dan) = await new_race(server, seats=4, time_limit_s=60)
    await play(ann, prefix_to(6), "a")
    await play(cat, prefix_to(5), "c")
    clock.advance(1)
    await play(bob, prefix_to(5), "b")
    clock.advance(60)
    late = await dan.move("d0", LINE[0])
    assert (late["type"], late["code"]) == ("rejected", "already_finished")
    results = await dan.expect("results")
    lines = [(line["player_id"], line["place"], line["status"]) for line in results["standings"]]
    assert lines == [
        (ann.you, 1, "timeout"),
        (cat.you, 2, "timeout"),
        (bob.you, 3, "timeout"),
        (dan.you, 4, "timeout"),
    ]
    assert all(line["elapsed_ms"] == 60_000 for line in results["standings"])
    timeouts = [f for f in dan.frames if f["type"] == "finished" and f["status"] == "timeout"]
    assert len(timeouts) == 4
    status, view = await http("GET", f"{server.url}/api/rooms/{room_id}")
    assert [p["place"] for p in view["players"]] == [1, 3, 2, 4]
    for client in (ann, bob, cat, dan):
        await client.close()


async def test_players_level_on_cards_and_time_share_a_place(
    server: InProcessServer, clock: ManualClock
) -> None:
    _, (ann, bob) = await new_race(server, seats=2, time_limit_s=60)
    clock.advance(61)
    results = await ann.expect("results")
    assert [line["place"] for line in results["standings"]] == [1, 1]
    await ann.close()
    await bob.close()


async def test_a_solo_room_is_a_time_trial(server: InProcessServer) -> None:
    room_id, (ann,) = await new_race(server, seats=1)
    answer = await ann.move("m0", LINE[0])
    assert answer["type"] == "accepted"
    await ann.send(type="resign")
    finished = await ann.expect("finished")
    assert (finished["status"], finished["place"]) == ("resigned", None)
    results = await ann.expect("results")
    assert results["standings"][0]["place"] == 1
    await asyncio.sleep(0)
    await ann.close()


async def test_two_players_race_a_certified_deal_along_the_solvers_line(
    redis_server: InProcessServer, redis_prefix: str
) -> None:
    room_id = await new_room(redis_server.url, step="ones", countdown_s=0)
    _, view = await http("GET", f"{redis_server.url}/api/rooms/{room_id}")
    assert view["certified"] is True and view["solution"] is None  # not shown before the end
    client = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    stored = json.loads(client.hget(RoomKeys(redis_prefix, room_id).room, "settings") or "{}")
    client.close()
    line = stored["solution"]["ones"]
    ann = await player(redis_server, room_id, "Ann")
    bob = await player(redis_server, room_id, "Bob")
    await start_race(ann, bob)
    for index, move in enumerate(line):
        assert (await ann.move(f"a{index}", move))["type"] == "accepted"
        assert (await bob.move(f"b{index}", move))["type"] == "accepted"
    results = await ann.expect("results")
    assert [(s["player_id"], s["place"], s["status"]) for s in results["standings"]] == [
        (ann.you, 1, "won"),
        (bob.you, 2, "won"),
    ]
    assert results["deal"] == stored["deal"] and results["solution"]["ones"] == line
