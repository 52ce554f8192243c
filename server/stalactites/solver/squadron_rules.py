"""Squadron's rules as small lookup tables, read off the engine once at import.

The search plays on cards numbered 0..51 (both copies of a card share a number).  Which card
lies on which in a column is asked of the engine's :func:`run_length` (a two-card column is a
run exactly when its top card may lie on the other); which card starts a foundation follows
the engine's Ace rule; the supermove limit is the engine's :func:`run_capacity`.
"""

from __future__ import annotations

from ..engine import Card, Rank
from ..engine.cards import card
from ..engine.squadron import CELLS, COLUMNS, run_capacity, run_length

__all__ = [
    "ABOVE",
    "CAPACITY",
    "CARDS",
    "CELLS",
    "COLUMNS",
    "FOUNDATION_ORDER",
    "NONE",
    "RANK",
    "SUIT",
    "card_id",
]

NONE = -1
CARDS: list[Card] = [card(rank, suit) for suit in range(4) for rank in range(1, 14)]
_ID = {c: i for i, c in enumerate(CARDS)}
RANK = [int(c.rank) for c in CARDS]
SUIT = [int(c.suit) for c in CARDS]


def card_id(c: Card) -> int:
    return _ID[c]


def _above(lower: int) -> int:
    """The card ``lower`` may lie on in a column, or NONE."""
    uppers = [u for u in range(len(CARDS)) if run_length([CARDS[u], CARDS[lower]]) == 2]
    assert len(uppers) <= 1
    return uppers[0] if uppers else NONE


ABOVE = [_above(c) for c in range(len(CARDS))]


def _foundation_order(suit: int) -> list[int]:
    """The cards a foundation of ``suit`` takes, in order: its Ace, then each card that the
    previous one may lie on (a foundation builds up in suit)."""
    order = [_ID[card(Rank.ACE, suit)]]
    while ABOVE[order[-1]] != NONE:
        order.append(ABOVE[order[-1]])
    return order


FOUNDATION_ORDER = [_foundation_order(suit) for suit in range(4)]

# CAPACITY[free cells][empty columns]: how many cards a supermove may carry.
CAPACITY = [
    [run_capacity(free, empty) for empty in range(COLUMNS + 1)] for free in range(CELLS + 1)
]
