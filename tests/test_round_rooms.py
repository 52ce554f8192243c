"""A tournament round's room opens whole: every entrant seated and ready in one store step,
never in a room list, and seating no one else (the attack of issue 18: an outsider polling
the waiting list took a seat of every round room, and the tournament never ran)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from server_kit import InProcessServer, http, resign
from stalactites.store import JoinResult, NewPlayer, NewRoom, ProgressRow, RoundRoom, Store
from store_kit import END, START, T0, TTL, add
from tournament_kit import Watcher, enter, new_tournament, seat_in_round, start

pytestmark = pytest.mark.usefixtures("close_clients")


def round_room(room_id: str = "r1", names: tuple[str, ...] = ("ann", "bob")) -> RoundRoom:
    players = [
        NewPlayer(name, name.title(), f"hash-{name}", T0, ProgressRow(4, 0), f'{{"p":"{name}"}}')
        for name in names
    ]
    events = [player.event_json for player in players] + ['{"type":"countdown"}']
    room = NewRoom(room_id, '{"game": "test"}', len(names), T0)
    return RoundRoom(room, players, START, END, events)


@pytest.mark.parametrize("store", ["memory", "redis", "cluster"], indirect=True)
async def test_a_round_room_opens_whole_unlisted_and_closed_to_others(store: Store) -> None:
    assert await store.open_round(round_room(), TTL)
    assert not await store.open_round(round_room(), TTL)  # a repeat finds it done
    row = await store.load_room("r1", T0)
    assert row is not None
    assert (row.status, row.starts_at, row.ends_at, row.seq) == ("countdown", START, END, 3)
    assert [(p.player_id, p.seat, p.ready, p.token_hash) for p in row.players] == [
        ("ann", 1, True, "hash-ann"),
        ("bob", 2, True, "hash-bob"),
    ]
    batch = await store.events_since("r1", 0)
    assert [text for _, text in batch.events][-1] == '{"type":"countdown"}'
    assert await add(store, "eve") is JoinResult.SEATS_RESERVED
    for name in ("waiting", "racing"):
        assert (await store.list_rooms(name, None, 100, T0)).rows == []
    assert await store.count_rooms(T0) == {"waiting": 0, "racing": 0}
    assert await store.start("r1", START, '{"type":"started"}')
    for name in ("waiting", "racing"):
        assert (await store.list_rooms(name, None, 100, START)).rows == []


async def outsider(base: str, round_id: list[str], seen: list[str], taken: list[Any]) -> None:
    """Poll both lists and the round's room id, asking for a seat in every room seen."""
    while True:
        rooms = []
        for name in ("waiting", "racing"):
            _, page = await http("GET", f"{base}/api/rooms?status={name}&limit=100")
            rooms += [room["room_id"] for room in page["rooms"]]
        seen += rooms
        for room_id in rooms + round_id:
            url = f"{base}/api/rooms/{room_id}/players"
            status, body = await http("POST", url, {"name": "Eve"})
            taken.append((room_id, status, body.get("code") if isinstance(body, dict) else body))
        await asyncio.sleep(0)


async def test_an_outsider_polling_the_lists_takes_no_seat_and_the_tournament_ends(
    any_server: InProcessServer,
) -> None:
    base = any_server.url
    settings = {"step": "ones", "rounds": 2, "round_time_s": 60, "break_s": 0}
    tournament_id, admin = await new_tournament(base, **settings, deals=["ms:4", "ms:4"])
    tokens = [(await enter(base, tournament_id, name))[1] for name in ("Ann", "Bob", "Cat")]
    watcher = await Watcher.open(base, tournament_id)
    await watcher.hello(spectator=True)
    round_id: list[str] = []
    seen: list[str] = []
    taken: list[Any] = []
    attack = asyncio.create_task(outsider(base, round_id, seen, taken))
    try:
        status, body, _ = await start(base, tournament_id, f"Bearer {admin}")
        assert status == 200, body
        rooms = []
        for number in (1, 2):
            started = await watcher.expect("round_started", round=number)
            rooms.append(started["room_id"])
            round_id[:] = [started["room_id"]]
            while not any(room == started["room_id"] for room, _, _ in taken):
                await asyncio.sleep(0.01)  # the outsider has tried this very room
            players = [await seat_in_round(any_server, started["room_id"], t) for t in tokens]
            assert all(len(p.frames[0]["room"]["players"]) == 3 for p in players)
            for client in players:
                await resign(client)
            await watcher.expect("round_finished", round=number)
        final = await watcher.expect("finished")
    finally:
        attack.cancel()
    assert len(final["standings"]) == 3
    assert not set(rooms) & set(seen)  # never listed
    tries = [(status, code) for room, status, code in taken if room in rooms]
    assert tries and set(tries) == {(409, "seats_reserved")}
    assert all(json.dumps(t) for t in taken)
