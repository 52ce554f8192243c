"""The public views of rooms and players, built from a store snapshot.

A deleted player's seat (and a ghost of their run) is named "deleted player" in a room's
view and record: :class:`DeletedPlayers` tells which of a room's players are deleted.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

from ..clock import Clock
from ..players.names import DELETED_NAME
from ..protocol.room import (
    PlayerStatus,
    PlayerView,
    PositionVerdict,
    RoomStatus,
    RoomView,
    RoundOfView,
    SquadronBoard,
    StalactitesBoard,
    Standing,
    Welcome,
)
from ..store import PlayerRow, RoomRow
from .errors import RoomError
from .ghost_seat import label_view
from .seats import is_persistent
from .settings import RoomSettings

__all__ = [
    "DELETED_FOUND_TTL_MS",
    "DeletedPlayers",
    "player_row",
    "player_status",
    "player_view",
    "public_state",
    "room_view",
    "unnamed",
    "welcome_frame",
]

DELETED_FOUND_TTL_MS = 1000  # a player found is not asked about again for this long
REMEMBERED = 10_000  # player ids remembered at most (of each kind), then forgotten at once

Line = TypeVar("Line", PlayerView, Standing)


class DeletedPlayers:
    """Which of a room's players are deleted, asked of the players' store (``exist``, its
    ``players_exist``: one batch for a room's unknown players) and remembered: a deletion for
    good (a player id is never given again), a player found for ``found_ttl_ms``.  So a view
    names a player that another process deleted up to that late; this process's deletions
    (:meth:`deleted`) at once."""

    def __init__(
        self,
        exist: Callable[[list[str]], Awaitable[list[bool]]],
        clock: Clock,
        found_ttl_ms: int = DELETED_FOUND_TTL_MS,
    ) -> None:
        self._exist, self._clock, self._ttl_ms = exist, clock, found_ttl_ms
        self._gone: set[str] = set()
        self._found: dict[str, int] = {}  # player id: until when it is taken as found

    def deleted(self, player_id: str) -> None:
        """This process has deleted the player."""
        self._found.pop(player_id, None)
        self._remember(self._gone, player_id)

    async def among(self, row: RoomRow, settings: RoomSettings) -> frozenset[str]:
        """The deleted players among the room's persistent seats and its ghost's player."""
        ghost = settings.ghost
        ids = {p.player_id for p in row.players} | ({ghost.source_player_id} if ghost else set())
        return await self._deleted_among(pid for pid in ids if is_persistent(pid))

    async def _deleted_among(self, player_ids: Iterable[str]) -> frozenset[str]:
        wanted, now = set(player_ids), self._clock.now_ms()
        unknown = [p for p in wanted if p not in self._gone and self._found.get(p, 0) <= now]
        if unknown:
            for player_id, alive in zip(unknown, await self._exist(unknown), strict=True):
                if alive:
                    self._found[player_id] = now + self._ttl_ms
                else:
                    self.deleted(player_id)
        return frozenset(wanted & self._gone)

    @staticmethod
    def _remember(kept: set[str], player_id: str) -> None:
        if len(kept) >= REMEMBERED:
            kept.clear()
        kept.add(player_id)


def unnamed(line: Line, deleted: frozenset[str], settings: RoomSettings) -> Line:
    """The seat's line (view or standing) named "deleted player" if its player is deleted;
    a ghost's, if the player whose run it replays is."""
    ghost = settings.ghost
    if line.player_id in deleted:
        return line.model_copy(update={"name": DELETED_NAME})
    if ghost is not None and line.player_id == ghost.seat_id and ghost.source_player_id in deleted:
        update = {"name": DELETED_NAME, "ghost_of": DELETED_NAME}
        return line.model_copy(update=update)
    return line


def player_row(row: RoomRow, player_id: str) -> PlayerRow:
    for player in row.players:
        if player.player_id == player_id:
            return player
    raise RoomError("unauthorized", "no such player in this room")


def player_status(room_status: RoomStatus, player: PlayerRow) -> PlayerStatus:
    if player.finish is not None:
        return player.finish  # type: ignore[return-value]
    if room_status in (RoomStatus.WAITING, RoomStatus.COUNTDOWN):
        return "waiting"
    return "playing"


def player_view(room_status: RoomStatus, player: PlayerRow) -> PlayerView:
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


def room_view(
    row: RoomRow, settings: RoomSettings, deleted: frozenset[str] = frozenset()
) -> RoomView:
    """The view everyone may see: the deal commitment from the start; the deal, its salt and
    the solver's lines only once the race is over; the ``deleted`` players' seats unnamed."""
    over = row.status == RoomStatus.FINISHED
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
        arena=settings.arena,
        deal_chosen=settings.deal_chosen,
        spectator_delay_s=settings.delay_s,
        boards_held=settings.counts is not None,
        spectators=row.spectators,
        private=settings.private,
        daily=None if settings.daily is None else settings.daily.split("|")[1],
        rematch=row.rematch,
        rematch_by=row.rematch_by,
        status=row.status,
        players=[
            unnamed(label_view(player_view(row.status, player), settings.ghost), deleted, settings)
            for player in row.players
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
