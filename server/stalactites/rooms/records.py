"""A finished room's game records: every player's moves with the deal revealed, as served by
``GET /api/rooms/{room_id}/record`` (the same document ``stalactites verify`` checks)."""

from __future__ import annotations

import json
from typing import Any

from ..engine import GameRecord
from ..protocol import Standing
from ..store import RoomRow, Store
from .boards import initial_layout, rebuild
from .settings import RoomSettings

__all__ = ["room_record"]


async def room_record(row: RoomRow, settings: RoomSettings, store: Store) -> dict[str, Any]:
    """The record of a finished room (its rows' moves read from ``store``)."""
    standings = {line.player_id: line for line in _results(row)}
    players = []
    for player in row.players:
        game = rebuild(settings, await store.read_log(row.room_id, player.player_id))
        line = standings[player.player_id]
        players.append({**line.model_dump(), "record": GameRecord.of(game).to_json()})
    return {
        "room_id": row.room_id,
        "game": settings.game,
        "deal": settings.deal,
        "salt": settings.salt,
        "commitment": settings.commitment,
        "step": settings.step,
        "undo": settings.undo,
        "certified": settings.certified,
        "deal_chosen": settings.deal_chosen,
        "solution": settings.solution,
        "initial_state": initial_layout(settings),
        "players": players,
    }


def _results(row: RoomRow) -> list[Standing]:
    return [Standing.model_validate(line) for line in json.loads(row.results_json or "[]")]
