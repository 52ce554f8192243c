"""The solver's worker processes: searches never run on the event loop's process.

A pure-Python search holds the interpreter lock for as long as it runs, so a search in a
thread stalls every racer served by the process.  A :class:`SolverPool` (one per server
process, made in the app's lifespan and closed there) runs them in ``solver_workers``
processes started by a forkserver (spawned where there is none), never forked from the
running server: a fork would copy its event loop, sockets and locks.  Workers run at a lower
CPU priority (``nice`` 10), so that on a busy machine racers' moves come first.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.connection
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

__all__ = ["SolverPool", "worker_pid"]

T = TypeVar("T")

PRELOAD = ["stalactites.solver", "stalactites.analysis"]  # imported once by the forkserver
NICENESS = 10  # workers yield the CPU to the event loop's process on a busy machine


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


class SolverPool:
    """``workers`` processes that run solver calls; :meth:`run` awaits one call's answer."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor = ProcessPoolExecutor(
            max_workers=workers, mp_context=_context(), initializer=_start_worker
        )

    async def run(self, call: Callable[..., T], *args: object) -> T:
        """``call(*args)`` in a worker process (both must be importable and picklable)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, call, *args)

    def warm(self) -> None:
        """Start the workers now, not on the first search (a call each, not awaited)."""
        for _ in range(self.workers):
            self._executor.submit(worker_pid)

    def close(self) -> None:
        """Stop the workers; calls still queued are cancelled, running ones are not waited."""
        self._executor.shutdown(wait=False, cancel_futures=True)
