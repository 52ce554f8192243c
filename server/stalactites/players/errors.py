"""What the players' service refuses, each error with its protocol code.

::

    PlayerError                   code
    ├── BadInput                  (the request itself is wrong; ``field`` names what)
    │   ├── BadUsername           bad_username
    │   ├── BadPassword           bad_password
    │   ├── BadName               bad_name
    │   ├── BadCursor             bad_cursor
    │   ├── BadLimit              bad_limit
    │   ├── BadGame               bad_game
    │   ├── BadRace               bad_race
    │   └── BadRecoveryCode       bad_recovery_code (not even the form of a recovery code)
    ├── UsernameTaken             username_taken
    ├── AlreadyRegistered         already_registered
    ├── BadCredentials            bad_credentials (a wrong password and an unknown username alike)
    ├── WrongRecoveryCode         wrong_recovery_code (a wrong or used code, an unknown username)
    ├── NotRegistered             not_registered (recovery codes are for accounts)
    ├── RenameTooSoon             rename_too_soon (``retry_at_ms`` says when)
    ├── NameTaken                 name_taken (a name given before, or confusable with one)
    └── PlayerNotFound            player_not_found

A refused request changes nothing.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "AlreadyRegistered",
    "BadCredentials",
    "BadCursor",
    "BadGame",
    "BadInput",
    "BadLimit",
    "BadName",
    "BadPassword",
    "BadRace",
    "BadRecoveryCode",
    "BadUsername",
    "NameTaken",
    "NotRegistered",
    "PlayerError",
    "PlayerNotFound",
    "RenameTooSoon",
    "UsernameTaken",
    "WrongRecoveryCode",
]


class PlayerError(Exception):
    """The root: ``code`` is the protocol's name for it."""

    code: ClassVar[str] = "player_error"


class BadInput(PlayerError):
    """A request's field is not acceptable; ``field`` names it."""

    field: ClassVar[str] = ""


class BadUsername(BadInput):
    code = "bad_username"
    field = "username"


class BadPassword(BadInput):
    code = "bad_password"
    field = "password"


class BadName(BadInput):
    code = "bad_name"
    field = "name"


class BadCursor(BadInput):
    code = "bad_cursor"
    field = "before"


class BadLimit(BadInput):
    code = "bad_limit"
    field = "limit"


class BadGame(BadInput):
    code = "bad_game"
    field = "game"


class BadRace(BadInput):
    code = "bad_race"
    field = "result"


class BadRecoveryCode(BadInput):
    code = "bad_recovery_code"
    field = "code"


class UsernameTaken(PlayerError):
    code = "username_taken"


class AlreadyRegistered(PlayerError):
    code = "already_registered"


class BadCredentials(PlayerError):
    code = "bad_credentials"


class WrongRecoveryCode(PlayerError):
    code = "wrong_recovery_code"


class NotRegistered(PlayerError):
    code = "not_registered"


class RenameTooSoon(PlayerError):
    code = "rename_too_soon"

    def __init__(self, retry_at_ms: int) -> None:
        super().__init__(f"a name may be changed once a day; next at {retry_at_ms}")
        self.retry_at_ms = retry_at_ms


class NameTaken(PlayerError):
    code = "name_taken"


class PlayerNotFound(PlayerError):
    code = "player_not_found"
