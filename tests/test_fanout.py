"""The fan-out of one process: a stream hands each subscriber every event after its cursor, in
order; what it fetches from the store depends on why the doorbell rang and on this process's
commits under way."""

from __future__ import annotations

import asyncio

from stalactites.live.fanout import Fanout, Stream
from stalactites.store import EventBatch
from stalactites.store.rooms.base import ActionRow, Bell, Carried, Ring

T0 = 1_700_000_000_000


class Log:
    """A stream's stored events, counting the reads."""

    def __init__(self) -> None:
        self.events: list[str] = []
        self.reads = 0
        self.bells: dict[str, Bell] = {}

    def store(self, kind: str) -> int:
        self.events.append(f'{{"type":"{kind}"}}')
        return len(self.events)

    async def events_since(self, stream_id: str, seq: int, limit: int, /) -> EventBatch:
        self.reads += 1
        return EventBatch(
            len(self.events), False, list(enumerate(self.events, 1))[seq : seq + limit]
        )

    async def subscribe(self, stream_id: str, bell: Bell, /) -> None:
        self.bells[stream_id] = bell

    async def unsubscribe(self, stream_id: str, bell: Bell, /) -> None:
        self.bells.pop(stream_id, None)


class Hooks:
    def __init__(self) -> None:
        self.kinds: list[str | None] = []
        self.actions: list[tuple[int, ActionRow]] = []
        self.missed_bells = 0
        self.closed = False

    def news(self) -> None:
        pass

    def kept(self, kind: str | None) -> None:
        self.kinds.append(kind)

    def acted(self, count: int, row: ActionRow) -> None:
        self.actions.append((count, row))

    def missed(self) -> None:
        self.missed_bells += 1

    def delivered(self) -> None:
        pass

    async def close(self) -> None:
        self.closed = True


class Reader:
    """A subscriber whose queue takes everything."""

    def __init__(self, cursor: int = 0) -> None:
        self.cursor, self.behind = cursor, False
        self.player_id: str | None = None
        self.connection_id = "c1"
        self.frames: list[str] = []
        self.got = asyncio.Event()

    def room_for_events(self) -> int:
        return 1_000

    def deliver(self, seq: int, frame: str) -> None:
        self.frames.append(frame)
        self.got.set()

    def send_text(self, text: str) -> None:
        self.frames.append(text)

    def lost_track(self) -> None:
        raise AssertionError("the log reaches back")

    def stalled(self, now: float, limit_s: float) -> bool:
        return False

    def kick(self) -> None:
        raise AssertionError("not kicked")

    def cork(self) -> None:
        pass

    def uncork(self) -> None:
        pass

    def seqs_now(self) -> list[int]:
        return [int(frame.split(",")[0].split(":")[1]) for frame in self.frames]

    async def seqs(self, count: int) -> list[int]:
        """The seqs handed over, once there are ``count``."""
        while len(self.frames) < count:
            self.got.clear()
            await asyncio.wait_for(self.got.wait(), 5)
        return self.seqs_now()


class Clock:
    def now_ms(self) -> int:
        return T0


def hooks_for(stream: Stream[Hooks]) -> Hooks:
    return Hooks()


async def idle() -> None:
    """Let every task run that can."""
    for _ in range(10):
        await asyncio.sleep(0)


def fanout(log: Log, linger_ms: int | None = 1_000) -> Fanout[Hooks]:
    return Fanout("room", log, hooks_for, Clock(), linger_ms)


async def test_a_subscriber_gets_every_event_after_its_cursor_in_order() -> None:
    log = Log()
    for kind in ("a", "b", "c"):
        log.store(kind)
    streams = fanout(log)
    reader = Reader(cursor=1)
    stream = await streams.join("r1", reader)
    assert await reader.seqs(2) == [2, 3]
    log.bells["r1"](log.store("d"), Ring.NEWS)
    assert await reader.seqs(3) == [2, 3, 4]
    assert stream.hooks.kinds[-1] == "d"
    await streams.close()
    assert stream.hooks.closed and "r1" not in log.bells


async def test_a_bell_for_our_own_commit_fetches_nothing_the_commit_hands_over() -> None:
    log = Log()
    streams = fanout(log)
    reader = Reader()
    await streams.join("r1", reader)
    await idle()
    reads = log.reads
    with streams.committing("r1") as followed:
        seq = log.store("progress")
        log.bells["r1"](seq, Ring.OUR_COMMIT)  # the bell may come before the answer
        await idle()
        assert reader.frames == []
        followed.stored([(seq, log.events[-1])])
    assert await reader.seqs(1) == [1]
    await idle()
    assert log.reads == reads  # not read from the store
    await streams.close()


async def test_a_commits_events_reach_every_subscriber_from_the_commit_itself() -> None:
    log = Log()
    streams = fanout(log)
    readers = [Reader(), Reader()]
    for reader in readers:
        await streams.join("r1", reader)
    await idle()
    reads = log.reads
    with streams.committing("r1") as followed:
        seq = log.store("progress")
        followed.stored([(seq, log.events[-1])])
        # handed over before anything else runs: no turn of the stream's runner
        assert [len(reader.frames) for reader in readers] == [1, 1]
    assert all(reader.cursor == seq and not reader.behind for reader in readers)
    await idle()
    assert log.reads == reads and [len(reader.frames) for reader in readers] == [1, 1]
    await streams.close()


async def test_a_subscriber_without_room_gets_the_rest_from_the_runner_later() -> None:
    log = Log()
    streams = fanout(log)
    reader = Reader()
    room = [1]  # its queue's size: the frames handed over fill it
    reader.room_for_events = lambda: room[0] - len(reader.frames)  # type: ignore[method-assign]
    stream = await streams.join("r1", reader)
    await idle()
    with streams.committing("r1") as followed:
        first, second = log.store("a"), log.store("b")
        followed.stored([(first, log.events[0]), (second, log.events[1])])
        assert len(reader.frames) == 1 and reader.behind  # its queue took one
    room[0] = 10
    stream.wake()  # as its writer does once it has sent some
    assert await reader.seqs(2) == [1, 2]
    await streams.close()


async def test_a_subscriber_whose_events_wait_for_a_commit_here_is_not_behind() -> None:
    """Behind means waiting for room in its queue (what the stall check counts against its
    client), not for this process's commit to hand the events over."""
    log = Log()
    streams = fanout(log)
    reader = Reader()
    await streams.join("r1", reader)
    await idle()
    with streams.committing("r1") as followed:
        mine = log.store("a")
        log.bells["r1"](mine, Ring.OUR_COMMIT)
        log.bells["r1"](log.store("b"), Ring.NEWS)  # another process's, meanwhile
        await idle()
        assert reader.cursor == 0 and not reader.behind
        followed.stored([(mine, log.events[0])])
    assert await reader.seqs(2) == [1, 2]
    await streams.close()


async def test_a_commit_that_failed_after_storing_is_read_from_the_store_once_it_ends() -> None:
    log = Log()
    streams = fanout(log)
    reader = Reader()
    await streams.join("r1", reader)
    await idle()
    with streams.committing("r1"):
        log.bells["r1"](log.store("progress"), Ring.OUR_COMMIT)  # then the answer is lost
        log.bells["r1"](log.store("progress"), Ring.NEWS)  # another process's, meanwhile
        await idle()
        assert reader.frames == []  # the commit under way may bring them
    assert await reader.seqs(2) == [1, 2]
    await streams.close()


async def test_a_commit_that_raised_after_storing_unheard_is_read_from_the_store() -> None:
    """A commit that stored, rang no bell here (nobody else listens) and failed on its way
    back: the stream looks in the store for it, and the hooks read the actions."""
    log = Log()
    streams = fanout(log)
    reader = Reader()
    stream = await streams.join("r1", reader)
    await idle()
    missed = stream.hooks.missed_bells
    try:
        with streams.committing("r1"):
            log.store("progress")
            raise ConnectionResetError("the reply was lost")
    except ConnectionResetError:
        pass
    assert await reader.seqs(1) == [1]
    assert stream.hooks.missed_bells == missed + 1
    await streams.close()


class SlowSubscribe(Log):
    """A store whose subscription is answered only when let go."""

    def __init__(self) -> None:
        super().__init__()
        self.answer = asyncio.Event()

    async def subscribe(self, stream_id: str, bell: Bell, /) -> None:
        await self.answer.wait()
        await super().subscribe(stream_id, bell)


async def test_a_joiner_that_read_before_the_subscription_was_made_gets_what_came_meanwhile() -> (
    None
):
    """A second subscriber joins while the stream's subscription is being made, and the stream
    reads the store at once; an event stored before the subscription is heard is still
    handed over (the stream looks again once subscribed)."""
    log = SlowSubscribe()
    streams = fanout(log)
    first = asyncio.create_task(streams.join("r1", Reader()))
    await idle()
    second = Reader()
    await streams.join("r1", second)  # the stream exists: joined at once, read at once
    await idle()
    log.store("progress")  # no bell for it: not subscribed yet
    log.answer.set()
    await first
    assert await second.seqs(1) == [1]
    await streams.close()


async def test_a_resubscribed_bell_looks_in_the_store_whatever_is_known() -> None:
    log = Log()
    streams = fanout(log)
    reader = Reader()
    stream = await streams.join("r1", reader)
    await idle()
    missed = stream.hooks.missed_bells  # (one: the stream looked again once subscribed)
    log.store("missed")  # its bell was lost with the subscription
    log.bells["r1"](0, Ring.RESUBSCRIBED)
    assert await reader.seqs(1) == [1]
    assert stream.hooks.missed_bells == missed + 1  # what lost bells carried is read again
    await streams.close()


async def test_another_processs_commit_bell_hands_over_what_it_carries_without_a_read() -> None:
    log = Log()
    streams = fanout(log)
    reader = Reader()
    stream = await streams.join("r1", reader)
    await idle()
    reads = log.reads
    seq = log.store("progress")
    row = ActionRow(T0, "ann", "t1-c1")
    log.bells["r1"](seq, Ring.NEWS, Carried([(seq, log.events[-1])], (1, row)))
    assert reader.seqs_now() == [1]  # handed over at once: no turn of the runner
    assert stream.hooks.actions == [(1, row)]
    await idle()
    assert log.reads == reads
    seq = log.store("finished")  # a resignation's bell: its events, no action
    log.bells["r1"](seq, Ring.NEWS, Carried([(seq, log.events[-1])], None))
    assert reader.seqs_now() == [1, 2] and stream.hooks.actions == [(1, row)]
    await idle()
    assert log.reads == reads
    await streams.close()


async def test_a_carried_bell_after_a_lost_one_reads_what_was_lost() -> None:
    log = Log()
    streams = fanout(log)
    reader = Reader()
    await streams.join("r1", reader)
    await idle()
    log.store("lost")  # its bell never came
    seq = log.store("progress")
    log.bells["r1"](seq, Ring.NEWS, Carried([(seq, log.events[-1])], None))
    assert await reader.seqs(2) == [1, 2]  # in order, the lost one read from the store
    await streams.close()


async def test_our_own_commit_hands_over_its_events_and_its_action_and_its_bell_nothing() -> None:
    log = Log()
    streams = fanout(log)
    reader = Reader()
    stream = await streams.join("r1", reader)
    await idle()
    row = ActionRow(T0, "ann", "t1-c1")
    with streams.committing("r1") as followed:
        seq = log.store("progress")
        log.bells["r1"](seq, Ring.OUR_COMMIT, None)  # rung for another process: nothing here
        await idle()
        assert reader.frames == [] and stream.hooks.actions == []
        followed.stored([(seq, log.events[-1])], (1, row))  # from the commit's answer
        assert reader.seqs_now() == [1] and stream.hooks.actions == [(1, row)]
    await streams.close()


async def test_a_stream_without_linger_closes_when_its_last_subscriber_leaves() -> None:
    log = Log()
    streams = fanout(log, linger_ms=None)
    reader = Reader()
    stream = await streams.join("t1", reader)
    await streams.leave("t1", reader)
    assert len(streams) == 0 and stream.hooks.closed and "t1" not in log.bells


async def test_a_lingering_stream_closes_on_the_sweep_after_its_linger() -> None:
    log = Log()
    streams = fanout(log, linger_ms=0)
    reader = Reader()
    await streams.join("r1", reader)
    await streams.leave("r1", reader)
    assert len(streams) == 1  # kept until the sweep
    await streams.sweep()
    assert len(streams) == 0
