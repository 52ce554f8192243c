"""The signals of one run for fair play: its timing and its accuracy, as plain numbers.

What counts where:

* **Timing** reads the *timed moves*: every move, but not undos or step declarations (one key
  each, which a person may hold down), nor, in a room whose record does not say the
  auto-play assist was off, a move the assist could have made (the client plays those by
  itself, at the network's pace).  A gap is the time between two consecutive timed moves
  (whatever else came between them).
* **Accuracy** reads the moves (not undos, not step declarations) played from a won position
  whose result is decided (Squadron's verdicts may be unknown).

:func:`signals_of` is the pure computation, from a run's timed moves' times and its
decisions; :mod:`.assess` gets those from a room's record with the solver.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, Field

__all__ = ["STRETCH", "Decision", "Signals", "Timing", "signals_of", "timing"]

# A stretch of consecutive timed moves (undos, step declarations and the
# auto-play's moves are not timed); longer than the client's queue, so that a queue emptied
# at once cannot make it short.
STRETCH = 20


class Signals(BaseModel):
    """One run's fair-play signals (null: not enough of the run to tell)."""

    actions: int = Field(description="every action: moves, undos and step declarations")
    moves: int = Field(description="moves played (undos and step declarations not counted)")
    untimed: bool = Field(description="the record has no action times: every timing is null")
    gaps: int = Field(description="gaps between consecutive timed moves (see the module)")
    first_move_ms: int | None = Field(
        description="race-clock time of the first timed move (null: none, or untimed)"
    )
    median_gap_ms: int | None = Field(description="median gap (null: fewer than 2 gaps)")
    gap_cv: float | None = Field(
        description="coefficient of variation of the gaps: standard deviation over mean "
        "(0 when all are 0; null: fewer than 2 gaps)"
    )
    fastest_stretch_ms: int | None = Field(
        description=f"the shortest time spanning {STRETCH} consecutive timed moves, first to "
        "last (null: fewer of them)"
    )
    decided: int = Field(description="moves from a won position with a decided result")
    kept: int = Field(description="of them, the moves that kept the position won")
    accuracy: float | None = Field(description="kept / decided (null: none decided)")
    hard_positions: int = Field(
        description="decided moves made at a hard position: won, with at least HARD_MIN_CHOICES "
        "distinct moves every one of them decided, at most HARD_MAX_SHARE of them keeping it "
        "won (bounds.py)"
    )
    hard_kept: int = Field(description="of them, the moves that kept the position won")
    hard_accuracy: float | None = Field(description="hard_kept / hard_positions (null: none)")
    won: bool = Field(description="the run's status is won")


@dataclass(frozen=True, slots=True)
class Decision:
    """A move from a won position whose result is decided: did it keep the win, and was the
    position hard?"""

    kept: bool
    hard: bool


@dataclass(frozen=True, slots=True)
class Timing:
    first_move_ms: int | None
    gaps: int
    median_gap_ms: int | None
    gap_cv: float | None
    fastest_stretch_ms: int | None


UNTIMED = Timing(None, 0, None, None, None)


def timing(times: Sequence[int]) -> Timing:
    """The timing of the timed moves' race-clock times (in order)."""
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    median = cv = None
    if len(gaps) >= 2:
        median = round(statistics.median(gaps))
        mean = statistics.fmean(gaps)
        cv = round(statistics.pstdev(gaps, mean) / mean, 4) if mean > 0 else 0.0
    stretch = None
    if len(times) >= STRETCH:
        span = STRETCH - 1
        stretch = min(times[i + span] - times[i] for i in range(len(times) - span))
    first = times[0] if times else None
    return Timing(first, len(gaps), median, cv, stretch)


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def signals_of(
    *,
    actions: int,
    moves: int,
    won: bool,
    times: Sequence[int] | None,
    decisions: Sequence[Decision],
) -> Signals:
    """A run's signals: ``times`` are its timed moves' race-clock times (None: an untimed
    record), ``decisions`` its moves from won positions with a decided result."""
    timed = UNTIMED if times is None else timing(times)
    kept = sum(d.kept for d in decisions)
    hard = [d for d in decisions if d.hard]
    hard_kept = sum(d.kept for d in hard)
    return Signals(
        actions=actions,
        moves=moves,
        untimed=times is None,
        gaps=timed.gaps,
        first_move_ms=timed.first_move_ms,
        median_gap_ms=timed.median_gap_ms,
        gap_cv=timed.gap_cv,
        fastest_stretch_ms=timed.fastest_stretch_ms,
        decided=len(decisions),
        kept=kept,
        accuracy=_share(kept, len(decisions)),
        hard_positions=len(hard),
        hard_kept=hard_kept,
        hard_accuracy=_share(hard_kept, len(hard)),
        won=won,
    )
