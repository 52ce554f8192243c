"""Spectators of a race that counts (here a rated one) over real websockets, on both stores:
live progress, but no racer's board or verdict until that racer has finished, whatever the
delay; then their whole board at once, and everything once the race is over."""

from __future__ import annotations

from typing import Any

import pytest

from players_kit import anonymous, api
from server_kit import Client, InProcessServer, ManualClock, lasting_moves, spectator

pytestmark = pytest.mark.usefixtures("close_clients")


async def rated_race(server: Any) -> tuple[str, list[Client], list[str]]:
    """A rated two-seat room of two anonymous players, racing; three moves from its board,
    each leaving a move to play."""
    status, room, _ = await api(
        "POST", f"{server.url}/api/rooms", {"rated": True, "countdown_s": 0, "time_limit_s": 600}
    )
    assert status == 201, room
    room_id, clients = room["room_id"], []
    for _ in range(2):
        session = await anonymous(server.url)
        url = f"{server.url}/api/rooms/{room_id}/players"
        status, seat, _ = await api("POST", url, {}, session["token"])
        assert status == 201, seat
        client = await Client.open(server.ws_url(room_id))
        await client.hello(session["token"])
        clients.append(client)
    for client in clients:
        await client.send(type="ready")
    boards = [(await client.expect("started"))["state"] for client in clients]
    return room_id, clients, lasting_moves(boards[0], 3)


def boards(client: Client) -> list[dict[str, Any]]:
    return [frame for frame in client.frames if frame["type"] in ("board", "board_verdict")]


async def test_a_racers_board_is_shown_only_once_they_have_finished(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    room_id, (ann, bob), moves = await rated_race(any_server)
    watcher = await spectator(any_server, room_id)
    welcome = watcher.frames[0]
    assert welcome["room"]["boards_held"] is True
    assert welcome["boards"] == {} and welcome["board_verdicts"] == {}
    played = []
    for index in range(3):
        answer = await ann.move(f"a{index}", moves[index])
        assert answer["type"] == "accepted", answer
        played.append(moves[index])
        progress = await watcher.expect("progress", player_id=ann.you)  # progress: live
        assert progress["moves"] == index + 1
    clock.advance(60)  # far past any delay: still nothing of Ann's board
    late = await spectator(any_server, room_id)
    assert late.frames[0]["boards"] == {}
    assert (await bob.move("b0", played[0]))["type"] == "accepted"  # the same deal: Ann's first
    await watcher.expect("progress", player_id=bob.you)
    assert boards(watcher) == [] and boards(late) == []
    await ann.send(type="resign")  # Ann has finished: her board, every move, at once
    frames = [await watcher.expect("board", player_id=ann.you) for _ in played]
    assert [frame["move"] for frame in frames] == played
    fresh = await spectator(any_server, room_id)
    assert set(fresh.frames[0]["boards"]) == {ann.you}  # Bob races on: his board kept back
    assert all(frame["player_id"] == ann.you for frame in boards(watcher))
    await bob.send(type="resign")
    await watcher.expect("board", player_id=bob.you)  # the race is over: everything
    await watcher.expect("results")
    after = await spectator(any_server, room_id)
    assert set(after.frames[0]["boards"]) == {ann.you, bob.you}


async def test_an_unrated_room_keeps_its_delay_and_shows_every_board(
    any_server: InProcessServer,
) -> None:
    status, room, _ = await api(
        "POST", f"{any_server.url}/api/rooms", {"countdown_s": 0, "spectator_delay_s": 0}
    )
    assert status == 201
    view = (await api("GET", f"{any_server.url}/api/rooms/{room['room_id']}"))[1]
    assert view["boards_held"] is False and view["spectator_delay_s"] == 0
