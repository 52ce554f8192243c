"""Spectators' boards in one process: every player's board, the room's delay behind.

A :class:`SpectatorBoards` belongs to a room's stream (:mod:`.room_stream`) while spectators
are connected to this process.  It reads the room's action stream from the store (every
accepted action with its commit time, whichever process stored it), or where the store's
doorbells carry each commit's action (Redis), takes it from the bell, reading the stream only
when a bell was missed; and it *releases* each
action once it is ``spectator_delay_s`` old, or at once when the race is over: it plays the
action on its copy of that player's board and sends a ``board`` frame to every spectator
(while none is connected here, nothing is played or judged: the next one's welcome plays what
is due; a stream lingers a while after its last spectator left).  A
spectator's welcome shows the boards as released so far, and from then on it gets every frame
released after that point.  Each board shown carries its verdict (:mod:`.board_verdicts`):
whether it can still be won, judged on that delayed board alone, the ``board_verdict`` frame
telling it when it was not known yet.

In a race that counts (:attr:`~stalactites.rooms.RoomSettings.counts`) a board is no help to
its rival: each racer's actions are held, whatever the delay, until that racer has finished
(then released at once, in order) or the race is over; until then a spectator is shown no
board of theirs and no verdict, only their progress.
"""

from __future__ import annotations

import asyncio
import logging

from ... import logs
from ...engine import EngineError, Game
from ...protocol.room import (
    BoardVerdict,
    PositionVerdict,
    RoomStatus,
    SquadronBoard,
    StalactitesBoard,
)
from ...rooms import RoomService, RoomSettings
from ...rooms.boards import act, new_board
from ...rooms.wire import BoardText, board_event_json, wire_board
from ...store import RoomRow
from ...store.rooms.base import ActionRow
from ..alarms import Alarm, Alarms
from ..fanout import Subscriber
from .board_verdicts import BoardVerdicts

__all__ = ["SpectatorBoards"]

log = logging.getLogger(__name__)

Boards = dict[str, StalactitesBoard | SquadronBoard]  # every player's board, by id
Verdicts = dict[str, PositionVerdict]  # whether each of those can still be won, by id

RETRY_S = 0.5  # after a failed step (the store unreachable?)


class SpectatorBoards:
    def __init__(self, room_id: str, rooms: RoomService, alarms: Alarms) -> None:
        self.room_id = room_id
        self.viewers: set[Subscriber] = set()
        self.over = False
        self.primed = asyncio.Event()
        self._rooms = rooms
        self._settings: RoomSettings | None = None
        self._entries: list[ActionRow] = []
        self._released = 0
        self._unread = True  # the action stream may hold actions not in _entries: read it
        self._boards: dict[str, BoardText] = {}  # each player's board as spectators see it
        self._actions: dict[str, list[str]] = {}  # each player's actions released and applied
        self.verdicts = BoardVerdicts(room_id, rooms, self._tell)
        self._deal_shown = False  # the race has started: each board's verdict is wanted
        self._held = False  # the race counts: boards held until their racer has finished
        self._finished: set[str] = set()  # (held) the racers known to have finished
        self._finishes_unread = False  # (held) a racer has finished: read who
        self._out: set[int] = set()  # (held) entries released past the first unreleased one
        self._scanned, self._rescan = 0, False  # (held) entries looked at; look again from 0
        self._wake = asyncio.Event()
        self._alarms = alarms
        self._alarm: Alarm | None = None  # set for the next action due to be released
        self._reading = asyncio.Lock()
        self._task = logs.task(self._run(), f"spectator-boards:{room_id}", room_id=room_id)

    def poke(self) -> None:
        """The room has new events: there may be new actions to read (unless the store's bells
        carry them: :meth:`acted`)."""
        if not self._rooms.store.bells_carry:
            self._unread = True
            self._wake.set()

    def missed(self) -> None:
        """Bells may have been missed (a lost subscription): read the action stream."""
        self._unread = True
        self._wake.set()

    def acted(self, count: int, row: ActionRow) -> None:
        """A doorbell carried the room's ``count``-th action: taken if it is the next one, and
        released at once if it is due (a live room's), else (a bell missed, or a read under
        way) the action stream is read."""
        if count == len(self._entries) + 1 and not self._reading.locked():
            self._entries.append(row)
            if not self.viewers:
                return  # the next spectator's ready() releases it
            waiting = self._released < len(self._entries) - 1  # the timer is set for those
            if self.primed.is_set() and not self._wake.is_set():
                self._release()
                if waiting or self._released == len(self._entries):
                    return  # nothing new for the timer
        elif count <= len(self._entries):
            return  # a bell heard again
        else:
            self._unread = True
        self._wake.set()

    def race_started(self) -> None:
        """The race has started: every board, the deal, is shown (in ``started``): judge it."""
        self._deal_shown = True
        self._wake.set()

    def racer_finished(self) -> None:
        """A racer has finished: in a race that counts, their board may be shown now."""
        if self._held:
            self._finishes_unread = True
            self._wake.set()

    def race_over(self) -> None:
        """The race has finished: release everything."""
        self.over = True
        self._wake.set()

    async def ready(self, timeout_s: float) -> None:
        """Primed, and up to date with the store (before a spectator is admitted)."""
        await asyncio.wait_for(self.primed.wait(), timeout_s)
        await self._sync()
        self._release()

    def admit(self, viewer: Subscriber, row: RoomRow) -> tuple[Boards, Verdicts]:
        """Take a spectator on; the boards it is shown now (none before the start) and their
        verdicts as known now.  Frames released from now on go to it too."""
        if not self.viewers:
            self._wake.set()  # releasing again: its timer was off with nobody watching
        self.viewers.add(viewer)
        if row.status == RoomStatus.FINISHED and not self.over:
            self.race_over()  # the results event is on its way to the room's stream
        if row.status not in (RoomStatus.RACING, RoomStatus.FINISHED):
            return {}, {}
        boards, verdicts = {}, {}
        for player in row.players:
            if self._hidden(player.player_id):
                continue
            game = self._game(player.player_id)
            boards[player.player_id] = wire_board(game)
            verdicts[player.player_id] = self._verdict(player.player_id, game)
        return boards, verdicts

    def leave(self, viewer: Subscriber) -> None:
        self.viewers.discard(viewer)

    async def close(self) -> None:
        if self._alarm is not None:
            self._alarm.cancel()
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
        await self.verdicts.close()

    async def _run(self) -> None:
        while True:
            try:
                if not self.primed.is_set():
                    await self._prime()
                elif self._wake.is_set():
                    self._wake.clear()
                    if self.viewers and self._unread:  # else ready() reads them
                        await self._sync()
                    if self._finishes_unread:
                        await self._read_finishes()
                    if self._deal_shown:
                        await self._judge_all()
                if self.viewers:  # else the next spectator's ready() releases them
                    self._release()
            except Exception:
                log.exception("room %s: spectators' boards failed; retrying", self.room_id)
                await asyncio.sleep(RETRY_S)
                self._unread = True
                self._wake.set()
                continue
            await self._sleep()

    async def _prime(self) -> None:
        self._settings = await self._rooms.settings(self.room_id)
        self._held = self._settings.counts is not None
        row = await self._rooms.load(self.room_id)
        self.over = self.over or row.status == RoomStatus.FINISHED
        self._finished = {player.player_id for player in row.players if player.finish}
        self._rescan = True
        await self._sync()
        self._release()
        self.primed.set()

    async def _judge_all(self) -> None:
        """Every player's board as shown now: judged, the verdicts told as they come."""
        self._deal_shown = False
        row = await self._rooms.load(self.room_id)
        for player in row.players:
            if not self._hidden(player.player_id):
                self._verdict(player.player_id, self._game(player.player_id))

    async def _read_finishes(self) -> None:
        """(Held) who has finished, as the room says now; their actions are released."""
        self._finishes_unread = False
        row = await self._rooms.load(self.room_id)
        self._finished = {player.player_id for player in row.players if player.finish}
        self._rescan = True

    def _hidden(self, player_id: str) -> bool:
        """Whether the player's board is kept from spectators now (held, still racing)."""
        return self._held and not self.over and player_id not in self._finished

    async def _sleep(self) -> None:
        """Until poked, or until the next action is due (its alarm pokes); with no spectator
        here, until poked."""
        due = self._next_due() if self.viewers else None
        if self._wake.is_set() or (due is not None and due <= self._rooms.now()):
            return
        alarm = self._alarm
        if alarm is not None and (alarm.spent or alarm.due_ms != due):
            alarm.cancel()
            alarm = self._alarm = None
        if due is not None and alarm is None:
            self._alarm = self._alarms.at(due, self._wake.set)
        await self._wake.wait()

    async def _sync(self) -> None:
        async with self._reading:
            self._unread = False
            read = await self._rooms.store.read_actions(self.room_id, len(self._entries))
            self._entries += read

    def _next_due(self) -> int | None:
        if self._released >= len(self._entries) or (self._held and not self.over):
            return None  # (held: released when their racer finishes, not at a time)
        return self._entries[self._released].at_ms + self._delay_ms()

    def _delay_ms(self) -> int:
        return 0 if self.over or self._settings is None else self._settings.delay_s * 1000

    def _release(self) -> None:
        """Play and send every action that is due (held: every finished racer's)."""
        if self._held and not self.over:
            # The entries looked at already are looked at again only when someone finished.
            start = self._released if self._rescan else max(self._scanned, self._released)
            for index in range(start, len(self._entries)):
                if index not in self._out and self._entries[index].player_id in self._finished:
                    self._out.add(index)
                    self._play(self._entries[index])
            self._scanned, self._rescan = len(self._entries), False
            while self._released in self._out:
                self._out.discard(self._released)
                self._released += 1
            return
        now = self._rooms.now()
        while (due := self._next_due()) is not None and due <= now:
            entry = self._entries[self._released]
            self._released += 1
            if self._released - 1 in self._out:  # (held) released already
                self._out.discard(self._released - 1)
                continue
            self._play(entry)

    def _play(self, entry: ActionRow) -> None:
        """Play one action on its player's board and send the board to every spectator."""
        board = self._board(entry.player_id)
        try:
            act(board, entry.action)
        except EngineError:
            log.warning("room %s: stored action %r does not apply", self.room_id, entry)
            return
        self._actions.setdefault(entry.player_id, []).append(entry.action)
        verdict = self._verdict(entry.player_id, board.game)
        text = board.json()
        self._send(board_event_json(entry.player_id, entry.action, text, entry.at_ms, verdict))

    def _verdict(self, player_id: str, game: Game) -> PositionVerdict:
        """The player's board is shown now: its verdict as known (it is judged if unknown)."""
        actions = tuple(self._actions.get(player_id, ()))
        return self.verdicts.shown(player_id, game, actions)

    def _tell(self, player_id: str, verdict: PositionVerdict) -> None:
        frame = BoardVerdict(type="board_verdict", player_id=player_id, verdict=verdict)
        self._send(frame.model_dump_json())

    def _send(self, text: str) -> None:
        for viewer in list(self.viewers):
            viewer.send_text(text)

    def _game(self, player_id: str) -> Game:
        return self._board(player_id).game

    def _board(self, player_id: str) -> BoardText:
        board = self._boards.get(player_id)
        if board is None:
            assert self._settings is not None
            board = self._boards[player_id] = BoardText(new_board(self._settings))
        return board
