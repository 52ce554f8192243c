"""A ghost's seat: a recorded run of another player replayed in a new room on its deal.

The room's settings keep the run whole (:class:`GhostSeat`), so whichever process serves the
room replays it from the store (:mod:`stalactites.ghosts.replay`).  The rooms layer only
labels it: the seat's view and its standing say whose ghost it is (``ghost_of``), its
connection is shown as always on, and it is never rated (its seat id is a guest's).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ..protocol.room import PlayerView, Standing

__all__ = ["GHOST_PREFIX", "GhostSeat", "TimedAction", "label_standings", "label_view"]

GHOST_PREFIX = "g."  # a ghost seat's id: "g." and 14 hex digits (never a player's "p.")


class TimedAction(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    action: str  # as logged: a move, "undo", "step:ones"/"step:twos"
    at_ms: int = Field(ge=0)  # on the original race's clock


class GhostSeat(BaseModel):
    """The run a ghost replays, and whose it was."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seat_id: str
    name: str  # the original player's name (the seat's name too)
    source_room_id: str
    source_player_id: str
    status: str  # how the original run ended: won, lost, resigned, timeout
    elapsed_ms: int  # the original run's time
    foundation_cards: int
    actions: tuple[TimedAction, ...]

    def history(self) -> dict[str, object]:
        """What a history entry says of the ghost raced (its name and original time)."""
        return {
            "name": self.name,
            "room_id": self.source_room_id,
            "player_id": self.source_player_id,
            "status": self.status,
            "elapsed_ms": self.elapsed_ms,
        }


def label_view(view: PlayerView, ghost: GhostSeat | None) -> PlayerView:
    """The view of a seat, marked as the ghost's (and always connected) if it is."""
    if ghost is None or view.player_id != ghost.seat_id:
        return view
    return view.model_copy(update={"ghost_of": ghost.name, "connected": True})


def label_standings(standings: list[Standing], ghost: GhostSeat | None) -> list[Standing]:
    if ghost is None:
        return standings
    return [
        line.model_copy(update={"ghost_of": ghost.name})
        if line.player_id == ghost.seat_id
        else line
        for line in standings
    ]
