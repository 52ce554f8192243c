"""Arenas' messages: the HTTP body and answers, and the arena socket's frames
(``/ws/arenas/{arena_id}``).  Strict pydantic models, frames told apart by ``"type"``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from ..arenas import state
from ..arenas.state import Arena, Entrant
from ..engine import GameName
from ..players.names import PrintableName
from .room import GameField

__all__ = [
    "ARENA_CLIENT_FRAMES",
    "ARENA_ERROR_CODES",
    "ArenaClientFrame",
    "ArenaEnded",
    "ArenaErrorFrame",
    "ArenaHello",
    "ArenaLine",
    "ArenaPing",
    "ArenaPong",
    "ArenaServerFrame",
    "ArenaStandings",
    "ArenaSummary",
    "ArenaWelcome",
    "CreateArena",
    "Paired",
    "line_of",
    "summary_of",
]


class Frame(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


ArenaStatus = Literal["scheduled", "running", "finished"]

ARENA_ERROR_CODES: dict[str, str] = {
    "bad_message": "a frame that is not JSON, too large, of an unknown type or with wrong fields",
    "unauthorized": "a hello whose session is not live, or anything but hello first "
    "(then close 1008)",
    "not_found": "no such arena (then close 1008)",
    "rate_limited": "too many frames; closing",
    "internal": "the server failed; try again",
}


class CreateArena(Frame):
    """A new arena: it starts at ``starts_ms`` (now if absent) and lasts ``duration_min``."""

    name: PrintableName = Field(min_length=1, max_length=60)
    game: GameField = GameName.STALACTITES
    step: Literal["choice", "ones", "twos"] | None = None
    duration_min: int = Field(default=60, ge=10, le=180)
    time_limit_s: int = Field(default=300, ge=60, le=1800, description="each race's")
    seats: int = Field(default=2, ge=2, le=4, description="racers in each race")
    rated: bool = True
    min_rating: int | None = Field(default=None, ge=0, le=5000)
    max_rating: int | None = Field(default=None, ge=0, le=5000)
    starts_ms: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _fits(self) -> CreateArena:
        if self.game == GameName.SQUADRON and self.step is not None:
            raise ValueError("step: Squadron has no step")
        low, high = self.min_rating, self.max_rating
        if low is not None and high is not None and low > high:
            raise ValueError("min_rating: above max_rating")
        return self


class ArenaSummary(Frame):
    arena_id: str
    name: str
    game: GameField
    step: Literal["choice", "ones", "twos"] | None
    duration_min: int
    time_limit_s: int
    seats: int
    rated: bool
    min_rating: int | None
    max_rating: int | None
    starts_ms: int
    ends_ms: int
    status: ArenaStatus
    entrants: int
    recurring: str | None


class ArenaLine(Frame):
    """An entrant's line of the standings."""

    rank: int
    player_id: str
    name: str
    score: int
    races: int
    wins: int
    streak: int
    fire: bool = Field(description="the streak is on fire: the next win counts double")
    paused: bool
    racing: bool
    performance: int | None = Field(description="the linear performance rating (races run)")
    berserk: bool = Field(description="racing berserk now: half the time, no undo")
    berserk_rate: float = Field(description="the share of their races scored raced berserk")


class ArenaHello(Frame):
    """The first frame: an entrant's session (``"session": true`` for the cookie, or
    ``token``), or neither to watch."""

    type: Literal["hello"]
    token: str | None = Field(default=None, min_length=1, max_length=128)
    session: bool = False


class ArenaPing(Frame):
    type: Literal["ping"]


class ArenaWelcome(Frame):
    type: Literal["welcome"]
    arena: ArenaSummary
    you: ArenaLine | None = Field(description="the entrant's line (null: a spectator)")
    room_id: str | None = Field(description="the entrant's race now")
    token: str | None


class ArenaStandings(Frame):
    """At most once a second while they change: the top ten, your line, the top race."""

    type: Literal["standings"]
    status: ArenaStatus
    top: list[ArenaLine]
    you: ArenaLine | None
    entrants: int
    top_race: str | None = Field(
        description="the race between the two best placed entrants racing now, to watch"
    )


class Paired(Frame):
    """Your next race: say ``hello`` on ``/ws/rooms/{room_id}`` with ``token``."""

    type: Literal["paired"]
    arena_id: str
    room_id: str
    token: str


class ArenaEnded(Frame):
    """The arena is over (its time is up and its last race scored): the podium."""

    type: Literal["ended"]
    podium: list[ArenaLine]
    you: ArenaLine | None


class ArenaPong(Frame):
    type: Literal["pong"]


class ArenaErrorFrame(Frame):
    type: Literal["error"]
    code: str
    message: str


ArenaClientFrame = Annotated[ArenaHello | ArenaPing, Field(discriminator="type")]
ARENA_CLIENT_FRAMES: TypeAdapter[ArenaClientFrame] = TypeAdapter(ArenaClientFrame)
ArenaServerFrame = Annotated[
    ArenaWelcome | ArenaStandings | Paired | ArenaEnded | ArenaPong | ArenaErrorFrame,
    Field(discriminator="type"),
]


def status_of(arena: Arena, now: int) -> ArenaStatus:
    if now < arena.settings.starts_ms:
        return "scheduled"
    return "finished" if state.ending(arena, now) else "running"


def summary_of(arena: Arena, now: int) -> ArenaSummary:
    s = arena.settings
    return ArenaSummary(
        arena_id=arena.arena_id,
        name=s.name,
        game=s.game,
        step=s.step,
        duration_min=s.duration_min,
        time_limit_s=s.time_limit_s,
        seats=s.seats,
        rated=s.rated,
        min_rating=s.min_rating,
        max_rating=s.max_rating,
        starts_ms=s.starts_ms,
        ends_ms=s.ends_ms,
        status=status_of(arena, now),
        entrants=max(arena.count, len(arena.entrants)),
        recurring=s.recurring,
    )


def line_of(entrant: Entrant, rank: int) -> ArenaLine:
    return ArenaLine(
        rank=rank,
        player_id=entrant.player_id,
        name=entrant.name,
        score=entrant.score,
        races=entrant.races,
        wins=entrant.wins,
        streak=entrant.streak,
        fire=entrant.fire,
        paused=entrant.paused,
        racing=entrant.room_id is not None,
        performance=state.performance(entrant),
        berserk=entrant.room_id is not None and entrant.room_id in entrant.berserk,
        berserk_rate=round(entrant.berserks / entrant.races, 3) if entrant.races else 0.0,
    )
