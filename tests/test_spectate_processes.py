"""Spectating with several real server processes on one real Redis: boards played on one
process reach spectators on another the room's delay later, spectators are counted across
processes (a killed process's spectators stop counting when their leases run out), every
process tells its spectators the same verdicts of the boards, and the room lists are the same
from every process."""

from __future__ import annotations

import time
from typing import Any

import pytest

from server_kit import (
    Client,
    Spawn,
    counts_until,
    http,
    last_verdict,
    new_room,
    player,
    spectator,
    verdict_becomes,
    winning_line,
)
from stalactites.engine import Stalactites
from stalactites.protocol.room import board

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")


async def test_spectators_on_both_processes_see_the_same_boards_a_second_behind(
    spawn: Spawn,
) -> None:
    first, second = spawn(), spawn()
    room_id = await new_room(
        first.url, deal=DEAL, step="ones", countdown_s=0, seats=1, spectator_delay_s=1
    )
    ann = await player(first, room_id, "Ann")
    await ann.send(type="ready")
    await ann.expect("started")
    near, far = await spectator(first, room_id), await spectator(second, room_id)
    game, states = Stalactites(DEAL, step="ones"), []
    for index, move in enumerate(LINE[:4]):
        assert (await ann.move(f"a{index}", move))["type"] == "accepted"
        game.push(move)
        states.append(board(game.state()).model_dump())
    seen: dict[str, list[dict[str, Any]]] = {}
    for name, client in (("near", near), ("far", far)):
        seen[name] = []
        for _ in LINE[:4]:
            frame = await client.expect("board")
            frame["received_ms"] = time.time_ns() // 1_000_000
            seen[name].append(frame)
    assert [f["state"] for f in seen["far"]] == states
    assert [f["move"] for f in seen["far"]] == LINE[:4]
    mine = ("received_ms", "verdict")  # a verdict: known then on that process, or unknown
    strip = [{k: v for k, v in f.items() if k not in mine} for f in seen["far"]]
    assert strip == [{k: v for k, v in f.items() if k not in mine} for f in seen["near"]]
    # Never early (the processes share this machine's clock): a second after acceptance.
    assert all(f["received_ms"] >= f["at"] + 1000 for f in seen["far"] + seen["near"])
    # Progress is not delayed: each move's progress came before its board.
    order = [f for f in far.frames if f["type"] in ("progress", "board")]
    boards = [i for i, f in enumerate(order) if f["type"] == "board"]
    for moves, at in enumerate(boards, start=1):
        assert any(f["type"] == "progress" and f["moves"] == moves for f in order[:at])


async def test_spectators_on_both_processes_are_told_the_same_verdicts(
    spawn: Spawn,
) -> None:
    first, second = spawn(), spawn()
    room_id = await new_room(
        first.url, deal=DEAL, step="ones", countdown_s=0, seats=1, spectator_delay_s=1
    )
    ann = await player(first, room_id, "Ann")
    await ann.send(type="ready")
    await ann.expect("started")
    near, far = await spectator(first, room_id), await spectator(second, room_id)
    for client in (near, far):
        await verdict_becomes(client, ann.you, "won")
    for index, move in enumerate(["t3-c1", "t3-c2"]):  # the second loses the win on ms:4
        assert (await ann.move(f"a{index}", move))["type"] == "accepted"
    for client in (near, far):
        await verdict_becomes(client, ann.you, "lost")
    late = await spectator(second, room_id)
    assert last_verdict(late, ann.you) == "lost"
    assert not any("verdict" in frame or "board_verdicts" in frame for frame in ann.frames[1:])


async def test_spectators_count_across_processes_and_a_killed_ones_run_out(
    spawn: Spawn,
) -> None:
    first, second = spawn(), spawn()
    room_id = await new_room(first.url, deal=DEAL, step="ones", seats=2)
    ann = await player(first, room_id, "Ann")
    await spectator(first, room_id)
    await spectator(second, room_id)
    assert (await counts_until(ann, 2))[-1] == 2
    for server in (first, second):
        _, view = await http("GET", f"{server.url}/api/rooms/{room_id}")
        assert view["spectators"] == 2
    second.kill()  # its spectator's lease (3 s here) runs out; the other process notices
    assert (await counts_until(ann, 1))[-1] == 1
    _, view = await http("GET", f"{first.url}/api/rooms/{room_id}")
    assert view["spectators"] == 1


async def test_every_process_lists_the_same_rooms(spawn: Spawn) -> None:
    first, second = spawn(), spawn()
    waiting = await new_room(first.url, deal=DEAL, seats=2)
    racing = await new_room(second.url, deal=DEAL, seats=1, countdown_s=0)
    solo = await player(second, racing, "Solo")
    await solo.send(type="ready")
    await solo.expect("started")
    for server in (first, second):
        _, listed = await http("GET", f"{server.url}/api/rooms?status=waiting")
        assert [room["room_id"] for room in listed["rooms"]] == [waiting]
        _, listed = await http("GET", f"{server.url}/api/rooms?status=racing")
        assert [room["room_id"] for room in listed["rooms"]] == [racing]


async def test_a_spectator_whose_process_is_killed_resumes_on_another(
    spawn: Spawn,
) -> None:
    first = spawn()
    room_id = await new_room(first.url, deal=DEAL, step="ones", countdown_s=0, seats=1)
    ann = await player(first, room_id, "Ann")
    await ann.send(type="ready")
    await ann.expect("started")
    watcher = await spectator(first, room_id)
    for index, move in enumerate(LINE[:3]):
        assert (await ann.move(f"a{index}", move))["type"] == "accepted"
    await watcher.expect("progress", moves=3)
    first.kill()
    second = spawn()  # a fresh process: everything it shows comes from Redis
    again = await spectator(second, room_id, last_seq=watcher.last_seq)
    welcome = again.frames[0]
    assert welcome["resumed"] is True
    game = Stalactites(DEAL, step="ones")
    for move in LINE[:3]:
        game.push(move)
    assert welcome["boards"] == {ann.you: board(game.state()).model_dump()}
    resumed = await Client.open(second.ws_url(room_id))
    await resumed.hello(ann.token, last_seq=ann.last_seq)
    assert (await resumed.move("a3", LINE[3]))["type"] == "accepted"
    game.push(LINE[3])
    frame = await again.expect("board")
    assert (frame["move"], frame["state"]) == (LINE[3], board(game.state()).model_dump())
