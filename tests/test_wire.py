"""The fast wire views of a board agree with the engine's own state and notation."""

from __future__ import annotations

import random

import pytest

from stalactites.engine import new_game
from stalactites.protocol import Accepted, board
from stalactites.rooms.views import public_state
from stalactites.rooms.wire import legal_texts, wire_board


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
