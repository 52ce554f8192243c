"""Sign-in attempts allowed per client address and per username, in this process.

Both are token buckets (:mod:`..limits`); every attempt (right or wrong) takes one token from
each, so guessing one account's password from many addresses, or many accounts' from one
address, is slowed alike.  Over either: 429 ``rate_limited`` with ``Retry-After``.
"""

from __future__ import annotations

from starlette.responses import JSONResponse

from ...players.names import username_key
from ..limits import AddressBuckets, retry_after_header

__all__ = ["SignInLimits"]


class SignInLimits:
    """Sign-in attempts allowed per client address and per (casefolded) username."""

    def __init__(self, address: AddressBuckets, username: AddressBuckets) -> None:
        self.address, self.username = address, username

    def refused(self, address: str, username: object) -> JSONResponse | None:
        key = username_key(username) if isinstance(username, str) else ""
        waits = []
        if not self.address.take(address):
            waits.append(self.address.retry_after(address))
        if not self.username.take(key[:64]):
            waits.append(self.username.retry_after(key[:64]))
        if not waits:
            return None
        wait = retry_after_header(max(waits))
        message = f"too many sign-in attempts; try again in {wait} s"
        return JSONResponse(
            {"code": "rate_limited", "message": message},
            status_code=429,
            headers={"Retry-After": wait},
        )
