"""Squadron, searched depth first within a state budget (one method of ``squadron``'s).

The search knows the stock order (it runs on the server).  It is a depth-first search with a
transposition table over a compact position (``squadron_board``), trying moves in the order of
``squadron_moves``, with three sound reductions proven in ``docs/solver.md``:

* a card that nothing still in play could lie on goes home at once (a "safe" move);
* a card put in a cell from a column (or the waste) is followed at once by a move that needed
  it gone: a move from or onto that column (or from the waste, or a deal);
* columns are compared as a multiset, cells as a set, and a suit's two foundations as a pair.

A plain depth-first search deals the whole stock early and then drowns in the endgame, so the
search runs in rounds: in a round each stock deal may spend at most ``stage`` states below it
before the search gives that deal up and tries the alternatives above it.  ``stage`` grows
fourfold each round until the budget is spent.  These rounds never put a column's last card in
a cell; if one of them gives up nothing, a last round with every move and no cap decides, and
only that round, when it also gives up nothing, may answer ``lost``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field

from ..engine import Squadron
from .result import Verdict
from .squadron_board import (
    DEAL,
    FREE,
    TOTAL,
    SearchMove,
    SquadronPosition,
)
from .squadron_moves import candidate_moves, constraint_after, footprint, independent

__all__ = ["DepthFirstSearch", "finish"]

FIRST_STAGE = 1000
STAGE_GROWTH = 4
CLOCK_EVERY = 256  # states between looks at the clock

OPEN, WON, FAIL, GAVE_UP = 0, 1, 2, 3
UNCAPPED = 1 << 62


@dataclass(slots=True)
class Frame:
    """A node on the search path: its safe moves, its moves, and the one being tried."""

    safe: list[SearchMove]
    moves: list[SearchMove]
    cap: int  # the state count past which this node gives up
    index: int = 0
    applied: SearchMove | None = None
    info: int = 0
    # Rounds without the rare moves only: the moves not to try here (each with its
    # footprint), and those tried here so far.
    sleep: list[tuple[SearchMove, int]] = field(default_factory=list)
    tried: list[tuple[SearchMove, int]] = field(default_factory=list)


@dataclass(slots=True)
class DepthFirstSearch:
    """:meth:`run` answers won (``line`` holds the moves), lost, or unknown."""

    game: Squadron
    max_states: int
    deadline: float | None = None  # on ``clock``
    clock: Callable[[], float] = time.monotonic
    states: int = 0
    line: list[SearchMove] = field(default_factory=list)
    best: list[SearchMove] = field(default_factory=list)  # reaching the most cards home
    best_home: int = -1
    pause: int = UNCAPPED  # :meth:`steps` pauses when ``states`` reaches it
    _budget: int = 0
    _gave_up: bool = False
    _complete: bool = True

    def run(self) -> Verdict:
        return finish(self.steps())

    def steps(self) -> Generator[None, None, Verdict]:
        """The search, pausing (yielding) whenever ``states`` reaches ``pause``; its return
        value is the verdict."""
        self._budget = self.max_states
        stage = FIRST_STAGE
        while True:
            result = yield from self._round(stage, complete=False)
            if result == WON:
                return Verdict.WON
            if result == FAIL and not self._gave_up:
                break  # exhausted without the rare moves: the complete search decides
            if self._spent():
                return Verdict.UNKNOWN
            stage *= STAGE_GROWTH
        result = yield from self._round(UNCAPPED, complete=True)
        if result == WON:
            return Verdict.WON
        return Verdict.LOST if result == FAIL and not self._gave_up else Verdict.UNKNOWN

    def _spent(self) -> bool:
        if self.states >= self._budget:
            return True
        return self.deadline is not None and self.clock() > self.deadline

    def _round(self, stage: int, complete: bool) -> Generator[None, None, int]:
        """One depth-first search in which each deal may spend ``stage`` states below it."""
        board = SquadronPosition(self.game)
        self._gave_up, self._complete = False, complete
        seen: set[bytes] = set()
        stack: list[Frame] = []
        result = self._enter(board, seen, stack, FREE, UNCAPPED)
        while stack and result != WON:
            if self.states >= self.pause:
                yield
            frame = stack[-1]
            if frame.applied is not None:
                result = self._returned(board, frame, result)
                if result == GAVE_UP:
                    _close(board, stack)
                    continue
            if self.states > frame.cap or self._out_of_budget():
                result = GAVE_UP
                _close(board, stack)
            elif frame.index == len(frame.moves):
                result = FAIL
                _close(board, stack)
            else:
                result = self._descend(board, seen, stack, frame, stage)
        if result == WON:
            self.line = _line(stack)
        return result

    def _returned(self, board: SquadronPosition, frame: Frame, result: int) -> int:
        """Take back the move a child was searched under; a deal whose own stage ran out
        counts as a failure (and the round is then no longer exhaustive)."""
        move, frame.applied = frame.applied, None
        assert move is not None
        board.retract(move, frame.info)
        if result == GAVE_UP and move[0] == DEAL and self.states <= frame.cap:
            if not self._out_of_budget():
                self._gave_up = True
                return FAIL
        return result

    def _descend(
        self,
        board: SquadronPosition,
        seen: set[bytes],
        stack: list[Frame],
        frame: Frame,
        stage: int,
    ) -> int:
        move = frame.moves[frame.index]
        frame.index += 1
        sleep: list[tuple[SearchMove, int]] = []
        if not self._complete:
            if frame.sleep and any(move == other for other, _ in frame.sleep):
                return FAIL
            mark = footprint(board, move)
            sleep = [(m, f) for m, f in frame.sleep + frame.tried if independent(f, mark)]
        frame.info = board.apply(move)
        frame.applied = move
        constraint = constraint_after(board, move)
        if not self._complete and constraint == FREE:
            # A move that constrains the next one never sleeps: the positions after it
            # were searched only under its constraint.
            frame.tried.append((move, mark))
        cap = frame.cap
        if move[0] == DEAL:
            cap = min(cap, self.states + stage)
        return self._enter(board, seen, stack, constraint, cap, sleep)

    def _enter(
        self,
        board: SquadronPosition,
        seen: set[bytes],
        stack: list[Frame],
        constraint: int,
        cap: int,
        sleep: list[tuple[SearchMove, int]] | None = None,
    ) -> int:
        """Open a node: play its safe moves, then push it unless it is won or already seen."""
        safe = board.autoplay()
        if board.home == TOTAL:
            stack.append(Frame(safe, [], cap))
            return WON
        key = board.key(constraint)
        if key in seen or (constraint != FREE and board.key(FREE) in seen):
            board.undo_autoplay(safe)
            return FAIL
        seen.add(key)
        self.states += 1
        if board.home > self.best_home:
            self.best_home = board.home
            self.best = _line(stack) + safe
        frame = Frame(safe, candidate_moves(board, constraint, self._complete), cap)
        if sleep and not safe:
            frame.sleep = sleep
        stack.append(frame)
        return OPEN

    def _out_of_budget(self) -> bool:
        if self.states > self._budget:
            return True
        if self.deadline is None or self.states % CLOCK_EVERY:
            return False
        return self.clock() > self.deadline


def finish(steps: Generator[None, None, Verdict]) -> Verdict:
    """Run a search's :meth:`steps` through all its pauses; its verdict."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            verdict: Verdict = stop.value
            return verdict


def _close(board: SquadronPosition, stack: list[Frame]) -> None:
    frame = stack.pop()
    board.undo_autoplay(frame.safe)


def _line(stack: list[Frame]) -> list[SearchMove]:
    line: list[SearchMove] = []
    for frame in stack:
        line += frame.safe
        if frame.applied is not None:
            line.append(frame.applied)
    return line
