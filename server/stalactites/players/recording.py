"""Recording a finished race: ratings, histories, statistics and leaderboards, exactly once.

A race's players live in different Redis Cluster slots (each player's keys share the hash tag
``{player:ID}``), so no one script can change them all.  :func:`record_race` is therefore a
sequence of steps, each one atomic on one slot and each safe to run again, so that any process
may run the whole sequence any number of times, at the same time as others, or resume it
after a process died anywhere in it, and every player's race is applied once:

1. **Pending.** The result is written to the pending races (``HSETNX``, a shared key): from
   now on :func:`resume_pending`, run by any process, finishes it even if nobody calls
   :func:`record_race` for it again.
2. **The outcome, computed once.** The players' current ratings are read and the race rated
   (OpenSkill Plackett-Luce) into an :class:`~.races.RaceOutcome`: each player's rating before
   and after, the change weighted down for opponents met lately
   (:func:`~.ratings.repeat_weight`: how many rated races of the game each pair of them has
   within 24 h is read from their histories, the last :data:`REPEAT_LOOKBACK` entries of
   each; a player whose weight is 0 is left out of the outcome, the race unrated for them).
   It is stored in the room's own slot (``{room:ROOM_ID}:outcome``) if none is there yet:
   the **first writer wins**, and every process goes on with the stored outcome, never its
   own (two processes rating from different readings cannot both count).
3. **Each player, idempotently, one after another.** One script per player, on that
   player's slot, applies the race unless the player's history already holds its room id,
   in one atomic step: rating, statistics, winning times, history entry.  Run again it does
   nothing.  (When another race changed the player's rating between steps 2 and 3, this
   one's change is added to it rather than overwriting it:
   :func:`~stalactites.store.players.base.moved_rating`.)
4. **Leaderboards, mended.** After each player's script, that player's line on the game's
   board (a sorted set, a shared key) is set from the player's record as it is now, with the
   record's ``board_version``: the board keeps a version per player and refuses an older
   one, so a late or repeated step never puts back a stale rating, and running it again
   mends a board a crash left behind.  A deleted player is set off with a version nothing
   reaches.
5. **Done.** The outcome is marked recorded and the race leaves the pending ones; a later
   call reads the mark first and stops there.

A process dying after any step leaves a state from which the next run (a retry, another
process's call, or :func:`resume_pending`) goes on; no step undoes or repeats another's work.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from collections.abc import Awaitable, Callable

from ..store.players import base as players_base
from ..store.players.base import Applied, PlayerRecord, PlayerStore, Rating
from .races import RaceOutcome, RaceResult, history_entry, player_race
from .ratings import REPEAT_WINDOW_MS, displayed, provisional, rate_race, repeat_weight

__all__ = [
    "REPEAT_LOOKBACK",
    "BoardOf",
    "board_key",
    "humans_board",
    "board_shown",
    "claim",
    "record_race",
    "repeat_weights",
    "resume_pending",
    "sync_boards",
]

REPEAT_LOOKBACK = 100  # history entries read per player to find the opponents met lately

BoardOf = Callable[[str], Awaitable[str | None]]
"""Which of a game's leaderboards a player stands on (fair play, :mod:`stalactites.fairplay`):
``""`` the game's, ``"bots"`` the bots' own (:func:`board_key`), None none (a run under
review, or marked)."""


async def humans_board(player_id: str) -> str | None:
    """Everyone on the game's board (a player service on its own, as in tests and tools)."""
    return ""


def board_key(game: str, board: str) -> str:
    """The store's name of one of a game's boards: ``stalactites``, ``stalactites/bots``."""
    return f"{game}/{board}" if board else game


async def record_race(
    store: PlayerStore, result: RaceResult, board_of: BoardOf = humans_board
) -> RaceOutcome:
    """Apply a finished race (see the module's text); its outcome, the stored one."""
    outcome, recorded = await _claim(store, result)
    if recorded:  # (it may still be pending: a claim's HSETNX can follow the mark's HDEL)
        await store.finish_race(result.room_id)
        return outcome
    for seat in outcome.result.players:  # one by one: a crash leaves a clear line behind
        if seat.player_id is None:
            continue
        applied = await store.apply_race(seat.player_id, player_race(outcome, seat))
        if applied is not Applied.NO_PLAYER:
            await sync_boards(store, seat.player_id, (result.game,), board_of)
    await store.finish_race(result.room_id)
    return outcome


async def claim(store: PlayerStore, result: RaceResult) -> RaceOutcome:
    """Steps 1 and 2 only: the race pending and its outcome stored (the first writer's), so
    that a room can show the ratings in its results before they are applied."""
    return (await _claim(store, result))[0]


async def _claim(store: PlayerStore, result: RaceResult) -> tuple[RaceOutcome, bool]:
    """The race's stored outcome, and whether it is recorded everywhere already."""
    result.check()
    found = await store.outcome(result.room_id)
    if found is not None and found[1]:
        return RaceOutcome.from_json(found[0]), True
    await store.add_pending(result.room_id, result.to_json())
    if found is None:
        found = await store.claim_outcome(result.room_id, (await _rated(store, result)).to_json())
    return RaceOutcome.from_json(found[0]), False


async def resume_pending(
    store: PlayerStore, limit: int = 100, board_of: BoardOf = humans_board
) -> int:
    """Finish recording races a process left halfway; how many were looked at."""
    pending = await store.pending(limit)
    for _room_id, result_json in pending:
        await record_race(store, RaceResult.from_json(result_json), board_of)
    return len(pending)


async def sync_boards(
    store: PlayerStore, player_id: str, games: tuple[str, ...], board_of: BoardOf = humans_board
) -> None:
    """Set the player's lines on these games' boards from their record as it is now, on the
    board ``board_of`` says (off the others)."""
    record = await store.load_player(player_id)
    if record is None:
        return
    board = await board_of(player_id)
    for game in games:
        ordinal = None if board is None else _board_ordinal(record, game)
        shown, version = board_shown(record, game), record.board_version
        await store.sync_board(player_id, game, version, None if board else ordinal, shown)
        if board != "":  # (a bot's own board; a player off every board, off it too)
            bots = board_key(game, "bots")
            await store.sync_board(player_id, bots, version, ordinal, shown)


def board_shown(record: PlayerRecord, game: str) -> str:
    """What a leaderboard line shows of the player (in its board member: a page is one read)."""
    rating = record.ratings.get(game, Rating())
    return players_base.board_shown(record.name, displayed(rating), rating.races)


def _board_ordinal(record: PlayerRecord, game: str) -> float | None:
    """Where the player stands on the game's board: registered, rated and not provisional."""
    rating = record.ratings.get(game)
    if not record.registered or rating is None or provisional(rating):
        return None
    return rating.ordinal


async def _rated(store: PlayerStore, result: RaceResult) -> RaceOutcome:
    """The race's outcome from the players' ratings now (unrated races: no ratings), each
    change weighted by :func:`repeat_weights`; a player whose weight is 0 is not rated."""
    if not result.rated:
        return RaceOutcome(result, {}, {})
    ids = [seat.player_id for seat in result.players if seat.player_id is not None]
    records = await asyncio.gather(*(store.load_player(pid) for pid in ids))
    before = {
        pid: (record.ratings.get(result.game, Rating()) if record else Rating())
        for pid, record in zip(ids, records, strict=True)
    }
    weights = await repeat_weights(store, result)
    places = [seat.place for seat in result.players]
    after = rate_race([before[pid] for pid in ids], places, [weights[pid] for pid in ids])
    counted = [pid for pid in ids if weights[pid] > 0]
    if not counted:  # every pair of them has raced enough today: nobody's rating changes
        return RaceOutcome(dataclasses.replace(result, rated=False), {}, {})
    moved = dict(zip(ids, after, strict=True))
    return RaceOutcome(
        result, {pid: before[pid] for pid in counted}, {p: moved[p] for p in counted}
    )


async def repeat_weights(store: PlayerStore, result: RaceResult) -> dict[str, float]:
    """How much the race counts for each of its players: the least
    :func:`~.ratings.repeat_weight` among their opponents, each pair's earlier rated races
    of the game within 24 h found in both players' histories (the last
    :data:`REPEAT_LOOKBACK` entries of each; a race not applied yet, a few milliseconds
    after its results, is not there yet)."""
    ids = [seat.player_id for seat in result.players if seat.player_id is not None]
    since = result.finished_at - REPEAT_WINDOW_MS
    pages = await asyncio.gather(*(store.history(pid, None, REPEAT_LOOKBACK) for pid in ids))
    met: dict[str, set[str]] = {}
    for pid, page in zip(ids, pages, strict=True):
        rooms = met[pid] = set()
        for mark, stored in page[0] if page is not None else []:
            try:
                entry = history_entry(mark, stored)
            except (ValueError, TypeError):  # not an entry this version reads: not a repeat
                continue
            if entry.finished_at < since:
                break  # newest first
            if entry.rated and entry.game == result.game and entry.room_id != result.room_id:
                rooms.add(entry.room_id)
    weights = dict.fromkeys(ids, 1.0)
    for one, other in itertools.combinations(ids, 2):
        weight = repeat_weight(len(met[one] & met[other]))
        weights[one] = min(weights[one], weight)
        weights[other] = min(weights[other], weight)
    return weights
