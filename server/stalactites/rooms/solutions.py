"""A kept room's winning lines, found again by the solver.

A certified room's settings hold the solver's winning lines, which its view and record show
once the race is over.  A room kept for good is archived without them
(:mod:`stalactites.store.rooms.archive`: its settings say ``solution: null`` and the lines'
digest), since the search that certified the deal is exact and deterministic: the same
game, deal, step and state budget give the same lines.  :class:`Lines` runs that search
again, in the process's solver pool (a Squadron line can take a third of a second: off the
event loop, as other solver work), when a process first reads the room; the room service
keeps the settings it gives with the others it holds, and readers of one room at once share
one search.  Lines whose digest is not the published one (a later solver that finds another
line) are still winning lines and are served, with a warning in the log.
"""

from __future__ import annotations

import asyncio
import logging

from ..engine import GameName
from ..solver import certify
from ..solver.certify import PICK_SQUADRON_STATES
from ..store.rooms.archive import lines_digest
from ..workers import SolverPool
from .settings import RoomSettings

__all__ = ["Lines", "certified_lines"]

log = logging.getLogger(__name__)

Found = dict[str, list[str]] | None


def certified_lines(game: str, deal: str, step: str | None) -> Found:
    """The lines certifying ``deal``, found as when it was picked (run in a solver worker)."""
    budget = PICK_SQUADRON_STATES if game == GameName.SQUADRON else None
    certificate = certify(game, deal, step or "choice", budget)
    if certificate is None:
        return None
    return {name: list(moves) for name, moves in certificate.lines.items()}


class Lines:
    """Kept rooms' lines found again in ``pool``, one search at a time per deal."""

    def __init__(self, pool: SolverPool) -> None:
        self._pool = pool
        self._searching: dict[tuple[str, str, str | None], asyncio.Future[Found]] = {}

    async def restored(self, settings: RoomSettings) -> RoomSettings:
        """``settings`` with their winning lines again if the archive dropped them, else as
        they are (and without lines if the search fails: the room is served all the same)."""
        if settings.solution is not None or settings.solution_digest is None:
            return settings
        key = (settings.game, settings.deal, settings.step)
        search = self._searching.get(key)
        if search is None:
            search = asyncio.ensure_future(self._pool.run(certified_lines, *key))
            self._searching[key] = search
            search.add_done_callback(lambda done: self._searched(key, done))
        try:
            lines = await asyncio.shield(search)
        except Exception:
            log.exception("deal %s: its winning lines could not be found again", settings.deal)
            return settings
        if lines is None or lines_digest(lines) != settings.solution_digest:
            log.warning("deal %s: the solver's lines now differ from those published", key[1])
        return settings.model_copy(update={"solution": lines})

    def _searched(self, key: tuple[str, str, str | None], done: asyncio.Future[Found]) -> None:
        """A search is over: the next reader of that deal searches anew (its failure, if
        every reader waiting for it had gone, is seen here: logged by them otherwise)."""
        self._searching.pop(key, None)
        if not done.cancelled():
            done.exception()
