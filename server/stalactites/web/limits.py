"""A token bucket: ``rate`` tokens a second, at most ``burst`` saved up."""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["TokenBucket"]


class TokenBucket:
    """``take()`` is True while tokens last; a rate of 0 never limits."""

    def __init__(
        self, rate: float, burst: int, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self._rate = rate
        self._burst = float(max(burst, 1))
        self._tokens = self._burst
        self._monotonic = monotonic
        self._at = monotonic()

    def take(self) -> bool:
        if self._rate <= 0:
            return True
        now = self._monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._at) * self._rate)
        self._at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True
