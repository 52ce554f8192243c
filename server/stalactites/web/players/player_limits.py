"""The players' limits per client address in one process: new anonymous players,
registrations, sign-in attempts (:mod:`.sign_in_limits`, which recovery codes share) and
exports of one's own data.

Each is a token bucket per address (:class:`~..limits.AddressBuckets`); over one, HTTP 429
``rate_limited`` with ``Retry-After``.  A process's set is made from its settings at the
first request that needs it, around the sign-in buckets the process holds, and lives as long
as the process.
"""

from __future__ import annotations

import weakref

from starlette.requests import HTTPConnection

from ..limits import AddressBuckets
from ..process import Process, process_of
from .sign_in_limits import SignInLimits

__all__ = ["EXPORTS", "NEW_PLAYERS", "REGISTRATIONS", "PlayerLimits", "player_limits"]

NEW_PLAYERS = "new players"  # what the per-address limits count (their 429's message)
REGISTRATIONS = "registrations"
EXPORTS = "exports"
EXPORTS_BURST = 10  # a player's data read whole: 10 at once, then one a minute per address
EXPORTS_RATE = 1 / 60


class PlayerLimits:
    """One process's: ``new_players`` (``POST /api/session`` without credentials),
    ``registrations`` (``POST /api/accounts``), ``sign_in`` (and recovery codes' uses and
    renewals) and ``exports`` (``GET /api/me/export``) per address."""

    def __init__(self, process: Process) -> None:
        config, held = process.config, process.sign_in_limits
        self.new_players = AddressBuckets(config.session_address_rate, config.session_address_burst)
        self.registrations = AddressBuckets(
            config.register_address_rate, config.register_address_burst
        )
        total = AddressBuckets(
            config.signin_username_total_rate, config.signin_username_total_burst
        )
        self.sign_in = SignInLimits(held.address, held.username, total)
        self.exports = AddressBuckets(EXPORTS_RATE, EXPORTS_BURST)


_MADE: weakref.WeakKeyDictionary[Process, PlayerLimits] = weakref.WeakKeyDictionary()


def player_limits(connection: HTTPConnection) -> PlayerLimits:
    """The limits of the process serving this request."""
    process = process_of(connection)
    limits = _MADE.get(process)
    if limits is None:
        limits = _MADE[process] = PlayerLimits(process)
    return limits
