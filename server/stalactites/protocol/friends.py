"""Friends' messages: the notification socket's frames (``/ws/notify``) and the HTTP bodies
and answers of following, blocking, presence, challenges and notifications.

Like :mod:`stalactites.protocol.match`: strict pydantic models, frames told apart by
``"type"``; the hello and ping are the matchmaking socket's.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from ..engine import GameName
from .match import MatchHello, MatchPing, MatchPong
from .room import GameField

__all__ = [
    "NOTIFY_CLIENT_FRAMES",
    "NOTIFY_ERROR_CODES",
    "ChallengeBody",
    "ChallengeFrame",
    "ChallengeStatus",
    "ChallengeView",
    "Friend",
    "NotifyClientFrame",
    "NotifyErrorFrame",
    "NotifyServerFrame",
    "NotifyWelcome",
    "Note",
    "NoteFrame",
    "NoteKind",
    "PresenceFrame",
    "PresenceStatus",
    "ReadBody",
    "HiddenBody",
]


class Frame(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


PresenceStatus = Literal["online", "racing", "offline"]
ChallengeStatus = Literal["open", "accepted", "declined", "cancelled", "expired"]
NoteKind = Literal["followed", "daily_beaten", "report_acted", "refund", "arena_soon"]

NOTIFY_ERROR_CODES: dict[str, str] = {
    "bad_message": "a frame that is not JSON, too large, of an unknown type or with wrong fields",
    "unauthorized": "a hello without a live session, or anything but hello first (then close 1008)",
    "rate_limited": "too many frames; closing",
    "internal": "the server failed; try again",
}


class Friend(Frame):
    """A followed player as the header lists them."""

    player_id: str
    name: str
    status: PresenceStatus
    room_id: str | None = Field(
        default=None, description="the race to watch (racing in a listed room only)"
    )


class ChallengeView(Frame):
    challenge_id: str
    from_id: str
    from_name: str
    to_id: str
    to_name: str
    game: GameField
    step: Literal["choice", "ones", "twos"] | None
    time_limit_s: int
    rated: bool
    status: ChallengeStatus
    created_ms: int
    expires_ms: int = Field(description="an open challenge not answered by then has expired")
    room_id: str | None = Field(default=None, description="the race, once accepted")


class Note(Frame):
    """A notification: ``kind`` says what happened, ``data`` its details (see docs/friends.md)."""

    note_id: str
    kind: NoteKind
    ms: int
    data: dict[str, Any]
    read: bool = False


# HTTP bodies.


class ChallengeBody(Frame):
    player_id: str = Field(min_length=1, max_length=64)
    game: GameField = GameName.STALACTITES
    step: Literal["choice", "ones", "twos"] | None = None
    time_limit_s: int = Field(default=600, ge=60, le=3600)
    rated: bool = False


class ReadBody(Frame):
    up_to_ms: int = Field(ge=0, description="notifications up to this time are read")


class HiddenBody(Frame):
    hidden: bool


# Server frames.


class NotifyWelcome(Frame):
    """The answer to hello: the followed players online now, unread notifications, and the
    player's open challenges."""

    type: Literal["welcome"]
    player_id: str
    name: str
    online: list[Friend]
    unread: int
    challenges: list[ChallengeView]


class PresenceFrame(Frame):
    """A followed player came online, started or ended a race, or went offline."""

    type: Literal["presence"]
    friend: Friend


class ChallengeFrame(Frame):
    """A challenge from or to the player was made or changed; ``token`` is this player's
    seat in its race once accepted."""

    type: Literal["challenge"]
    challenge: ChallengeView
    token: str | None = None


class NoteFrame(Frame):
    type: Literal["notification"]
    note: Note


class NotifyErrorFrame(Frame):
    type: Literal["error"]
    code: str
    message: str


NotifyClientFrame = Annotated[MatchHello | MatchPing, Field(discriminator="type")]
NOTIFY_CLIENT_FRAMES: TypeAdapter[NotifyClientFrame] = TypeAdapter(NotifyClientFrame)
NotifyServerFrame = Annotated[
    NotifyWelcome | PresenceFrame | ChallengeFrame | NoteFrame | MatchPong | NotifyErrorFrame,
    Field(discriminator="type"),
]
