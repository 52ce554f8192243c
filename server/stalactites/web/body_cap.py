"""The cap on every HTTP request's body (``STALACTITES_MAX_BODY_BYTES``), in one place.

:class:`BodyCap` reads a request's whole body before any route runs, counting its bytes as
they arrive, and hands the route the body it read.  A body over the cap is answered 413
``bad_message`` and the route never runs: at once when its ``Content-Length`` says so (the
body left unread), as soon as its bytes pass the cap when it comes without one (chunked).
So every route is capped, the routes that ignore their body too; websockets are not
requests (their frames have a cap of their own).
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import Refused, answer

__all__ = ["BodyCap"]


class BodyCap:
    """ASGI middleware: a request's body, at most ``max_bytes``, read before the app runs."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if _declared(scope) > self.max_bytes:
            return await self._refuse(scope, receive, send)
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away: nobody to answer
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                return await self._refuse(scope, receive, send)
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        await self.app(scope, _replay(b"".join(chunks), receive), send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = f"a request's body is at most {self.max_bytes} bytes"
        await answer(Refused("bad_message", message, 413))(scope, receive, send)


def _declared(scope: Scope) -> int:
    """The request's ``Content-Length`` (0 without one: the body is counted as it comes)."""
    text = Headers(scope=scope).get("content-length", "")
    return int(text) if text.isascii() and text.isdigit() else 0


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body read once, then waits on the client (a disconnect)."""
    given = False

    async def replayed() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replayed
