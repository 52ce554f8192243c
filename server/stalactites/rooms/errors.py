"""The error a room operation raises: a protocol code and a message (its HTTP status:
web/errors.py)."""

from __future__ import annotations

from ..engine import EngineError, InvalidMoveError, NotationError, StepLockedError
from ..protocol.room import ErrorCode

__all__ = ["RoomError", "engine_code"]


class RoomError(Exception):
    """A refused request; ``code`` is one of the protocol's error codes."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message


def engine_code(error: EngineError) -> ErrorCode:
    """The protocol code for an engine error (a refused undo is an illegal move here)."""
    if isinstance(error, InvalidMoveError | NotationError):
        return "invalid_move"
    if isinstance(error, StepLockedError):
        return "step_locked"
    return "illegal_move"
