"""Ghost races: a recorded run of another player, replayed by the server with its original
timing as a live opponent on the same certified deal.

:mod:`.runs` reads a run back from a finished room's record; :mod:`.service` chooses runs
(the index of :mod:`stalactites.store.ghosts.base`) and makes a ghost race's room; :mod:`.replay`
applies the ghost's actions as they fall due, from the store, by whichever process serves the
room (:mod:`stalactites.live.ghost_driver`).
"""

from .replay import GhostReplay
from .runs import RaceRun, ghost_seat, pool_of
from .service import GhostService, Matched

__all__ = ["GhostReplay", "GhostService", "Matched", "RaceRun", "ghost_seat", "pool_of"]
