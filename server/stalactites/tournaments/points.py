"""Round points and tournament standings, as pure functions of the round results.

A round's points are the player's cards on the foundations when the round
ends, plus, for a win, one point for every full 10 seconds left on the round
clock.  Standings order players by total points, then rounds won, then total
time (lower is better), where a round's time is the elapsed time of a win
and the whole round otherwise.  Players equal on all three share a rank.

>>> round_points(52, "won", elapsed_ms=185_000, round_ms=300_000)
63
>>> round_points(17, "timeout", elapsed_ms=300_000, round_ms=300_000)
17
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "BONUS_EVERY_MS",
    "Line",
    "Total",
    "rank",
    "round_points",
    "round_time",
    "score",
    "totals",
]

BONUS_EVERY_MS = 10_000
_TIME_BITS = 1 << 27  # above any total time: 20 rounds of 3600 s is 72e6 ms
_ROUNDS_BASE = 32  # above any count of rounds won (at most 20)


def round_points(foundation_cards: int, status: str, elapsed_ms: int, round_ms: int) -> int:
    """Cards on the foundations, plus a full-10-seconds bonus for a win."""
    if status != "won":
        return foundation_cards
    left = max(round_ms - elapsed_ms, 0)
    return foundation_cards + left // BONUS_EVERY_MS


def round_time(status: str, elapsed_ms: int, round_ms: int) -> int:
    """The time a round adds to a player's total: a win's elapsed time, else the whole round."""
    return min(elapsed_ms, round_ms) if status == "won" else round_ms


@dataclass(frozen=True, slots=True)
class Line:
    """One player's result in one round."""

    player_id: str
    points: int
    won: bool
    time_ms: int


@dataclass(frozen=True, slots=True)
class Total:
    """One player's standing over the rounds so far."""

    player_id: str
    name: str
    points: int = 0
    rounds_won: int = 0
    total_time_ms: int = 0

    def add(self, line: Line) -> Total:
        return Total(
            self.player_id,
            self.name,
            self.points + line.points,
            self.rounds_won + int(line.won),
            self.total_time_ms + line.time_ms,
        )


def totals(entrants: Iterable[tuple[str, str]], rounds: Iterable[Iterable[Line]]) -> list[Total]:
    """Every entrant's total over the given rounds, best first (ties in entry order)."""
    by_id = {player_id: Total(player_id, name) for player_id, name in entrants}
    for lines in rounds:
        for line in lines:
            if line.player_id in by_id:
                by_id[line.player_id] = by_id[line.player_id].add(line)
    return sorted(by_id.values(), key=score, reverse=True)


def score(total: Total) -> int:
    """One number that sorts standings: higher is better; equal only for equal standings.

    It fits a double exactly (under 2**53), so a Redis sorted set keeps it exact.
    """
    time = min(total.total_time_ms, _TIME_BITS - 1)
    return (total.points * _ROUNDS_BASE + total.rounds_won) * _TIME_BITS + (_TIME_BITS - 1 - time)


def rank(scores: Iterable[int]) -> list[int]:
    """Competition ranks (1, 1, 3) of scores given best first."""
    ranks: list[int] = []
    previous: int | None = None
    for index, value in enumerate(scores):
        ranks.append(ranks[-1] if value == previous else index + 1)
        previous = value
    return ranks
