"""The security headers of every HTTP answer (the page, its scripts and styles, the API,
errors): a pure ASGI middleware, so that no route can forget them.

- ``Content-Security-Policy``: scripts, styles, images, fonts and connections
  (fetch and websockets: ``'self'`` takes ``ws:``/``wss:`` of the same host)
  from this origin only; no inline script or ``style=`` markup (the web client sets
  styles through the CSSOM, which the policy allows), no plugins, no ``<base>``;
  ``frame-ancestors 'none'``: no page may frame this one (clickjacking).
- ``X-Frame-Options: DENY``: the same for browsers that ignore ``frame-ancestors``.
- ``X-Content-Type-Options: nosniff``: a script or style is run only if it is
  served as one.
- ``Referrer-Policy: no-referrer``: the client's addresses carry room ids
  (``#room/...``: the fragment is never sent, but nothing here needs a referrer
  either), so no address of this site is sent to another, nor to this one.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CONTENT_SECURITY_POLICY", "SECURITY_HEADERS", "SecurityHeaders"]

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)

SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP response of ``app``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                extra = [header for header in SECURITY_HEADERS if header[0] not in names]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)
