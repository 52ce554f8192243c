"""Every error code of the protocol, provoked over a real websocket (or HTTP where it lives).

After each refusal the test checks that nothing changed and, where the connection should
survive, that it still answers.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import redis

from server_kit import (
    REDIS_URL,
    Client,
    InProcessServer,
    ManualClock,
    http,
    make_config,
    new_room,
    player,
    seat,
    winning_line,
)
from stalactites.store.rooms.keys import RoomKeys

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")


async def racing(server: Any, **settings: Any) -> tuple[str, Client]:
    """A solo room on ms:4, raced by one connected player."""
    options = {"deal": DEAL, "seats": 1, "countdown_s": 0, **settings}
    room_id = await new_room(server.url, **options)
    client = await player(server, room_id, "Ann")
    await client.send(type="ready")
    await client.expect("started")
    return room_id, client


async def moves_of(server: Any, room_id: str) -> list[int]:
    status, view = await http("GET", f"{server.url}/api/rooms/{room_id}")
    assert status == 200
    return [p["moves"] for p in view["players"]]


async def still_answers(client: Client) -> None:
    await client.send(type="ping")
    assert (await client.expect("pong"))["type"] == "pong"


async def test_bad_frames_get_bad_message_and_the_connection_survives_a_few(
    server: InProcessServer,
) -> None:
    room_id, ann = await racing(server)
    bad: list[str | bytes] = [
        "{not json",
        '{"type": "dance"}',
        '{"type": "move", "id": "m1", "move": "t1-c1", "extra": true}',
        b"\x00\x01binary",
        json.dumps({"type": "move", "id": "m1", "move": "x" * 5000}),
    ]
    for frame in bad:
        await ann.send_raw(frame)
        error = await ann.expect("error")
        assert error["code"] == "bad_message", error
    await still_answers(ann)
    assert await moves_of(server, room_id) == [0]
    await ann.send_raw("[]")  # the sixth bad frame
    assert (await ann.expect("error"))["code"] == "bad_message"
    assert await ann.closed() == 1008


async def test_a_bad_token_is_unauthorized_and_closes_the_socket(server: InProcessServer) -> None:
    room_id = await new_room(server.url)
    await seat(server.url, room_id, "Ann")
    client = await Client.open(server.ws_url(room_id))
    await client.send(type="hello", token="not-a-token")
    error = await client.expect("error")
    assert error["code"] == "unauthorized"
    assert await client.closed() == 1008


async def test_a_token_from_another_room_moves_nothing_here(server: InProcessServer) -> None:
    first, _ = await racing(server)
    other = await new_room(server.url, deal=DEAL, seats=1, countdown_s=0)
    _, token = await seat(server.url, other, "Bob")
    client = await Client.open(server.ws_url(first))
    await client.send(type="hello", token=token)
    assert (await client.expect("error"))["code"] == "unauthorized"
    assert await client.closed() == 1008


async def test_no_hello_in_time_is_unauthorized(server: InProcessServer) -> None:
    room_id = await new_room(server.url)
    client = await Client.open(server.ws_url(room_id))
    error = await client.expect("error", timeout=5)
    assert (error["code"], error["message"]) == ("unauthorized", "no hello within 1 s")
    assert await client.closed() == 1008


async def test_anything_but_hello_first_is_unauthorized(server: InProcessServer) -> None:
    room_id = await new_room(server.url)
    client = await Client.open(server.ws_url(room_id))
    await client.send(type="ready")
    assert (await client.expect("error"))["code"] == "unauthorized"
    assert await client.closed() == 1008


async def test_an_unknown_room_is_room_not_found(server: InProcessServer) -> None:
    client = await Client.open(server.ws_url("no-such-room"))
    await client.send(type="hello", token="x")
    assert (await client.expect("error"))["code"] == "room_not_found"
    assert await client.closed() == 1008
    status, body = await http("GET", f"{server.url}/api/rooms/no-such-room")
    assert (status, body["code"]) == (404, "room_not_found")
    status, body = await http("POST", f"{server.url}/api/rooms/{'x' * 40}/players", {"name": "A"})
    assert (status, body["code"]) == (404, "room_not_found")


async def test_a_full_room_is_room_full(server: InProcessServer) -> None:
    room_id = await new_room(server.url, seats=1)
    await seat(server.url, room_id, "Ann")
    status, body = await http("POST", f"{server.url}/api/rooms/{room_id}/players", {"name": "B"})
    assert (status, body["code"]) == (409, "room_full")


async def test_no_one_joins_a_race_underway(server: InProcessServer) -> None:
    room_id, ann = await racing(server)
    status, body = await http("POST", f"{server.url}/api/rooms/{room_id}/players", {"name": "B"})
    assert (status, body["code"]) == (409, "room_full")


async def test_a_move_before_the_start_is_not_started(server: InProcessServer) -> None:
    room_id = await new_room(server.url, deal=DEAL, seats=2)
    ann = await player(server, room_id, "Ann")
    answer = await ann.move("m1", LINE[0])
    assert (answer["type"], answer["code"]) == ("rejected", "not_started")
    illegal = await ann.move("m2", "t1-t2")
    assert illegal["code"] == "not_started"  # the race's state comes before the rules
    assert await moves_of(server, room_id) == [0]


async def test_a_move_after_resigning_is_already_finished(server: InProcessServer) -> None:
    room_id, ann = await racing(server)
    await ann.send(type="resign")
    await ann.expect("results")
    answer = await ann.move("m1", LINE[0])
    assert (answer["type"], answer["code"]) == ("rejected", "already_finished")
    await ann.send(type="resign")
    assert (await ann.expect("error"))["code"] == "already_finished"
    await ann.send(type="ready")
    assert (await ann.expect("error"))["code"] == "already_finished"


async def test_a_move_after_the_time_limit_is_already_finished(
    server: InProcessServer, clock: ManualClock
) -> None:
    room_id, ann = await racing(server, time_limit_s=60)
    assert (await ann.move("m1", LINE[0]))["type"] == "accepted"
    clock.advance(60)
    answer = await ann.move("m2", LINE[1])
    assert (answer["type"], answer["code"]) == ("rejected", "already_finished")
    assert await moves_of(server, room_id) == [1]
    finished = await ann.expect("finished")
    assert finished["status"] == "timeout"


async def test_notation_that_is_no_move_is_invalid_move(server: InProcessServer) -> None:
    room_id, ann = await racing(server)
    for text in ("t3f1", "undo", "step:ones", "t0-f1"):
        answer = await ann.move(f"bad-{text}", text)
        assert (answer["type"], answer["code"]) == ("rejected", "invalid_move"), answer
    assert await moves_of(server, room_id) == [0]
    await still_answers(ann)


async def test_a_move_the_rules_forbid_is_illegal_move(server: InProcessServer) -> None:
    room_id, ann = await racing(server)
    for text in ("t1-t2", "c1-f1", "f1-c1", "s-w"):
        answer = await ann.move(f"m-{text}", text)
        assert (answer["type"], answer["code"]) == ("rejected", "illegal_move"), answer
    await ann.send(type="undo", id="u1")
    answer = await ann.answer("u1")
    assert (answer["code"], answer["message"]) == ("illegal_move", "nothing to undo")
    assert await moves_of(server, room_id) == [0]


async def test_a_declaration_once_the_step_is_fixed_is_step_locked(server: InProcessServer) -> None:
    room_id, ann = await racing(server, step="choice")
    await ann.send(type="declare_step", step="ones", id="s1")
    first = await ann.answer("s1")
    assert (first["type"], first["move"], first["state"]["step"]) == (
        "accepted",
        "step:ones",
        "ones",
    )
    await ann.send(type="declare_step", step="twos", id="s2")
    again = await ann.answer("s2")
    assert (again["type"], again["code"]) == ("rejected", "step_locked")
    await ann.send(type="declare_step", step="twos")
    anonymous = await ann.answer(None)
    assert anonymous["code"] == "step_locked"


async def test_a_step_cannot_be_declared_in_a_room_with_a_fixed_step(
    server: InProcessServer,
) -> None:
    _, ann = await racing(server, step="ones")
    await ann.send(type="declare_step", step="twos", id="s1")
    assert (await ann.answer("s1"))["code"] == "step_locked"


async def test_squadron_has_no_step_to_declare(server: InProcessServer) -> None:
    _, ann = await racing(server, game="squadron", deal="ms:1")
    await ann.send(type="declare_step", step="ones", id="s1")
    assert (await ann.answer("s1"))["code"] == "illegal_move"


async def test_undo_in_a_room_without_undo_is_undo_disabled(server: InProcessServer) -> None:
    room_id, ann = await racing(server, undo=False)
    assert (await ann.move("m1", LINE[0]))["type"] == "accepted"
    await ann.send(type="undo", id="u1")
    answer = await ann.answer("u1")
    assert (answer["type"], answer["code"]) == ("rejected", "undo_disabled")
    assert await moves_of(server, room_id) == [1]


async def test_moves_beyond_the_burst_are_rate_limited(clock: ManualClock) -> None:
    config = make_config("memory://", move_rate=5.0, move_burst=5)
    with InProcessServer(config, clock) as server:
        room_id, ann = await racing(server)
        for index in range(10):
            await ann.send(type="move", id=f"m{index}", move=LINE[index])
        answers = [await ann.answer(f"m{index}") for index in range(10)]
        codes = [answer.get("code") for answer in answers]
        assert codes[:5] == [None] * 5
        assert "rate_limited" in codes[5:]
        accepted = sum(answer["type"] == "accepted" for answer in answers)
        assert await moves_of(server, room_id) == [accepted]
        await ann.close()


async def test_a_corrupt_stored_log_is_internal_and_closes_1011(
    redis_server: InProcessServer, redis_prefix: str
) -> None:
    room_id, ann = await racing(redis_server)
    assert (await ann.move("m1", LINE[0]))["type"] == "accepted"
    client = redis.Redis.from_url(REDIS_URL)
    client.rpush(RoomKeys(redis_prefix, room_id).log(ann.you or ""), "garbage")
    client.close()
    await ann.send(type="move", id="m2", move=LINE[1])
    error = await ann.expect("error")
    assert error["code"] == "internal"
    assert "garbage" not in error["message"]  # no internals to the client
    assert await ann.closed() == 1011
    status, _ = await http("GET", f"{redis_server.url}/healthz")
    assert status == 200
