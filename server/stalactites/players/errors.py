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

A refused request changes nothing.  Each class's docstring is its code's meaning, as
:func:`stalactites.protocol.codes.error_codes` lists it.
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
    """A username that is not 3 to 20 letters, digits, ``_`` or ``-``."""

    code = "bad_username"
    field = "username"


class BadPassword(BadInput):
    """A password that is not 8 to 128 characters."""

    code = "bad_password"
    field = "password"


class BadName(BadInput):
    """A display name that is not 1 to 20 visible characters."""

    code = "bad_name"
    field = "name"


class BadCursor(BadInput):
    """A history page's ``before`` that is no cursor the server gave."""

    code = "bad_cursor"
    field = "before"


class BadLimit(BadInput):
    """A page's ``limit`` or ``offset`` out of its range."""

    code = "bad_limit"
    field = "limit"


class BadGame(BadInput):
    """A game the server does not have."""

    code = "bad_game"
    field = "game"


class BadRace(BadInput):
    """A race result that is not well formed (a room id that is none)."""

    code = "bad_race"
    field = "result"


class BadRecoveryCode(BadInput):
    """Not even the form of a recovery code."""

    code = "bad_recovery_code"
    field = "code"


class UsernameTaken(PlayerError):
    """A username another account has."""

    code = "username_taken"


class AlreadyRegistered(PlayerError):
    """An account made for a player who has one."""

    code = "already_registered"


class BadCredentials(PlayerError):
    """A wrong password, or an unknown username (the same answer)."""

    code = "bad_credentials"


class WrongRecoveryCode(PlayerError):
    """A recovery code that is wrong or used, or an unknown username."""

    code = "wrong_recovery_code"


class NotRegistered(PlayerError):
    """What only an account may do (recovery codes, a bot), asked by an anonymous player."""

    code = "not_registered"


class RenameTooSoon(PlayerError):
    """A new name less than a day after the last; ``retry_at_ms`` says when."""

    code = "rename_too_soon"

    def __init__(self, retry_at_ms: int) -> None:
        super().__init__(f"a name may be changed once a day; next at {retry_at_ms}")
        self.retry_at_ms = retry_at_ms


class NameTaken(PlayerError):
    """A name given before, or confusable with one."""

    code = "name_taken"


class PlayerNotFound(PlayerError):
    """No such player."""

    code = "player_not_found"
