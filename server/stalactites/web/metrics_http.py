"""``GET /metrics``: the process's state read at each scrape and its figures written out by
:class:`~..live.metrics.Metrics` in the Prometheus text format (the names:
:mod:`..live.metrics`)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import Response

from ..config import ServerConfig
from ..fairplay.service import ASSESSMENT
from ..live.metrics import Queues, ResultsFigures, build_info, queue_names
from ..rooms.analyses import ANALYSIS
from ..rooms.hints import hint_kind
from ..store import store_kind
from ..workers import WORK

if TYPE_CHECKING:
    from .process import Process

__all__ = ["CONTENT_TYPE", "metrics_endpoint", "read_queues"]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def store_label(config: ServerConfig) -> str:
    """The store in the build info: memory, redis or cluster."""
    if store_kind(config.store_url) == "memory":
        return "memory"
    return "cluster" if config.redis_cluster else "redis"


async def read_queues(process: Process) -> Queues:
    """:class:`Queues` now: one store call a queue (a script over the waiting entries)."""
    now, store = process.clock.now_ms(), process.queue_store
    names = queue_names()
    found = await asyncio.gather(*(store.status(name, "", now) for name in names))
    solver = process.solver
    kinds = (WORK, ANALYSIS, hint_kind(process.config, solver.workers), ASSESSMENT)
    arenas = await process.arenas.listed("running", 100)
    free = await asyncio.gather(*(process.arena_store.free(a.arena_id) for a in arenas))
    return Queues(
        {name: status.waiting for name, status in zip(names, found, strict=True)},
        {kind.name: solver.waiting(kind.name) for kind in kinds},
        {kind.name: solver.running(kind.name) for kind in kinds},
        {arena.arena_id: len(ids) for arena, ids in zip(arenas, free, strict=True)},
        {arena.arena_id: len(arena.pending) for arena in arenas},
        await process.friends_store.online_count(now),
    )


async def metrics_endpoint(request: Request) -> Response:
    """``GET /metrics``: the process's figures."""
    process: Process = request.state.process
    reconnects = {
        "rooms": getattr(process.store, "reconnects", 0),
        "tournaments": getattr(process.tournament_store, "reconnects", 0),
    }
    now = process.clock.now_ms()
    listed = await process.store.count_rooms(now)
    recorder = process.recorder
    results = ResultsFigures(
        await process.store.results.backlog(now),
        recorder.recorded,
        recorder.failures,
        process.sweep.advanced,
    )
    more = build_info(store_label(process.config)) + (await read_queues(process)).lines()
    text = process.metrics.render(
        process.connections(), process.room_statuses(), reconnects, listed, results, more
    )
    return Response(text, media_type=CONTENT_TYPE)
