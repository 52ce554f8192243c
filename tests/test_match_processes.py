"""Quick races on two server processes sharing one real Redis: players arriving at once on
both are each matched exactly once (no one in two rooms, no one with themselves, two tabs on
two processes one entry), the race plays to the end across processes and is rated, and a
process killed with players queued takes them out of the queue once their leases run out."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any

import pytest

from match_kit import MatchClient, queued_player, race_client
from players_kit import anonymous, recorded
from server_kit import REDIS_URL, Spawn, lasting_moves, stored_solution
from stalactites.rooms.rating import NO_PLAY_MOVES
from stalactites.store.queue.base import queue_name
from stalactites.store.queue.redis import RedisQueueStore

pytestmark = pytest.mark.usefixtures("close_clients")

FAST_LEASE = {"STALACTITES_MATCH_LEASE_S": "1"}


async def matched(client: MatchClient) -> dict[str, Any]:
    for frame in client.frames:
        if frame["type"] == "matched":
            return frame
    return await client.expect("matched", timeout=20)


async def test_concurrent_arrivals_on_two_processes_are_each_matched_once(
    spawn: Spawn,
) -> None:
    servers = [spawn(), spawn()]
    sessions = [await anonymous(servers[0].url) for _ in range(16)]
    two_tabs = sessions[0]
    arrivals = [(servers[n % 2], session) for n, session in enumerate(sessions)]
    arrivals.append((servers[1], two_tabs))  # the same player's second tab, other process
    clients = await asyncio.gather(
        *(queued_player(server, session, step="ones") for server, session in arrivals)
    )
    frames = await asyncio.gather(*(matched(client) for client in clients))
    seats: Counter[str] = Counter()
    rooms: dict[str, set[str]] = {}
    for client, frame in zip(clients, frames, strict=True):
        me = client.session["player_id"]
        players = [player["player_id"] for player in frame["players"]]
        assert len(players) == 2 and len(set(players)) == 2 and me in players
        rooms.setdefault(frame["room_id"], set()).update(players)
        seats[me] += 1
    assert len(rooms) == 8  # 16 players, 2 a room
    in_rooms = Counter(player for players in rooms.values() for player in players)
    assert set(in_rooms.values()) == {1}  # nobody in two rooms
    assert seats[two_tabs["player_id"]] == 2  # both tabs told, of one room


async def test_a_race_matched_across_processes_plays_to_the_end_and_is_rated(
    spawn: Spawn, redis_prefix: str
) -> None:
    first, second = spawn(), spawn()
    ann = await queued_player(first, step="ones")
    bob = await queued_player(second, step="ones")
    ann_match, bob_match = await matched(ann), await matched(bob)
    room_id = ann_match["room_id"]
    assert bob_match["room_id"] == room_id
    ann_room, bob_room = await race_client(first, ann_match), await race_client(second, bob_match)
    await ann_room.expect("started", timeout=15)
    opening = (await bob_room.expect("started", timeout=15))["state"]
    for number, move in enumerate(lasting_moves(opening, NO_PLAY_MOVES)):
        answer = await bob_room.move(f"b{number}", move)  # real play: the race is rated
        assert answer["type"] == "accepted", answer
    line = stored_solution(redis_prefix, room_id, "ones")
    for index, move in enumerate(line):
        assert (await ann_room.move(f"m{index}", move))["type"] == "accepted"
    await bob_room.send(type="resign")
    results = await bob_room.expect("results")
    places = {row["player_id"]: (row["place"], row["rated"]) for row in results["standings"]}
    assert places == {ann_room.you: (1, True), bob_room.you: (2, True)}
    [entry] = await recorded(second.url, ann.session["player_id"])
    assert entry["room_id"] == room_id and entry["rated"] and entry["place"] == 1


async def test_a_killed_process_takes_its_queued_players_out_of_the_queue(
    spawn: Spawn, redis_prefix: str
) -> None:
    doomed, survivor = spawn(**FAST_LEASE), spawn(**FAST_LEASE)
    ghost = await queued_player(doomed, step="twos")
    doomed.kill()
    store = RedisQueueStore(REDIS_URL, redis_prefix)
    queue = queue_name("stalactites", "twos")
    try:
        deadline = time.monotonic() + 10
        while (await store.status(queue, "", int(time.time() * 1000))).waiting:
            assert time.monotonic() < deadline, "the dead socket's entry outlived its lease"
            await asyncio.sleep(0.1)
    finally:
        await store.close()
    ann = await queued_player(survivor, step="twos")
    bob = await queued_player(survivor, step="twos")
    ann_match, bob_match = await matched(ann), await matched(bob)
    assert ann_match["room_id"] == bob_match["room_id"]
    players = {player["player_id"] for player in ann_match["players"]}
    assert ghost.session["player_id"] not in players
