"""The tournament protocol: the ``/ws/tournaments/{id}`` frames and the tournament views.

Like :mod:`stalactites.protocol` for rooms: each frame a strict pydantic model
told apart by ``"type"``, one parser for client frames
(:data:`TOURNAMENT_CLIENT_FRAMES`) and one union of server frames
(:data:`TOURNAMENT_SERVER_FRAMES`) that outside clients and the tests check
against.  Tournament events (``round_started``, ``round_finished``,
``finished``) carry ``seq``, one more per event in the tournament;
``standings`` frames carry none: they are sent at most once a second, with
live points during a round.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from .room import GameField

__all__ = [
    "TOURNAMENT_CLIENT_FRAMES",
    "TOURNAMENT_ERROR_CODES",
    "TOURNAMENT_EVENTS",
    "TOURNAMENT_SERVER_FRAMES",
    "CurrentRound",
    "RoundFinished",
    "RoundLine",
    "RoundRecord",
    "RoundStarted",
    "StandingsFrame",
    "TournamentClientFrame",
    "TournamentCreated",
    "TournamentEntry",
    "TournamentErrorCode",
    "TournamentErrorFrame",
    "TournamentFinished",
    "TournamentHello",
    "TournamentListing",
    "TournamentPing",
    "TournamentPong",
    "TournamentServerFrame",
    "TournamentStanding",
    "TournamentStatus",
    "TournamentView",
    "TournamentWelcome",
]

TournamentErrorCode = Literal[
    "bad_message",
    "unauthorized",
    "tournament_not_found",
    "tournament_full",
    "already_started",
    "already_entered",
    "rate_limited",
    "internal",
]

TOURNAMENT_ERROR_CODES: dict[str, str] = {
    "bad_message": "a body or frame that is not JSON, too large, of an unknown type or with "
    "wrong fields",
    "unauthorized": "a bad admin token (HTTP 401), an entry with a session that is not alive "
    "(HTTP 401), or a bad hello on the tournament socket (then closed with 1008)",
    "tournament_not_found": "no tournament has this id",
    "tournament_full": "the tournament has max_players entrants",
    "already_started": "entering or starting a tournament that has already started",
    "already_entered": "a player with a session entering a tournament they have entered already",
    "rate_limited": "too many tournaments (and rooms) created, or entries (and seats) taken, from "
    "one client address: HTTP 429 with Retry-After",
    "internal": "the server failed; try again",
}

TournamentStatus = Literal["scheduled", "running", "break", "finished"]
TOURNAMENT_EVENTS = ("round_started", "round_finished", "finished")


class Frame(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# Client frames.


class TournamentHello(Frame):
    """The first frame: an entrant's ``token``, or ``"spectator": true`` to watch."""

    type: Literal["hello"]
    token: str | None = Field(default=None, min_length=1, max_length=128)
    spectator: bool = False
    last_seq: int | None = Field(
        default=None, ge=0, description="the last tournament event seen, when reconnecting"
    )

    @model_validator(mode="after")
    def _one_identity(self) -> TournamentHello:
        if (self.token is None) == (not self.spectator):
            raise ValueError("give a token, or spectator true (not both)")
        return self


class TournamentPing(Frame):
    """Answered by ``pong``."""

    type: Literal["ping"]


TournamentClientFrame = Annotated[TournamentHello | TournamentPing, Field(discriminator="type")]

TOURNAMENT_CLIENT_FRAMES: TypeAdapter[TournamentClientFrame] = TypeAdapter(TournamentClientFrame)


# Views.


class TournamentStanding(Frame):
    """One line of the standings: points, then rounds won, then total time decide the rank."""

    player_id: str
    name: str
    points: int
    rounds_won: int
    total_time_ms: int = Field(description="a won round's elapsed time, else the whole round")
    rank: int = Field(description="equal points, rounds won and total time share a rank")


class RoundLine(Frame):
    """One entrant's result in one round."""

    player_id: str
    name: str
    place: int
    status: Literal["won", "lost", "resigned", "timeout"]
    foundation_cards: int
    moves: int
    elapsed_ms: int
    points: int = Field(description="foundation cards, plus for a win one per full 10 s left")


class RoundRecord(Frame):
    """A round: its room and times; the deal and results once it has finished."""

    round: int
    room_id: str
    started_at: int
    ends_at: int
    finished: bool
    ended_at: int | None = Field(
        default=None, description="when the round was decided over (unix ms), once finished"
    )
    deal: str | None = Field(description="null until the round has finished")
    commitment: str | None = Field(
        default=None,
        description="SHA-256 of 'deal|salt', published as the round starts (see the room's)",
    )
    salt: str | None = Field(
        default=None, description="the commitment's salt, null until the round has finished"
    )
    certified: bool = Field(description="the deal was certified winnable by the solver")
    deal_chosen: bool = Field(
        default=False,
        description="the organiser chose the round's deal (the opposite of certified): the "
        "round is never rated",
    )
    results: list[RoundLine] = Field(description="best first; empty until the round has finished")


class CurrentRound(Frame):
    """The round in play."""

    round: int
    room_id: str
    ends_at: int


class TournamentView(Frame):
    """The public view of a tournament (``GET /api/tournaments/{id}`` answers exactly this)."""

    tournament_id: str
    name: str
    game: GameField
    step: Literal["choice", "ones", "twos"] | None = Field(description="null for squadron")
    rounds: int = Field(description="how many rounds the tournament has")
    round_time_s: int
    break_s: int
    max_players: int
    starts_at: int | None = Field(description="unix ms; null until the organiser starts it")
    status: TournamentStatus
    entrants: int
    round: int | None = Field(description="the round in play or just played; null before")
    current_round: CurrentRound | None = Field(description="null unless a round is in play")
    break_ends_at: int | None = Field(description="during a break: when the next round starts")
    round_results: list[RoundRecord] = Field(description="every round begun so far, in order")
    standings: list[TournamentStanding] = Field(description="after the rounds finished so far")


class TournamentListing(Frame):
    """A tournament in the lists (``GET /api/tournaments?status=``): what the lobby shows."""

    tournament_id: str
    name: str
    game: GameField
    step: Literal["choice", "ones", "twos"] | None = Field(description="null for squadron")
    rounds: int
    round_time_s: int
    status: TournamentStatus
    entrants: int
    max_players: int
    starts_at: int | None = Field(description="unix ms; null until the organiser starts it")
    round: int | None = Field(description="the round in play or just played; null before")
    ends_at: int | None = Field(description="while a round is in play: when it ends")
    break_ends_at: int | None = Field(description="during a break: when the next round starts")
    deals_chosen: bool = Field(
        description="the organiser chose the rounds' deals (uncertified, never rated)"
    )


class TournamentCreated(Frame):
    """The answer to ``POST /api/tournaments``: the admin token is shown only here."""

    tournament_id: str
    admin_token: str


class TournamentEntry(Frame):
    """The answer to ``POST /api/tournaments/{id}/players``: keep the token."""

    player_id: str
    token: str


# Server frames.


class TournamentWelcome(Frame):
    """The answer to hello.  ``you`` is null for a spectator.  Fresh, ``seq`` is the latest
    tournament event; resumed (``last_seq`` given), it echoes it and the events after follow."""

    type: Literal["welcome"]
    you: str | None
    seq: int
    resumed: bool
    tournament: TournamentView


class RoundStarted(Frame):
    """Tournament event: a round is on.  Entrants play it on the room's socket with their
    tournament token; everyone is seated and the race has begun (no ``ready``)."""

    type: Literal["round_started"]
    seq: int
    round: int
    room_id: str
    ends_at: int
    commitment: str | None = Field(
        description="the round's deal commitment, SHA-256 of 'deal|salt' (docs/fairness.md)"
    )


class RoundFinished(Frame):
    """Tournament event: every entrant was done, or the round's time ran out.  The results
    of the round (best first) and the standings after it."""

    type: Literal["round_finished"]
    seq: int
    round: int
    room_id: str
    ended_at: int = Field(description="when the server decided the round was over")
    deal: str
    salt: str | None = Field(description="the salt of the round's deal commitment, revealed")
    results: list[RoundLine]
    standings: list[TournamentStanding] = Field(description="after this round")


class TournamentFinished(Frame):
    """Tournament event, the last: the final standings."""

    type: Literal["finished"]
    seq: int
    standings: list[TournamentStanding]


class StandingsFrame(Frame):
    """The standings, at most once a second: after each round, and live during one (``live``:
    the round in play counted as if it ended now)."""

    type: Literal["standings"]
    round: int | None
    live: bool
    standings: list[TournamentStanding]


class TournamentErrorFrame(Frame):
    """Something the client sent was refused."""

    type: Literal["error"]
    code: TournamentErrorCode
    message: str


class TournamentPong(Frame):
    """The answer to ping."""

    type: Literal["pong"]


TournamentServerFrame = Annotated[
    TournamentWelcome
    | RoundStarted
    | RoundFinished
    | TournamentFinished
    | StandingsFrame
    | TournamentErrorFrame
    | TournamentPong,
    Field(discriminator="type"),
]

TOURNAMENT_SERVER_FRAMES: TypeAdapter[TournamentServerFrame] = TypeAdapter(TournamentServerFrame)
