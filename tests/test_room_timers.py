"""A room's timer (live/deadlines.py): its step is never cancelled by the room's own events,
which ask for the step again, but it runs once more as soon as the step under way ends."""

from __future__ import annotations

import asyncio

from server_kit import ManualClock
from stalactites.live.alarms import Alarms
from stalactites.live.deadlines import RoomTimer


async def test_a_step_under_way_is_not_cancelled_by_a_schedule_but_runs_again() -> None:
    alarms = Alarms(ManualClock())
    inside, release, twice = asyncio.Event(), asyncio.Event(), asyncio.Event()
    steps: list[str] = []

    async def step(room_id: str) -> int | None:
        steps.append("began")
        if len(steps) == 1:
            inside.set()
            await release.wait()  # as a finish awaits the store, whose bell reschedules
        steps.append("ended")
        if steps.count("ended") == 2:
            twice.set()
        return None

    timer = RoomTimer("r1", step, alarms, "deadline", 0.01, 0.01)
    await inside.wait()
    timer.schedule()  # the results event the step itself stored
    timer.schedule()
    release.set()
    await asyncio.wait_for(twice.wait(), 2)  # (a cancelled first step never ends)
    await timer.close()
    assert steps == ["began", "ended", "began", "ended"]  # the first ran to its end; once more
    alarms.close()


async def test_a_sleeping_timer_is_woken_by_a_schedule() -> None:
    clock = ManualClock()
    alarms = Alarms(clock)
    ran = asyncio.Queue[int]()

    async def step(room_id: str) -> int | None:
        ran.put_nowait(1)
        return clock.now_ms() + 3_600_000  # far off

    timer = RoomTimer("r1", step, alarms, "deadline", 0.01, 0.01)
    await ran.get()
    timer.schedule()
    await asyncio.wait_for(ran.get(), 5)  # now, not in an hour
    await timer.close()
    alarms.close()
