"""What every game shares: outcome, the legal-move view, push and pop.

A game module (``stalactites.py``, ``squadron.py``) subclasses :class:`Game`
and supplies the rules: which moves are legal, how one is applied and taken
back, and what a player may see.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from .cards import Card, Move
from .deals import DealId
from .errors import IllegalMoveError, InvalidMoveError, UndoError

__all__ = ["Game", "GameName", "LegalMoves", "Outcome", "Status"]


class GameName(enum.StrEnum):
    """The games by name: in records, settings, the protocol and the store."""

    STALACTITES = "stalactites"
    SQUADRON = "squadron"


class Status(enum.Enum):
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


@dataclass(frozen=True, slots=True)
class Outcome:
    status: Status
    foundation_cards: int


class LegalMoves:
    """A lazy view of a game's legal moves: iterate it, test ``in``, ``count()`` it.

    ``in`` takes a :class:`Move` or its notation; text that is not a move is not in it.
    """

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    def __iter__(self) -> Iterator[Move]:
        return iter(self._game.generate_legal_moves())

    def __contains__(self, move: object) -> bool:
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except InvalidMoveError:
                return False
        return isinstance(move, Move) and self._game.is_legal(move)

    def __bool__(self) -> bool:
        return self._game.has_legal_move()

    def __len__(self) -> int:
        return len(self._game.generate_legal_moves())

    def count(self) -> int:
        return len(self)

    def __repr__(self) -> str:
        moves = ", ".join(sorted(str(move) for move in self))
        return f"<LegalMoves ({moves})>"


class Game(ABC):
    """One player's board on one deal."""

    name: ClassVar[str]
    card_count: ClassVar[int]

    deal: DealId
    move_stack: list[Move]

    def __init__(self, deal: DealId | str) -> None:
        self.deal = deal if isinstance(deal, DealId) else DealId.parse(deal)
        self.move_stack = []

    # The rules, supplied by each game.

    @abstractmethod
    def generate_legal_moves(self) -> list[Move]:
        """Every legal move, in a fixed order."""

    @abstractmethod
    def check(self, move: Move) -> None:
        """Raise :class:`IllegalMoveError`, saying why, unless ``move`` is legal."""

    @abstractmethod
    def _apply(self, move: Move) -> None:
        """Apply a legal move and remember how to take it back."""

    @abstractmethod
    def _revert(self) -> Move:
        """Take back the last move applied."""

    @abstractmethod
    def can_pop(self) -> bool:
        """Whether :meth:`pop` may take back the last move (False with nothing to take back)."""

    @property
    @abstractmethod
    def foundation_cards(self) -> int:
        """How many cards are on the foundations."""

    @abstractmethod
    def key(self) -> tuple[Any, ...]:
        """A hashable key of the position: equal keys play the same from here on."""

    @abstractmethod
    def state(self) -> dict[str, Any]:
        """The JSON view of the board, holding only what a player may see."""

    @property
    @abstractmethod
    def step_name(self) -> str | None:
        """The foundation step written in a record (``None`` where none is fixed)."""

    # Shared behaviour.

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def has_legal_move(self) -> bool:
        return bool(self.generate_legal_moves())

    def is_legal(self, move: Move) -> bool:
        try:
            self.check(move)
        except IllegalMoveError:
            return False
        return True

    def parse_move(self, text: str) -> Move:
        """Parse a move and check it is legal here; raises InvalidMoveError or IllegalMoveError."""
        move = Move.parse(text)
        self.check(move)
        return move

    def push(self, move: Move | str) -> Move:
        """Validate and apply a move (a :class:`Move` or its notation)."""
        if isinstance(move, str):
            move = Move.parse(move)
        self.check(move)
        self._apply(move)
        self.move_stack.append(move)
        return move

    def pop(self) -> Move:
        """Take back the last move; refused with nothing to undo or past a stock deal."""
        if not self.move_stack:
            raise UndoError("nothing to undo")
        if not self.can_pop():
            raise UndoError(f"cannot take back {str(self.move_stack[-1])!r}: a stock deal is final")
        move = self._revert()
        self.move_stack.pop()
        return move

    @property
    def is_won(self) -> bool:
        return self.foundation_cards == self.card_count

    def outcome(self) -> Outcome:
        cards = self.foundation_cards
        if cards == self.card_count:
            status = Status.WON
        elif self.has_legal_move():
            status = Status.PLAYING
        else:
            status = Status.LOST
        return Outcome(status, cards)

    @property
    def status(self) -> Status:
        return self.outcome().status


def cards_json(cards: list[Card]) -> list[str]:
    return [str(card) for card in cards]


def slot_json(cards: list[Card | None]) -> list[str | None]:
    return [None if card is None else str(card) for card in cards]
