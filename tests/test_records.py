"""Game records: the JSON round trip, and replay validating every move."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine_positions import MS1_LOSS_BY_ONES, MS1_WIN_BY_ONES
from stalactites.engine import (
    GameRecord,
    NotationError,
    ReplayError,
    Squadron,
    Stalactites,
    Status,
    new_game,
    replay,
)


def test_record_of_a_game_round_trips_through_json() -> None:
    game = Stalactites("ms:1")
    for text in MS1_WIN_BY_ONES[:10]:
        game.push(text)
    record = GameRecord.of(game)
    assert record == GameRecord("stalactites", "ms:1", "ones", tuple(MS1_WIN_BY_ONES[:10]))
    assert GameRecord.loads(record.dumps()) == record
    assert json.loads(record.dumps()) == {
        "game": "stalactites",
        "deal": "ms:1",
        "step": "ones",
        "moves": MS1_WIN_BY_ONES[:10],
    }


def test_record_step_is_null_until_the_step_is_fixed() -> None:
    game = Stalactites("ms:1")
    game.push("t1-c1")
    assert GameRecord.of(game).step is None
    game.declare_step("twos")
    assert GameRecord.of(game).step == "twos"


def test_squadron_record_has_no_step_and_keeps_stock_deals() -> None:
    game = Squadron("ms:1")
    game.push("s-w")
    game.push("s-w")
    record = GameRecord.of(game)
    assert record.to_json() == {
        "game": "squadron",
        "deal": "ms:1",
        "step": None,
        "moves": ["s-w", "s-w"],
    }
    assert GameRecord.loads(record.dumps()) == record


def test_record_without_step_or_moves_is_a_fresh_game() -> None:
    record = GameRecord.loads('{"game": "squadron", "deal": "sr:00000000075bcd15"}')
    assert record == GameRecord("squadron", "sr:00000000075bcd15")
    result = replay(record)
    assert result.valid
    assert result.moves_applied == 0
    assert result.game.state() == Squadron("sr:00000000075bcd15").state()


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ([], "a record is a JSON object"),
        ("stalactites", "a record is a JSON object"),
        ({"game": "stalactites", "deal": "ms:1", "seed": 4}, "unknown record fields: ['seed']"),
        ({"deal": "ms:1"}, "a string 'game' and a string 'deal'"),
        ({"game": "stalactites", "deal": 1}, "a string 'game' and a string 'deal'"),
        ({"game": "stalactites", "deal": "ms:1", "step": 1}, "not 1"),
        ({"game": "stalactites", "deal": "ms:1", "step": "choice"}, "not 'choice'"),
        ({"game": "stalactites", "deal": "ms:1", "moves": "t1-c1"}, "a list of strings"),
        ({"game": "stalactites", "deal": "ms:1", "moves": ["t1-c1", 2]}, "a list of strings"),
    ],
)
def test_malformed_record_is_refused_saying_what_is_wrong(data: Any, says: str) -> None:
    with pytest.raises(NotationError) as error:
        GameRecord.loads(json.dumps(data))
    assert says in str(error.value)


@pytest.mark.parametrize("text", ["", "{", "{'game': 'stalactites'}", "[" * 100_000])
def test_record_that_is_not_json_is_refused(text: str) -> None:
    with pytest.raises(NotationError, match="a record is JSON"):
        GameRecord.loads(text)


@pytest.mark.parametrize(
    ("record", "says"),
    [
        (GameRecord("chess", "ms:1"), "not a game: 'chess'"),
        (GameRecord("stalactites", "ms:0"), "not a deal id: 'ms:0'"),
        (GameRecord("squadron", "ms:1", "ones"), "Squadron has no step: 'ones'"),
    ],
)
def test_record_with_a_bad_header_is_refused(record: GameRecord, says: str) -> None:
    with pytest.raises(NotationError, match=says):
        replay(record)


def test_replay_of_a_winning_record_is_valid_and_won() -> None:
    result = replay(GameRecord("stalactites", "ms:1", "ones", tuple(MS1_WIN_BY_ONES)))
    assert result.to_json() == {
        "valid": True,
        "status": "won",
        "foundation_cards": 52,
        "moves_applied": len(MS1_WIN_BY_ONES),
        "error": None,
    }


def test_replay_without_a_step_fixes_it_by_the_first_foundation_play() -> None:
    result = replay(GameRecord("stalactites", "ms:1", None, tuple(MS1_WIN_BY_ONES)))
    assert result.valid
    assert result.status is Status.WON
    assert result.game.step_name == "ones"


def test_replay_of_a_losing_record_is_valid_and_lost() -> None:
    result = replay(GameRecord("stalactites", "ms:1", "ones", tuple(MS1_LOSS_BY_ONES)))
    assert result.valid
    assert result.status is Status.LOST
    assert result.foundation_cards == 6


def test_replay_reports_the_first_illegal_move_with_its_index_and_code() -> None:
    moves = (*MS1_WIN_BY_ONES[:3], "t1-f1", "nonsense")
    result = replay(GameRecord("stalactites", "ms:1", "ones", moves))
    assert not result.valid
    assert result.moves_applied == 3
    assert result.status is Status.PLAYING
    assert result.error == ReplayError(
        3, "t1-f1", "illegal_move", "'t1-f1': foundation f1 takes 8 next, not 6D"
    )
    assert result.to_json()["error"] == {
        "index": 3,
        "move": "t1-f1",
        "code": "illegal_move",
        "message": "'t1-f1': foundation f1 takes 8 next, not 6D",
    }


def test_replay_reports_the_first_invalid_move_with_its_index_and_code() -> None:
    result = replay(GameRecord("squadron", "ms:1", None, ("s-w", "s-w", "s--w", "t1-f9")))
    assert result.error is not None
    assert (result.error.index, result.error.move, result.error.code) == (2, "s--w", "invalid_move")
    assert "'s--w'" in result.error.message
    assert result.moves_applied == 2


def test_replay_under_the_other_step_finds_the_first_move_it_forbids() -> None:
    result = replay(GameRecord("stalactites", "ms:1", "twos", tuple(MS1_WIN_BY_ONES)))
    assert result.error is not None
    assert result.error.index == 0
    assert result.error.code == "illegal_move"


def test_replay_reproduces_the_position_of_the_recorded_game() -> None:
    game = new_game("squadron", "ms:5")
    for _ in range(30):
        moves = game.generate_legal_moves()
        game.push(moves[len(game.move_stack) % len(moves)])
    result = replay(GameRecord.of(game))
    assert result.valid
    assert result.game.state() == game.state()
    assert result.game.key() == game.key()
