"""Graceful restart: on SIGTERM ``stalactites serve`` stops listening, answers the frames it
is handling, closes every websocket with 1012 and exits 0; the clients resume elsewhere."""

from __future__ import annotations

import asyncio
import signal
import threading
import time
from typing import Any

import pytest
import redis
import uvicorn
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from server_kit import (
    REDIS_URL,
    Client,
    InProcessServer,
    LoggedServer,
    http,
    new_room,
    player,
    spectator,
    start_race,
    winning_line,
)
from stalactites.config import ServerConfig
from stalactites.store.rooms.keys import RoomKeys
from stalactites.web import create_app
from stalactites.web.graceful import GracefulServer

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")
RESTART = 1012


async def test_sigterm_answers_the_move_in_flight_closes_1012_and_clients_resume_elsewhere(
    redis_prefix: str, logged: Any
) -> None:
    first: LoggedServer = logged(REDIS_URL=REDIS_URL, STALACTITES_REDIS_PREFIX=redis_prefix)
    second: LoggedServer = logged(REDIS_URL=REDIS_URL, STALACTITES_REDIS_PREFIX=redis_prefix)
    room_id = await new_room(first.url, deal=DEAL, step="ones", seats=2, countdown_s=0, undo=True)
    ann, bob = [await player(first, room_id, name) for name in ("Ann", "Bob")]
    watcher = await spectator(first, room_id, max_queue=None)
    await start_race(ann, bob)

    # Ann commits actions one after another (a move, its undo, ...) until the server closes;
    # a few in, the server is told to stop, so that one is being committed as it drains.
    going = asyncio.Event()
    playing = asyncio.create_task(_act_until_closed(ann, going))
    await going.wait()
    first.process.send_signal(signal.SIGTERM)
    answered, unanswered = await playing
    assert ann.ws.close_code == RESTART
    assert await bob.closed() == RESTART
    assert await watcher.closed() == RESTART
    with pytest.raises(OSError):  # the port takes no more connections
        await connect(first.ws_url(room_id), open_timeout=5)
    code = await asyncio.to_thread(first.process.wait, 30)
    assert code == 0, "\n".join(first.lines())

    # Every action answered is stored, and at most the one sent last besides (its frame was
    # read before the close, or not): nothing was committed without its answer going out.
    stored = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    log = RoomKeys(redis_prefix, room_id).log(str(ann.you))
    assert stored.llen(log) == answered
    again = await Client.open(second.ws_url(room_id))
    await again.hello(ann.token, last_seq=ann.last_seq)
    move_id, frame = unanswered  # sent again with its id, on the other process
    await again.send(id=move_id, **frame)
    assert (await again.answer(move_id))["type"] == "accepted"
    done = answered + 1  # moves and undos in turn: LINE[0] is on the board after an odd count
    for index in range(done % 2, len(LINE)):  # the race goes on there to the end
        assert (await again.move(f"line{index}", LINE[index]))["type"] == "accepted"
    bob_again = await Client.open(second.ws_url(room_id), max_queue=None)  # reads nothing
    await bob_again.hello(bob.token, last_seq=bob.last_seq)
    await bob_again.send(type="resign")
    results = await again.expect("results")
    assert {line["player_id"] for line in results["standings"]} == {ann.you, bob.you}
    status, _ = await http("GET", f"{second.url}/api/rooms/{room_id}/record")
    assert status == 200


async def _act_until_closed(
    client: Client, going: asyncio.Event
) -> tuple[int, tuple[str, dict[str, str]]]:
    """Move and undo in turn, each answered before the next, until the server closes: how many
    were answered, and the last one sent if it was not."""
    answered = 0
    while True:
        move_id = f"x{answered}"
        frame = {"type": "move", "move": LINE[0]} if answered % 2 == 0 else {"type": "undo"}
        try:
            await client.send(id=move_id, **frame)
            answer = await client.answer(move_id)
        except ConnectionClosed:
            return answered, (move_id, frame)
        assert answer["type"] == "accepted", answer
        answered += 1
        if answered == 6:
            going.set()


def test_the_shutdown_grace_comes_from_the_environment() -> None:
    config = ServerConfig.from_env({"STALACTITES_SHUTDOWN_GRACE_S": "2.5"})
    assert config.shutdown_grace_s == 2.5
    assert ServerConfig().shutdown_grace_s == 10.0


@pytest.mark.own_server  # it drains its server
async def test_a_websocket_arriving_while_the_process_drains_is_refused(
    server: InProcessServer,
) -> None:
    """One that reached the app before the listening socket closed, that is."""
    room_id = await new_room(server.url, deal=DEAL, step="ones", seats=1)
    process = server.app.state.process
    process.draining = True
    try:
        with pytest.raises(InvalidStatus) as refused:
            await connect(server.ws_url(room_id), open_timeout=5)
        assert refused.value.response.status_code == 403
    finally:
        process.draining = False
    ann = await player(server, room_id, "Ann")  # taken again once it is not draining
    assert ann.you is not None


async def test_the_main_loop_stops_at_once_on_a_signal() -> None:
    """uvicorn's loop ticks every 0.1 s; a signal wakes it at once (here from another thread,
    as a signal handler may run while the loop waits)."""
    app = create_app()
    server = GracefulServer(uvicorn.Config(app), app, 1.0)
    loop = asyncio.create_task(server.main_loop())
    await asyncio.sleep(0.02)  # into a tick's wait
    started = time.monotonic()
    threading.Thread(target=server.handle_exit, args=(signal.SIGINT, None)).start()
    await loop
    assert time.monotonic() - started < 0.05
