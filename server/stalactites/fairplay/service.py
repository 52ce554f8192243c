"""Fair play in the server: every finished run assessed, held runs kept off the boards,
reports, moderators and their decisions (see ``docs/fair-play.md``).

:meth:`FairPlay.assess_room` is an effect of the results log (:mod:`stalactites.results`),
run before the others, so that a run held is never put on a board: the daily board, the
ghosts' index and the rating leaderboard each ask :meth:`FairPlay.hidden` or
:meth:`FairPlay.board_of` first.  The assessment itself (the exact verdict of every
position the player stood on, and the signals) runs in a solver worker, never on the event
loop.  A decision that changes what the boards show tells :attr:`FairPlay.boards_changed`'s
listeners, which put runs back on the boards or take them off.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from ..clock import Clock
from ..rooms.errors import RoomError
from ..rooms.seats import is_persistent
from ..rooms.service import RoomService
from ..store.fairplay.base import FairPlayStore
from ..workers import Kind, SolverPool
from .assess import assess_json
from .bounds import hold_reasons
from .record import (
    APPEAL_MAX,
    AssessedRun,
    Decision,
    FairRecord,
    Report,
    ReportReason,
    appealed,
    assessed,
    decided,
    reported,
)
from .signals import Signals

__all__ = [
    "ASSESSMENT",
    "BoardsChanged",
    "FairPlay",
    "FairPlayError",
    "Pool",
    "audit",
    "set_moderator",
]

log = logging.getLogger(__name__)

ASSESSMENT = Kind("fairplay", priority=1, share=0.5)  # after analyses and hints, half the pool
WRITE_TRIES = 20  # compare-and-set attempts on one player's record before giving up

Pool = Literal["", "bots", "marked"]
"""Who races whom (:meth:`FairPlay.pool_of`): humans, bots, marked players."""

BoardsChanged = Callable[[str, FairRecord], Awaitable[None]]
"""Set the boards from the player's record (player id, record): told when a change alters
what the boards show, and again with each decision (repeated: a crash may have come
between a decision and the boards); running it again changes nothing."""


class FairPlayError(Exception):
    """A refused request: ``code`` and ``message`` (web/errors.py answers it)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


class FairPlay:
    def __init__(
        self,
        store: FairPlayStore,
        rooms: RoomService,
        solver: SolverPool,
        clock: Clock,
        holds: bool = True,
    ) -> None:
        self.store, self.rooms, self.solver, self.clock = store, rooms, solver, clock
        self.holds = holds  # off: runs assessed and cases opened, nothing held (tests)
        self.boards_changed: list[BoardsChanged] = []
        self.assessed = 0  # runs assessed by this process
        self.held = 0  # of them, held

    # records

    async def record_of(self, player_id: str) -> FairRecord:
        text, _ = await self.store.read(player_id)
        return FairRecord() if text is None else FairRecord.model_validate_json(text)

    async def _change(
        self, player_id: str, change: Callable[[FairRecord], FairRecord]
    ) -> tuple[FairRecord, FairRecord]:
        """Apply ``change`` to the player's record by compare and set: (before, after)."""
        for _ in range(WRITE_TRIES):
            text, version = await self.store.read(player_id)
            before = FairRecord() if text is None else FairRecord.model_validate_json(text)
            after = change(before)
            if after == before:
                await self._lists(player_id, after)  # (mended, if a crash left them behind)
                return before, before
            if await self.store.write(player_id, after.model_dump_json(), version):
                await self._lists(player_id, after)
                if _shown(before) != _shown(after):
                    await self._boards(player_id, after)
                return before, after
        raise RuntimeError(f"player {player_id}: their fair-play record kept changing")

    async def _boards(self, player_id: str, record: FairRecord) -> None:
        for listener in self.boards_changed:
            await listener(player_id, record)

    async def _lists(self, player_id: str, record: FairRecord) -> None:
        """The shared lists as the record says (again after each change: they follow it)."""
        if record.case is None:
            await self.store.drop("cases", player_id)
        else:
            await self.store.put("cases", player_id, record.case.opened_ms)
        if record.marked:
            await self.store.put("marked", player_id, self.clock.now_ms())
        else:
            await self.store.drop("marked", player_id)

    # the boards' questions

    async def hidden(self, player_id: str, room_id: str) -> bool:
        """Whether the player's run in this room is kept off every public board (a bot's
        stands on none of the humans')."""
        if await self.is_bot(player_id):
            return True
        return (await self.record_of(player_id)).hidden(room_id)

    async def board_of(self, player_id: str) -> str | None:
        """Which of a game's rating leaderboards the player stands on: none when marked or a
        run of theirs is under review (its rating counts in theirs), the bots' own for a
        bot, else the game's (:data:`stalactites.players.recording.BoardOf`)."""
        record = await self.record_of(player_id)
        if record.marked or record.under_review():
            return None
        return "bots" if await self.is_bot(player_id) else ""

    async def marked(self, player_id: str) -> bool:
        return await self.store.has("marked", player_id)

    async def is_bot(self, player_id: str) -> bool:
        return await self.store.has("bots", player_id)

    async def pool_of(self, player_id: str) -> Pool:
        """Who the player races in quick races and rated races: bots race bots, marked
        players race marked players, everyone else each other."""
        if await self.marked(player_id):
            return "marked"
        return "bots" if await self.is_bot(player_id) else ""

    async def declare_bot(self, player_id: str, rated_races: int) -> None:
        """The player is a bot from now on (for good); refused (``rated_before``) once they
        have raced rated: their rating was made among humans."""
        if await self.is_bot(player_id):
            return
        if rated_races:
            raise FairPlayError(
                "rated_before", "an account that has raced rated cannot become a bot"
            )
        await self.store.put("bots", player_id, self.clock.now_ms())

    # assessment (an effect of the results log)

    async def assess_room(self, room_id: str) -> None:
        """Assess every player's run in a finished room, once each (run again: nothing)."""
        try:
            record = await self.rooms.kept_record(room_id)
            settings = await self.rooms.settings(room_id)
        except RoomError:  # gone (expired): nothing left to assess
            return
        if record is None:
            return
        players = [
            line
            for line in record["players"]
            if is_persistent(line["player_id"]) and line.get("ghost_of") is None
        ]
        if not players:
            return
        records = await self.solver.run(assess_json, record, kind=ASSESSMENT)
        now = self.clock.now_ms()
        for line in players:
            found = records.get(line["player_id"])
            if found is None:
                continue
            signals = Signals.model_validate(found)
            run = AssessedRun(
                room_id=room_id,
                game=settings.game,
                at_ms=now,
                counts=settings.counts is not None,
                signals=signals,
                held=hold_reasons(signals) if self.holds else [],
            )
            before, after = await self._change(line["player_id"], _assessed(run))
            if before is not after:
                self.assessed += 1
                self.held += bool(run.held)
                if run.held:
                    log.warning(
                        "room %s: player %s's run held (%s)",
                        room_id,
                        line["player_id"],
                        ", ".join(run.held),
                        extra={"room_id": room_id},
                    )

    # reports

    async def report(
        self,
        reporter_id: str,
        player_id: str,
        reason: ReportReason,
        text: str | None,
        room_id: str | None,
    ) -> tuple[str, bool]:
        """File a report: its id, and whether it is new (the same reporter's report of the
        same player within a day is that one)."""
        if reporter_id == player_id:
            raise FairPlayError("own_report", "you cannot report yourself")
        report = Report(
            report_id=secrets.token_hex(8),
            reporter_id=reporter_id,
            reason=reason,
            text=text,
            room_id=room_id,
            at_ms=self.clock.now_ms(),
        )
        found: list[str] = []

        def change(record: FairRecord) -> FairRecord:
            after, report_id = reported(record, report)
            found[:] = [report_id]
            return after

        await self._change(player_id, change)
        return found[0], found[0] == report.report_id

    # moderators

    async def is_moderator(self, player_id: str) -> bool:
        return await self.store.has("moderators", player_id)

    async def grant(self, player_id: str, granted: bool = True) -> None:
        await set_moderator(self.store, player_id, granted, self.clock.now_ms())

    async def cases(self, offset: int, limit: int) -> list[tuple[str, FairRecord]]:
        """The open cases, the oldest first: each player and their record."""
        found = []
        for player_id, _ in await self.store.members("cases", offset, limit):
            record = await self.record_of(player_id)
            if record.case is not None:
                found.append((player_id, record))
        return found

    async def decide(
        self,
        moderator_id: str,
        player_id: str,
        action: Literal["mark", "clear"],
        reason: str,
    ) -> FairRecord:
        """A moderator marks or clears the player (the same decision again: no change)."""
        decision = Decision(
            action=action, reason=reason, moderator_id=moderator_id, at_ms=self.clock.now_ms()
        )
        before, after = await self._change(player_id, lambda r: decided(r, decision))
        if after is not before:
            await self._audit(action, player_id, reason, moderator_id)
        else:
            await self._boards(player_id, after)
        return after

    async def appeal(self, player_id: str, text: str) -> FairRecord:
        """The marked player's one appeal, to the moderators' queue."""
        if not text.strip() or len(text) > APPEAL_MAX:
            raise FairPlayError("bad_message", f"text: 1-{APPEAL_MAX} characters")
        now = self.clock.now_ms()
        refused: list[bool] = []

        def change(record: FairRecord) -> FairRecord:
            after = appealed(record, text, now)
            refused[:] = [after is None]
            return record if after is None else after

        _, after = await self._change(player_id, change)
        if refused[0]:
            raise FairPlayError("no_appeal", "only a marked player may appeal, once")
        return after

    async def audit_log(self, offset: int, limit: int) -> list[dict[str, Any]]:
        return [json.loads(entry) for entry in await self.store.audit_log(offset, limit)]

    async def _audit(self, action: str, player_id: str, reason: str, by: str) -> None:
        await audit(self.store, action, player_id, reason, by, self.clock.now_ms())


async def audit(
    store: FairPlayStore, action: str, player_id: str, reason: str, by: str, now_ms: int
) -> None:
    """Add a decision to the audit log moderators read."""
    entry = {"action": action, "player_id": player_id, "reason": reason, "by": by, "at_ms": now_ms}
    await store.audit(json.dumps(entry, separators=(",", ":")))


async def set_moderator(store: FairPlayStore, player_id: str, granted: bool, now_ms: int) -> None:
    """Grant the moderator's role (or revoke it): an operator's act, in the audit log."""
    if granted:
        await store.put("moderators", player_id, now_ms)
    else:
        await store.drop("moderators", player_id)
    await audit(store, "grant" if granted else "revoke", player_id, "", "operator", now_ms)


def _assessed(run: AssessedRun) -> Callable[[FairRecord], FairRecord]:
    return lambda record: assessed(record, run)


def _shown(record: FairRecord) -> tuple[bool, tuple[str, ...]]:
    """What the boards show of a player depends on: marked, and the runs under review."""
    return record.marked, tuple(record.under_review())
