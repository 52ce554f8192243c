"""A rematch seats its own players and no one else.

The rematch room's id is public (the finished room's view, the spectators' ``rematch`` event):
an outsider who read it took a seat, and one of the two players was shut out (``room_full``).
Now the rematch opens whole, as a tournament round's room does: the finished room's players
seated under their seat ids and tokens there, none ready, and any other seat refused with
409 ``seats_reserved``; each player goes to it with the token they hold and says ready.
"""

from __future__ import annotations

from typing import Any

import pytest

from players_kit import anonymous, api
from server_kit import Client, InProcessServer, http, new_room, player, resign, spectator
from stalactites.store import JoinResult, NewPlayer, NewRoom, ProgressRow, Store
from stalactites.store.rooms.base import RematchRoom
from store_kit import T0, TTL, add, ready

pytestmark = pytest.mark.usefixtures("close_clients")


def rematch_room(room_id: str = "m1", names: tuple[str, ...] = ("ann", "bob")) -> RematchRoom:
    players = [
        NewPlayer(name, name.title(), f"hash-{name}", T0, ProgressRow(4, 0), "", name)
        for name in names
    ]
    return RematchRoom(NewRoom(room_id, '{"game": "test"}', len(names), T0, False), "r1", players)


@pytest.mark.parametrize("store", ["memory", "redis", "cluster"], indirect=True)
async def test_a_rematch_room_opens_with_its_players_seated_and_closed_to_others(
    store: Store,
) -> None:
    assert await store.open_rematch(rematch_room(), TTL)
    assert not await store.open_rematch(rematch_room(), TTL)  # the id is taken
    row = await store.load_room("m1", T0)
    assert row is not None
    assert (row.status, row.seq, row.seats, row.rematch_of, row.listed) == (
        "waiting",
        0,
        2,
        "r1",
        False,
    )
    assert [(p.player_id, p.name, p.seat, p.ready, p.token_hash) for p in row.players] == [
        ("ann", "Ann", 1, False, "hash-ann"),
        ("bob", "Bob", 2, False, "hash-bob"),
    ]
    assert await add(store, "eve", "m1") is JoinResult.SEATS_RESERVED
    assert (await store.list_rooms("waiting", None, 100, T0)).rows == []
    assert not await ready(store, "ann", "m1")
    assert await ready(store, "bob", "m1")  # everyone seated is ready: the countdown begins


async def finished_race(server: InProcessServer, *names: str) -> tuple[str, list[Client]]:
    room_id = await new_room(server.url, seats=len(names), countdown_s=0)
    clients = [await player(server, room_id, name) for name in names]
    for client in clients:
        await client.send(type="ready")
    for client in clients:
        await client.expect("started")
        await resign(client)
    for client in clients:
        await client.expect("results")
    return room_id, clients


async def propose(server: InProcessServer, room_id: str, token: str) -> str:
    status, body = await http("POST", f"{server.url}/api/rooms/{room_id}/rematch", {"token": token})
    assert status == 200, body
    rematch: str = body["room_id"]
    return rematch


async def take_seat(server: InProcessServer, room_id: str, name: str) -> tuple[int, Any]:
    return await http("POST", f"{server.url}/api/rooms/{room_id}/players", {"name": name})


async def test_an_outsider_reading_the_rematch_takes_no_seat_and_both_players_race_it(
    any_server: InProcessServer,
) -> None:
    room_id, (ann, bob) = await finished_race(any_server, "Ann", "Bob")
    eve = await spectator(any_server, room_id)  # the outsider watches the finished room
    rematch = await propose(any_server, room_id, ann.token)
    assert (await eve.expect("rematch"))["room_id"] == rematch
    for name in ("Eve", "Bob"):  # a name of her own, or one of theirs: no seat either way
        status, body = await take_seat(any_server, rematch, name)
        assert (status, body["code"]) == (409, "seats_reserved"), body
    _, view = await http("GET", f"{any_server.url}/api/rooms/{rematch}")
    assert [(p["player_id"], p["ready"]) for p in view["players"]] == [
        (ann.you, False),
        (bob.you, False),
    ]
    assert (view["status"], view["seats"], view["private"]) == ("waiting", 2, True)
    again = []
    for old in (ann, bob):  # each goes with the token they hold
        client = await Client.open(any_server.ws_url(rematch))
        assert (await client.hello(old.token))["you"] == old.you
        again.append(client)
    for client in again:
        await client.send(type="ready")
    for client in again:
        await client.expect("started")
        await resign(client)
    results = await again[0].expect("results")
    assert {s["player_id"] for s in results["standings"]} == {ann.you, bob.you}


async def test_a_rated_rematch_seats_its_signed_in_players_only(
    redis_server: InProcessServer,
) -> None:
    base = redis_server.url
    sessions = [await anonymous(base) for _ in range(3)]
    status, room, _ = await api("POST", f"{base}/api/rooms", {"rated": True, "countdown_s": 0})
    assert status == 201, room
    clients, seats = [], []
    for made in sessions[:2]:
        url = f"{base}/api/rooms/{room['room_id']}/players"
        status, seat, _ = await api("POST", url, {}, made["token"])
        assert status == 201, seat
        seats.append(seat)
        client = await Client.open(redis_server.ws_url(room["room_id"]))
        await client.hello(seat["token"])
        clients.append(client)
    for client in clients:
        await client.send(type="ready")
    for client in clients:
        await client.expect("started")
        await resign(client)
    await clients[0].expect("results")
    rematch = await propose(redis_server, room["room_id"], seats[1]["token"])
    url = f"{base}/api/rooms/{rematch}/players"
    for made in (sessions[2], sessions[0]):  # a stranger's session, or a player's: seated already
        status, body, _ = await api("POST", url, {}, made["token"])
        assert (status, body["code"]) == (409, "seats_reserved"), body
    for made, seat in zip(sessions[:2], seats, strict=True):  # each seat is the player's
        for token in (made["token"], seat["token"]):  # the session's, or the seat's token
            client = await Client.open(redis_server.ws_url(rematch))
            assert (await client.hello(token))["you"] == made["player_id"]
    _, view = await http("GET", f"{base}/api/rooms/{rematch}")
    assert view["rated"] is True
    assert [p["player_id"] for p in view["players"]] == [s["player_id"] for s in sessions[:2]]
