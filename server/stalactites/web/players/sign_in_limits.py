"""Sign-in attempts allowed per client address, per username from one address, and per
username from every address together, in this process.

All are token buckets (:mod:`..limits`), and an attempt (right or wrong) takes a token from
each in that order, up to the first that has none: so guessing many accounts' passwords from
one address is slowed by the address's bucket, one account's from one address by that pair's
bucket, and one account's from many addresses by the username's total.  An attempt refused by
its address's or its pair's bucket takes nothing from the username's total, so one address
cannot spend what the account's owner, at another address, signs in with.  Over any: 429
``rate_limited`` with ``Retry-After``.
"""

from __future__ import annotations

from ...players.names import username_key
from ..errors import rate_limited
from ..limits import AddressBuckets

__all__ = ["SignInLimits"]


class SignInLimits:
    """Sign-in attempts allowed per client address, per (casefolded) username from one
    address (``username``), and per username from all addresses (``total``, if given)."""

    def __init__(
        self,
        address: AddressBuckets,
        username: AddressBuckets,
        total: AddressBuckets | None = None,
    ) -> None:
        self.address, self.username, self.total = address, username, total

    def take(self, address: str, username: object) -> None:
        """Take an attempt from each bucket in turn, or refuse (429) at the first empty one."""
        key = (username_key(username) if isinstance(username, str) else "")[:64]
        steps = [(self.address, address), (self.username, f"{key}\n{address}")]
        if self.total is not None:
            steps.append((self.total, key))
        for buckets, name in steps:
            if not buckets.take(name):
                raise rate_limited("sign-in attempts", buckets.retry_after(name))
