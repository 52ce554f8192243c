"""The error a tournament request raises: a protocol code, a message, and an HTTP status."""

from __future__ import annotations

from ..protocol.tournament import TournamentErrorCode

__all__ = ["HTTP_STATUS", "TournamentError"]

HTTP_STATUS: dict[str, int] = {
    "bad_message": 422,
    "unauthorized": 401,
    "tournament_not_found": 404,
    "tournament_full": 409,
    "already_started": 409,
    "already_entered": 409,
    "rate_limited": 429,
    "internal": 500,
}


class TournamentError(Exception):
    """A refused request; ``code`` is one of the tournament protocol's error codes."""

    def __init__(self, code: TournamentErrorCode, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code: TournamentErrorCode = code
        self.message = message
        self.field = field  # the request field at fault, for a bad_message

    @property
    def http_status(self) -> int:
        return HTTP_STATUS[self.code]
