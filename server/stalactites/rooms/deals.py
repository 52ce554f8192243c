"""Deals the server picks: certified winnable by the solver.

The solver's search runs in a worker process of the process's :class:`SolverPool`, so that
picking a Squadron deal (which can take a second) never holds up the event loop.  The
certificate's winning lines stay with the room and are shown once the race is over.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..solver import pick
from ..workers import SolverPool

__all__ = ["ChosenDeal", "certified_deal", "pick_deal"]


@dataclass(frozen=True, slots=True)
class ChosenDeal:
    deal: str
    certified: bool
    solution: dict[str, list[str]] | None


def certified_deal(game: str, step: str | None) -> tuple[str, dict[str, list[str]]]:
    """One certified deal and its lines (run in a worker: plain, picklable values)."""
    (certificate,) = pick(game, 1, None, step or "choice")
    lines = {str(name): [str(move) for move in moves] for name, moves in certificate.lines.items()}
    return str(certificate.deal), lines


async def pick_deal(pool: SolverPool, game: str, step: str | None) -> ChosenDeal:
    """One certified deal for a new room (for Stalactites under ``choice``: won by both steps)."""
    deal, lines = await pool.run(certified_deal, game, step)
    return ChosenDeal(deal, True, lines)
