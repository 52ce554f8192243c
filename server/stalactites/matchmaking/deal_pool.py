"""Certified deals kept ready for quick races, so that a pairing's room is made at once.

Certifying a deal runs the solver in the process's worker pool (a Stalactites deal under
``choice`` must be won by both steps, and some candidates are rejected; a Squadron deal's
search is longer).  So the deals are certified ahead: each queue keeps a **stock** of
``depth`` certified deals in the store, shared by every process, and every process serving the
queue tops it up in the background (``solver.workers`` batches at a time) whenever a room
takes one.  A room is dealt one of the stock at random, never given to another
room from the stock again; only when the stock is empty (the solver's workers outrun, on a
busy machine their lower priority starves them) does a room share a deal dealt to another
room within the last ``share_ms`` (at most the quick race's countdown: no room on that deal
has begun, so no one has seen it), and only when there is none of those either does it wait
for a deal certified for it.  Nobody can tell in advance which deal their room gets.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable

from ..engine import GameName
from ..rooms.deals import ChosenDeal, certified_deal, pick_deal
from ..store.queue.base import QueueStore, queue_name
from ..workers import SolverPool

__all__ = ["DealPool", "certified_deals"]

log = logging.getLogger(__name__)

# Deals one worker call certifies, by game (a short call either way).
BATCH: dict[str, int] = {GameName.STALACTITES: 8, GameName.SQUADRON: 1}


def certified_deals(game: str, step: str | None, count: int) -> list[str]:
    """``count`` certified deals, each as the stock keeps it (run in a worker)."""
    made = (certified_deal(game, step) for _ in range(count))
    return [json.dumps({"deal": deal, "lines": lines}) for deal, lines in made]


def _chosen(text: str) -> ChosenDeal:
    kept = json.loads(text)
    return ChosenDeal(str(kept["deal"]), True, kept["lines"])


class DealPool:
    def __init__(
        self,
        store: QueueStore,
        solver: SolverPool,
        depth: int,
        share_ms: int,
        now_ms: Callable[[], int],
    ) -> None:
        self._store, self._solver = store, solver
        self._depth, self._share_ms, self._now = depth, share_ms, now_ms
        self._filling: dict[tuple[str, str | None], asyncio.Task[None]] = {}
        self._dry: set[str] = set()  # queues whose stock ran out (warned once per spell)
        self.shared = 0  # rooms of this process dealt a shared deal...
        self.on_demand = 0  # ...and dealt one certified for them

    async def take(self, game: str, step: str | None) -> ChosenDeal:
        """A certified deal of that game and step (see the module)."""
        queue = queue_name(game, step)
        taken = await self._store.take_deal(queue, self._now(), self._share_ms)
        self.fill(game, step)  # after the take: a top-up counting the stock before it was
        # taken from would find it full and stop, a deal short
        if taken is not None and not taken.shared:
            self._dry.discard(queue)
            return _chosen(taken.deal)
        if queue not in self._dry:
            self._dry.add(queue)
            log.warning(
                "queue %s: the stock of certified deals ran out: rooms share deals or wait "
                "for the solver (more STALACTITES_SOLVER_WORKERS, or a deeper "
                "STALACTITES_MATCH_DEAL_POOL, carry this rate)",
                queue,
            )
        if taken is not None:
            self.shared += 1
            return _chosen(taken.deal)
        self.on_demand += 1
        log.warning("queue %s: a room's deal is certified on demand", queue)
        return await pick_deal(self._solver, game, step)

    def fill(self, game: str, step: str | None) -> None:
        """Start topping up this queue's stock, if not already."""
        key = (game, step)
        task = self._filling.get(key)
        if self._depth > 0 and (task is None or task.done()):
            self._filling[key] = asyncio.create_task(self._fill(key), name=f"deals:{game}")

    async def ready(self, game: str, step: str | None) -> int:
        """Wait for this process's topping up of the queue's stock: how many deals it holds."""
        task = self._filling.get((game, step))
        if task is not None:
            await asyncio.shield(task)
        return await self._store.stock_deals(queue_name(game, step), [], self._depth)

    async def _fill(self, key: tuple[str, str | None]) -> None:
        queue = queue_name(*key)
        try:
            missing = self._depth - await self._store.stock_deals(queue, [], self._depth)
            while missing > 0:
                batch = min(missing, BATCH.get(key[0], 1))
                calls = min(self._solver.workers, -(-missing // batch))
                made = await asyncio.gather(
                    *(self._solver.run(certified_deals, *key, batch) for _ in range(calls))
                )
                deals = [deal for some in made for deal in some]
                missing = self._depth - await self._store.stock_deals(queue, deals, self._depth)
        except Exception:
            log.exception("queue %s: certifying deals for the stock failed", queue)

    async def close(self) -> None:
        for task in self._filling.values():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
