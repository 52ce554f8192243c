"""The steps of a tournament, built from its stored snapshot: what each transition writes.

:class:`~.service.TournamentService` decides when a step is due and makes it through the
store's compare-and-set; this module says what the step is (a round begun, a round ended,
the end of a tournament no one entered) and when the tournament is next due.
"""

from __future__ import annotations

import json

from ..protocol.room import Standing
from ..protocol.tournament import RoundLine
from ..rooms.settings import RoomSettings
from ..store.tournaments.base import TournamentRow, Transition
from .points import Line, totals
from .rounds import line_of, result_lines
from .settings import TournamentSettings
from .views import (
    finished_event,
    round_finished_event,
    round_started_event,
    standing_rows,
    standings_of,
)

__all__ = [
    "RETRY_MS",
    "begins_now",
    "empty_end",
    "finished_lines",
    "names",
    "next_due",
    "round_begun",
    "round_ended",
]

RETRY_MS = 250  # a round past its end whose room has not finished yet: look again this soon


def round_begun(
    row: TournamentRow, room_id: str, room: RoomSettings, starts_at: int, ends_at: int
) -> Transition:
    """The next round begins in its room (of these settings)."""
    number = row.round + 1
    record = {
        "round": number,
        "room_id": room_id,
        "started_at": starts_at,
        "ends_at": ends_at,
        "finished": False,
        "deal": room.deal,
        "salt": room.salt,
        "commitment": room.commitment,
        "certified": room.certified,
        "deal_chosen": room.deal_chosen,
        "results": [],
    }
    return Transition(
        tournament_id=row.tournament_id,
        expected=(row.status, row.round),
        status="running",
        round=number,
        room_id=room_id,
        ends_at=ends_at,
        break_ends_at=None,
        record=(number, json.dumps(record)),
        events=[round_started_event(number, room_id, ends_at, room.commitment)],
    )


def empty_end(row: TournamentRow) -> Transition:
    """No one entered: the tournament is over before it began."""
    return Transition(
        tournament_id=row.tournament_id,
        expected=(row.status, row.round),
        status="finished",
        round=row.round,
        room_id=None,
        ends_at=None,
        break_ends_at=None,
        events=[finished_event([])],
    )


def round_ended(
    row: TournamentRow, settings: TournamentSettings, room: list[Standing], ended_at: int
) -> Transition:
    """The round is over with its room's final standings: a break, or the end."""
    round_ms = settings.round_time_s * 1000
    results = result_lines(room, round_ms)
    record = json.loads(row.rounds[row.round - 1])
    record.update(finished=True, ended_at=ended_at, results=[line.model_dump() for line in results])
    rounds = [*finished_lines(row, round_ms), [line_of(line, round_ms) for line in results]]
    rows = standing_rows(totals(names(row), rounds))
    final, standings = row.round >= settings.rounds, standings_of(rows)
    events = [round_finished_event(record, results, standings)]
    if final:
        events.append(finished_event(standings))
    return Transition(
        tournament_id=row.tournament_id,
        expected=("running", row.round),
        status="finished" if final else "break",
        round=row.round,
        room_id=None,
        ends_at=None,
        break_ends_at=None if final else ended_at + settings.break_s * 1000,
        record=(row.round, json.dumps(record)),
        standings=rows,
        events=events,
    )


def names(row: TournamentRow) -> list[tuple[str, str]]:
    return [(entrant.player_id, entrant.name) for entrant in row.entrants]


def finished_lines(row: TournamentRow, round_ms: int) -> list[list[Line]]:
    """The lines of every finished round, from the stored round records."""
    rounds = []
    for text in row.rounds:
        record = json.loads(text)
        if record["finished"]:
            lines = [RoundLine.model_validate(line) for line in record["results"]]
            rounds.append([line_of(line, round_ms) for line in lines])
    return rounds


def begins_now(row: TournamentRow, now: int) -> bool:
    if row.status == "scheduled":
        return row.starts_at is not None and now >= row.starts_at
    return row.status == "break" and row.break_ends_at is not None and now >= row.break_ends_at


def next_due(row: TournamentRow, now: int) -> int | None:
    if row.status == "scheduled":
        return row.starts_at
    if row.status == "break":
        return row.break_ends_at
    if row.status == "running" and row.ends_at is not None:
        return row.ends_at if row.ends_at > now else now + RETRY_MS
    return None
