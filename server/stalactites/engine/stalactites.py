"""Stalactites (also Old Mole, Grampus): one deck, four foundations, eight columns, two cells.

Foundations are built regardless of suit, all with one step for the whole
game: by ones (A 2 3 ... K) or by twos (A 3 5 7 9 J K 2 4 6 8 T Q), wrapping
from King to Ace.  The only moves are a column's top card to a foundation or
to an empty cell, and a cell card to a foundation.
"""

from __future__ import annotations

import enum
from typing import Any, ClassVar

from .cards import Card, Move, Pile, PileKind, card
from .deals import DealId
from .errors import IllegalMoveError, NotationError, StepLockedError
from .game import Game, GameName, cards_json, slot_json

__all__ = ["Stalactites", "Step", "StepPolicy", "next_rank"]

COLUMNS = 4 * 2
CELLS = 2
FOUNDATIONS = 4
FULL = 13


class Step(enum.IntEnum):
    """How far apart consecutive ranks on a foundation are."""

    ONES = 1
    TWOS = 2

    @classmethod
    def parse(cls, text: str) -> Step:
        if text == "ones":
            return cls.ONES
        if text == "twos":
            return cls.TWOS
        raise NotationError(f"not a step: {text!r} (ones or twos)")

    def __str__(self) -> str:
        return self.name.lower()


class StepPolicy(enum.Enum):
    """A room's setting: the step is the player's choice, or fixed in advance."""

    CHOICE = "choice"
    ONES = "ones"
    TWOS = "twos"

    @classmethod
    def parse(cls, text: str) -> StepPolicy:
        try:
            return cls(text)
        except ValueError:
            raise NotationError(f"not a step policy: {text!r} (choice, ones or twos)") from None


def next_rank(base: int, count: int, step: int) -> int:
    """The rank a foundation with this base rank and card count takes next; 0 once full."""
    if count >= FULL:
        return 0
    return (base + step * count - 1) % 13 + 1


def _moves(src: PileKind, n_src: int, dst: PileKind, n_dst: int) -> list[list[Move]]:
    return [[Move(Pile(src, i), Pile(dst, j)) for j in range(n_dst)] for i in range(n_src)]


_BOTH_STEPS = (int(Step.ONES), int(Step.TWOS))  # while no step is fixed
_T_F = _moves(PileKind.TABLEAU, COLUMNS, PileKind.FOUNDATION, FOUNDATIONS)
_T_C = _moves(PileKind.TABLEAU, COLUMNS, PileKind.CELL, CELLS)
_C_F = _moves(PileKind.CELL, CELLS, PileKind.FOUNDATION, FOUNDATIONS)


def ms_deck() -> list[Card]:
    """The 52-card deck in Microsoft order: A C, A D, A H, A S, 2 C, ..."""
    return [card(rank, suit) for rank in range(1, 14) for suit in range(4)]


class Stalactites(Game):
    """A game of Stalactites.

    >>> game = Stalactites("ms:1", step="ones")
    >>> game.tableau[0][-1], game.foundations[0]
    (Card.parse('6D'), [Card.parse('6S')])
    """

    name: ClassVar[str] = GameName.STALACTITES
    card_count: ClassVar[int] = 52

    def __init__(self, deal: DealId | str, step: StepPolicy | str = StepPolicy.CHOICE) -> None:
        super().__init__(deal)
        self.policy = step if isinstance(step, StepPolicy) else StepPolicy.parse(step)
        self._fixed: Step | None = None
        if self.policy is not StepPolicy.CHOICE:
            self._fixed = Step[self.policy.name]
        self._fixed_at: int | None = None  # index of the move that fixed the step
        deck = self.deal.shuffle(ms_deck())
        self.tableau: list[list[Card]] = [[] for _ in range(COLUMNS)]
        for k in range(COLUMNS * 6):
            self.tableau[k % COLUMNS].append(deck.pop())
        self.foundations: list[list[Card]] = [[deck.pop()] for _ in range(FOUNDATIONS)]
        self.bases = [int(pile[0].rank) for pile in self.foundations]
        self.cells: list[Card | None] = [None] * CELLS

    # The step.

    @property
    def step(self) -> Step | None:
        """The step, once declared, fixed by the policy, or fixed by the first foundation play."""
        return self._fixed

    @property
    def step_name(self) -> str | None:
        return None if self._fixed is None else str(self._fixed)

    def declare_step(self, step: Step | str) -> None:
        """Fix the step before any foundation play (``choice`` rooms only)."""
        step = step if isinstance(step, Step) else Step.parse(step)
        if self._fixed is not None:
            raise StepLockedError(
                f"the step is already fixed: {self._fixed}, cannot declare {step}"
            )
        self._fixed = step

    def _takers(self) -> dict[int, list[int]]:
        """The foundations (in order) that take each rank next: by the fixed step, or by ones
        or twos while none is fixed (a full foundation takes none)."""
        steps = _BOTH_STEPS if self._fixed is None else (int(self._fixed),)
        takers: dict[int, list[int]] = {}
        for f, pile in enumerate(self.foundations):
            count = len(pile)
            if count < FULL:
                base = self.bases[f] - 1
                for step in steps:
                    rank = (base + step * count) % 13 + 1  # next_rank, inline (it is hot)
                    found = takers.get(rank)
                    if found is None:
                        takers[rank] = [f]
                    elif found[-1] != f:
                        found.append(f)
        return takers

    # Legal moves.

    def generate_legal_moves(self) -> list[Move]:
        takers = self._takers()  # one lookup per top card, not a test per foundation
        free = [j for j, cell in enumerate(self.cells) if cell is None]
        moves: list[Move] = []
        add = moves.append  # (plain loops: a comprehension is a call of its own)
        for i, column in enumerate(self.tableau):
            if column:
                found = takers.get(column[-1].rank)
                if found is not None:
                    for f in found:
                        add(_T_F[i][f])
                for j in free:
                    add(_T_C[i][j])
        for j, cell in enumerate(self.cells):
            if cell is not None:
                found = takers.get(cell.rank)
                if found is not None:
                    for f in found:
                        add(_C_F[j][f])
        return moves

    def has_legal_move(self) -> bool:
        if None in self.cells and any(self.tableau):
            return True
        return bool(self.generate_legal_moves())

    def check(self, move: Move) -> None:
        moving = self._source_card(move)
        dst = move.dst
        if dst.kind is PileKind.FOUNDATION:
            self._check_foundation(move, moving)
        elif dst.kind is PileKind.CELL and move.src.kind is PileKind.TABLEAU:
            if dst.index >= CELLS:
                raise IllegalMoveError(f"{str(move)!r}: there is no cell {dst}")
            if self.cells[dst.index] is not None:
                raise IllegalMoveError(f"{str(move)!r}: cell {dst} is full")
        elif dst.kind is PileKind.CELL:
            raise IllegalMoveError(f"{str(move)!r}: a cell card goes only to a foundation")
        elif dst.kind is PileKind.TABLEAU:
            raise IllegalMoveError(f"{str(move)!r}: nothing is ever played onto a column")
        else:
            raise IllegalMoveError(f"{str(move)!r}: Stalactites has no stock or waste")

    def _source_card(self, move: Move) -> Card:
        src = move.src
        if move.count != 1:
            raise IllegalMoveError(f"{str(move)!r}: cards move one at a time in Stalactites")
        if src.kind is PileKind.TABLEAU and src.index < COLUMNS:
            column = self.tableau[src.index]
            if not column:
                raise IllegalMoveError(f"{str(move)!r}: column {src} is empty")
            return column[-1]
        if src.kind is PileKind.CELL and src.index < CELLS:
            held = self.cells[src.index]
            if held is None:
                raise IllegalMoveError(f"{str(move)!r}: cell {src} is empty")
            return held
        if src.kind in (PileKind.TABLEAU, PileKind.CELL):
            raise IllegalMoveError(f"{str(move)!r}: there is no pile {src}")
        raise IllegalMoveError(f"{str(move)!r}: cards leave only columns and cells")

    def _check_foundation(self, move: Move, moving: Card) -> None:
        index = move.dst.index
        if index >= FOUNDATIONS:
            raise IllegalMoveError(f"{str(move)!r}: there is no foundation {move.dst}")
        count = len(self.foundations[index])
        if count >= FULL:
            raise IllegalMoveError(f"{str(move)!r}: foundation {move.dst} is complete")
        steps = _BOTH_STEPS if self._fixed is None else (int(self._fixed),)
        base = self.bases[index]
        for step in steps:  # (a loop, not a list of the ranks wanted: it is on every move)
            if moving.rank == next_rank(base, count, step):
                return
        takes = " or ".join(_RANKS[next_rank(base, count, step)] for step in steps)
        raise IllegalMoveError(
            f"{str(move)!r}: foundation {move.dst} takes {takes} next, not {moving}"
        )

    # Applying and taking back.

    def _apply(self, move: Move) -> None:
        src, dst = move.src, move.dst
        moving: Card | None
        if src.kind is PileKind.TABLEAU:
            moving = self.tableau[src.index].pop()
        else:
            moving = self.cells[src.index]
            self.cells[src.index] = None
        assert moving is not None
        if dst.kind is PileKind.FOUNDATION:
            pile = self.foundations[dst.index]
            if self._fixed is None:
                self._fixed = Step((moving.rank - pile[-1].rank) % 13)
                self._fixed_at = len(self.move_stack)
            pile.append(moving)
        else:
            self.cells[dst.index] = moving

    def _revert(self) -> Move:
        move = self.move_stack[-1]
        src, dst = move.src, move.dst
        moving: Card | None
        if dst.kind is PileKind.FOUNDATION:
            moving = self.foundations[dst.index].pop()
            if self._fixed_at == len(self.move_stack) - 1:
                self._fixed, self._fixed_at = None, None
        else:
            moving, self.cells[dst.index] = self.cells[dst.index], None
        assert moving is not None
        if src.kind is PileKind.TABLEAU:
            self.tableau[src.index].append(moving)
        else:
            self.cells[src.index] = moving
        return move

    def can_pop(self) -> bool:
        return bool(self.move_stack)

    # Views.

    @property
    def foundation_cards(self) -> int:
        return sum(map(len, self.foundations))

    def key(self) -> tuple[Any, ...]:
        return (
            self._fixed,
            tuple(len(column) for column in self.tableau),
            tuple(pile[-1] for pile in self.foundations),
            tuple(len(pile) for pile in self.foundations),
            tuple(self.cells),
        )

    def state(self) -> dict[str, Any]:
        return {
            "game": self.name,
            "deal": str(self.deal),
            "step": self.step_name,
            "foundations": [cards_json(pile) for pile in self.foundations],
            "cells": slot_json(self.cells),
            "tableau": [cards_json(column) for column in self.tableau],
        }

    def __repr__(self) -> str:
        return f"<Stalactites {self.deal} step={self.step_name} moves={len(self.move_stack)}>"


_RANKS = {rank: "A23456789TJQK"[rank - 1] for rank in range(1, 14)}
