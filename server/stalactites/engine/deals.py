"""Deal ids and the two shuffles behind them.

``ms:N`` (1 <= N < 2**31) is the Microsoft FreeCell generator, so that deal N
matches PySolFC's game N.  ``sr:XXXXXXXXXXXXXXXX`` (16 lowercase hex digits, a
64-bit seed) is the project's own generator for deals the server makes up:

* SplitMix64 seeded with the 64-bit number gives a stream of 64-bit words:
  ``state += 0x9E3779B97F4A7C15``; ``z = state``;
  ``z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9``; ``z = (z ^ (z >> 27)) * 0x94D049BB133111EB``;
  ``word = z ^ (z >> 31)`` (all modulo 2**64).
* An unbiased draw below ``bound`` rejects words at or above
  ``2**64 - 2**64 % bound`` and takes the next one, then answers ``word % bound``.
* The deck (the same order as the game's ``ms`` deck) is shuffled by
  Fisher-Yates from the end: for n = len-1 down to 1, j = draw(n + 1), swap
  deck[n] and deck[j]; the cards are then dealt by popping from the end.

Nothing here reads a clock or the global ``random``: a deal is a function of its id.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from .errors import NotationError

__all__ = ["DealId", "draw_below", "ms_shuffle", "sr_shuffle", "splitmix64"]

T = TypeVar("T")

MASK64 = (1 << 64) - 1
_DEAL = re.compile(r"ms:([1-9][0-9]{0,9})|sr:([0-9a-f]{16})")


@dataclass(frozen=True, slots=True, order=True)
class DealId:
    """A deal id: ``DealId.parse("ms:1")`` or ``DealId.parse("sr:00000000075bcd15")``."""

    scheme: str
    number: int

    def __post_init__(self) -> None:
        if type(self.number) is not int:  # a bool or a float is no deal number
            raise NotationError(f"not a deal id: {self.scheme!r}, {self.number!r}")
        if self.scheme == "ms" and 1 <= self.number < 2**31:
            return
        if self.scheme == "sr" and 0 <= self.number <= MASK64:
            return
        raise NotationError(f"not a deal id: {self.scheme!r}, {self.number!r}")

    @classmethod
    def parse(cls, text: str) -> DealId:
        match = _DEAL.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise NotationError(
                f"not a deal id: {text!r} (ms:N with 1 <= N < 2**31, or sr: and 16 hex digits)"
            )
        if match.group(1) is not None:
            number = int(match.group(1))
            if number >= 2**31:
                raise NotationError(f"not a deal id: {text!r} (ms:N needs N < 2**31)")
            return cls("ms", number)
        return cls("sr", int(match.group(2), 16))

    def __str__(self) -> str:
        if self.scheme == "ms":
            return f"ms:{self.number}"
        return f"sr:{self.number:016x}"

    def __repr__(self) -> str:
        return f"DealId.parse({str(self)!r})"

    def shuffle(self, deck: list[T]) -> list[T]:
        """A shuffled copy of ``deck``; deal it by popping from the end."""
        if self.scheme == "ms":
            return ms_shuffle(deck, self.number)
        return sr_shuffle(deck, self.number)


def _fisher_yates(deck: list[T], draw: Callable[[int], int]) -> list[T]:
    cards = list(deck)
    for n in range(len(cards) - 1, 0, -1):
        j = draw(n + 1)
        cards[n], cards[j] = cards[j], cards[n]
    return cards


def ms_shuffle(deck: list[T], seed: int) -> list[T]:
    """Microsoft's shuffle: a 31-bit LCG whose high 15 bits pick each swap."""
    state = seed

    def draw(bound: int) -> int:
        nonlocal state
        state = (214013 * state + 2531011) & 0x7FFFFFFF
        return (state >> 16) % bound

    return _fisher_yates(deck, draw)


def splitmix64(seed: int) -> Iterator[int]:
    """The SplitMix64 stream of 64-bit words for ``seed``."""
    state = seed & MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def draw_below(words: Iterator[int], bound: int) -> int:
    """An unbiased number in ``range(bound)`` from a stream of 64-bit words.

    Words at or above the largest multiple of ``bound`` that fits in 64 bits are
    rejected, so every remainder is produced by exactly as many words.
    """
    limit = (1 << 64) - (1 << 64) % bound
    for word in words:
        if word < limit:
            return word % bound
    raise ValueError("the word stream ended")


def sr_shuffle(deck: list[T], seed: int) -> list[T]:
    """The project's shuffle: SplitMix64 words, unbiased draws by rejection."""
    words = splitmix64(seed)
    return _fisher_yates(deck, lambda bound: draw_below(words, bound))
