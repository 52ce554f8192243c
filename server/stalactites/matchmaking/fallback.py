"""The seam for ghost races: what the matchmaker calls when a human partner is not found.

A :class:`GhostFallback` is given to the :class:`~.service.Matchmaker` when it is made
(``Process`` gives :class:`GhostRaces`).  It is called with a player who has waited
``match_ghost_after_s`` (15 s) without a partner, or at once for ``"ghost": true``, once the
player has been taken out of the queue (so no human pairing can also happen); it answers with
the ``matched`` frame of a room it made (its seat's token; the ghost listed in ``players`` with
``"ghost": true``), or None, and then the player is queued again.  Without a fallback a player
simply stays queued, and ``"ghost": true`` is answered ``ghost_unavailable``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ..ghosts.runs import pool_of
from ..ghosts.service import WINDOWS
from ..players.ratings import displayed
from ..protocol.match import Matched, MatchedPlayer
from ..store.players.base import Rating

if TYPE_CHECKING:
    from ..ghosts import GhostService
    from ..players import PlayerService

__all__ = ["GhostFallback", "GhostRaces"]

RUNS_LOOKED_AT = 5  # a player's own runs are never their ghost: look past a few of them


class GhostFallback(Protocol):
    async def race_ghost(self, player_id: str, game: str, step: str | None) -> Matched | None:
        """A ghost race for the player, or None (none near enough, say)."""
        ...

    async def has_run(self, player_id: str, game: str, step: str | None) -> bool:
        """Whether a run of another player is there to race (what the queue's ``queued``
        frames say as ``ghost_ready``; a run found may still turn out gone)."""
        ...


class GhostRaces:
    """The fallback of a server with ghost races (:mod:`stalactites.ghosts`): a run of
    another player near the waiting player's rating, as a ``matched`` frame (the ghost's
    rating is its runner's today)."""

    def __init__(self, ghosts: GhostService, players: PlayerService) -> None:
        self.ghosts, self.players = ghosts, players

    async def race_ghost(self, player_id: str, game: str, step: str | None) -> Matched | None:
        made = await self.ghosts.race_ghost(player_id, game, step)
        if made is None:
            return None
        ghost = (await self.ghosts.rooms.settings(made.room_id)).ghost
        runner = {} if ghost is None else {ghost.seat_id: ghost.source_player_id}
        players = [
            MatchedPlayer(
                player_id=seat.player_id,
                name=seat.name,
                rating=await self._rating(runner.get(seat.player_id, seat.player_id), game),
                ghost=seat.ghost_of is not None,
            )
            for seat in made.players
        ]
        return Matched(type="matched", room_id=made.room_id, token=made.token, players=players)

    async def has_run(self, player_id: str, game: str, step: str | None) -> bool:
        record = await self.players.store.load_player(player_id)
        rating = displayed(Rating() if record is None else record.ratings.get(game, Rating()))
        pool = pool_of(game, step)
        for won in (True, False):
            runs = await self.ghosts.index.near(pool, rating, WINDOWS[-1], won, RUNS_LOOKED_AT)
            if any(run.player_id != player_id for run in runs):
                return True
        return False

    async def _rating(self, player_id: str, game: str) -> int:
        record = await self.players.store.load_player(player_id)
        return displayed(Rating() if record is None else record.ratings.get(game, Rating()))
