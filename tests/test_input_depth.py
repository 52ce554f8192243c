"""Every parser of client input answers bad input with its documented code (issue 18, item 6):
deeply nested JSON bodies and frames, and query strings with digits that are not ASCII, get
422 ``bad_message`` (over HTTP) or a ``bad_message`` frame, never a 500 or a closed socket."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest

from server_kit import Client, http, new_room, seat

pytestmark = pytest.mark.usefixtures("close_clients")

DEEP = "[" * 15_000  # inside the 16 KiB body cap
DEEP_OBJECT = '{"name": ' + "[" * 15_000


@pytest.mark.parametrize("body", [DEEP, DEEP_OBJECT])
async def test_deeply_nested_bodies_get_422(server: Any, body: str) -> None:
    room_id = await new_room(server.url, deal="ms:4", step="ones")
    tournament = {"name": "Cup", "rounds": 1}
    status, created = await http("POST", f"{server.url}/api/tournaments", tournament)
    assert status == 201, created
    for path in (
        "/api/rooms",
        f"/api/rooms/{room_id}/players",
        "/api/tournaments",
        f"/api/tournaments/{created['tournament_id']}/players",
    ):
        status, answer = await http("POST", server.url + path, body)
        assert status == 422, (path, status, answer)
        assert answer["code"] == "bad_message"


@pytest.mark.parametrize("limit", ["²", "١", "9" * 5000, "-1", "0"])
async def test_a_room_list_limit_that_is_not_a_small_ascii_number_gets_422(
    server: Any, limit: str
) -> None:
    query = f"status=waiting&limit={quote(limit)}"
    status, answer = await http("GET", f"{server.url}/api/rooms?{query}")
    assert status == 422, answer
    assert answer == {
        "code": "bad_message",
        "message": "limit: a whole number from 1 to 100",
        "field": "limit",
    }


async def test_deeply_nested_frames_get_bad_message(server: Any) -> None:
    room_id = await new_room(server.url, deal="ms:4", step="ones")
    _, token = await seat(server.url, room_id, "Ada")
    client = await Client.open(server.ws_url(room_id))
    await client.hello(token)
    for text in (DEEP, '{"type": "move", "id": "a", "move": ' + "[" * 3000):
        await client.send_raw(text)
        answer = await client.expect("error")
        assert answer["code"] == "bad_message"
    await client.send(type="ping")
    await client.expect("pong")
