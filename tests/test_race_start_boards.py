"""A race's boards are made when it starts (``Play.race_started``): each racer connected to
the process has its board in the cache, the deal with nothing logged, before it reads
``started``, and its first move is judged on that board (no read of the log, no replay); a
board so made that is not the log's (the news came after an action) costs one conflict and
the move is judged on the stored log all the same."""

from __future__ import annotations

import json

import pytest

from server_kit import Client, InProcessServer, new_room, player, start_race
from stalactites.rooms.boards import CachedBoard, new_board
from stalactites.rooms.wire import board_json

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"


def cached(server: InProcessServer, room_id: str, player_id: str | None) -> CachedBoard | None:
    board: CachedBoard | None = server.app.state.process.rooms.boards.get(room_id, player_id)
    return board


async def test_a_racers_board_is_made_at_the_start_and_its_first_move_is_judged_on_it(
    any_server: InProcessServer,
) -> None:
    room_id = await new_room(any_server.url, seats=2, countdown_s=0, deal=DEAL, step="ones")
    racers = [await player(any_server, room_id, name) for name in ("Ada", "Bo")]
    await start_race(*racers)
    process = any_server.app.state.process
    settings = await any_server.call(process.rooms.settings(room_id))
    deal_text = board_json(new_board(settings))
    boards = [cached(any_server, room_id, racer.you) for racer in racers]
    for board in boards:
        assert board is not None and board.length == 0
        assert board.text.json() == deal_text
        assert board.progress.moves == 0
    ada, first = racers[0], boards[0]
    assert first is not None
    move = first.game.generate_legal_moves()[0]
    answer = await ada.move("m1", str(move))
    assert answer["type"] == "accepted", answer
    assert cached(any_server, room_id, ada.you) is first  # judged on it, not rebuilt
    assert first.length == 1 and first.progress.moves == 1


async def test_a_board_made_from_late_news_costs_a_conflict_not_a_wrong_answer(
    server: InProcessServer,
) -> None:
    room_id = await new_room(server.url, seats=2, countdown_s=0, deal=DEAL, step="ones")
    ada: Client = await player(server, room_id, "Ada")
    bo: Client = await player(server, room_id, "Bo")
    await start_race(ada, bo)
    play = server.app.state.process.play
    expected = new_board(await server.call(play.rooms.settings(room_id)))
    first = str(expected.generate_legal_moves()[0])
    assert (await ada.move("m1", first))["type"] == "accepted"
    expected.push(first)
    second = str(expected.generate_legal_moves()[0])

    async def late_news() -> None:  # the board dropped, then ``started`` kept again
        play.boards.drop(room_id, ada.you)
        play.race_started(room_id, [ada.you])

    await server.call(late_news())
    stale = cached(server, room_id, ada.you)
    assert stale is not None and stale.length == 0  # the deal: one action short of the log
    answer = await ada.move("m2", second)
    assert answer["type"] == "accepted", answer
    expected.push(second)
    assert answer["state"] == json.loads(board_json(expected))  # the log's board, both moves
    rebuilt = cached(server, room_id, ada.you)
    assert rebuilt is not None and rebuilt is not stale and rebuilt.length == 2
