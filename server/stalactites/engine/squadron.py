"""Squadron: two decks, eight foundations, ten columns, three cells, a one-pass stock.

Foundations start from any Ace and build up in suit to the King.  Columns build
down in suit, and any card fills an empty column.  Cells hold one card each;
a cell card goes to a foundation or a column, never to another cell.  A
same-suit run moves as one supermove when it fits the free cells and empty
columns.  The stock is dealt one card at a time onto the waste, once.
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from .cards import Card, Move, Pile, PileKind, Rank, Suit, card
from .deals import DealId
from .errors import IllegalMoveError
from .game import Game, GameName, cards_json, slot_json

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


Spot = tuple[int, int]  # a card's suit and rank


class _Reach(NamedTuple):
    """Where cards may go: by the suit and rank of the card, or to any empty pile."""

    homes: dict[Spot, list[int]]  # the foundations that take a card of this suit and rank
    tops: dict[Spot, list[int]]  # the columns whose top card has this suit and rank
    empty: list[int]  # the empty columns
    free: list[int]  # the empty cells


def _card_moves(
    source: int, moving: Card, reach: _Reach, cells: list[int], moves: list[Move]
) -> None:
    """Add the moves of one waste or cell card: to foundations, to columns, to ``cells``."""
    moves += [_TO_F[source][f] for f in reach.homes.get((moving.suit, moving.rank), ())]
    moves += [_TO_T[source][k] for k in reach.tops.get((moving.suit, moving.rank + 1), ())]
    moves += [_TO_T[source][k] for k in reach.empty]
    moves += [_TO_C[source][j] for j in cells]


def _run_moves(
    i: int, column: list[Card], reach: _Reach, capacity: tuple[int, int], moves: list[Move]
) -> None:
    """Add the moves of column ``i``'s top run (one card or more) onto the other columns.

    The run's n-th card from the top goes onto a column topped by the card one rank
    above it in suit; ``capacity`` is how many cards fit onto an empty and a filled column.
    """
    to_empty, to_filled = capacity
    run, lowest = run_length(column), column[-1]
    runs = _RUNS[i]
    for n in range(1, min(run, to_filled) + 1):
        moves += [runs[k][n - 1] for k in reach.tops.get((lowest.suit, lowest.rank + n), ())]
    for k in reach.empty:
        moves += runs[k][: min(run, to_empty)]


class Squadron(Game):
    """A game of Squadron."""

    name: ClassVar[str] = GameName.SQUADRON
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

    def _reach(self) -> _Reach:
        """Where cards may go in this position, worked out once per move generation."""
        empties = [f for f, pile in enumerate(self.foundations) if not pile]
        homes: dict[Spot, list[int]] = (
            {(suit, Rank.ACE): empties for suit in Suit} if empties else {}
        )
        for f, pile in enumerate(self.foundations):
            if pile and pile[-1].rank < Rank.KING:
                homes.setdefault((pile[-1].suit, pile[-1].rank + 1), []).append(f)
        tops: dict[Spot, list[int]] = {}
        for k, column in enumerate(self.tableau):
            if column:
                tops.setdefault((column[-1].suit, column[-1].rank), []).append(k)
        empty = [k for k, column in enumerate(self.tableau) if not column]
        free = [j for j, held in enumerate(self.cells) if held is None]
        return _Reach(homes, tops, empty, free)

    def generate_legal_moves(self) -> list[Move]:
        moves: list[Move] = [_DEAL] if self.stock else []
        reach = self._reach()
        if self.waste:
            _card_moves(_WASTE_SOURCE, self.waste[-1], reach, reach.free, moves)
        for j, held in enumerate(self.cells):
            if held is not None:
                _card_moves(COLUMNS + j, held, reach, [], moves)
        free, empty = len(reach.free), len(reach.empty)
        capacity = (run_capacity(free, empty - 1) if empty else 0, run_capacity(free, empty))
        for i, column in enumerate(self.tableau):
            if column:
                top = column[-1]
                moves += [_TO_F[i][f] for f in reach.homes.get((top.suit, top.rank), ())]
                moves += [_TO_C[i][j] for j in reach.free]
                _run_moves(i, column, reach, capacity, moves)
        return moves

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
        return sum(map(len, self.foundations))

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
