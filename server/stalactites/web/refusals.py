"""Refusals a client expects, answered 200: a request with ``Stalactites-Refusal: quiet``
that the server refuses (any 4xx: a wrong password, a second rename the same day, a name
taken) gets its usual body (``{"code", "message", ...}``) and headers with status 200, and
the refusal's own status in ``Stalactites-Refused``.

A browser logs every 4xx answer in its console as an error; the web client asks this way
where a refusal is part of the conversation and shown to the player in words, so that the
console keeps the errors that are errors.  Without the header nothing changes, and a server
failure (5xx) is never hidden.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["QUIET_HEADER", "REFUSED_HEADER", "QuietRefusals"]

QUIET_HEADER = b"stalactites-refusal"  # its value: quiet
REFUSED_HEADER = b"stalactites-refused"  # the refusal's own status, on a quiet answer


class QuietRefusals:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        quiet = scope["type"] == "http" and any(
            name.lower() == QUIET_HEADER and value.strip().lower() == b"quiet"
            for name, value in scope.get("headers", [])
        )
        if not quiet:
            await self.app(scope, receive, send)
            return

        async def send_quietly(message: Message) -> None:
            status = message.get("status", 200)
            if message["type"] == "http.response.start" and 400 <= status < 500:
                headers = [*message.get("headers", []), (REFUSED_HEADER, str(status).encode())]
                message = {**message, "status": 200, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_quietly)
