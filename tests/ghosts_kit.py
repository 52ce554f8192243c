"""Ghost races in tests: a recorded run on a certified deal to make ghosts of (one that raced
enough for the server to choose it: :func:`raced_run`), and what a racer sees of the ghost (its
progress with the race clock's readings)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from players_kit import anonymous, api, recorded
from server_kit import Client, ManualClock
from stalactites.ghosts.runs import MIN_ELAPSED_MS, MIN_MOVES, raced

__all__ = [
    "TOLERANCE_MS",
    "SourceRun",
    "ghost_race",
    "ghost_times",
    "raced_run",
    "source_run",
]

TOLERANCE_MS = 500  # the stated tolerance: a ghost's action lands this close to its time
GAP_S = 0.15  # the pause between the source run's moves, so that its times are spread out


@dataclass
class SourceRun:
    room_id: str
    player: dict[str, Any]  # the runner's session: player_id, name, token
    record: dict[str, Any]

    @property
    def line(self) -> dict[str, Any]:
        lines = [p for p in self.record["players"] if p["player_id"] == self.player["player_id"]]
        return dict(lines[0])

    @property
    def times(self) -> list[int]:
        return [action["at_ms"] for action in self.line["actions"]]


async def source_run(
    server: Any,
    moves: int,
    *,
    gap_s: float = GAP_S,
    clock: ManualClock | None = None,
    lasting_s: float = 0.0,
    **settings: Any,
) -> SourceRun:
    """A player's solo race on a certified deal: legal moves until its board has ``moves``
    (when stuck, an undo, then a move not yet tried there), an action every ``gap_s``; then,
    ``lasting_s`` later, a resignation; the room's record once it is in the player's history.
    The time passes on the server's ``clock``, moved on, or (none given) is waited for."""
    runner = await anonymous(server.url)
    body = {"countdown_s": 0, "seats": 1, **settings}
    status, room, _ = await api("POST", f"{server.url}/api/rooms", body)
    assert status == 201 and room["certified"] == ("deal" not in settings), room
    status, seat, _ = await api(
        "POST", f"{server.url}/api/rooms/{room['room_id']}/players", {}, runner["token"]
    )
    assert status == 201, seat
    client = await Client.open(server.ws_url(room["room_id"]))
    await client.hello(seat["token"])
    await client.send(type="ready")
    legal = (await client.expect("started"))["legal"]
    tried: list[set[str]] = [set()]  # the moves played from each position of the board's line
    index = 0
    while len(tried) <= moves:
        await _pause(gap_s, clock)  # the run's own pace: what the ghost must keep
        fresh = [move for move in legal if move not in tried[-1]]
        if fresh:
            tried[-1].add(fresh[0])
            tried.append(set())
            answer = await client.move(f"s{index}", fresh[0])
        else:  # stuck: an undo is an action of the run too
            assert len(tried) > 1, "no move left to try on this deal"
            tried.pop()
            await client.send(type="undo", id=f"s{index}")
            answer = await client.answer(f"s{index}")
        assert answer["type"] == "accepted", answer
        legal, index = answer["legal"], index + 1
    await _pause(gap_s + lasting_s, clock)
    await client.send(type="resign")
    await client.expect("results")
    await client.close()
    await recorded(server.url, runner["player_id"])
    status, record, _ = await api("GET", f"{server.url}/api/rooms/{room['room_id']}/record")
    assert status == 200, record
    return SourceRun(room["room_id"], runner, record)


async def _pause(seconds: float, clock: ManualClock | None) -> None:
    """Let ``seconds`` pass: on the server's ``clock``, moved on, or (none given) waited for."""
    if clock is None:
        await asyncio.sleep(seconds)
    else:
        clock.advance(seconds)


async def raced_run(server: Any, clock: ManualClock | None = None, **settings: Any) -> SourceRun:
    """A run the server may choose as a ghost: ``MIN_MOVES`` moves, then a resignation
    ``MIN_ELAPSED_MS`` into the race: the moves at once and the server's ``clock`` moved on, or
    (a server on the machine's clock: none given) the moves spread over that time for real."""
    lasting_s = MIN_ELAPSED_MS / 1000
    if clock is None:
        # The moves at the kit's pace (a deal may need undos to reach them), then the wait.
        run = await source_run(server, MIN_MOVES, lasting_s=lasting_s, **settings)
    else:
        run = await source_run(
            server, MIN_MOVES, gap_s=0, clock=clock, lasting_s=lasting_s, **settings
        )
    assert raced(run.line["moves"], run.line["elapsed_ms"]), run.line
    return run


async def ghost_race(
    server: Any, run: SourceRun, racer: dict[str, Any]
) -> tuple[int, dict[str, Any]]:
    """``POST /api/rooms/{room_id}/ghost`` for ``racer``: (status, answer)."""
    url = f"{server.url}/api/rooms/{run.room_id}/ghost"
    body = {"player_id": run.player["player_id"]}
    status, answer, _ = await api("POST", url, body, racer["token"])
    return status, answer


def ghost_times(frames: list[dict[str, Any]], ghost_id: str) -> list[int]:
    """The race clock's readings of the ghost's progress among the frames a client got."""
    return [
        frame["at_ms"]
        for frame in frames
        if frame["type"] == "progress" and frame["player_id"] == ghost_id
    ]
