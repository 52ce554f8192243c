"""The in-memory tournament store: one process, nothing survives a restart.

Each method runs to completion without awaiting, so on one event loop every
method is atomic, as the Redis store's scripts are.  A tournament is forgotten ``ttl_ms``
after the last write given it (creation, an entry, a start asked for, a transition), as
the Redis store's keys expire (:mod:`..expiry`, by the clock the store is given), and its
place in the due index with it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...clock import SystemClock
from ..expiry import Expiry
from ..rooms.base import Bell, EventBatch, Ring
from .base import (
    TOURNAMENT_LISTS,
    Claim,
    EnterResult,
    EntrantRow,
    NewEntrant,
    NewTournament,
    StandingRow,
    StartResult,
    TournamentRow,
    Transition,
)

__all__ = ["MemoryTournamentStore"]


@dataclass
class _Tournament:
    tournament_id: str
    settings_json: str
    admin_hash: str
    starts_at: int | None
    created_ms: int = 0
    status: str = "scheduled"
    round: int = 0
    room_id: str | None = None
    ends_at: int | None = None
    break_ends_at: int | None = None
    entrants: list[EntrantRow] = field(default_factory=list)
    rounds: dict[int, str] = field(default_factory=dict)
    standings: dict[str, tuple[int, str]] = field(default_factory=dict)
    events: list[str] = field(default_factory=list)


class MemoryTournamentStore:
    """Tournaments in a dict; see :class:`.base.TournamentStore` for the contract."""

    def __init__(self, now_ms: Callable[[], int] | None = None) -> None:
        """``now_ms``: the server's clock, which expiry follows (the machine's by default)."""
        self._tournaments: dict[str, _Tournament] = {}
        self._bells: dict[str, Bell] = {}
        self._due: dict[str, int] = {}
        self._generations: dict[str, int] = {}
        self._expiry = Expiry(now_ms or SystemClock().now_ms)

    def _get(self, tournament_id: str, ttl_ms: int | None = None) -> _Tournament | None:
        """The tournament, once every one past its time is forgotten (kept ``ttl_ms`` more
        when given: a write)."""
        for gone in self._expiry.expired():
            del self._tournaments[gone]
            self._due.pop(gone, None)
            self._generations.pop(gone, None)
        found = self._tournaments.get(tournament_id)
        if found is not None and ttl_ms is not None:
            self._expiry.refresh(tournament_id, ttl_ms)
        return found

    async def ping(self) -> bool:
        return True

    async def close(self) -> None:
        self._bells.clear()

    async def create(self, tournament: NewTournament, ttl_ms: int) -> None:
        self._get("")  # a sweep
        self._expiry.refresh(tournament.tournament_id, ttl_ms)
        self._tournaments[tournament.tournament_id] = _Tournament(
            tournament.tournament_id,
            tournament.settings_json,
            tournament.admin_hash,
            tournament.starts_at,
            tournament.created_ms,
        )
        if tournament.starts_at is not None:
            await self.poke(tournament.tournament_id, tournament.starts_at)

    async def load(self, tournament_id: str) -> TournamentRow | None:
        found = self._get(tournament_id)
        return None if found is None else self._row(found)

    def _row(self, found: _Tournament) -> TournamentRow:
        return TournamentRow(
            tournament_id=found.tournament_id,
            settings_json=found.settings_json,
            admin_hash=found.admin_hash,
            status=found.status,
            round=found.round,
            room_id=found.room_id,
            ends_at=found.ends_at,
            break_ends_at=found.break_ends_at,
            starts_at=found.starts_at,
            seq=len(found.events),
            entrants=list(found.entrants),
            rounds=[found.rounds[number] for number in sorted(found.rounds)],
        )

    async def enter(
        self, tournament_id: str, entrant: NewEntrant, max_players: int, ttl_ms: int
    ) -> EnterResult:
        found = self._get(tournament_id, ttl_ms)
        if found is None:
            return EnterResult.NOT_FOUND
        if found.status != "scheduled":
            return EnterResult.STARTED
        if any(row.player_id == entrant.player_id for row in found.entrants):
            return EnterResult.ALREADY_ENTERED
        if len(found.entrants) >= max_players:
            return EnterResult.FULL
        seat = len(found.entrants) + 1
        found.entrants.append(EntrantRow(entrant.player_id, entrant.name, entrant.token_hash, seat))
        found.standings[entrant.player_id] = (entrant.score, entrant.line_json)
        return EnterResult.ENTERED

    async def request_start(self, tournament_id: str, now_ms: int, ttl_ms: int) -> StartResult:
        found = self._get(tournament_id, ttl_ms)
        if found is None:
            return StartResult.NOT_FOUND
        if found.status != "scheduled":
            return StartResult.STARTED
        if found.starts_at is None or found.starts_at > now_ms:
            found.starts_at = now_ms
        await self.poke(tournament_id, found.starts_at)
        return StartResult.STARTING

    async def transition(self, step: Transition, ttl_ms: int) -> bool:
        found = self._get(step.tournament_id)
        if found is None or (found.status, found.round) != step.expected:
            return False
        self._expiry.refresh(step.tournament_id, ttl_ms)
        found.status, found.round = step.status, step.round
        found.room_id, found.ends_at = step.room_id, step.ends_at
        found.break_ends_at = step.break_ends_at
        if step.record is not None:
            found.rounds[step.record[0]] = step.record[1]
        if step.standings is not None:
            found.standings = {row.player_id: (row.score, row.line_json) for row in step.standings}
        if step.events:
            found.events.extend(step.events)
            bell = self._bells.get(step.tournament_id)
            if bell is not None:
                bell(len(found.events), Ring.NEWS)
        return True

    async def list_tournaments(self, name: str, limit: int, now_ms: int) -> list[TournamentRow]:
        self._get("")  # a sweep
        listed = [t for t in self._tournaments.values() if t.status in TOURNAMENT_LISTS[name]]
        if name == "scheduled":
            listed.sort(key=lambda t: (t.created_ms, t.tournament_id), reverse=True)
        else:
            listed.sort(key=lambda t: (t.starts_at or 0, t.tournament_id), reverse=True)
        return [self._row(found) for found in listed[: max(limit, 0)]]

    async def standings(self, tournament_id: str) -> list[StandingRow]:
        found = self._get(tournament_id)
        if found is None:
            return []
        rows = [StandingRow(pid, score, line) for pid, (score, line) in found.standings.items()]
        rows.sort(key=lambda row: (row.score, row.player_id), reverse=True)
        return rows

    async def events_since(self, tournament_id: str, seq: int) -> EventBatch:
        found = self._get(tournament_id)
        if found is None:
            return EventBatch(0, False, [])
        kept = found.events[seq:]
        return EventBatch(len(found.events), False, [(seq + 1 + i, e) for i, e in enumerate(kept)])

    async def subscribe(self, tournament_id: str, bell: Bell) -> None:
        self._bells[tournament_id] = bell

    async def unsubscribe(self, tournament_id: str, bell: Bell) -> None:
        if self._bells.get(tournament_id) == bell:
            del self._bells[tournament_id]

    # The due index.

    async def poke(self, tournament_id: str, at_ms: int) -> None:
        current = self._due.get(tournament_id)
        if current is None or at_ms < current:
            self._due[tournament_id] = at_ms
        self._generations[tournament_id] = self._generations.get(tournament_id, 0) + 1

    async def claim_due(self, now_ms: int, lease_ms: int, limit: int) -> list[Claim]:
        self._get("")  # a sweep: the forgotten are due no more
        due = sorted((at, tid) for tid, at in self._due.items() if at <= now_ms)[:limit]
        return [self._claim(tid, now_ms, lease_ms) for _, tid in due]

    async def claim(self, tournament_id: str, now_ms: int, lease_ms: int) -> Claim | None:
        at = self._due.get(tournament_id)
        if at is None or at > now_ms:
            return None
        return self._claim(tournament_id, now_ms, lease_ms)

    def _claim(self, tournament_id: str, now_ms: int, lease_ms: int) -> Claim:
        self._due[tournament_id] = now_ms + lease_ms
        return Claim(tournament_id, self._generations.get(tournament_id, 0))

    async def release(self, claim: Claim, next_ms: int | None, now_ms: int) -> None:
        tid = claim.tournament_id
        if self._generations.get(tid, 0) != claim.generation:
            self._due[tid] = min(self._due.get(tid, now_ms), now_ms)
        elif next_ms is None:
            self._due.pop(tid, None)
            self._generations.pop(tid, None)
        else:
            self._due[tid] = next_ms

    async def next_due(self) -> int | None:
        self._get("")  # a sweep
        return min(self._due.values(), default=None)
