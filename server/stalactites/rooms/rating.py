"""Whether a room's race may be rated: the rule the players' ratings and leaderboards obey.

A race counts towards ratings (and so towards any leaderboard) only when the server dealt
its deal: a deal the room's creator, or a tournament's organiser, chose may have been studied
beforehand, so a room with ``deal_chosen`` is never rated, whatever its creator asked for;
nor is a room of one seat.  Whether every seat is a player with a session is checked when each
seat is taken (``rooms/seats.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # settings asks this module why a room may not be rated
    from .settings import RoomSettings

__all__ = ["may_be_rated", "unrateable"]


def may_be_rated(settings: RoomSettings) -> bool:
    """Whether a race in a room of these settings may change ratings and leaderboards."""
    return not settings.deal_chosen


def unrateable(deal: str | None, seats: int) -> str | None:
    """Why a room made from ``body`` may not be rated (None: it may): the rule above.
    The deal must be the server's certified one; whether each seat has a session is checked
    when it is taken."""
    if deal is not None:
        return "a creator-chosen deal is never rated"
    if seats < 2:
        return "a rated room has two seats or more"
    return None
