"""The fair-play store's interface: each player's fair-play record, and the shared lists.

A player's record (:class:`stalactites.fairplay.record.FairRecord` as JSON: the runs
assessed lately, the rolling standing, holds, reports, the case and its decisions) is one
document changed by compare and set on its version: a change is computed from the record
read, and written only if nobody wrote in between (else read and computed again).  Every
change is a pure function of the record, so a change made twice changes nothing more.

The shared lists are sorted sets read by moderators and by the boards: ``cases`` (players
with an open case, by when it opened), ``marked`` (players marked), ``moderators``.  They
follow the records: a process dying between a record and a list leaves the list behind
until the same change is made again (each caller makes it again: the results log's effect
is retried until it is done, a moderator's decision is repeated).  ``audit`` is the
moderators' decisions, newest first.
"""

from __future__ import annotations

from typing import Literal, Protocol

__all__ = ["AUDIT_KEPT", "FairPlayStore", "ListName"]

ListName = Literal["cases", "marked", "moderators", "bots"]

AUDIT_KEPT = 10_000  # decisions kept in the audit log


class FairPlayStore(Protocol):
    async def read(self, player_id: str) -> tuple[str | None, int]:
        """The player's record as JSON (None: none yet) and its version (0: none)."""
        ...

    async def write(self, player_id: str, record: str, version: int) -> bool:
        """Store the record as version ``version + 1`` if the stored one is ``version``
        still; whether it was stored."""
        ...

    async def put(self, name: ListName, member: str, score: int) -> None: ...
    async def drop(self, name: ListName, member: str) -> None: ...
    async def has(self, name: ListName, member: str) -> bool: ...

    async def members(self, name: ListName, offset: int, limit: int) -> list[tuple[str, int]]:
        """Members and scores, lowest score first."""
        ...

    async def audit(self, entry: str) -> None:
        """Add a decision (JSON) to the audit log (the newest :data:`AUDIT_KEPT` kept)."""
        ...

    async def audit_log(self, offset: int, limit: int) -> list[str]:
        """Decisions, newest first."""
        ...

    async def close(self) -> None: ...
