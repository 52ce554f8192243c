"""A player's session on a request: ``Authorization: Bearer`` or the session cookie.

The web client keeps its session in an HttpOnly cookie (``stalactites_session``, Path=/,
SameSite=Lax, Secure when the request came over https: uvicorn sets the scheme from a trusted
proxy's ``X-Forwarded-Proto``), so page scripts cannot read it.  Lax rather than Strict: a
link to a room from another site arrives signed in (a GET, which changes nothing), while a
cross-site POST carries no cookie.  On top of that, every state-changing request that carries
the cookie must come with an allowed ``Origin`` (the server's own, or
``STALACTITES_ALLOWED_ORIGINS``, as for websockets, :mod:`..origin`): else 403 ``bad_origin``.
A request with any ``Origin`` header that is not allowed is refused the same way.  API
clients send ``Authorization: Bearer <token>``: a page on another site cannot add that header
without a CORS preflight this server never answers, so it needs no Origin check.

A token never goes into a URL (none is read from one) or a log line.
"""

from __future__ import annotations

from starlette.requests import HTTPConnection
from starlette.responses import Response

from ...players.sessions import SESSION_DAYS
from ...store.players.base import PlayerRecord
from ..errors import Refused
from ..origin import origins
from ..process import process_of

__all__ = [
    "COOKIE",
    "bad_origin",
    "forget_cookie",
    "request_token",
    "session_player",
    "set_cookie",
    "signed_in",
    "unauthorized",
]

COOKIE = "stalactites_session"


def request_token(connection: HTTPConnection) -> tuple[str | None, bool]:
    """The session token the request carries, and whether it came in the cookie."""
    header = connection.headers.get("authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip(), False
    cookie = connection.cookies.get(COOKIE)
    return (cookie, True) if cookie else (None, False)


def bad_origin(connection: HTTPConnection, from_cookie: bool) -> None:
    """Refuse (403) a state-changing request from a page it should not come from."""
    origin = connection.headers.get("origin")
    allowed = origins(process_of(connection).config.allowed_origins)
    if origin is None and not from_cookie:
        return
    if origin is not None and allowed.allow(origin, connection.headers.get("host")):
        return
    message = "a request with the session cookie comes from this site's pages only"
    raise Refused("bad_origin", message, 403)


async def session_player(connection: HTTPConnection, changing: bool) -> PlayerRecord | None:
    """The signed-in player (None: no session, or one that is no longer alive); a
    state-changing (``changing``) cookie request from elsewhere is refused (403)."""
    token, from_cookie = request_token(connection)
    if changing:
        bad_origin(connection, from_cookie)
    if token is None:
        return None
    return await process_of(connection).players.resolve(token)


def unauthorized() -> Refused:
    return Refused("unauthorized", "sign in first: no live session", 401)


async def signed_in(connection: HTTPConnection, changing: bool) -> PlayerRecord:
    """The signed-in player, else 401 (403 as :func:`session_player` refuses)."""
    player = await session_player(connection, changing)
    if player is None:
        raise unauthorized()
    return player


def set_cookie(connection: HTTPConnection, response: Response, token: str) -> None:
    response.set_cookie(
        COOKIE,
        token,
        max_age=SESSION_DAYS * 86_400,
        path="/",
        secure=connection.url.scheme in ("https", "wss"),
        httponly=True,
        samesite="lax",
    )


def forget_cookie(connection: HTTPConnection, response: Response) -> None:
    response.delete_cookie(
        COOKIE,
        path="/",
        secure=connection.url.scheme in ("https", "wss"),
        httponly=True,
        samesite="lax",
    )
