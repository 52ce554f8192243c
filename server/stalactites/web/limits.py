"""Rate limits: a token bucket, buckets per client address, a flood counter, and the 429
answer of an HTTP route over its address's limit.

Per-address buckets live in one server process (the :class:`Limits` of its
process): behind a load balancer an address that reaches several processes gets
each process's allowance.  A bucket that has been idle long enough to fill up
again is dropped when a new address comes, so the memory held is bounded by the
addresses active in the ``burst / rate`` seconds before the newest came.
"""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Callable

from starlette.requests import Request

from ..config import ServerConfig
from .errors import rate_limited

__all__ = [
    "CREATIONS",
    "AddressCap",
    "JOINS",
    "AddressBuckets",
    "Flood",
    "Limits",
    "TokenBucket",
    "client_address",
    "within_limit",
]

CREATIONS = "new rooms and tournaments"  # what the per-address limits count
JOINS = "seats and tournament entries"

Monotonic = Callable[[], float]


class TokenBucket:
    """``take()`` is True while tokens last; a rate of 0 never limits."""

    __slots__ = ("_at", "_burst", "_monotonic", "_rate", "_tokens")

    def __init__(self, rate: float, burst: int, monotonic: Monotonic = time.monotonic) -> None:
        self._rate = rate
        self._burst = float(max(burst, 1))
        self._tokens = self._burst
        self._monotonic = monotonic
        self._at = monotonic()

    def take(self) -> bool:
        if self._rate <= 0:
            return True
        self._refill()
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def retry_after(self) -> float:
        """Seconds until the next token (0 if there is one now)."""
        if self._rate <= 0:
            return 0.0
        self._refill()
        return max(0.0, (1 - self._tokens) / self._rate)

    @property
    def asked_at(self) -> float:
        """When it was made, or last took or told (its clock's time)."""
        return self._at

    def _refill(self) -> None:
        now = self._monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._at) * self._rate)
        self._at = now


class AddressBuckets:
    """One :class:`TokenBucket` per client address, the least recently used first; when a new
    address comes, the buckets idle long enough to be full again are forgotten."""

    def __init__(self, rate: float, burst: int, monotonic: Monotonic = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._monotonic = monotonic
        self._idle_s = max(burst, 1) / rate if rate > 0 else 0.0  # full again after this long
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, address: str) -> bool:
        """Whether ``address`` may act now (and count it)."""
        return self._bucket(address).take()

    def retry_after(self, address: str) -> float:
        """Seconds until ``address`` may act again."""
        return self._bucket(address).retry_after()

    def _bucket(self, address: str) -> TokenBucket:
        bucket = self._buckets.get(address)
        if bucket is None:
            self._forget_idle(self._monotonic())
            bucket = self._buckets[address] = TokenBucket(self.rate, self.burst, self._monotonic)
        else:
            self._buckets.move_to_end(address)  # the most recently used last
        return bucket

    def _forget_idle(self, now: float) -> None:
        """Drop the least recently used buckets while they have been idle long enough to be
        full: a fresh bucket would be the same."""
        while self._buckets:
            oldest = next(iter(self._buckets.values()))
            if now - oldest.asked_at < self._idle_s:
                return
            self._buckets.popitem(last=False)


class Flood:
    """Counts refusals; ``refused()`` is True once ``limit`` of them fall within ``window_s``
    (a limit of 0 never says so).  Every connection has one: its deque is made at the first
    refusal."""

    __slots__ = ("_limit", "_monotonic", "_times", "_window_s")

    def __init__(self, limit: int, window_s: float, monotonic: Monotonic = time.monotonic) -> None:
        self._limit = limit
        self._window_s = window_s
        self._monotonic = monotonic
        self._times: deque[float] | None = None

    def refused(self) -> bool:
        """Count one refusal; whether the connection is flooding."""
        if self._limit <= 0:
            return False
        now = self._monotonic()
        if self._times is None:
            self._times = deque(maxlen=self._limit)
        self._times.append(now)
        return len(self._times) == self._limit and now - self._times[0] <= self._window_s


class AddressCap:
    """How many of something each address holds at once, at most ``cap`` (0: no cap)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._held: dict[str, int] = {}

    def take(self, address: str) -> bool:
        """Whether ``address`` may hold one more (and count it)."""
        held = self._held.get(address, 0)
        if 0 < self.cap <= held:
            return False
        self._held[address] = held + 1
        return True

    def give_back(self, address: str) -> None:
        held = self._held.get(address, 0) - 1
        if held > 0:
            self._held[address] = held
        else:
            self._held.pop(address, None)


class Limits:
    """A process's per-address limits (made with the process)."""

    def __init__(self, config: ServerConfig, monotonic: Monotonic = time.monotonic) -> None:
        self.moves = AddressBuckets(config.address_move_rate, config.address_move_burst, monotonic)
        self.creations = AddressBuckets(config.create_rate, config.create_burst, monotonic)
        self.joins = AddressBuckets(config.join_rate, config.join_burst, monotonic)
        self.spectators = AddressCap(config.address_spectators)  # open spectator sockets


def client_address(request: Request) -> str:
    """The client's address (the proxy's X-Forwarded-For when uvicorn trusts the proxy)."""
    return request.client.host if request.client is not None else "unknown"


def within_limit(request: Request, buckets: AddressBuckets, what: str) -> None:
    """Take from the client address's bucket, or refuse: 429 with ``Retry-After``."""
    address = client_address(request)
    if not buckets.take(address):
        raise rate_limited(f"{what} from your address", buckets.retry_after(address))
