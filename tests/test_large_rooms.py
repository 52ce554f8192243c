"""Large rooms (more than 8 seats: tournament rounds) fan out cheaply, over real websockets.

Progress goes to each connection as ``progress_batch`` frames (each player's
newest progress, at most four batches a second), and when time runs out the
``results`` event alone finishes whoever is still racing.  Rooms of up to 8
seats keep one ``progress`` per action and a ``finished`` per timed-out player
(``test_server_race.py`` shows those).
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

from server_kit import Client, InProcessServer, ManualClock, winning_line
from stalactites.live.rooms.progress_batch import INTERVAL_S, ProgressBatch
from stalactites.protocol.room import SERVER_FRAMES
from tournament_kit import Watcher, enter, new_tournament, seat_in_round, start, view

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")
ENTRANTS = 9
SETTINGS: dict[str, Any] = {
    "step": "ones",
    "rounds": 1,
    "round_time_s": 60,
    "break_s": 0,
    "deals": [DEAL],
}


async def round_room(server: InProcessServer) -> tuple[str, list[Client], Watcher]:
    """A started one-round tournament of nine entrants, all seated in the round's room, and a
    spectator of the tournament."""
    tournament_id, admin = await new_tournament(server.url, **SETTINGS)
    tokens = [(await enter(server.url, tournament_id, f"E{i}"))[1] for i in range(ENTRANTS)]
    watcher = await Watcher.open(server.url, tournament_id)
    await watcher.hello(spectator=True)
    status, body, _ = await start(server.url, tournament_id, f"Bearer {admin}")
    assert status == 200, body
    room_id = (await view(server.url, tournament_id))["current_round"]["room_id"]
    clients = [await seat_in_round(server, room_id, token) for token in tokens]
    assert clients[0].frames[0]["room"]["seats"] == ENTRANTS
    return room_id, clients, watcher


async def frames_until(
    client: Client, done: Any, timeout: float = 10.0
) -> list[tuple[float, dict[str, Any]]]:
    """Frames (with arrival times), each checked against the protocol, until ``done(frame)``."""
    seen = []
    deadline = time.monotonic() + timeout
    while True:
        left = max(deadline - time.monotonic(), 0.01)
        frame = json.loads(await asyncio.wait_for(client.ws.recv(), left))
        SERVER_FRAMES.validate_python(frame)
        seen.append((time.monotonic(), frame))
        if done(frame):
            return seen


async def play(client: Client, moves: list[str], tag: str) -> None:
    """Send the moves at once (the server takes them in turn) and wait until all are accepted
    (the mover's frames are read as in a large room: not one room event after another)."""
    for index, move in enumerate(moves):
        await client.send(type="move", id=f"{tag}{index}", move=move)
    last = f"{tag}{len(moves) - 1}"
    seen = await frames_until(client, lambda f: f["type"] == "rejected" or f.get("id") == last)
    answers = [f for _, f in seen if f["type"] in ("accepted", "rejected")]
    assert [f["type"] for f in answers] == ["accepted"] * len(moves), answers[-1]


def assert_seq_order(frames: list[dict[str, Any]], after: int) -> None:
    """Room events one by one; a batch may skip the progress it superseded, never go back."""
    for frame in frames:
        if "seq" not in frame:
            continue
        if frame["type"] == "progress_batch":
            assert frame["seq"] > after and frame["seq"] == frame["events"][-1]["seq"]
            assert [e["seq"] for e in frame["events"]] == sorted(e["seq"] for e in frame["events"])
        else:
            assert frame["seq"] == after + 1, (frame, after)
        after = frame["seq"]


async def test_large_room_batches_progress_latest_value_wins(server: InProcessServer) -> None:
    _, clients, _ = await round_room(server)
    mover, watcher = clients[0], clients[1]
    moves = LINE[:12]
    await play(mover, moves, "m")

    def last_move_seen(frame: dict[str, Any]) -> bool:
        events = frame.get("events", [])
        return any(e["player_id"] == mover.you and e["moves"] == len(moves) for e in events)

    seen = await frames_until(watcher, last_move_seen)
    frames = [frame for _, frame in seen]
    assert not [f for f in frames if f["type"] == "progress"]
    batches = [(at, f) for at, f in seen if f["type"] == "progress_batch"]
    assert 1 <= len(batches) < len(moves)
    span = batches[-1][0] - batches[0][0]
    assert len(batches) <= 2 + span / INTERVAL_S
    for _, batch in batches:
        players = [event["player_id"] for event in batch["events"]]
        assert len(players) == len(set(players))  # one event per player: the newest
    counts = [e["moves"] for _, b in batches for e in b["events"] if e["player_id"] == mover.you]
    assert counts == sorted(counts) and counts[-1] == len(moves)
    assert_seq_order(frames, watcher.last_seq)


async def test_large_room_sends_the_progress_before_an_event_ahead_of_it(
    server: InProcessServer,
) -> None:
    _, clients, _ = await round_room(server)
    mover, watcher = clients[0], clients[1]
    for index, move in enumerate(LINE[:3]):
        await mover.send(type="move", id=f"m{index}", move=move)
    await mover.send(type="resign")
    seen = await frames_until(watcher, lambda frame: frame["type"] == "finished")
    frames = [frame for _, frame in seen]
    finished = frames[-1]
    assert (finished["player_id"], finished["status"]) == (mover.you, "resigned")
    before = frames[-2]
    assert before["type"] == "progress_batch" and before["seq"] == finished["seq"] - 1
    mine = [e for e in before["events"] if e["player_id"] == mover.you]
    assert mine[-1]["status"] == "resigned" and mine[-1]["moves"] == 3
    assert_seq_order(frames, watcher.last_seq)


async def test_large_room_results_finish_those_still_racing_when_time_runs_out(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    _, clients, tournament = await round_room(any_server)
    winner, watcher = clients[0], clients[1]
    await play(winner, LINE, "w")
    clock.advance(61)
    seen = await frames_until(watcher, lambda frame: frame["type"] == "results")
    frames = [frame for _, frame in seen]
    finished = [f for f in frames if f["type"] == "finished"]
    assert [(f["player_id"], f["status"]) for f in finished] == [(winner.you, "won")]
    results = frames[-1]
    lines = {line["player_id"]: line for line in results["standings"]}
    assert (lines[winner.you]["status"], lines[winner.you]["place"]) == ("won", 1)
    racing = [client.you for client in clients[1:]]
    assert all((lines[p]["status"], lines[p]["place"]) == ("timeout", 2) for p in racing)
    assert_seq_order(frames, watcher.last_seq)
    done = await tournament.expect("round_finished", round=1)
    assert {line["player_id"]: line["status"] for line in done["results"]} == {
        player: line["status"] for player, line in lines.items()
    }


async def test_batch_holds_each_players_newest_progress_until_its_time() -> None:
    sent: list[str] = []
    batch = ProgressBatch(sent.append, interval_s=0.2, monotonic=lambda: 0.0)
    for seq, (player, moves) in enumerate([("a", 1), ("b", 1), ("a", 2)], start=1):
        frame = f'{{"seq":{seq},"type":"progress","player_id":"{player}","moves":{moves}}}'
        batch.hold(seq, frame)
    assert sent == []  # held until the loop turns, however many come meanwhile
    await asyncio.sleep(0.01)
    assert len(sent) == 1  # the first batch after a quiet spell goes at once
    batch.hold(4, '{"seq":4,"type":"progress","player_id":"b","moves":2}')
    await asyncio.sleep(0.01)
    assert len(sent) == 1  # the next one waits for the interval (0.2 s on the loop's timer)
    await asyncio.sleep(0.4)
    first, second = (json.loads(text) for text in sent)
    assert first["seq"] == 3
    assert [(e["player_id"], e["moves"]) for e in first["events"]] == [("b", 1), ("a", 2)]
    assert second["seq"] == 4 and [e["moves"] for e in second["events"]] == [2]
    batch.close()
