"""``solve`` and ``hint``: the solver's answers for a game from its current position."""

from __future__ import annotations

import copy
import time
from typing import TypeVar

from ..engine import Game, Move, Squadron, Stalactites, StepLockedError
from ..engine.cards import card
from ..engine.errors import NotationError
from ..engine.stalactites import Step
from . import squadron, stalactites
from .result import Solution, Verdict

__all__ = ["hint", "solve"]

G = TypeVar("G", bound=Game)

# Cards are immutable and shared: a copy of a game keeps them (deepcopy would clone each).
_SHARED_CARDS = {id(c): c for c in (card(rank, suit) for rank in range(1, 14) for suit in range(4))}


def _copy(game: G) -> G:
    """A copy of ``game`` to play a line on, leaving the caller's game untouched."""
    return copy.deepcopy(game, dict(_SHARED_CARDS))


def solve(
    game: Game,
    step: str | None = None,
    max_states: int | None = None,
    *,
    seconds: float | None = None,
) -> Solution:
    """Search ``game`` from its current position; the game itself is left unchanged.

    For Stalactites with the step not yet fixed, ``step`` ("ones" or "twos") says which step
    to search; without it both are searched (ones first).  ``max_states`` caps the positions
    searched (Stalactites: no cap unless given; Squadron: ``squadron.DEFAULT_STATES``), and
    ``seconds`` caps Squadron's search time (a Stalactites search never needs one); past
    either the verdict is ``unknown``.
    """
    started = time.perf_counter()
    if isinstance(game, Stalactites):
        verdict, moves, states = _solve_stalactites(game, step, max_states)
    elif isinstance(game, Squadron):
        if step is not None:
            raise NotationError(f"Squadron has no step: {step!r}")
        verdict, moves, states = _solve_squadron(game, max_states, seconds)
    else:
        raise TypeError(f"no solver for {type(game).__name__}")
    return Solution(verdict, moves, states, time.perf_counter() - started)


def hint(game: Game, max_states: int | None = None) -> Move | None:
    """The best next move: the first of a winning line; when the budget runs out first, the
    first of the line that brought the most cards home; None when the game is lost or over."""
    if isinstance(game, Stalactites):
        return _hint_stalactites(game, max_states)
    if isinstance(game, Squadron):
        return _hint_squadron(game, max_states)
    raise TypeError(f"no solver for {type(game).__name__}")


# Stalactites.


def _steps(game: Stalactites, step: str | None) -> list[Step]:
    asked = None if step is None else Step.parse(step)
    if game.step is not None:
        if asked is not None and asked is not game.step:
            raise StepLockedError(f"the step is already fixed: {game.step}, cannot solve {asked}")
        return [game.step]
    return [asked] if asked is not None else [Step.ONES, Step.TWOS]


def _solve_stalactites(
    game: Stalactites, step: str | None, max_states: int | None
) -> tuple[Verdict, list[Move], int]:
    verdicts, states = [], 0
    for each in _steps(game, step):
        search = stalactites.StalactitesSearch(
            stalactites.StalactitesPosition.of(game, each), max_states
        )
        verdict = search.run()
        states += search.states
        if verdict is Verdict.WON:
            return verdict, stalactites.play_line(_copy(game), search.plays), states
        verdicts.append(verdict)
    if Verdict.UNKNOWN in verdicts:
        return Verdict.UNKNOWN, [], states
    return Verdict.LOST, [], states


def _hint_stalactites(game: Stalactites, max_states: int | None) -> Move | None:
    fallback: list[stalactites.Dig] = []
    for step in _steps(game, None):
        search = stalactites.StalactitesSearch(
            stalactites.StalactitesPosition.of(game, step), max_states
        )
        verdict = search.run()
        if verdict is Verdict.WON and search.plays:
            return stalactites.play_line(_copy(game), search.plays[:1])[0]
        if verdict is Verdict.UNKNOWN and not fallback:
            fallback = search.best
    if not fallback:
        return None
    return stalactites.play_line(_copy(game), fallback[:1])[0]


# Squadron.


def _solve_squadron(
    game: Squadron, max_states: int | None, seconds: float | None
) -> tuple[Verdict, list[Move], int]:
    search = squadron.SquadronSearch(game, max_states, seconds)
    verdict = search.run()
    moves: list[Move] = []
    if verdict is Verdict.WON:
        moves = squadron.play_line(_copy(game), search.line)
    return verdict, moves, search.states


def _hint_squadron(game: Squadron, max_states: int | None) -> Move | None:
    search = squadron.SquadronSearch(game, max_states)
    verdict = search.run()
    line = search.line if verdict is Verdict.WON else search.best
    if verdict is Verdict.LOST or not line:
        return None
    return squadron.play_line(_copy(game), line[:1])[0]
