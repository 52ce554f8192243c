"""Finished races recorded exactly once whatever process dies when (stalactites.results): a
process that stores a race's end and dies before recording it, or that alone served a race's
sockets and dies before its end, leaves it to any other process, which records it once."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import redis

from players_kit import api, recorded
from server_kit import REDIS_URL, InProcessServer, ManualClock, lasting_moves, make_config
from stalactites.clock import SystemClock
from stalactites.config import ServerConfig
from stalactites.players.service import NewSession
from stalactites.protocol.room import MoveFrame
from stalactites.rooms import CreateRoom
from stalactites.rooms.rating import NO_PLAY_MOVES
from stalactites.web.process import Process


@pytest.fixture
def config(redis_prefix: str) -> ServerConfig:
    # (The players' own resumption of races left pending is put off: the log alone is tested.)
    changes = {"results_poll_s": 0.05, "results_claim_s": 0.2, "players_resume_s": 3600.0}
    return make_config(REDIS_URL, prefix=redis_prefix, **changes)


@pytest.fixture
async def dead(config: ServerConfig) -> AsyncIterator[Process]:
    """A process never started: it stores what it is asked to, but has no timers, no sweep
    and no recorder running, as one that died right after each store call."""
    process = Process(config, SystemClock())
    yield process
    await process.close()


async def rated_race(process: Process, time_limit_s: int = 60) -> tuple[str, list[NewSession]]:
    """A rated two-seat room of two new players, racing (its countdown 0)."""
    players = [await process.players.create_anonymous() for _ in range(2)]
    body = {"rated": True, "countdown_s": 0, "seats": 2, "time_limit_s": time_limit_s}
    room_id = (await process.rooms.create(CreateRoom.model_validate(body))).room_id
    for someone in players:
        await process.rooms.join(room_id, someone.name, someone.player_id)
    for someone in players:
        await process.rooms.ready(room_id, someone.player_id)
    assert (await process.rooms.load(room_id)).status == "racing"
    for someone in players:  # real play (rooms/rating.py): the race stays rated
        board = (await process.rooms.welcome(room_id, someone.player_id, None)).state
        assert board is not None
        for number, move in enumerate(lasting_moves(board.model_dump(), NO_PLAY_MOVES)):
            frame = MoveFrame(type="move", id=f"m{number}", move=move)
            assert (await process.play.act(room_id, someone.player_id, frame)).type == "accepted"
    return room_id, players


async def races_recorded(base: str, players: list[NewSession]) -> None:
    """Each player's history holds the race once, and their rating counts it once."""
    for someone in players:
        [entry] = await recorded(base, someone.player_id)
        assert entry["rated"] is True
        _, profile, _ = await api("GET", f"{base}/api/players/{someone.player_id}")
        assert profile["ratings"]["stalactites"]["races"] == 1


def log_length(prefix: str) -> int:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        return int(client.xlen(f"{prefix}{{results:0}}:log"))
    finally:
        client.close()


@pytest.mark.slow
async def test_a_race_whose_finishing_process_died_before_its_records_is_recorded_once(
    config: ServerConfig, dead: Process, redis_prefix: str
) -> None:
    room_id, players = await rated_race(dead)
    for someone in players:
        await dead.play.resign(room_id, someone.player_id)
    assert (await dead.rooms.current(room_id)).status == "finished"  # stored, nothing recorded
    [taken] = await dead.store.results.to_record("dead", 10, None)  # and taken, then it died
    assert taken.room_id == room_id
    with InProcessServer(config) as alive:
        await races_recorded(alive.url, players)  # claimed once pending 0.2 s
        await dead.store.results.record_again(room_id)  # as the sweep would, had it looked
        await dead.store.results.to_record("dead", 10, None)
        # Taken by the dead one, claimed and recorded again: nothing changes.
        while log_length(redis_prefix):
            await alive.call(alive.app.state.process.recorder.step(0))
        await races_recorded(alive.url, players)


@pytest.mark.slow
async def test_a_race_no_process_serves_ends_at_its_deadline_and_is_recorded_once(
    config: ServerConfig, dead: Process
) -> None:
    room_id, players = await rated_race(dead)
    await dead.play.resign(room_id, players[0].player_id)  # the other one plays on, then
    # their process dies: no socket, no timer is left anywhere for this room.
    clock = ManualClock()
    with InProcessServer(config, clock) as alive:
        clock.advance(61)  # past the race's end: only the store knows it
        await races_recorded(alive.url, players)
        _, view, _ = await api("GET", f"{alive.url}/api/rooms/{room_id}")
        assert view["status"] == "finished"
        statuses = {line["player_id"]: line["status"] for line in view["players"]}
        assert statuses == {players[0].player_id: "resigned", players[1].player_id: "timeout"}
