"""Tournaments: timed rounds on the same deals, standings, and the store they live in.

:class:`TournamentService` runs tournaments from creation to final standings;
:class:`Scheduler` keeps them on time in each server process; the store is
one :class:`TournamentStore` interface, in memory or in Redis, chosen by URL.
Nothing here knows about HTTP or websockets.

>>> store = open_tournament_store("memory://")
>>> type(store).__name__
'MemoryTournamentStore'
"""

from __future__ import annotations

from .errors import TournamentError
from .memory_store import MemoryTournamentStore
from .scheduler import Scheduler
from .service import TournamentService
from .settings import CreateTournament, TournamentSettings
from .store import TournamentStore

__all__ = [
    "CreateTournament",
    "MemoryTournamentStore",
    "Scheduler",
    "TournamentError",
    "TournamentService",
    "TournamentSettings",
    "TournamentStore",
    "open_tournament_store",
]


def open_tournament_store(url: str, prefix: str = "sr:", cluster: bool = False) -> TournamentStore:
    """``memory://`` for the in-memory store; ``redis://``, ``rediss://`` or ``unix://`` for
    Redis (the rooms' URL and key prefix; with ``cluster``, any node of a Redis Cluster)."""
    if url.startswith("memory://"):
        return MemoryTournamentStore()
    if url.startswith(("redis://", "rediss://", "unix://")):
        from .redis_store import RedisTournamentStore

        return RedisTournamentStore(url, prefix, cluster=cluster)
    raise ValueError(f"not a store URL: {url!r} (memory:// or redis://host:port/db)")
