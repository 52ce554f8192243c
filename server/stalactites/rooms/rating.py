"""Whether a room's race may be rated: the rule the players' ratings and leaderboards obey.

A race counts towards ratings (and so towards any leaderboard) only when the server dealt
its deal: a deal the room's creator, or a tournament's organiser, chose may have been studied
beforehand, so a room with ``deal_chosen`` is never rated, whatever its creator asked for;
nor is a room of one seat.  Whether every seat is a player with a session is checked when each
seat is taken (``rooms/seats.py``).

A rated room's race that was not really raced changes nobody's rating either
(:func:`no_real_play`): when a player resigned with fewer than :data:`NO_PLAY_MOVES` moves on
their board (a puppet resigning at once to feed its owner, or a seat that never connected),
or when nobody played (:func:`played`: no racer made :data:`NO_PLAY_MOVES` moves and put a
card on the foundations, say two racers resigning with no card played, who would share first
place and both gain), the race is recorded as unrated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..protocol.room import Standing

__all__ = ["NO_PLAY_MOVES", "DealChosen", "may_be_rated", "no_real_play", "played", "unrateable"]

NO_PLAY_MOVES = 3  # a resignation with fewer moves on the board than this is no real play


class DealChosen(Protocol):
    """A room's settings as the rule reads them (a :class:`~.settings.RoomSettings`, which asks
    this module why a room may not be rated, so this module does not import it)."""

    @property
    def deal_chosen(self) -> bool: ...


def may_be_rated(settings: DealChosen) -> bool:
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


def played(line: Standing, dealt_cards: int) -> bool:
    """Whether a racer really played: :data:`NO_PLAY_MOVES` moves or more, and a card put on
    the foundations beyond the ``dealt_cards`` the deal put there (4 bases in Stalactites)."""
    return line.moves >= NO_PLAY_MOVES and line.foundation_cards > dealt_cards


def no_real_play(standings: Sequence[Standing], dealt_cards: int) -> bool:
    """Whether the race was not really raced, so not rated for anyone: a player resigned with
    fewer than :data:`NO_PLAY_MOVES` moves on their board, or no racer :func:`played` (a
    ghost's line is never counted)."""
    racers = [line for line in standings if line.ghost_of is None]
    fed = any(line.status == "resigned" and line.moves < NO_PLAY_MOVES for line in racers)
    return fed or not any(played(line, dealt_cards) for line in racers)
