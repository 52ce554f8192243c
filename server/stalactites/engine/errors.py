"""Errors raised by the rules engine.

The tree::

    EngineError                 root: anything the engine refuses (a ValueError)
    ├── NotationError           text that is not a card, pile or deal id
    │   └── InvalidMoveError    text that is not a move at all          (invalid_move)
    ├── IllegalMoveError        a move, but not a legal one here        (illegal_move)
    ├── StepLockedError         the foundation step is already fixed    (step_locked)
    └── UndoError               nothing to undo, or a stock deal        (undo_refused)

Each class carries the protocol ``code`` that the server and the command line
report, so that one place can turn any engine error into an answer.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "EngineError",
    "IllegalMoveError",
    "InvalidMoveError",
    "NotationError",
    "StepLockedError",
    "UndoError",
]


class EngineError(ValueError):
    """Root of every error the engine raises."""

    code: ClassVar[str] = "engine_error"


class NotationError(EngineError):
    """Text that does not follow the project's notation."""

    code: ClassVar[str] = "bad_notation"


class InvalidMoveError(NotationError):
    """Text that is not a move at all, such as ``"t3f1"`` or ``"t0-f1"``."""

    code: ClassVar[str] = "invalid_move"


class IllegalMoveError(EngineError):
    """A well-formed move that the rules do not allow in this position."""

    code: ClassVar[str] = "illegal_move"


class StepLockedError(EngineError):
    """A step declaration after the foundation step was already fixed."""

    code: ClassVar[str] = "step_locked"


class UndoError(EngineError):
    """An undo with nothing to take back, or one that would take back a stock deal."""

    code: ClassVar[str] = "undo_refused"
