"""A round's room: opened with every entrant seated and ready, and read back into round lines.

A round is a room opened whole (:class:`~stalactites.store.rooms.base.RoundRoom`): its
players are the tournament's entrants, seated under their tournament player ids and token
hashes (so the tournament token is accepted on the room's socket) and ready (an entrant who
entered with a session has the player's own id, so the round is recorded on that player as
any room's race is, :mod:`stalactites.live.race_recording`), so the race
starts at the round start without anyone sending ``ready``.  It is never in a room list and
seats no one else (``seats_reserved``).  Its results become the
round's lines, with points (:mod:`.points`).
"""

from __future__ import annotations

import json
import secrets

from ..clock import Clock
from ..engine import GameName
from ..players.races import RoundOf
from ..protocol.room import Standing
from ..protocol.tournament import RoundLine
from ..room_events import countdown_event
from ..rooms.boards import new_board
from ..rooms.seats import new_seat
from ..rooms.settings import RoomSettings, new_salt
from ..store import NewRoom, RoomRow, RoundRoom, Store
from ..store.tournaments.base import EntrantRow
from .points import Line, rank, round_points, round_time
from .settings import TournamentSettings

__all__ = [
    "line_of",
    "live_lines",
    "open_round_room",
    "result_lines",
    "room_results",
    "round_room_id",
    "round_settings",
    "tournament_of_room",
]


def round_room_id(tournament_id: str, round_: int) -> str:
    """A fresh id for a round's room: the tournament's id, the round, and a random tail."""
    return f"{tournament_id}-r{round_}-{secrets.token_hex(3)}"


def tournament_of_room(room_id: str) -> str | None:
    """The tournament a round room belongs to, read from its id (None for other rooms)."""
    head, _, tail = room_id.rpartition("-")
    tournament_id, _, number = head.rpartition("-r")
    if len(tail) != 6 or not number.isdigit() or not tournament_id:
        return None
    return tournament_id


def round_settings(
    settings: TournamentSettings,
    deal: str,
    certified: bool,
    solution: dict[str, list[str]] | None,
    round_of: RoundOf | None = None,
) -> RoomSettings:
    """The room settings of a round: the tournament's game, the round's deal under a fresh
    salt (its commitment is published as the round starts), one seat each, never rated; which
    round it is goes on its players' histories."""
    stalactites = settings.game == GameName.STALACTITES
    return RoomSettings(
        game=settings.game,
        step=settings.step,
        deal=deal,
        seats=1,  # replaced by the number of entrants in open_round_room
        time_limit_s=settings.round_time_s,
        undo=stalactites,
        countdown_s=0,
        certified=certified,
        solution=solution,
        salt=new_salt(),
        round_of=round_of,
    )


async def open_round_room(
    store: Store,
    clock: Clock,
    room_id: str,
    settings: RoomSettings,
    entrants: list[EntrantRow],
    ttl_ms: int,
) -> tuple[int, int]:
    """Open the room whole, every entrant seated and ready, in one store step (never listed,
    no seat for anyone else); the race's (starts_at, ends_at)."""
    settings = settings.model_copy(update={"seats": len(entrants)})
    deal = new_board(settings)
    starts_at = clock.now_ms()
    ends_at = starts_at + settings.time_limit_s * 1000
    players = [
        new_seat(entrant.player_id, entrant.name, entrant.token_hash, starts_at, deal, ready=True)
        for entrant in entrants
    ]
    events = [player.event_json for player in players] + [countdown_event(starts_at, ends_at)]
    room = NewRoom(room_id, settings.model_dump_json(), len(entrants), starts_at)
    if not await store.open_round(RoundRoom(room, players, starts_at, ends_at, events), ttl_ms):
        raise RuntimeError(f"round room {room_id}: the id is taken")
    return starts_at, ends_at


def room_results(room: RoomRow) -> list[Standing] | None:
    """A finished room's final standings (None before the end)."""
    if room.results_json is None:
        return None
    return [Standing.model_validate(line) for line in json.loads(room.results_json)]


def result_lines(standings: list[Standing], round_ms: int) -> list[RoundLine]:
    """The lines of a finished round with their points, most points first: the round's place
    is by points, and equal points share a place (1, 1, 3); among equals, the room's order."""
    fields = set(RoundLine.model_fields) - {"place"}
    scored = [
        (round_points(line.foundation_cards, line.status, line.elapsed_ms, round_ms), line)
        for line in standings
    ]
    scored.sort(key=lambda pair: -pair[0])  # stable: the room's order among equal points
    places = rank(points for points, _ in scored)
    return [
        RoundLine(**line.model_dump(include=fields), place=place, points=points)
        for (points, line), place in zip(scored, places, strict=True)
    ]


def live_lines(room: RoomRow, round_ms: int, now_ms: int) -> list[Line]:
    """The round in play counted as if it ended now."""
    lines = []
    start = room.starts_at if room.starts_at is not None else now_ms
    for player in room.players:
        status = player.finish or "playing"
        elapsed = player.elapsed_ms if player.elapsed_ms is not None else now_ms - start
        cards = player.progress.foundation_cards
        points = round_points(cards, status, elapsed, round_ms)
        lines.append(
            Line(player.player_id, points, status == "won", round_time(status, elapsed, round_ms))
        )
    return lines


def line_of(result: RoundLine, round_ms: int) -> Line:
    """A round line as the standings count it."""
    won = result.status == "won"
    return Line(
        result.player_id, result.points, won, round_time(result.status, result.elapsed_ms, round_ms)
    )
