"""The seam for ghost races: what the matchmaker calls when a human partner is not found.

A :class:`GhostFallback` is given to the :class:`~.service.Matchmaker` when it is made
(``Process`` passes None until ghost races exist).  It is called with a player who has waited
``match_ghost_after_s`` (15 s) without a partner, or at once for ``"ghost": true``, once the
player has been taken out of the queue (so no human pairing can also happen); it answers with
the ``matched`` frame of a room it made (its seat's token; the ghost listed in ``players`` with
``"ghost": true``), or None, and then the player is queued again.  Without a fallback a player
simply stays queued, and ``"ghost": true`` is answered ``ghost_unavailable``.
"""

from __future__ import annotations

from typing import Protocol

from ..match_protocol import Matched

__all__ = ["GhostFallback"]


class GhostFallback(Protocol):
    async def race_ghost(self, player_id: str, game: str, step: str | None) -> Matched | None:
        """A ghost race for the player, or None (none near enough, say)."""
        ...
