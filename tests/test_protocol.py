"""The wire protocol's parser: strict, closed to unknown fields, one union per direction."""

from __future__ import annotations

import typing

import pytest
from pydantic import ValidationError

from stalactites.protocol import room as protocol
from stalactites.protocol.room import CLIENT_FRAMES, SERVER_FRAMES, Hello, MoveFrame, board


def test_client_frames_parse_by_type() -> None:
    frame = CLIENT_FRAMES.validate_json('{"type": "move", "id": "m1", "move": "t3-f1"}')
    assert frame == MoveFrame(type="move", id="m1", move="t3-f1")
    hello = CLIENT_FRAMES.validate_json('{"type": "hello", "token": "x", "last_seq": 4}')
    assert isinstance(hello, Hello) and hello.last_seq == 4


@pytest.mark.parametrize(
    "text",
    [
        "{",  # not JSON
        "[]",  # not an object
        '{"type": "dance"}',  # unknown type
        '{"move": "t3-f1", "id": "m1"}',  # no type
        '{"type": "move", "id": "m1"}',  # a field missing
        '{"type": "move", "id": "m1", "move": "t3-f1", "extra": 1}',  # an unknown field
        '{"type": "move", "id": 5, "move": "t3-f1"}',  # a number for a string
        '{"type": "hello", "token": "x", "last_seq": "4"}',  # a string for a number
        '{"type": "hello", "token": "x", "last_seq": -1}',
        '{"type": "move", "id": "", "move": "t3-f1"}',  # an empty id
        '{"type": "move", "id": "' + "x" * 65 + '", "move": "t3-f1"}',  # an id too long
        '{"type": "declare_step", "step": "threes"}',
        '{"type": "ready", "type": "ping", "x": 1}',
    ],
)
def test_malformed_client_frames_are_refused(text: str) -> None:
    with pytest.raises(ValidationError):
        CLIENT_FRAMES.validate_json(text)


def test_server_frames_are_checked_too() -> None:
    SERVER_FRAMES.validate_python({"type": "pong"})
    SERVER_FRAMES.validate_python({"type": "error", "code": "internal", "message": "x"})
    with pytest.raises(ValidationError):
        SERVER_FRAMES.validate_python({"type": "error", "code": "oops", "message": "x"})


def test_every_error_code_is_documented_once() -> None:
    assert list(protocol.ERROR_CODES) == list(typing.get_args(protocol.ErrorCode))


def test_a_board_on_the_wire_drops_the_deal_id() -> None:
    from stalactites.engine import Squadron, Stalactites

    for game in (Stalactites("ms:1"), Squadron("ms:1")):
        wire = board(game.state()).model_dump()
        assert "deal" not in wire
        assert wire["game"] == game.name


def test_the_protocol_module_exports_what_it_defines() -> None:
    for name in protocol.__all__:
        assert hasattr(protocol, name), name
