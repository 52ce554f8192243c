"""The Redis store of rooms: rooms shared by any number of server processes.

Its keys are listed in :mod:`.keys`.  Every change is one Lua script (``lua/rooms/*.lua``,
:mod:`..redis.scripts`) on one room's keys; each read is a single command or a script, so every
snapshot is consistent (presence and spectator leases are read beside the room hash, not in the
same instant).  A room's keys are reached through the small client of :mod:`..redis.resp` (on a
Redis Cluster its :class:`~..redis.cluster.ClusterPipe`, which follows MOVED and ASK); there is
no MULTI, which could not follow a slot being moved.  The room lists and pings take the same
connection.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import Sequence
from typing import Any, cast

from ... import room_events
from ...protocol.room import RoomStatus
from ..redis.bell_leases import BellLeases
from ..redis.cluster import ClusterPipe
from ..redis.doorbells import Doorbells
from ..redis.resp import Address, Packed, Pipe, ReplyError, Script
from ..redis.scripts import lua
from ..results.base import RECHECK_MS
from ..results.redis import RedisResults
from .archive import actions_of, archived, fields_of, log_of
from .base import (
    ActionRow,
    Bell,
    Carried,
    Commit,
    CommitResult,
    EventBatch,
    Finish,
    FinishResult,
    JoinResult,
    NewPlayer,
    NewRoom,
    ReadyResult,
    RematchRoom,
    Ring,
    RoomPage,
    RoomRow,
    RoundRoom,
    StoreError,
)
from .keys import RoomKeys, commit_result, room_row
from .lists import RoomIndex

__all__ = ["RedisStore"]

KEPT_GRACE_MS = 3_600_000  # a kept room's events and client ids expire this after (keep.lua)
KEPT_TTL_MS = 100 * 365 * 86_400_000  # a kept room's ttl field: a century
VERDICTS_TTL_MS = 3_600_000  # spectators' board verdicts expire at most this after a write
KEYS_KEPT = 10_000  # players whose commit keys are kept named
PRESENCE_KEPT_MS = 10 * 60_000  # presence leases this long run out are dropped (rooms/leases)

log = logging.getLogger(__name__)


class RedisStore:
    """See :class:`stalactites.store.rooms.base.Store` for the contract."""

    bells_carry = True  # commit.lua

    def __init__(
        self,
        url: str,
        prefix: str = "sr:",
        max_events: int = 10_000,
        cluster: bool = False,
    ) -> None:
        """``cluster``: ``url`` is any node of a Redis Cluster (see :mod:`..redis.cluster`)."""
        self._prefix = prefix
        self._cap = str(max_events)
        # Everything goes through the small client of resp.py: one shared connection (per
        # master, on a cluster, with MOVED and ASK followed).
        address = Address.parse(url)
        self._origin = uuid.uuid4().hex[:12]
        commits = address.named(f"stalactites-commits-{self._origin}")  # and every read
        self._pipe: Pipe | ClusterPipe = ClusterPipe(commits) if cluster else Pipe(commits)
        self._commit = Script(self._pipe, lua("rooms/commit"))
        self._commit_heads: dict[tuple[str, str], Packed] = {}
        # Scripts that are reads, or guarded so that a repeat changes nothing, are repeatable:
        # run once more when their connection is lost before the reply (resp.py).
        self._create = Script(self._pipe, lua("create"), repeatable=True)
        self._join = self._script("join")
        self._ready, self._start = self._script("ready"), self._script("start")
        self._finish, self._events = self._script("finish"), self._script("events", True)
        self._announce, self._leases = self._script("announce"), self._script("leases", True)
        self._open_round = self._script("open_round", True)
        self._presence = self._script("presence", True)
        self._keep = self._script("keep", True)
        self._keep_analysis = self._script("analysis", True)
        self._board_verdict = self._script("board_verdict", True)
        self._hint = self._script("hint")
        self._rematch = self._script("rematch", True)
        # Plain PUBLISH reaches the subscribers of every node of a cluster: one subscription,
        # at any master (the next one after a failure), hears every room's bell.
        bells = address.named(f"stalactites-bells-{self._origin}")
        others = self._pipe.nodes if isinstance(self._pipe, ClusterPipe) else None
        self._doorbells = Doorbells(bells, others, self._bell, "rooms", self._resubscribed)
        self._bell_leases = BellLeases(self._pipe, self._origin, self._listeners, self._missed)
        self._index = RoomIndex(self._pipe, prefix)
        self.results = RedisResults(self._pipe, prefix, cluster)

    def _script(self, name: str, repeatable: bool = False) -> Script:
        return Script(self._pipe, lua(f"rooms/{name}"), repeatable)

    @property
    def reconnects(self) -> int:
        """Doorbell subscriptions lost and made again (for /metrics)."""
        return self._doorbells.reconnects

    @property
    def origin(self) -> str:
        """This store's name among the processes (its Redis connections carry it)."""
        return self._origin

    def keys(self, room_id: str) -> RoomKeys:
        return RoomKeys(self._prefix, room_id)

    async def ping(self) -> bool:
        return await self._pipe.ping()

    async def close(self) -> None:
        await self._bell_leases.close()
        await self._doorbells.close()
        await self.results.close()
        await self._pipe.close()

    async def create_room(self, room: NewRoom, ttl_ms: int) -> None:
        # Both steps are safe to repeat (the script does nothing to a room that exists, ZADD
        # and PEXPIRE change nothing the second time), so each is sent once more when its
        # connection is lost before the reply: a creation is not left written but unlisted.
        keys = self.keys(room.room_id)
        await self._create([keys.room], [ttl_ms, *_new_fields(room, ttl_ms)])
        if room.listed:
            await self._index.created(room.room_id, room.created_ms)

    async def open_round(self, round_room: RoundRoom, ttl_ms: int) -> bool:
        new, players = round_room.room, round_room.players
        keys = self.keys(new.room_id)
        count, times = len(players), (round_room.starts_at, round_room.ends_at)
        fields = _new_fields(new, ttl_ms, status=RoomStatus.COUNTDOWN, players=count, ready=count)
        fields += ["starts_at", times[0], "ends_at", times[1], "reserved", 1]
        seated: list[Any] = []
        for player in players:
            about = json.dumps({"name": player.name, "token_hash": player.token_hash})
            seated += [player.player_id, about, player.progress.to_json()]
        args = [keys.bell, self._cap, len(fields) // 2, len(players), *fields, *seated]
        answer = await self._open_round([keys.room, keys.events], [*args, *round_room.events])
        return bool(answer)

    async def open_rematch(self, rematch: RematchRoom, ttl_ms: int) -> bool:
        # The hash whole, in one step: create.lua writes nothing if the room exists.
        new, players = rematch.room, rematch.players
        fields = _new_fields(new, ttl_ms, players=len(players))
        fields += ["reserved", 1, "rematch_of", rematch.rematch_of]
        for seat, player in enumerate(players, 1):
            about = json.dumps({"name": player.name, "token_hash": player.token_hash})
            pid = player.player_id
            fields += [f"player:{pid}", about, f"seat:{pid}", seat]
            fields += [f"progress:{pid}", player.progress.to_json()]
            if player.skeleton:
                fields += [f"skeleton:{player.skeleton}", pid]
        return bool(await self._create([self.keys(new.room_id).room], [ttl_ms, *fields]))

    async def load_room(self, room_id: str, now_ms: int) -> RoomRow | None:
        keys = self.keys(room_id)
        # The hash is one snapshot; the leases need not be read in the same instant.
        call, since = self._pipe.call_at, f"({now_ms}"
        flat, online, watchers = await asyncio.gather(
            call(keys.room, "HGETALL", keys.room),
            call(keys.room, "ZRANGEBYSCORE", keys.presence, since, "+inf"),
            call(keys.room, "ZCOUNT", keys.watchers, since, "+inf"),
        )
        if not flat:
            return None
        data = dict(zip(flat[::2], flat[1::2], strict=True))
        if "settings" not in data:  # kept: its long fields are in the archive (keep.lua)
            archive = await call(keys.room, "GET", keys.archive)
            data.update(fields_of(archive) if archive else {})
        connected = {member.split("|", 1)[0] for member in online}
        return room_row(room_id, data, connected, watchers)

    async def join(self, room_id: str, player: NewPlayer) -> JoinResult:
        keys = self.keys(room_id)
        about = json.dumps({"name": player.name, "token_hash": player.token_hash})
        answer = await self._join(
            [keys.room, keys.events],
            [
                keys.bell,
                self._cap,
                player.player_id,
                about,
                player.progress.to_json(),
                player.event_json,
                player.skeleton,
            ],
        )
        if answer == JoinResult.JOINED.value:
            taken, seats = await self._pipe.call_at(
                keys.room, "HMGET", keys.room, "players", "seats"
            )
            if taken is not None and seats is not None and int(taken) >= int(seats):
                await self._index.left_waiting(room_id)  # full: it leaves the list at once
        return JoinResult(answer)

    async def ready(
        self,
        room_id: str,
        player_id: str,
        event_json: str,
        starts_at: int,
        ends_at: int,
        countdown_event: str,
    ) -> ReadyResult:
        keys = self.keys(room_id)
        answer = await self._ready(
            [keys.room, keys.events],
            [keys.bell, self._cap, player_id, event_json, starts_at, ends_at, countdown_event],
        )
        if answer[0] != "ok":
            return ReadyResult(False, str(answer[0]), False)
        if answer[1]:
            unlisted = await self._pipe.call_at(keys.room, "HGET", keys.room, "unlisted")
            if unlisted is None:
                await self._index.racing(room_id, starts_at)
        return ReadyResult(True, None, bool(answer[1]))

    async def start(self, room_id: str, now_ms: int, started_event: str) -> bool:
        keys = self.keys(room_id)
        answer = await self._start(
            [keys.room, keys.events], [keys.bell, self._cap, now_ms, started_event]
        )
        return bool(answer)

    async def commit(self, commit: Commit) -> CommitResult:
        pid = commit.player_id
        args = [
            commit.expected_length,
            commit.action or "",
            commit.client_id or "",
            commit.progress.to_json(),
            commit.finish or "",
            commit.elapsed_ms,
            commit.now_ms,
            commit.progress_event,
            self._origin,
        ]
        if commit.finish is not None:  # the script writes the place between the halves
            args += room_events.finished_halves(pid, commit.elapsed_ms, commit.finish)
        try:
            answer = await self._commit(self._head_of_commit(commit.room_id, pid), args)
        except ReplyError as error:
            raise StoreError(f"the commit script failed: {error}") from None
        except OSError as error:
            raise StoreError(f"Redis cannot be reached: {error}") from error
        return commit_result(answer, commit)

    def _head_of_commit(self, room_id: str, player_id: str) -> Packed:
        """A player's commit's keys and its first arguments (the room's bell, the event-log
        cap, the player id), packed once: every move sends them."""
        known = self._commit_heads.get((room_id, player_id))
        if known is None:
            if len(self._commit_heads) >= KEYS_KEPT:
                self._commit_heads.clear()
            keys = self.keys(room_id)
            names = [keys.room, keys.events, keys.log(player_id), keys.ids(player_id)]
            head = Packed([*names, keys.actions, keys.listeners], [keys.bell, self._cap, player_id])
            known = self._commit_heads[(room_id, player_id)] = head
        return known

    async def finish(self, finish: Finish) -> FinishResult:
        keys = self.keys(finish.room_id)
        recheck_at = finish.now_ms + RECHECK_MS
        args: list[str | int] = [
            keys.bell,
            self._cap,
            finish.expected_version,
            finish.results_json,
            len(finish.finishers),
            finish.room_id,
            recheck_at,
        ]
        for line in finish.finishers:
            args += [line.player_id, line.place, line.finish, line.elapsed_ms]
        args += finish.events
        names = [keys.room, keys.events]
        if self.results.atomic:  # the log and the deadlines in the same step
            names += self.results.keys(finish.room_id)
        answer = FinishResult(await self._finish(names, args))
        if answer is FinishResult.FINISHED:
            if not self.results.atomic:
                await self.results.finished(finish.room_id, recheck_at)
            await self._index.finished(finish.room_id)
            await self.results.durable(finish.room_id)
        return answer

    async def keep_room(self, room_id: str, player_ids: list[str]) -> None:
        """Kept for good, its actions and its hash's long fields archived
        (``rooms/keep.lua``): every player's that acted, a guest's too, beside
        ``player_ids``."""
        keys = self.keys(room_id)
        call = self._pipe.call_at
        for _ in range(5):  # (a finished room's stream no longer grows: once is the rule)
            stream, flat = await asyncio.gather(
                call(keys.actions, "LRANGE", keys.actions, 0, -1),
                call(keys.room, "HGETALL", keys.room),
            )
            actors = list(dict.fromkeys([item.split("|", 2)[1] for item in stream] + player_ids))
            kept = [keys.room, keys.events, keys.actions, keys.analysis, keys.archive]
            kept += [keys.log(pid) for pid in actors]
            kept += [keys.ids(pid) for pid in actors]  # expire: moves are over
            fields = _long_fields(dict(zip(flat[::2], flat[1::2], strict=True)))
            archive = archived(stream, fields) if stream or fields else ""
            args = [KEPT_TTL_MS, KEPT_GRACE_MS, len(actors), archive, len(stream), len(fields)]
            args += [item for pair in fields.items() for item in pair]
            if int(await self._keep(kept, args)) >= 0:
                return
        raise StoreError(f"room {room_id}'s actions kept changing while it was being kept")

    async def _list_or_archive(self, key: str, archive_key: str, start: int) -> list[Any] | str:
        """The list at ``key`` from ``start`` or, when that is empty, a kept room's archive if
        it has one.  Two single-key commands, not one script: a script naming both keys could
        not be served while a Cluster move has taken one of them and not the other (missing)."""
        items = await self._pipe.call_at(key, "LRANGE", key, start, -1)
        if items:
            return cast(list[Any], items)
        archive = await self._pipe.call_at(archive_key, "GET", archive_key)
        return [] if archive is None else cast(str, archive)

    async def read_log(self, room_id: str, player_id: str, start: int = 0) -> list[str]:
        keys = self.keys(room_id)
        items = await self._list_or_archive(keys.log(player_id), keys.archive, start)
        return log_of(items, player_id)[start:] if isinstance(items, str) else items

    async def action_index(self, room_id: str, player_id: str, client_id: str) -> int | None:
        key = self.keys(room_id).ids(player_id)
        value = await self._pipe.call_at(key, "HGET", key, client_id)
        return None if value is None else int(value)

    async def events_since(self, room_id: str, seq: int, limit: int | None = None) -> EventBatch:
        keys = self.keys(room_id)
        count = -1 if limit is None else max(limit, 0)
        last, gap, items = await self._events([keys.room, keys.events], [seq, count])
        events = [(seq + 1 + i, text) for i, text in enumerate(items)]
        return EventBatch(int(last), bool(gap), events)

    async def touch_presence(
        self, room_id: str, player_id: str, connection_id: str, until_ms: int
    ) -> None:
        await self.touch_leases(room_id, [(player_id, connection_id)], [], until_ms)

    async def touch_leases(
        self,
        room_id: str,
        players: Sequence[tuple[str, str]],
        watchers: Sequence[str],
        until_ms: int,
    ) -> None:
        keys = self.keys(room_id)
        members = [f"{player_id}|{connection_id}" for player_id, connection_id in players]
        head = [until_ms, until_ms - PRESENCE_KEPT_MS, len(members)]
        await self._leases([keys.room, keys.presence, keys.watchers], [*head, *members, *watchers])

    async def drop_presence(self, room_id: str, player_id: str, connection_id: str) -> None:
        key = self.keys(room_id).presence
        await self._pipe.call_at(key, "ZREM", key, f"{player_id}|{connection_id}")

    async def announce_presence(
        self, room_id: str, player_id: str, now_ms: int, events: tuple[str, str]
    ) -> bool:
        keys = self.keys(room_id)
        answer = await self._presence(
            [keys.room, keys.events, keys.presence],
            [keys.bell, self._cap, now_ms, player_id, *events],
        )
        return bool(int(answer))

    # Spectators and room lists.

    async def read_actions(self, room_id: str, start: int = 0) -> list[ActionRow]:
        keys = self.keys(room_id)
        items = await self._list_or_archive(keys.actions, keys.archive, start)
        if isinstance(items, str):
            return actions_of(items)[start:]
        rows = []
        for item in items:
            at, pid, action = cast(str, item).split("|", 2)
            rows.append(ActionRow(int(at), pid, action))
        return rows

    async def touch_watcher(self, room_id: str, connection_id: str, until_ms: int) -> None:
        await self.touch_leases(room_id, [], [connection_id], until_ms)

    async def drop_watcher(self, room_id: str, connection_id: str) -> None:
        key = self.keys(room_id).watchers
        await self._pipe.call_at(key, "ZREM", key, connection_id)

    async def announce_watchers(self, room_id: str, now_ms: int, gap_ms: int) -> int | None:
        keys = self.keys(room_id)
        answer = await self._announce(
            [keys.room, keys.events, keys.watchers],
            [keys.bell, self._cap, now_ms, gap_ms, *room_events.SPECTATORS_HALVES],
        )
        return None if int(answer) < 0 else int(answer)

    async def list_rooms(
        self, name: str, after: tuple[int, str] | None, limit: int, now_ms: int
    ) -> RoomPage:
        return await self._index.page(name, after, limit, now_ms, self.load_room)

    async def count_rooms(self, now_ms: int) -> dict[str, int]:
        return await self._index.count(now_ms)

    # The doorbells.

    async def subscribe(self, room_id: str, bell: Bell) -> None:
        """Subscribed to the room's bell, then a lease on hearing it taken (commits of other
        processes ring it from then on: :mod:`..redis.bell_leases`).  The lease is held from the
        start: if the subscription fails or is cancelled, the renewals take it."""
        self._bell_leases.hold(room_id)
        try:
            await self._doorbells.subscribe(self.keys(room_id).bell, bell)
        except BaseException:
            self._bell_leases.retry(room_id)
            raise
        await self._bell_leases.take(room_id)

    async def unsubscribe(self, room_id: str, bell: Bell) -> None:
        channel = self.keys(room_id).bell
        if not self._doorbells.rings(channel, bell):
            return  # a later subscription's: its lease stays
        try:  # the lease given back first: its command leaves before a newer take's can
            await self._bell_leases.give_back(room_id)
        finally:
            await self._doorbells.unsubscribe(channel, bell)

    def _listeners(self, room_id: str) -> str:
        return self.keys(room_id).listeners

    def _missed(self, room_id: str) -> None:
        self._doorbells.missed(self.keys(room_id).bell)

    def _resubscribed(self) -> None:
        """The bells' subscription was lost and made again: every lease renewed at once (Redis
        may have lost them too, a restart, say; one found lost rings its bell again)."""
        self._bell_leases.renew_soon()

    async def count_hint(self, room_id: str, player_id: str) -> int:
        return int(await self._hint([self.keys(room_id).room], [player_id]))

    async def hints_given(self, room_id: str, player_id: str) -> int:
        key = self.keys(room_id).room
        return int(await self._pipe.call_at(key, "HGET", key, f"hints:{player_id}") or 0)

    async def keep_analysis(self, room_id: str, analysis_json: str) -> str | None:
        keys = self.keys(room_id)
        kept = await self._keep_analysis([keys.room, keys.analysis], [analysis_json])
        return None if kept is None else str(kept)

    async def read_analysis(self, room_id: str) -> str | None:
        keys = self.keys(room_id)
        kept = await self._keep_analysis([keys.room, keys.analysis], [""])
        return None if kept is None else str(kept)

    async def keep_board_verdict(self, room_id: str, position: str, verdict: str) -> str | None:
        keys = self.keys(room_id)
        args = [position, verdict, VERDICTS_TTL_MS]
        kept = await self._board_verdict([keys.room, keys.verdicts], args)
        return None if kept is None else str(kept)

    async def read_board_verdict(self, room_id: str, position: str) -> str | None:
        return await self.keep_board_verdict(room_id, position, "")

    async def rematch(
        self, room_id: str, new_room_id: str, event_json: str, by: str = ""
    ) -> str | None:
        keys = self.keys(room_id)
        answer = await self._rematch(
            [keys.room, keys.events], [keys.bell, self._cap, new_room_id, event_json, by]
        )
        return str(answer) if answer else None

    def _bell(self, data: str) -> tuple[int, Ring, Carried | None]:
        """A doorbell: ``seq``, or from a commit ``seq:process`` (``Ring.OUR_COMMIT`` if the
        process is this one) and, a line each, its action's line and its events (commit.lua;
        what our own commit's bell carries is not read: the commit's answer had it)."""
        head, _, carried = data.partition("\n")
        seq_text, _, origin = head.partition(":")
        seq = int(seq_text)
        if not carried:
            return seq, Ring.NEWS, None
        if origin == self._origin:
            return seq, Ring.OUR_COMMIT, None
        action_line, _, rest = carried.partition("\n")
        action = None
        if action_line:
            count, at, pid, text = action_line.split("|", 3)
            action = (int(count), ActionRow(int(at), pid, text))
        events = rest.split("\n")
        return seq, Ring.NEWS, Carried(list(enumerate(events, seq - len(events) + 1)), action)


# What moves into a kept room's archive beside each seat's fields (no script reads these
# once a room is finished; load_room reads them back).
_ARCHIVED = {"settings", "results", "created", "starts_at", "ends_at", "version", "done"}
_ARCHIVED |= {"ready", "winners", "seats", "players"}


def _long_fields(data: dict[str, str]) -> dict[str, str]:
    """A finished room hash's fields that move into its archive when it is kept: the
    settings, the results, the race's times and counters, and every seat's fields but the
    names' skeletons (none if the room is not finished, or they have moved)."""
    if data.get("status") != RoomStatus.FINISHED or "settings" not in data:
        return {}
    return {
        name: value
        for name, value in data.items()
        if name in _ARCHIVED or (":" in name and not name.startswith("skeleton:"))
    }


def _new_fields(
    room: NewRoom,
    ttl_ms: int,
    status: RoomStatus = RoomStatus.WAITING,
    players: int = 0,
    ready: int = 0,
) -> list[Any]:
    """A new room's hash, as field, value pairs (a waiting room's, or a round's)."""
    fields: dict[str, str | int] = {
        "settings": room.settings_json,
        "seats": room.seats,
        "status": status,
        "seq": 0,
        "version": 0,
        "players": players,
        "ready": ready,
        "done": 0,
        "winners": 0,
        "ttl": ttl_ms,
        "created": room.created_ms,
    }
    if not room.listed:
        fields["unlisted"] = 1
    return [item for pair in fields.items() for item in pair]
