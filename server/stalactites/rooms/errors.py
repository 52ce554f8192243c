"""The error a room operation raises: a protocol code, a message, and an HTTP status."""

from __future__ import annotations

from ..engine import EngineError, InvalidMoveError, NotationError, StepLockedError
from ..protocol.room import ErrorCode

__all__ = ["HTTP_STATUS", "RoomError", "engine_code"]

HTTP_STATUS: dict[str, int] = {
    "bad_message": 422,
    "room_not_found": 404,
    "room_full": 409,
    "seats_reserved": 409,
    "not_started": 409,
    "not_finished": 409,
    "already_finished": 409,
    "not_waiting": 409,
    "unauthorized": 401,
    "rate_limited": 429,
    "already_seated": 409,
    "name_confusable": 409,
    "session_required": 401,
    "hint_solo_only": 403,
    "hints_off": 403,
    "run_not_found": 404,
    "own_run": 409,
    "not_certified": 409,
    "day_over": 409,
    "internal": 500,
}


class RoomError(Exception):
    """A refused request; ``code`` is one of the protocol's error codes."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message

    @property
    def http_status(self) -> int:
        return HTTP_STATUS.get(self.code, 400)


def engine_code(error: EngineError) -> ErrorCode:
    """The protocol code for an engine error (a refused undo is an illegal move here)."""
    if isinstance(error, InvalidMoveError | NotationError):
        return "invalid_move"
    if isinstance(error, StepLockedError):
        return "step_locked"
    return "illegal_move"
