"""A kept room's actions, archived in one compact value (the Redis store's ``:archive`` key).

When a finished room is kept for good (histories point at it), its action stream (every
player's accepted actions, each ``at|PID|action``) and the players' logs (each the stream's
actions of one player, in order) say the same thing twice, in hundreds of list entries.  The
Redis store replaces them by one string: the stream with seat numbers (each player's index in
the order they first acted) in place of player ids and each time a delta from the one before,
as JSON ``{"p": [PID, ...], "t": FIRST_AT, "a": [SEAT, DELTA_MS, ACTION, ...]}``, zlib
compressed and written as text (the Redis client reads replies as UTF-8 text): seven bits a
character, every ASCII code (:func:`_seven_bits`), after a first character ``\x01`` that
no archive of the older form has (those are base85, and are still read).  Every action and its
race-clock time are in it: the replay, ``stalactites verify``, the analysis and the room's
record read a kept room's logs and actions back from it (:func:`actions_of`, :func:`log_of`).

A finished room's archive also holds the room hash's fields over Redis's 64-byte limit for
its compact encoding (the settings, the results and each seat's ``player:PID``), as ``"h":
{FIELD: VALUE}``: ``rooms/keep.lua`` takes them off the hash (a ``player:PID`` stays, empty,
as the mark of a seat) and the store's ``load_room`` reads them back (:func:`fields_of`).
The compression starts from a preset dictionary of the words those fields repeat
(:data:`_WORDS`, part of the format: an archive written with it is read only with it; one
written before it, without, is read the same way).  Archives are written with
:data:`_RATED_WORDS` (the fields as a rated race has them now); the zlib stream names its
dictionary (its Adler-32, in its header), so each archive is read with its own.

The settings of a certified room are archived without the solver's winning lines (hundreds
of bytes, a Squadron line of 262 moves far more), which the solver, exact and deterministic,
finds again from the deal: ``"solution"`` is null and ``"solution_digest"`` holds
:func:`lines_digest` of the lines, so that whoever recomputes them can check they are the
ones published with the race's results (:mod:`stalactites.rooms.solutions`).
"""

from __future__ import annotations

import base64
import hashlib
import json
import zlib
from collections.abc import Mapping, Sequence
from typing import Any, cast

from .base import ActionRow

__all__ = ["actions_of", "archived", "fields_of", "lines_digest", "log_of"]

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


# The words of a finished room's archive as a rated race of today has them, its settings and
# results in the order they are written (never change it either: archives are read with it).
_RATED_WORDS = (
    b'"t1-f1","t1-c1","c1-f1",0,0,"t2-f2",0,1,"t3-f3","t4-f4","t5-f1","t6-f2","t7-f3","t8-f4",'
    b'{"p":["p.","t":,"a":[0,0,"h":{"settings":"{\\"game\\":\\"stalactites\\",'
    b'\\"step\\":\\"choice\\",\\"deal\\":\\"sr:\\",\\"seats\\":2,'
    b'\\"time_limit_s\\":900,\\"undo\\":true,\\"countdown_s\\":0,'
    b'\\"certified\\":true,\\"solution\\":null,\\"spectator_delay_s\\":30,'
    b'\\"salt\\":\\"\\",\\"rated\\":true,\\"autoplay\\":false,'
    b'\\"round_of\\":null,\\"ghost\\":null,\\"private\\":false,\\"daily\\":null,'
    b'\\"quick\\":false,\\"solution_digest\\":\\"\\"}","results":"[{\\"player_id\\": '
    b'\\"p.\\", \\"name\\": \\"\\", \\"place\\": 1, \\"status\\": '
    b'\\"won\\", \\"resigned\\", \\"timed_out\\", \\"foundation_cards\\": 52, '
    b'\\"moves\\": , \\"elapsed_ms\\": , \\"ghost_of\\": null, \\"rated\\": '
    b'true, \\"rating_before\\": 1000, \\"rating_after\\": 10}, {\\"player_id\\": '
    b'\\"p.\\", \\"name\\": \\"\\", \\"place\\": 2, \\"status\\": ",'
    b'"player:p.":"{\\"name\\": \\"\\", \\"token_hash\\": \\"\\"}","seat:p.":"1",'
    b'"seat:p.":"2","ready:p.":"1","progress:p.":"{\\"foundation_cards\\":52,\\"moves\\":'
    b',\\"reached_ms\\":null}","finish:p.":"won","finish:p.":"resigned","place:p.":"1",'
    b'"place:p.":"2","elapsed:p.":"'
)
_DICTIONARIES = {zlib.adler32(words): words for words in (_WORDS, _RATED_WORDS)}
SEVEN_BITS = "\x01"  # the first character of an archive written seven bits a character


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
        kept = dict(fields)
        if "settings" in kept:  # the solver's lines are found again (the module's text)
            kept["settings"] = _without_lines(kept["settings"])
        data["h"] = kept
    squeeze = zlib.compressobj(9, zdict=_RATED_WORDS)
    text = json.dumps(data, separators=(",", ":")).encode()
    return SEVEN_BITS + _seven_bits(squeeze.compress(text) + squeeze.flush())


def lines_digest(lines: Mapping[str, Sequence[str]]) -> str:
    """A short digest of a solution's winning lines (the first 48 bits of a SHA-256, hex)."""
    text = json.dumps(lines, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _without_lines(settings_json: str) -> str:
    """Room settings (JSON) without the solver's lines, their digest in their place."""
    settings = json.loads(settings_json)
    lines = settings.get("solution")
    if not lines:
        return settings_json
    settings["solution"], settings["solution_digest"] = None, lines_digest(lines)
    return json.dumps(settings, separators=(",", ":"), ensure_ascii=False)


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


def _seven_bits(data: bytes) -> str:
    """Bytes as text of ASCII codes, seven bits each (the bytes after a leading 1 bit, as
    one number in base 128, most significant first)."""
    number = int.from_bytes(b"\x01" + data, "big")
    count = (number.bit_length() + 6) // 7
    return "".join(chr(number >> shift & 127) for shift in range(7 * (count - 1), -1, -7))


def _eight_bits(text: str) -> bytes:
    """The bytes :func:`_seven_bits` wrote as ``text``."""
    number = 0
    for char in text:
        number = number << 7 | ord(char)
    return number.to_bytes((number.bit_length() + 7) // 8, "big")[1:]


def _data(archive: str) -> dict[str, Any]:
    if archive.startswith(SEVEN_BITS):
        packed = _eight_bits(archive[len(SEVEN_BITS) :])
    else:  # an archive of the older form
        packed = base64.b85decode(archive)
    named = packed[1] & 0x20  # FDICT: the stream names its dictionary (else: none)
    words = _DICTIONARIES[int.from_bytes(packed[2:6], "big")] if named else b""
    unsqueeze = zlib.decompressobj(zdict=words)
    text = unsqueeze.decompress(packed) + unsqueeze.flush()
    return cast(dict[str, Any], json.loads(text))
