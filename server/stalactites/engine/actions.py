"""Logged actions: what a player's action log holds, and playing one on a game.

An action is a move in the project's notation, ``undo`` (take the last move back), or
``step:ones`` / ``step:twos`` (declare a Stalactites foundation step).  Rooms store their
players' boards as these logs; replays, analyses and fair play read them back.
"""

from __future__ import annotations

from .cards import Move
from .errors import IllegalMoveError
from .game import Game
from .stalactites import Stalactites

__all__ = ["STEP_PREFIX", "UNDO", "apply_action"]

UNDO = "undo"
STEP_PREFIX = "step:"


def apply_action(game: Game, action: str) -> Move | None:
    """Apply one logged action: the move played or taken back (None for a step declaration);
    raises the engine's error if it does not apply."""
    if action == UNDO:
        return game.pop()
    if action.startswith(STEP_PREFIX):
        if not isinstance(game, Stalactites):
            raise IllegalMoveError(f"{game.name} has no foundation step")
        game.declare_step(action[len(STEP_PREFIX) :])
        return None
    return game.push(action)
