"""A connection's sending: frames sent at once where the socket may be written to, and a corked
connection's frames held until it is uncorked, then sent in one write (a commit's events and
the board its action shows a spectator: one system call, one read for the client)."""

from __future__ import annotations

from typing import Any

from stalactites.config import ServerConfig
from stalactites.web.connection import Connection
from stalactites.web.transport import SEND_NOW


class Socket:
    """The transport's side of a websocket as a connection sees it: ``send_now`` writes (and
    records) each call's texts at once."""

    def __init__(self) -> None:
        self.writes: list[list[str]] = []
        self.scope: dict[str, Any] = {"extensions": {SEND_NOW: self.send_now}}

    def send_now(self, texts: list[str]) -> bool:
        self.writes.append(list(texts))
        return True


def connection() -> tuple[Connection[Any, Any], Socket]:
    socket = Socket()
    return Connection(socket, ServerConfig(), queue=16, label="test"), socket  # type: ignore[arg-type]


async def test_a_frame_goes_out_at_once_in_a_write_of_its_own() -> None:
    conn, socket = connection()
    conn.send_text("a")
    conn.send_text("b")
    assert socket.writes == [["a"], ["b"]]


async def test_frames_sent_while_corked_go_out_together_when_uncorked() -> None:
    conn, socket = connection()
    conn.cork()
    conn.send_text("progress")
    conn.send_text("board")
    assert socket.writes == []  # held
    conn.uncork()
    assert socket.writes == [["progress", "board"]]
    conn.send_text("next")  # no longer corked: at once
    assert socket.writes == [["progress", "board"], ["next"]]


async def test_uncorking_with_nothing_held_writes_nothing() -> None:
    conn, socket = connection()
    conn.cork()
    conn.uncork()
    assert socket.writes == []
