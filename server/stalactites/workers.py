"""The solver's worker processes: searches never run on the event loop's process.

A pure-Python search holds the interpreter lock for as long as it runs, so a search in a
thread stalls every racer served by the process.  A :class:`SolverPool` (one per server
process, made in the app's lifespan and closed there) runs them in ``solver_workers``
processes started by a forkserver (spawned where there is none), never forked from the
running server: a fork would copy its event loop, sockets and locks.  Workers run at a lower
CPU priority (``nice`` 10), so that on a busy machine racers' moves come first.

Each call is of a :class:`Kind` with its own budget in the pool.  A call is handed to a
worker only when one is free, so no call queues behind another kind's in the executor's
first-come queue: waiting calls start by priority (then in order of arrival), each kind on
at most its share of the workers, so that a kind over its budget waits without holding the
others.  A kind may cap its waiting calls, and its calls per owner (a hint's seat) in the
pool and per second; beyond a cap the call is refused at once with :class:`SolverBusy`.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Literal, TypeVar

__all__ = ["WORK", "Kind", "SolverBusy", "SolverPool", "worker_pid"]

T = TypeVar("T")

# Imported once by the forkserver, so that a new worker starts with what it runs: the modules
# of every function handed to a pool (a test keeps the list whole).
PRELOAD = [
    "stalactites.analysis.board_verdict",
    "stalactites.analysis.report",
    "stalactites.daily.deal",
    "stalactites.fairplay.assess",
    "stalactites.matchmaking.deal_pool",
    "stalactites.rooms.deals",
    "stalactites.rooms.hints",
    "stalactites.rooms.solutions",
    "stalactites.workers",
]
NICENESS = 10  # workers yield the CPU to the event loop's process on a busy machine
BUSY_RETRY_S = 1.0  # a call refused for a full queue or an owner's call in the pool: ask again


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of solver work and its budget in a :class:`SolverPool`, known by its name.

    Waiting calls start by ``priority`` (lower first), then in order of arrival; a kind runs
    on at most ``share`` of the workers at once (at least one); at most ``queue`` of its calls
    wait (0: no cap).  An ``owner`` (say, a seat) has at most ``per_owner`` calls of the kind
    in the pool, running or waiting (0: no cap), and starts at most ``owner_rate`` a second
    after a burst of ``owner_burst`` (0: no rate).
    """

    name: str
    priority: int = 0
    share: float = 1.0
    queue: int = 0
    per_owner: int = 0
    owner_rate: float = 0.0
    owner_burst: int = 1


WORK = Kind("work")  # what has no kind of its own: certifying deals, lines, boards' verdicts

Refusal = Literal["queue_full", "owner_busy", "owner_rate"]


class SolverBusy(Exception):
    """A call refused by its kind's budget (``reason``); asking again after ``retry_after_s``
    may pass."""

    def __init__(self, reason: Refusal, retry_after_s: float) -> None:
        super().__init__(f"solver busy: {reason}")
        self.reason: Refusal = reason
        self.retry_after_s = retry_after_s


def _context() -> multiprocessing.context.BaseContext:
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        return context
    return multiprocessing.get_context("spawn")


def _start_worker() -> None:
    """Each worker's start: a lower CPU priority than the server's, and an end with it."""
    try:
        os.nice(NICENESS)
    except OSError:  # not allowed here: run at the server's priority
        pass
    threading.Thread(target=_exit_with_server, name="server-watch", daemon=True).start()


def _exit_with_server() -> None:
    """Wait for the server process to end, then end this worker.

    A worker blocks reading its calls from a pipe whose other end it holds too, so it would
    never see the server die; and while it lives, so do the forkserver and the resource
    tracker it holds open.  A server killed without its lifespan's ending (SIGKILL, a crash)
    would leave all three behind.  The parent's sentinel becomes ready when the server ends.
    """
    parent = multiprocessing.parent_process()
    if parent is not None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)


def worker_pid() -> int:
    """The id of the process running this (a worker's, when run through a pool)."""
    return os.getpid()


class _Owners:
    """One kind's owners: each one's calls in the pool, and its allowance of new ones (tokens
    and when last counted, the least recently used first; forgotten once full again)."""

    def __init__(self, kind: Kind, monotonic: Callable[[], float]) -> None:
        self._kind, self._monotonic = kind, monotonic
        self._calls: Counter[str] = Counter()
        self._allowance: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def admit(self, owner: str) -> None:
        """Count one more call of ``owner`` in the pool, or refuse it (:class:`SolverBusy`)."""
        kind = self._kind
        if 0 < kind.per_owner <= self._calls[owner]:
            raise SolverBusy("owner_busy", BUSY_RETRY_S)
        if kind.owner_rate > 0:
            self._take(owner, kind.owner_rate, float(max(kind.owner_burst, 1)))
        self._calls[owner] += 1

    def left(self, owner: str) -> None:
        self._calls[owner] -= 1
        if self._calls[owner] <= 0:
            del self._calls[owner]

    def _take(self, owner: str, rate: float, burst: float) -> None:
        now = self._monotonic()
        while self._allowance:  # forget the owners whose allowance is full again
            oldest, (_, at) = next(iter(self._allowance.items()))
            if now - at < burst / rate:
                break
            del self._allowance[oldest]
        tokens, at = self._allowance.pop(owner, (burst, now))
        tokens = min(burst, tokens + (now - at) * rate)
        if tokens < 1:
            self._allowance[owner] = (tokens, now)
            raise SolverBusy("owner_rate", (1 - tokens) / rate)
        self._allowance[owner] = (tokens - 1, now)


Turn = tuple[int, int, Kind, "asyncio.Future[None]"]  # priority, arrival, kind, given a worker


class SolverPool:
    """``workers`` processes that run solver calls; :meth:`run` awaits one call's answer."""

    def __init__(self, workers: int, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.workers = workers
        self._executor = ProcessPoolExecutor(
            max_workers=workers, mp_context=_context(), initializer=_start_worker
        )
        self._monotonic = monotonic
        self._busy = 0  # workers given a call
        self._running: Counter[str] = Counter()  # by kind
        self._waiting: Counter[str] = Counter()
        self._turns: list[Turn] = []  # the waiting calls, a heap
        self._arrivals = itertools.count()
        self._owners: dict[str, _Owners] = {}
        self.started: Counter[str] = Counter()  # calls given a worker so far, by kind
        self._closed = False
        self._loop: asyncio.AbstractEventLoop | None = None  # where the latest call came from

    def running(self, kind: str) -> int:
        """Calls of this kind (its name) in the workers now."""
        return self._running[kind]

    def waiting(self, kind: str) -> int:
        """Calls of this kind (its name) waiting for a worker now."""
        return self._waiting[kind]

    async def run(
        self, call: Callable[..., T], *args: object, kind: Kind = WORK, owner: str | None = None
    ) -> T:
        """``call(*args)`` in a worker process (both must be importable and picklable), once
        ``kind``'s budget lets it start; :class:`SolverBusy` when the budget refuses it."""
        if self._closed:
            raise RuntimeError("the solver pool is closed")
        self._loop = asyncio.get_running_loop()
        if 0 < kind.queue <= self._waiting[kind.name]:
            raise SolverBusy("queue_full", BUSY_RETRY_S)
        owners = None
        if owner is not None:
            owners = self._owners.get(kind.name) or _Owners(kind, self._monotonic)
            self._owners[kind.name] = owners
            owners.admit(owner)
        try:
            await self._turn(kind)
            return await self._start(kind, call, args)
        finally:
            if owners is not None and owner is not None:
                owners.left(owner)

    async def _turn(self, kind: Kind) -> None:
        """Wait until a worker is given to this call."""
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._turns, (kind.priority, next(self._arrivals), kind, turn))
        self._waiting[kind.name] += 1
        self._dispatch()
        try:
            await turn
        except asyncio.CancelledError:
            if turn.cancelled():  # gone while waiting (its entry is dropped when reached)
                self._waiting[kind.name] -= 1
            else:  # gone once given its worker, before using it
                self._finished(kind)
            raise

    def _dispatch(self) -> None:
        """Give the free workers to the waiting calls: by priority, then arrival, each kind
        within its share (a kind at its share waits without holding the others)."""
        held: list[Turn] = []
        while self._turns and self._busy < self.workers:
            entry = heapq.heappop(self._turns)
            _, _, kind, turn = entry
            if turn.done():  # cancelled while waiting
                continue
            if self._running[kind.name] >= max(1, int(self.workers * kind.share)):
                held.append(entry)
                continue
            self._waiting[kind.name] -= 1
            self._busy += 1
            self._running[kind.name] += 1
            self.started[kind.name] += 1
            turn.set_result(None)
        for entry in held:
            heapq.heappush(self._turns, entry)

    async def _start(self, kind: Kind, call: Callable[..., T], args: tuple[object, ...]) -> T:
        """Run the call on the worker given to it; the worker is free again when the call has
        ended in it (or was cancelled before it began), not when its awaiting stops."""
        try:
            done: Future[T] = self._executor.submit(call, *args)
        except BaseException:
            self._finished(kind)
            raise
        done.add_done_callback(lambda _: self._finished_soon(kind))
        return await asyncio.wrap_future(done)

    def _finished_soon(self, kind: Kind) -> None:
        """From the executor's thread: the call has ended; its worker is given on by the loop
        of the latest call (the call's own, unless that loop has closed meanwhile, as a test's
        does while a pool serves the next test's)."""
        loop = self._loop
        try:
            if loop is not None:
                loop.call_soon_threadsafe(self._finished, kind)
                return
        except RuntimeError:  # that loop is closed too: nobody waits there
            pass
        self._busy -= 1  # freed first: a call coming after this sees the worker free...
        self._running[kind.name] -= 1
        latest = self._loop  # ...and one that came meanwhile is given it on its loop
        if latest is not None and latest is not loop:
            with contextlib.suppress(RuntimeError):
                latest.call_soon_threadsafe(self._dispatch)

    def _finished(self, kind: Kind) -> None:
        self._busy -= 1
        self._running[kind.name] -= 1
        if not self._closed:
            self._dispatch()

    def warm(self) -> None:
        """Start the workers now, not on the first search (a call each, not awaited)."""
        for _ in range(self.workers):
            self._executor.submit(worker_pid)

    def close(self) -> None:
        """Stop the workers; calls still waiting or queued are refused, running ones are not
        waited."""
        self._closed = True
        for _, _, _, turn in self._turns:
            if not turn.done():
                turn.set_exception(RuntimeError("the solver pool is closed"))
        self._turns.clear()
        self._executor.shutdown(wait=False, cancel_futures=True)
