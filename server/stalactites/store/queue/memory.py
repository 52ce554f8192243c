"""The matchmaking queue in memory, for one process alone (see :mod:`.base`)."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .base import (
    RECENT_PAIR_MS,
    RESULT_TTL_MS,
    AlreadyQueued,
    DealTaken,
    InQuickRace,
    Pairing,
    QueueBell,
    QueueEntry,
    QueueStatus,
    QuickRoom,
    Widening,
    pair_key,
    pairings,
)

__all__ = ["MemoryQueueStore"]


@dataclass
class _Waiting:
    queue: str
    entry: QueueEntry
    leases: dict[str, int] = field(default_factory=dict)  # connection id -> until (unix ms)

    def alive(self, now_ms: int) -> bool:
        return any(until > now_ms for until in self.leases.values())


@dataclass
class _Pending:
    queue: str
    pairing: Pairing


@dataclass
class _Queue:
    results: dict[str, tuple[str, int]] = field(default_factory=dict)  # frame, kept until
    bells: list[QueueBell] = field(default_factory=list)
    stock: list[str] = field(default_factory=list)  # certified deals
    shared: dict[str, int] = field(default_factory=dict)  # deal -> open until (ms)


class MemoryQueueStore:
    def __init__(self, now_ms: Callable[[], int]) -> None:
        self._queues: dict[str, _Queue] = {}
        self._waiting: dict[str, _Waiting] = {}  # player id -> their one entry, in any queue
        self._pending: dict[str, _Pending] = {}  # match id -> the pairing
        self._racing: dict[str, tuple[str, int]] = {}  # player id -> room id, until (ms)
        self._recent: dict[str, int] = {}  # pair_key -> matched at (ms)
        self._blocked: set[str] = set()  # pair_key of two players one of whom blocks the other
        self._now = now_ms
        self._ids = itertools.count(1)

    def _queue(self, queue: str) -> _Queue:
        return self._queues.setdefault(queue, _Queue())

    async def ping(self) -> bool:
        return True

    async def close(self) -> None:
        self._queues.clear()
        self._waiting.clear()
        self._pending.clear()

    def _held(self, queue: str, player_id: str, now_ms: int) -> bool:
        """True while a pairing of this queue holds the player or their frame of it is kept;
        the refusal while they are held or race elsewhere."""
        match = self._holding(player_id)
        if match is not None:
            if self._pending[match].queue != queue:
                raise InQuickRace("")
            return True
        if self._kept_result(queue, player_id):
            return True
        racing = self._racing.get(player_id)
        if racing is not None:
            if racing[1] > now_ms:
                raise InQuickRace(racing[0])
            del self._racing[player_id]
        return False

    def _holding(self, player_id: str) -> str | None:
        for match_id, pending in self._pending.items():
            if any(entry.player_id == player_id for entry in pending.pairing.players):
                return match_id
        return None

    async def enqueue(
        self,
        queue: str,
        entry: QueueEntry,
        connection_id: str,
        until_ms: int,
        now_ms: int | None = None,
    ) -> QueueEntry | None:
        now = entry.joined_ms if now_ms is None else now_ms
        if self._held(queue, entry.player_id, now):
            return None
        held = self._waiting.get(entry.player_id)
        if held is not None and held.queue != queue:
            if held.alive(now):
                raise AlreadyQueued(held.queue)
            held = None
        if held is None:
            held = self._waiting[entry.player_id] = _Waiting(queue, entry)
        held.leases[connection_id] = until_ms
        return held.entry

    def _mine(self, queue: str, player_id: str) -> _Waiting | None:
        held = self._waiting.get(player_id)
        return held if held is not None and held.queue == queue else None

    async def touch(self, queue: str, player_id: str, connection_id: str, until_ms: int) -> bool:
        held = self._mine(queue, player_id)
        if held is None:
            return False
        held.leases[connection_id] = until_ms
        return True

    async def leave(self, queue: str, player_id: str, connection_id: str) -> bool:
        held = self._mine(queue, player_id)
        if held is None:
            return False
        held.leases.pop(connection_id, None)
        if not held.leases:
            del self._waiting[player_id]
        return True

    async def withdraw(self, queue: str, player_id: str) -> bool:
        if self._mine(queue, player_id) is None:
            return False
        del self._waiting[player_id]
        return True

    async def hold(self, queue: str, player_id: str, now_ms: int, queued: bool) -> str | None:
        if self._held(queue, player_id, now_ms):
            return None
        held = self._waiting.get(player_id)
        if held is not None and held.queue != queue and held.alive(now_ms):
            raise AlreadyQueued(held.queue)
        here = held is not None and held.queue == queue and held.alive(now_ms)
        if queued and not here:
            return None
        self._waiting.pop(player_id, None)
        match_id = f"m{next(self._ids)}"
        alone = Pairing(match_id, (QueueEntry(player_id, "", 0, now_ms),))
        self._pending[match_id] = _Pending(queue, alone)
        return match_id

    async def pair(self, queue: str, now_ms: int, widening: Widening, size: int) -> list[Pairing]:
        for player_id in [pid for pid, one in self._waiting.items() if not one.alive(now_ms)]:
            del self._waiting[player_id]
        self._racing = {pid: one for pid, one in self._racing.items() if one[1] > now_ms}
        self._recent = {
            pair: at for pair, at in self._recent.items() if at >= now_ms - RECENT_PAIR_MS
        }
        for player_id in [pid for pid in self._waiting if pid in self._racing]:
            del self._waiting[player_id]  # a racing player is not queued (never so here)
        mine = [one.entry for one in self._waiting.values() if one.queue == queue]
        made = []
        for room in pairings(mine, now_ms, widening, size, self._lately, self._blocks):
            pairing = Pairing(f"m{next(self._ids)}", room)
            for entry in room:
                del self._waiting[entry.player_id]
            self._pending[pairing.match_id] = _Pending(queue, pairing)
            made.append(pairing)
        return made

    def _lately(self, one: str, other: str) -> bool:
        return pair_key(one, other) in self._recent

    def _blocks(self, one: str, other: str) -> bool:
        return pair_key(one, other) in self._blocked

    async def block_pair(self, one: str, other: str, blocked: bool) -> None:
        if blocked:
            self._blocked.add(pair_key(one, other))
        else:
            self._blocked.discard(pair_key(one, other))

    async def settle(
        self, queue: str, match_id: str, frames: dict[str, str], room: QuickRoom | None = None
    ) -> None:
        held = self._queue(queue)
        if self._pending.pop(match_id, None) is None:
            return
        now = self._now()
        for player_id in [pid for pid, kept in held.results.items() if kept[1] <= now]:
            del held.results[player_id]
        until = now + RESULT_TTL_MS
        for player_id, frame in frames.items():
            held.results[player_id] = (frame, until)
        if room is not None:
            players = sorted(frames)
            for player_id in players:
                self._racing[player_id] = (room.room_id, room.ends_by_ms)
            for one, other in itertools.combinations(players, 2):
                self._recent[pair_key(one, other)] = room.made_ms
        for player_id in frames:
            for bell in list(held.bells):
                bell(player_id)

    async def release(self, queue: str, pairing: Pairing) -> None:
        self._pending.pop(pairing.match_id, None)

    async def race_over(self, queue: str, room_id: str, player_ids: Sequence[str]) -> None:
        results = self._queue(queue).results
        for player_id in player_ids:
            if self._racing.get(player_id, ("", 0))[0] == room_id:
                del self._racing[player_id]
            kept = results.get(player_id)
            if kept is not None and _names_room(kept[0], room_id):
                del results[player_id]

    def _kept_result(self, queue: str, player_id: str) -> bool:
        kept = self._queue(queue).results.get(player_id)
        return kept is not None and kept[1] > self._now()

    async def paired(self, queue: str, player_id: str) -> bool:
        return self._holding(player_id) is not None

    async def take_result(self, queue: str, player_id: str) -> str | None:
        kept = self._queue(queue).results.get(player_id)
        if kept is None or kept[1] <= self._now():
            return None
        return kept[0]

    async def status(self, queue: str, player_id: str, now_ms: int) -> QueueStatus:
        alive = {
            pid: one
            for pid, one in self._waiting.items()
            if one.queue == queue and one.alive(now_ms)
        }
        mine = alive.get(player_id)
        return QueueStatus(len(alive), None if mine is None else mine.entry.joined_ms)

    async def stock_deals(self, queue: str, deals: Sequence[str], depth: int) -> int:
        stock = self._queue(queue).stock
        for deal in deals:
            if len(stock) >= depth:
                break
            if deal not in stock:
                stock.append(deal)
        return len(stock)

    async def take_deal(self, queue: str, now_ms: int, share_ms: int) -> DealTaken | None:
        held = self._queue(queue)
        if held.stock:
            deal = held.stock.pop(secrets.randbelow(len(held.stock)))
            if share_ms > 0:
                held.shared[deal] = now_ms + share_ms
            return DealTaken(deal, False)
        held.shared = {deal: until for deal, until in held.shared.items() if until > now_ms}
        if not held.shared:
            return None
        return DealTaken(secrets.choice(list(held.shared)), True)

    async def subscribe(self, queue: str, bell: QueueBell) -> None:
        self._queue(queue).bells.append(bell)

    async def unsubscribe(self, queue: str, bell: QueueBell) -> None:
        bells = self._queue(queue).bells
        if bell in bells:
            bells.remove(bell)


def _names_room(frame: str, room_id: str) -> bool:
    """Whether a kept ``matched`` frame is of that room (``race_over.lua`` reads it alike)."""
    return f'"room_id":"{room_id}"' in frame
