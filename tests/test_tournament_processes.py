"""Tournaments served by several server processes on one Redis, and a process killed mid-round.

The servers are real ``stalactites serve`` processes on the system clock, so
rounds end early here: every entrant wins with a known line or resigns.
"""

from __future__ import annotations

import pytest

from server_kit import Spawn, play, resign, winning_line
from tournament_kit import Watcher, enter, new_tournament, points, seat_in_round, start, view

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")
HALF = len(LINE) // 2


async def test_two_processes_serve_one_tournament_and_a_killed_one_changes_nothing(
    spawn: Spawn,
) -> None:
    one, two = spawn(), spawn()
    settings = {"step": "ones", "rounds": 2, "round_time_s": 60, "break_s": 0}
    tournament_id, admin = await new_tournament(one.url, **settings, deals=[DEAL, DEAL])
    (ann_id, ann), (bob_id, bob), (cat_id, cat) = [
        await enter(server.url, tournament_id, name)
        for server, name in ((one, "Ann"), (two, "Bob"), (one, "Cat"))
    ]
    spectator = await Watcher.open(two.url, tournament_id)
    await spectator.hello(spectator=True)
    status, _, _ = await start(one.url, tournament_id, f"Bearer {admin}")
    assert status == 200

    # Round 1, begun by process one: Ann is half way through her win when it is killed.
    room = (await spectator.expect("round_started", round=1))["room_id"]
    ann_on_one = await seat_in_round(one, room, ann)
    await play(ann_on_one, LINE[:HALF], "a")
    bob_on_two = await seat_in_round(two, room, bob)
    await resign(bob_on_two)
    one.kill()
    ann_on_two = await seat_in_round(two, room, ann)
    last = [frame for frame in ann_on_one.frames if frame["type"] == "accepted"][-1]
    assert ann_on_two.frames[0]["state"] == last["state"]  # her board as she left it
    await play(ann_on_two, LINE[HALF:], "b")  # nothing lost: the rest of the line plays on
    cat_on_two = await seat_in_round(two, room, cat)
    await resign(cat_on_two)
    round1 = await spectator.expect("round_finished", round=1, timeout=15)
    lines = {line["player_id"]: line for line in round1["results"]}
    assert (lines[ann_id]["status"], lines[ann_id]["moves"]) == ("won", len(LINE))
    assert [lines[pid]["status"] for pid in (bob_id, cat_id)] == ["resigned", "resigned"]

    # A new process comes up; round 2 is played there: Cat wins, Ann and Bob resign.
    three = spawn()
    second = await spectator.expect("round_started", round=2, timeout=15)
    clients = [await seat_in_round(three, second["room_id"], token) for token in (ann, bob, cat)]
    await resign(clients[0])
    await resign(clients[1])
    await play(clients[2], LINE, "c")
    round2 = await spectator.expect("round_finished", round=2, timeout=15)
    final = await spectator.expect("finished", timeout=15)

    every = [*round1["results"], *round2["results"]]
    for line in every:
        assert line["points"] == points(line)
    totals = {
        pid: sum(line["points"] for line in every if line["player_id"] == pid) for pid in lines
    }
    table = {s["player_id"]: (s["points"], s["rounds_won"]) for s in final["standings"]}
    assert table == {ann_id: (totals[ann_id], 1), bob_id: (8, 0), cat_id: (totals[cat_id], 1)}
    assert final["standings"][-1]["player_id"] == bob_id
    kinds = [f["type"] for f in spectator.frames if "seq" in f and f["type"] != "welcome"]
    assert kinds == ["round_started", "round_finished"] * 2 + ["finished"]  # each exactly once
    shown = await view(three.url, tournament_id)
    assert shown["status"] == "finished" and shown["standings"] == final["standings"]
    assert [r["room_id"] for r in shown["round_results"]] == [room, second["room_id"]]


async def test_a_restarted_process_carries_on_the_round_of_a_killed_one(
    spawn: Spawn,
) -> None:
    one = spawn()
    tournament_id, admin = await new_tournament(one.url, step="ones", rounds=1, deals=[DEAL])
    _, ann = await enter(one.url, tournament_id, "Ann")
    status, _, _ = await start(one.url, tournament_id, f"Bearer {admin}")
    assert status == 200
    room = (await view(one.url, tournament_id))["current_round"]["room_id"]
    ann_on_one = await seat_in_round(one, room, ann)
    await play(ann_on_one, LINE[:HALF], "a")
    one.kill()
    two = spawn()  # a restart: the round and its moves are in Redis
    watcher = await Watcher.open(two.url, tournament_id)
    welcome = await watcher.hello(token=ann)
    assert welcome["tournament"]["status"] == "running"
    ann_on_two = await seat_in_round(two, room, ann)
    await play(ann_on_two, LINE[HALF:], "b")
    finished = await watcher.expect("finished", timeout=15)
    (line,) = finished["standings"]
    assert line["rounds_won"] == 1 and line["points"] >= 52
