"""A player's own data as one JSON document (``GET /api/me/export``), and the reports a
player made, remembered for it.

The document (``"schema": "stalactites-export/1"``; docs/players.md has every field):

* ``profile``: the player's profile as ``GET /api/me`` answers it;
* ``account``: ``registered``, ``username``, ``recovery_codes_left`` (never a code, nor a
  hash of one or of the password);
* ``ratings``: per game, each rated race oldest first, ``{"room_id", "finished_at",
  "rating_before", "rating_after"}`` (the history's ratings as shown: no rating series is
  kept apart from it);
* ``races``: every race of the history, newest first, as ``GET /api/players/{id}/races``
  gives each, with ``moves``: the player's own actions in it (their game record, in the
  rooms' notation; the whole room's record is ``GET /api/rooms/{id}/record``).  An attempt
  at today's daily deal names neither its deal nor its moves until the day is over;
* ``reports_made``: the reports the player filed (fair play keeps each on the reported
  player's record; the players' store remembers them for the reporter too, from the day it
  did: see :func:`remember_report`), oldest first;
* ``fair_play``: what ``GET /api/me/fairplay`` says (runs under review, marked, appeal).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Awaitable, Callable
from typing import Any

from ..store.players.base import PlayerStore
from .races import HistoryEntry
from .service import DAY_MS, PAGE_MAX, PlayerService

__all__ = ["SCHEMA", "MovesOf", "SecretDeals", "player_export", "remember_report"]

SCHEMA = "stalactites-export/1"

MovesOf = Callable[[str, str], Awaitable[list[str]]]
"""The player's actions in a room (room id, player id): its log, empty if none is kept."""
SecretDeals = Callable[[set[str]], Awaitable[set[str]]]
"""Of these games, today's daily deals, secret until the day is over."""


async def player_export(
    players: PlayerService,
    player_id: str,
    *,
    profile: dict[str, Any],
    fair_play: dict[str, Any],
    moves_of: MovesOf,
    secret_deals: SecretDeals,
    now_ms: int,
) -> dict[str, Any]:
    """The player's document (see the module's text)."""
    entries = await _every_race(players, player_id)
    today = now_ms // DAY_MS * DAY_MS
    games = {entry.game for entry in entries if entry.finished_at >= today}
    secret = await secret_deals(games) if games else set()
    races = []
    for start in range(0, len(entries), PAGE_MAX):  # a page's logs read at once
        page = entries[start : start + PAGE_MAX]
        logs = await asyncio.gather(*(moves_of(entry.room_id, player_id) for entry in page))
        for entry, moves in zip(page, logs, strict=True):
            hidden = entry.finished_at >= today and entry.deal in secret
            shown = {"deal": None, "moves": None} if hidden else {"moves": moves}
            races.append(dataclasses.asdict(entry) | shown)
    record = await players.store.load_player(player_id)
    return {
        "schema": SCHEMA,
        "exported_at": now_ms,
        "profile": profile,
        "account": {
            "registered": bool(record and record.registered),
            "username": record.username if record else None,
            "recovery_codes_left": await players.recovery.left(player_id),
        },
        "ratings": _ratings(entries),
        "races": races,
        "reports_made": await _reports(players, player_id),
        "fair_play": fair_play,
    }


async def remember_report(
    store: PlayerStore, reporter_id: str, report: dict[str, Any], at_ms: int
) -> None:
    """Keep a report the player filed among theirs (``report``: its ``report_id``,
    ``player_id`` reported, ``reason``, ``text``, ``room_id``)."""
    text = json.dumps(report | {"at_ms": at_ms}, separators=(",", ":"), ensure_ascii=False)
    await store.add_report_made(reporter_id, text, at_ms)


async def _every_race(players: PlayerService, player_id: str) -> list[HistoryEntry]:
    entries: list[HistoryEntry] = []
    before = None
    while True:
        page = await players.history(player_id, PAGE_MAX, before)
        entries += page.races
        if page.next is None:
            return entries
        before = page.next


def _ratings(entries: list[HistoryEntry]) -> dict[str, list[dict[str, Any]]]:
    """Each game's rated races, oldest first: the rating before and after each."""
    series: dict[str, list[dict[str, Any]]] = {}
    for entry in reversed(entries):
        if entry.rated:
            series.setdefault(entry.game, []).append(
                {
                    "room_id": entry.room_id,
                    "finished_at": entry.finished_at,
                    "rating_before": entry.rating_before,
                    "rating_after": entry.rating_after,
                }
            )
    return series


async def _reports(players: PlayerService, player_id: str) -> list[dict[str, Any]]:
    """The reports made, each with the reported player's name now."""
    made = [json.loads(text) for text in await players.store.reports_made(player_id)]
    names = await players.names_of(sorted({report["player_id"] for report in made}))
    return [report | {"name": names[report["player_id"]]} for report in made]
