"""An idle websocket is kept small (issue 19: 10,000 of them on two processes): it holds no task
of its own besides the one uvicorn runs the app in, no handshake headers beyond the app's scope,
and uvicorn's queue and flag for it are the light ones of ``web/transport.py``.  uvicorn in this
process, with the protocols ``stalactites serve`` uses; and the light queue, flag and outbox
behave as the asyncio ones they replace."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

from server_kit import InProcessServer, make_config, new_room, spectator
from stalactites.web.connection import Outbox
from stalactites.web.transport import Flag, Inbox, framed, guarded_protocols

pytestmark = pytest.mark.usefixtures("close_clients")


@pytest.fixture(scope="module")
def guarded() -> Iterator[InProcessServer]:
    config = make_config("memory://")
    server = InProcessServer(config)
    server.server.config.http, server.server.config.ws = guarded_protocols(config)
    with server:
        yield server


def websockets_of(server: InProcessServer) -> list[Any]:
    return [
        protocol
        for protocol in server.server.server_state.connections
        if type(protocol).__name__ == "GuardedWebSocket"
    ]


async def tasks_in(server: InProcessServer) -> Counter[str]:
    """The tasks of the server's loop (by coroutine) once what is running there has run."""

    async def count() -> Counter[str]:
        for _ in range(5):
            await asyncio.sleep(0)  # let writers that have sent their frame end
        # (typeshed's Coroutine has no __qualname__; a coroutine object has)
        return Counter(task.get_coro().__qualname__ for task in asyncio.all_tasks())  # type: ignore[union-attr]

    return await server.call(count())


async def test_each_idle_socket_adds_one_task_and_keeps_no_handshake_headers(
    guarded: InProcessServer,
) -> None:
    room_id = await new_room(guarded.url, deal="ms:4")
    first = await spectator(guarded, room_id)  # the room's own tasks start with the first
    before = await tasks_in(guarded)
    others = [await spectator(guarded, room_id) for _ in range(3)]
    now = await tasks_in(guarded)
    assert (
        now["WebSocketsSansIOProtocol.run_asgi"] == before["WebSocketsSansIOProtocol.run_asgi"] + 3
    )
    assert not [name for name in now if "Connection" in name]  # no reader or writer of its own
    protocols = websockets_of(guarded)
    assert len(protocols) == 4
    for protocol in protocols:
        assert protocol.request is None and protocol.response is None
        assert isinstance(protocol.queue, Inbox) and isinstance(protocol.writable, Flag)
        assert set(vars(protocol)) <= {"request", "response", "scope"}  # the rest are slots
    assert first.last_seq == others[-1].last_seq  # all four welcomed to the same room


async def test_inbox_hands_items_over_in_order_and_keeps_them_through_a_cancelled_get() -> None:
    inbox = Inbox()
    waiting = asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    inbox.put_nowait("a")
    inbox.put_nowait("b")
    assert not inbox.empty() and inbox.qsize() == 2
    getting = asyncio.create_task(inbox.get())
    assert await getting == "a"
    assert await inbox.get() == "b"
    assert inbox.empty()


async def test_inbox_wakes_a_waiting_get_and_passes_a_wake_on_if_it_is_cancelled() -> None:
    inbox = Inbox()
    first, second = asyncio.create_task(inbox.get()), asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    inbox.put_nowait("x")  # wakes the first
    first.cancel()  # before it runs: the second gets the item
    assert await second == "x"
    with pytest.raises(asyncio.CancelledError):
        await first


async def test_flag_waits_until_set_and_clears() -> None:
    flag = Flag()
    assert not flag.is_set()
    waiting = asyncio.create_task(flag.wait())
    await asyncio.sleep(0)
    assert not waiting.done()
    flag.set()
    assert await waiting is True
    flag.clear()
    assert not flag.is_set()
    flag.set()
    assert await flag.wait() is True


def test_outbox_takes_frames_in_order_up_to_its_size() -> None:
    outbox = Outbox(2)
    assert outbox.put("1") and outbox.put("2")
    assert outbox.full() and not outbox.put("3")
    assert outbox.qsize() == 2
    assert outbox.take() == "1" and outbox.take() == "2" and outbox.take() is None
    unbounded = Outbox(0)
    assert all(unbounded.put(str(n)) for n in range(1000)) and not unbounded.full()


@pytest.mark.parametrize("length", [0, 125, 126, 65_535, 65_536, 200_000])
def test_a_text_framed_once_is_read_back_whole_by_a_websocket_client(length: int) -> None:
    text = ("é" + "x" * length)[:length] if length else ""
    client = ClientProtocol(parse_uri("ws://localhost/"), state=State.OPEN)
    client.receive_data(framed(text) + framed("after"))
    frames = [event for event in client.events_received() if isinstance(event, Frame)]
    assert [(frame.opcode, frame.fin, bytes(frame.data).decode()) for frame in frames] == [
        (Opcode.TEXT, True, text),
        (Opcode.TEXT, True, "after"),
    ]
    assert framed(text) is framed(text)  # made once for all the sockets it goes to
