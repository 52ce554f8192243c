"""The server clock: unix milliseconds, and the only place the server reads the time.

Tests pass their own clock (any object with ``now_ms``) to move time forward.
"""

from __future__ import annotations

import time
from typing import Protocol

__all__ = ["Clock", "SystemClock"]


class Clock(Protocol):
    def now_ms(self) -> int:
        """Unix time in milliseconds."""
        ...


class SystemClock:
    """The machine's clock."""

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000
