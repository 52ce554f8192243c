"""The friends' store in memory, for one process (see :mod:`.base`)."""

from __future__ import annotations

import json
from collections.abc import Callable

from .base import NOTES_KEPT, Listen, ListName

__all__ = ["MemoryFriendsStore"]


class MemoryFriendsStore:
    def __init__(self) -> None:
        self._lists: dict[tuple[str, ListName], dict[str, int]] = {}
        self._hidden: set[str] = set()
        self._tabs: dict[str, dict[str, int]] = {}  # player: tab: lease until
        self._online: dict[str, int] = {}  # player: newest lease until
        self._racing: dict[str, tuple[str, int]] = {}  # player: (room, until)
        self._challenges: dict[str, str] = {}
        self._pairs: dict[tuple[str, str], tuple[str, int]] = {}  # (from, to): (id, until)
        self._sent: dict[str, dict[str, int]] = {}  # player: challenge: expires
        self._received: dict[str, dict[str, int]] = {}
        self._notes: dict[str, dict[str, tuple[int, str]]] = {}  # player: id: (ms, document)
        self._read: dict[str, int] = {}
        self._listening: set[str] = set()
        self._listener: Listen | None = None

    # Lists.
    def _list(self, player_id: str, name: ListName) -> dict[str, int]:
        return self._lists.setdefault((player_id, name), {})

    async def add(self, player_id: str, name: ListName, member: str, ms: int) -> bool:
        found = self._list(player_id, name)
        new = member not in found
        if new:
            found[member] = ms
        return new

    async def remove(self, player_id: str, name: ListName, member: str) -> bool:
        return self._list(player_id, name).pop(member, None) is not None

    async def members(
        self, player_id: str, name: ListName, offset: int, limit: int
    ) -> list[tuple[str, int]]:
        found = self._list(player_id, name)
        newest = sorted(found.items(), key=lambda item: (-item[1], item[0]))
        return newest[offset : offset + limit]

    async def count(self, player_id: str, name: ListName) -> int:
        return len(self._list(player_id, name))

    async def contains(self, player_id: str, name: ListName, members: list[str]) -> list[bool]:
        found = self._list(player_id, name)
        return [member in found for member in members]

    async def keep_newest(self, player_id: str, name: ListName, kept: int) -> None:
        for member, _ in await self.members(player_id, name, kept, 1 << 30):
            self._list(player_id, name).pop(member, None)

    async def forget(self, player_id: str) -> None:
        for key in [key for key in self._lists if key[0] == player_id]:
            del self._lists[key]
        self._hidden.discard(player_id)
        self._notes.pop(player_id, None)
        self._read.pop(player_id, None)

    # Settings.
    async def hidden(self, player_id: str) -> bool:
        return player_id in self._hidden

    async def set_hidden(self, player_id: str, hidden: bool) -> None:
        if hidden:
            self._hidden.add(player_id)
        else:
            self._hidden.discard(player_id)

    # Presence.
    def _live_tabs(self, player_id: str, now_ms: int) -> dict[str, int]:
        tabs = self._tabs.setdefault(player_id, {})
        for tab in [tab for tab, until in tabs.items() if until <= now_ms]:
            del tabs[tab]
        return tabs

    async def tab_on(
        self, player_id: str, tab: str, until_ms: int, now_ms: int, renew: bool = False
    ) -> bool:
        tabs = self._live_tabs(player_id, now_ms)
        if renew and tab not in tabs:
            return False
        was_offline = not tabs
        tabs[tab] = until_ms
        self._online[player_id] = max(self._online.get(player_id, 0), until_ms)
        return was_offline

    async def tab_off(self, player_id: str, tab: str, now_ms: int) -> bool:
        tabs = self._live_tabs(player_id, now_ms)
        tabs.pop(tab, None)
        if tabs:
            return False
        self._tabs.pop(player_id, None)
        return self._online.pop(player_id, None) is not None

    async def set_racing(self, player_id: str, room_id: str | None, until_ms: int) -> None:
        if room_id is None:
            self._racing.pop(player_id, None)
        else:
            self._racing[player_id] = (room_id, until_ms)

    async def presence(self, player_ids: list[str], now_ms: int) -> list[str | None]:
        found: list[str | None] = []
        for player_id in player_ids:
            if self._online.get(player_id, 0) <= now_ms:
                found.append(None)
                continue
            room, until = self._racing.get(player_id, ("", 0))
            found.append(room if until > now_ms else "")
        return found

    async def expired(self, now_ms: int, limit: int) -> list[str]:
        gone = [player for player, until in self._online.items() if until <= now_ms][:limit]
        for player in gone:
            del self._online[player]
            self._tabs.pop(player, None)
        return gone

    async def online_count(self, now_ms: int) -> int:
        return sum(1 for until in self._online.values() if until > now_ms)

    # Challenges.
    async def open_challenge(
        self,
        challenge_id: str,
        from_id: str,
        to_id: str,
        document: str,
        now_ms: int,
        expires_ms: int,
    ) -> str | None:
        held = self._pairs.get((from_id, to_id))
        if held is not None and held[1] > now_ms:
            return held[0]
        self._pairs[(from_id, to_id)] = (challenge_id, expires_ms)
        self._challenges[challenge_id] = document
        self._sent.setdefault(from_id, {})[challenge_id] = expires_ms
        self._received.setdefault(to_id, {})[challenge_id] = expires_ms
        return None

    async def challenge(self, challenge_id: str) -> str | None:
        return self._challenges.get(challenge_id)

    async def settle(self, challenge_id: str, status: str, document: str) -> bool:
        found = self._challenges.get(challenge_id)
        if found is None or json.loads(found)["status"] != status:
            return False
        self._challenges[challenge_id] = document
        return True

    async def closed(self, from_id: str, to_id: str, challenge_id: str) -> None:
        self._sent.get(from_id, {}).pop(challenge_id, None)
        self._received.get(to_id, {}).pop(challenge_id, None)
        held = self._pairs.get((from_id, to_id))
        if held is not None and held[0] == challenge_id:
            del self._pairs[(from_id, to_id)]

    async def challenges_of(self, player_id: str, now_ms: int) -> list[str]:
        ids = [
            challenge_id
            for side in (self._sent, self._received)
            for challenge_id, expires in side.get(player_id, {}).items()
            if expires > now_ms
        ]
        return [self._challenges[one] for one in ids if one in self._challenges]

    async def sent_count(self, player_id: str, now_ms: int) -> int:
        return sum(1 for expires in self._sent.get(player_id, {}).values() if expires > now_ms)

    # Notifications.
    async def note(self, player_id: str, note_id: str, document: str, ms: int) -> bool:
        notes = self._notes.setdefault(player_id, {})
        if note_id in notes:
            return False
        notes[note_id] = (ms, document)
        for old in sorted(notes, key=lambda one: notes[one][0], reverse=True)[NOTES_KEPT:]:
            del notes[old]
        return True

    async def notes(self, player_id: str, limit: int) -> list[str]:
        notes = self._notes.get(player_id, {})
        newest = sorted(notes.values(), key=lambda note: note[0], reverse=True)
        return [document for _, document in newest[:limit]]

    async def read_ms(self, player_id: str) -> int:
        return self._read.get(player_id, 0)

    async def mark_read(self, player_id: str, ms: int) -> None:
        self._read[player_id] = max(self._read.get(player_id, 0), ms)

    # Channels.
    async def publish(self, player_id: str, frame: str) -> None:
        if player_id in self._listening and self._listener is not None:
            self._listener(player_id, frame)

    async def listen(self, player_id: str) -> None:
        self._listening.add(player_id)

    async def unlisten(self, player_id: str) -> None:
        self._listening.discard(player_id)

    def on_frame(self, listener: Listen, resubscribed: Callable[[], None]) -> None:
        self._listener = listener

    async def close(self) -> None:
        self._listening.clear()
