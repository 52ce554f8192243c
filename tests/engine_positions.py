"""Positions built by hand for the rule tests, and lines of play on real deals.

A position is a real game object whose piles are set directly, so a rule can be
shown in the one situation it is about. Piles are written as cards bottom to top
separated by spaces (``"KD 9S"`` has 9S on top); a missing pile is empty.
"""

from __future__ import annotations

from collections.abc import Sequence

from stalactites.engine import Card, Squadron, Stalactites

# Stalactites ms:1 played to a win by ones, and to a loss (no legal move) by ones.
MS1_WIN_BY_ONES = (
    "t6-f3 t8-f2 t8-f1 t2-f1 t8-f4 t3-f4 t4-c1 t7-c2 t7-f2 t7-f3 c1-f2 t7-c1 t7-f2 c1-f2 t6-f2 "
    "t2-c1 t2-f3 t1-f3 t1-f2 t3-f2 t7-f3 c2-f3 t3-c2 t3-f1 t3-f3 t3-f4 t4-f1 c1-f3 c2-f4 t4-c1 "
    "t4-c2 t4-f2 t4-f1 t5-f2 c1-f1 t2-f1 t6-f1 t1-c1 t1-f1 t8-f1 c1-f1 t1-c1 t1-f3 c2-f3 c1-f3 "
    "t6-f3 t5-c1 t5-c2 t5-f4 t6-f4 t2-f4 t5-f4 t2-f4 t5-f1 t6-f2 t8-f4 c1-f2 c2-f4 t8-f4"
).split()
MS1_LOSS_BY_ONES = "t5-c2 t2-c1 t2-f2 t6-f3".split()


def cards(text: str) -> list[Card]:
    return [Card.parse(word) for word in text.split()]


def slots(texts: Sequence[str | None], size: int) -> list[Card | None]:
    padded = list(texts) + [None] * (size - len(texts))
    return [None if text is None else Card.parse(text) for text in padded]


def piles(texts: Sequence[str], size: int) -> list[list[Card]]:
    return [cards(text) for text in list(texts) + [""] * (size - len(texts))]


def stalactites(
    columns: Sequence[str],
    foundations: Sequence[str],
    cells: Sequence[str | None] = (),
    step: str = "choice",
) -> Stalactites:
    """A Stalactites position: up to 8 columns, 4 foundations (base first), up to 2 cells."""
    assert len(foundations) == 4, "every Stalactites foundation has its base card"
    game = Stalactites("ms:1", step=step)
    game.tableau = piles(columns, 8)
    game.foundations = piles(foundations, 4)
    game.bases = [int(pile[0].rank) for pile in game.foundations]
    game.cells = slots(cells, 2)
    return game


def squadron(
    columns: Sequence[str] = (),
    foundations: Sequence[str] = (),
    cells: Sequence[str | None] = (),
    stock: str = "",
    waste: str = "",
) -> Squadron:
    """A Squadron position: up to 10 columns, 8 foundations, 3 cells; stock's last card next."""
    game = Squadron("ms:1")
    game.tableau = piles(columns, 10)
    game.foundations = piles(foundations, 8)
    game.cells = slots(cells, 3)
    game.stock = cards(stock)
    game.waste = cards(waste)
    return game


def legal(game: Stalactites | Squadron) -> list[str]:
    return sorted(str(move) for move in game.legal_moves)


def suit_run(suit: str, first: str, last: str) -> str:
    """Cards of one suit from rank ``first`` to rank ``last``: ``suit_run("S", "A", "3")``."""
    ranks = "A23456789TJQK"
    i, j = ranks.index(first), ranks.index(last)
    step = 1 if j >= i else -1
    return " ".join(ranks[k] + suit for k in range(i, j + step, step))
