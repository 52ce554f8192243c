"""How the HTTP API refuses a request: one exception, one table, one answer.

::

    Refused            an HTTP refusal: code, message, status (and field, headers, more)
    refusal(error)     a domain error as its Refused, by the table below:
        RoomError          ROOM_STATUS by code (else 400)
        TournamentError    TOURNAMENT_STATUS by code; ``field`` on bad_message
        PlayerError        PLAYER_STATUS by code (else 400); BadInput 422 with its ``field``
        FriendsError       FRIENDS_STATUS by code (else 409)
        ArenaError         ARENA_STATUS by code (else 409)
        FairPlayError      FAIRPLAY_STATUS by code (else 409)
        HintRefused        429 with ``Retry-After``
    answer(refused)    the JSON answer clients get

Handlers raise; the app's exception handlers (web/app.py) answer.  The body is
``{"code", "message"}``, then ``"field"`` where the refusal names one (null: the whole body),
then anything more the refusal carries.  The domain errors carry a code and a message only:
their statuses are HTTP's, and live here.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from typing import Any, Literal

from starlette.responses import JSONResponse

from ..arenas import ArenaError
from ..fairplay.service import FairPlayError
from ..friends import FriendsError
from ..players import BadInput, PlayerError, RenameTooSoon
from ..rooms import RoomError
from ..rooms.hints import HintRefused
from ..tournaments import TournamentError

__all__ = [
    "DOMAIN_ERRORS",
    "NO_FIELD",
    "Refused",
    "answer",
    "rate_limited",
    "refusal",
    "retry_after_header",
]


class _NoField(enum.Enum):
    NO_FIELD = "no field"


NO_FIELD = _NoField.NO_FIELD  # a refusal whose body has no "field" at all
Field = str | None | Literal[_NoField.NO_FIELD]


class Refused(Exception):
    """A refused request, answered ``{"code", "message"[, "field"], **more}`` with
    ``status`` and ``headers``; it changes nothing."""

    def __init__(
        self,
        code: str,
        message: str,
        status: int,
        field: Field = NO_FIELD,
        headers: Mapping[str, str] | None = None,
        more: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code, self.message, self.status, self.field = code, message, status, field
        self.headers = dict(headers or {})
        self.more = dict(more or {})

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.field is not NO_FIELD:
            body["field"] = self.field
        return body | self.more


def answer(refused: Refused) -> JSONResponse:
    return JSONResponse(refused.body(), status_code=refused.status, headers=refused.headers)


def retry_after_header(seconds: float) -> str:
    """The ``Retry-After`` value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))


def rate_limited(what: str, seconds: float) -> Refused:
    """429 ``rate_limited``: too many ``what``, and when to try again."""
    wait = retry_after_header(seconds)
    message = f"too many {what}; try again in {wait} s"
    return Refused("rate_limited", message, 429, headers={"Retry-After": wait})


ROOM_STATUS: dict[str, int] = {
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

TOURNAMENT_STATUS: dict[str, int] = {
    "bad_message": 422,
    "unauthorized": 401,
    "tournament_not_found": 404,
    "tournament_full": 409,
    "already_started": 409,
    "already_entered": 409,
    "rate_limited": 429,
    "internal": 500,
}

PLAYER_STATUS: dict[str, int] = {
    "username_taken": 409,
    "already_registered": 409,
    "bad_credentials": 401,
    "wrong_recovery_code": 401,
    "not_registered": 409,
    "rename_too_soon": 429,
    "name_taken": 409,
    "player_not_found": 404,
}

FRIENDS_STATUS: dict[str, int] = {
    "bad_message": 422,
    "not_found": 404,
    "player_not_found": 404,
    "no_room": 503,
}

ARENA_STATUS: dict[str, int] = {
    "not_found": 404,
    "not_entered": 404,
    "unauthorized": 403,  # not the arena's admin token
    "busy": 503,
}

FAIRPLAY_STATUS: dict[str, int] = {"bad_message": 422}

DOMAIN_ERRORS: tuple[type[Exception], ...] = (
    RoomError,
    TournamentError,
    PlayerError,
    FriendsError,
    ArenaError,
    FairPlayError,
    HintRefused,
)


def refusal(error: Exception, now_ms: int) -> Refused:
    """The HTTP refusal of a domain error (a :class:`Refused` as it is); ``now_ms``, the
    server's clock, says how long a rename must wait."""
    if isinstance(error, Refused):
        return error
    if isinstance(error, RoomError):
        return Refused(error.code, error.message, ROOM_STATUS.get(error.code, 400))
    if isinstance(error, TournamentError):
        return _tournament(error)
    if isinstance(error, PlayerError):
        return _player(error, now_ms)
    if isinstance(error, FriendsError):
        return Refused(error.code, error.message, FRIENDS_STATUS.get(error.code, 409))
    if isinstance(error, ArenaError):
        return Refused(error.code, error.message, ARENA_STATUS.get(error.code, 409))
    if isinstance(error, FairPlayError):
        return Refused(error.code, error.message, FAIRPLAY_STATUS.get(error.code, 409))
    if isinstance(error, HintRefused):
        wait = error.retry_after_s
        headers = None if wait is None else {"Retry-After": retry_after_header(wait)}
        return Refused(error.code, error.message, 429, headers=headers)
    raise TypeError(f"not a domain error: {error!r}")


def _tournament(error: TournamentError) -> Refused:
    field: Field = error.field if error.code == "bad_message" else NO_FIELD
    headers = {"WWW-Authenticate": "Bearer"} if error.code == "unauthorized" else None
    status = TOURNAMENT_STATUS[error.code]
    return Refused(error.code, error.message, status, field, headers)


def _player(error: PlayerError, now_ms: int) -> Refused:
    if isinstance(error, BadInput):
        return Refused(error.code, str(error), 422, error.field)
    if isinstance(error, RenameTooSoon):
        wait = retry_after_header((error.retry_at_ms - now_ms) / 1000)
        more = {"retry_at_ms": error.retry_at_ms}
        return Refused(error.code, str(error), 429, headers={"Retry-After": wait}, more=more)
    return Refused(error.code, str(error), PLAYER_STATUS.get(error.code, 400))
