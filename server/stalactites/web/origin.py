"""Which web pages may open the websockets: the ``Origin`` of the handshake.

A browser sends ``Origin`` with every websocket handshake, and a page cannot
forge it, so checking it stops a page on another site from opening sockets in
its visitors' browsers (cross-site websocket hijacking).  It is checked
against ``STALACTITES_ALLOWED_ORIGINS`` (comma-separated origins such as
``https://race.example``, or ``*`` for any) and the server's own pages are
always allowed: an Origin whose host and port are the ``Host`` header's.  By
default the list is empty: the same origin only.  Behind a proxy, the proxy
must pass ``Host`` on as the browser sent it (``deploy/nginx.conf.template``
does: ``$http_host``, which keeps the port).

A handshake without ``Origin`` is allowed: it does not come from a web page
(command-line clients, the tests and the benchmarks send none), and a client
that is not a browser could send any Origin it likes anyway, so refusing it
would protect nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

__all__ = ["Origins", "origins"]

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


@dataclass(frozen=True, slots=True)
class Origins:
    """The origins allowed besides the server's own (``scheme://host:port``)."""

    allowed: frozenset[str]
    anything: bool = False

    def allow(self, origin: str | None, host: str | None) -> bool:
        """Whether a handshake with this ``Origin`` and ``Host`` header may go on."""
        if origin is None or self.anything:
            return True
        parsed = _origin(origin)
        if parsed is None:
            return False  # "null" (a sandboxed page, a file) or not an origin at all
        scheme, netloc = parsed
        if f"{scheme}://{netloc}" in self.allowed:
            return True
        return host is not None and _netloc(host, scheme) == netloc


@lru_cache(maxsize=8)
def origins(setting: str) -> Origins:
    """The allow-list of ``STALACTITES_ALLOWED_ORIGINS``; a bad entry raises ValueError."""
    entries = [entry.strip() for entry in setting.split(",") if entry.strip()]
    if "*" in entries:
        return Origins(frozenset(), anything=True)
    allowed = set()
    for entry in entries:
        parsed = _origin(entry)
        if parsed is None:
            raise ValueError(f"STALACTITES_ALLOWED_ORIGINS: {entry!r} is not an origin")
        allowed.add(f"{parsed[0]}://{parsed[1]}")
    return Origins(frozenset(allowed))


def _origin(text: str) -> tuple[str, str] | None:
    """(scheme, ``host:port``) in lower case with the port always there, or None."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    if parts.query or parts.fragment or parts.username is not None:
        return None
    return scheme, f"{_host(parts.hostname)}:{port or DEFAULT_PORTS[scheme]}"


def _netloc(host: str, scheme: str) -> str | None:
    """A ``Host`` header as ``host:port`` (the scheme's port when it names none), or None."""
    try:
        parts = urlsplit(f"//{host.strip()}")
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or parts.username is not None:
        return None
    return f"{_host(parts.hostname)}:{port or DEFAULT_PORTS[scheme]}"


def _host(name: str) -> str:
    name = name.lower()
    return f"[{name}]" if ":" in name else name
