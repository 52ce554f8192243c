"""Hints for solo practice (``POST /api/rooms/{room_id}/hint``): the solver's next move for
the seat's own board, searched in a solver worker; refused with ``hint_solo_only`` in any room
of more than one seat, and to anyone without the seat's token."""

from __future__ import annotations

import pytest

from players_kit import anonymous, api, recorded
from server_kit import Client, InProcessServer, http, new_room, player, start_race, winning_line
from stalactites.engine import Stalactites
from stalactites.solver import Verdict, solve

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"


async def hint_of(server: InProcessServer, room_id: str, token: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    status, body = await http("POST", f"{server.url}/api/rooms/{room_id}/hint", {"token": token})
    return status, body


async def test_a_hint_in_a_solo_room_is_a_move_of_a_winning_line(
    any_server: InProcessServer,
) -> None:
    room_id = await new_room(any_server.url, deal=DEAL, step="ones", seats=1, countdown_s=0)
    ann = await player(any_server, room_id, "Ann")
    status, body = await hint_of(any_server, room_id, ann.token)
    assert (status, body["code"]) == (409, "not_started")
    await start_race(ann)
    line = winning_line(DEAL, "ones")
    for index, move in enumerate(line[:3]):
        assert (await ann.move(f"m{index}", move))["type"] == "accepted"
    status, body = await hint_of(any_server, room_id, ann.token)
    assert status == 200, body
    game = Stalactites(DEAL, step="ones")
    for move in line[:3]:
        game.push(move)
    assert body["move"] in {str(m) for m in game.generate_legal_moves()}
    game.push(body["move"])
    assert solve(game).verdict is Verdict.WON  # the hint keeps the game winnable


async def test_a_hint_is_refused_in_a_room_of_two_seats(server: InProcessServer) -> None:
    room_id = await new_room(server.url, deal=DEAL, step="ones", seats=2, countdown_s=0)
    ann = await player(server, room_id, "Ann")
    bob = await player(server, room_id, "Bob")
    await start_race(ann, bob)
    status, body = await hint_of(server, room_id, ann.token)
    assert (status, body["code"]) == (403, "hint_solo_only")


async def test_a_hint_needs_the_seats_own_token(server: InProcessServer) -> None:
    room_id = await new_room(server.url, deal=DEAL, step="ones", seats=1, countdown_s=0)
    ann = await player(server, room_id, "Ann")
    await start_race(ann)
    status, body = await hint_of(server, room_id, "not-a-token")
    assert (status, body["code"]) == (401, "unauthorized")
    status, body = await http("POST", f"{server.url}/api/rooms/{room_id}/hint", {"tok": "x"})
    assert (status, body["code"]) == (422, "bad_message")


async def test_a_practice_run_that_took_hints_says_so_in_its_results_history_and_record(
    any_server: InProcessServer,
) -> None:
    base = any_server.url
    ann = await anonymous(base)
    room_id = await new_room(base, deal=DEAL, step="ones", seats=1, countdown_s=0)
    status, seat_body, _ = await api(
        "POST", f"{base}/api/rooms/{room_id}/players", {}, ann["token"]
    )
    assert status == 201, seat_body
    client = await Client.open(any_server.ws_url(room_id))
    await client.hello(seat_body["token"])
    await start_race(client)
    for number in range(2):
        status, body = await hint_of(any_server, room_id, seat_body["token"])
        assert status == 200, body
        assert (await client.move(f"h{number}", body["move"]))["type"] == "accepted"
    await client.send(type="resign")
    [line] = (await client.expect("results"))["standings"]
    assert line["hints"] == 2
    [race] = await recorded(base, ann["player_id"])
    assert race["hints"] == 2
    _, record = await http("GET", f"{base}/api/rooms/{room_id}/record")
    assert record["players"][0]["hints"] == 2
