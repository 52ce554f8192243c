"""The names of a room's Redis keys, and what the Redis store reads back from them.

Keys (``P`` is the configured prefix, ``ID`` the room id; the hash tag
``{room:ID}`` keeps a room in one Redis Cluster slot):

* ``P{room:ID}:room`` hash: settings, seats, status, starts_at, ends_at, seq,
  version, counters, and per player ``player:PID`` (JSON), ``seat:PID``,
  ``ready:PID``, ``progress:PID`` (JSON), ``finish:PID``, ``place:PID``,
  ``elapsed:PID``; ``results`` (JSON) once finished; ``reserved`` in a tournament
  round's or a rematch's room (opened whole, never listed, seating no one else), and
  ``rematch_of`` (the finished room's id) in a rematch's; ``kept`` once kept for
  good, and then (a finished room's) the settings, the results and the per-player fields
  are in the archive (``player:PID`` stays, empty), the hash written anew small.
* ``P{room:ID}:events`` list: room events as JSON without seq, oldest first.
* ``P{room:ID}:log:PID`` list: the player's accepted actions.
* ``P{room:ID}:ids:PID`` hash: client id -> the log length its action made.
* ``P{room:ID}:presence`` sorted set: ``PID|connection`` scored by lease expiry.
* ``P{room:ID}:actions`` list: every player's accepted actions in the order stored, each
  ``at|PID|action`` (spectators' boards are replayed from it).
* ``P{room:ID}:watchers`` sorted set: spectators' connections scored by lease expiry.
* ``P{room:ID}:analysis`` string: the finished room's analysis (JSON), kept as long as the
  room hash (``rooms/analysis.lua``: the first writer wins; every read or write sets its
  expiry to the room hash's).
* ``P{room:ID}:verdicts`` hash: position digest -> whether that board, shown to spectators,
  can still be won (``rooms/board_verdict.lua``: the first writer wins; it expires with the
  room hash, or an hour after its last write if that is sooner).
* ``P{room:ID}:archive`` string: a kept room's action stream, compacted
  (:mod:`.archive`), in place of the action stream and the logs, with a finished
  room's long and per-player hash fields (``rooms/keep.lua``; read back by ``load_room``).
* ``P rooms:waiting``, ``P rooms:racing`` sorted sets: the room lists (:mod:`.lists`).
* ``P{room:ID}:listeners`` sorted set: the processes hearing the room's bell, each scored by
  the end of its lease (Redis's clock, ms; ``rooms/listen.lua``, renewed while it listens):
  a commit rings the bell only when a process other than its own holds a lease.
* channel ``P{room:ID}:bell``: the newest seq, published by the script that stored it.
"""

from __future__ import annotations

import json
from typing import Any, cast

from ...protocol.room import RoomStatus
from .base import (
    ActionRow,
    Commit,
    CommitOutcome,
    CommitResult,
    PlayerRow,
    ProgressRow,
    RoomRow,
    StoreError,
)
from .refusals import refusal

__all__ = ["RoomKeys", "commit_result", "room_row"]


class RoomKeys:
    """The names of one room's keys."""

    __slots__ = (
        "actions",
        "analysis",
        "archive",
        "bell",
        "events",
        "listeners",
        "presence",
        "room",
        "tag",
        "verdicts",
        "watchers",
    )

    def __init__(self, prefix: str, room_id: str) -> None:
        self.tag = f"{prefix}{{room:{room_id}}}"
        self.room = f"{self.tag}:room"
        self.events = f"{self.tag}:events"
        self.presence = f"{self.tag}:presence"
        self.actions = f"{self.tag}:actions"
        self.watchers = f"{self.tag}:watchers"
        self.bell = f"{self.tag}:bell"
        self.listeners = f"{self.tag}:listeners"
        self.analysis = f"{self.tag}:analysis"
        self.verdicts = f"{self.tag}:verdicts"
        self.archive = f"{self.tag}:archive"

    def log(self, player_id: str) -> str:
        return f"{self.tag}:log:{player_id}"

    def ids(self, player_id: str) -> str:
        return f"{self.tag}:ids:{player_id}"


def commit_result(answer: list[Any], commit: Commit) -> CommitResult:
    kind = answer[0]
    if kind == "applied":  # (nearly always: first)
        length, first, all_done, finished = int(answer[1]), int(answer[2]), answer[3], answer[4]
        events = [(first, commit.progress_event)]
        if finished:
            events.append((first + 1, str(finished)))
        action = None
        if commit.action is not None:
            action = (int(answer[5]), ActionRow(commit.now_ms, commit.player_id, commit.action))
        return CommitResult(CommitOutcome.APPLIED, length, None, events, bool(all_done), action)
    if kind == "duplicate":
        return CommitResult(CommitOutcome.DUPLICATE, length=int(answer[1]))
    if kind == "conflict":
        return CommitResult(CommitOutcome.CONFLICT, length=int(answer[1]))
    if kind == "refused":  # the facts: seated, status, finished, ended
        why = refusal(bool(answer[1]), str(answer[2]), bool(answer[3]), bool(answer[4]))
        return CommitResult(CommitOutcome.REFUSED, code="internal" if why is None else why.code)
    raise StoreError(f"commit script answered {answer!r}")


def _int(value: str | None) -> int | None:
    return None if value is None else int(value)


def room_row(room_id: str, data: dict[str, str], connected: set[str], watchers: int) -> RoomRow:
    players = []
    for name, value in data.items():
        if name.startswith("player:"):
            pid = name[len("player:") :]
            players.append(
                _player_row(pid, cast(dict[str, str], json.loads(value)), data, connected)
            )
    players.sort(key=lambda row: row.seat)
    return RoomRow(
        room_id=room_id,
        settings_json=data["settings"],
        seats=int(data["seats"]),
        status=RoomStatus(data["status"]),
        starts_at=_int(data.get("starts_at")),
        ends_at=_int(data.get("ends_at")),
        seq=int(data["seq"]),
        version=int(data["version"]),
        players=players,
        results_json=data.get("results"),
        spectators=watchers,
        created_ms=int(data.get("created", 0)),
        rematch=data.get("rematch"),
        rematch_by=data.get("rematch_by") or None,
        listed="unlisted" not in data and "reserved" not in data,
        rematch_of=data.get("rematch_of"),
    )


def _player_row(
    pid: str, about: dict[str, str], data: dict[str, str], connected: set[str]
) -> PlayerRow:
    progress = json.loads(data[f"progress:{pid}"])
    return PlayerRow(
        player_id=pid,
        name=about["name"],
        seat=int(data[f"seat:{pid}"]),
        token_hash=about["token_hash"],
        ready=f"ready:{pid}" in data,
        connected=pid in connected,
        progress=ProgressRow(
            progress["foundation_cards"], progress["moves"], progress["reached_ms"]
        ),
        finish=data.get(f"finish:{pid}"),
        place=_int(data.get(f"place:{pid}")),
        elapsed_ms=_int(data.get(f"elapsed:{pid}")),
    )
