"""Hints for solo practice: the solver's next move for a player's board.

Only in practice: never in a race that counts (``hints_off``: a rated race, a daily deal's
attempt, a tournament round), and only in a room of one seat (``hint_solo_only``
elsewhere: in a race with others a hint would be help the others do not get); only for the
seat's own token, and only while that player is racing.  The search runs in a worker process
of the process's :class:`SolverPool`, on the board rebuilt there from the settings and the
stored log, never on the event loop; its budget keeps one hint short.

Hints are the pool's lowest kind of work (:data:`HINT`): other solver work waiting starts
first, hints run on at most half the workers, and few wait.  Each seat has one hint in the
pool at a time and asks at most ``hint_rate`` a second (in this process); beyond, or with the
hints' queue full, the answer is ``rate_limited`` with when to ask again.
"""

from __future__ import annotations

import math

from ..config import ServerConfig
from ..protocol.room import RoomStatus
from ..solver import hint
from ..workers import Kind, SolverBusy
from .boards import rebuild
from .errors import RoomError
from .service import RoomService
from .settings import RoomSettings
from .views import player_row, player_status

__all__ = [
    "HINT_QUEUE",
    "HINT_STATES",
    "HintRefused",
    "hint_kind",
    "hint_move",
    "room_hint",
]

HINT_STATES = 100_000  # positions one hint may search (then: the best line found so far)
HINT_QUEUE = 4  # hints waiting for a worker, per worker of the pool (beyond: rate_limited)

BUSY = {
    "owner_busy": "this seat's last hint is still being searched; ask again once it is given",
    "owner_rate": "too many hints for this seat",
    "queue_full": "the solver is busy with other players' hints",
}


class HintRefused(Exception):
    """A hint refused before any search for the hints' limits (``rate_limited``): the code,
    the message, and when to ask again."""

    def __init__(self, code: str, message: str, retry_after_s: float | None = None) -> None:
        super().__init__(message)
        self.code, self.message = code, message
        self.retry_after_s = retry_after_s


def hint_kind(config: ServerConfig, workers: int) -> Kind:
    """Hints' budget in a pool of ``workers``: after any other solver work, on at most half
    the workers, few waiting; one per seat in the pool, at the configured rate per seat."""
    return Kind(
        "hint",
        priority=1,
        share=0.5,
        queue=HINT_QUEUE * workers,
        per_owner=1,
        owner_rate=config.hint_rate,
        owner_burst=config.hint_burst,
    )


def hint_move(settings_json: str, actions: list[str]) -> str | None:
    """In a worker: the next move of the best line from the board these actions leave."""
    game = rebuild(RoomSettings.model_validate_json(settings_json), actions)
    move = hint(game, HINT_STATES)
    return None if move is None else str(move)


async def room_hint(rooms: RoomService, room_id: str, token: str) -> str | None:
    """The hint for the seat holding ``token``: a move in notation, or None (nothing wins)."""
    settings = await rooms.settings(room_id)
    counts = settings.counts
    if counts is not None:
        raise RoomError("hints_off", f"no hints in a race that counts: this is {counts}")
    if settings.seats > 1:
        raise RoomError("hint_solo_only", "hints are given in solo practice rooms only")
    player_id = await rooms.authenticate(room_id, token)
    row = await rooms.current(room_id)
    if row.status != RoomStatus.RACING:
        raise RoomError("not_started", "a hint is given while the race is on")
    if player_status(row.status, player_row(row, player_id)) != "playing":
        raise RoomError("already_finished", "this player's race is over")
    actions = await rooms.store.read_log(room_id, player_id)
    pool = rooms.solver
    kind, seat = hint_kind(rooms.config, pool.workers), f"{room_id}/{player_id}"
    try:
        move = await pool.run(hint_move, settings.model_dump_json(), actions, kind=kind, owner=seat)
    except SolverBusy as busy:
        message = f"{BUSY[busy.reason]}; try again in {max(1, math.ceil(busy.retry_after_s))} s"
        raise HintRefused("rate_limited", message, busy.retry_after_s) from None
    if move is not None:  # a run that took hints says so (its results, history and replay)
        await rooms.store.count_hint(room_id, player_id)
    return move
