"""A finished room's game records: every player's moves with the deal revealed, as served by
``GET /api/rooms/{room_id}/record`` (the same document ``stalactites verify`` checks).

Each player's ``actions`` are every action they played, undos and step declarations
included, each with its race-clock time (``at_ms``: ms since the race's start).  A deleted
player's line is named "deleted player" (:func:`stalactites.rooms.views.unnamed`)."""

from __future__ import annotations

import json
from typing import Any

from ..engine import GameRecord
from ..protocol.room import Standing
from ..store import RoomRow, Store
from .boards import initial_layout, rebuild
from .settings import RoomSettings
from .views import unnamed

__all__ = ["room_record"]


async def room_record(
    row: RoomRow, settings: RoomSettings, store: Store, deleted: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """The record of a finished room (its rows' moves read from ``store``), the ``deleted``
    players' lines unnamed."""
    standings = {line.player_id: unnamed(line, deleted, settings) for line in _results(row)}
    times = await _action_times(row, store)
    players = []
    for player in row.players:
        log = await store.read_log(row.room_id, player.player_id)
        game = rebuild(settings, log)
        line = standings[player.player_id]
        entry = {**line.model_dump(), "record": GameRecord.of(game).to_json()}
        at = times.get(player.player_id, [])
        if len(at) == len(log):
            entry["actions"] = [{"action": a, "at_ms": t} for a, t in zip(log, at, strict=True)]
        players.append(entry)
    return {
        "room_id": row.room_id,
        "game": settings.game,
        "deal": settings.deal,
        "salt": settings.salt,
        "commitment": settings.commitment,
        "step": settings.step,
        "undo": settings.undo,
        "autoplay": settings.autoplay,
        "certified": settings.certified,
        "deal_chosen": settings.deal_chosen,
        "solution": settings.solution,
        "initial_state": initial_layout(settings),
        "players": players,
    }


async def _action_times(row: RoomRow, store: Store) -> dict[str, list[int]]:
    """Every player's action times on the race clock, from the room's action stream."""
    start = row.starts_at or 0
    times: dict[str, list[int]] = {}
    for action in await store.read_actions(row.room_id):
        times.setdefault(action.player_id, []).append(max(action.at_ms - start, 0))
    return times


def _results(row: RoomRow) -> list[Standing]:
    return [Standing.model_validate(line) for line in json.loads(row.results_json or "[]")]
