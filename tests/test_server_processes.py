"""Several real server processes on one real Redis: progress crosses processes, a process
killed mid-race loses no accepted move, two processes never both apply a player's move, and a
ghost keeps its recorded times on both processes and through a process killed mid-race."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from ghosts_kit import TOLERANCE_MS, ghost_race, ghost_times, source_run
from players_kit import anonymous, recorded
from server_kit import (
    Client,
    Spawn,
    http,
    new_room,
    player,
    spectator,
    start_race,
    winning_line,
)
from stalactites.engine import Stalactites

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")


async def ready_all(*clients: Client) -> None:
    await start_race(*clients)


async def test_players_on_two_processes_race_and_see_each_other(
    spawn: Spawn,
) -> None:
    first, second = spawn(), spawn()
    room_id = await new_room(first.url, deal=DEAL, step="ones", countdown_s=0)
    ann = await player(first, room_id, "Ann")
    bob = await player(second, room_id, "Bob")
    await ready_all(ann, bob)
    for index, move in enumerate(LINE):
        assert (await ann.move(f"a{index}", move))["type"] == "accepted"
        progress = await bob.expect("progress", player_id=ann.you)  # across processes
        assert progress["moves"] == index + 1
    assert (await bob.expect("finished", player_id=ann.you))["place"] == 1
    for index, move in enumerate(LINE[:3]):
        assert (await bob.move(f"b{index}", move))["type"] == "accepted"
        assert (await ann.expect("progress", player_id=bob.you))["moves"] == index + 1
    await bob.send(type="resign")
    for client in (ann, bob):
        results = await client.expect("results")
        assert [line["place"] for line in results["standings"]] == [1, 2]


async def test_a_process_killed_mid_race_loses_no_accepted_move(
    spawn: Spawn,
) -> None:
    first = spawn()
    room_id = await new_room(first.url, deal=DEAL, step="ones", countdown_s=0, seats=1)
    ann = await player(first, room_id, "Ann")
    await ready_all(ann)
    answers = [await ann.move(f"m{index}", move) for index, move in enumerate(LINE[:20])]
    assert all(answer["type"] == "accepted" for answer in answers)
    await ann.send(type="move", id="m20", move=LINE[20])  # in flight when the process dies
    first.kill()
    second = spawn()
    again = await Client.open(second.ws_url(room_id))
    welcome = await again.hello(ann.token, last_seq=ann.last_seq)
    assert welcome["resumed"] is True
    assert welcome["room"]["players"][0]["moves"] in (20, 21)
    if welcome["room"]["players"][0]["moves"] == 20:
        assert welcome["state"] == answers[-1]["state"]
    assert (await again.move("m19", LINE[19])) == answers[-1]  # the original answer, again
    assert (await again.move("m20", LINE[20]))["type"] == "accepted"  # applied once, either way
    for index, move in enumerate(LINE[21:], start=21):
        assert (await again.move(f"m{index}", move))["type"] == "accepted"
    results = await again.expect("results")
    line = results["standings"][0]
    assert (line["status"], line["moves"], line["foundation_cards"]) == ("won", len(LINE), 52)
    status, record = await http("GET", f"{second.url}/api/rooms/{room_id}/record")
    assert status == 200 and record["players"][0]["record"]["moves"] == LINE


async def test_two_processes_never_both_apply_a_move_for_one_player(
    spawn: Spawn,
) -> None:
    first, second = spawn(), spawn()
    room_id = await new_room(first.url, deal=DEAL, step="ones", countdown_s=0, seats=1)
    here = await player(first, room_id, "Ann")
    there = await Client.open(second.ws_url(room_id))
    await there.hello(here.token)
    await ready_all(here)
    await there.expect("started")
    game = Stalactites(DEAL, "ones")
    for round_ in range(10):  # the same move from both sockets at once, under different ids
        move = once_only(game)
        sent: list[Any] = [
            here.send(type="move", id=f"h{round_}", move=move),
            there.send(type="move", id=f"t{round_}", move=move),
        ]
        await asyncio.gather(*sent)
        answers = await asyncio.gather(here.answer(f"h{round_}"), there.answer(f"t{round_}"))
        kinds = sorted(answer["type"] for answer in answers)
        assert kinds == ["accepted", "rejected"], answers
        refused = [answer for answer in answers if answer["type"] == "rejected"][0]
        assert refused["code"] == "illegal_move"
        game.push(move)
    await here.send(type="resign")
    await here.expect("results")
    _, record = await http("GET", f"{second.url}/api/rooms/{room_id}/record")
    assert record["players"][0]["record"]["moves"] == [str(move) for move in game.move_stack]


def once_only(game: Stalactites) -> str:
    """A legal move that is no longer legal once played (so a second copy must be refused)."""
    for move in game.generate_legal_moves():
        game.push(move)
        again = move in game.legal_moves
        game.pop()
        if not again:
            return str(move)
    raise AssertionError("every legal move could be played twice")


async def test_a_ghost_keeps_its_recorded_times_on_another_process_after_a_kill(
    spawn: Spawn,
) -> None:
    first, second = spawn(), spawn()
    run = await source_run(first, moves=8)
    racer = await anonymous(second.url)
    status, answer = await ghost_race(second, run, racer)
    assert status == 201, answer
    room_id = answer["room_id"]
    ghost_id = next(p["player_id"] for p in answer["room"]["players"] if p["ghost_of"])
    here = await Client.open(first.ws_url(room_id))
    await here.hello(answer["token"])
    there = await spectator(second, room_id)
    await here.send(type="ready")
    await there.expect("started")
    for _ in range(3):  # the ghost is under way, replayed by both processes
        await there.expect("progress", player_id=ghost_id)
    first.kill()  # the racer's process: the other carries the ghost on
    finished = await there.expect("finished", player_id=ghost_id, timeout=45)  # (a loaded CI)
    assert finished["status"] == run.line["status"] == "resigned"
    times, wanted = ghost_times(there.frames, ghost_id), [*run.times, run.line["elapsed_ms"]]
    assert len(times) == len(wanted)  # each action once, though two processes replayed it
    for got, due in zip(times, wanted, strict=True):
        assert due <= got <= due + TOLERANCE_MS, (times, wanted)
    again = await Client.open(second.ws_url(room_id))
    await again.hello(answer["token"], last_seq=here.last_seq)
    await again.send(type="resign")
    results = await again.expect("results")
    ghost = next(line for line in results["standings"] if line["player_id"] == ghost_id)
    assert ghost["ghost_of"] == run.player["name"] and not ghost["rated"]
    _, record = await http("GET", f"{second.url}/api/rooms/{room_id}/record")
    ghost_record = next(p for p in record["players"] if p["player_id"] == ghost_id)
    assert [a["action"] for a in ghost_record["actions"]] == [
        a["action"] for a in run.line["actions"]
    ]
    entry = (await recorded(second.url, racer["player_id"]))[0]
    assert entry["ghost"]["name"] == run.player["name"] and entry["rated"] is False
    assert entry["ghost"]["elapsed_ms"] == run.line["elapsed_ms"]


async def test_a_ghost_races_on_with_nobody_connected_after_its_process_is_killed(
    spawn: Spawn,
) -> None:
    first, second = spawn(), spawn()
    run = await source_run(first, moves=6)
    racer = await anonymous(first.url)
    status, answer = await ghost_race(first, run, racer)
    assert status == 201, answer
    room_id = answer["room_id"]
    ghost_id = next(p["player_id"] for p in answer["room"]["players"] if p["ghost_of"])
    here = await Client.open(first.ws_url(room_id))
    await here.hello(answer["token"])
    await here.send(type="ready")
    await here.expect("started")
    first.kill()  # the only process with a socket in the room: now nobody is connected
    url = f"{second.url}/api/rooms/{room_id}"
    deadline = time.monotonic() + 60
    while True:  # a room's view opens no stream: only the due list can move the ghost
        status, view = await http("GET", url)
        ghost = next(p for p in view["players"] if p["player_id"] == ghost_id)
        if ghost["status"] != "playing":
            break
        assert time.monotonic() < deadline, ghost
        await asyncio.sleep(0.1)
    assert ghost["status"] == "resigned" and ghost["moves"] == run.line["moves"]
    again = await Client.open(second.ws_url(room_id))
    await again.hello(answer["token"], last_seq=here.last_seq)  # every event since, resumed
    await again.send(type="resign")
    await again.expect("results")
    times, wanted = ghost_times(again.frames, ghost_id), [*run.times, run.line["elapsed_ms"]]
    assert len(times) == len(wanted)
    for got, due in zip(times, wanted, strict=True):
        assert due <= got <= due + TOLERANCE_MS, (times, wanted)
