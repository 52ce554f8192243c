"""Fewest moves for a Stalactites deal: a search that minimises parks.

Every win makes the same foundation plays (every card not dealt to a foundation goes home
once), and one more move per card parked in a cell, so the fewest moves of any win is the
foundation plays plus the fewest parks.  :class:`ParkSearch` deepens a park budget from 0:
the first budget that admits a win is the fewest.  It keeps the solver's reductions that
never add a park (``docs/solver.md``: cells only on the way down, one foundation per rank,
a column card every foundation wanting its rank wants now), not the forced cell play, whose
proof may park a card the line did not.  Each budget's depth-first search remembers, per
key, the largest budget it failed with, and skips keys the run's searches proved lost.  Past
its time budget it stops, and the best line known (the solver's) is an upper bound.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..solver.stalactites import OutOfStates, StalactitesPosition, StalactitesSearch
from .known import Step4

__all__ = ["DEFAULT_SECONDS", "Fewest", "ParkSearch", "parks"]

DEFAULT_SECONDS = 2.0  # the park search's budget (CPU time) for a deal


@dataclass(frozen=True, slots=True)
class Fewest:
    """The fewest parks found, the line (search plays) that makes them, and whether proven."""

    parks: int
    path: tuple[Step4, ...]
    exact: bool


def parks(path: tuple[Step4, ...] | list[Step4]) -> int:
    return sum(play[1] for play in path)


class ParkSearch(StalactitesSearch):
    """Iterative deepening on the number of parks, from ``board`` (a won position)."""

    def __init__(
        self, board: StalactitesPosition, lost: set[int], seconds: float = DEFAULT_SECONDS
    ) -> None:
        super().__init__(board)
        self.lost = lost
        self.deadline = time.process_time() + seconds
        self.nodes = 0
        self._failed: dict[int, int] = {}  # key -> the largest park budget it failed with

    def fewest(self, known: tuple[Step4, ...]) -> Fewest:
        """The fewest parks, given ``known``: a winning line from the board."""
        upper = parks(known)
        start, home = self.board.key(), sum(self.board.counts)
        try:
            for budget in range(upper):
                path: list[Step4] = []
                if self._within(start, home, budget, path):
                    return Fewest(budget, tuple(path), True)
        except OutOfStates:
            return Fewest(upper, known, False)
        return Fewest(upper, known, True)

    def _within(self, key: int, home: int, budget: int, path: list[Step4]) -> bool:
        board = self.board
        if home == board.cards:
            return True
        if key in self.lost or self._failed.get(key, -1) >= budget:
            return False
        self.nodes += 1
        if not self.nodes & 1023 and time.process_time() > self.deadline:
            raise OutOfStates
        for play, child in self.children(key, self._plays(budget, forced_cell=False)):
            path.append(play)
            if self._within(child, home + 1, budget - play[1], path):
                return True
            path.pop()
        self._failed[key] = budget
        return False
