"""Squadron, searched on a best-effort basis within a state or time budget.

The search knows the stock order (it runs on the server).  No single method wins every deal
soon: a depth-first search (``squadron_depth``) wins most deals within a few thousand
positions but can spend any budget below one bad early choice, and a best-first search
(``squadron_best``) under each of several rankings wins many of those at once but stalls on
others.  So they run side by side, taking turns (every search pauses and resumes where it
was), until one wins, the depth-first search proves the position lost, or the budget is spent.
The depth-first search has a quarter of the time, the rankings share the rest: the three of
``WEIGHTS`` throughout, the four of ``BRIEF_WEIGHTS`` only for their first ``BRIEF_STATES``
positions (their wins come early or not at all).  A deal hard for one method is rarely hard
for all of them.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field

from ..engine import Move, Pile, PileKind, Squadron
from .result import Verdict
from .squadron_best import BRIEF_WEIGHTS, WEIGHTS, BestFirstSearch
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
SLICE = 1000  # positions per turn
# A best-first expansion tries every move of a position and scores each child: it costs about
# as much time as this many depth-first positions, and counts as many against the budget.
EXPANSION_COST = 3
# Each ranking of BRIEF_WEIGHTS runs until it has spent this many positions (counted as the
# budget counts them), or a twentieth of the budget if that is less, then stops: its wins
# come early or not at all, and the searches that run throughout get the rest.
BRIEF_STATES = 45_000
BRIEF_SHARE = 20

Search = DepthFirstSearch | BestFirstSearch


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
    # Which search decided: 0 depth first, then best first by each of WEIGHTS + BRIEF_WEIGHTS.
    decider: int = -1

    def run(self) -> Verdict:
        budget = DEFAULT_STATES if self.max_states is None else self.max_states
        deadline = None if self.seconds is None else self.clock() + self.seconds
        depth = DepthFirstSearch(self.game, budget, deadline, self.clock)
        searches: list[Search] = [depth]
        for weights in WEIGHTS:
            cap = max(1, budget // EXPANSION_COST)
            searches.append(BestFirstSearch(self.game, cap, weights, deadline, self.clock, False))
        brief = max(1, min(BRIEF_STATES, budget // BRIEF_SHARE) // EXPANSION_COST)
        for weights in BRIEF_WEIGHTS:
            searches.append(BestFirstSearch(self.game, brief, weights, deadline, self.clock, False))
        # The searches make no reference cycles: the cycle collector, which would otherwise
        # walk their millions of keys and edges again and again, waits until they are done.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._turns(searches, budget, deadline)
        finally:
            self.best = depth.best
            if collecting:
                gc.enable()

    def _turns(self, searches: list[Search], budget: int, deadline: float | None) -> Verdict:
        running = [(search, search.steps()) for search in searches]
        while running:
            # The depth-first search's turn is SLICE; the best-first rankings share
            # len(WEIGHTS) turns of SLICE, so the brief ones take no time from it.
            rankings = sum(not isinstance(search, DepthFirstSearch) for search, _ in running)
            for entry in list(running):
                search, steps = entry
                cost, turn = 1, SLICE
                if not isinstance(search, DepthFirstSearch):
                    cost, turn = EXPANSION_COST, SLICE * len(WEIGHTS) // rankings
                search.pause = search.states + max(1, min(turn, budget - self.states) // cost)
                verdict = _resume(steps)
                self.states = sum(_cost(s) for s in searches)
                if verdict is Verdict.WON or (verdict is Verdict.LOST and cost == 1):
                    self.line = search.line
                    self.decider = searches.index(search)
                    return verdict
                if verdict is not None:
                    running.remove(entry)  # out of budget, or exhausted proving nothing
                if self.states >= budget or (deadline is not None and self.clock() > deadline):
                    return Verdict.UNKNOWN
        return Verdict.UNKNOWN


def _resume(steps: Generator[None, None, Verdict]) -> Verdict | None:
    """Run a search to its next pause (None) or to its end (its verdict)."""
    try:
        next(steps)
    except StopIteration as stop:
        verdict: Verdict = stop.value
        return verdict
    return None


def _cost(search: Search) -> int:
    return search.states * (1 if isinstance(search, DepthFirstSearch) else EXPANSION_COST)


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
