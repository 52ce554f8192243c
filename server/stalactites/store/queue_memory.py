"""The matchmaking queue in memory, for one process alone (see :mod:`.queue_base`)."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .queue_base import (
    RESULT_TTL_MS,
    DealTaken,
    Pairing,
    QueueBell,
    QueueEntry,
    QueueStatus,
    Widening,
    pairings,
)

__all__ = ["MemoryQueueStore"]


@dataclass
class _Waiting:
    entry: QueueEntry
    leases: dict[str, int] = field(default_factory=dict)  # connection id -> until (unix ms)

    def alive(self, now_ms: int) -> bool:
        return any(until > now_ms for until in self.leases.values())


@dataclass
class _Queue:
    waiting: dict[str, _Waiting] = field(default_factory=dict)
    pending: dict[str, Pairing] = field(default_factory=dict)
    results: dict[str, tuple[str, int]] = field(default_factory=dict)  # frame, kept until
    bells: list[QueueBell] = field(default_factory=list)
    stock: list[str] = field(default_factory=list)  # certified deals
    shared: dict[str, int] = field(default_factory=dict)  # deal -> open until (ms)


class MemoryQueueStore:
    def __init__(self, now_ms: Callable[[], int]) -> None:
        self._queues: dict[str, _Queue] = {}
        self._now = now_ms
        self._ids = itertools.count(1)

    def _queue(self, queue: str) -> _Queue:
        return self._queues.setdefault(queue, _Queue())

    async def ping(self) -> bool:
        return True

    async def close(self) -> None:
        self._queues.clear()

    async def enqueue(
        self, queue: str, entry: QueueEntry, connection_id: str, until_ms: int
    ) -> QueueEntry | None:
        if await self.paired(queue, entry.player_id):
            return None
        if await self._kept_result(queue, entry.player_id):
            return None
        waiting = self._queue(queue).waiting
        held = waiting.setdefault(entry.player_id, _Waiting(entry))
        held.leases[connection_id] = until_ms
        return held.entry

    async def touch(self, queue: str, player_id: str, connection_id: str, until_ms: int) -> bool:
        held = self._queue(queue).waiting.get(player_id)
        if held is None:
            return False
        held.leases[connection_id] = until_ms
        return True

    async def leave(self, queue: str, player_id: str, connection_id: str) -> bool:
        waiting = self._queue(queue).waiting
        held = waiting.get(player_id)
        if held is None:
            return False
        held.leases.pop(connection_id, None)
        if not held.leases:
            del waiting[player_id]
        return True

    async def withdraw(self, queue: str, player_id: str) -> bool:
        return self._queue(queue).waiting.pop(player_id, None) is not None

    async def pair(self, queue: str, now_ms: int, widening: Widening, size: int) -> list[Pairing]:
        held = self._queue(queue)
        for player_id in [pid for pid, one in held.waiting.items() if not one.alive(now_ms)]:
            del held.waiting[player_id]
        made = []
        for room in pairings([one.entry for one in held.waiting.values()], now_ms, widening, size):
            pairing = Pairing(f"m{next(self._ids)}", room)
            for entry in room:
                del held.waiting[entry.player_id]
            held.pending[pairing.match_id] = pairing
            made.append(pairing)
        return made

    async def settle(self, queue: str, match_id: str, frames: dict[str, str]) -> None:
        held = self._queue(queue)
        if held.pending.pop(match_id, None) is None:
            return
        now = self._now()
        for player_id in [pid for pid, kept in held.results.items() if kept[1] <= now]:
            del held.results[player_id]
        until = now + RESULT_TTL_MS
        for player_id, frame in frames.items():
            held.results[player_id] = (frame, until)
        for player_id in frames:
            for bell in list(held.bells):
                bell(player_id)

    async def release(self, queue: str, pairing: Pairing) -> None:
        self._queue(queue).pending.pop(pairing.match_id, None)

    async def _kept_result(self, queue: str, player_id: str) -> bool:
        kept = self._queue(queue).results.get(player_id)
        return kept is not None and kept[1] > self._now()

    async def paired(self, queue: str, player_id: str) -> bool:
        pending = self._queue(queue).pending.values()
        return any(entry.player_id == player_id for one in pending for entry in one.players)

    async def take_result(self, queue: str, player_id: str) -> str | None:
        kept = self._queue(queue).results.get(player_id)
        if kept is None or kept[1] <= self._now():
            return None
        return kept[0]

    async def status(self, queue: str, player_id: str, now_ms: int) -> QueueStatus:
        waiting = self._queue(queue).waiting
        alive = {pid: one for pid, one in waiting.items() if one.alive(now_ms)}
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
