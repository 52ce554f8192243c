"""Arenas: a tournament that runs for a fixed time, entered at any moment, each entrant paired
again as soon as their race ends (see ``docs/tournaments.md``, "Arenas").

:mod:`.state` holds an arena's document and its pure changes; :mod:`.service` pairs, seats
and scores across processes through the arenas' store; :mod:`.schedule` makes the standing
schedule's arenas, once each.
"""

from .service import ArenaError, Arenas

__all__ = ["ArenaError", "Arenas"]
