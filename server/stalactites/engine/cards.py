"""Cards, piles and moves, each a small immutable value with its notation.

Cards are written rank then suit (``"TD"`` is the ten of diamonds), piles as
``t1``..``tN``, ``c1``..``cN``, ``f1``..``fN``, ``s`` and ``w``, and moves as
``<from>-<to>`` with an optional ``:n`` for a run of n cards (``"t2-t7:3"``).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from .errors import InvalidMoveError, NotationError

__all__ = ["Card", "Move", "Pile", "PileKind", "Rank", "Suit"]

RANK_SYMBOLS = "A23456789TJQK"
SUIT_SYMBOLS = "CDHS"
MAX_PILES = 99  # the notation numbers piles 1..99
MAX_RUN = 99  # and runs 2..99 (a single card has no suffix)


class Rank(enum.IntEnum):
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        return RANK_SYMBOLS[self - 1]


class Suit(enum.IntEnum):
    """Suits in the order of the Microsoft deck: clubs, diamonds, hearts, spades."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card. ``Card.parse("TD") == Card(Rank.TEN, Suit.DIAMONDS)``."""

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> Card:
        try:
            return _CARDS[text]
        except (KeyError, TypeError):
            raise NotationError(f"not a card: {text!r} (write rank then suit, e.g. 'TD')") from None

    def __str__(self) -> str:
        return RANK_SYMBOLS[self.rank - 1] + SUIT_SYMBOLS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_CARDS: dict[str, Card] = {
    r + s: Card(Rank(i + 1), Suit(j))
    for i, r in enumerate(RANK_SYMBOLS)
    for j, s in enumerate(SUIT_SYMBOLS)
}


def card(rank: int, suit: int) -> Card:
    """The shared instance of a card, by rank value (1-13) and suit value (0-3)."""
    return _CARDS[RANK_SYMBOLS[rank - 1] + SUIT_SYMBOLS[suit]]


class PileKind(enum.Enum):
    TABLEAU = "t"
    CELL = "c"
    FOUNDATION = "f"
    STOCK = "s"
    WASTE = "w"


@dataclass(frozen=True, slots=True)
class Pile:
    """A pile by kind and 0-based index, written 1-based: ``Pile(PileKind.TABLEAU, 2)`` is t3."""

    kind: PileKind
    index: int = 0

    def __post_init__(self) -> None:
        single = self.kind in (PileKind.STOCK, PileKind.WASTE)
        if not (self.index == 0 if single else 0 <= self.index < MAX_PILES):
            raise NotationError(f"not a pile: {self.kind.value!r} with index {self.index!r}")

    @classmethod
    def parse(cls, text: str) -> Pile:
        match = _PILE.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise NotationError(f"not a pile: {text!r} (t1, c1, f1, s or w)")
        return _pile(*match.groups())

    def __str__(self) -> str:
        if self.kind in (PileKind.STOCK, PileKind.WASTE):
            return str(self.kind.value)
        return f"{self.kind.value}{self.index + 1}"

    def __repr__(self) -> str:
        return f"Pile.parse({str(self)!r})"


_PILE_PATTERN = r"([tcf])([1-9][0-9]?)|([sw])"
_PILE = re.compile(_PILE_PATTERN)
_MOVE = re.compile(rf"(?:{_PILE_PATTERN})-(?:{_PILE_PATTERN})(?::([2-9]|[1-9][0-9]))?")


# Moves already parsed, by their text: parsing is the slow part of pushing a move.
_PARSED: dict[str, Move] = {}
_PARSED_LIMIT = 10_000


def _pile(kind: str | None, number: str | None, single: str | None = None) -> Pile:
    if kind is None:
        return Pile(PileKind(single))
    return Pile(PileKind(kind), int(number or 0) - 1)


@dataclass(frozen=True, slots=True)
class Move:
    """A move from one pile to another; ``count`` > 1 only for Squadron's supermoves."""

    src: Pile
    dst: Pile
    count: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_RUN:
            raise InvalidMoveError(f"not a move: a run of {self.count!r} cards (1 to {MAX_RUN})")

    @classmethod
    def parse(cls, text: str) -> Move:
        if isinstance(text, str) and (known := _PARSED.get(text)) is not None:
            return known
        match = _MOVE.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise InvalidMoveError(
                f"not a move: {text!r} (write <from>-<to>, e.g. 't3-f1', 's-w' or 't2-t7:3')"
            )
        kind1, num1, single1, kind2, num2, single2, count = match.groups()
        move = cls(_pile(kind1, num1, single1), _pile(kind2, num2, single2), int(count or 1))
        if len(_PARSED) < _PARSED_LIMIT:
            _PARSED[text] = move
        return move

    def __str__(self) -> str:
        suffix = f":{self.count}" if self.count != 1 else ""
        return f"{self.src}-{self.dst}{suffix}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"
