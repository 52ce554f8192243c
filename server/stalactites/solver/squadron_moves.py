"""The moves the Squadron search tries from a position, best first.

Priorities (higher first) encode a plain player's sense: cards home first, then building on
columns from the cells and the waste, then emptying a column, then runs onto other columns,
then the moves that spend room (empty columns, cells), and dealing from the stock last.
"""

from __future__ import annotations

from .squadron_board import (
    CELL_COLUMN,
    CELL_HOME,
    COLUMN_CELL,
    COLUMN_COLUMN,
    COLUMN_HOME,
    DEAL,
    FREE,
    WASTE,
    WASTE_CELL,
    WASTE_COLUMN,
    WASTE_HOME,
    SearchMove,
    SquadronPosition,
)
from .squadron_rules import ABOVE, CAPACITY, COLUMNS, NONE, SUIT

__all__ = ["PRIORITY", "candidate_moves", "constraint_after", "footprint", "independent"]

PRIORITY = {
    "waste home": 100,
    "cell home": 95,
    "column home": 90,
    "cell on column": 85,
    "waste on column": 80,
    "run empties column": 75,
    "run on column": 60,
    "cell to empty": 45,
    "waste to empty": 40,
    "run to empty": 35,
    "to cell, column of two": 25,
    "waste to cell": 20,
    "to cell": 15,
    "part of run on column": 10,
    "part of run to empty": 5,
    "last card to cell": 3,
    "deal": 1,
}
_P = PRIORITY


class _Bucket:
    """Moves grouped by priority."""

    __slots__ = ("groups",)

    def __init__(self) -> None:
        self.groups: dict[int, list[SearchMove]] = {}

    def add(self, priority: int, move: SearchMove) -> None:
        group = self.groups.get(priority)
        if group is None:
            self.groups[priority] = [move]
        else:
            group.append(move)

    def ordered(self) -> list[SearchMove]:
        moves: list[SearchMove] = []
        for priority in sorted(self.groups, reverse=True):
            moves += self.groups[priority]
        return moves


def candidate_moves(
    board: SquadronPosition, constraint: int, complete: bool = True
) -> list[SearchMove]:
    """Every move worth trying, best first.  ``constraint`` (see ``squadron_board``) limits
    them to moves from the waste or deals (WASTE), or to moves from or onto one column.
    Without ``complete``, a column's last card is never put in a cell (rarely useful, and
    costly to try everywhere): such a search may miss wins and proves nothing lost."""
    bucket = _Bucket()
    tops: dict[int, list[int]] = {}
    empty = 0
    first_empty = -1
    for k, column in enumerate(board.cols):
        if column:
            tops.setdefault(column[-1], []).append(k)
        else:
            empty += 1
            if first_empty < 0:
                first_empty = k
    _waste_moves(board, bucket, tops, first_empty, constraint)
    if constraint == WASTE:
        return bucket.ordered()
    _cell_moves(board, bucket, tops, first_empty, constraint)
    _column_moves(board, bucket, tops, (empty, first_empty, complete), constraint)
    return bucket.ordered()


def _waste_moves(
    board: SquadronPosition, bucket: _Bucket, tops: dict[int, list[int]], first: int, only: int
) -> None:
    """Moves from the waste, and the deal; under a column constraint only onto that column."""
    free = only in (FREE, WASTE)
    if board.waste:
        c = board.waste[-1]
        if free and board.homeable[c]:
            bucket.add(_P["waste home"], (WASTE_HOME, 0, 0, 1))
        for k in tops.get(ABOVE[c], ()):
            if free or k == only:
                bucket.add(_P["waste on column"], (WASTE_COLUMN, 0, k, 1))
        if free and first >= 0:
            bucket.add(_P["waste to empty"], (WASTE_COLUMN, 0, first, 1))
        if free and NONE in board.cells:
            bucket.add(_P["waste to cell"], (WASTE_CELL, 0, 0, 1))
    if free and board.left:
        bucket.add(_P["deal"], (DEAL, 0, 0, 1))


def _cell_moves(
    board: SquadronPosition, bucket: _Bucket, tops: dict[int, list[int]], first: int, only: int
) -> None:
    tried: list[int] = []
    for j, c in enumerate(board.cells):
        if c == NONE or c in tried:
            continue
        tried.append(c)
        if only == FREE and board.homeable[c]:
            bucket.add(_P["cell home"], (CELL_HOME, j, 0, 1))
        for k in tops.get(ABOVE[c], ()):
            if only in (FREE, k):
                bucket.add(_P["cell on column"], (CELL_COLUMN, j, k, 1))
        if first >= 0 and only in (FREE, first):
            bucket.add(_P["cell to empty"], (CELL_COLUMN, j, first, 1))


def _column_moves(
    board: SquadronPosition,
    bucket: _Bucket,
    tops: dict[int, list[int]],
    room: tuple[int, int, bool],
    only: int,
) -> None:
    empty, first, complete = room
    free = board.cells.count(NONE)
    reach = CAPACITY[free][empty]  # onto a card
    reach_empty = CAPACITY[free][empty - 1] if empty else 0  # into an empty column
    for i, column in enumerate(board.cols):
        if not column:
            continue
        run = board.runs[i]
        if only in (FREE, i):
            c = column[-1]
            if board.homeable[c]:
                bucket.add(_P["column home"], (COLUMN_HOME, i, 0, 1))
            if free and (complete or len(column) > 1):
                bucket.add(_cell_priority(len(column)), (COLUMN_CELL, i, 0, 1))
        for n in range(1, min(run, reach) + 1):
            for k in tops.get(ABOVE[column[-n]], ()):
                if k != i and only in (FREE, i, k):
                    bucket.add(_run_priority(n, run, len(column)), (COLUMN_COLUMN, i, k, n))
        if first >= 0 and run < len(column) and only in (FREE, i, first):
            for n in range(min(run, reach_empty), 0, -1):
                priority = _P["run to empty"] if n == run else _P["part of run to empty"]
                bucket.add(priority, (COLUMN_COLUMN, i, first, n))


def _cell_priority(height: int) -> int:
    if height == 1:
        return _P["last card to cell"]
    return _P["to cell, column of two"] if height == 2 else _P["to cell"]


def _run_priority(n: int, run: int, height: int) -> int:
    if n == height:
        return _P["run empties column"]
    return _P["run on column"] if n == run else _P["part of run on column"]


def constraint_after(board: SquadronPosition, move: SearchMove) -> int:
    """What the next move must involve after ``move`` (see ``squadron_board``): a waste card
    put in a cell, the waste (or a deal); a column's card put in a cell, that column."""
    if move[0] == WASTE_CELL:
        return WASTE
    if move[0] == COLUMN_CELL and board.cols[move[1]]:
        return move[1]
    return FREE


# A move's footprint: a bit per column it takes from or puts on, one for the waste and stock,
# one for the cells, one per suit's foundations; ROOM_CHANGE when it changes the free cells
# or empty columns, ROOM_USE when it carries more than one card (its limit depends on them).
_WASTE_BIT = 1 << COLUMNS
_CELLS_BIT = _WASTE_BIT << 1
_SUIT_BIT = _CELLS_BIT << 1
ROOM_CHANGE = _SUIT_BIT << 4
ROOM_USE = ROOM_CHANGE << 1
_PILES = ROOM_CHANGE - 1


def footprint(board: SquadronPosition, move: SearchMove) -> int:
    """What ``move`` touches on ``board`` (before it is made): see :func:`independent`."""
    kind, a, b, n = move
    if kind == DEAL:
        return _WASTE_BIT
    if kind <= WASTE_CELL:
        bits, c = _WASTE_BIT, board.waste[-1]
    elif kind <= CELL_COLUMN:
        bits, c = _CELLS_BIT | ROOM_CHANGE, board.cells[a]
    else:
        column = board.cols[a]
        bits, c = 1 << a, column[-1]
        if n == len(column):
            bits |= ROOM_CHANGE
    if kind in (WASTE_HOME, CELL_HOME, COLUMN_HOME):
        return bits | (_SUIT_BIT << SUIT[c])
    if kind in (WASTE_CELL, COLUMN_CELL):
        return bits | _CELLS_BIT | ROOM_CHANGE
    bits |= 1 << b
    if not board.cols[b]:
        bits |= ROOM_CHANGE
    if n > 1:
        bits |= ROOM_USE
    return bits


def independent(first: int, second: int) -> bool:
    """Two moves with these footprints, both legal in one position, share no pile and neither
    changes the room the other's run needs: either order gives the same position."""
    if first & second & _PILES:
        return False
    if first & ROOM_CHANGE and second & ROOM_USE:
        return False
    return not (second & ROOM_CHANGE and first & ROOM_USE)
