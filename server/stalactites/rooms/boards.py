"""Players' boards: engine games rebuilt from the stored action logs, cached per process.

A log holds a player's accepted actions in order (:mod:`stalactites.engine.actions`
says what an action is).  The stored log is the truth; the cache (:class:`BoardCache`, its
one owner) only saves replaying it, and is checked against the log's length on every commit.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..engine import Game, GameName, Squadron, new_game
from ..engine.actions import apply_action
from ..store import ProgressRow, RoomRow, Store
from .seats import seated_progress
from .settings import RoomSettings
from .views import player_row
from .wire import BoardText

__all__ = [
    "BoardCache",
    "CachedBoard",
    "KeyedLocks",
    "act",
    "initial_layout",
    "new_board",
    "rebuild",
]


def act(board: BoardText, action: str) -> None:
    """Apply one logged action to a board's game and keep its text in step (see
    :func:`apply_action`)."""
    moved = apply_action(board.game, action)
    if moved is not None:
        board.moved(moved)


def new_board(settings: RoomSettings) -> Game:
    """The initial board of a room's deal."""
    step = settings.step if settings.game == GameName.STALACTITES else None
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
class CachedBoard:
    """One player's board as this process knows it: the game after ``length`` logged actions,
    and as sent (``text``, kept in step by :meth:`act`)."""

    game: Game
    length: int
    progress: ProgressRow
    text: BoardText = field(init=False)

    def __post_init__(self) -> None:
        self.text = BoardText(self.game)

    def act(self, action: str) -> None:
        """Apply one logged action to the game and its text (see :func:`apply_action`)."""
        act(self.text, action)


class BoardCache:
    """This process's boards by (room, player), the least recently used dropped beyond
    ``size``; the one owner of the cache and its policy: a board missing or stale is rebuilt
    from the stored log (``store``) on the room's settings and row (``settings``, ``room``)."""

    def __init__(
        self,
        store: Store,
        settings: Callable[[str], Awaitable[RoomSettings]],
        room: Callable[[str], Awaitable[RoomRow]],
        size: int = 20_000,
    ) -> None:
        self._store, self._settings, self._room = store, settings, room
        self._boards: OrderedDict[tuple[str, str], CachedBoard] = OrderedDict()
        self._size = size

    def get(self, room_id: str, player_id: str) -> CachedBoard | None:
        """The player's board if this process has it (never read from the store)."""
        key = (room_id, player_id)
        board = self._boards.get(key)
        if board is not None:
            self._boards.move_to_end(key)
        return board

    async def board(self, room_id: str, player_id: str) -> CachedBoard:
        """The player's board as this process has it, else rebuilt from the stored log (a
        stale one costs its next commit a conflict, which rebuilds it: the move path's)."""
        cached = self.get(room_id, player_id)
        return cached if cached is not None else await self.reload(room_id, player_id)

    async def checked(self, room_id: str, player_id: str) -> CachedBoard:
        """The player's board, checked against the stored log."""
        cached = self.get(room_id, player_id)
        if cached is not None and not await self.outdated(room_id, player_id, cached):
            return cached
        return await self.reload(room_id, player_id)

    async def outdated(self, room_id: str, player_id: str, board: CachedBoard) -> bool:
        """Whether the stored log has grown past ``board`` (it then wants :meth:`reload`)."""
        return bool(await self._store.read_log(room_id, player_id, board.length))

    async def reload(self, room_id: str, player_id: str) -> CachedBoard:
        """Rebuild the player's board from the stored log (the log first: a commit made after
        it shows as a conflict when this board is next committed from)."""
        settings = await self._settings(room_id)
        actions = await self._store.read_log(room_id, player_id)
        row = await self._room(room_id)
        progress = player_row(row, player_id).progress
        fresh = CachedBoard(rebuild(settings, actions), len(actions), progress)
        self._put(room_id, player_id, fresh)
        return fresh

    async def replay(self, room_id: str, player_id: str, length: int) -> tuple[Game, str]:
        """The player's board after the first ``length`` actions of the stored log, and the
        last of them (a board of the past: not cached)."""
        settings = await self._settings(room_id)
        actions = await self._store.read_log(room_id, player_id, 0)
        return rebuild(settings, actions[:length]), actions[length - 1]

    def seed(self, room_id: str, player_ids: Iterable[str], settings: RoomSettings) -> None:
        """A race has begun: each of ``player_ids`` this process has no board of gets the
        deal, nothing logged (made without the store; if an action was logged first, the
        player's next commit is a conflict, which rebuilds the board)."""
        for player_id in player_ids:
            if self.get(room_id, player_id) is None:
                game = new_board(settings)
                self._put(room_id, player_id, CachedBoard(game, 0, seated_progress(game)))

    def drop(self, room_id: str, player_id: str) -> None:
        """Forget the player's board (it may hold an action the store has not)."""
        self._boards.pop((room_id, player_id), None)

    def _put(self, room_id: str, player_id: str, board: CachedBoard) -> None:
        self._boards[(room_id, player_id)] = board
        self._boards.move_to_end((room_id, player_id))
        while len(self._boards) > self._size:
            self._boards.popitem(last=False)


class KeyedLocks:
    """One lock per key, first come first served, alive only while someone holds or awaits
    it: a held key maps to the futures of those waiting for it (none, nearly always, so an
    uncontended hold makes no lock and no future)."""

    def __init__(self) -> None:
        self._held: dict[tuple[str, str], list[asyncio.Future[None]]] = {}

    def hold(self, key: tuple[str, str]) -> _Held:
        """``async with locks.hold(key):`` (a plain context manager object: it is on the path
        of every move, where an async generator would cost more)."""
        return _Held(self, key)

    def take(self, key: tuple[str, str]) -> bool:
        """Hold a free key now, without awaiting (True: :meth:`release` lets it go); False if
        it is held.  The path of every move: it spares the two coroutines that :meth:`hold`'s
        ``async with`` makes."""
        if key in self._held:
            return False
        self._held[key] = []
        return True

    def release(self, key: tuple[str, str]) -> None:
        """Hand a held key to the first waiter, or let it go.  A waiter cancelled whose task
        has not run yet is passed over (that task then finds itself off the list)."""
        waiting = self._held[key]
        while waiting:
            turn = waiting.pop(0)
            if not turn.done():
                turn.set_result(None)
                return
        del self._held[key]

    def __len__(self) -> int:
        return len(self._held)


class _Held:
    __slots__ = ("_key", "_locks")

    def __init__(self, locks: KeyedLocks, key: tuple[str, str]):
        self._locks, self._key = locks, key

    async def __aenter__(self) -> None:
        if self._locks.take(self._key):
            return
        turn = asyncio.get_running_loop().create_future()
        waiting = self._locks._held[self._key]
        waiting.append(turn)
        try:
            await turn
        except BaseException:
            if turn.done() and not turn.cancelled():  # handed the key, then cancelled
                self._locks.release(self._key)
            elif turn in waiting:  # not passed over by a release already
                waiting.remove(turn)
            raise

    async def __aexit__(self, *exc: object) -> None:
        self._locks.release(self._key)
