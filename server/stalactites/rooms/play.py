"""Moves, undos, step declarations and resignations: the engine judges, the store commits.

The fast path of a move is one store call: the move is checked and applied
on this process's cached board, then committed with the log length the
board was built from.  A conflict (the log grew elsewhere) rebuilds the
board from the stored log and tries again; a refusal, a duplicate id or a
commit that failed (Redis unreachable: stored or not, the log will tell)
drops the cached board; after ``ATTEMPTS`` conflicts in a row the answer is
``rejected`` with ``retry`` (nothing was stored).  Moves of one player are
handled one at a time in a process; across processes the store's length check keeps them in order.

When a race starts, the boards of its players connected here are made at once from the deal
(:meth:`Play.race_started`), and the race's times read: a player's first move then finds
both, where it would otherwise read the log and the room back and replay the deal (a
tournament round's rooms, and every room of a busy hour, start together).
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

from .. import room_events
from ..clock import Clock
from ..engine import EngineError, Game, Move, Status
from ..engine.actions import STEP_PREFIX, UNDO
from ..protocol.room import DeclareStep, MoveFrame, Rejected, RoomStatus, Undo
from ..store import (
    Commit,
    CommitOutcome,
    CommitResult,
    ProgressRow,
    Refusal,
    RoomRow,
    Store,
    refusal,
)
from .berserk import Berserk, berserk_ends
from .boards import BoardCache, CachedBoard, KeyedLocks
from .errors import RoomError, engine_code
from .settings import RoomSettings
from .views import player_row
from .wire import AcceptedText, accepted_json, board_json

__all__ = ["Action", "Play", "RoomLife", "action_of", "board_status", "race_refusal"]

ATTEMPTS = 8

ActionFrame = MoveFrame | Undo | DeclareStep
Answer = AcceptedText | Rejected


@dataclass(slots=True)
class Action:
    """A player's action (not frozen, though never changed: see :class:`~.store.Commit`)."""

    text: str  # as logged: a move in canonical notation, "undo", or "step:ones"/"step:twos"
    client_id: str | None


def action_of(frame: ActionFrame, settings: RoomSettings) -> Action:
    """The logged form of a frame; raises for a frame that cannot be an action here."""
    if isinstance(frame, MoveFrame):
        return Action(canonical_move(frame.move), frame.id)
    if isinstance(frame, Undo):
        if not settings.undo:
            raise RoomError("undo_disabled", "this room does not allow undo")
        return Action(UNDO, frame.id)
    return Action(STEP_PREFIX + frame.step, frame.id)


_CANONICAL: dict[str, str] = {}  # a move as sent -> in canonical notation (moves are few)
_CANONICAL_MOST = 10_000


def canonical_move(text: str) -> str:
    """``str(Move.parse(text))``, remembered (raises for what is not a move)."""
    known = _CANONICAL.get(text)
    if known is None:
        known = str(Move.parse(text))
        if len(_CANONICAL) >= _CANONICAL_MOST:
            _CANONICAL.clear()
        _CANONICAL[text] = known
    return known


def race_refusal(row: RoomRow, player_id: str, now_ms: int) -> RoomError | None:
    """Why this player may not act now, if they may not (the store's rule, :func:`refusal`)."""
    seated = [player for player in row.players if player.player_id == player_id]
    ended = row.ends_at is not None and now_ms >= row.ends_at
    finished = bool(seated) and seated[0].finish is not None
    why = refusal(bool(seated), row.status, finished, ended)
    if why is Refusal.NOT_SEATED:
        player_row(row, player_id)  # raises: no such player
    return None if why is None else RoomError(why.code, _REFUSED[why])  # type: ignore[arg-type]


def board_status(game: Game) -> Status:
    return game.outcome().status


def judged(game: Game) -> tuple[Status, list[Move]]:
    """The game's status and its legal moves, generated once (the answer sends them): the
    engine's :meth:`~stalactites.engine.Game.outcome`, which has a move iff the list is not
    empty."""
    if game.is_won:
        return Status.WON, []
    legal = game.generate_legal_moves()
    return (Status.PLAYING if legal else Status.LOST), legal


class RoomLife(Protocol):
    """What moves need of the rooms' life from creation to results (the room service's)."""

    def known_settings(self, room_id: str) -> RoomSettings | None: ...
    async def settings(self, room_id: str) -> RoomSettings: ...
    async def current(self, room_id: str) -> RoomRow: ...
    async def commit(self, commit: Commit) -> CommitResult: ...
    async def end_seat(
        self, room_id: str, player_id: str, finish: str, elapsed_ms: int
    ) -> CommitResult: ...
    def finalize_soon(self, room_id: str) -> None: ...
    def spawn(self, work: Coroutine[Any, Any, None]) -> None: ...


class Play:
    """Players' actions in rooms: ``rooms`` their life, ``boards`` this process's boards,
    ``store`` the rooms' store, ``berserk`` an arena race's berserk racers."""

    def __init__(
        self, rooms: RoomLife, boards: BoardCache, store: Store, clock: Clock, berserk: Berserk
    ) -> None:
        self.rooms, self.boards, self.store, self.berserk = rooms, boards, store, berserk
        self._now = clock.now_ms
        self.locks = KeyedLocks()  # one player's actions at a time (live/rooms/own_sync.py too)
        self._times: dict[str, tuple[int, int]] = {}  # rooms seen racing: starts_at, ends_at

    def race_started(self, room_id: str, player_ids: Collection[str]) -> None:
        """The race has just started, with ``player_ids`` its racers connected here: each
        whose board this process has none of gets the deal, with nothing logged (made now,
        without the store), and the race's times are read in the background.  A board made
        so from news that came late (an action of the player's was logged first) costs that
        player's next commit a conflict, which reads the log: the store's length check is the
        rule, as for every cached board."""
        if not player_ids:  # (only spectators here)
            return
        settings = self.rooms.known_settings(room_id)
        if settings is not None:
            self.boards.seed(room_id, player_ids, settings)
        if room_id not in self._times:
            self.rooms.spawn(self._learn_times(room_id))

    async def _learn_times(self, room_id: str) -> None:
        with contextlib.suppress(Exception):  # (the first move reads them if this failed)
            await self._race_times(room_id)

    async def act(self, room_id: str, player_id: str, frame: ActionFrame) -> Answer:
        key = (room_id, player_id)
        if not self.locks.take(key):  # (free nearly always: taken at once, no async with)
            async with self.locks.hold(key):
                return await self._act(room_id, player_id, frame)
        try:
            return await self._act(room_id, player_id, frame)
        finally:
            self.locks.release(key)

    async def _act(self, room_id: str, player_id: str, frame: ActionFrame) -> Answer:
        settings = self.rooms.known_settings(room_id) or await self.rooms.settings(room_id)
        times = self._times.get(room_id) or await self._race_times(room_id)
        try:
            action = action_of(frame, settings)
            if times is None:
                raise RoomError("not_started", "the race has not started")
            if self._now() >= times[1]:
                self.rooms.finalize_soon(room_id)
                raise RoomError("already_finished", "the race is over")
            undo = settings.undo
            if settings.arena is not None and await self._berserk(
                room_id, player_id, frame, settings, times
            ):
                undo = False
        except (EngineError, RoomError) as error:
            return await self._refuse(room_id, player_id, frame.id, error)
        for _ in range(ATTEMPTS):
            answer = await self._attempt(room_id, player_id, action, undo, times[0])
            if answer is not None:
                return answer
        message = "your log kept changing (another socket of yours?); send it again"
        return Rejected(type="rejected", id=frame.id, code="retry", message=message)

    async def _berserk(
        self,
        room_id: str,
        player_id: str,
        frame: ActionFrame,
        settings: RoomSettings,
        times: tuple[int, int],
    ) -> bool:
        """Whether the racer races berserk (:mod:`.berserk`); raises for what they may not do:
        undo, or act once their half of the time is up (their race is then stored as over)."""
        if player_id not in await self.berserk.seats(room_id, settings):
            return False
        if isinstance(frame, Undo):
            raise RoomError("undo_disabled", "a berserk racer has no undo")
        if self._now() >= berserk_ends(*times):
            await self.rooms.current(room_id)  # (stores their race as over)
            raise RoomError("already_finished", "your berserk half of the time is up")
        return True

    async def _attempt(
        self, room_id: str, player_id: str, action: Action, undo: bool, start: int
    ) -> AcceptedText | Rejected | None:
        """One try: an answer, or None after a conflict (the board was rebuilt)."""
        board_ = await self.boards.board(room_id, player_id)
        before = board_.progress
        try:
            board_.act(action.text)
        except EngineError as error:
            if await self.boards.outdated(room_id, player_id, board_):
                await self.boards.reload(room_id, player_id)  # try on the real board
                return None
            return await self._refuse(room_id, player_id, action.client_id, error)
        status, legal = judged(board_.game)
        commit = self._commit(room_id, player_id, action, board_, before, status, undo, start)
        try:
            result = await self.rooms.commit(commit)
        except BaseException:  # the store failed (Redis down?): stored or not, nobody knows
            self.boards.drop(room_id, player_id)  # it holds the action: rebuild next time
            raise
        if result.outcome is CommitOutcome.APPLIED:
            board_.length, board_.progress = result.length, commit.progress
            return _accepted(action.client_id, action.text, board_.text.json(), legal, status)
        return await self._settle(room_id, player_id, action, result)

    def _commit(
        self,
        room_id: str,
        player_id: str,
        action: Action,
        board_: CachedBoard,
        before: ProgressRow,
        status: Status,
        undo: bool,
        start: int,
    ) -> Commit:
        game, now = board_.game, self._now()
        cards = game.foundation_cards
        reached = now if cards != before.foundation_cards else before.reached_ms
        finish = None
        if status is Status.WON:
            finish = "won"
        elif status is Status.LOST and not undo:
            finish = "lost"
        moves = len(game.move_stack)
        return Commit(
            room_id=room_id,
            player_id=player_id,
            expected_length=board_.length,
            action=action.text,
            client_id=action.client_id,
            progress=ProgressRow(cards, moves, reached),
            finish=finish,
            elapsed_ms=now - start,
            now_ms=now,
            progress_event=room_events.progress_event(
                player_id, cards, moves, finish or "playing", now - start
            ),
        )

    async def _settle(
        self, room_id: str, player_id: str, action: Action, result: CommitResult
    ) -> Rejected | AcceptedText | None:
        """The answer to a commit not applied (None after a conflict: the board is rebuilt)."""
        if result.outcome is CommitOutcome.CONFLICT:
            await self.boards.reload(room_id, player_id)
            return None
        self.boards.drop(room_id, player_id)  # it holds the action that was not stored
        if result.outcome is CommitOutcome.DUPLICATE:
            return await self._duplicate(room_id, player_id, action.client_id, result.length)
        self.rooms.finalize_soon(room_id)
        code = result.code or "internal"
        return Rejected(type="rejected", id=action.client_id, code=code, message=_WHY[code])  # type: ignore[arg-type]

    async def _refuse(
        self, room_id: str, player_id: str, client_id: str | None, error: Exception
    ) -> AcceptedText | Rejected:
        """The answer to an action that was not applied: the original answer for a used id,
        else why not (the state of the race first, then the rules)."""
        if client_id is not None:
            prior = await self.store.action_index(room_id, player_id, client_id)
            if prior is not None:
                return await self._duplicate(room_id, player_id, client_id, prior)
        row = await self.rooms.current(room_id)
        refusal = race_refusal(row, player_id, self._now())
        if refusal is not None:
            error = refusal
        if isinstance(error, RoomError):
            return Rejected(type="rejected", id=client_id, code=error.code, message=error.message)
        assert isinstance(error, EngineError)
        return Rejected(type="rejected", id=client_id, code=engine_code(error), message=str(error))

    async def _duplicate(
        self, room_id: str, player_id: str, client_id: str | None, length: int
    ) -> AcceptedText:
        """The original answer to the action that made the log ``length`` long."""
        game, action = await self.boards.replay(room_id, player_id, length)
        status, legal = judged(game)
        return _accepted(client_id, action, board_json(game), legal, status)

    async def _race_times(self, room_id: str) -> tuple[int, int] | None:
        """(starts_at, ends_at) once the race is on, else None."""
        times = self._times.get(room_id)
        if times is None:
            row = await self.rooms.current(room_id)
            if row.status not in (RoomStatus.RACING, RoomStatus.FINISHED):
                return None
            assert row.starts_at is not None and row.ends_at is not None
            times = (row.starts_at, row.ends_at)
            if len(self._times) > 10_000:
                self._times.clear()
            self._times[room_id] = times
        return times

    async def resign(self, room_id: str, player_id: str) -> None:
        async with self.locks.hold((room_id, player_id)):
            for _ in range(ATTEMPTS):
                if await self._resign_once(room_id, player_id):
                    return
        raise RoomError("internal", "the resignation could not be stored; send it again")

    async def _resign_once(self, room_id: str, player_id: str) -> bool:
        times = await self._race_times(room_id)
        elapsed = 0 if times is None else self._now() - times[0]
        result = await self.rooms.end_seat(room_id, player_id, "resigned", elapsed)
        if result.outcome is CommitOutcome.CONFLICT:
            return False
        if result.outcome is CommitOutcome.REFUSED:
            code = result.code or "internal"
            raise RoomError(code, _WHY[code])  # type: ignore[arg-type]
        return True


_REFUSED = {
    Refusal.NOT_STARTED: "the race has not started",
    Refusal.RACE_OVER: "the race is over",
    Refusal.PLAYER_FINISHED: "you have finished this race",
}

_WHY = {
    "not_started": "the race has not started",
    "already_finished": "the race is over for you",
    "room_not_found": "no such room",
    "internal": "the store refused the action",
}


def _accepted(
    client_id: str | None, text: str, board: str, legal: list[Move], status: Status
) -> AcceptedText:
    return AcceptedText(client_id, accepted_json(client_id, text, board, legal, status.value))
