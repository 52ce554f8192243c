"""Whether a room's race may be rated: the rule the players' ratings and leaderboards obey.

A race counts towards ratings (and so towards any leaderboard) only when the server dealt
its deal: a deal the room's creator, or a tournament's organiser, chose may have been studied
beforehand, so a room with ``deal_chosen`` is never rated, whatever its creator asked for;
nor is a room of one seat.  Whether every seat is a player with a session is checked when each
seat is taken (``rooms/seats.py``).

A rated room's race that was not really raced changes nobody's rating either: when a player
resigned with fewer than :data:`NO_PLAY_MOVES` moves on their board (a puppet resigning at
once to feed its owner, or a seat that never connected), the race is recorded as unrated
(:func:`no_real_play`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # settings asks this module why a room may not be rated
    from ..protocol import Standing
    from .settings import RoomSettings

__all__ = ["NO_PLAY_MOVES", "may_be_rated", "no_real_play", "unrateable"]

NO_PLAY_MOVES = 3  # a resignation with fewer moves on the board than this is no real play


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


def no_real_play(standings: Sequence[Standing]) -> bool:
    """Whether a player resigned with fewer than :data:`NO_PLAY_MOVES` moves on their board:
    then the race is not rated, for anyone."""
    return any(
        line.status == "resigned" and line.moves < NO_PLAY_MOVES and line.ghost_of is None
        for line in standings
    )
