"""Which deal is the day's: the solver's certified pick from a seed that HMAC-SHA256 of the
server's secret (``STALACTITES_DAILY_SECRET``) derives from the game and the date.

Every process with the same secret picks the same deal (the solver's pick is a function of
its seed); without the secret nobody can work out a day's deal before it is revealed.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac

from ..engine import GameName
from ..solver import pick

__all__ = [
    "DAILY_GAMES",
    "DAY_MS",
    "certified_daily",
    "daily_seed",
    "date_of",
    "day_number",
    "today",
]

DAILY_GAMES: dict[str, str | None] = {GameName.STALACTITES: "choice", GameName.SQUADRON: None}
"""The games with a daily deal, and the step policy of each (None: the game has none)."""

DAY_MS = 86_400_000


def today(now_ms: int) -> str:
    """The UTC date of ``now_ms`` (ISO, ``2026-12-01``)."""
    return datetime.datetime.fromtimestamp(now_ms / 1000, datetime.UTC).date().isoformat()


def day_number(date: str) -> int:
    """Days from 1970-01-01 to ``date`` (ISO)."""
    return (datetime.date.fromisoformat(date) - datetime.date(1970, 1, 1)).days


def date_of(day: int) -> str:
    """The ISO date of a day number (:func:`day_number`'s inverse)."""
    return (datetime.date(1970, 1, 1) + datetime.timedelta(days=day)).isoformat()


def daily_seed(secret: bytes, game: str, date: str) -> int:
    """The solver's seed for the day: the first 8 bytes of HMAC-SHA256(secret, game|date)."""
    digest = hmac.new(secret, f"{game}|{date}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def certified_daily(game: str, seed: int) -> tuple[str, dict[str, list[str]]]:
    """The day's certified deal and its winning lines (run in a solver worker)."""
    (certificate,) = pick(game, 1, seed, DAILY_GAMES[game] or "choice")
    lines = {str(name): [str(move) for move in moves] for name, moves in certificate.lines.items()}
    return str(certificate.deal), lines
