"""The room lists: rooms waiting for players and rooms racing now, newest first, a page at a
time (``GET /api/rooms?status=...``)."""

from __future__ import annotations

import re

from ..protocol.room import RoomStatus, RoomView
from ..store import RoomRow
from ..store.rooms.base import ROOM_LISTS, listable
from .errors import RoomError
from .service import RoomService
from .settings import RoomSettings
from .views import room_view

__all__ = ["Cursor", "cursor_text", "list_rooms", "parse_cursor"]

Cursor = tuple[int, str]
CURSOR = re.compile(r"(\d{1,16}):([A-Za-z0-9_-]{1,32})")


def parse_cursor(text: str) -> Cursor:
    """A cursor from its text (``score:room_id``, as a page's ``next`` gives it)."""
    match = CURSOR.fullmatch(text)
    if match is None:
        raise ValueError(f"not a cursor from a room list: {text!r}")
    return (int(match.group(1)), match.group(2))


def cursor_text(cursor: Cursor | None) -> str | None:
    return None if cursor is None else f"{cursor[0]}:{cursor[1]}"


async def list_rooms(
    rooms: RoomService, status: str, after: Cursor | None, limit: int
) -> tuple[list[RoomView], str | None]:
    """One page of a room list, and the cursor of the next (None at the end).  A room whose
    countdown or race is due to end is advanced first, and left out if that moves it on."""
    if status not in ROOM_LISTS:
        raise RoomError("bad_message", f"status is one of {sorted(ROOM_LISTS)}, not {status!r}")
    page = await rooms.store.list_rooms(status, after, limit, rooms.now())
    views = []
    for row in page.rows:
        if _due(row, rooms.now()):
            try:
                row = await rooms.current(row.room_id)
            except RoomError:  # gone meanwhile
                continue
            if not listable(status, row):
                continue
        settings = RoomSettings.model_validate_json(row.settings_json)
        views.append(room_view(row, settings))
    return views, cursor_text(page.after)


def _due(row: RoomRow, now: int) -> bool:
    if row.status == RoomStatus.COUNTDOWN:
        return row.starts_at is not None and now >= row.starts_at
    return row.status == RoomStatus.RACING and row.ends_at is not None and now >= row.ends_at
