"""The process's alarms on the server clock (``live/alarms.py``): one loop timer rings every
alarm due, a clock that jumps forward is noticed within ``POLL_S``, cancelled alarms never
ring and do not pile up."""

from __future__ import annotations

import asyncio
from functools import partial

import pytest

from server_kit import ManualClock
from stalactites.live.alarms import COMPACT_PAST, POLL_S, Alarm, Alarms


async def test_alarms_ring_in_due_order_once_due() -> None:
    clock = ManualClock()
    alarms = Alarms(clock)
    rung: list[str] = []
    last = asyncio.Event()
    now = clock.now_ms()
    alarms.at(now + 40, lambda: rung.append("second"))
    alarms.at(now + 20, lambda: rung.append("first"))
    alarms.at(now + 40, lambda: rung.append("third"))
    alarms.at(now + 60, last.set)
    await asyncio.wait_for(last.wait(), 5)
    assert rung == ["first", "second", "third"]
    assert clock.now_ms() >= now + 60
    assert len(alarms) == 0


@pytest.mark.slow
async def test_a_clock_that_jumps_rings_alarms_far_ahead_within_the_poll() -> None:
    clock = ManualClock()
    alarms = Alarms(clock)
    rung = asyncio.Event()
    alarms.at(clock.now_ms() + 3_600_000, rung.set)  # an hour away
    await asyncio.sleep(0)
    clock.advance(3600)
    await asyncio.wait_for(rung.wait(), POLL_S * 3)


async def test_until_returns_at_once_when_due_and_sleeps_otherwise() -> None:
    clock = ManualClock()
    alarms = Alarms(clock)
    await alarms.until(clock.now_ms() - 1)
    assert len(alarms) == 0  # nothing was set
    due = clock.now_ms() + 30
    await asyncio.wait_for(alarms.until(due), 5)
    assert clock.now_ms() >= due


async def test_cancelled_alarms_never_ring() -> None:
    clock = ManualClock()
    alarms = Alarms(clock)
    rung: list[str] = []
    with clock.frozen():  # the sleeper is still asleep when cancelled, however loaded the machine
        now = clock.now_ms()
        alarms.at(now + 10, lambda: rung.append("cancelled")).cancel()
        sleeper = asyncio.create_task(alarms.until(now + 10))
        await asyncio.sleep(0)
        sleeper.cancel()
        await asyncio.gather(sleeper, return_exceptions=True)
    await asyncio.wait_for(alarms.until(now + 40), 5)
    assert rung == []
    assert sleeper.cancelled()
    assert len(alarms) == 0


@pytest.mark.slow
async def test_cancelled_alarms_are_dropped_before_they_are_due() -> None:
    clock = ManualClock()
    alarms = Alarms(clock)
    far = clock.now_ms() + 3_600_000
    cancelled = [alarms.at(far + i, lambda: None) for i in range(3 * COMPACT_PAST)]
    rung = asyncio.Event()
    alarms.at(far + 10_000, rung.set)
    assert len(alarms) == 3 * COMPACT_PAST + 1
    for alarm in cancelled:
        alarm.cancel()
    assert len(alarms) < COMPACT_PAST  # compacted once more than half were cancelled
    clock.advance(7200)
    await asyncio.wait_for(rung.wait(), POLL_S * 3)
    assert len(alarms) == 0
    alarms.close()


async def test_a_callback_may_cancel_alarms_due_with_it() -> None:
    clock = ManualClock()
    alarms = Alarms(clock)
    rung: list[int] = []
    due = clock.now_ms() + 20
    others: list[Alarm] = []

    def cancel_most_others() -> None:
        rung.append(-1)
        for alarm in others[COMPACT_PAST:]:
            alarm.cancel()  # enough to compact the heap while it is being rung

    alarms.at(due, cancel_most_others)  # (rung first: set first, due with the others)
    others += [alarms.at(due, partial(rung.append, i)) for i in range(4 * COMPACT_PAST)]
    left: list[int] = []
    done = asyncio.Event()

    def count_left() -> None:
        left.append(len(alarms))
        done.set()

    alarms.at(due, count_left)
    await asyncio.wait_for(done.wait(), 5)
    assert rung == [-1, *range(COMPACT_PAST)]
    assert left == [0]  # nothing rung or cancelled stays behind


async def test_cancelled_alarms_keep_no_timer_going() -> None:
    clock = ManualClock()
    alarms = Alarms(clock)
    alarms.at(clock.now_ms() + 3_600_000, lambda: None).cancel()  # far: only the poll rings
    rung = asyncio.Event()
    alarms.at(clock.now_ms() + 10, rung.set)
    await asyncio.wait_for(rung.wait(), 5)
    assert len(alarms) == 0  # the cancelled one was let go, not polled for until it is due


async def test_nothing_rings_once_closed() -> None:
    clock = ManualClock()
    alarms = Alarms(clock)
    rung: list[str] = []
    before = alarms.at(clock.now_ms() + 10, lambda: rung.append("before"))
    alarms.close()
    after = alarms.at(clock.now_ms() + 10, lambda: rung.append("after"))
    assert before.spent and after.spent and len(alarms) == 0
    before.cancel()
    later = Alarms(clock)  # (another process's alarms: time passes for both)
    await asyncio.wait_for(later.until(clock.now_ms() + 40), 5)
    assert rung == []
    assert len(alarms) == 0


async def test_a_failing_callback_does_not_stop_the_others(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = ManualClock()
    alarms = Alarms(clock)
    rung = asyncio.Event()
    now = clock.now_ms()

    def fail() -> None:
        raise RuntimeError("boom")

    alarms.at(now + 10, fail)
    alarms.at(now + 10, rung.set)
    await asyncio.wait_for(rung.wait(), 5)
    assert "an alarm's callback failed" in caplog.text
    later = asyncio.Event()
    alarms.at(clock.now_ms() + 10, later.set)  # the timer is armed again after a failure
    await asyncio.wait_for(later.wait(), 5)
