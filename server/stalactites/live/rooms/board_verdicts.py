"""Whether each board shown to a room's spectators can still be won, judged off the event loop.

A :class:`BoardVerdicts` belongs to a room's :class:`~.spectator_boards.SpectatorBoards`: it
judges only the boards spectators are shown (the delayed ones, never a racer's board as it
stands), each position once: cached by the engine's position key in this process, and kept in
the store by a digest of that key, the first verdict kept winning, so every process shows the
same and a position judged on one is not judged again on another.  Judging is one board at a
time per room, in a worker process of the solver pool
(:func:`stalactites.analysis.board_verdict.board_verdict`).  When a player's board changes
before its verdict came, the newer board is judged and the older one's verdict is kept but
told to no one.  A verdict is told (``won`` or ``lost``) only while its board is still that
player's last one shown, so a client applies it to the board it shows.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable
from typing import Any

from ... import logs
from ...analysis.board_verdict import board_verdict
from ...engine import Game, GameName
from ...protocol.room import PositionVerdict
from ...rooms import RoomService

__all__ = ["BoardVerdicts", "Tell", "position_digest"]

log = logging.getLogger(__name__)

Tell = Callable[[str, PositionVerdict], None]
"""Told a player's last shown board's verdict (the player id, ``won`` or ``lost``)."""

PositionKey = tuple[Any, ...]

# The verdicts as the store keeps them (text), back to the wire's.
KEPT: dict[str, PositionVerdict] = {"won": "won", "lost": "lost", "unknown": "unknown"}


def position_digest(key: PositionKey) -> str:
    """A position's name in the store: the same in every process (its key's text, hashed)."""
    return hashlib.sha256(repr(key).encode()).hexdigest()[:32]


class BoardVerdicts:
    def __init__(self, room_id: str, rooms: RoomService, tell: Tell) -> None:
        self.room_id = room_id
        self.judged = 0  # searches run for this room in this process
        self._rooms, self._tell = rooms, tell
        self._known: dict[PositionKey, PositionVerdict] = {}
        self._shown: dict[str, PositionKey] = {}  # each player's last board shown
        self._wanted: dict[str, tuple[PositionKey, tuple[str, ...]]] = {}  # waiting judging
        self._wake = asyncio.Event()
        self._task = logs.task(self._run(), f"board-verdicts:{room_id}", room_id=room_id)

    def shown(self, player_id: str, game: Game, actions: tuple[str, ...]) -> PositionVerdict:
        """A player's board (``game`` after ``actions``) is shown to spectators now: its verdict
        when known, else ``unknown`` (and it is judged, to be told later)."""
        key = game.key()
        self._shown[player_id] = key
        verdict = self._known.get(key)
        if verdict is not None:
            self._wanted.pop(player_id, None)
            return verdict
        self._wanted[player_id] = (key, actions)
        self._wake.set()
        return "unknown"

    async def close(self) -> None:
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        settings = await self._rooms.settings(self.room_id)
        step = settings.step if settings.game == GameName.STALACTITES else None
        deal = (settings.game, settings.deal, step)
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._wanted:
                player_id = next(iter(self._wanted))  # the longest waiting first
                key, actions = self._wanted.pop(player_id)
                verdict = self._known.get(key)
                if verdict is None:
                    verdict = await self._judge(key, *deal, actions)
                if verdict != "unknown" and self._shown.get(player_id) == key:
                    self._tell(player_id, verdict)

    async def _judge(
        self, key: PositionKey, game: str, deal: str, step: str | None, actions: tuple[str, ...]
    ) -> PositionVerdict:
        """The position's verdict: kept in the store already, else judged and kept there."""
        store, position = self._rooms.store, position_digest(key)
        try:
            kept = await store.read_board_verdict(self.room_id, position)
            if kept is None:
                self.judged += 1
                verdict = await self._rooms.solver.run(board_verdict, game, deal, step, actions)
                kept = await store.keep_board_verdict(self.room_id, position, verdict)
        except Exception:  # a broken worker or store: unknown, judged again if shown again
            log.exception("room %s: a board's verdict failed", self.room_id)
            return "unknown"
        shown = KEPT.get(kept or "")
        if shown is None:  # the room is gone
            return "unknown"
        self._known[key] = shown
        return shown
