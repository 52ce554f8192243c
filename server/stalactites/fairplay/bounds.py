"""The bounds of human play, what holds a run and what opens a case.

A run is **held** (:func:`hold_reasons`) only when its timing is beyond what any person could
input, with a wide margin: every bound below sits under the fastest published human input
figures, stacked together (record typing speed, no time to think, the client's queues
emptied at once).  A **case** (:func:`case_reasons`) is a pattern over a player's runs kept in
their :class:`Standing`: it holds nothing, it asks a moderator to look.

How soon a case opens on a paced perfect bot (1.5 s a move, constant): its every run of
``EVEN_MIN_GAPS`` gaps or more is even (a constant pace has a coefficient of variation of
0), so ``even_timing`` opens on its 5th run (``CASE_MIN_RUNS``), as it does for a pace with
up to about 15% of jitter; a bot whose pace varies more (a random 1-3 s) still keeps every
hard position, and ``perfect_at_hard_positions`` opens once it has kept
``CASE_HARD_POSITIONS`` of them: at about 6 a won run, on its 15th run or so (docs/fair-play.md
gives the measured spread).

A person makes a move in the web client with two inputs on two targets: a click on a card
then on its target, a double click on the card, or two keys (``3 f``).  An undo is one key
or click (``u`` held down repeats), so undos never count towards speed.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from .signals import STRETCH, Signals

__all__ = [
    "CASE_HARD_POSITIONS",
    "CASE_MIN_RUNS",
    "EVEN_CV",
    "EVEN_MIN_GAPS",
    "FIRST_MOVE_FLOOR_MS",
    "HARD_MAX_SHARE",
    "HARD_MIN_CHOICES",
    "INHUMAN_STRETCH_MS",
    "KEYSTROKE_MS",
    "MOVE_INPUT_MS",
    "PERFECT_MEDIAN_FLOOR_MS",
    "QUEUED_MOVES",
    "STRETCH",
    "Standing",
    "add",
    "case_reasons",
    "hold_reasons",
    "is_even",
]

# Human input: the floors.

# The Keystroke-Level Model (Card, Moran & Newell, "The Keystroke-Level Model for user
# performance time with interactive systems", CACM 23(7), 1980; "The Psychology of
# Human-Computer Interaction", 1983): a keystroke K takes 0.08 s for the best typists
# (135 wpm), 0.2 s for a good one; pointing with a mouse P 1.1 s on average, a button press
# or release B 0.1 s.  The fastest of them is the floor here.
KEYSTROKE_MS = 80
# A move needs two inputs (two keys, two clicks, or a double click on an aimed-at card);
# click-speed records (about 14 clicks a second with one finger, 20 and more "butterfly
# clicking" with two) are on one spot with no aiming, so no faster than two keystrokes.
MOVE_INPUT_MS = 2 * KEYSTROKE_MS
# How many moves the web client may send back to back, at the network's pace, after a
# stall: 16 keys typed ahead (8 moves) or 4 queued clicks, plus the move in flight
# (client_web/js/race/controls.js MAX_TYPED_AHEAD, client_web/js/race/game.js MAX_QUEUE).
QUEUED_MOVES = 9

# Speed: what holds a run.

# The fastest a person could make STRETCH moves: the (STRETCH - 1 - QUEUED_MOVES) gaps not
# absorbed by the queue at MOVE_INPUT_MS each = 1,600 ms, with no time to think; realistic
# fast play is several times slower (Fitts' law pointing at a card: MacKenzie 1992,
# Soukoreff & MacKenzie 2004, mouse throughput about 4 bits/s, so 0.5 s or more a target).
# Held below three quarters of that floor: 60 ms a move on average.
INHUMAN_STRETCH_MS = 1_200
# A whole run's median gap between moves: two keystrokes at the fastest typist's pace is
# 160 ms even for a player who knows the deal by heart (a daily deal practised, a ghost's
# deal); held, for a won perfect run, below three quarters of it.
PERFECT_MEDIAN_FLOOR_MS = 120
# The first move: the board arrives with the race's start, so it needs a response to a
# visual signal (simple visual reaction time is 200-250 ms; athletics counts any response
# under 100 ms as a false start, World Athletics rule TR 16.6) and two inputs.  A player
# who anticipates the start and knows the deal still needs two inputs after the board
# arrives: held, for a won perfect run, below the fastest two clicks (50 ms, butterfly
# clicking at 20 a second).
FIRST_MOVE_FLOOR_MS = 50

# Hard positions (the decisions, not sourced figures).

# A won position is hard when it offers at least HARD_MIN_CHOICES distinct moves (moves to
# the same position, such as one card to either empty cell, count once) and at most
# HARD_MAX_SHARE of them keep it won: 1 of 3, 2 of 6.  A player choosing at random keeps
# such a position at most a third of the time.
HARD_MIN_CHOICES = 3
HARD_MAX_SHARE = 1 / 3

# Cases: patterns over a player's runs.

# A run's timing is even when the coefficient of variation of its gaps is below EVEN_CV over
# at least EVEN_MIN_GAPS gaps.  People's times between decisions vary widely (choice
# reaction time grows with the number of choices, Hick 1952 and Hyman 1953; thinking at a
# hard position takes seconds, an obvious play a fraction of one); even metronome tapping,
# with nothing to decide, keeps a CV of a few percent (Repp 2005, "Sensorimotor
# synchronization", Psychonomic Bulletin & Review 12(6)), so 0.10 over a game of decisions
# is far below any person's.
EVEN_CV = 0.10
EVEN_MIN_GAPS = 20
# A case needs a pattern over at least this many runs (each with a gap count or hard
# positions to judge): one run is never a case.
CASE_MIN_RUNS = 5
# Perfect at hard positions: every hard position kept, over at least this many (a player
# who keeps each with 9 chances in 10 is perfect over 80 with a chance of 1 in 4,600; one
# choosing at random, of at most a third, 1 in 10^38).  A perfect player meets about 6 a
# won run (bench/fairplay.py).
CASE_HARD_POSITIONS = 80


def hold_reasons(signals: Signals) -> list[str]:
    """Why a run is held, as stable codes (empty: not held).

    ``inhuman_speed``: STRETCH timed moves within INHUMAN_STRETCH_MS.
    ``perfect_and_fast``: a won run with every decided move keeping the win (accuracy 1.0),
    whose median gap is under PERFECT_MEDIAN_FLOOR_MS or whose first move came under
    FIRST_MOVE_FLOOR_MS after the start."""
    reasons = []
    stretch = signals.fastest_stretch_ms
    if stretch is not None and stretch < INHUMAN_STRETCH_MS:
        reasons.append("inhuman_speed")
    if signals.won and signals.accuracy == 1.0:
        median, first = signals.median_gap_ms, signals.first_move_ms
        if (median is not None and median < PERFECT_MEDIAN_FLOOR_MS) or (
            first is not None and first < FIRST_MOVE_FLOOR_MS
        ):
            reasons.append("perfect_and_fast")
    return reasons


class Standing(BaseModel):
    """A player's rolling record of assessed runs: what :func:`case_reasons` reads."""

    runs: int = Field(default=0, description="runs assessed")
    held: int = Field(default=0, description="runs held (hold_reasons not empty)")
    won: int = Field(default=0, description="runs won")
    perfect: int = Field(default=0, description="won runs with accuracy 1.0")
    hard_runs: int = Field(default=0, description="runs with at least one hard position")
    hard_positions: int = Field(default=0, description="hard positions met, all runs together")
    hard_kept: int = Field(default=0, description="of them, how many the player kept won")
    paced_runs: int = Field(
        default=0, description="timed runs with at least EVEN_MIN_GAPS gaps (cv known)"
    )
    even_runs: int = Field(default=0, description="of them, runs with gap_cv below EVEN_CV")


def is_even(signals: Signals) -> bool | None:
    """Whether a run's timing is inhumanly even (None: too few gaps to tell)."""
    if signals.gap_cv is None or signals.gaps < EVEN_MIN_GAPS:
        return None
    return signals.gap_cv < EVEN_CV


def add(standing: Standing, signals: Signals) -> Standing:
    """The standing with one more assessed run (a new value; the old is unchanged)."""
    even = is_even(signals)
    return Standing(
        runs=standing.runs + 1,
        held=standing.held + bool(hold_reasons(signals)),
        won=standing.won + signals.won,
        perfect=standing.perfect + (signals.won and signals.accuracy == 1.0),
        hard_runs=standing.hard_runs + (signals.hard_positions > 0),
        hard_positions=standing.hard_positions + signals.hard_positions,
        hard_kept=standing.hard_kept + signals.hard_kept,
        paced_runs=standing.paced_runs + (even is not None),
        even_runs=standing.even_runs + bool(even),
    )


def case_reasons(standing: Standing) -> list[str]:
    """Why a player's runs open a case, as stable codes (empty: none).

    ``perfect_at_hard_positions``: every hard position kept, CASE_HARD_POSITIONS or more of
    them over CASE_MIN_RUNS runs or more.
    ``even_timing``: more than half the paced runs are even, and at least CASE_MIN_RUNS."""
    reasons = []
    if (
        standing.hard_positions >= CASE_HARD_POSITIONS
        and standing.hard_kept == standing.hard_positions
        and standing.hard_runs >= CASE_MIN_RUNS
    ):
        reasons.append("perfect_at_hard_positions")
    if standing.even_runs >= CASE_MIN_RUNS and 2 * standing.even_runs > standing.paced_runs:
        reasons.append("even_timing")
    return reasons
