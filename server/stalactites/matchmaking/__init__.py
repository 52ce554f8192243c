"""Quick races: the matchmaking queue's processes side (the queue itself is the store's,
:mod:`stalactites.store.queue.base`).

:class:`~.service.Matchmaker` runs the pairing step for the queues this process has waiting
sockets in, makes each pairing's room (rated, on a certified deal from :mod:`.deal_pool`, a
seat per player) and hands every player's ``matched`` frame to the store, which rings the
queue's bell for the sockets on every process.  A quick race's room (``RoomSettings.quick``)
counts a seat ready once it is connected; seats not connected within
``QUICK_CONNECT_MS`` (10 s) are made ready and resigned when the race starts.  Ghost races
plug in through :class:`~.fallback.GhostFallback`.
"""

from __future__ import annotations

from .fallback import GhostFallback, GhostRaces
from .service import Matchmaker, Waiter

__all__ = ["GhostFallback", "GhostRaces", "Matchmaker", "Waiter"]
