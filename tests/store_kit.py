"""What the store tests share: fixed times, and the calls that set a room up and commit to it.

Time is passed to the store explicitly (it never reads a clock), so rooms made here
have exact deadlines: ``START`` and ``END`` of a race whose room was made at ``T0``.
"""

from __future__ import annotations

import json

from stalactites.store import Commit, JoinResult, NewPlayer, NewRoom, ProgressRow, Store

__all__ = ["END", "START", "T0", "TTL", "add", "commit", "make_room", "racing", "ready"]

T0 = 1_700_000_000_000
TTL = 3600_000
START = T0 + 5_000
END = START + 60_000


async def make_room(store: Store, room_id: str = "r1", seats: int = 2) -> None:
    await store.create_room(NewRoom(room_id, '{"game": "test"}', seats, T0), TTL)


async def add(store: Store, name: str, room_id: str = "r1") -> JoinResult:
    event = json.dumps({"type": "player", "name": name})
    return await store.join(
        room_id, NewPlayer(name, name.title(), f"hash-{name}", T0, ProgressRow(4, 0), event)
    )


async def ready(store: Store, name: str, room_id: str = "r1") -> bool:
    answer = await store.ready(
        room_id, name, f'{{"type":"player","ready":"{name}"}}', START, END, '{"type":"countdown"}'
    )
    assert answer.ok
    return answer.counting_down


async def racing(store: Store, names: tuple[str, ...] = ("ann", "bob")) -> None:
    await make_room(store, seats=len(names))
    for name in names:
        assert await add(store, name) is JoinResult.JOINED
    for name in names:
        await ready(store, name)
    assert await store.start("r1", START, '{"type":"started"}')


def commit(
    name: str,
    length: int,
    action: str | None = "t1-c1",
    client_id: str | None = None,
    finish: str | None = None,
    now: int = START + 1_000,
    cards: int = 4,
) -> Commit:
    event = json.dumps({"type": "progress", "player": name, "length": length})
    return Commit(
        "r1",
        name,
        length,
        action,
        client_id,
        ProgressRow(cards, length + 1, now),
        finish,
        now - START,
        now,
        event,
    )
