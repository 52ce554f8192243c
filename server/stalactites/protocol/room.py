"""The wire protocol: every websocket frame as a pydantic model, and the error codes.

Frames are JSON objects told apart by ``"type"``.  Client frames form one
discriminated union parsed by :data:`CLIENT_FRAMES` (the only parser the
server uses on input); server frames form another, :data:`SERVER_FRAMES`,
which outside clients and the tests use to check what the server sends.
Every model forbids unknown fields and parses strictly (``"5"`` is not 5).

Room events (``player``, ``spectators``, ``countdown``, ``started``,
``progress``, ``finished``, ``results``) carry ``seq``, which increases by one
per event in the room; ``board`` and ``board_verdict`` frames (to spectators only) carry
none.
``docs/protocol.md`` is generated from this module.
"""

from __future__ import annotations

import enum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from ..engine import GameName

__all__ = [
    "CLIENT_FRAMES",
    "ERROR_CODES",
    "SERVER_FRAMES",
    "Accepted",
    "BoardEvent",
    "BoardVerdict",
    "ClientFrame",
    "Countdown",
    "DeclareStep",
    "ErrorCode",
    "ErrorFrame",
    "Finished",
    "Hello",
    "MoveFrame",
    "Ping",
    "PlayerEvent",
    "PlayerStatus",
    "PlayerView",
    "PositionVerdict",
    "Pong",
    "Progress",
    "ProgressBatch",
    "Ready",
    "Rejected",
    "Resign",
    "RematchEvent",
    "Results",
    "RoomStatus",
    "RoomView",
    "RoundOfView",
    "ServerFrame",
    "Presence",
    "Spectators",
    "Standing",
    "Started",
    "SquadronBoard",
    "Synced",
    "StalactitesBoard",
    "Undo",
    "Welcome",
]

ErrorCode = Literal[
    "bad_message",
    "unauthorized",
    "room_not_found",
    "room_full",
    "seats_reserved",
    "not_started",
    "already_finished",
    "not_waiting",
    "invalid_move",
    "illegal_move",
    "step_locked",
    "undo_disabled",
    "rate_limited",
    "idle",
    "retry",
    "room_gone",
    "internal",
    "already_seated",
    "name_confusable",
    "session_required",
    "not_finished",
    "hint_solo_only",
    "hints_off",
    "run_not_found",
    "own_run",
    "not_certified",
    "no_daily",
    "day_over",
]

ERROR_CODES: dict[str, str] = {
    "bad_message": "a frame that is not JSON, too large, of an unknown type or with wrong fields; "
    "the connection survives a few of them",
    "unauthorized": "a bad token, no hello in time, or anything but hello as the first frame "
    "(the socket is then closed with 1008); or a move, undo, step declaration, ready or "
    "resignation from a spectator (the socket stays open)",
    "room_not_found": "no room has this id",
    "room_full": "the room takes no more players: every seat is taken or the race has begun",
    "seats_reserved": "a seat asked for in a tournament round's or a rematch's room: its seats "
    "are its entrants' or the finished race's players', all taken as it opens (such rooms are "
    "never in the room lists)",
    "not_started": "a move before the race has started (or a record before it has finished)",
    "already_finished": "a move, undo, step declaration, resignation or ready after the race "
    "ended (the server clock rules) or after the player finished",
    "not_waiting": "a ready once the countdown has begun or the race is on (everyone racing was "
    "ready already)",
    "invalid_move": "text that is not a move at all, such as 't3f1'",
    "illegal_move": "a move the rules do not allow here, or an undo with nothing to take back",
    "step_locked": "a step declaration once the foundation step is fixed",
    "undo_disabled": "an undo in a room that does not allow undo",
    "rate_limited": "too many moves too fast (per connection or per client address); wait and "
    "send again; a connection that keeps on is closed with 1008.  Over HTTP: 429, too many "
    "rooms (daily attempts among them), tournaments or analyses asked for or seats taken "
    "from one address, or too many hints for one seat (with `Retry-After`)",
    "idle": "a spectator socket that sent nothing, not even `ping`, for 60 s "
    "(`STALACTITES_SPECTATOR_IDLE_S`); the socket is then closed with 4408",
    "retry": "a move, undo or declaration that could not be stored because the player's log "
    "kept changing under it (another socket of the same player); nothing changed: send it "
    "again with the same `id`",
    "room_gone": "the room was lost by the store after the socket's hello (its data expired or "
    "was wiped); the socket is then closed with 1008: go back to the lobby",
    "internal": "the server failed; the socket is closed with 1011 and the client may reconnect",
    "already_seated": "over HTTP, 409: a second seat in one room for the same signed-in player",
    "name_confusable": "over HTTP, 409: a name that looks like (has the same Unicode skeleton "
    "as) the name of a player seated in the room already",
    "session_required": "over HTTP, 401: a seat in a rated room without a player's session",
    "not_finished": "an analysis asked for before the race has finished (it would be a hint); "
    "over HTTP, 409: a ghost asked of a race that has not finished, a rematch proposed before "
    "it, or a daily deal attempt's record before its day is over",
    "hint_solo_only": "over HTTP, 403: a hint asked for in a room with more than one seat (hints "
    "are for solo practice, never for a race with others)",
    "hints_off": "over HTTP, 403: a hint asked for in a race that counts (rated, a daily "
    "deal's attempt, a tournament round): no help there, ever",
    "run_not_found": "over HTTP, 404: a ghost asked of a seat the room does not have, or a run "
    "without its actions' times",
    "own_run": "over HTTP, 409: a ghost asked of one's own run",
    "not_certified": "over HTTP, 409: a ghost asked of a run on a deal the server did not "
    "certify (a chosen deal)",
    "no_daily": "over HTTP, 404: a daily deal asked for a game that has none (the games: "
    "stalactites, squadron)",
    "day_over": "a `ready` in a daily deal's attempt once its UTC day is over (its deal is "
    "published): the attempt never starts; make a new attempt at today's deal",
}


class RoomStatus(enum.StrEnum):
    """A room's status: as sent, as stored (the Lua scripts write the same strings)."""

    WAITING = "waiting"
    COUNTDOWN = "countdown"
    RACING = "racing"
    FINISHED = "finished"


GameField = Annotated[GameName, Field(strict=False)]  # a game by name (a string on the wire)
PlayerStatus = Literal["waiting", "playing", "won", "lost", "resigned", "timeout"]
BoardStatus = Literal["playing", "won", "lost"]

ClientId = Annotated[str, Field(min_length=1, max_length=64)]


class Frame(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# Client frames.


class Hello(Frame):
    """The first frame on a socket: who you are (a player's ``token``, or ``"spectator": true``
    to watch), and the last room event you saw."""

    type: Literal["hello"]
    token: str | None = Field(default=None, min_length=1, max_length=128)
    spectator: bool = Field(default=False, description="watch the room: no token, no moves")
    session: bool = Field(
        default=False,
        description="be the signed-in player's seat, the session taken from the handshake's "
        "cookie (the web client); ``token`` may also be a player's session token",
    )
    last_seq: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _one_identity(self) -> Hello:
        if [self.token is not None, self.spectator, self.session].count(True) != 1:
            raise ValueError("give a token, or spectator true, or session true (one of them)")
        return self


class Ready(Frame):
    """This player is ready; the race starts once every seat is taken and everyone is ready.
    Answered only by the ``player`` event (nothing, if already ready); once the countdown has
    begun it gets an ``error`` at once: ``not_waiting``, or ``already_finished`` for a player
    who has finished or a race that is over."""

    type: Literal["ready"]


class MoveFrame(Frame):
    """Play a move, in the project's notation (``t3-f1``, ``s-w``, ``t2-t7:3``)."""

    type: Literal["move"]
    id: ClientId = Field(
        description="client move id, unique per player; a re-sent id gets the "
        "original answer and is never applied twice"
    )
    move: str = Field(min_length=1, max_length=32)


class DeclareStep(Frame):
    """Stalactites in a ``choice`` room: fix the foundation step before any foundation play."""

    type: Literal["declare_step"]
    step: Literal["ones", "twos"]
    id: ClientId | None = Field(default=None, description="optional, as for move")


class Undo(Frame):
    """Take back this player's last move (rooms with undo on)."""

    type: Literal["undo"]
    id: ClientId


class Resign(Frame):
    """Stop racing; the player is finished with status ``resigned``."""

    type: Literal["resign"]


class Ping(Frame):
    """Answered by ``pong``."""

    type: Literal["ping"]


ClientFrame = Annotated[
    Hello | Ready | MoveFrame | DeclareStep | Undo | Resign | Ping,
    Field(discriminator="type"),
]

CLIENT_FRAMES: TypeAdapter[ClientFrame] = TypeAdapter(ClientFrame)


# Views carried inside server frames.


class StalactitesBoard(Frame):
    """A Stalactites board as its player sees it (the deal id is revealed only in results)."""

    model_config = ConfigDict(extra="ignore", strict=True)

    game: Literal["stalactites"]
    step: Literal["ones", "twos"] | None
    foundations: list[list[str]] = Field(description="f1..f4, each bottom (base) to top")
    cells: list[str | None] = Field(description="c1, c2: a card or null")
    tableau: list[list[str]] = Field(description="t1..t8, each bottom to top (the top plays)")


class SquadronBoard(Frame):
    """A Squadron board: the stock is never shown, only how many cards it holds."""

    model_config = ConfigDict(extra="ignore", strict=True)

    game: Literal["squadron"]
    foundations: list[list[str]] = Field(description="f1..f8, each Ace up")
    cells: list[str | None] = Field(description="c1..c3: a card or null")
    tableau: list[list[str]] = Field(description="t1..t10, each bottom to top")
    waste: list[str] = Field(description="dealt stock cards, the last on top")
    stock_count: int


Board = Annotated[StalactitesBoard | SquadronBoard, Field(discriminator="game")]

PositionVerdict = Literal["won", "lost", "unknown"]
"""Whether a board can still be won: ``won`` (a win is still possible), ``lost`` (none is),
``unknown`` (not decided yet, or the search's budget ran out: never a guess)."""


class PlayerView(Frame):
    """One player as everyone sees them."""

    player_id: str
    name: str
    connected: bool
    ready: bool
    foundation_cards: int
    moves: int = Field(description="moves on the board now (undone moves do not count)")
    status: PlayerStatus
    place: int | None = Field(description="final place; a winner's is known when they win")
    elapsed_ms: int | None = Field(description="from the start to the player's finish")
    ghost_of: str | None = Field(
        default=None,
        description="a ghost's seat: the name of the player whose recorded run it replays "
        "(shown as 'ghost of NAME'); null for a live player",
    )


class RoundOfView(Frame):
    """The tournament round a room is (its players' history entries say the same)."""

    tournament_id: str
    name: str = Field(description="the tournament's name")
    round: int = Field(description="1 the first")


class RoomView(Frame):
    """The public view of a room (``GET /api/rooms/{room_id}`` answers exactly this)."""

    room_id: str
    game: GameField
    step: Literal["choice", "ones", "twos"] | None = Field(description="null for squadron")
    seats: int
    time_limit_s: int
    undo: bool
    autoplay: bool = Field(
        default=False,
        description="the auto-play assist is on: the client plays cards to the foundations by "
        "itself when no choice is lost by it, sending each move as the player would",
    )
    countdown_s: int
    certified: bool = Field(description="the deal was certified winnable by the solver")
    rated: bool = Field(
        default=False,
        description="a rated room: every seat a player with a session; ratings change once "
        "its results are final (docs/players.md)",
    )
    tournament: RoundOfView | None = Field(
        default=None, description="a tournament round's room: which tournament and round"
    )
    quick: bool = Field(
        default=False,
        description="a quick race, made by the matchmaker (`/ws/match`): a seat is ready once "
        "connected, and a seat not connected within 10 s of the match is out",
    )
    arena: str | None = Field(
        default=None, description="an arena's race: the arena's id (`/api/arenas/{id}`)"
    )
    deal_chosen: bool = Field(
        description="the room's creator (or a tournament's organiser) chose the deal, and may "
        "have studied it: the server did not deal it (always the opposite of certified). Such a "
        "room is never rated and counts on no leaderboard; clients show it on the room's page "
        "and in the lists"
    )
    spectator_delay_s: int = Field(
        description="during the race spectators see each board as it was this long ago"
    )
    boards_held: bool = Field(
        default=False,
        description="a race that counts (rated, a daily deal's attempt, a tournament "
        "round): during the race spectators see each racer's progress, but a racer's board and "
        "its verdict only once that racer has finished (`spectator_delay_s` does not apply)",
    )
    spectators: int = Field(description="spectators connected now")
    private: bool = Field(
        default=False, description="never in the room lists: joined by its link only"
    )
    daily: str | None = Field(
        default=None,
        description="a daily deal's attempt: its day (YYYY-MM-DD, UTC); its deal, record, "
        "replay and analysis open once that day is over (whether it is the player's official "
        "attempt: `GET /api/daily/{game}`'s `room_id`)",
    )
    rematch: str | None = Field(
        default=None, description="the rematch room's id, once a seated player proposed one"
    )
    rematch_by: str | None = Field(
        default=None, description="the player id of whoever proposed the rematch first"
    )
    status: Annotated[RoomStatus, Field(strict=False)]
    players: list[PlayerView]
    starts_at: int | None = Field(description="unix ms, once the countdown has begun")
    ends_at: int | None = Field(description="unix ms, once the countdown has begun")
    commitment: str | None = Field(
        description="from the room's creation: SHA-256 (lowercase hex) of the UTF-8 text "
        "'{deal}|{salt}', fixing the deal before anyone can know it (docs/fairness.md)"
    )
    deal: str | None = Field(description="the deal id, null until the race has finished")
    salt: str | None = Field(
        description="the commitment's salt (32 hex digits), null until the race has finished"
    )
    solution: dict[str, list[str]] | None = Field(
        description="the solver's winning lines (step name or 'play' to moves), null until the "
        "race has finished or when uncertified"
    )


class Standing(Frame):
    """One line of the final standings."""

    player_id: str
    name: str
    place: int
    status: Literal["won", "lost", "resigned", "timeout"]
    foundation_cards: int
    moves: int
    elapsed_ms: int
    last_card_ms: int | None = Field(
        default=None,
        description="the tie-break, where it decided this racer's place: racers who did not "
        "win and ended with the same foundation cards are placed by when their last card "
        "reached a foundation (race time, ms; earlier is better); null where it decided nothing",
    )
    ghost_of: str | None = Field(
        default=None, description="a ghost's line: whose recorded run it replayed"
    )
    hints: int = Field(
        default=0,
        description="hints the player took (solo practice only: a race that counts gives none)",
    )
    rated: bool = Field(default=False, description="the race changed this player's rating")
    rating_before: int | None = Field(
        default=None, description="the player's shown rating before the race (rated races)"
    )
    rating_after: int | None = Field(
        default=None, description="the player's shown rating after the race (rated races)"
    )


# Server frames.


class Welcome(Frame):
    """The answer to hello.  Fresh: ``seq`` is the room's last event, room events after it follow.
    Resumed (hello had a ``last_seq`` the log still reaches): ``seq`` echoes it and every room
    event after it follows; ``room`` and ``state`` are current, and as every room event sets
    absolute values, applying one again is harmless.  A spectator's welcome has ``you`` and
    ``state`` null and ``boards``: every player's board as spectators see it now (the room's
    delay behind during the race); ``board`` frames follow from there."""

    type: Literal["welcome"]
    you: str | None = Field(description="your player id; null for a spectator")
    seq: int
    resumed: bool
    room: RoomView
    state: Board | None = Field(description="your board, null before the start")
    legal: list[str] = Field(description="your legal moves now (empty unless you are racing)")
    boards: dict[str, Board] | None = Field(
        default=None,
        description="spectators only: player id to board, empty before the start; null for a "
        "player",
    )
    board_verdicts: dict[str, PositionVerdict] | None = Field(
        default=None,
        description="spectators only: player id to whether the board in ``boards`` can still be "
        "won (judged on that delayed board alone); null for a player: racers never get verdicts",
    )


class PlayerEvent(Frame):
    """Room event: a player joined or became ready (before the race)."""

    type: Literal["player"]
    seq: int
    player: PlayerView


class Presence(Frame):
    """Room event: a player connected (their first socket to the room) or is no longer
    connected (their last socket closed); none once the race has finished."""

    type: Literal["presence"]
    seq: int
    player_id: str
    connected: bool


class Spectators(Frame):
    """Room event: the number of spectators changed (at most one a second per room; none once
    the race has finished)."""

    type: Literal["spectators"]
    seq: int
    count: int


class Countdown(Frame):
    """Room event: every seat is taken and everyone is ready; the race starts at ``starts_at``."""

    type: Literal["countdown"]
    seq: int
    starts_at: int
    ends_at: int


class Started(Frame):
    """Room event: the race is on.  ``state`` is the initial board, the same for everyone."""

    type: Literal["started"]
    seq: int
    state: Board
    legal: list[str]
    ends_at: int


class Accepted(Frame):
    """To the mover only, once the move is durably stored.  ``move`` is the move's notation,
    ``undo``, or ``step:ones``/``step:twos`` for a step declaration."""

    type: Literal["accepted"]
    id: str | None
    move: str
    state: Board
    legal: list[str]
    status: BoardStatus


class Rejected(Frame):
    """To the mover only: the move, undo or declaration changed nothing."""

    type: Literal["rejected"]
    id: str | None
    code: ErrorCode
    message: str


class Synced(Frame):
    """To a player's other sockets only (another tab of the same seat, on any process): the
    player's board after an action accepted on another of their sockets.  Both sockets of one
    token work and stay in step; the socket that made the action gets ``accepted``, every other
    one gets this after the action's ``progress`` (the board of the latest action: a burst of
    them may come as one)."""

    type: Literal["synced"]
    state: Board
    legal: list[str]
    status: BoardStatus


class Progress(Frame):
    """Room event after every accepted move, undo or declaration."""

    type: Literal["progress"]
    seq: int
    player_id: str
    foundation_cards: int
    moves: int
    status: PlayerStatus
    at_ms: int | None = Field(
        default=None,
        description="the race clock when the action was stored: ms since the race's start "
        "(as the record's `at_ms`)",
    )


class ProgressBatch(Frame):
    """Large rooms only (more than 8 seats: tournament rounds), in place of ``progress``: at
    most four a second per connection, each player's newest ``progress`` event since the last
    batch, in seq order.  ``seq`` is the last of them (the events they superseded are never
    sent); any other room event comes after a batch of the progress before it."""

    type: Literal["progress_batch"]
    seq: int
    events: list[Progress]


class Finished(Frame):
    """Room event: a player is done.  ``place`` is null for a player who lost or resigned before
    the race ended: their place is decided at the end and given in ``results``."""

    type: Literal["finished"]
    seq: int
    player_id: str
    place: int | None
    elapsed_ms: int
    status: Literal["won", "lost", "resigned", "timeout"]


class Results(Frame):
    """Room event, the last: final standings, the deal id revealed with the salt of the room's
    commitment (check: SHA-256 of ``deal|salt`` is ``commitment``), and the solver's lines.
    A daily deal's attempt that ends during its day reveals none of them (null): its deal is
    published once the day is over."""

    type: Literal["results"]
    seq: int
    standings: list[Standing]
    deal: str | None = Field(description="null: a daily deal's, during its day")
    salt: str | None = Field(description="the commitment's salt")
    commitment: str | None = Field(description="the commitment published from the start")
    solution: dict[str, list[str]] | None


class RematchEvent(Frame):
    """Room event, after ``results``: a seated player proposed a rematch (``POST
    /api/rooms/{room_id}/rematch``).  ``room_id`` is the new room (same settings, a new deal):
    take a seat there to accept; a player who does not simply stays out.  Sent once per room
    however many propose."""

    type: Literal["rematch"]
    seq: int
    room_id: str = Field(description="the rematch room")
    by: str = Field(description="the player id of whoever proposed it first")


class BoardEvent(Frame):
    """To spectators only, no ``seq``: a player's board after one accepted action, sent the
    room's ``spectator_delay_s`` after it was accepted during the race (at once after the
    race).  ``move`` is as in ``accepted``; each player's board frames come in order."""

    type: Literal["board"]
    player_id: str
    move: str
    state: Board
    at: int = Field(description="when the action was accepted (unix ms)")
    verdict: PositionVerdict = Field(
        description="whether this board can still be won, if this process has judged it "
        "already, else ``unknown`` (a ``board_verdict`` frame follows once it is judged)"
    )


class BoardVerdict(Frame):
    """To spectators only, no ``seq``: a player's board, the last one sent to you for that
    player, has been judged (in a worker process, on that delayed board alone).  Sent only
    while it is still that player's last board and only when it is ``won`` or ``lost``
    (``unknown`` changes nothing).  Stalactites verdicts are exact, with the step as it stands
    (still the player's choice: winnable by either step); Squadron is best effort with a small
    search budget per board.  Racers never get verdicts during a race."""

    type: Literal["board_verdict"]
    player_id: str
    verdict: PositionVerdict


class ErrorFrame(Frame):
    """Something the client sent was refused (see the error codes)."""

    type: Literal["error"]
    code: ErrorCode
    message: str


class Pong(Frame):
    """The answer to ping."""

    type: Literal["pong"]


ServerFrame = Annotated[
    Welcome
    | PlayerEvent
    | Presence
    | Spectators
    | Countdown
    | Started
    | Accepted
    | Rejected
    | Synced
    | Progress
    | ProgressBatch
    | Finished
    | Results
    | RematchEvent
    | BoardEvent
    | BoardVerdict
    | ErrorFrame
    | Pong,
    Field(discriminator="type"),
]

SERVER_FRAMES: TypeAdapter[ServerFrame] = TypeAdapter(ServerFrame)

ROOM_EVENTS = (
    "player",
    "spectators",
    "countdown",
    "started",
    "progress",
    "progress_batch",
    "finished",
    "results",
    "rematch",
)


def board(state: dict[str, Any]) -> StalactitesBoard | SquadronBoard:
    """An engine state as a wire board (dropping the deal id)."""
    if state.get("game") == GameName.SQUADRON:
        return SquadronBoard.model_validate(state)
    return StalactitesBoard.model_validate(state)
