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

**Repeated opponents count less** (:func:`repeat_weight`): the k-th rated race of a game
against the same opponent within :data:`REPEAT_WINDOW_MS` (24 h) counts with weight 1/k (the
race's change of μ and σ scaled by it), and not at all after :data:`REPEATS_COUNTED` (3), so
that trading wins with one's own second account, or with a friend, buys little.  A player
with several opponents in one race takes the least weight among them.

This module is the only one that imports ``openskill``.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from ..store.players.base import Rating

__all__ = [
    "DIGITS",
    "PROVISIONAL_RACES",
    "REPEATS_COUNTED",
    "REPEAT_WINDOW_MS",
    "displayed",
    "provisional",
    "rate_race",
    "repeat_weight",
    "shown_ordinal",
]

PROVISIONAL_RACES = 10
DIGITS = 6  # decimals of a new μ and σ
REPEAT_WINDOW_MS = 24 * 3600 * 1000  # races against one opponent this recent count less...
REPEATS_COUNTED = 3  # ...the k-th with weight 1/k, and none after this many
_MODEL = PlackettLuce()


def provisional(rating: Rating) -> bool:
    return rating.races < PROVISIONAL_RACES


def displayed(rating: Rating) -> int:
    """The one number shown: ``round(1000 + 25 * (μ - 3σ))``."""
    return shown_ordinal(rating.ordinal)


def shown_ordinal(ordinal: float) -> int:
    """The number shown for an ordinal μ - 3σ (a history entry keeps the ordinal)."""
    return round(1000 + 25 * ordinal)


def repeat_weight(earlier: int) -> float:
    """How much a rated race counts against an opponent met in ``earlier`` rated races of the
    game within :data:`REPEAT_WINDOW_MS` before it: the k-th (``earlier + 1``) counts 1/k, and
    none after :data:`REPEATS_COUNTED`."""
    k = earlier + 1
    return 0.0 if k > REPEATS_COUNTED else 1.0 / k


def rate_race(
    ratings: Sequence[Rating], places: Sequence[int], weights: Sequence[float] | None = None
) -> list[Rating]:
    """Each player's rating after a race in which they took ``places`` (ties allowed); with
    ``weights``, each player's change of μ and σ scaled by theirs (1: the whole change)."""
    if len(ratings) != len(places) or len(ratings) < 2:
        raise ValueError("a rated race has two players or more, each with a place")
    scale = [1.0] * len(ratings) if weights is None else list(weights)
    if len(scale) != len(ratings) or not all(0.0 <= weight <= 1.0 for weight in scale):
        raise ValueError("a weight from 0 to 1 for each player")
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    rated = _MODEL.rate(teams, ranks=[float(place) for place in places])
    return [
        _moved(before, float(team[0].mu), float(team[0].sigma), weight)
        for team, before, weight in zip(rated, ratings, scale, strict=True)
    ]


def _moved(before: Rating, mu: float, sigma: float, weight: float) -> Rating:
    if weight != 1.0:
        mu = before.mu + weight * (mu - before.mu)
        sigma = before.sigma + weight * (sigma - before.sigma)
    return Rating(round(mu, DIGITS), round(sigma, DIGITS), before.races + 1)
