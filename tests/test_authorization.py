"""Who may do what, over real websockets against a running server: a token works only in its
own room and moves only its own board; spectators and finished players move nothing; a
tournament token opens only its own tournament's rounds.  Every refusal carries its code, and
afterwards every board and room view involved is exactly as before."""

from __future__ import annotations

from typing import Any

import pytest

from server_kit import (
    Client,
    InProcessServer,
    http,
    new_room,
    play,
    player,
    seat,
    start_race,
    winning_line,
)
from tournament_kit import Watcher, enter, new_tournament, seat_in_round, start, view

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")
TOURNAMENT: dict[str, Any] = {"step": "ones", "rounds": 1, "round_time_s": 60, "break_s": 0}


async def snapshot(server: InProcessServer, room_id: str) -> dict[str, Any]:
    """The room's public view without what comes and goes with connections."""
    status, body = await http("GET", f"{server.url}/api/rooms/{room_id}")
    assert status == 200, body
    players = [{k: v for k, v in p.items() if k != "connected"} for p in body["players"]]
    return {**{k: v for k, v in body.items() if k != "spectators"}, "players": players}


async def board_of(server: InProcessServer, room_id: str, token: str) -> Any:
    """A player's board now, from the welcome of a fresh socket."""
    client = await Client.open(server.ws_url(room_id))
    welcome = await client.hello(token)
    await client.close()
    return welcome["state"]


async def race(server: InProcessServer, names: list[str]) -> tuple[str, list[Client]]:
    """A room on ms:4 by ones with these players seated, ready and racing."""
    options = {"deal": DEAL, "step": "ones", "seats": len(names), "countdown_s": 0}
    room_id = await new_room(server.url, **options)
    players = [await player(server, room_id, name) for name in names]
    await start_race(*players)
    return room_id, players


async def refused_hello(server: InProcessServer, room_id: str, token: str) -> str:
    """Say hello with this token; the error code (the socket must then close 1008)."""
    client = await Client.open(server.ws_url(room_id))
    await client.send(type="hello", token=token)
    error = await client.recv()
    assert error["type"] == "error", error
    assert await client.closed() == 1008
    code: str = error["code"]
    return code


async def test_a_token_from_another_room_is_unauthorized_and_changes_neither_room(
    any_server: InProcessServer,
) -> None:
    here, (ann,) = await race(any_server, ["Ann"])
    there, (bob,) = await race(any_server, ["Bob"])
    await play(bob, LINE[:2], "b")
    before = [await snapshot(any_server, room) for room in (here, there)]
    assert await refused_hello(any_server, here, bob.token) == "unauthorized"
    assert [await snapshot(any_server, room) for room in (here, there)] == before
    assert await board_of(any_server, there, bob.token) == bob.frames[-1]["state"]


async def test_a_token_with_one_character_changed_is_unauthorized(
    any_server: InProcessServer,
) -> None:
    room_id, (ann, bob) = await race(any_server, ["Ann", "Bob"])
    before = await snapshot(any_server, room_id)
    for token in (ann.token, bob.token):
        forged = token[:-1] + ("A" if token[-1] != "A" else "B")
        assert await refused_hello(any_server, room_id, forged) == "unauthorized"
        assert await refused_hello(any_server, room_id, token.upper() + "x") == "unauthorized"
    assert await snapshot(any_server, room_id) == before


async def test_a_token_moves_only_its_own_board(any_server: InProcessServer) -> None:
    room_id, (ann, bob) = await race(any_server, ["Ann", "Bob"])
    bob_before = await board_of(any_server, room_id, bob.token)
    await play(ann, LINE[:3], "a")
    await ann.send(type="undo", id="u1")
    assert (await ann.answer("u1"))["type"] == "accepted"
    assert await board_of(any_server, room_id, bob.token) == bob_before
    moves = {p["player_id"]: p["moves"] for p in (await snapshot(any_server, room_id))["players"]}
    assert moves == {ann.you: 2, bob.you: 0}


async def test_a_spectator_moves_nothing_and_is_told_unauthorized(server: InProcessServer) -> None:
    room_id, (ann,) = await race(server, ["Ann"])
    await play(ann, LINE[:2], "a")
    before = (await snapshot(server, room_id), await board_of(server, room_id, ann.token))
    watcher = await Client.open(server.ws_url(room_id))
    await watcher.send(type="hello", spectator=True)
    assert (await watcher.recv())["type"] == "welcome"
    sent: list[dict[str, Any]] = [
        {"type": "move", "id": "w1", "move": LINE[2]},
        {"type": "undo", "id": "w2"},
        {"type": "declare_step", "step": "twos", "id": "w3"},
    ]
    for frame in sent:
        await watcher.send(**frame)
        answer = await watcher.answer(frame["id"])
        assert (answer["type"], answer["code"]) == ("rejected", "unauthorized"), answer
    for kind in ("ready", "resign"):
        await watcher.send(type=kind)
        assert (await watcher.expect("error"))["code"] == "unauthorized"
    await watcher.send(type="ping")
    assert (await watcher.expect("pong"))["type"] == "pong"  # still watching
    assert (await snapshot(server, room_id), await board_of(server, room_id, ann.token)) == before


async def test_a_player_who_won_can_change_nothing_more(server: InProcessServer) -> None:
    room_id, (ann, bob) = await race(server, ["Ann", "Bob"])
    await play(ann, LINE, "a")
    assert ann.frames[-1]["status"] == "won"  # the last move's answer
    before = (await snapshot(server, room_id), await board_of(server, room_id, ann.token))
    assert (await ann.move("late", "t1-c1"))["code"] == "already_finished"
    await ann.send(type="undo", id="late-undo")
    assert (await ann.answer("late-undo"))["code"] == "already_finished"
    await ann.send(type="resign")
    assert (await ann.expect("error"))["code"] == "already_finished"
    await ann.send(type="ready")  # refused at once: she has finished
    assert (await ann.expect("error"))["code"] == "already_finished"
    await ann.send(type="ping")
    assert (await ann.reply())["type"] == "pong"
    assert (await snapshot(server, room_id), await board_of(server, room_id, ann.token)) == before
    assert (await bob.move("b0", LINE[0]))["type"] == "accepted"  # Bob races on


async def test_a_player_who_resigned_can_change_nothing_more(server: InProcessServer) -> None:
    room_id, (ann, bob) = await race(server, ["Ann", "Bob"])
    await play(ann, LINE[:2], "a")
    await ann.send(type="resign")
    await ann.expect("finished", player_id=ann.you, status="resigned")
    before = (await snapshot(server, room_id), await board_of(server, room_id, ann.token))
    assert (await ann.move("late", LINE[2]))["code"] == "already_finished"
    await ann.send(type="undo", id="late-undo")
    assert (await ann.answer("late-undo"))["code"] == "already_finished"
    await ann.send(type="declare_step", step="twos", id="late-step")
    assert (await ann.answer("late-step"))["code"] == "already_finished"
    assert (await snapshot(server, room_id), await board_of(server, room_id, ann.token)) == before


async def round_room(server: InProcessServer, names: list[str]) -> tuple[str, str, list[str]]:
    """A started one-round tournament: its id, its round's room and the entrants' tokens."""
    tournament_id, admin = await new_tournament(server.url, deals=[DEAL], **TOURNAMENT)
    tokens = [(await enter(server.url, tournament_id, name))[1] for name in names]
    status, body, _ = await start(server.url, tournament_id, f"Bearer {admin}")
    assert status == 200, body
    room_id: str = (await view(server.url, tournament_id))["current_round"]["room_id"]
    return tournament_id, room_id, tokens


async def test_a_tournament_token_opens_no_room_it_is_not_seated_in(
    server: InProcessServer,
) -> None:
    first, first_room, (ann,) = await round_room(server, ["Ann"])
    second, second_room, (bob,) = await round_room(server, ["Bob"])
    plain, (cat,) = await race(server, ["Cat"])
    rooms = (first_room, second_room, plain)
    before = [await snapshot(server, room) for room in rooms]
    assert await refused_hello(server, second_room, ann) == "unauthorized"
    assert await refused_hello(server, first_room, bob) == "unauthorized"
    assert await refused_hello(server, plain, ann) == "unauthorized"
    assert await refused_hello(server, first_room, cat.token) == "unauthorized"
    assert [await snapshot(server, room) for room in rooms] == before
    mine = await seat_in_round(server, first_room, ann)  # where it is seated, it plays
    assert (await mine.move("m0", LINE[0]))["type"] == "accepted"


async def test_an_entrants_token_is_no_other_tournaments_and_no_admins(
    server: InProcessServer,
) -> None:
    first, _, (ann,) = await round_room(server, ["Ann"])
    second, admin = await new_tournament(server.url, deals=[DEAL], **TOURNAMENT)
    _, bob = await enter(server.url, second, "Bob")
    watcher = await Watcher.open(server.url, second)
    await watcher.send(type="hello", token=ann)
    assert (await watcher.recv())["code"] == "unauthorized"
    assert await watcher.closed() == 1008
    for token in (ann, bob):
        status, body, headers = await start(server.url, second, f"Bearer {token}")
        challenge = {k.lower(): v for k, v in headers.items()}["www-authenticate"]
        assert (status, body["code"], challenge) == (401, "unauthorized", "Bearer")
    assert (await view(server.url, second))["status"] == "scheduled"
    status, body, _ = await start(server.url, first, f"Bearer {admin}")
    assert (status, body["code"]) == (401, "unauthorized")  # one tournament's admin token only


async def test_a_seat_taken_over_http_gives_a_token_for_that_room_only(
    server: InProcessServer,
) -> None:
    first = await new_room(server.url, seats=2)
    second = await new_room(server.url, seats=2)
    _, token = await seat(server.url, first, "Ann")
    before = await snapshot(server, second)
    assert await refused_hello(server, second, token) == "unauthorized"
    assert await snapshot(server, second) == before
