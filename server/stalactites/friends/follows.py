"""Following and blocking, and each player's recent opponents.

A follow is on both players' lists: the follower's ``following``, the followed player's
``followers``.  Blocking is silent: the blocked player's follow stays on their own list (what
they see does not change) but leaves the blocker's ``followers``, so nothing of the blocker's
reaches them (presence, challenges); a blocked player's new follow goes on their list only.
Only registered players follow, block and are followed (an anonymous player's id lasts as
long as its session).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from ..clock import Clock
from ..rooms import RoomError, RoomService
from ..rooms.seats import is_persistent
from ..store.friends.base import FriendsStore, ListName
from ..store.players.base import PlayerRecord, PlayerStore
from .notes import Notes

__all__ = ["FOLLOWING_MAX", "BLOCKED_MAX", "OPPONENTS_KEPT", "Follows", "FriendsError", "Listed"]

FOLLOWING_MAX = 1_000  # players one player follows at most
BLOCKED_MAX = 1_000  # players one player blocks at most
OPPONENTS_KEPT = 20  # recent opponents kept per player


class FriendsError(Exception):
    """A refused request: ``code`` and ``message`` (web/errors.py answers it)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


@dataclass(frozen=True, slots=True)
class Listed:
    """A player on a list: who, and since when (unix ms)."""

    player_id: str
    name: str
    since_ms: int


BlockPair = Callable[[str, str, bool], Awaitable[None]]


class Follows:
    """``block_pair(one, other, blocked)`` keeps the two apart in quick races' pairing (the
    queue's store)."""

    def __init__(
        self,
        store: FriendsStore,
        players: PlayerStore,
        notes: Notes,
        clock: Clock,
        block_pair: BlockPair,
    ) -> None:
        self.store, self.players, self.notes, self.clock = store, players, notes, clock
        self.block_pair = block_pair

    async def registered(self, player_id: str) -> PlayerRecord:
        """A registered player's record; else ``player_not_found`` (404)."""
        record = await self.players.load_player(player_id) if is_persistent(player_id) else None
        if record is None or not record.registered:
            raise FriendsError("player_not_found", f"no registered player {player_id!r}")
        return record

    async def blocks(self, player_id: str, other: str) -> bool:
        """Whether ``player_id`` has blocked ``other``."""
        return (await self.store.contains(player_id, "blocked", [other]))[0]

    async def follow(self, follower: PlayerRecord, player_id: str) -> bool:
        """Follow a registered player; whether it is new.  ``own_follow``,
        ``not_registered``, ``player_not_found``, ``too_many`` (:data:`FOLLOWING_MAX`)."""
        self._own(follower, player_id, "follow")
        followed = await self.registered(player_id)
        if (await self.store.contains(follower.player_id, "following", [player_id]))[0]:
            return False
        if await self.store.count(follower.player_id, "following") >= FOLLOWING_MAX:
            raise FriendsError("too_many", f"you follow {FOLLOWING_MAX} players already")
        now = self.clock.now_ms()
        await self.store.add(follower.player_id, "following", player_id, now)
        if await self.blocks(player_id, follower.player_id):
            return True  # (silent: on the follower's list only)
        if await self.store.add(player_id, "followers", follower.player_id, now):
            note = {"player_id": follower.player_id, "name": follower.name}
            await self.notes.add(
                followed.player_id, f"followed:{follower.player_id}", "followed", note
            )
        return True

    async def unfollow(self, follower: str, player_id: str) -> bool:
        removed = await self.store.remove(follower, "following", player_id)
        await self.store.remove(player_id, "followers", follower)
        return removed

    async def block(self, blocker: PlayerRecord, player_id: str) -> bool:
        """Block a player: they leave the blocker's followers and the blocker's following."""
        self._own(blocker, player_id, "block")
        await self.registered(player_id)
        if await self.blocks(blocker.player_id, player_id):
            return False
        if await self.store.count(blocker.player_id, "blocked") >= BLOCKED_MAX:
            raise FriendsError("too_many", f"you block {BLOCKED_MAX} players already")
        await self.store.add(blocker.player_id, "blocked", player_id, self.clock.now_ms())
        await self.block_pair(blocker.player_id, player_id, True)
        await self.store.remove(blocker.player_id, "followers", player_id)
        await self.unfollow(blocker.player_id, player_id)
        return True

    async def unblock(self, blocker: str, player_id: str) -> bool:
        """Unblock; a follow the blocked player kept on their list counts again."""
        if not await self.store.remove(blocker, "blocked", player_id):
            return False
        if not await self.blocks(player_id, blocker):
            await self.block_pair(blocker, player_id, False)
        still = await self.store.contains(player_id, "following", [blocker])
        if still[0]:
            await self.store.add(blocker, "followers", player_id, self.clock.now_ms())
        return True

    def _own(self, player: PlayerRecord, other: str, what: Literal["follow", "block"]) -> None:
        if not player.registered:
            raise FriendsError("not_registered", f"create an account to {what} players")
        if other == player.player_id:
            code = "own_follow" if what == "follow" else "own_block"
            raise FriendsError(code, f"you cannot {what} yourself")

    async def listed(
        self, player_id: str, name: ListName, offset: int, limit: int
    ) -> tuple[list[Listed], int]:
        """A page of a list (newest first) with names (deleted players left out), and its
        length."""
        found = await self.store.members(player_id, name, offset, limit)
        records = [await self.players.load_player(member) for member, _ in found]
        page = [
            Listed(member, record.name, ms)
            for (member, ms), record in zip(found, records, strict=True)
            if record is not None
        ]
        return page, await self.store.count(player_id, name)

    async def relation(self, player_id: str, other: str) -> tuple[bool, bool]:
        """Whether the player follows ``other``, and whether they block them."""
        following = (await self.store.contains(player_id, "following", [other]))[0]
        return following, await self.blocks(player_id, other)

    async def record_room(self, rooms: RoomService, room_id: str) -> None:
        """A finished race's players are each other's recent opponents (an effect of the
        results log: writing it twice changes nothing)."""
        try:
            row = await rooms.load(room_id)
        except RoomError:
            return
        if row.results_json is None:
            return
        racers = [
            line["player_id"]
            for line in json.loads(row.results_json)
            if is_persistent(line["player_id"]) and not line.get("ghost_of")
        ]
        now = self.clock.now_ms()
        for player in racers:
            for other in racers:
                if other != player:
                    await self.store.add(player, "opponents", other, now)
            await self.store.keep_newest(player, "opponents", OPPONENTS_KEPT)
