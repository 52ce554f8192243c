"""Who is online: each tab's lease in the store, and the news sent to followers' tabs.

A tab of the web client holds a lease while its notification socket is open (renewed by its
process every third of the lease); a player is online while one lasts, racing while they hold
a seat in a race not over.  When that changes, their followers with a tab open are sent a
``presence`` frame, except where the player hides their presence.  A lease left by a process
that died runs out: any process's sweep finds it (:meth:`Presence.sweep`) and tells the
followers, so a player is offline within a lease (and a sweep) of their last tab closing.
"""

from __future__ import annotations

import asyncio

from ..clock import Clock
from ..protocol.friends import Friend, PresenceFrame, PresenceStatus
from ..store.friends.base import FriendsStore
from ..store.players.base import PlayerStore
from .follows import FOLLOWING_MAX
from .notes import Notes

__all__ = ["UNLISTED", "Presence"]

UNLISTED = "-"  # the room of a player racing in a room not listed (never linked)
SWEPT_AT_ONCE = 200


class Presence:
    def __init__(
        self,
        store: FriendsStore,
        players: PlayerStore,
        notes: Notes,
        clock: Clock,
        lease_ms: int,
    ) -> None:
        self.store, self.players, self.notes, self.clock = store, players, notes, clock
        self.lease_ms = lease_ms

    async def tab_on(self, player_id: str, tab: str, renew: bool = False) -> None:
        """A tab opened (or renews its lease: only while it holds one); its followers told
        if the player came online."""
        now = self.clock.now_ms()
        if await self.store.tab_on(player_id, tab, now + self.lease_ms, now, renew):
            await self.changed(player_id)

    async def tab_off(self, player_id: str, tab: str) -> None:
        if await self.store.tab_off(player_id, tab, self.clock.now_ms()):
            await self.changed(player_id)

    async def racing(self, player_id: str, room_id: str | None, listed: bool, until: int) -> None:
        """The player races in ``room_id`` until ``until`` at most (None: no longer)."""
        room = None if room_id is None else room_id if listed else UNLISTED
        await self.store.set_racing(player_id, room, until)
        await self.changed(player_id)

    async def sweep(self) -> None:
        """Tell the followers of players whose leases ran out (their processes died)."""
        for player_id in await self.store.expired(self.clock.now_ms(), SWEPT_AT_ONCE):
            await self.changed(player_id)

    async def status(self, player_ids: list[str]) -> list[tuple[PresenceStatus, str | None]]:
        """Each player's status and the room to watch (hidden players are offline)."""
        found = await self.store.presence(player_ids, self.clock.now_ms())
        here = [one for one, room in zip(player_ids, found, strict=True) if room is not None]
        hidden = dict(zip(here, await asyncio.gather(*map(self.store.hidden, here)), strict=True))
        statuses: list[tuple[PresenceStatus, str | None]] = []
        for player_id, room in zip(player_ids, found, strict=True):
            if room is None or hidden[player_id]:
                statuses.append(("offline", None))
            elif room:
                statuses.append(("racing", None if room == UNLISTED else room))
            else:
                statuses.append(("online", None))
        return statuses

    async def show(self, player_id: str, follower: str) -> None:
        """Tell a new follower's tabs whether the player is online now."""
        record = await self.players.load_player(player_id)
        if record is None:
            return
        ((status, room_id),) = await self.status([player_id])
        friend = Friend(player_id=player_id, name=record.name, status=status, room_id=room_id)
        await self.notes.send(follower, PresenceFrame(type="presence", friend=friend))

    async def changed(self, player_id: str) -> None:
        """Send the player's status to each of their followers online now."""
        record = await self.players.load_player(player_id)
        if record is None:
            return
        followers = [
            one for one, _ in await self.store.members(player_id, "followers", 0, FOLLOWING_MAX)
        ]
        if not followers:
            return
        ((status, room_id),) = await self.status([player_id])
        frame = PresenceFrame(
            type="presence",
            friend=Friend(player_id=player_id, name=record.name, status=status, room_id=room_id),
        ).model_dump_json()
        here = await self.store.presence(followers, self.clock.now_ms())
        await asyncio.gather(
            *(
                self.store.publish(follower, frame)
                for follower, room in zip(followers, here, strict=True)
                if room is not None
            )
        )

    async def online_followed(self, player_id: str) -> list[Friend]:
        """The players ``player_id`` follows who are online now and show it to them (not
        hidden, not blocking them)."""
        followed = [
            one for one, _ in await self.store.members(player_id, "following", 0, FOLLOWING_MAX)
        ]
        pairs = zip(followed, await self.status(followed), strict=True)
        online = [(other, status, room) for other, (status, room) in pairs if status != "offline"]
        blocking = await asyncio.gather(
            *(self.store.contains(other, "blocked", [player_id]) for other, _, _ in online)
        )
        shown = [one for one, (blocks,) in zip(online, blocking, strict=True) if not blocks]
        records = await asyncio.gather(*(self.players.load_player(one) for one, _, _ in shown))
        return [
            Friend(player_id=other, name=record.name, status=status, room_id=room_id)
            for (other, status, room_id), record in zip(shown, records, strict=True)
            if record is not None
        ]
