"""Round transitions happen exactly once, with several processes advancing one tournament.

Each "process" here is its own set of stores and services on the real Redis
(as separate server processes have), all on one clock the test moves.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from conftest import REDIS_URL
from server_kit import ManualClock
from stalactites.config import ServerConfig
from stalactites.rooms import RoomService
from stalactites.store.rooms.redis import RedisStore
from stalactites.store.tournaments.redis import RedisTournamentStore
from stalactites.tournaments import CreateTournament, Scheduler, TournamentService

SETTINGS = CreateTournament(
    name="Cup", step="ones", rounds=2, round_time_s=60, break_s=0, deals=["ms:4", "ms:5"]
)


@dataclass
class Process:
    rooms: RoomService
    service: TournamentService
    scheduler: Scheduler

    async def close(self) -> None:
        await self.scheduler.close()
        await self.rooms.close()
        await self.rooms.store.close()
        await self.service.store.close()


@pytest.fixture
async def processes(redis_prefix: str, clock: ManualClock) -> AsyncIterator[list[Process]]:
    config = ServerConfig(store_url=REDIS_URL, redis_prefix=redis_prefix)
    made = []
    for _ in range(3):
        rooms = RoomService(RedisStore(REDIS_URL, redis_prefix), config, clock)
        service = TournamentService(
            RedisTournamentStore(REDIS_URL, redis_prefix), rooms, config, clock
        )
        made.append(Process(rooms, service, Scheduler(service, clock, poll_s=0.05)))
    yield made
    for process in made:
        await process.close()


async def events(process: Process, tournament_id: str) -> list[str]:
    batch = await process.service.store.events_since(tournament_id, 0)
    return [json.loads(event)["type"] for _, event in batch.events]


async def entered(process: Process, body: CreateTournament = SETTINGS) -> str:
    created = await process.service.create(body)
    for name in ("Ann", "Bob", "Cat"):
        await process.service.enter(created.tournament_id, name)
    return created.tournament_id


async def test_processes_advancing_at_once_make_each_transition_once(
    processes: list[Process], clock: ManualClock
) -> None:
    tournament_id = await entered(processes[0])
    row = await processes[0].service.load(tournament_id)
    await processes[0].service.store.request_start(tournament_id, clock.now_ms(), 60_000)
    await asyncio.gather(*(p.service.advance(tournament_id) for p in processes))
    assert await events(processes[0], tournament_id) == ["round_started"]
    clock.advance(61)
    await asyncio.gather(*(p.service.advance(tournament_id) for p in processes))
    assert await events(processes[1], tournament_id) == ["round_started", "round_finished"]
    await asyncio.gather(*(p.service.advance(tournament_id) for p in processes))
    assert await events(processes[2], tournament_id) == [
        "round_started",
        "round_finished",
        "round_started",
    ]
    shown = await processes[2].service.view(tournament_id)
    assert [record.round for record in shown.round_results] == [1, 2]
    assert shown.round_results[0].deal == "ms:4" and shown.round_results[1].deal is None
    assert len(row.entrants) == 3


@pytest.mark.slow
async def test_schedulers_in_every_process_run_a_tournament_to_its_end_once(
    processes: list[Process], clock: ManualClock
) -> None:
    starts_at = clock.now_ms() + 60_000
    body = SETTINGS.model_copy(update={"starts_at": starts_at})
    tournament_id = await entered(processes[0], body)
    for process in processes:
        process.scheduler.start()
    await asyncio.sleep(0.2)
    assert await events(processes[0], tournament_id) == []
    for count in (1, 3, 5):  # the start; round 1's end and round 2's start; the end
        clock.advance(61)
        for _ in range(100):
            if len(await events(processes[0], tournament_id)) >= count:
                break
            await asyncio.sleep(0.05)
    view = await processes[1].service.view(tournament_id)
    assert view.status == "finished"
    assert await events(processes[0], tournament_id) == [
        "round_started",
        "round_finished",
        "round_started",
        "round_finished",
        "finished",
    ]
    assert [line.points for line in view.standings] == [8, 8, 8]  # four cards up, twice
    assert await processes[0].service.store.next_due() is None
