"""The matchmaking protocol: the ``/ws/match`` frames (a quick race).

Like :mod:`stalactites.protocol`: each frame a strict pydantic model told apart by ``"type"``,
one parser for client frames (:data:`MATCH_CLIENT_FRAMES`) and one union of server frames
(:data:`MATCH_SERVER_FRAMES`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from ..engine import GameName
from .room import GameField

__all__ = [
    "MATCH_CLIENT_FRAMES",
    "MATCH_ERROR_CODES",
    "MATCH_SERVER_FRAMES",
    "MatchClientFrame",
    "MatchErrorCode",
    "MatchErrorFrame",
    "MatchHello",
    "MatchPing",
    "MatchPong",
    "MatchServerFrame",
    "MatchWelcome",
    "Matched",
    "MatchedPlayer",
    "QueueFrame",
    "Queued",
    "LeaveQueue",
    "Left",
]

MatchErrorCode = Literal[
    "bad_message",
    "unauthorized",
    "already_queued",
    "in_quick_race",
    "not_queued",
    "ghost_unavailable",
    "rate_limited",
    "internal",
]

MATCH_ERROR_CODES: dict[str, str] = {
    "bad_message": "a frame that is not JSON, too large, of an unknown type or with wrong fields "
    "(a step for Squadron, say)",
    "unauthorized": "a hello without a live session, or anything but hello first (then close 1008)",
    "already_queued": "`queue` while this socket is queued already (send `leave` first), or "
    "while the player waits in another queue (another tab: leave there first)",
    "in_quick_race": "`queue` while the player is in a quick race (or a ghost race from the "
    "queue) that is not over for them: one quick race at a time; the message names the room",
    "not_queued": "`leave` while this socket is not queued",
    "ghost_unavailable": '`"ghost": true` on a server with no ghost races',
    "rate_limited": "too many frames; closing",
    "internal": "the server failed; try again",
}


class Frame(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# Client frames.


class MatchHello(Frame):
    """The first frame: the player's session, from the handshake's cookie (``"session":
    true``, the web client) or as ``token`` (a session token, as ``Authorization: Bearer``)."""

    type: Literal["hello"]
    token: str | None = Field(default=None, min_length=1, max_length=128)
    session: bool = Field(default=False, description="the session is the handshake's cookie")

    @model_validator(mode="after")
    def _one_identity(self) -> MatchHello:
        if (self.token is not None) == self.session:
            raise ValueError("give a session token, or session true (one of them)")
        return self


class QueueFrame(Frame):
    """Wait for a quick race: rated, on a certified deal, against players of close rating.
    ``ghost``: race a recorded run of another player at once instead (an unrated ghost race,
    ``matched`` with the ghost among ``players``); with no run near enough to race yet, the
    player is queued as usual.  Sent again with ``ghost`` by a socket already in that queue:
    a ghost now, or (none) a ``queued`` answer, the player's place and time kept.  No partner
    within ``STALACTITES_MATCH_GHOST_AFTER_S`` (15 s) also brings a ghost where one can be
    found."""

    type: Literal["queue"]
    game: GameField
    step: Literal["choice", "ones", "twos"] | None = Field(
        default=None, description="stalactites only; default choice"
    )
    ghost: bool = False

    @model_validator(mode="after")
    def _step_for_stalactites(self) -> QueueFrame:
        if self.game == GameName.SQUADRON and self.step not in (None, "choice"):
            raise ValueError("squadron has no foundation step")
        return self


class LeaveQueue(Frame):
    """Stop waiting (closing the socket does the same)."""

    type: Literal["leave"]


class MatchPing(Frame):
    type: Literal["ping"]


MatchClientFrame = Annotated[
    MatchHello | QueueFrame | LeaveQueue | MatchPing, Field(discriminator="type")
]
MATCH_CLIENT_FRAMES: TypeAdapter[MatchClientFrame] = TypeAdapter(MatchClientFrame)


# Server frames.


class MatchWelcome(Frame):
    """The answer to hello: who the session is and their rating in each game (the shown
    number)."""

    type: Literal["welcome"]
    player_id: str
    name: str
    ratings: dict[str, int]


class Queued(Frame):
    """Waiting: sent when queued, then whenever the count changes or a second has passed
    (at most once a second)."""

    type: Literal["queued"]
    game: GameField
    step: Literal["choice", "ones", "twos"] | None
    waited_ms: int = Field(ge=0, description="since this player joined the queue")
    waiting: int = Field(ge=0, description="players waiting in this queue, this one included")
    others: int = Field(
        default=0, ge=0, description="players waiting in this queue besides this one"
    )
    ghost_ready: bool = Field(
        default=False,
        description='a recorded run of another player can be raced now (`"ghost": true`, or '
        "alone for `STALACTITES_MATCH_GHOST_AFTER_S`); false: nobody's run to race yet, so "
        "alone, the player waits until someone queues (clients offer a solo race or the "
        "daily deal meanwhile)",
    )


class MatchedPlayer(Frame):
    player_id: str
    name: str
    rating: int
    ghost: bool = Field(default=False, description="a recorded run, not a live player")


class Matched(Frame):
    """A room is made: say ``hello`` on ``/ws/rooms/{room_id}`` with ``token`` (or with the
    session).  The race's countdown begins once every seat is connected; a seat not connected
    within 10 seconds is out.  Every socket of the player (tabs) gets this frame; the queue
    socket is closed after it (1000)."""

    type: Literal["matched"]
    room_id: str
    token: str = Field(description="this player's seat token in the room")
    players: list[MatchedPlayer]


class Left(Frame):
    """The answer to ``leave``: no longer queued."""

    type: Literal["left"]


class MatchErrorFrame(Frame):
    type: Literal["error"]
    code: MatchErrorCode
    message: str


class MatchPong(Frame):
    type: Literal["pong"]


MatchServerFrame = Annotated[
    MatchWelcome | Queued | Matched | Left | MatchErrorFrame | MatchPong,
    Field(discriminator="type"),
]
MATCH_SERVER_FRAMES: TypeAdapter[MatchServerFrame] = TypeAdapter(MatchServerFrame)
