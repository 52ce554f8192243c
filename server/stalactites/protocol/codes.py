"""Every error code a client can receive, with what it means: :func:`error_codes`.

It is the union of the sockets' tables (:data:`.room.ERROR_CODES`, which HTTP shares,
``TOURNAMENT_ERROR_CODES``, ``MATCH_ERROR_CODES``, ``NOTIFY_ERROR_CODES``,
``ARENA_ERROR_CODES``), the players' errors (each class's ``code``, its docstring the meaning)
and :data:`HTTP_ERROR_CODES`, the codes only the HTTP API answers.  The web client's
catalogues have an ``error.<code>`` text for each (tests/test_client_error_codes.py).
"""

from __future__ import annotations

from ..players.errors import PlayerError
from .arenas import ARENA_ERROR_CODES
from .friends import NOTIFY_ERROR_CODES
from .match import MATCH_ERROR_CODES
from .room import ERROR_CODES
from .tournament import TOURNAMENT_ERROR_CODES

__all__ = ["HTTP_ERROR_CODES", "error_codes", "player_error_codes"]

# The codes of the friends', arenas', fair play's and the web layer's own HTTP refusals
# (web/errors.py gives their statuses): no player error names one, and no socket's table
# but the arena socket's `not_found`, whose meaning here is the wider one.
HTTP_ERROR_CODES: dict[str, str] = {
    "not_found": "404: no such challenge (or not one to or of this player), arena or page",
    "bad_origin": "403: a state-changing request with the session cookie (or an `Origin` "
    "not allowed) from a page of another site",
    "forbidden": "403: a moderators' request from a player who is not one",
    "own_follow": "409: a follow of oneself",
    "own_block": "409: a block of oneself",
    "own_challenge": "409: a challenge to oneself",
    "already_open": "409: a challenge to a player one has an open challenge to already",
    "not_open": "409: an answer to a challenge that is no longer open",
    "rated_pools": "409: a rated challenge between a bot and a human (bots race bots)",
    "too_many": "409: too many open challenges, players followed or players blocked",
    "no_room": "503: the race of an accepted challenge could not be made; challenge again",
    "closed": "409: an entry to an arena that takes no more entrants (its last minute)",
    "rating_band": "409: an entry to an arena whose rating band the player is outside",
    "not_entered": "404: a pause or berserk in an arena one has not entered",
    "not_racing": "409: berserk with no race made for the player",
    "too_late": "409: berserk once the race has started (or starts in half a second)",
    "busy": "503: an arena changed by others too often to apply a change; try again",
    "own_report": "409: a report of oneself",
    "no_appeal": "409: an appeal from a player who is not marked or has appealed already",
    "rated_before": "409: a bot declared by an account that has raced rated",
}


def player_error_codes() -> dict[str, str]:
    """The players' errors' codes, each with its class's docstring as a table's line."""
    found: dict[str, str] = {}
    classes = PlayerError.__subclasses__()
    while classes:
        cls = classes.pop(0)
        classes += cls.__subclasses__()
        if "code" in vars(cls):
            doc = " ".join((cls.__doc__ or "").split()).replace("``", "`").rstrip(".")
            found[cls.code] = doc[:1].lower() + doc[1:]
    return found


def error_codes() -> dict[str, str]:
    """Every code a client can receive and its meaning: a code in more than one table keeps
    the first one's (the room's, then HTTP's, the players', then the other sockets')."""
    tables = [
        ERROR_CODES,
        HTTP_ERROR_CODES,
        player_error_codes(),
        TOURNAMENT_ERROR_CODES,
        MATCH_ERROR_CODES,
        NOTIFY_ERROR_CODES,
        ARENA_ERROR_CODES,
    ]
    codes: dict[str, str] = {}
    for table in tables:
        for code, meaning in table.items():
            codes.setdefault(code, meaning)
    return codes
