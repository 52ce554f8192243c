"""The in-memory store: one process, nothing survives a restart.

Each method runs to completion without awaiting, so on one event loop every
method is atomic, exactly as the Redis store's scripts are.  A room is forgotten ``ttl_ms``
after its last change, as the Redis store's keys expire (:mod:`..expiry`, by the clock the
store is given: the server's), its events, logs, leases and actions with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ... import room_events
from ...clock import SystemClock
from ...protocol.room import RoomStatus
from ..expiry import Expiry
from ..results.memory import MemoryResults
from .base import (
    ROOM_LISTS,
    ActionRow,
    Bell,
    Commit,
    CommitOutcome,
    CommitResult,
    EventBatch,
    Finish,
    FinishResult,
    JoinResult,
    NewPlayer,
    NewRoom,
    PlayerRow,
    ProgressRow,
    ReadyResult,
    RematchRoom,
    Ring,
    RoomPage,
    RoomRow,
    RoundRoom,
)
from .refusals import refusal

__all__ = ["MemoryStore"]


@dataclass
class _Player:
    player_id: str
    name: str
    seat: int
    token_hash: str
    progress: ProgressRow
    ready: bool = False
    finish: str | None = None
    place: int | None = None
    elapsed_ms: int | None = None
    log: list[str] = field(default_factory=list)
    ids: dict[str, int] = field(default_factory=dict)


@dataclass
class _Room:
    room_id: str
    settings_json: str
    seats: int
    created_ms: int = 0
    status: RoomStatus = RoomStatus.WAITING
    starts_at: int | None = None
    ends_at: int | None = None
    seq: int = 0
    version: int = 0
    winners: int = 0
    players: dict[str, _Player] = field(default_factory=dict)
    skeletons: set[str] = field(default_factory=set)  # the seated names' (see NewPlayer)
    events: list[str] = field(default_factory=list)
    presence: dict[tuple[str, str], int] = field(default_factory=dict)
    online: set[str] = field(default_factory=set)  # the players last announced connected
    results_json: str | None = None
    actions: list[ActionRow] = field(default_factory=list)
    watchers: dict[str, int] = field(default_factory=dict)  # connection -> lease expiry
    announced: tuple[int, int] = (0, 0)  # the spectator count last announced, and when
    reserved: bool = False  # a round's or a rematch's room: never listed, no one else seated
    rematch_of: str | None = None  # a rematch's room: the finished room's id
    listed: bool = True  # False: a private room
    rematch: str | None = None  # the rematch room's id (see Store.rematch)
    rematch_by: str | None = None  # who proposed it
    ttl_ms: int = 0  # forgotten this long after its last change
    analysis: str | None = None  # the analysis, once made (see keep_analysis)
    board_verdicts: dict[str, str] = field(default_factory=dict)  # see keep_board_verdict
    hints: dict[str, int] = field(default_factory=dict)  # hints given, by player

    def spectators(self, now_ms: int) -> int:
        return sum(1 for until in self.watchers.values() if until > now_ms)

    def listed_at(self) -> tuple[int, str]:
        """The room's place in its list (see RoomPage)."""
        score = self.created_ms if self.status == RoomStatus.WAITING else self.starts_at or 0
        return (score, self.room_id)


class MemoryStore:
    """Rooms in a dict; see :class:`stalactites.store.rooms.base.Store` for the contract."""

    bells_carry = False  # the action stream is a list here: read it

    def __init__(self, max_events: int = 10_000, now_ms: Callable[[], int] | None = None) -> None:
        """``now_ms``: the server's clock, which expiry follows (the machine's by default)."""
        self._rooms: dict[str, _Room] = {}
        self._bells: dict[str, Bell] = {}
        self._max_events = max_events
        self.kept: set[str] = set()  # finished rooms with persistent players: never expire
        self._expiry = Expiry(now_ms or SystemClock().now_ms)
        self.results = MemoryResults(now_ms or SystemClock().now_ms)

    def _get(self, room_id: str) -> _Room | None:
        """The room, once every room past its time is forgotten."""
        for gone in self._expiry.expired():
            del self._rooms[gone]
        return self._rooms.get(room_id)

    def _changed(self, room: _Room) -> None:
        """The room has changed: it is forgotten ``ttl_ms`` from now (unless it is kept)."""
        if room.room_id not in self.kept:
            self._expiry.refresh(room.room_id, room.ttl_ms)

    async def ping(self) -> bool:
        return True

    async def close(self) -> None:
        self._bells.clear()

    async def create_room(self, room: NewRoom, ttl_ms: int) -> None:
        self._get(room.room_id)  # a sweep
        made = _Room(room.room_id, room.settings_json, room.seats, room.created_ms, ttl_ms=ttl_ms)
        made.listed = room.listed
        self._rooms[room.room_id] = made
        self._changed(made)

    async def open_round(self, round_room: RoundRoom, ttl_ms: int) -> bool:
        new = round_room.room
        if self._get(new.room_id) is not None:
            return False
        room = _Room(new.room_id, new.settings_json, new.seats, new.created_ms)
        room.reserved, room.ttl_ms = True, ttl_ms
        for seat, player in enumerate(round_room.players, 1):
            room.players[player.player_id] = _Player(
                player.player_id, player.name, seat, player.token_hash, player.progress, True
            )
        room.status, room.starts_at = RoomStatus.COUNTDOWN, round_room.starts_at
        room.ends_at = round_room.ends_at
        self._rooms[new.room_id] = room
        self._changed(room)
        self._append(room, round_room.events)
        return True

    async def open_rematch(self, rematch: RematchRoom, ttl_ms: int) -> bool:
        new = rematch.room
        if self._get(new.room_id) is not None:
            return False
        room = _Room(new.room_id, new.settings_json, new.seats, new.created_ms, ttl_ms=ttl_ms)
        room.reserved, room.listed, room.rematch_of = True, False, rematch.rematch_of
        for seat, player in enumerate(rematch.players, 1):
            room.players[player.player_id] = _Player(
                player.player_id, player.name, seat, player.token_hash, player.progress
            )
            if player.skeleton:
                room.skeletons.add(player.skeleton)
        self._rooms[new.room_id] = room
        self._changed(room)
        return True

    async def load_room(self, room_id: str, now_ms: int) -> RoomRow | None:
        room = self._get(room_id)
        if room is None:
            return None
        online = {pid for (pid, _), until in room.presence.items() if until > now_ms}
        players = [_row(player, player.player_id in online) for player in room.players.values()]
        return RoomRow(
            room_id=room.room_id,
            settings_json=room.settings_json,
            seats=room.seats,
            status=room.status,
            starts_at=room.starts_at,
            ends_at=room.ends_at,
            seq=room.seq,
            version=room.version,
            players=players,
            results_json=room.results_json,
            spectators=room.spectators(now_ms),
            created_ms=room.created_ms,
            rematch=room.rematch,
            rematch_by=room.rematch_by,
            rematch_of=room.rematch_of,
            listed=room.listed and not room.reserved,
        )

    async def join(self, room_id: str, player: NewPlayer) -> JoinResult:
        room = self._get(room_id)
        if room is None:
            return JoinResult.ROOM_NOT_FOUND
        if room.reserved:
            return JoinResult.SEATS_RESERVED
        if room.status != RoomStatus.WAITING or len(room.players) >= room.seats:
            return JoinResult.ROOM_FULL
        if player.player_id in room.players:
            return JoinResult.ALREADY_SEATED
        if player.skeleton and player.skeleton in room.skeletons:
            return JoinResult.NAME_CONFUSABLE
        if player.skeleton:
            room.skeletons.add(player.skeleton)
        seat = len(room.players) + 1
        room.players[player.player_id] = _Player(
            player.player_id, player.name, seat, player.token_hash, player.progress
        )
        self._append(room, [player.event_json])
        return JoinResult.JOINED

    async def ready(
        self,
        room_id: str,
        player_id: str,
        event_json: str,
        starts_at: int,
        ends_at: int,
        countdown_event: str,
    ) -> ReadyResult:
        room = self._get(room_id)
        if room is None or player_id not in room.players:
            return ReadyResult(False, "room_not_found", False)
        if room.status == RoomStatus.FINISHED:
            return ReadyResult(False, "already_finished", False)
        player = room.players[player_id]
        if room.status != RoomStatus.WAITING or player.ready:
            return ReadyResult(True, None, False)
        player.ready = True
        events = [event_json]
        everyone = len(room.players) == room.seats and all(p.ready for p in room.players.values())
        if everyone:
            room.status, room.starts_at, room.ends_at = RoomStatus.COUNTDOWN, starts_at, ends_at
            events.append(countdown_event)
        self._append(room, events)
        return ReadyResult(True, None, everyone)

    async def start(self, room_id: str, now_ms: int, started_event: str) -> bool:
        room = self._get(room_id)
        if room is None or room.status != RoomStatus.COUNTDOWN or room.starts_at is None:
            return False
        if now_ms < room.starts_at:
            return False
        room.status = RoomStatus.RACING
        room.version += 1
        self._append(room, [started_event])
        return True

    async def commit(self, commit: Commit) -> CommitResult:
        room = self._get(commit.room_id)
        player = None if room is None else room.players.get(commit.player_id)
        if player is not None and commit.client_id is not None:
            prior = player.ids.get(commit.client_id)
            if prior is not None:
                return CommitResult(CommitOutcome.DUPLICATE, length=prior)
        ended = room is not None and room.ends_at is not None and commit.now_ms >= room.ends_at
        why = refusal(
            player is not None,
            "" if room is None else room.status,
            player is not None and player.finish is not None,
            ended,
        )
        if why is not None:
            return CommitResult(CommitOutcome.REFUSED, code=why.code)
        assert room is not None and player is not None
        if len(player.log) != commit.expected_length:
            return CommitResult(CommitOutcome.CONFLICT, length=len(player.log))
        return self._apply(room, player, commit)

    def _apply(self, room: _Room, player: _Player, commit: Commit) -> CommitResult:
        action = None
        if commit.action is not None:
            player.log.append(commit.action)
            row = ActionRow(commit.now_ms, player.player_id, commit.action)
            room.actions.append(row)
            action = (len(room.actions), row)
        if commit.client_id is not None:
            player.ids[commit.client_id] = len(player.log)
        player.progress = commit.progress
        room.version += 1
        events = [commit.progress_event]
        all_done = False
        if commit.finish is not None:
            player.finish, player.elapsed_ms = commit.finish, commit.elapsed_ms
            if commit.finish == "won":
                room.winners += 1
                player.place = room.winners
            events.append(
                room_events.finished_event(
                    player.player_id, player.place, commit.elapsed_ms, commit.finish
                )
            )
            all_done = all(p.finish is not None for p in room.players.values())
        first = self._append(room, events)
        numbered = [(first + i, text) for i, text in enumerate(events)]
        return CommitResult(
            CommitOutcome.APPLIED, len(player.log), None, numbered, all_done, action
        )

    async def keep_room(self, room_id: str, player_ids: list[str]) -> None:
        self.kept.add(room_id)  # histories point at it: it never expires
        self._expiry.forget(room_id)

    async def finish(self, finish: Finish) -> FinishResult:
        room = self._get(finish.room_id)
        if room is None or room.status != RoomStatus.RACING:
            return FinishResult.NOT_RACING
        if room.version != finish.expected_version:
            return FinishResult.CONFLICT
        for line in finish.finishers:
            player = room.players[line.player_id]
            player.place = line.place
            if player.finish is None:
                player.finish, player.elapsed_ms = line.finish, line.elapsed_ms
        room.status = RoomStatus.FINISHED
        room.version += 1
        room.results_json = finish.results_json
        self._append(room, finish.events)
        self.results.finished(finish.room_id, finish.now_ms)
        return FinishResult.FINISHED

    async def read_log(self, room_id: str, player_id: str, start: int = 0) -> list[str]:
        room = self._get(room_id)
        player = None if room is None else room.players.get(player_id)
        return [] if player is None else player.log[start:]

    async def action_index(self, room_id: str, player_id: str, client_id: str) -> int | None:
        room = self._get(room_id)
        player = None if room is None else room.players.get(player_id)
        return None if player is None else player.ids.get(client_id)

    async def events_since(self, room_id: str, seq: int, limit: int | None = None) -> EventBatch:
        room = self._get(room_id)
        if room is None:
            return EventBatch(0, False, [])
        base = room.seq - len(room.events)
        if seq < base:
            return EventBatch(room.seq, True, [])
        start = max(seq - base, 0)
        kept = room.events[start : None if limit is None else start + max(limit, 0)]
        return EventBatch(room.seq, False, [(seq + 1 + i, text) for i, text in enumerate(kept)])

    async def touch_presence(
        self, room_id: str, player_id: str, connection_id: str, until_ms: int
    ) -> None:
        room = self._get(room_id)
        if room is not None:
            room.presence[(player_id, connection_id)] = until_ms

    async def touch_leases(
        self,
        room_id: str,
        players: Sequence[tuple[str, str]],
        watchers: Sequence[str],
        until_ms: int,
    ) -> None:
        room = self._get(room_id)
        if room is not None:
            for key in players:
                room.presence[key] = until_ms
            for connection_id in watchers:
                room.watchers[connection_id] = until_ms

    async def drop_presence(self, room_id: str, player_id: str, connection_id: str) -> None:
        room = self._get(room_id)
        if room is not None:
            room.presence.pop((player_id, connection_id), None)

    async def announce_presence(
        self, room_id: str, player_id: str, now_ms: int, events: tuple[str, str]
    ) -> bool:
        room = self._get(room_id)
        if room is None or room.status == RoomStatus.FINISHED:
            return False
        leases = room.presence.items()
        live = any(pid == player_id and until > now_ms for (pid, _), until in leases)
        if live == (player_id in room.online):
            return False
        if live:
            room.online.add(player_id)
        else:
            room.online.discard(player_id)
        self._append(room, [events[0] if live else events[1]])
        return True

    async def read_actions(self, room_id: str, start: int = 0) -> list[ActionRow]:
        room = self._get(room_id)
        return [] if room is None else room.actions[start:]

    async def touch_watcher(self, room_id: str, connection_id: str, until_ms: int) -> None:
        room = self._get(room_id)
        if room is not None:
            room.watchers[connection_id] = until_ms

    async def drop_watcher(self, room_id: str, connection_id: str) -> None:
        room = self._get(room_id)
        if room is not None:
            room.watchers.pop(connection_id, None)

    async def announce_watchers(self, room_id: str, now_ms: int, gap_ms: int) -> int | None:
        room = self._get(room_id)
        if room is None or room.status == RoomStatus.FINISHED:
            return None
        room.watchers = {c: until for c, until in room.watchers.items() if until > now_ms}
        count, (shown, at) = len(room.watchers), room.announced
        if count == shown:
            return None
        if now_ms < at + gap_ms:
            return at + gap_ms
        room.announced = (count, now_ms)
        self._append(room, [room_events.spectators_event(count)])
        return None

    async def list_rooms(
        self, name: str, after: tuple[int, str] | None, limit: int, now_ms: int
    ) -> RoomPage:
        places = sorted((room.listed_at() for room in self._listed(name)), reverse=True)
        if after is not None:
            places = [place for place in places if place < after]
        page = places[: max(limit, 0)]
        rows = [await self.load_room(room_id, now_ms) for _, room_id in page]
        following = page[-1] if page and len(places) > len(page) else None
        return RoomPage([row for row in rows if row is not None], following)

    def _listed(self, name: str) -> list[_Room]:
        self._get("")  # a sweep
        return [
            room
            for room in self._rooms.values()
            if not room.reserved
            and room.listed
            and room.status in ROOM_LISTS[name]
            and (name != "waiting" or len(room.players) < room.seats)
        ]

    async def count_rooms(self, now_ms: int) -> dict[str, int]:
        return {name: len(self._listed(name)) for name in ROOM_LISTS}

    async def rematch(
        self, room_id: str, new_room_id: str, event_json: str, by: str = ""
    ) -> str | None:
        room = self._get(room_id)
        if room is None or room.status != RoomStatus.FINISHED:
            return None
        if room.rematch is None:
            room.rematch, room.rematch_by = new_room_id, by or None
            self._append(room, [event_json])
            self._changed(room)
        return room.rematch

    async def subscribe(self, room_id: str, bell: Bell) -> None:
        self._bells[room_id] = bell

    async def unsubscribe(self, room_id: str, bell: Bell) -> None:
        if self._bells.get(room_id) == bell:
            del self._bells[room_id]

    async def count_hint(self, room_id: str, player_id: str) -> int:
        room = self._rooms.get(room_id)
        if room is None:
            return 0
        room.hints[player_id] = room.hints.get(player_id, 0) + 1
        return room.hints[player_id]

    async def hints_given(self, room_id: str, player_id: str) -> int:
        room = self._rooms.get(room_id)
        return 0 if room is None else room.hints.get(player_id, 0)

    async def keep_analysis(self, room_id: str, analysis_json: str) -> str | None:
        room = self._rooms.get(room_id)
        if room is None:
            return None
        if room.analysis is None:
            room.analysis = analysis_json
        return room.analysis

    async def read_analysis(self, room_id: str) -> str | None:
        room = self._rooms.get(room_id)
        return None if room is None else room.analysis

    async def keep_board_verdict(self, room_id: str, position: str, verdict: str) -> str | None:
        room = self._rooms.get(room_id)
        return None if room is None else room.board_verdicts.setdefault(position, verdict)

    async def read_board_verdict(self, room_id: str, position: str) -> str | None:
        room = self._rooms.get(room_id)
        return None if room is None else room.board_verdicts.get(position)

    def _append(self, room: _Room, events: list[str]) -> int:
        """Append events, trim the log, ring the bell; the seq of the first one appended."""
        first = room.seq + 1
        self._changed(room)
        room.events.extend(events)
        room.seq += len(events)
        if len(room.events) > self._max_events:
            del room.events[: len(room.events) - self._max_events]
        bell = self._bells.get(room.room_id)
        if bell is not None:
            bell(room.seq, Ring.NEWS)
        return first


def _row(player: _Player, connected: bool) -> PlayerRow:
    return PlayerRow(
        player_id=player.player_id,
        name=player.name,
        seat=player.seat,
        token_hash=player.token_hash,
        ready=player.ready,
        connected=connected,
        progress=player.progress,
        finish=player.finish,
        place=player.place,
        elapsed_ms=player.elapsed_ms,
    )
