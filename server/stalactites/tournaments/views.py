"""Tournament views and events, built from store snapshots.

Events are stored as compact JSON without ``seq`` (``type`` first), as room
events are; :func:`stalactites.room_events.with_seq` adds it when sent.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ..protocol.tournament import (
    CurrentRound,
    RoundLine,
    RoundRecord,
    TournamentListing,
    TournamentStanding,
    TournamentView,
)
from ..store.tournaments.base import StandingRow, TournamentRow
from .points import Total, rank, score
from .settings import TournamentSettings

__all__ = [
    "finished_event",
    "line_json",
    "round_finished_event",
    "round_started_event",
    "standing_rows",
    "standings_of",
    "tournament_listing",
    "tournament_view",
]


def _dump(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def line_json(total: Total) -> str:
    return _dump(
        {
            "player_id": total.player_id,
            "name": total.name,
            "points": total.points,
            "rounds_won": total.rounds_won,
            "total_time_ms": total.total_time_ms,
        }
    )


def standing_rows(totals: Iterable[Total]) -> list[StandingRow]:
    """Totals as the store keeps them: a sort score and a line each, in the store's order (by
    score, equal standings by player id, both descending: as a sorted set reads highest
    first), so that standings told in an event are in the order a view reads them back."""
    rows = [StandingRow(total.player_id, score(total), line_json(total)) for total in totals]
    rows.sort(key=lambda row: (row.score, row.player_id), reverse=True)
    return rows


def standings_of(rows: list[StandingRow]) -> list[TournamentStanding]:
    """Stored rows (best first) as standings, with ranks."""
    ranks = rank(row.score for row in rows)
    return [
        TournamentStanding.model_validate({**json.loads(row.line_json), "rank": place})
        for row, place in zip(rows, ranks, strict=True)
    ]


def _record(text: str) -> RoundRecord:
    record = RoundRecord.model_validate_json(text)
    if not record.finished:
        record = record.model_copy(update={"deal": None, "salt": None})
    return record


def _about(row: TournamentRow, settings: TournamentSettings) -> dict[str, Any]:
    """What the view and a list's line both say of a tournament."""
    return {
        "tournament_id": row.tournament_id,
        "name": settings.name,
        "game": settings.game,
        "step": settings.step,
        "rounds": settings.rounds,
        "round_time_s": settings.round_time_s,
        "max_players": settings.max_players,
        "starts_at": row.starts_at,
        "status": row.status,
        "entrants": len(row.entrants),
        "round": row.round or None,
        "break_ends_at": row.break_ends_at if row.status == "break" else None,
    }


def tournament_view(row: TournamentRow, standings: list[StandingRow]) -> TournamentView:
    settings = TournamentSettings.model_validate_json(row.settings_json)
    current = None
    if row.status == "running" and row.room_id is not None and row.ends_at is not None:
        current = CurrentRound(round=row.round, room_id=row.room_id, ends_at=row.ends_at)
    return TournamentView(
        **_about(row, settings),
        break_s=settings.break_s,
        current_round=current,
        round_results=[_record(text) for text in row.rounds],
        standings=standings_of(standings),
    )


def tournament_listing(row: TournamentRow) -> TournamentListing:
    settings = TournamentSettings.model_validate_json(row.settings_json)
    return TournamentListing(
        **_about(row, settings),
        ends_at=row.ends_at if row.status == "running" else None,
        deals_chosen=settings.deals is not None,
    )


def round_started_event(round_: int, room_id: str, ends_at: int, commitment: str | None) -> str:
    return _dump(
        {
            "type": "round_started",
            "round": round_,
            "room_id": room_id,
            "ends_at": ends_at,
            "commitment": commitment,
        }
    )


def round_finished_event(
    record: dict[str, Any], results: list[RoundLine], standings: list[TournamentStanding]
) -> str:
    """The event for a finished round's record (see :class:`RoundRecord`)."""
    return _dump(
        {
            "type": "round_finished",
            "round": record["round"],
            "room_id": record["room_id"],
            "ended_at": record["ended_at"],
            "deal": record["deal"],
            "salt": record.get("salt"),
            "results": [line.model_dump() for line in results],
            "standings": [line.model_dump() for line in standings],
        }
    )


def finished_event(standings: list[TournamentStanding]) -> str:
    return _dump({"type": "finished", "standings": [line.model_dump() for line in standings]})
