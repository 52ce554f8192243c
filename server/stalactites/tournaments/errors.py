"""The error a tournament request raises: a protocol code and a message (its HTTP status:
web/errors.py)."""

from __future__ import annotations

from ..protocol.tournament import TournamentErrorCode

__all__ = ["TournamentError"]


class TournamentError(Exception):
    """A refused request; ``code`` is one of the tournament protocol's error codes."""

    def __init__(self, code: TournamentErrorCode, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code: TournamentErrorCode = code
        self.message = message
        self.field = field  # the request field at fault, for a bad_message
