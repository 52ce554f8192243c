"""A kept room's actions, archived in one compact value (the Redis store's ``:archive`` key).

When a finished room is kept for good (histories point at it), its action stream (every
player's accepted actions, each ``at|PID|action``) and the players' logs (each the stream's
actions of one player, in order) say the same thing twice, in hundreds of list entries.  The
Redis store replaces them by one string: the stream with seat numbers (each player's index in
the order they first acted) in place of player ids and each time a delta from the one before,
as JSON ``{"p": [PID, ...], "t": FIRST_AT, "a": [SEAT, DELTA_MS, ACTION, ...]}``, zlib
compressed and base85 encoded (the Redis client reads replies as text).  Every action and its
race-clock time are in it: the replay, ``stalactites verify``, the analysis and the room's
record read a kept room's logs and actions back from it (:func:`actions_of`, :func:`log_of`).
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Sequence

from .rooms_base import ActionRow

__all__ = ["actions_of", "archived", "log_of"]


def archived(stream: Sequence[str]) -> str:
    """The archive of an action stream (its items ``at|PID|action``)."""
    seats: dict[str, int] = {}
    flat: list[int | str] = []
    first = last = 0
    for index, item in enumerate(stream):
        at_text, pid, action = item.split("|", 2)
        at = int(at_text)
        if index == 0:
            first = last = at
        flat += [seats.setdefault(pid, len(seats)), at - last, action]
        last = at
    data = {"p": list(seats), "t": first, "a": flat}
    packed = zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 9)
    return base64.b85encode(packed).decode()


def actions_of(archive: str) -> list[ActionRow]:
    """The action stream an archive holds, in the order stored."""
    data = json.loads(zlib.decompress(base64.b85decode(archive)))
    players, at, flat = data["p"], data["t"], data["a"]
    rows = []
    for seat, delta, action in zip(flat[::3], flat[1::3], flat[2::3], strict=True):
        at += delta
        rows.append(ActionRow(at, players[seat], action))
    return rows


def log_of(archive: str, player_id: str) -> list[str]:
    """One player's log (their accepted actions, in order) from an archive."""
    return [row.action for row in actions_of(archive) if row.player_id == player_id]
