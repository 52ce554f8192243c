"""A compact, mutable Squadron position for the search: apply, retract, safe moves, key.

Cards are numbers (see ``squadron_rules``).  The two foundations of a suit are kept as a pair
of counts, larger first, since which of them holds which cards never matters.
"""

from __future__ import annotations

from ..engine import Squadron
from .squadron_rules import ABOVE, COLUMNS, FOUNDATION_ORDER, NONE, RANK, SUIT, card_id

__all__ = [
    "CELL_COLUMN",
    "CELL_HOME",
    "COLUMN_CELL",
    "COLUMN_COLUMN",
    "COLUMN_HOME",
    "DEAL",
    "FREE",
    "SearchMove",
    "SquadronPosition",
    "WASTE",
    "WASTE_CELL",
    "WASTE_COLUMN",
    "WASTE_HOME",
]

# A search move: (kind, a, b, n); a is the source column or cell, b the target column, n the
# number of cards.
SearchMove = tuple[int, int, int, int]
DEAL, WASTE_HOME, WASTE_COLUMN, WASTE_CELL = 0, 1, 2, 3
CELL_HOME, CELL_COLUMN, COLUMN_HOME, COLUMN_CELL, COLUMN_COLUMN = 4, 5, 6, 7, 8

# What must come next: FREE (anything), WASTE (a waste move or a deal), or a column number.
FREE, WASTE = -1, COLUMNS

TOTAL = 104


class SquadronPosition:
    """The position the search plays on; every change is undone by its inverse."""

    def __init__(self, game: Squadron) -> None:
        self.cols = [[card_id(c) for c in column] for column in game.tableau]
        self.cells = [NONE if c is None else card_id(c) for c in game.cells]
        self.stock = [card_id(c) for c in game.stock]  # the last is dealt next
        self.left = len(self.stock)  # stock cards not yet dealt
        self.waste = [card_id(c) for c in game.waste]
        self.fnd = [0] * 8  # per suit: the larger count, then the smaller
        for suit in range(4):
            counts = sorted(len(p) for p in game.foundations if p and p[0].suit == suit)
            counts = ([0, 0] + counts)[-2:]
            self.fnd[2 * suit], self.fnd[2 * suit + 1] = counts[1], counts[0]
        self.home = sum(self.fnd)
        self.colb = [b""] * COLUMNS
        self.runs = [0] * COLUMNS  # length of the same-suit run on top of each column
        for i in range(COLUMNS):
            self.set_column(i)
        self.homeable = [False] * len(RANK)  # the card goes on a foundation now
        self.safe = [False] * len(RANK)  # ... and nothing left in play could lie on it
        for suit in range(4):
            self.set_suit(suit)

    # Bookkeeping.

    def set_column(self, i: int) -> None:
        column = self.cols[i]
        self.colb[i] = bytes(column)
        n = 1 if column else 0
        while n < len(column) and ABOVE[column[-n]] == column[-n - 1]:
            n += 1
        self.runs[i] = n

    def set_suit(self, suit: int) -> None:
        larger, smaller = self.fnd[2 * suit], self.fnd[2 * suit + 1]
        order = FOUNDATION_ORDER[suit]
        for c in order:
            self.homeable[c] = self.safe[c] = False
        if smaller < len(order):
            # Both foundations hold every card below this one: nothing can lie on it.
            self.homeable[order[smaller]] = self.safe[order[smaller]] = True
        if larger < len(order):
            self.homeable[order[larger]] = True

    def key(self, constraint: int) -> bytes:
        """The position (columns as a multiset, cells as a set) plus what must come next.

        A column constraint is keyed by the column's place among the sorted columns (columns
        with equal cards are interchangeable), so the key never depends on the columns' order.
        The key is also a full snapshot: :meth:`restore` rebuilds the position from it."""
        columns = sorted(self.colb)
        if 0 <= constraint < COLUMNS:
            constraint = columns.index(self.colb[constraint])
        fixed = sorted(c + 1 for c in self.cells) + self.fnd + [self.left, constraint + 1]
        return b"\xff".join(columns) + b"\xfe" + bytes(fixed) + bytes(self.waste)

    def restore(self, key: bytes) -> int:
        """Set the position to the one ``key`` was made from (columns in sorted order, cells
        sorted) and return its constraint, as an index into the restored columns."""
        head, _, tail = key.partition(b"\xfe")
        self.cols = [list(column) for column in head.split(b"\xff")]
        cells = len(self.cells)
        self.cells = [c - 1 for c in tail[:cells]]
        self.fnd = list(tail[cells : cells + 8])
        self.left = tail[cells + 8]
        self.waste = list(tail[cells + 10 :])
        self.home = sum(self.fnd)
        for i in range(COLUMNS):
            self.set_column(i)
        for suit in range(4):
            self.set_suit(suit)
        return tail[cells + 9] - 1

    # Foundations.

    def put_home(self, c: int) -> None:
        suit, k = SUIT[c], RANK[c] - 1
        j = 2 * suit if self.fnd[2 * suit] == k else 2 * suit + 1
        self.fnd[j] += 1
        if self.fnd[2 * suit] < self.fnd[2 * suit + 1]:
            self.fnd[2 * suit], self.fnd[2 * suit + 1] = self.fnd[2 * suit + 1], self.fnd[2 * suit]
        self.home += 1
        self.set_suit(suit)

    def take_home(self, c: int) -> None:
        suit, k = SUIT[c], RANK[c] - 1
        j = 2 * suit if self.fnd[2 * suit] == k + 1 else 2 * suit + 1
        self.fnd[j] -= 1
        if self.fnd[2 * suit] < self.fnd[2 * suit + 1]:
            self.fnd[2 * suit], self.fnd[2 * suit + 1] = self.fnd[2 * suit + 1], self.fnd[2 * suit]
        self.home -= 1
        self.set_suit(suit)

    # Moves.

    def apply(self, move: SearchMove) -> int:
        """Make a move; returns what :meth:`retract` needs: the card sent home, or the cell
        a card went to."""
        kind, a, b, n = move
        if kind == DEAL:
            self.left -= 1
            self.waste.append(self.stock[self.left])
            return 0
        if kind <= WASTE_CELL:
            c = self.waste.pop()
        elif kind <= CELL_COLUMN:
            c, self.cells[a] = self.cells[a], NONE
        elif kind == COLUMN_COLUMN:
            column = self.cols[a]
            self.cols[b].extend(column[len(column) - n :])
            del column[len(column) - n :]
            self.set_column(a)
            self.set_column(b)
            return 0
        else:
            c = self.cols[a].pop()
            self.set_column(a)
        return self._place(kind, c, b)

    def _place(self, kind: int, c: int, b: int) -> int:
        if kind in (WASTE_HOME, CELL_HOME, COLUMN_HOME):
            self.put_home(c)
            return c
        if kind in (WASTE_COLUMN, CELL_COLUMN):
            self.cols[b].append(c)
            self.set_column(b)
        else:
            j = self.cells.index(NONE)
            self.cells[j] = c
            return j
        return 0

    def retract(self, move: SearchMove, info: int) -> None:
        """Undo :meth:`apply` of ``move``, given what it returned."""
        kind, a, b, n = move
        if kind == DEAL:
            self.waste.pop()
            self.left += 1
            return
        if kind == COLUMN_COLUMN:
            column = self.cols[b]
            self.cols[a].extend(column[len(column) - n :])
            del column[len(column) - n :]
            self.set_column(a)
            self.set_column(b)
            return
        c = self._unplace(kind, b, info)
        if kind <= WASTE_CELL:
            self.waste.append(c)
        elif kind <= CELL_COLUMN:
            self.cells[a] = c
        else:
            self.cols[a].append(c)
            self.set_column(a)

    def _unplace(self, kind: int, b: int, info: int) -> int:
        if kind in (WASTE_HOME, CELL_HOME, COLUMN_HOME):
            self.take_home(info)
            return info
        if kind in (WASTE_COLUMN, CELL_COLUMN):
            c = self.cols[b].pop()
            self.set_column(b)
            return c
        c, self.cells[info] = self.cells[info], NONE
        return c

    def autoplay(self) -> list[SearchMove]:
        """Play every safe move, repeatedly; returns them in order, each with its card in ``b``."""
        played: list[SearchMove] = []
        found = True
        while found:
            found = False
            if self.waste and self.safe[self.waste[-1]]:
                c = self.waste.pop()
                played.append((WASTE_HOME, 0, c, 1))
                self.put_home(c)
                found = True
            for j, c in enumerate(self.cells):
                if c != NONE and self.safe[c]:
                    played.append((CELL_HOME, j, c, 1))
                    self.cells[j] = NONE
                    self.put_home(c)
                    found = True
            for i, column in enumerate(self.cols):
                if column and self.safe[column[-1]]:
                    c = column.pop()
                    played.append((COLUMN_HOME, i, c, 1))
                    self.put_home(c)
                    self.set_column(i)
                    found = True
        return played

    def undo_autoplay(self, played: list[SearchMove]) -> None:
        """Take back what :meth:`autoplay` played (each move carries its card in ``b``)."""
        for move in reversed(played):
            self.retract(move, move[2])
