"""The tournament store: where tournaments, entrants, round results, standings and events live.

One interface, two implementations (:mod:`.memory`,
:mod:`.redis`), as for rooms.  Every change is one atomic step; a
round transition is a compare-and-set on the tournament's status and round
(:class:`Transition`), so that of any number of processes trying the same
transition exactly one makes it.  The store never reads a clock: callers pass the times.

The due index says when each unfinished tournament next needs looking at.
Any process's scheduler *claims* due tournaments (their entry moves a lease
into the future, so no other scheduler takes them meanwhile), advances them,
and *releases* them with their next deadline.  A *poke* (after any other
change that makes a tournament due: a start, a round room finishing) brings
the entry forward and bumps its generation; a release whose generation is
stale leaves the entry due at once, so a decision made on an old snapshot
never postpones a newer deadline.  A scheduler that dies holding a claim
loses it when the lease runs out.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Protocol

from ..rooms.base import Bell, EventBatch

__all__ = [
    "TOURNAMENT_LISTS",
    "Claim",
    "EnterResult",
    "EntrantRow",
    "NewEntrant",
    "NewTournament",
    "StandingRow",
    "StartResult",
    "TournamentRow",
    "TournamentStore",
    "Transition",
]


TOURNAMENT_LISTS = {"scheduled": ("scheduled",), "running": ("running", "break")}
"""The tournament lists (``list_tournaments``) and the statuses each holds: the lobby's
tournaments starting soon (newest first) and running (the latest to start first)."""


@dataclass(frozen=True, slots=True)
class NewTournament:
    tournament_id: str
    settings_json: str
    admin_hash: str
    starts_at: int | None
    created_ms: int


@dataclass(frozen=True, slots=True)
class NewEntrant:
    player_id: str
    name: str
    token_hash: str
    line_json: str  # the entrant's standings line before any round
    score: int  # and its sort score


class EnterResult(enum.Enum):
    ENTERED = "entered"
    NOT_FOUND = "tournament_not_found"
    FULL = "tournament_full"
    STARTED = "already_started"
    ALREADY_ENTERED = "already_entered"  # this player id is an entrant already


class StartResult(enum.Enum):
    STARTING = "starting"
    NOT_FOUND = "tournament_not_found"
    STARTED = "already_started"


@dataclass(frozen=True, slots=True)
class EntrantRow:
    player_id: str
    name: str
    token_hash: str
    seat: int


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A consistent snapshot of a tournament."""

    tournament_id: str
    settings_json: str
    admin_hash: str
    status: str  # scheduled, running, break, finished
    round: int  # the round in play or last played; 0 before the first
    room_id: str | None  # the current round's room
    ends_at: int | None  # the current round's end
    break_ends_at: int | None
    starts_at: int | None
    seq: int
    entrants: list[EntrantRow]  # in entry order
    rounds: list[str]  # round records (JSON), round 1 first


@dataclass(frozen=True, slots=True)
class StandingRow:
    player_id: str
    score: int
    line_json: str


@dataclass(frozen=True, slots=True)
class Transition:
    """One step of a tournament, applied only if it is still at ``expected``.

    The fields after ``expected`` replace the stored ones (None clears them);
    ``record`` stores a round record under its round number; ``standings``,
    when given, replaces the whole standings; ``events`` are appended to the
    tournament's event log.
    """

    tournament_id: str
    expected: tuple[str, int]  # (status, round)
    status: str
    round: int
    room_id: str | None
    ends_at: int | None
    break_ends_at: int | None
    record: tuple[int, str] | None = None
    standings: list[StandingRow] | None = None
    events: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Claim:
    """A scheduler's hold on a due tournament, good until its lease runs out."""

    tournament_id: str
    generation: int


class TournamentStore(Protocol):
    """The tournament store interface."""

    async def ping(self) -> bool: ...

    async def close(self) -> None: ...

    async def create(self, tournament: NewTournament, ttl_ms: int) -> None:
        """Store a new tournament in ``scheduled`` (due at ``starts_at`` when it has one)."""
        ...

    async def load(self, tournament_id: str) -> TournamentRow | None: ...

    async def enter(
        self, tournament_id: str, entrant: NewEntrant, max_players: int, ttl_ms: int
    ) -> EnterResult:
        """Add an entrant while the tournament is scheduled and has room, once per player id."""
        ...

    async def request_start(self, tournament_id: str, now_ms: int, ttl_ms: int) -> StartResult:
        """Make a scheduled tournament start now (its first round is begun by a scheduler)."""
        ...

    async def transition(self, step: Transition, ttl_ms: int) -> bool:
        """Apply the step if the tournament is at ``step.expected``; whether it did."""
        ...

    async def list_tournaments(self, name: str, limit: int, now_ms: int) -> list[TournamentRow]:
        """Up to ``limit`` tournaments of a list of :data:`TOURNAMENT_LISTS`: the scheduled
        newest first, the running latest started first."""
        ...

    async def standings(self, tournament_id: str) -> list[StandingRow]:
        """The standings, best first (equal scores in any fixed order)."""
        ...

    async def events_since(self, tournament_id: str, seq: int) -> EventBatch:
        """Every tournament event after ``seq`` (the log is never trimmed)."""
        ...

    async def subscribe(self, tournament_id: str, bell: Bell) -> None:
        """Call ``bell(seq)`` whenever the tournament gets new events (one bell each)."""
        ...

    async def unsubscribe(self, tournament_id: str, bell: Bell) -> None: ...

    # The due index.

    async def poke(self, tournament_id: str, at_ms: int) -> None:
        """Make the tournament due at ``at_ms`` or sooner, and bump its generation."""
        ...

    async def claim_due(self, now_ms: int, lease_ms: int, limit: int) -> list[Claim]:
        """Claim up to ``limit`` tournaments due at ``now_ms``: each is due again only after
        ``lease_ms`` unless released or poked."""
        ...

    async def claim(self, tournament_id: str, now_ms: int, lease_ms: int) -> Claim | None:
        """Claim this tournament if it is due."""
        ...

    async def release(self, claim: Claim, next_ms: int | None, now_ms: int) -> None:
        """Done with a claim: due next at ``next_ms`` (None: never again, it is finished), or
        at ``now_ms`` if it was poked since the claim."""
        ...

    async def next_due(self) -> int | None:
        """The earliest time any tournament is due."""
        ...
