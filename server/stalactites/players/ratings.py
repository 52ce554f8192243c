"""Ratings: OpenSkill's Plackett-Luce model (the ``openskill`` package), one per player per game.

A rating is μ (the skill believed) and σ (how unsure that is), starting at μ = 25,
σ = 25/3.  A race of any number of players is rated by their places (1 first; equal places
are ties).  The number shown is a conservative estimate, :func:`displayed`::

    rating = round(1000 + 25 * (μ - 3σ))

so a new player shows 1000 and the number grows as play makes σ shrink (a settled average
player, σ about 2, shows about 1475).  A rating is **provisional** until its player has
:data:`PROVISIONAL_RACES` (10) rated races in that game; provisional players are left off
leaderboards.

A race's new ratings are kept to :data:`DIGITS` decimals (a millionth of a point of μ is far
below anything shown), so that the race's outcome, kept for good, stores short numbers.

This module is the only one that imports ``openskill``.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from ..store.players_base import Rating

__all__ = ["DIGITS", "PROVISIONAL_RACES", "displayed", "provisional", "rate_race", "shown_ordinal"]

PROVISIONAL_RACES = 10
DIGITS = 6  # decimals of a new μ and σ
_MODEL = PlackettLuce()


def provisional(rating: Rating) -> bool:
    return rating.races < PROVISIONAL_RACES


def displayed(rating: Rating) -> int:
    """The one number shown: ``round(1000 + 25 * (μ - 3σ))``."""
    return shown_ordinal(rating.ordinal)


def shown_ordinal(ordinal: float) -> int:
    """The number shown for an ordinal μ - 3σ (a history entry keeps the ordinal)."""
    return round(1000 + 25 * ordinal)


def rate_race(ratings: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """Each player's rating after a race in which they took ``places`` (ties allowed)."""
    if len(ratings) != len(places) or len(ratings) < 2:
        raise ValueError("a rated race has two players or more, each with a place")
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    rated = _MODEL.rate(teams, ranks=[float(place) for place in places])
    return [
        Rating(
            round(float(team[0].mu), DIGITS), round(float(team[0].sigma), DIGITS), before.races + 1
        )
        for team, before in zip(rated, ratings, strict=True)
    ]
