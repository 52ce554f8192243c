"""Squadron, searched best first: the open position that looks nearest a win is expanded next.

Each position is kept as its key (``SquadronPosition.key`` is a full snapshot), with the
position it was reached from and the moves that led there, so a win is read back as a line.
The moves are those of ``squadron_moves`` with the same sound reductions as the depth-first
search (safe moves home at once, cells only when needed, columns and cells as multisets).  ``score``
ranks positions: cards home first, then few cards on the waste, free cells and empty columns,
and few cards lying on anything but the card they belong on (and, for some rankings, few
cards lying over a foundation's next card); among equal scores the newest position goes first.

It finds wins the depth-first search misses, since one bad early choice never holds it up; it
proves a position lost when every position reachable under those reductions was expanded
(``complete``: a column's last card may also go to a cell).
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import NamedTuple

from ..engine import Squadron
from .result import Verdict
from .squadron_board import (
    CELL_COLUMN,
    CELL_HOME,
    COLUMN_CELL,
    COLUMN_COLUMN,
    COLUMN_HOME,
    FREE,
    TOTAL,
    WASTE_COLUMN,
    SearchMove,
    SquadronPosition,
)
from .squadron_depth import finish
from .squadron_moves import candidate_moves, constraint_after
from .squadron_rules import ABOVE, COLUMNS, FOUNDATION_ORDER, NONE

__all__ = ["BRIEF_WEIGHTS", "WEIGHTS", "BestFirstSearch", "Weights", "score"]

CLOCK_EVERY = 64  # expansions between looks at the clock


class Weights(NamedTuple):
    """How much each feature of a position counts in its score (higher is better)."""

    home: int  # per card home
    dealt: int  # per card dealt from the stock
    waste: int  # per card on the waste (a penalty)
    breaks: int  # per card lying on anything but its successor (a penalty)
    free_cell: int
    empty_column: int
    # Per card lying over the card a foundation takes next, once per such foundation (a penalty).
    buried: int = 0


# Three rankings that each win deals the others miss (tried on hard deals of ms:1 ... ms:100).
WEIGHTS = (Weights(12, 2, 3, 2, 4, 6), Weights(12, 1, 6, 4, 4, 6), Weights(12, 3, 5, 4, 4, 6))
# Rankings that win, within a few thousand expansions, deals of ms:1 ... ms:1000 the three
# above leave undecided within 10 s; ``squadron`` gives each only a short budget.
BRIEF_WEIGHTS = (
    Weights(12, 2, 3, 2, 4, 6, 2),
    Weights(12, 1, 6, 4, 4, 6, 2),
    Weights(12, 3, 5, 4, 4, 6, 2),
    Weights(12, 0, 2, 1, 4, 6),
)

Edge = tuple[bytes, SearchMove, list[SearchMove]]  # from key, the move, the safe moves after


def score(board: SquadronPosition, w: Weights) -> int:
    """How near a win ``board`` looks: the larger the nearer."""
    breaks = buried = 0
    wanted = _wanted(board) if w.buried else {}
    for column in board.cols:
        for i in range(1, len(column)):
            if ABOVE[column[i]] != column[i - 1]:
                breaks += 1
        for i in range(len(column) - 1) if wanted else ():
            buried += wanted.get(column[i], 0) * (len(column) - 1 - i)
    empty = board.colb.count(b"")
    free = board.cells.count(NONE)
    return (
        w.home * board.home
        - w.dealt * board.left
        - w.waste * len(board.waste)
        - w.breaks * breaks
        + w.free_cell * free
        + w.empty_column * empty
        - w.buried * buried
    )


def _wanted(board: SquadronPosition) -> dict[int, int]:
    """Card -> how many foundations take it next."""
    wanted: dict[int, int] = {}
    for suit, order in enumerate(FOUNDATION_ORDER):
        for count in board.fnd[2 * suit : 2 * suit + 2]:
            if count < len(order):
                wanted[order[count]] = wanted.get(order[count], 0) + 1
    return wanted


@dataclass(slots=True)
class BestFirstSearch:
    """:meth:`run` answers won (``line`` holds the moves), lost, or unknown."""

    game: Squadron
    max_states: int
    weights: Weights = WEIGHTS[0]
    deadline: float | None = None  # on ``clock``
    clock: Callable[[], float] = time.monotonic
    complete: bool = True
    states: int = 0
    pause: int = 1 << 62  # :meth:`steps` pauses when ``states`` reaches it
    line: list[SearchMove] = field(default_factory=list)
    _parent: dict[bytes, Edge | None] = field(default_factory=dict)

    def run(self) -> Verdict:
        return finish(self.steps())

    def steps(self) -> Generator[None, None, Verdict]:
        """The search, pausing (yielding) whenever ``states`` reaches ``pause``; its return
        value is the verdict."""
        board = SquadronPosition(self.game)
        root_safe = board.autoplay()
        if board.home == TOTAL:
            self.line = root_safe
            return Verdict.WON
        root = board.key(FREE)
        self._parent = {root: None}
        heap: list[tuple[int, int, bytes]] = [(0, 0, root)]
        count = 0
        while heap:
            if self.states >= self.pause:
                yield
            if self._spent():
                return Verdict.UNKNOWN
            _, _, key = heapq.heappop(heap)
            won = self._expand(board, key, heap, count)
            if won is not None:
                self.line = root_safe + self._read_line(won)
                return Verdict.WON
            count += 1
        return Verdict.LOST if self.complete else Verdict.UNKNOWN

    def _spent(self) -> bool:
        if self.states >= self.max_states:
            return True
        if self.deadline is None or self.states % CLOCK_EVERY:
            return False
        return self.clock() > self.deadline

    def _expand(
        self, board: SquadronPosition, key: bytes, heap: list[tuple[int, int, bytes]], count: int
    ) -> list[Edge] | None:
        """Push every unseen child of ``key``; the edges to a win when a child is won."""
        self.states += 1
        constraint = board.restore(key)
        parent = self._parent
        for move in candidate_moves(board, constraint, self.complete):
            info = board.apply(move)
            safe = board.autoplay()
            if board.home == TOTAL:
                return self._edges(key) + [(key, move, safe)]
            after = constraint_after(board, move)
            child = board.key(after)
            if child not in parent and (after == FREE or board.key(FREE) not in parent):
                parent[child] = (key, move, safe)
                heapq.heappush(heap, (-score(board, self.weights), -len(parent), child))
            board.undo_autoplay(safe)
            board.retract(move, info)
        return None

    def _edges(self, key: bytes) -> list[Edge]:
        edges: list[Edge] = []
        edge = self._parent[key]
        while edge is not None:
            edges.append(edge)
            edge = self._parent[edge[0]]
        edges.reverse()
        return edges

    def _read_line(self, edges: list[Edge]) -> list[SearchMove]:
        """The edges' moves, renumbered from each edge's restored (sorted) position to the
        columns and cells of the game's own position."""
        actual = SquadronPosition(self.game)
        actual.autoplay()
        restored = SquadronPosition(self.game)
        line: list[SearchMove] = []
        for key, move, safe in edges:
            restored.restore(key)
            order = sorted(range(COLUMNS), key=actual.colb.__getitem__)
            for step in [move, *safe]:
                mine = _renumber(step, order, restored, actual)
                restored.apply(step)
                actual.apply(mine)
                line.append(mine)
        return line


def _renumber(
    move: SearchMove, order: list[int], restored: SquadronPosition, actual: SquadronPosition
) -> SearchMove:
    """``move`` on ``restored`` as the same move on ``actual`` (the same position, its columns
    in another order: restored column j is actual column ``order[j]``)."""
    kind, a, b, n = move
    if kind in (CELL_HOME, CELL_COLUMN):
        a = actual.cells.index(restored.cells[a])
    elif kind in (COLUMN_HOME, COLUMN_CELL, COLUMN_COLUMN):
        a = order[a]
    if kind in (WASTE_COLUMN, CELL_COLUMN, COLUMN_COLUMN):
        b = order[b]
    return (kind, a, b, n)
