"""The matchmaking queue's store: who waits for a quick race, and the one atomic pairing step.

One interface (:class:`QueueStore`), two implementations: :mod:`.memory` and
:mod:`.redis` (every key of every queue's waiting, pairing and racing under one hash tag:
one Redis Cluster slot, so that one script sees a player in every queue).  A player has at most
**one entry**, in one queue (a second tab shares it; queuing in another queue meanwhile is
:class:`AlreadyQueued`): the player's name, rating (the shown, conservative number), when they
joined and their client address (hashed, :mod:`stalactites.matchmaking.addresses`), and one
**lease** per socket waiting for them, renewed by that socket.  An entry whose leases have all
run out is gone: the next pairing step drops it, so nobody is paired with a dead socket's player.

:meth:`QueueStore.pair` is the pairing step (:func:`pairings` says how it chooses: never two
entries of one address, and a pair that raced within :data:`RECENT_PAIR_MS` only when nobody
else is free); it takes the entries it pairs out of the queue and keeps each pairing as
*pending* until the process that made it :meth:`~QueueStore.settle`\\ s it with each player's
``matched`` frame and the room, which marks each player **racing** in that room (until the
race is over, :meth:`~QueueStore.race_over`, or its time limit has passed) and rings the
queue's bell with the player's id: the player's sockets, on any process, read their frame with
:meth:`~QueueStore.take_result`.  A racing player is never queued nor paired
(:class:`InQuickRace`): one quick race at a time, whatever the queue.

A queue also keeps the **stock** of certified deals its rooms are dealt from, shared by every
process (:mod:`stalactites.matchmaking.deal_pool` fills it ahead and takes from it): a deal is
taken from the stock once, at random, and may then deal other rooms for a short while (its
*sharing* time) but only when the stock is empty.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

__all__ = [
    "RECENT_PAIR_MS",
    "RESULT_TTL_MS",
    "AlreadyQueued",
    "DealTaken",
    "InQuickRace",
    "Pairing",
    "QueueBell",
    "QueueEntry",
    "QueueRefused",
    "QueueStatus",
    "QueueStore",
    "QuickRoom",
    "Widening",
    "pair_key",
    "pairings",
    "queue_name",
]

RESULT_TTL_MS = 60_000  # a matched frame waits this long for its player's sockets to read it
RECENT_PAIR_MS = 30 * 60_000  # two players matched this recently are paired again only when
# nobody else is free (two quick races' default time limit: a rematch right after a race waits)

QueueBell = Callable[[str], None]
"""Rung with a player's id when a ``matched`` frame is stored for them (``""``: the
subscription was made again, every socket should look)."""


def queue_name(game: str, step: str | None, pool: str = "") -> str:
    """One queue per game and step, ``stalactites:choice``, ``squadron:-``, and pool of
    players (:meth:`stalactites.fairplay.FairPlay.pool_of`): ``stalactites:choice:bots``."""
    return f"{game}:{step or '-'}" + (f":{pool}" if pool else "")


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
    address: str = ""  # the client's address, hashed ("": none to tell apart, never the same)


@dataclass(frozen=True, slots=True)
class Pairing:
    match_id: str
    players: tuple[QueueEntry, ...]


@dataclass(frozen=True, slots=True)
class QuickRoom:
    """The room a pairing was settled into: its players race there until it is over, or
    until ``ends_by_ms`` at the latest (its time limit passed), and were matched at
    ``made_ms``."""

    room_id: str
    made_ms: int
    ends_by_ms: int


class QueueRefused(Exception):
    """The player may not queue (or race a ghost) now; ``code`` is the match protocol's."""

    code: ClassVar[str]


class AlreadyQueued(QueueRefused):
    """The player waits in another queue (another tab queued them there)."""

    code = "already_queued"

    def __init__(self, queue: str) -> None:
        super().__init__(f"you are queued for {queue} already (in another tab?); leave it first")
        self.queue = queue


class InQuickRace(QueueRefused):
    """The player is in a quick race that is not over (``room_id``; empty while its room is
    being made)."""

    code = "in_quick_race"

    def __init__(self, room_id: str) -> None:
        where = f" (room {room_id})" if room_id else ""
        super().__init__(f"you are in a quick race{where} that is not over; finish it first")
        self.room_id = room_id


@dataclass(frozen=True, slots=True)
class DealTaken:
    deal: str  # as stocked
    shared: bool  # dealt from the stock to an earlier room (the stock was empty)


@dataclass(frozen=True, slots=True)
class QueueStatus:
    waiting: int  # players with a live entry in the queue
    joined_ms: int | None  # this player's entry's (None: not in the queue)


def pair_key(one: str, other: str) -> str:
    """How a pair of players is named among the recent pairs: ``A|B``, in order."""
    return f"{one}|{other}" if one < other else f"{other}|{one}"


def _same_address(one: QueueEntry, other: QueueEntry) -> bool:
    return one.address != "" and one.address == other.address


def _never(one: str, other: str) -> bool:
    return False


def pairings(
    entries: Sequence[QueueEntry],
    now_ms: int,
    widening: Widening,
    size: int,
    recent: Callable[[str, str], bool] = _never,
    blocked: Callable[[str, str], bool] = _never,
) -> list[tuple[QueueEntry, ...]]:
    """The rooms one pairing step makes: the longest waiter first, with the ``size - 1`` others
    nearest in rating whose difference the longer waiter's window allows; then the next one
    not yet placed.  Two entries of one address are never in one room (the queue is rated: a
    player's own puppets must not feed them), and two players who were matched lately
    (``recent``, within :data:`RECENT_PAIR_MS`) are paired again only when nobody else is
    free for the waiter: no one waits who is neither of its address nor lately matched with
    it, however far in rating.  Two players of whom one blocks the other (``blocked``) are
    never paired.  (``queue/pair.lua`` does the same in Redis.)"""
    order = sorted(entries, key=lambda entry: (entry.joined_ms, entry.player_id))
    placed: set[str] = set()
    rooms: list[tuple[QueueEntry, ...]] = []
    for first in order:
        if first.player_id in placed:
            continue
        free = [
            other
            for other in order
            if other.player_id not in placed
            and other.player_id != first.player_id
            and not _same_address(first, other)
            and not blocked(first.player_id, other.player_id)
        ]
        avoid = any(not recent(first.player_id, other.player_id) for other in free)
        window = widening.window(now_ms - first.joined_ms)
        near = sorted(
            (abs(other.rating - first.rating), other.joined_ms, other.player_id, other)
            for other in free
            if abs(other.rating - first.rating) <= window
        )
        room = [first]
        for *_, other in near:
            if len(room) == size:
                break
            if all(
                _apart(member, other, avoid, recent)
                and not blocked(member.player_id, other.player_id)
                for member in room
            ):
                room.append(other)
        if len(room) == size:
            placed.update(entry.player_id for entry in room)
            rooms.append(tuple(room))
    return rooms


def _apart(
    one: QueueEntry, other: QueueEntry, avoid: bool, recent: Callable[[str, str], bool]
) -> bool:
    """Whether the two may share a room: not of one address, nor lately matched (when
    ``avoid``)."""
    if _same_address(one, other):
        return False
    return not (avoid and recent(one.player_id, other.player_id))


class QueueStore(Protocol):
    async def ping(self) -> bool: ...

    async def close(self) -> None: ...

    async def enqueue(
        self,
        queue: str,
        entry: QueueEntry,
        connection_id: str,
        until_ms: int,
        now_ms: int | None = None,
    ) -> QueueEntry | None:
        """Queue the player (or add a socket's lease to their entry): the entry as kept (an
        entry already there keeps its name, rating, time and address); None, and nothing
        queued, while a pairing of this queue holds the player or their ``matched`` frame of
        this queue is kept (a late tab of a player already matched must not queue them
        again).  :class:`InQuickRace` while the player is held by a pairing of another queue
        or races in a quick race not over (since ``now_ms``, default the entry's time);
        :class:`AlreadyQueued` while they have a live entry in another queue."""
        ...

    async def touch(self, queue: str, player_id: str, connection_id: str, until_ms: int) -> bool:
        """Renew a socket's lease; False if the player is no longer queued (here)."""
        ...

    async def leave(self, queue: str, player_id: str, connection_id: str) -> bool:
        """Drop a socket's lease (its player's entry goes with the last one); True if the
        player was still queued."""
        ...

    async def withdraw(self, queue: str, player_id: str) -> bool:
        """Take the player's entry out whatever its leases; True if it was there (so the
        player was not paired meanwhile)."""
        ...

    async def hold(self, queue: str, player_id: str, now_ms: int, queued: bool) -> str | None:
        """Take the player out of the queue for a ghost race, atomic: their entry here goes
        and a pairing of them alone is kept pending (its match id), to be settled with the
        ghost race's room or released, so that no other pairing takes them meanwhile.  None
        when ``queued`` and they have no live entry here (paired meanwhile), or while a
        pairing of this queue holds them or their ``matched`` frame of it is kept; the
        refusals of :meth:`enqueue` otherwise."""
        ...

    async def pair(self, queue: str, now_ms: int, widening: Widening, size: int) -> list[Pairing]:
        """The pairing step, atomic: drop entries whose leases ran out, pair (see
        :func:`pairings`, the pairs matched within :data:`RECENT_PAIR_MS` of ``now_ms`` as
        its recent ones) whoever is not racing, take the paired entries out and keep each
        pairing pending."""
        ...

    async def settle(
        self, queue: str, match_id: str, frames: dict[str, str], room: QuickRoom | None = None
    ) -> None:
        """End a pending pairing: keep each player's ``matched`` frame (for
        :data:`RESULT_TTL_MS`), mark each player racing in ``room`` (until
        :meth:`race_over`, or ``room.ends_by_ms``) and each pair of them matched at
        ``room.made_ms``, and ring the queue's bell with each player's id.  A pairing no
        longer pending (given up, or forgotten as too old in Redis) tells no one: its players
        may be queued again, and are never told of two rooms."""
        ...

    async def block_pair(self, one: str, other: str, blocked: bool) -> None:
        """One of the two players blocks the other (``blocked``), or no longer: such a pair is
        never paired (whichever blocked whom)."""
        ...

    async def race_over(self, queue: str, room_id: str, player_ids: Sequence[str]) -> None:
        """The quick race in ``room_id`` is over: its players are racing no more, and their
        ``matched`` frames of it are dropped (they may queue again at once)."""
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
