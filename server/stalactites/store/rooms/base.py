"""The store: where rooms, players, move logs and room events live.

One interface, two implementations: :mod:`.memory` (one process, the default)
and :mod:`.redis` (any number of processes on one Redis).  Every method that
changes a room is one atomic step and, when it appends room events, rings the
room's doorbell so that every process serving the room fetches them.  The
store never reads a clock: callers pass ``now_ms``, so that one clock (the
server's) rules and so that the contract tests control time.

Room events are stored as JSON objects without their ``seq``; an event's seq
is its position in the room's log (the first is 1).  Old events may be
trimmed: ``base`` is the seq just before the oldest one kept.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ...protocol.room import RoomStatus
from ..results.base import ResultsLog

__all__ = [
    "ROOM_LISTS",
    "ActionRow",
    "Bell",
    "Carried",
    "Commit",
    "CommitResult",
    "EventBatch",
    "Finish",
    "FinishResult",
    "Finisher",
    "JoinResult",
    "NewPlayer",
    "NewRoom",
    "CommitOutcome",
    "PlayerRow",
    "ProgressRow",
    "ReadyResult",
    "RematchRoom",
    "Ring",
    "RoundRoom",
    "listable",
    "RoomPage",
    "RoomRow",
    "Store",
    "StoreError",
]


class Ring(enum.Enum):
    """Why a doorbell rings: what its seq (the newest stored event's) tells the one who hears it."""

    NEWS = "news"
    """Events up to seq were stored: fetch from the store the ones you lack."""
    OUR_COMMIT = "our commit"
    """Events up to seq were stored by a commit through this very store: the commit's answer
    carries them, so there is nothing to fetch (a store may also ring ``NEWS`` for them)."""
    RESUBSCRIBED = "resubscribed"
    """Seq 0: the subscription was lost and made again; bells may have been missed in between,
    so look in the store."""


@dataclass(frozen=True, slots=True)
class Carried:
    """What a commit's doorbell carries on Redis besides its seq, so that no process hearing it
    need read the store for it: the room events the commit stored, [(seq, event)], and the
    action it stored as (its place in the room's action stream, counted from 1, the row), None
    for a resignation.  A process's own commit's bell carries no events (its answer has them)."""

    events: list[tuple[int, str]]
    action: tuple[int, ActionRow] | None


class Bell(Protocol):
    """A doorbell handler: ``bell(seq, ring, carried)``, with the newest event seq, why it
    rings, and what a commit's bell carries (None where the store's bells carry nothing)."""

    def __call__(self, seq: int, ring: Ring, carried: Carried | None = None, /) -> None: ...


ROOM_LISTS = {
    "waiting": (RoomStatus.WAITING,),
    "racing": (RoomStatus.COUNTDOWN, RoomStatus.RACING),
}
"""The room lists (``list_rooms``) and the statuses each holds."""


class StoreError(Exception):
    """The store cannot be reached or answered nonsense."""


@dataclass(frozen=True, slots=True)
class NewRoom:
    room_id: str
    settings_json: str
    seats: int
    created_ms: int
    listed: bool = True  # False: a private room, never in the waiting list


def listable(name: str, row: RoomRow) -> bool:
    """Whether a room belongs in the list ``name`` now: a waiting room only while it has a
    free seat (a full room leaves the list at once, as does one whose countdown has begun)."""
    if row.status not in ROOM_LISTS[name] or not row.listed:
        return False
    return name != "waiting" or len(row.players) < row.seats


@dataclass(frozen=True, slots=True)
class ProgressRow:
    """A player's board in numbers; ``reached_ms`` is when the foundation count last changed."""

    foundation_cards: int
    moves: int
    reached_ms: int | None = None

    def to_json(self) -> str:
        reached = "null" if self.reached_ms is None else str(self.reached_ms)
        return (
            f'{{"foundation_cards":{self.foundation_cards},"moves":{self.moves},'
            f'"reached_ms":{reached}}}'
        )


@dataclass(frozen=True, slots=True)
class NewPlayer:
    player_id: str
    name: str
    token_hash: str
    joined_ms: int
    progress: ProgressRow
    event_json: str  # the ``player`` room event announcing the join
    skeleton: str = ""  # the name's confusable skeleton: no two seats share one ("": unchecked)


@dataclass(frozen=True, slots=True)
class PlayerRow:
    player_id: str
    name: str
    seat: int
    token_hash: str
    ready: bool
    connected: bool
    progress: ProgressRow
    finish: str | None  # won, lost, resigned, timeout; None while not finished
    place: int | None
    elapsed_ms: int | None


@dataclass(frozen=True, slots=True)
class RoomRow:
    """A consistent snapshot of a room: every field as of event ``seq``."""

    room_id: str
    settings_json: str
    seats: int
    status: RoomStatus
    starts_at: int | None
    ends_at: int | None
    seq: int
    version: int  # bumped by every change to a player's board or finish
    players: list[PlayerRow]
    results_json: str | None
    spectators: int = 0  # spectators connected now (live leases)
    created_ms: int = 0
    rematch: str | None = None  # the rematch room's id, once a seated player has proposed it
    rematch_by: str | None = None  # the player id of who proposed it
    listed: bool = True  # False: a private room (see NewRoom)
    rematch_of: str | None = None  # a rematch's room: the finished room's id (RematchRoom)


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One accepted action in a room's action stream (every player's, in the order stored)."""

    at_ms: int  # when it was committed (the commit's now_ms)
    player_id: str
    action: str


@dataclass(frozen=True, slots=True)
class RoomPage:
    """Rooms of one list, newest first; ``after`` is the cursor for the next page (None: no
    more).  A cursor is (score, room id): waiting rooms are scored by creation time, racing
    rooms by ``starts_at``."""

    rows: list[RoomRow]
    after: tuple[int, str] | None


class CommitOutcome(enum.Enum):
    APPLIED = "applied"
    DUPLICATE = "duplicate"  # the client id was used: ``length`` is the log length it made
    CONFLICT = "conflict"  # the log is not the expected length: ``length`` is the real one
    REFUSED = "refused"  # ``code`` says why (not_started, already_finished, room_not_found)


@dataclass(frozen=True, slots=True)
class RoundRoom:
    """A tournament round's room, opened whole: every entrant seated and ready and the
    countdown begun (to ``starts_at``) in one step; never listed, and no one else is seated."""

    room: NewRoom
    players: list[NewPlayer]
    starts_at: int
    ends_at: int
    events: list[str]  # every entrant's (ready) player event, then the countdown


@dataclass(frozen=True, slots=True)
class RematchRoom:
    """A rematch's room, opened whole in one step: the players of the race it follows
    (``rematch_of``) seated in this order, each under their id and token hash there, none
    ready; never listed, and no one else is seated (``seats_reserved``).  No event is
    appended (no one can have watched a room that did not exist): the players' ``event_json``
    is not stored."""

    room: NewRoom
    rematch_of: str
    players: list[NewPlayer]


class JoinResult(enum.Enum):
    JOINED = "joined"
    ROOM_NOT_FOUND = "room_not_found"
    ROOM_FULL = "room_full"
    SEATS_RESERVED = "seats_reserved"  # a round's or a rematch's room: its seats are theirs
    ALREADY_SEATED = "already_seated"  # this player id has a seat already
    NAME_CONFUSABLE = "name_confusable"  # a seated name has this skeleton


@dataclass(frozen=True, slots=True)
class ReadyResult:
    ok: bool
    code: str | None  # room_not_found, already_finished (race underway or over)
    counting_down: bool  # this call began the countdown


@dataclass(slots=True)
class Commit:
    """One accepted action on a player's board, stored together with its room events.

    ``action`` is appended to the player's log (None for a resignation, which
    changes no board).  ``finish`` ends the player's race (won, lost,
    resigned); a winner's place is the number of winners so far plus one,
    decided by the store.  A commit is refused unless the room is racing,
    ``now_ms`` is before ``ends_at`` and the player has not finished; it is a
    conflict unless the log holds exactly ``expected_length`` actions.

    Not frozen, as :class:`CommitResult` is not, though neither is changed once made: one of
    each is made for every action, and a frozen dataclass sets each field through
    ``object.__setattr__``, much slower than making a plain one.
    """

    room_id: str
    player_id: str
    expected_length: int
    action: str | None
    client_id: str | None
    progress: ProgressRow
    finish: str | None
    elapsed_ms: int
    now_ms: int
    progress_event: str


@dataclass(slots=True)
class CommitResult:
    """What the store did with a :class:`Commit` (not frozen: see there)."""

    outcome: CommitOutcome
    length: int = 0
    code: str | None = None
    events: list[tuple[int, str]] = field(default_factory=list)
    all_done: bool = False
    action: tuple[int, ActionRow] | None = None  # applied: its place in the action stream, row


@dataclass(frozen=True, slots=True)
class Finisher:
    """A player's final line, written when the race ends."""

    player_id: str
    place: int
    finish: str
    elapsed_ms: int


@dataclass(frozen=True, slots=True)
class Finish:
    """The end of a race: refused unless the room is racing at ``expected_version``."""

    room_id: str
    expected_version: int
    now_ms: int
    finishers: list[Finisher]
    events: list[str]  # finished events for timed-out players, then results
    results_json: str


class FinishResult(enum.Enum):
    FINISHED = "finished"
    CONFLICT = "conflict"  # the room changed since the snapshot: take a new one
    NOT_RACING = "not_racing"  # already finished (another process won) or not started


@dataclass(frozen=True, slots=True)
class EventBatch:
    """Room events after a seq: ``gap`` when the log no longer reaches back that far."""

    seq: int
    gap: bool
    events: list[tuple[int, str]]


class Store(Protocol):
    """The store interface; see :mod:`stalactites.store.rooms.memory` and ``.redis``."""

    @property
    def results(self) -> ResultsLog:
        """Finished races to record, and the rooms' deadlines (:mod:`..results.base`)."""
        ...

    bells_carry: bool
    """Whether a commit's doorbell carries what it stored (:class:`Carried`): then the action
    stream need not be read for each commit's action (only after a lost bell)."""

    async def ping(self) -> bool:
        """Whether the store answers."""
        ...

    async def close(self) -> None: ...

    async def create_room(self, room: NewRoom, ttl_ms: int) -> None:
        """Store a new room in ``waiting``; its keys expire ``ttl_ms`` after the last change."""
        ...

    async def open_round(self, round_room: RoundRoom, ttl_ms: int) -> bool:
        """Store a round's room whole (see :class:`RoundRoom`); False if the id is taken (as
        when a repeat of this very call finds it done)."""
        ...

    async def open_rematch(self, rematch: RematchRoom, ttl_ms: int) -> bool:
        """Store a rematch's room whole (see :class:`RematchRoom`); False if the id is taken."""
        ...

    async def load_room(self, room_id: str, now_ms: int) -> RoomRow | None:
        """A consistent snapshot of the room, or None."""
        ...

    async def join(self, room_id: str, player: NewPlayer) -> JoinResult:
        """Seat a player while the room is waiting and has a free seat (never in a round's
        or a rematch's room: ``SEATS_RESERVED``)."""
        ...

    async def ready(
        self,
        room_id: str,
        player_id: str,
        event_json: str,
        starts_at: int,
        ends_at: int,
        countdown_event: str,
    ) -> ReadyResult:
        """Mark a player ready; when every seat is taken and ready, begin the countdown with the
        given times and event."""
        ...

    async def start(self, room_id: str, now_ms: int, started_event: str) -> bool:
        """Counting down and ``now_ms`` >= starts_at: the race is on.  Whether this call did it."""
        ...

    async def commit(self, commit: Commit) -> CommitResult:
        """Apply one action (see :class:`Commit`) atomically."""
        ...

    async def finish(self, finish: Finish) -> FinishResult:
        """End a race atomically (see :class:`Finish`)."""
        ...

    async def keep_room(self, room_id: str, player_ids: list[str]) -> None:
        """Keep a finished room (its record and events) for good: no expiry from now on."""
        ...

    async def read_log(self, room_id: str, player_id: str, start: int = 0) -> list[str]:
        """The player's actions from index ``start``."""
        ...

    async def action_index(self, room_id: str, player_id: str, client_id: str) -> int | None:
        """The log length right after the action with this client id, if it was accepted."""
        ...

    async def events_since(self, room_id: str, seq: int, limit: int | None = None) -> EventBatch:
        """The room events after ``seq`` (the first ``limit`` of them)."""
        ...

    async def touch_presence(
        self, room_id: str, player_id: str, connection_id: str, until_ms: int
    ) -> None:
        """Count the player connected through this connection until ``until_ms``."""
        ...

    async def drop_presence(self, room_id: str, player_id: str, connection_id: str) -> None: ...

    async def touch_leases(
        self,
        room_id: str,
        players: Sequence[tuple[str, str]],
        watchers: Sequence[str],
        until_ms: int,
    ) -> None:
        """Renew many of the room's leases at once, all until ``until_ms``: each (player,
        connection)'s presence (:meth:`touch_presence`) and each spectator connection's
        (:meth:`touch_watcher`)."""
        ...

    async def announce_presence(
        self, room_id: str, player_id: str, now_ms: int, events: tuple[str, str]
    ) -> bool:
        """Append ``events[0]`` (connected) or ``events[1]`` (not) when whether the player holds
        a live presence lease differs from what was last announced of them (at first: not
        connected); nothing once the race has finished.  Whether an event was appended."""
        ...

    async def read_actions(self, room_id: str, start: int = 0) -> list[ActionRow]:
        """The room's action stream from index ``start``: every action a commit appended to a
        player's log, with its commit time, in the order they were stored."""
        ...

    async def touch_watcher(self, room_id: str, connection_id: str, until_ms: int) -> None:
        """Count this spectator connection until ``until_ms``."""
        ...

    async def drop_watcher(self, room_id: str, connection_id: str) -> None: ...

    async def announce_watchers(self, room_id: str, now_ms: int, gap_ms: int) -> int | None:
        """Append a ``spectators`` room event when the number of spectators (live leases)
        differs from the last one announced, at most once every ``gap_ms``, never once the
        race has finished.  None when nothing is left to announce; else the time (unix ms)
        from which to try again."""
        ...

    async def list_rooms(
        self, name: str, after: tuple[int, str] | None, limit: int, now_ms: int
    ) -> RoomPage:
        """Up to ``limit`` rooms of a list of :data:`ROOM_LISTS`, newest first, after the
        cursor ``after``."""
        ...

    async def count_rooms(self, now_ms: int) -> dict[str, int]:
        """How many rooms each list of :data:`ROOM_LISTS` holds (on Redis the lists are hints:
        a room that changed or expired is counted until a read of its list mends it)."""
        ...

    async def subscribe(self, room_id: str, bell: Bell) -> None:
        """Call ``bell(seq, ring)`` whenever the room gets new events (one bell per room)."""
        ...

    async def unsubscribe(self, room_id: str, bell: Bell) -> None:
        """Stop ringing ``bell`` (a later subscription's bell is left alone)."""
        ...

    async def rematch(
        self, room_id: str, new_room_id: str, event_json: str, by: str = ""
    ) -> str | None:
        """Make ``new_room_id`` the finished room's rematch, proposed ``by`` a player, and
        append ``event_json`` (the ``rematch`` event), unless it has one already: the one
        rematch room's id either way
        (None: no such room, or not finished).  Atomic: one rematch however many propose."""
        ...

    async def count_hint(self, room_id: str, player_id: str) -> int:
        """Count a hint given to the player in the room; how many so far (0: no such room)."""
        ...

    async def hints_given(self, room_id: str, player_id: str) -> int:
        """How many hints the player was given in the room."""
        ...

    async def keep_analysis(self, room_id: str, analysis_json: str) -> str | None:
        """Keep a finished room's analysis beside its record, unless one is kept already (the
        first writer wins); the analysis kept, or None when the room is gone."""
        ...

    async def read_analysis(self, room_id: str) -> str | None:
        """The room's kept analysis, or None."""
        ...

    async def keep_board_verdict(self, room_id: str, position: str, verdict: str) -> str | None:
        """Keep whether a board shown to the room's spectators can still be won, by position
        (a digest of the position's key), unless one is kept already (the first writer wins,
        so every process shows the same); the verdict kept, or None when the room is gone.
        Kept while the room is, and an hour at most after the last verdict kept."""
        ...

    async def read_board_verdict(self, room_id: str, position: str) -> str | None:
        """The verdict kept for that position of the room, or None."""
        ...
