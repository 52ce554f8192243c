"""A room's spectators' boards on Redis, whose doorbells carry each commit's action: a board
is released from the bell without reading the room's action stream (a live room's at once,
from the bell itself), which is read only when a bell was lost (a gap in the actions' count,
or a subscription made again)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from server_kit import REDIS_URL, ManualClock, lasting_moves
from stalactites.config import ServerConfig
from stalactites.engine import GameName
from stalactites.live.alarms import Alarms
from stalactites.live.rooms.spectator_boards import SpectatorBoards
from stalactites.protocol.room import MoveFrame
from stalactites.rooms import CreateRoom, Play, RoomService
from stalactites.store.rooms.base import ActionRow
from stalactites.store.rooms.redis import RedisStore
from stalactites.workers import SolverPool


class CountingStore(RedisStore):
    """The Redis store, counting the reads of action streams."""

    reads = 0

    async def read_actions(self, room_id: str, start: int = 0) -> list[ActionRow]:
        self.reads += 1
        return await super().read_actions(room_id, start)


class Viewer:
    """A spectator's socket as the boards see it: the board frames it was sent."""

    def __init__(self) -> None:
        self.boards: list[str] = []
        self.got = asyncio.Event()

    def send_text(self, text: str) -> None:
        if '"type":"board"' in text:
            self.boards.append(text)
            self.got.set()

    async def moves(self, count: int) -> list[str]:
        while len(self.boards) < count:
            self.got.clear()
            await asyncio.wait_for(self.got.wait(), 5)
        return [text.split('"move":"')[1].split('"')[0] for text in self.boards]


@pytest.fixture
def solver() -> Iterator[SolverPool]:
    """A pool of the test's own: one kept for the module serves each test's event loop in
    turn, and a fresh-clone run once hung in this module's third test with it."""
    pool = SolverPool(1)
    yield pool
    pool.close()


@pytest.fixture
async def race(
    redis_prefix: str, clock: ManualClock, solver: SolverPool
) -> AsyncIterator[tuple[RoomService, SpectatorBoards, Viewer, list[str]]]:
    """A racing room shown live to one spectator: its rooms service, boards, the viewer and
    the two players."""
    store = CountingStore(REDIS_URL, redis_prefix)
    rooms = RoomService(store, ServerConfig(store_url=REDIS_URL), clock, solver)
    made = await rooms.create(
        CreateRoom(game=GameName.STALACTITES, countdown_s=0, spectator_delay_s=0)
    )
    players = [(await rooms.join(made.room_id, name))[0] for name in ("Ann", "Bob")]
    for player in players:
        await rooms.ready(made.room_id, player)
    boards, viewer = SpectatorBoards(made.room_id, rooms, Alarms(clock)), Viewer()
    await boards.ready(5)
    boards.admit(viewer, await rooms.load(made.room_id))  # type: ignore[arg-type]
    yield rooms, boards, viewer, players
    await boards.close()
    await store.close()


async def moves(rooms: RoomService, room_id: str, player: str, count: int) -> list[ActionRow]:
    """``count`` moves of the player's, each leaving a move to play (the first legal one each
    time can lose the game); the action stream's rows."""
    play = Play(rooms, rooms.boards, rooms.store, rooms.clock, rooms.berserk)
    board = (await rooms.welcome(room_id, player, None)).state
    assert board is not None
    for n, move in enumerate(lasting_moves(board.model_dump(), count)):
        frame = MoveFrame(type="move", id=f"{player}-{n}", move=move)
        assert (await play.act(room_id, player, frame)).type == "accepted"
    return await rooms.store.read_actions(room_id)


async def test_a_carried_action_is_released_without_reading_the_action_stream(
    race: tuple[RoomService, SpectatorBoards, Viewer, list[str]],
) -> None:
    rooms, boards, viewer, players = race
    rows = await moves(rooms, boards.room_id, players[0], 3)
    store: Any = rooms.store
    reads = store.reads
    for count, row in enumerate(rows[:2], 1):
        boards.acted(count, row)
        assert len(viewer.boards) == count  # a live room's: released at once, from the bell
        boards.acted(count, row)  # a bell heard twice changes nothing
    assert await viewer.moves(2) == [row.action for row in rows[:2]]
    boards.poke()  # news of events: no action to read
    boards.acted(3, rows[2])
    assert await viewer.moves(3) == [row.action for row in rows]
    assert store.reads == reads


async def test_an_action_after_a_lost_bell_reads_the_action_stream(
    race: tuple[RoomService, SpectatorBoards, Viewer, list[str]],
) -> None:
    rooms, boards, viewer, players = race
    rows = await moves(rooms, boards.room_id, players[1], 2)
    boards.acted(2, rows[1])  # the first one's bell was lost
    assert await viewer.moves(2) == [row.action for row in rows]


async def test_a_subscription_made_again_reads_the_action_stream(
    race: tuple[RoomService, SpectatorBoards, Viewer, list[str]],
) -> None:
    rooms, boards, viewer, players = race
    rows = await moves(rooms, boards.room_id, players[0], 1)  # its bell was lost
    boards.missed()
    assert await viewer.moves(1) == [rows[0].action]
