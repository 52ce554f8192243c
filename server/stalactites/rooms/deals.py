"""Deals the server picks: certified winnable by the solver.

The solver's search runs in a thread, so that picking a Squadron deal (which
can take a second) never holds up the event loop.  The certificate's winning
lines stay with the room and are shown once the race is over.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from ..solver import pick

__all__ = ["ChosenDeal", "pick_deal"]


@dataclass(frozen=True, slots=True)
class ChosenDeal:
    deal: str
    certified: bool
    solution: dict[str, list[str]] | None


async def pick_deal(game: str, step: str | None) -> ChosenDeal:
    """One certified deal for a new room (for Stalactites under ``choice``: won by both steps)."""
    (certificate,) = await asyncio.to_thread(pick, game, 1, None, step or "choice")
    lines = {str(name): [str(move) for move in moves] for name, moves in certificate.lines.items()}
    return ChosenDeal(str(certificate.deal), True, lines)
