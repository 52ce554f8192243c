"""Players' boards: engine games rebuilt from the stored action logs, cached per process.

A log holds a player's accepted actions in order: a move in the project's
notation, ``undo``, or ``step:ones`` / ``step:twos``.  The stored log is the
truth; the cache only saves replaying it, and is checked against the log's
length on every commit.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..engine import Game, Squadron, Stalactites, new_game
from ..engine.errors import IllegalMoveError
from ..store import ProgressRow
from .settings import RoomSettings

__all__ = [
    "Board",
    "BoardCache",
    "KeyedLocks",
    "apply_action",
    "initial_layout",
    "new_board",
    "rebuild",
]

UNDO = "undo"
STEP_PREFIX = "step:"


def apply_action(game: Game, action: str) -> None:
    """Apply one logged action; raises the engine's error if it does not apply."""
    if action == UNDO:
        game.pop()
    elif action.startswith(STEP_PREFIX):
        if not isinstance(game, Stalactites):
            raise IllegalMoveError(f"{game.name} has no foundation step")
        game.declare_step(action[len(STEP_PREFIX) :])
    else:
        game.push(action)


def new_board(settings: RoomSettings) -> Game:
    """The initial board of a room's deal."""
    step = settings.step if settings.game == "stalactites" else None
    return new_game(settings.game, settings.deal, step)


def initial_layout(settings: RoomSettings) -> dict[str, Any]:
    """The deal's whole starting layout, Squadron's stock included (in order: its last card is
    dealt first); shown only once the race is over, for replays."""
    game = new_board(settings)
    state = game.state()
    if isinstance(game, Squadron):
        state["stock"] = [str(card) for card in game.stock]
    return state


def rebuild(settings: RoomSettings, actions: Iterable[str]) -> Game:
    game = new_board(settings)
    for action in actions:
        apply_action(game, action)
    return game


@dataclass
class Board:
    """One player's board as this process knows it: the game after ``length`` logged actions."""

    game: Game
    length: int
    progress: ProgressRow


class BoardCache:
    """Recently used boards by (room, player), the least recently used dropped beyond ``size``."""

    def __init__(self, size: int = 20_000) -> None:
        self._boards: OrderedDict[tuple[str, str], Board] = OrderedDict()
        self._size = size

    def get(self, room_id: str, player_id: str) -> Board | None:
        board = self._boards.get((room_id, player_id))
        if board is not None:
            self._boards.move_to_end((room_id, player_id))
        return board

    def put(self, room_id: str, player_id: str, board: Board) -> None:
        self._boards[(room_id, player_id)] = board
        self._boards.move_to_end((room_id, player_id))
        while len(self._boards) > self._size:
            self._boards.popitem(last=False)

    def drop(self, room_id: str, player_id: str) -> None:
        self._boards.pop((room_id, player_id), None)


class KeyedLocks:
    """One asyncio lock per key, alive only while someone holds or awaits it."""

    def __init__(self) -> None:
        self._locks: dict[tuple[str, str], tuple[asyncio.Lock, int]] = {}

    def hold(self, key: tuple[str, str]) -> _Held:
        """``async with locks.hold(key):`` (a plain context manager object: it is on the path
        of every move, and an async generator costs several times more)."""
        return _Held(self._locks, key)

    def __len__(self) -> int:
        return len(self._locks)


class _Held:
    __slots__ = ("_key", "_lock", "_locks")

    def __init__(
        self, locks: dict[tuple[str, str], tuple[asyncio.Lock, int]], key: tuple[str, str]
    ):
        self._locks, self._key = locks, key
        lock, users = locks.get(key) or (asyncio.Lock(), 0)
        locks[key] = (lock, users + 1)
        self._lock = lock

    async def __aenter__(self) -> None:
        try:
            await self._lock.acquire()
        except BaseException:
            self._release_user()
            raise

    async def __aexit__(self, *exc: object) -> None:
        self._lock.release()
        self._release_user()

    def _release_user(self) -> None:
        lock, users = self._locks[self._key]
        if users == 1:
            del self._locks[self._key]
        else:
            self._locks[self._key] = (lock, users - 1)
