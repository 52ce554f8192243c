"""Room settings: the body of ``POST /api/rooms`` and what a room stores about itself."""

from __future__ import annotations

import datetime
import secrets
from typing import TYPE_CHECKING, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
)

from ..engine import DealId, EngineError, GameName
from ..engine.records import deal_commitment
from ..players.names import PrintableName
from ..players.races import RoundOf
from ..protocol.room import GameField, RoomStatus
from .ghost_seat import GhostSeat
from .rating import unrateable

if TYPE_CHECKING:
    from ..store import RoomRow

__all__ = [
    "DEFAULT_DELAY_S",
    "LARGE_ROOM_SEATS",
    "QUICK_CONNECT_MS",
    "SALT_BYTES",
    "CreateRoom",
    "JoinRoom",
    "AskHint",
    "TakeSeat",
    "RoomSettings",
    "new_salt",
    "next_deadline",
    "quick_deadline",
]

DEFAULT_DELAY_S = 30  # spectators' delay in rooms of two or more seats, unless set
QUICK_CONNECT_MS = 10_000  # a quick race's seat not connected this long after the match: out
LARGE_ROOM_SEATS = 8  # rooms with more seats (tournament rounds) fan out cheaply
SALT_BYTES = 16  # the random salt of a room's deal commitment


def new_salt() -> str:
    """A fresh salt for a deal commitment: random bytes from :mod:`secrets`, as lowercase hex."""
    return secrets.token_hex(SALT_BYTES)


class CreateRoom(BaseModel):
    """``POST /api/rooms``: every field optional."""

    model_config = ConfigDict(extra="forbid", strict=True)

    game: GameField = GameName.STALACTITES
    step: Literal["choice", "ones", "twos"] | None = Field(
        default=None, description="stalactites only; default choice"
    )
    deal: str | None = Field(
        default=None, max_length=32, description="a deal id; default: the server picks one"
    )
    seats: int = Field(default=2, ge=1, le=8)
    time_limit_s: int = Field(default=900, ge=60, le=7200)
    undo: bool | None = Field(
        default=None, description="default on for stalactites, off for squadron"
    )
    countdown_s: int = Field(default=5, ge=0, le=30)
    spectator_delay_s: int | None = Field(
        default=None,
        ge=0,
        le=300,
        description="how far behind the racers spectators see the boards during the race; "
        "default 30 with two or more seats, 0 for a solo room",
    )

    autoplay: bool = Field(
        default=False,
        description="the auto-play assist: the client plays a card to the foundations by itself "
        "when no choice is lost by it (each such move is sent and checked like any other); "
        "off unless asked for, in a solo room as in a race",
    )
    private: bool = Field(
        default=False,
        description="never listed in the lobby: joined by its link only",
    )
    rated: bool = Field(
        default=False,
        description="rate the race: two seats or more, the server's certified deal (no "
        "'deal'), and every seat taken with a player's session",
    )

    @field_validator("rated")
    @classmethod
    def _rateable(cls, value: bool, info: ValidationInfo) -> bool:
        why = unrateable(info.data.get("deal"), info.data.get("seats", 2))
        if value and why is not None:
            raise ValueError(why)
        return value

    @field_validator("deal")
    @classmethod
    def _deal_id(cls, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            return str(DealId.parse(value))
        except EngineError as error:
            raise ValueError(str(error)) from None

    @field_validator("step")
    @classmethod
    def _step_for_stalactites(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value not in (None, "choice") and info.data.get("game") == GameName.SQUADRON:
            raise ValueError("squadron has no foundation step")
        return value


class JoinRoom(BaseModel):
    """``POST /api/rooms/{room_id}/players`` (and a tournament's entry)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: PrintableName = Field(min_length=1, max_length=24)


class TakeSeat(BaseModel):
    """``POST /api/rooms/{room_id}/players``: as :class:`JoinRoom`, but with a player's session
    ``name`` is optional (the player's own by default) and the seat is that player's."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: PrintableName | None = Field(default=None, min_length=1, max_length=24)


class AskHint(BaseModel):
    """``POST /api/rooms/{room_id}/hint``: the seat's token (as in the socket's hello)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    token: str = Field(min_length=1, max_length=128)


class RoomSettings(BaseModel):
    """What a room keeps about itself (stored as JSON; never changes after creation)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    game: GameField
    step: Literal["choice", "ones", "twos"] | None
    deal: str
    seats: int
    time_limit_s: int
    undo: bool
    countdown_s: int
    certified: bool
    solution: dict[str, list[str]] | None
    spectator_delay_s: int | None = None  # None: the default for the number of seats
    salt: str | None = None  # the deal commitment's salt (None: a room made before commitments)
    rated: bool = False  # every seat a player with a session; ratings change at the results
    autoplay: bool = False  # the client's auto-play assist to the foundations is on
    round_of: RoundOf | None = None  # a tournament round's room: which tournament and round
    # (the players' RoundOf: what its players' history entries say)
    ghost: GhostSeat | None = None  # a seat replaying a recorded run (stalactites.ghosts)
    private: bool = False  # never listed: joined by its link only (rematches, daily attempts)
    daily: str | None = None  # a daily deal's attempt: "game|date|attempt" (official or not
    # as it starts: stalactites.daily); rooms made before: "...|official" or "...|practice"
    quick: bool = False  # a quick race (the matchmaker's): see stalactites.matchmaking
    pool: str = ""  # a quick race's pool: "" humans, "bots", "marked" (stalactites.fairplay)
    arena: str | None = Field(default=None, exclude_if=lambda value: value is None)  # an
    # arena's race: which arena (stalactites.arenas)
    # A kept room's archived settings: its lines' digest, the lines dropped (found again by
    # stalactites.rooms.solutions); never written for a room that has its lines.
    solution_digest: str | None = Field(default=None, exclude_if=lambda value: value is None)

    @property
    def commitment(self) -> str | None:
        """SHA-256 of ``f"{deal}|{salt}"``, published from the room's creation (None: no salt)."""
        return None if self.salt is None else deal_commitment(self.deal, self.salt)

    @property
    def deal_chosen(self) -> bool:
        """The room's creator (or a tournament's organiser) chose the deal and may have studied
        it: the server did not deal it, so it was not certified either.  Such a room is never
        rated (:func:`stalactites.rooms.rating.may_be_rated`)."""
        return not self.certified

    def deal_withheld(self, now_ms: int) -> bool:
        """A daily deal's attempt keeps its deal secret until its UTC day is over (its replay,
        record, view, welcome and results), from its own player too, so that nobody learns
        the day's deal and its lines from a finished attempt, practice or another's."""
        if self.daily is None:
            return False
        day = datetime.datetime.fromtimestamp(now_ms / 1000, datetime.UTC).date().isoformat()
        return self.daily.split("|")[1] >= day

    @property
    def counts(self) -> str | None:
        """What makes this room's race count (rated, a daily deal's attempt, a tournament
        round), as a phrase; None: practice.  A race that counts gives no help: no hints,
        and spectators see a racer's board only once that racer has finished.  Every daily
        attempt counts: a practice one is played while the day's official race may be on."""
        if self.rated:
            return "a rated race"
        if self.daily is not None:
            return "a daily deal's attempt"
        if self.round_of is not None:
            return "a tournament round"
        return None

    @property
    def delay_s(self) -> int:
        """How far behind the racers spectators see the boards during the race."""
        if self.spectator_delay_s is not None:
            return self.spectator_delay_s
        return DEFAULT_DELAY_S if self.seats >= 2 else 0  # rooms made elsewhere (tournaments)

    @property
    def large(self) -> bool:
        """More seats than ``POST /api/rooms`` gives (a tournament round): progress goes out
        batched, and the results alone finish whoever is still racing when time runs out."""
        return self.seats > LARGE_ROOM_SEATS

    @classmethod
    def resolve(
        cls,
        body: CreateRoom,
        deal: str,
        certified: bool,
        solution: dict[str, list[str]] | None,
        salt: str,
    ) -> RoomSettings:
        stalactites = body.game == GameName.STALACTITES
        return cls(
            game=body.game,
            step=(body.step or "choice") if stalactites else None,
            deal=deal,
            seats=body.seats,
            time_limit_s=body.time_limit_s,
            undo=stalactites if body.undo is None else body.undo,
            countdown_s=body.countdown_s,
            certified=certified,
            solution=solution,
            spectator_delay_s=_delay(body),
            salt=salt,
            rated=body.rated and certified,
            autoplay=body.autoplay,
            private=body.private,
        )


def _delay(body: CreateRoom) -> int:
    if body.spectator_delay_s is not None:
        return body.spectator_delay_s
    return DEFAULT_DELAY_S if body.seats >= 2 else 0


def quick_deadline(row: RoomRow, settings: RoomSettings) -> int | None:
    """When a waiting quick race stops waiting for its seats to connect (unix ms), if it is one."""
    if not settings.quick or row.status != RoomStatus.WAITING:
        return None
    return row.created_ms + QUICK_CONNECT_MS


def next_deadline(row: RoomRow) -> int | None:
    """When the room's next deadline falls (unix ms), if it has one; a waiting quick race's
    is the end of its seats' time to connect."""
    if row.status == RoomStatus.WAITING:
        return quick_deadline(row, RoomSettings.model_validate_json(row.settings_json))
    if row.status == RoomStatus.COUNTDOWN:
        return row.starts_at
    if row.status == RoomStatus.RACING:
        return row.ends_at
    return None
