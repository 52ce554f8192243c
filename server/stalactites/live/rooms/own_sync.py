"""Keeps every socket of one seat in step (two tabs of one token, on any processes).

A player's own ``progress`` event reaches each of the player's sockets.  The
socket whose action it was has had ``accepted`` already; any other socket of the
player then sends ``synced``: the player's board as stored.  The check waits for
the player's action in hand on this process (the rooms' per-player lock), so a
socket counts its own accepted actions before it looks; this process's board is
read again from the stored log when the log has grown past it (the action was
made on another process).  An own action whose ``accepted`` repeated an earlier
answer (a resent id) makes the socket skip one check: the next event catches up.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from ...protocol.room import Synced
from ...rooms.play import Play, board_status
from ...rooms.wire import legal_texts, wire_board
from .progress_batch import event_player, is_progress

__all__ = ["OwnSync"]


class OwnSync:
    """One player socket's catching up with the player's actions made on other sockets."""

    def __init__(self, play: Play, room_id: str, player_id: str, send: Callable[[Synced], None]):
        self.play, self.room_id, self.player_id = play, room_id, player_id
        self._send = send
        self._own = 0  # own accepted actions whose progress event has not been checked yet
        self._acting = False  # an action of this socket's is in hand
        self._early = 0  # the player's progress events that came meanwhile
        self._tasks: set[asyncio.Task[None]] = set()

    def acting(self) -> None:
        """An action of this socket's is being judged and committed."""
        self._acting = True

    def acted(self, accepted: bool) -> None:
        """The action in hand was answered (``accepted``: its progress event is its own)."""
        self._acting = False
        self._own += accepted
        early, self._early = self._early, 0
        if early and self._own:
            paired = min(early, self._own)
            early, self._own = early - paired, self._own - paired
        for _ in range(early):
            self._spawn()

    def offer(self, frame: str) -> None:
        """A room event for this socket: check the player's own progress."""
        if not is_progress(frame) or '"status":"resigned"' in frame:
            return
        if event_player(frame) != self.player_id:
            return
        if self._acting:
            self._early += 1
            return
        self._spawn()

    def _spawn(self) -> None:
        task = asyncio.create_task(self._check())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()

    async def _check(self) -> None:
        boards, key = self.play.boards, (self.room_id, self.player_id)
        async with self.play.locks.hold(key):
            if self._own > 0:
                self._own -= 1
                return
            with contextlib.suppress(Exception):  # the room is gone: the next action says so
                board = await boards.checked(*key)
                game, status = board.game, board_status(board.game)
                legal = legal_texts(game) if status.value == "playing" else []
                self._send(
                    Synced(type="synced", state=wire_board(game), legal=legal, status=status.value)
                )
