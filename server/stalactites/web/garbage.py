"""How a server process collects garbage: what has lived a while is not scanned again.

With thousands of sockets open a process holds about a million objects the collector tracks
(each connection's protocol, transport, session, buffers and timers), nearly all of them
alive as long as their socket.  Python's collector scans every one of them in each full
collection, and runs one whenever a quarter as many again have outlived the two younger
generations: every few seconds under load, each a long pause in which nothing else runs (see
``docs/performance.md``).

So :func:`collect_seldom`, once the process has started:

* freezes what exists then (modules, the app: alive for the process's life);
* after every collection of the middle (or the oldest) generation freezes what survived it
  (:func:`gc.freeze`): the collector no longer scans those objects, which are still freed as
  usual when their last reference goes; a young object lives through two collections of the
  young generation (700 allocations each) before it is frozen, so the collections in between
  scan only the objects made since, and stay short;
* every ``full_every_s`` unfreezes everything and collects it all once (the one long pause
  left), to free the reference cycles that frozen objects have formed since (few: the
  collections of the younger generations find next to none).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from typing import Any

__all__ = ["FULL_EVERY_S", "collect_seldom"]

log = logging.getLogger(__name__)

FULL_EVERY_S = 600.0  # everything, frozen or not, is collected this often


def collect_seldom(full_every_s: float = FULL_EVERY_S) -> asyncio.Task[None]:
    """Collect this process's garbage as above; the task that runs the whole collections."""
    gc.collect()
    gc.freeze()
    gc.callbacks.append(_freeze_survivors)
    return asyncio.create_task(_collect_all_now_and_then(full_every_s), name="garbage")


def _freeze_survivors(phase: str, info: dict[str, Any]) -> None:
    if phase == "stop" and info["generation"] >= 1:
        gc.freeze()


async def _collect_all_now_and_then(every_s: float) -> None:
    while True:
        await asyncio.sleep(every_s)
        began = time.process_time()
        gc.unfreeze()
        found = gc.collect()  # and _freeze_survivors freezes what is left
        log.info(
            "garbage: %d unreachable objects freed in %.0f ms of CPU; %d kept",
            found,
            (time.process_time() - began) * 1000,
            gc.get_freeze_count(),
        )
