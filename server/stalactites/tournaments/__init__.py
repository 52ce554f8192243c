"""Tournaments: timed rounds on the same deals, and standings.

:class:`TournamentService` runs tournaments from creation to final standings;
:class:`Scheduler` keeps them on time in each server process.  The store they live in
(one :class:`TournamentStore` interface, in memory or in Redis, chosen by URL) is
:mod:`stalactites.store`'s, beside the rooms' (re-exported here for the web layer).
Nothing here knows about HTTP or websockets.
"""

from __future__ import annotations

from ..store import MemoryTournamentStore, TournamentStore, open_tournament_store
from .errors import TournamentError
from .scheduler import Scheduler
from .service import TournamentService
from .settings import CreateTournament, TournamentSettings

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
