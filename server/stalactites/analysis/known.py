"""Stalactites verdicts that share what one search learnt with the next.

Every position of a run is a position of one deal, so a position's key (the solver's: column
heights and foundation counts, equal-base foundations in falling order) means the same board
whichever search meets it.  :class:`Known` keeps, per step, every key a search proved lost
and, for every key on a winning line, the rest of that line; a :class:`SharedSearch` stops at
any key already known, so a whole run costs about one solve of its deal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..engine import Stalactites
from ..engine.stalactites import Step
from ..solver.result import Verdict
from ..solver.stalactites import (
    COUNT_BITS,
    COUNT_SHIFT,
    HEIGHT_BITS,
    OutOfStates,
    StalactitesPosition,
    StalactitesSearch,
)

__all__ = ["Known", "SharedSearch", "path_keys", "steps_of"]

Step4 = tuple[int, int, int, int]


@dataclass
class Known:
    """What the searches of one deal and step have decided, by position key."""

    lost: set[int] = field(default_factory=set)
    won: dict[int, tuple[Step4, ...]] = field(default_factory=dict)  # key -> the rest of a win


def steps_of(game: Stalactites) -> list[Step]:
    """The steps a position may still be won by: the fixed one, or both while it is open."""
    return [game.step] if game.step is not None else [Step.ONES, Step.TWOS]


def path_keys(key: int, path: list[Step4] | tuple[Step4, ...]) -> list[int]:
    """The keys along ``path`` from ``key``, the start's first (the end's not included)."""
    keys = []
    for column, depth, f, _ in path:
        keys.append(key)
        key += 1 << (COUNT_SHIFT + COUNT_BITS * f)
        if column >= 0:
            key -= (depth + 1) << (HEIGHT_BITS * column)
    return keys


class SharedSearch(StalactitesSearch):
    """The solver's exhaustive search, reading and growing a :class:`Known`.

    Past ``max_states`` new positions it answers unknown and adds nothing to ``known``."""

    def __init__(
        self, board: StalactitesPosition, known: Known, max_states: int | None = None
    ) -> None:
        super().__init__(board, max_states)
        self.known = known

    def run(self) -> Verdict:
        board, known = self.board, self.known
        start = board.key()
        seen: set[int] = set()
        path: list[Step4] = []
        try:
            won = self._shared_dfs(seen, path)(start, sum(board.counts))
        except OutOfStates:
            return Verdict.UNKNOWN
        finally:
            self.states = len(seen)
        if not won:
            known.lost |= seen
            return Verdict.LOST
        keys = path_keys(start, path)
        for index, key in enumerate(keys):
            known.won.setdefault(key, tuple(path[index:]))
        known.lost |= seen - set(keys)
        self._best = path
        self.plays = self._engine_plays(path)
        return Verdict.WON

    def _shared_dfs(self, seen: set[int], path: list[Step4]) -> Callable[[int, int], bool]:
        board, lost, wins, limit = self.board, self.known.lost, self.known.won, self.max_states
        total, plays_here, children = board.cards, self._plays, self.children

        def dfs(key: int, home: int) -> bool:
            if home == total:
                return True
            if key in seen or key in lost:
                return False
            rest = wins.get(key)
            if rest is not None:
                path.extend(rest)
                return True
            seen.add(key)
            if limit is not None and len(seen) > limit:
                raise OutOfStates
            for play, child in children(key, plays_here()):
                path.append(play)
                if dfs(child, home + 1):
                    return True
                path.pop()
            return False

        return dfs
