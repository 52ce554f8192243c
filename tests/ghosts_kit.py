"""Ghost races in tests: a recorded run on a certified deal to make ghosts of, and what a
racer sees of the ghost (its progress with the race clock's readings)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from players_kit import anonymous, api, recorded
from server_kit import Client

__all__ = ["TOLERANCE_MS", "SourceRun", "ghost_race", "ghost_times", "source_run"]

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


async def source_run(server: Any, moves: int, **settings: Any) -> SourceRun:
    """A player's solo race on a certified deal: ``moves`` legal moves (an undo when stuck),
    one every ``GAP_S``,
    then a resignation; the room's record once it is in the player's history."""
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
    for index in range(moves):
        await asyncio.sleep(GAP_S)  # the run's own pace: what the ghost must keep
        if legal:
            answer = await client.move(f"s{index}", legal[0])
        else:  # stuck: an undo is an action of the run too
            await client.send(type="undo", id=f"s{index}")
            answer = await client.answer(f"s{index}")
        assert answer["type"] == "accepted", answer
        legal = answer["legal"]
    await asyncio.sleep(GAP_S)
    await client.send(type="resign")
    await client.expect("results")
    await client.close()
    await recorded(server.url, runner["player_id"])
    status, record, _ = await api("GET", f"{server.url}/api/rooms/{room['room_id']}/record")
    assert status == 200, record
    return SourceRun(room["room_id"], runner, record)


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
