"""The fast wire views of a board agree with the engine's own state and notation."""

from __future__ import annotations

import json
import random

import pytest

from stalactites.engine import new_game
from stalactites.protocol.room import Accepted, BoardEvent, board
from stalactites.room_events import progress_event
from stalactites.rooms.boards import CachedBoard
from stalactites.rooms.views import public_state
from stalactites.rooms.wire import (
    BoardText,
    accepted_json,
    board_event_json,
    board_json,
    legal_texts,
    wire_board,
)
from stalactites.store import ProgressRow


@pytest.mark.parametrize(("name", "deal"), [("stalactites", "ms:1"), ("squadron", "ms:3")])
def test_wire_board_is_the_engine_state_without_the_deal(name: str, deal: str) -> None:
    rng = random.Random(7)
    game = new_game(name, deal)
    for _ in range(120):
        expected = board(public_state(game.state())).model_dump()
        assert wire_board(game).model_dump() == expected
        assert legal_texts(game) == [str(move) for move in game.generate_legal_moves()]
        legal = game.generate_legal_moves()
        if not legal:
            break
        game.push(rng.choice(legal))


def test_a_wire_board_serialises_inside_a_frame() -> None:
    game = new_game("stalactites", "ms:1", "ones")
    frame = Accepted(
        type="accepted",
        id="m1",
        move="t1-c1",
        state=wire_board(game),
        legal=legal_texts(game),
        status="playing",
    )
    again = Accepted.model_validate_json(frame.model_dump_json())
    assert again.state.model_dump() == board(public_state(game.state())).model_dump()


ODD_IDS = [None, "m1", 'quo"te\\back', "tab\tnew\nline\x01\x1f", "zażółć ✓ 🂡", "\u2028"]


@pytest.mark.parametrize(("name", "deal"), [("stalactites", "ms:1"), ("squadron", "ms:3")])
def test_accepted_json_is_the_model_written_out(name: str, deal: str) -> None:
    rng = random.Random(11)
    game = new_game(name, deal)
    for turn in range(150):
        legal = game.generate_legal_moves()
        racing = turn % 5 != 4
        status = ["playing", "won", "lost"][turn % 3]
        client_id = ODD_IDS[turn % len(ODD_IDS)]
        move = str(legal[0]) if legal else "undo"
        model = Accepted(
            type="accepted",
            id=client_id,
            move=move,
            state=wire_board(game),
            legal=legal_texts(game) if racing else [],
            status=status,  # type: ignore[arg-type]
        )
        sent = legal if racing else []
        text = accepted_json(client_id, move, board_json(game), sent, status)
        assert text == model.model_dump_json()
        if not legal:
            break
        game.push(rng.choice(legal))


@pytest.mark.parametrize("player_id", ["p1", 'a"b', "zażółć\n"])
@pytest.mark.parametrize("at_ms", [None, 0, 123456])
def test_progress_event_is_the_event_dumped(player_id: str, at_ms: int | None) -> None:
    event = {"type": "progress", "player_id": player_id, "foundation_cards": 7, "moves": 12}
    event["status"] = "playing"
    if at_ms is not None:
        event["at_ms"] = at_ms
    dumped = json.dumps(event, separators=(",", ":"), ensure_ascii=False)
    assert progress_event(player_id, 7, 12, "playing", at_ms) == dumped


@pytest.mark.parametrize(("name", "deal"), [("stalactites", "ms:2"), ("squadron", "ms:4")])
def test_accepted_json_stays_the_model_as_moves_are_taken_back_and_played_again(
    name: str, deal: str
) -> None:
    """A board's text, rewritten only where each action moved cards (``CachedBoard.act``), stays the
    whole board's as moves are played, taken back and played again and the step is declared;
    piles and legal lists come back as they were (the texts are kept by their contents), and
    equal contents in other lists, other games, give the same text."""
    rng = random.Random(5)
    boards = [CachedBoard(new_game(name, deal), 0, ProgressRow(4, 0, 0)) for _ in range(2)]
    if name == "stalactites":
        boards[1].act("step:twos")
    for turn in range(300):
        board_ = boards[turn % 2]
        game = board_.game
        legal = game.generate_legal_moves()
        model = Accepted(
            type="accepted",
            id="m1",
            move="undo",
            state=wire_board(game),
            legal=legal_texts(game),
            status="playing",
        )
        text = accepted_json("m1", "undo", board_.text.json(), legal, "playing")
        assert text == model.model_dump_json()
        if legal and (rng.random() < 0.6 or not game.can_pop()):
            board_.act(str(rng.choice(legal)))
        elif game.can_pop():
            board_.act("undo")


@pytest.mark.parametrize(("name", "deal"), [("stalactites", "ms:2"), ("squadron", "ms:5")])
def test_board_event_json_is_the_model_written_out(name: str, deal: str) -> None:
    rng = random.Random(5)
    game = new_game(name, deal)
    kept = BoardText(game)
    for turn in range(120):
        legal = game.generate_legal_moves()
        if not legal:
            break
        kept.moved(game.push(rng.choice(legal)))
        player_id = ODD_IDS[turn % len(ODD_IDS)] or "p1"
        verdict = ["won", "lost", "unknown"][turn % 3]
        model = BoardEvent(
            type="board",
            player_id=player_id,
            move=str(game.move_stack[-1]),
            state=wire_board(game),
            at=1_700_000_000_000 + turn,
            verdict=verdict,  # type: ignore[arg-type]
        )
        text = board_event_json(player_id, model.move, kept.json(), model.at, verdict)
        assert text == model.model_dump_json()
