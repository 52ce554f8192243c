"""Session tokens: 256 random bits, named by their player, stored only as SHA-256 hashes.

A token is ``PLAYER_ID~SECRET``: the secret is 32 bytes from :mod:`secrets` in base64url.
Naming the player lets a session live beside its player's other keys (one Redis Cluster
slot: signing out everywhere is one atomic step); the player id is not a secret.  Only
:func:`token_hash` of a token is ever stored.
"""

from __future__ import annotations

import hashlib
import re
import secrets

__all__ = ["ANONYMOUS_IDLE_DAYS", "SESSION_DAYS", "new_token", "parse_token", "token_hash"]

SESSION_DAYS = 365  # a session lasts this long from its creation (the web client's cookie too)
ANONYMOUS_IDLE_DAYS = 30  # an anonymous player that never raced is forgotten this long after
# its sessions' last use
_TOKEN = re.compile(r"(p\.[0-9a-f]{16})~[A-Za-z0-9_-]{43}")


def new_token(player_id: str) -> str:
    return f"{player_id}~{secrets.token_urlsafe(32)}"


def parse_token(token: object) -> str | None:
    """The player a well-formed token names, or None (anything else is no session)."""
    if not isinstance(token, str):
        return None
    match = _TOKEN.fullmatch(token)
    return match.group(1) if match else None


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
