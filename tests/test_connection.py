"""A connection's sending: frames sent at once where the socket may be written to, and a corked
connection's frames held until it is uncorked, then sent in one write (a commit's events and
the board its action shows a spectator: one system call, one read for the client).

Then a whole session on a socket the test drives: the answers a frame's handling sends wait
until it is handled and go out in one write; a failure while handling sends ``internal`` and
closes 1011; a kick stops the reading and sends nothing more (close 1013); a client that does
not read overflows its queue behind a blocked writer and is disconnected the same way."""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from stalactites.config import ServerConfig
from stalactites.web.connection import CLOSE_INTERNAL, CLOSE_TOO_SLOW, Connection
from stalactites.web.transport import SEND_NOW


def connection() -> tuple[Connection[Any, Any], Peer]:
    socket = Peer()  # (below) the socket may be written to: each call's texts go out at once
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


# A whole session.


class Hello(BaseModel):
    type: Literal["hello"]


class Act(BaseModel):
    type: Literal["act"]
    n: int


class Error(BaseModel):
    type: Literal["error"]
    code: str
    message: str


class Peer:
    """The websocket as a connection sees it, driven by the test: frames the client sends,
    writes at once while ``writable`` (else the writer task's sends, which block until
    ``reading`` is set: a client that does not read), and the close code."""

    def __init__(self) -> None:
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.writes: list[list[str]] = []
        self.writable = True
        self.reading = asyncio.Event()
        self.slow_sends: list[str] = []
        self.closed: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.headers: dict[str, str] = {}
        self.scope: dict[str, Any] = {"extensions": {SEND_NOW: self.send_now}}

    def client_sends(self, frame: dict[str, Any]) -> None:
        self.incoming.put_nowait({"type": "websocket.receive", "text": json.dumps(frame)})

    def send_now(self, texts: list[str]) -> bool:
        if not self.writable:
            return False
        self.writes.append(list(texts))
        return True

    async def accept(self) -> None:
        pass

    async def receive(self) -> dict[str, Any]:
        return await self.incoming.get()

    async def send_text(self, text: str) -> None:
        self.slow_sends.append(text)
        await self.reading.wait()

    async def close(self, code: int) -> None:
        if not self.closed.done():
            self.closed.set_result(code)

    def sent_types(self) -> list[str]:
        return [json.loads(text)["type"] for write in self.writes for text in write]


class Session(Connection[Hello | Act, Hello]):
    """Greets every hello; ``act`` frames are answered by ``answer`` (set by each test)."""

    frames: TypeAdapter[Hello | Act] = TypeAdapter(
        Annotated[Hello | Act, Field(discriminator="type")]
    )
    hello_model = Hello
    error_model = Error

    def __init__(self, peer: Peer, queue: int = 16) -> None:
        super().__init__(peer, ServerConfig(), queue=queue, label="test")  # type: ignore[arg-type]
        self.greeted = asyncio.Event()
        self.handled: list[int] = []

    async def greet(self, hello: Hello) -> bool:
        self.send_text(json.dumps({"type": "welcome"}))
        self.greeted.set()
        return True

    async def handle(self, frame: Hello | Act) -> None:
        assert isinstance(frame, Act)
        await self.answer(frame)
        self.handled.append(frame.n)

    async def answer(self, frame: Act) -> None:
        self.send_text(json.dumps({"type": "accepted", "n": frame.n}))


async def started(peer: Peer, session: Session) -> asyncio.Task[None]:
    task = asyncio.create_task(session.serve())
    peer.client_sends({"type": "hello"})
    await session.greeted.wait()
    return task


async def test_a_frames_answers_wait_until_it_is_handled_then_go_out_in_one_write() -> None:
    peer = Peer()
    session = Session(peer)
    release = asyncio.Event()
    answering = asyncio.Event()

    async def answer(frame: Act) -> None:
        session.send_text(json.dumps({"type": "accepted", "n": frame.n}))
        answering.set()
        await release.wait()  # a commit under way
        session.send_text(json.dumps({"type": "progress", "n": frame.n}))

    session.answer = answer  # type: ignore[method-assign]
    task = await started(peer, session)
    assert peer.writes == [[json.dumps({"type": "welcome"})]]
    peer.client_sends({"type": "act", "n": 1})
    await answering.wait()
    assert len(peer.writes) == 1  # the answer is held while the frame is handled
    release.set()
    while session.handled != [1]:
        await asyncio.sleep(0)
    assert peer.writes[1:] == [
        [json.dumps({"type": "accepted", "n": 1}), json.dumps({"type": "progress", "n": 1})]
    ]
    peer.incoming.put_nowait({"type": "websocket.disconnect"})
    await task


async def test_a_failure_while_handling_a_frame_sends_internal_and_closes_1011() -> None:
    peer = Peer()
    session = Session(peer)

    async def fail(frame: Act) -> None:
        session.send_text(json.dumps({"type": "accepted", "n": frame.n}))
        raise RuntimeError("a bug")

    session.answer = fail  # type: ignore[method-assign]
    task = await started(peer, session)
    peer.client_sends({"type": "act", "n": 1})
    assert await peer.closed == CLOSE_INTERNAL
    await task
    assert peer.sent_types() == ["welcome", "accepted", "error"]
    assert json.loads(peer.writes[-1][-1])["code"] == "internal"


async def test_a_kicked_connection_stops_reading_sends_nothing_more_and_closes_1013() -> None:
    peer = Peer()
    session = Session(peer)
    task = await started(peer, session)
    session.kick()  # while the reader waits for the client's next frame
    session.send_text(json.dumps({"type": "progress", "n": 1}))
    assert await peer.closed == CLOSE_TOO_SLOW
    await task
    peer.client_sends({"type": "act", "n": 2})
    assert session.handled == []
    assert peer.sent_types() == ["welcome"]
    assert peer.slow_sends == []


async def test_a_client_that_does_not_read_overflows_its_queue_and_is_disconnected() -> None:
    peer = Peer()
    session = Session(peer, queue=2)
    task = await started(peer, session)
    peer.writable = False  # the socket's buffer is full: a writer task sends, and blocks
    for n in range(1, 4):
        session.send_text(json.dumps({"type": "progress", "n": n}))
        await asyncio.sleep(0)  # the writer takes the first frame and waits on the client
    assert [json.loads(text)["n"] for text in peer.slow_sends] == [1]
    assert not peer.closed.done()  # two frames wait: the queue is full, not overflowed
    session.send_text(json.dumps({"type": "progress", "n": 4}))
    assert await peer.closed == CLOSE_TOO_SLOW
    await task
    assert [json.loads(text)["n"] for text in peer.slow_sends] == [1]  # nothing more
