"""The public views of rooms and players, built from a store snapshot."""

from __future__ import annotations

from typing import Any

from ..protocol import (
    PlayerStatus,
    PlayerView,
    PositionVerdict,
    RoomView,
    RoundOfView,
    SquadronBoard,
    StalactitesBoard,
    Welcome,
)
from ..store import PlayerRow, RoomRow
from .errors import RoomError
from .ghost_seat import label_view
from .settings import RoomSettings

__all__ = [
    "player_row",
    "player_status",
    "player_view",
    "public_state",
    "room_view",
    "welcome_frame",
]


def player_row(row: RoomRow, player_id: str) -> PlayerRow:
    for player in row.players:
        if player.player_id == player_id:
            return player
    raise RoomError("unauthorized", "no such player in this room")


def player_status(room_status: str, player: PlayerRow) -> PlayerStatus:
    if player.finish is not None:
        return player.finish  # type: ignore[return-value]
    if room_status in ("waiting", "countdown"):
        return "waiting"
    return "playing"


def player_view(room_status: str, player: PlayerRow) -> PlayerView:
    return PlayerView(
        player_id=player.player_id,
        name=player.name,
        connected=player.connected,
        ready=player.ready,
        foundation_cards=player.progress.foundation_cards,
        moves=player.progress.moves,
        status=player_status(room_status, player),
        place=player.place,
        elapsed_ms=player.elapsed_ms,
    )


def room_view(row: RoomRow, settings: RoomSettings) -> RoomView:
    """The view everyone may see: the deal commitment from the start; the deal, its salt and
    the solver's lines only once the race is over."""
    over = row.status == "finished"
    return RoomView(
        room_id=row.room_id,
        game=settings.game,
        step=settings.step,
        seats=settings.seats,
        time_limit_s=settings.time_limit_s,
        undo=settings.undo,
        autoplay=settings.autoplay,
        countdown_s=settings.countdown_s,
        certified=settings.certified,
        rated=settings.rated,
        tournament=_round_of(settings),
        quick=settings.quick,
        deal_chosen=settings.deal_chosen,
        spectator_delay_s=settings.delay_s,
        spectators=row.spectators,
        private=settings.private,
        rematch=row.rematch,
        status=row.status,  # type: ignore[arg-type]
        players=[
            label_view(player_view(row.status, player), settings.ghost) for player in row.players
        ],
        starts_at=row.starts_at,
        ends_at=row.ends_at,
        commitment=settings.commitment,
        deal=settings.deal if over else None,
        salt=settings.salt if over else None,
        solution=settings.solution if over else None,
    )


def public_state(state: dict[str, Any]) -> dict[str, Any]:
    """A board as sent to its player: the engine's state without the deal id."""
    return {name: value for name, value in state.items() if name != "deal"}


def welcome_frame(
    row: RoomRow,
    room: RoomView,
    you: str | None,
    last_seq: int | None,
    resumed: bool,
    state: StalactitesBoard | SquadronBoard | None = None,
    legal: list[str] | None = None,
    boards: dict[str, StalactitesBoard | SquadronBoard] | None = None,
    board_verdicts: dict[str, PositionVerdict] | None = None,
) -> Welcome:
    """A player's welcome (``you``, their ``state`` and ``legal`` moves) or a spectator's
    (``boards`` and their ``board_verdicts``): it resumes at ``last_seq`` when ``resumed``,
    else at the room's seq."""
    return Welcome(
        type="welcome",
        you=you,
        seq=last_seq if resumed and last_seq is not None else row.seq,
        resumed=resumed,
        room=room,
        state=state,
        legal=legal or [],
        boards=boards,
        board_verdicts=board_verdicts,
    )


def _round_of(settings: RoomSettings) -> RoundOfView | None:
    of = settings.round_of
    if of is None:
        return None
    return RoundOfView(tournament_id=of.tournament_id, name=of.name, round=of.round)
