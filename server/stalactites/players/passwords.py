"""Passwords: 8-128 characters, hashed with argon2id by ``argon2-cffi`` (never our own hashing).

The parameters, chosen for a 2-core server that may verify a few sign-ins at once:
argon2id, time_cost=3 passes, memory_cost=64 MiB, parallelism=1 lane, a 32-byte hash and a
16-byte salt (about 0.1 s of one core per hash).  Stored hashes carry their parameters (the
PHC string ``$argon2id$v=19$m=65536,t=3,p=1$...``); one made with other parameters is hashed
again at the next sign-in (:meth:`Passwords.verify` says so).

A username nobody has is checked against a dummy hash made at start-up, so an unknown
username and a wrong password cost the same time.
"""

from __future__ import annotations

from dataclasses import dataclass

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

from .errors import BadPassword

__all__ = ["PASSWORD_MAX", "PASSWORD_MIN", "Passwords", "Verdict", "check_password"]

PASSWORD_MIN = 8
PASSWORD_MAX = 128


def check_password(password: object) -> str:
    """``password`` if it is 8-128 characters of text, else :class:`BadPassword`."""
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise BadPassword(f"a password is {PASSWORD_MIN}-{PASSWORD_MAX} characters")
    return password


@dataclass(frozen=True, slots=True)
class Verdict:
    right: bool
    rehashed: str | None = None  # a new hash to store (the parameters changed)


class Passwords:
    """Hash and verify with one set of argon2id parameters (tests may pass cheaper ones)."""

    def __init__(self, time_cost: int = 3, memory_kib: int = 64 * 1024, parallelism: int = 1):
        self._hasher = PasswordHasher(
            time_cost=time_cost,
            memory_cost=memory_kib,
            parallelism=parallelism,
            hash_len=32,
            salt_len=16,
            type=Type.ID,
        )
        self._dummy = self._hasher.hash("a password nobody has: for unknown usernames")

    def hash(self, password: str) -> str:
        return self._hasher.hash(check_password(password))

    def verify(self, stored: str | None, password: str) -> Verdict:
        """Whether ``password`` is the one ``stored`` was made from; ``stored`` None (an unknown
        username) is checked against the dummy hash, in the same time, and is never right."""
        try:
            self._hasher.verify(stored or self._dummy, password)
        except (VerificationError, InvalidHashError):
            return Verdict(False)
        if stored is None:
            return Verdict(False)
        if self._hasher.check_needs_rehash(stored):
            return Verdict(True, self._hasher.hash(password))
        return Verdict(True)
