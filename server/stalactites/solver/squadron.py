"""Squadron, searched on a best-effort basis within a state or time budget.

The search knows the stock order (it runs on the server).  No single method wins every deal
soon: a depth-first search (``squadron_depth``) wins most deals within a few thousand
positions but can spend any budget below one bad early choice, and a best-first search
(``squadron_best``) under each of three rankings wins many of those at once but stalls on
others.  So the search runs them in turn, each from scratch with a slice of the budget, the
slice doubling after every turn of all four, until one wins, the depth-first search proves the
position lost, or the budget is spent.  Restarting costs at most twice the work of the method
that wins, and a hard deal for one method is rarely hard for all of them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..engine import Move, Pile, PileKind, Squadron
from .result import Verdict
from .squadron_best import WEIGHTS, BestFirstSearch, Weights
from .squadron_board import (
    CELL_COLUMN,
    CELL_HOME,
    COLUMN_CELL,
    COLUMN_COLUMN,
    COLUMN_HOME,
    DEAL,
    WASTE_CELL,
    WASTE_COLUMN,
    WASTE_HOME,
    SearchMove,
)
from .squadron_depth import DepthFirstSearch

__all__ = ["DEFAULT_STATES", "SquadronSearch", "play_line"]

DEFAULT_STATES = 200_000
FIRST_SLICE = 2000  # positions for each method in the first turn
# A best-first expansion tries every move of a position and scores each child: it costs about
# as much time as this many depth-first positions, and counts as many against the budget.
EXPANSION_COST = 3
METHODS: tuple[Weights | None, ...] = (None, *WEIGHTS)  # None: the depth-first search


@dataclass(slots=True)
class SquadronSearch:
    """:meth:`run` answers won (``line`` holds the moves), lost, or unknown."""

    game: Squadron
    max_states: int | None = None
    seconds: float | None = None
    clock: Callable[[], float] = time.monotonic  # what ``seconds`` are measured on
    states: int = 0
    line: list[SearchMove] = field(default_factory=list)
    best: list[SearchMove] = field(default_factory=list)  # reaching the most cards home
    _best_home: int = -1

    def run(self) -> Verdict:
        budget = DEFAULT_STATES if self.max_states is None else self.max_states
        deadline = None if self.seconds is None else self.clock() + self.seconds
        share = FIRST_SLICE
        while True:
            for method in METHODS:
                left = min(share, budget - self.states)
                if left <= 0 or (deadline is not None and self.clock() > deadline):
                    return Verdict.UNKNOWN
                verdict = self._turn(method, left, deadline)
                if verdict is not Verdict.UNKNOWN:
                    return verdict
            share *= 2

    def _turn(self, method: Weights | None, states: int, deadline: float | None) -> Verdict:
        """One method with ``states`` positions; ``lost`` only from the depth-first search."""
        if method is None:
            depth = DepthFirstSearch(self.game, states, deadline, self.clock)
            verdict = depth.run()
            self.states += depth.states
            if depth.best_home > self._best_home:
                self._best_home, self.best = depth.best_home, depth.best
            self.line = depth.line
            return verdict
        best = BestFirstSearch(
            self.game, max(1, states // EXPANSION_COST), method, deadline, self.clock, False
        )
        verdict = best.run()
        self.states += best.states * EXPANSION_COST
        self.line = best.line
        return verdict if verdict is Verdict.WON else Verdict.UNKNOWN


_SOURCE = {
    DEAL: PileKind.STOCK,
    WASTE_HOME: PileKind.WASTE,
    WASTE_COLUMN: PileKind.WASTE,
    WASTE_CELL: PileKind.WASTE,
    CELL_HOME: PileKind.CELL,
    CELL_COLUMN: PileKind.CELL,
    COLUMN_HOME: PileKind.TABLEAU,
    COLUMN_CELL: PileKind.TABLEAU,
    COLUMN_COLUMN: PileKind.TABLEAU,
}


def play_line(game: Squadron, line: list[SearchMove]) -> list[Move]:
    """Push the engine moves of a search line onto ``game`` (the engine checks each one)."""
    return [game.push(_engine_move(game, move)) for move in line]


def _engine_move(game: Squadron, move: SearchMove) -> Move:
    kind, a, b, n = move
    src = Pile(_SOURCE[kind], a)
    if kind == DEAL:
        return Move(Pile(PileKind.STOCK), Pile(PileKind.WASTE))
    if kind in (WASTE_HOME, CELL_HOME, COLUMN_HOME):
        # Any foundation that takes the card will do; the engine says which do.
        for f in range(len(game.foundations)):
            home = Move(src, Pile(PileKind.FOUNDATION, f))
            if game.is_legal(home):
                return home
    if kind in (WASTE_CELL, COLUMN_CELL):
        return Move(src, Pile(PileKind.CELL, game.cells.index(None)))
    return Move(src, Pile(PileKind.TABLEAU, b), n)
