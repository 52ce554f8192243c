"""Notifications: each player's small inbox, and the frames published to their tabs.

A note has an id its maker chooses so that making it twice keeps one (an effect of the results
log may run twice); the inbox keeps the newest :data:`~stalactites.store.friends.base.NOTES_KEPT`.
Kinds (:data:`~.protocol.NoteKind`): ``followed`` (someone follows you), ``daily_beaten`` (a
player you follow beat your time on today's deal), ``report_acted`` (a moderator decided on a
player you reported), ``refund`` (rating given back after a race against a marked player),
``arena_soon`` (an arena you entered starts in five minutes: :mod:`stalactites.arenas`).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from ..clock import Clock
from ..protocol.friends import Note, NoteFrame, NoteKind
from ..store.friends.base import FriendsStore

__all__ = ["Notes"]

INBOX_PAGE = 50


class Notes:
    def __init__(self, store: FriendsStore, clock: Clock) -> None:
        self.store, self.clock = store, clock

    async def send(self, player_id: str, frame: BaseModel) -> None:
        """A live frame to the player's open tabs (on any process)."""
        await self.store.publish(player_id, frame.model_dump_json())

    async def add(self, player_id: str, note_id: str, kind: NoteKind, data: dict[str, Any]) -> None:
        """Keep a notification and show it in the player's open tabs (once: a note made again
        with its id changes nothing)."""
        note = Note(note_id=note_id, kind=kind, ms=self.clock.now_ms(), data=data)
        if await self.store.note(player_id, note_id, note.model_dump_json(), note.ms):
            await self.send(player_id, NoteFrame(type="notification", note=note))

    async def inbox(self, player_id: str) -> tuple[list[Note], int, int]:
        """The newest notifications, each marked read or not; how many are unread; the read
        mark."""
        read_ms = await self.store.read_ms(player_id)
        notes = [
            Note.model_validate_json(document)
            for document in await self.store.notes(player_id, INBOX_PAGE)
        ]
        notes = [note.model_copy(update={"read": note.ms <= read_ms}) for note in notes]
        return notes, sum(1 for note in notes if not note.read), read_ms

    async def unread(self, player_id: str) -> int:
        return (await self.inbox(player_id))[1]

    async def mark_read(self, player_id: str, up_to_ms: int) -> None:
        await self.store.mark_read(player_id, min(up_to_ms, self.clock.now_ms()))
