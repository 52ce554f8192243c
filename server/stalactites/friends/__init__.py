"""Friends: following and blocking, presence, challenges and notifications (see
``docs/friends.md``), across processes through the friends' store.

:class:`Friends` holds the four parts: :class:`~.follows.Follows`,
:class:`~.presence.Presence`, :class:`~.challenges.Challenges`, :class:`~.notes.Notes`.
"""

from __future__ import annotations

from ..clock import Clock
from ..matchmaking import Matchmaker
from ..store.friends.base import FriendsStore
from ..store.players.base import PlayerRecord, PlayerStore
from .challenges import Challenges, PoolOf
from .follows import Follows, FriendsError
from .notes import Notes
from .presence import Presence

__all__ = ["Friends", "FriendsError"]


class Friends:
    def __init__(
        self,
        store: FriendsStore,
        players: PlayerStore,
        matchmaker: Matchmaker,
        pool_of: PoolOf,
        clock: Clock,
        lease_ms: int,
    ) -> None:
        self.store = store
        self.notes = Notes(store, clock)
        self.follows = Follows(store, players, self.notes, clock, matchmaker.store.block_pair)
        self.presence = Presence(store, players, self.notes, clock, lease_ms)
        self.challenges = Challenges(store, self.follows, self.notes, matchmaker, pool_of, clock)

    async def follow(self, follower: PlayerRecord, player_id: str) -> bool:
        """Follow a player (:meth:`.follows.Follows.follow`); the follower's tabs are told
        whether they are online now (unless the player blocks the follower: silently not)."""
        new = await self.follows.follow(follower, player_id)
        if new and not await self.follows.blocks(player_id, follower.player_id):
            await self.presence.show(player_id, follower.player_id)
        return new

    async def set_hidden(self, player_id: str, hidden: bool) -> None:
        """Hide the player's presence (followers see them offline), or show it again."""
        await self.store.set_hidden(player_id, hidden)
        await self.presence.changed(player_id)
