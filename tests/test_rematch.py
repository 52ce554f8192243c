"""Rematch over HTTP and real websockets: a seated player proposes it after the results, the
others are told live, one room however many propose, its players go to it with the tokens they
hold, a player who declines is waited for; and private rooms (never listed) and full rooms
(out of the waiting list) over HTTP."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from server_kit import Client, InProcessServer, http, new_room, player, resign, start_race

pytestmark = pytest.mark.usefixtures("close_clients")


async def finished_race(
    server: InProcessServer, *names: str, **settings: Any
) -> tuple[str, list[Client]]:
    room_id = await new_room(server.url, seats=len(names), countdown_s=0, **settings)
    clients = [await player(server, room_id, name) for name in names]
    await start_race(*clients)
    for client in clients:
        await resign(client)
    for client in clients:
        await client.expect("results")
    return room_id, clients


async def propose(server: InProcessServer, room_id: str, token: str) -> tuple[int, Any]:
    return await http("POST", f"{server.url}/api/rooms/{room_id}/rematch", {"token": token})


async def go_to(server: InProcessServer, room_id: str, token: str) -> Client:
    """A player's socket on a rematch room, said hello with the token of their old seat."""
    client = await Client.open(server.ws_url(room_id))
    client.token = token
    await client.hello(token)
    return client


async def test_a_rematch_is_offered_live_and_starts_when_its_players_are_ready(
    any_server: InProcessServer,
) -> None:
    room_id, (ann, bob) = await finished_race(any_server, "Ann", "Bob", time_limit_s=120)
    status, body = await propose(any_server, room_id, ann.token)
    assert status == 200
    offer = await bob.expect("rematch")
    assert (offer["room_id"], offer["by"]) == (body["room_id"], ann.you)
    assert (await ann.expect("rematch"))["room_id"] == body["room_id"]
    _, view = await http("GET", f"{any_server.url}/api/rooms/{body['room_id']}")
    _, old = await http("GET", f"{any_server.url}/api/rooms/{room_id}")
    assert (old["rematch"], old["rematch_by"]) == (body["room_id"], ann.you)  # (reopened: named)
    same = ("game", "step", "seats", "time_limit_s", "undo", "countdown_s", "certified")
    assert {k: view[k] for k in same} == {k: old[k] for k in same}
    assert view["private"] is True and view["status"] == "waiting"
    assert [p["player_id"] for p in view["players"]] == [ann.you, bob.you]
    again = [await go_to(any_server, body["room_id"], old.token) for old in (ann, bob)]
    await start_race(*again)
    for client in again:
        await resign(client)
    results = await again[0].expect("results")
    assert results["deal"] != old["deal"]


async def test_many_proposals_at_once_make_one_rematch(any_server: InProcessServer) -> None:
    room_id, clients = await finished_race(any_server, "Ann", "Bob", "Cy")
    answers = await asyncio.gather(
        *(propose(any_server, room_id, client.token) for client in clients for _ in range(2))
    )
    assert {status for status, _ in answers} == {200}
    assert len({body["room_id"] for _, body in answers}) == 1
    offers = [await client.expect("rematch") for client in clients]
    assert {offer["room_id"] for offer in offers} == {answers[0][1]["room_id"]}
    with pytest.raises(TimeoutError):  # announced once
        await clients[0].expect("rematch", timeout=0.5)


async def test_a_player_who_declines_is_waited_for_and_no_one_else_takes_the_seat(
    server: InProcessServer,
) -> None:
    room_id, (ann, bob) = await finished_race(server, "Ann", "Bob")
    _, body = await propose(server, room_id, bob.token)
    await ann.expect("rematch")
    await ann.close()  # Ann declines: she leaves
    again = await go_to(server, body["room_id"], bob.token)
    await again.send(type="ready")
    while not (await again.expect("player"))["player"]["ready"]:
        pass
    status, refused = await http(
        "POST", f"{server.url}/api/rooms/{body['room_id']}/players", {"name": "Cy"}
    )
    assert (status, refused["code"]) == (409, "seats_reserved")
    _, view = await http("GET", f"{server.url}/api/rooms/{body['room_id']}")
    assert [(p["name"], p["ready"]) for p in view["players"]] == [("Ann", False), ("Bob", True)]
    assert view["status"] == "waiting"
    _, lists = await http("GET", f"{server.url}/api/rooms?status=waiting&limit=100")
    assert body["room_id"] not in [room["room_id"] for room in lists["rooms"]]


async def test_a_rematch_needs_a_seat_and_a_finished_race(server: InProcessServer) -> None:
    room_id = await new_room(server.url, seats=2)
    ann = await player(server, room_id, "Ann")
    assert (await propose(server, room_id, ann.token))[1]["code"] == "not_finished"
    status, body = await propose(server, room_id, "not-a-token")
    assert (status, body["code"]) == (401, "unauthorized")
    status, body = await propose(server, "nowhere", ann.token)
    assert (status, body["code"]) == (404, "room_not_found")
    status, body = await http("POST", f"{server.url}/api/rooms/{room_id}/rematch", {})
    assert (status, body["field"]) == (422, "token")


async def waiting_ids(server: InProcessServer) -> list[str]:
    _, page = await http("GET", f"{server.url}/api/rooms?status=waiting&limit=100")
    return [room["room_id"] for room in page["rooms"]]


async def test_a_private_room_is_never_listed_but_joined_by_its_link(
    any_server: InProcessServer,
) -> None:
    hidden = await new_room(any_server.url, private=True)
    shown = await new_room(any_server.url)
    ids = await waiting_ids(any_server)
    assert shown in ids and hidden not in ids
    ann = await player(any_server, hidden, "Ann")
    bob = await player(any_server, hidden, "Bob")
    await start_race(ann, bob)
    _, racing = await http("GET", f"{any_server.url}/api/rooms?status=racing&limit=100")
    assert hidden not in [room["room_id"] for room in racing["rooms"]]
    _, view = await http("GET", f"{any_server.url}/api/rooms/{hidden}")
    assert view["private"] is True


async def test_a_full_room_leaves_the_waiting_list_at_once(any_server: InProcessServer) -> None:
    room_id = await new_room(any_server.url, seats=2)
    await player(any_server, room_id, "Ann")
    assert room_id in await waiting_ids(any_server)
    await player(any_server, room_id, "Bob")
    assert room_id not in await waiting_ids(any_server)


async def test_private_must_be_a_boolean(server: InProcessServer) -> None:
    status, body = await http("POST", f"{server.url}/api/rooms", {"private": "yes"})
    assert (status, body["field"]) == (422, "private")
