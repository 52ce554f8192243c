"""Who may act in a room: the one rule that every store's commit and the room service's
answers follow, and the error code of each refusal.

>>> refusal(True, "racing", False, False) is None, refusal(True, "countdown", False, False).code
(True, 'not_started')
"""

from __future__ import annotations

import enum

from ...protocol.room import RoomStatus

__all__ = ["Refusal", "refusal"]


class Refusal(enum.Enum):
    """Why a player may not act in a room now (see :func:`refusal`)."""

    NOT_SEATED = "not_seated"
    NOT_STARTED = "not_started"
    RACE_OVER = "race_over"
    PLAYER_FINISHED = "player_finished"

    @property
    def code(self) -> str:
        """The error code a refused commit answers (:attr:`.base.CommitResult.code`)."""
        return _REFUSAL_CODES[self]


_REFUSAL_CODES = {
    Refusal.NOT_SEATED: "room_not_found",
    Refusal.NOT_STARTED: "not_started",
    Refusal.RACE_OVER: "already_finished",
    Refusal.PLAYER_FINISHED: "already_finished",
}


def refusal(seated: bool, status: str, finished: bool, ended: bool) -> Refusal | None:
    """The one rule of who may act in a room, which every store's commit and the room
    service's answers follow: a seated player who has not ``finished``, in a race that is on
    and not ``ended`` (now is ``ends_at`` or later).  None: they may.

    (The Redis commit script checks only whether the player may act, and hands the facts
    back for this function to say why not.)"""
    if not seated:
        return Refusal.NOT_SEATED
    if status in (RoomStatus.WAITING, RoomStatus.COUNTDOWN):
        return Refusal.NOT_STARTED
    if status != RoomStatus.RACING or ended:
        return Refusal.RACE_OVER
    if finished:
        return Refusal.PLAYER_FINISHED
    return None
