"""Squadron: two decks, eight foundations, ten columns, three cells, a one-pass stock.

Foundations start from any Ace and build up in suit to the King.  Columns build
down in suit, and any card fills an empty column.  Cells hold one card each;
a cell card goes to a foundation or a column, never to another cell.  A
same-suit run moves as one supermove when it fits the free cells and empty
columns.  The stock is dealt one card at a time onto the waste, once.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .cards import Card, Move, Pile, PileKind, Rank, card
from .deals import DealId
from .errors import IllegalMoveError
from .game import Game, cards_json, slot_json

__all__ = ["Squadron", "run_capacity"]

COLUMNS = 10
CELLS = 3
FOUNDATIONS = 8
ROWS = 4
SUIT_ORDER = (0, 3, 2, 1)  # clubs, spades, hearts, diamonds: the order of the ms deck

_STOCK = Pile(PileKind.STOCK)
_WASTE = Pile(PileKind.WASTE)
_DEAL = Move(_STOCK, _WASTE)
_T = [Pile(PileKind.TABLEAU, i) for i in range(COLUMNS)]
_C = [Pile(PileKind.CELL, i) for i in range(CELLS)]
_F = [Pile(PileKind.FOUNDATION, i) for i in range(FOUNDATIONS)]
LONGEST_RUN = 13  # King down to Ace

# Every move the generator can answer, built once: by source (columns, then cells, then the
# waste) and destination index, and column-to-column runs by length.
_SOURCES = [*_T, *_C, _WASTE]
_WASTE_SOURCE = len(_SOURCES) - 1
_TO_F = [[Move(src, dst) for dst in _F] for src in _SOURCES]
_TO_T = [[Move(src, dst) for dst in _T] for src in _SOURCES]
_TO_C = [[Move(src, dst) for dst in _C] for src in _SOURCES]
_RUNS = [[[Move(src, dst, n) for n in range(1, LONGEST_RUN + 1)] for dst in _T] for src in _T]


def run_capacity(free_cells: int, empty_columns: int) -> int:
    """How many cards a supermove may carry: (free cells + 1) x 2^(empty columns)."""
    return (free_cells + 1) << empty_columns


def ms_deck() -> list[Card]:
    """Two decks, deck 1 then deck 2, each suit C S H D, each A..K."""
    return [card(rank, suit) for _ in range(2) for suit in SUIT_ORDER for rank in range(1, 14)]


def _follows(lower: Card, upper: Card) -> bool:
    """Whether ``lower`` may lie on ``upper`` in a column: same suit, one rank lower."""
    return lower.suit == upper.suit and lower.rank + 1 == upper.rank


def run_length(column: list[Card]) -> int:
    """How many cards on top of a column form a same-suit descending run."""
    n = 1 if column else 0
    while n < len(column) and _follows(column[-n], column[-n - 1]):
        n += 1
    return n


class Squadron(Game):
    """A game of Squadron."""

    name: ClassVar[str] = "squadron"
    card_count: ClassVar[int] = 104

    def __init__(self, deal: DealId | str) -> None:
        super().__init__(deal)
        deck = self.deal.shuffle(ms_deck())
        self.cells: list[Card | None] = [deck.pop() for _ in range(CELLS)]
        self.tableau: list[list[Card]] = [[] for _ in range(COLUMNS)]
        for k in range(COLUMNS * ROWS):
            self.tableau[k % COLUMNS].append(deck.pop())
        self.stock: list[Card] = deck  # its last card is dealt next
        self.waste: list[Card] = []
        self.foundations: list[list[Card]] = [[] for _ in range(FOUNDATIONS)]

    @property
    def step_name(self) -> str | None:
        return None

    # Legal moves.

    def _capacity(self, dst_empty: bool) -> int:
        free = self.cells.count(None)
        empty = sum(1 for column in self.tableau if not column) - dst_empty
        return run_capacity(free, empty)

    def _foundations_for(self, moving: Card) -> list[int]:
        """The foundations that take ``moving``: every empty one for an Ace."""
        if moving.rank == Rank.ACE:
            return [f for f, pile in enumerate(self.foundations) if not pile]
        return [f for f, pile in enumerate(self.foundations) if pile and _follows(pile[-1], moving)]

    def generate_legal_moves(self) -> list[Move]:
        moves: list[Move] = [_DEAL] if self.stock else []
        free = [j for j, held in enumerate(self.cells) if held is None]
        if self.waste:
            self._card_moves(_WASTE_SOURCE, self.waste[-1], free, moves)
        for j, held in enumerate(self.cells):
            if held is not None:
                self._card_moves(COLUMNS + j, held, [], moves)
        empty = sum(1 for column in self.tableau if not column)
        to_empty = run_capacity(len(free), empty - 1) if empty else 0
        to_filled = run_capacity(len(free), empty)
        for i, column in enumerate(self.tableau):
            if column:
                moves += [_TO_F[i][f] for f in self._foundations_for(column[-1])]
                moves += [_TO_C[i][j] for j in free]
                self._run_moves(i, column, (to_empty, to_filled), moves)
        return moves

    def _card_moves(self, source: int, moving: Card, free: list[int], moves: list[Move]) -> None:
        """Add the moves of one waste or cell card: to foundations, to columns, to free cells."""
        moves += [_TO_F[source][f] for f in self._foundations_for(moving)]
        moves += [
            _TO_T[source][k]
            for k, column in enumerate(self.tableau)
            if not column or _follows(moving, column[-1])
        ]
        moves += [_TO_C[source][j] for j in free]

    def _run_moves(
        self, i: int, column: list[Card], capacity: tuple[int, int], moves: list[Move]
    ) -> None:
        """Add the moves of column ``i``'s top run (one card or more) onto the other columns."""
        to_empty, to_filled = capacity
        run, lowest = run_length(column), column[-1]
        runs = _RUNS[i]
        for k, target in enumerate(self.tableau):
            if k == i:
                continue
            if not target:
                moves += runs[k][: min(run, to_empty)]
                continue
            top = target[-1]
            n = top.rank - lowest.rank  # the run's n-th card from the top goes onto ``top``
            if top.suit == lowest.suit and 1 <= n <= min(run, to_filled):
                moves.append(runs[k][n - 1])

    def check(self, move: Move) -> None:
        src, dst = move.src, move.dst
        text = repr(str(move))
        if src.kind is PileKind.STOCK or dst.kind is PileKind.STOCK:
            if move != _DEAL:
                raise IllegalMoveError(f"{text}: the stock is only ever dealt to the waste, 's-w'")
            if not self.stock:
                raise IllegalMoveError(f"{text}: the stock is empty (there is one pass only)")
            return
        moving = self._source_cards(move)
        if dst.kind is PileKind.FOUNDATION:
            self._check_foundation(move, moving[0])
        elif dst.kind is PileKind.CELL:
            self._check_cell(move)
        elif dst.kind is PileKind.TABLEAU:
            self._check_column(move, moving[0])
        else:
            raise IllegalMoveError(f"{text}: nothing is played onto the waste")

    def _source_cards(self, move: Move) -> list[Card]:
        """The cards a move would carry, bottom first; checks the source exists and holds them."""
        src, text = move.src, repr(str(move))
        if move.count > 1 and not (
            src.kind is PileKind.TABLEAU and move.dst.kind is PileKind.TABLEAU
        ):
            raise IllegalMoveError(f"{text}: only a column-to-column move carries a run")
        if src.kind is PileKind.WASTE:
            if not self.waste:
                raise IllegalMoveError(f"{text}: the waste is empty")
            return self.waste[-1:]
        if src.kind is PileKind.CELL and src.index < CELLS:
            held = self.cells[src.index]
            if held is None:
                raise IllegalMoveError(f"{text}: cell {src} is empty")
            return [held]
        if src.kind is PileKind.TABLEAU and src.index < COLUMNS:
            column = self.tableau[src.index]
            if len(column) < move.count:
                raise IllegalMoveError(f"{text}: column {src} has {len(column)} cards")
            if run_length(column) < move.count:
                raise IllegalMoveError(f"{text}: the top {move.count} cards of {src} are no run")
            return column[len(column) - move.count :]
        if src.kind is PileKind.FOUNDATION:
            raise IllegalMoveError(f"{text}: nothing leaves a foundation")
        raise IllegalMoveError(f"{text}: there is no pile {src}")

    def _check_foundation(self, move: Move, moving: Card) -> None:
        index, text = move.dst.index, repr(str(move))
        if index >= FOUNDATIONS:
            raise IllegalMoveError(f"{text}: there is no foundation {move.dst}")
        pile = self.foundations[index]
        if not pile and moving.rank != Rank.ACE:
            raise IllegalMoveError(f"{text}: an empty foundation takes only an Ace, not {moving}")
        if pile and not _follows(pile[-1], moving):
            raise IllegalMoveError(
                f"{text}: foundation {move.dst} builds up in suit from {pile[-1]}, not {moving}"
            )

    def _check_cell(self, move: Move) -> None:
        index, text = move.dst.index, repr(str(move))
        if move.src.kind is PileKind.CELL:
            raise IllegalMoveError(f"{text}: a cell card never goes to another cell")
        if index >= CELLS:
            raise IllegalMoveError(f"{text}: there is no cell {move.dst}")
        if self.cells[index] is not None:
            raise IllegalMoveError(f"{text}: cell {move.dst} is full")

    def _check_column(self, move: Move, moving: Card) -> None:
        index, text = move.dst.index, repr(str(move))
        if index >= COLUMNS:
            raise IllegalMoveError(f"{text}: there is no column {move.dst}")
        if move.src == move.dst:
            raise IllegalMoveError(f"{text}: a move goes to another pile")
        target = self.tableau[index]
        if target and not _follows(moving, target[-1]):
            raise IllegalMoveError(
                f"{text}: {moving} does not go on {target[-1]} (down by one in the same suit)"
            )
        if move.count > 1:
            capacity = self._capacity(not target)
            if move.count > capacity:
                raise IllegalMoveError(
                    f"{text}: a run of {move.count} needs room; free cells and empty columns "
                    f"allow {capacity}"
                )

    # Applying and taking back.

    def _pile(self, pile: Pile) -> list[Card]:
        if pile.kind is PileKind.TABLEAU:
            return self.tableau[pile.index]
        if pile.kind is PileKind.FOUNDATION:
            return self.foundations[pile.index]
        if pile.kind is PileKind.WASTE:
            return self.waste
        return self.stock

    def _apply(self, move: Move) -> None:
        self._transfer(move.src, move.dst, move.count)

    def _revert(self) -> Move:
        move = self.move_stack[-1]
        self._transfer(move.dst, move.src, move.count)
        return move

    def _transfer(self, src: Pile, dst: Pile, count: int) -> None:
        moving: list[Card]
        if src.kind is PileKind.CELL:
            held = self.cells[src.index]
            assert held is not None
            moving, self.cells[src.index] = [held], None
        else:
            source = self._pile(src)
            moving = source[len(source) - count :]
            del source[len(source) - count :]
        if dst.kind is PileKind.CELL:
            self.cells[dst.index] = moving[0]
        else:
            self._pile(dst).extend(moving)

    def can_pop(self) -> bool:
        return bool(self.move_stack) and self.move_stack[-1] != _DEAL

    # Views.

    @property
    def foundation_cards(self) -> int:
        return sum(len(pile) for pile in self.foundations)

    def key(self) -> tuple[Any, ...]:
        return (
            tuple(tuple(column) for column in self.tableau),
            tuple(self.cells),
            tuple(pile[-1] if pile else None for pile in self.foundations),
            len(self.stock),
            tuple(self.waste),
        )

    def state(self) -> dict[str, Any]:
        return {
            "game": self.name,
            "deal": str(self.deal),
            "foundations": [cards_json(pile) for pile in self.foundations],
            "cells": slot_json(self.cells),
            "tableau": [cards_json(column) for column in self.tableau],
            "waste": cards_json(self.waste),
            "stock_count": len(self.stock),
        }

    def __repr__(self) -> str:
        return f"<Squadron {self.deal} moves={len(self.move_stack)}>"
