"""The matchmaking queue's store: who waits for a quick race, and the one atomic pairing step.

One interface (:class:`QueueStore`), two implementations: :mod:`.queue_memory` and
:mod:`.queue_redis` (every key of one queue, a game and a step, under one hash tag: one
Redis Cluster slot).  A queue holds one **entry per player** (a second tab shares it): the
player's name, rating (the shown, conservative number) and when they joined, and one **lease**
per socket waiting for them, renewed by that socket.  An entry whose leases have all run out is
gone: the next pairing step drops it, so nobody is paired with a dead socket's player.

:meth:`QueueStore.pair` is the pairing step (:func:`pairings` says how it chooses); it takes the
entries it pairs out of the queue and keeps each pairing as *pending* until the process that
made it :meth:`~QueueStore.settle`\\ s it with each player's ``matched`` frame, which rings the
queue's bell with the player's id: the player's sockets, on any process, read their frame with
:meth:`~QueueStore.take_result`.

A queue also keeps the **stock** of certified deals its rooms are dealt from, shared by every
process (:mod:`stalactites.matchmaking.deal_pool` fills it ahead and takes from it): a deal is
taken from the stock once, at random, and may then deal other rooms for a short while (its
*sharing* time) but only when the stock is empty.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

__all__ = [
    "RESULT_TTL_MS",
    "DealTaken",
    "Pairing",
    "QueueBell",
    "QueueEntry",
    "QueueStatus",
    "QueueStore",
    "Widening",
    "pairings",
    "queue_name",
]

RESULT_TTL_MS = 60_000  # a matched frame waits this long for its player's sockets to read it

QueueBell = Callable[[str], None]
"""Rung with a player's id when a ``matched`` frame is stored for them (``""``: the
subscription was made again, every socket should look)."""


def queue_name(game: str, step: str | None) -> str:
    """One queue per game and step: ``stalactites:choice``, ``squadron:-``."""
    return f"{game}:{step or '-'}"


@dataclass(frozen=True, slots=True)
class Widening:
    """The rating window: two players may be paired when their ratings differ by at most the
    window of the one who has waited longer: ``base`` points at once, ``per_s`` more for each
    second waited, and anyone at all once they have waited ``anyone_after_s``."""

    base: int = 100
    per_s: int = 25
    anyone_after_s: float = 20.0

    def window(self, waited_ms: int) -> float:
        if waited_ms >= self.anyone_after_s * 1000:
            return float("inf")
        return self.base + self.per_s * max(waited_ms, 0) / 1000


@dataclass(frozen=True, slots=True)
class QueueEntry:
    player_id: str
    name: str
    rating: int
    joined_ms: int


@dataclass(frozen=True, slots=True)
class Pairing:
    match_id: str
    players: tuple[QueueEntry, ...]


@dataclass(frozen=True, slots=True)
class DealTaken:
    deal: str  # as stocked
    shared: bool  # dealt from the stock to an earlier room (the stock was empty)


@dataclass(frozen=True, slots=True)
class QueueStatus:
    waiting: int  # players with a live entry in the queue
    joined_ms: int | None  # this player's entry's (None: not in the queue)


def pairings(
    entries: Sequence[QueueEntry], now_ms: int, widening: Widening, size: int
) -> list[tuple[QueueEntry, ...]]:
    """The rooms one pairing step makes: the longest waiter first, with the ``size - 1`` others
    nearest in rating whose difference the longer waiter's window allows; then the next one
    not yet placed.  (``queue/pair.lua`` does the same in Redis.)"""
    order = sorted(entries, key=lambda entry: (entry.joined_ms, entry.player_id))
    placed: set[str] = set()
    rooms: list[tuple[QueueEntry, ...]] = []
    for first in order:
        if first.player_id in placed:
            continue
        window = widening.window(now_ms - first.joined_ms)
        near = sorted(
            (abs(other.rating - first.rating), other.joined_ms, other.player_id, other)
            for other in order
            if other.player_id not in placed
            and other.player_id != first.player_id
            and abs(other.rating - first.rating) <= window
        )
        if len(near) >= size - 1:
            room = (first, *(item[3] for item in near[: size - 1]))
            placed.update(entry.player_id for entry in room)
            rooms.append(room)
    return rooms


class QueueStore(Protocol):
    async def ping(self) -> bool: ...

    async def close(self) -> None: ...

    async def enqueue(
        self, queue: str, entry: QueueEntry, connection_id: str, until_ms: int
    ) -> QueueEntry | None:
        """Queue the player (or add a socket's lease to their entry): the entry as kept (an
        entry already there keeps its name, rating and time); None, and nothing queued, while
        a pairing holds the player or their ``matched`` frame is kept (a late tab of a player
        already matched must not queue them again)."""
        ...

    async def touch(self, queue: str, player_id: str, connection_id: str, until_ms: int) -> bool:
        """Renew a socket's lease; False if the player is no longer queued."""
        ...

    async def leave(self, queue: str, player_id: str, connection_id: str) -> bool:
        """Drop a socket's lease (its player's entry goes with the last one); True if the
        player was still queued."""
        ...

    async def withdraw(self, queue: str, player_id: str) -> bool:
        """Take the player's entry out whatever its leases (for a ghost race); True if it was
        there (so the player was not paired meanwhile)."""
        ...

    async def pair(self, queue: str, now_ms: int, widening: Widening, size: int) -> list[Pairing]:
        """The pairing step, atomic: drop entries whose leases ran out, pair (see
        :func:`pairings`), take the paired entries out and keep each pairing pending."""
        ...

    async def settle(self, queue: str, match_id: str, frames: dict[str, str]) -> None:
        """End a pending pairing: keep each player's ``matched`` frame (for
        :data:`RESULT_TTL_MS`) and ring the queue's bell with each player's id.  A pairing no
        longer pending (given up, or forgotten as too old in Redis) tells no one: its players
        may be queued again, and are never told of two rooms."""
        ...

    async def release(self, queue: str, pairing: Pairing) -> None:
        """Give up a pending pairing (its room could not be made): its players are free to
        queue again."""
        ...

    async def paired(self, queue: str, player_id: str) -> bool:
        """Whether a pending pairing holds the player (its room is being made)."""
        ...

    async def take_result(self, queue: str, player_id: str) -> str | None:
        """The player's ``matched`` frame, if one is kept (it stays for their other tabs)."""
        ...

    async def status(self, queue: str, player_id: str, now_ms: int) -> QueueStatus:
        """How many are waiting (live leases) and when this player joined."""
        ...

    async def stock_deals(self, queue: str, deals: Sequence[str], depth: int) -> int:
        """Add certified deals (texts, distinct) to the queue's stock while it holds fewer than
        ``depth``: how many it holds now (``deals`` empty: only count)."""
        ...

    async def take_deal(self, queue: str, now_ms: int, share_ms: int) -> DealTaken | None:
        """A deal for a new room, atomic: one of the stock at random, taken out of it and then
        open to be shared until ``now_ms + share_ms``; else, the stock empty, one of those
        still open, at random (it may deal any number of rooms while open); else None."""
        ...

    async def subscribe(self, queue: str, bell: QueueBell) -> None: ...

    async def unsubscribe(self, queue: str, bell: QueueBell) -> None: ...
