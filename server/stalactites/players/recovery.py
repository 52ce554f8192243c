"""Recovery codes: an account's way back in without email, ten one-time codes at a time.

A code is 16 symbols of Crockford's base32 (digits and capitals without I, L, O, U), shown
in four groups, ``K7QF-XM3P-9TW2-H4RD``; typed back, case, spaces and dashes do not matter,
and O, I, L read as 0, 1, 1.  Its first group names it (kept in clear, to find its hash
among the set's); the other twelve symbols are 60 random bits from :mod:`secrets`.  The
store keeps each code only as an argon2id hash (``argon2-cffi``, as passwords are, with
cheaper parameters: a random 60 bits needs no key stretching against a guesser, and a set
of ten is hashed at registration).

A code is used once: :meth:`PlayerStore.use_recovery_code` checks that the hash read is
still there, takes it out, sets the new password and ends every session, in one atomic
step, so that of two uses of one code at once only one succeeds.  A new set replaces the
old one whole.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from ..store.players.base import PlayerRecord, PlayerStore
from .errors import BadCredentials, BadRecoveryCode, NotRegistered, WrongRecoveryCode
from .hashing import Hashing
from .passwords import PASSWORD_MAX, Passwords, check_password

__all__ = [
    "ALPHABET",
    "CODES_PER_SET",
    "Recovery",
    "code_name",
    "new_codes",
    "parse_code",
    "shown_code",
]

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base32
CODES_PER_SET = 10
CODE_LENGTH = 16  # symbols: the first group names the code, the other 12 are its 60 bits
GROUP = 4
_READ_AS = str.maketrans("OIL", "011", " -")  # what a person may type for a symbol
NOBODY = "p.none"  # a player id that is never given
WRONG = "wrong username or recovery code (or a code used already)"


def new_codes(count: int = CODES_PER_SET) -> list[str]:
    """``count`` fresh codes, as shown (no two with the same name)."""
    codes: dict[str, str] = {}
    while len(codes) < count:
        code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
        codes.setdefault(code_name(code), code)
    return [shown_code(code) for code in codes.values()]


def parse_code(text: object) -> str:
    """The code typed, as stored (16 symbols, no dashes), else :class:`BadRecoveryCode`."""
    if isinstance(text, str) and len(text) <= 3 * CODE_LENGTH:
        code = text.upper().translate(_READ_AS)
        if len(code) == CODE_LENGTH and all(symbol in ALPHABET for symbol in code):
            return code
    raise BadRecoveryCode(f"a recovery code is {CODE_LENGTH} letters and digits, as given")


def shown_code(code: str) -> str:
    """``K7QFXM3P9TW2H4RD`` as ``K7QF-XM3P-9TW2-H4RD``."""
    return "-".join(code[i : i + GROUP] for i in range(0, len(code), GROUP))


def code_name(code: str) -> str:
    """The group that names a code in its set (not secret)."""
    return code.replace("-", "")[:GROUP]


class Recovery:
    """Issue, replace and use recovery codes: hashing in the service's queue
    (:class:`.hashing.Hashing`), new passwords hashed with its ``passwords``."""

    def __init__(
        self,
        store: PlayerStore,
        hashing: Hashing,
        passwords: Passwords,
        hasher: Passwords | None = None,
    ) -> None:
        self._store, self._hashing, self._passwords = store, hashing, passwords
        # cheaper than a password's: a random code needs no key stretching (see the module)
        self._hasher = hasher or Passwords(time_cost=2, memory_kib=8 * 1024)

    async def hashed(self, codes: Sequence[str]) -> dict[str, str]:
        """Each code's hash by the code's name, hashed in one turn of the queue."""
        return await self._hashing.run(self._hash_all, [parse_code(code) for code in codes])

    def _hash_all(self, codes: list[str]) -> dict[str, str]:
        return {code_name(code): self._hasher.hash(code) for code in codes}

    async def renew(self, record: PlayerRecord, password: object) -> list[str]:
        """A new set for an account, replacing its old one: the current ``password`` first
        (:class:`BadCredentials` when wrong, :class:`NotRegistered` without an account)."""
        if not record.registered:
            raise NotRegistered("recovery codes are for accounts: register first")
        secret = password[:PASSWORD_MAX] if isinstance(password, str) else ""
        verdict = await self._hashing.run(self._passwords.verify, record.password_hash, secret)
        if not verdict.right:
            raise BadCredentials("wrong password")
        codes = new_codes()
        if not await self._store.set_recovery_codes(record.player_id, await self.hashed(codes)):
            raise NotRegistered("recovery codes are for accounts: register first")
        return codes

    async def use(self, record: PlayerRecord | None, code: object, password: object) -> None:
        """Use a code of the account ``record`` (None: no such account, checked all the same)
        to set its ``password``, ending every session; :class:`WrongRecoveryCode` for a
        wrong code, one used already or no account, after the same work."""
        secret, typed = check_password(password), parse_code(code)
        player_id = NOBODY if record is None else record.player_id  # the same reads either way
        stored = await self._store.recovery_code(player_id, code_name(typed))
        verdict = await self._hashing.run(self._hasher.verify, stored, typed)
        if record is None or stored is None or not verdict.right:
            raise WrongRecoveryCode(WRONG)
        hashed = await self._hashing.run(self._passwords.hash, secret)
        if not await self._store.use_recovery_code(player_id, code_name(typed), stored, hashed):
            raise WrongRecoveryCode(WRONG)  # used meanwhile, by another request

    async def left(self, player_id: str) -> int:
        """How many of the account's codes are unused."""
        return await self._store.recovery_codes_left(player_id)
