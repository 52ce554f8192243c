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

A finished room's archive also holds the room hash's fields over Redis's 64-byte limit for
its compact encoding (the settings, the results and each seat's ``player:PID``), as ``"h":
{FIELD: VALUE}``: ``rooms/keep.lua`` takes them off the hash (a ``player:PID`` stays, empty,
as the mark of a seat) and the store's ``load_room`` reads them back (:func:`fields_of`).
The compression starts from a preset dictionary of the words those fields repeat
(:data:`_WORDS`, part of the format: an archive written with it is read only with it; one
written before it, without, is read the same way).
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Mapping, Sequence
from typing import Any, cast

from .rooms_base import ActionRow

__all__ = ["actions_of", "archived", "fields_of", "log_of"]

# The words a finished room's fields repeat (never change it: archives are read with it).
_WORDS = (
    b'{"p":["p.","t":,"a":[0,"h":{"settings":"{\\"game\\":\\"stalactites\\",'
    b'\\"step\\":\\"ones\\",\\"deal\\":\\"ms:\\",\\"seats\\":2,'
    b'\\"time_limit_s\\":900,\\"undo\\":true,\\"countdown_s\\":0,'
    b'\\"certified\\":false,\\"solution\\":null,\\"spectator_delay_s\\":30,'
    b'\\"salt\\":\\"\\",\\"rated\\":false,\\"autoplay\\":false,'
    b'\\"round_of\\":null,\\"ghost\\":null}","results":"[{\\"player_id\\": '
    b'\\"p.\\", \\"name\\": \\"\\", \\"place\\": 1, \\"status\\": '
    b'\\"won\\", \\"resigned\\", \\"timed_out\\", \\"foundation_cards\\": 52, '
    b'\\"moves\\": , \\"elapsed_ms\\": , \\"ghost_of\\": null, \\"rated\\": '
    b'false, \\"rating_before\\": null, \\"rating_after\\": null}, {","player:p.":'
    b'"{\\"name\\": \\"\\", \\"token_hash\\": \\"\\"}","seat:p.":"1",'
    b'"ready:p.":"1","progress:p.":"{\\"foundation_cards\\":52,\\"moves\\":'
    b',\\"reached_ms\\":null}","finish:p.":"won","place:p.":"1","elapsed:p.":"'
)


def archived(stream: Sequence[str], fields: Mapping[str, str] | None = None) -> str:
    """The archive of an action stream (its items ``at|PID|action``) and of the room hash's
    ``fields`` it takes in."""
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
    data: dict[str, object] = {"p": list(seats), "t": first, "a": flat}
    if fields:
        data["h"] = dict(fields)
    squeeze = zlib.compressobj(9, zdict=_WORDS)
    text = json.dumps(data, separators=(",", ":")).encode()
    packed = squeeze.compress(text) + squeeze.flush()
    return base64.b85encode(packed).decode()


def actions_of(archive: str) -> list[ActionRow]:
    """The action stream an archive holds, in the order stored."""
    data = _data(archive)
    players, at, flat = data["p"], data["t"], data["a"]
    rows = []
    for seat, delta, action in zip(flat[::3], flat[1::3], flat[2::3], strict=True):
        at += delta
        rows.append(ActionRow(at, players[seat], action))
    return rows


def log_of(archive: str, player_id: str) -> list[str]:
    """One player's log (their accepted actions, in order) from an archive."""
    return [row.action for row in actions_of(archive) if row.player_id == player_id]


def fields_of(archive: str) -> dict[str, str]:
    """The room hash's fields an archive holds (none in one of a room kept unfinished)."""
    return cast(dict[str, str], _data(archive).get("h", {}))


def _data(archive: str) -> dict[str, Any]:
    unsqueeze = zlib.decompressobj(zdict=_WORDS)
    text = unsqueeze.decompress(base64.b85decode(archive)) + unsqueeze.flush()
    return cast(dict[str, Any], json.loads(text))
