"""Whether a room's race may be rated: the rule the players' ratings and leaderboards obey.

A race counts towards ratings (and so towards any leaderboard) only when the server dealt
its deal: a deal the room's creator, or a tournament's organiser, chose may have been studied
beforehand, so a room with ``deal_chosen`` is never rated, whatever its creator asked for.
"""

from __future__ import annotations

from .settings import RoomSettings

__all__ = ["may_be_rated"]


def may_be_rated(settings: RoomSettings) -> bool:
    """Whether a race in a room of these settings may change ratings and leaderboards."""
    return not settings.deal_chosen
