"""Deleting an account: identity gone, its races kept for the other players.

First the player's lines leave every game's leaderboard, with a version no later change
reaches (so a race being recorded meanwhile cannot put one back, and a leaderboard page need
not ask whether its players still exist).  Then one script on the player's slot deletes the
record, the sessions, the history, the statistics and the winning times at once: from then
on nobody can sign in as the player or use one of its sessions.  Then, each on its own key:
the player's seat name in each of its races' outcomes becomes "deleted player" (compare and
set; the races stay in the other players' histories), and its username is given up.  A
process dying between the first two steps leaves a player off the leaderboards (the deletion
asked for, answered with an error, finishes when asked again); after them, only what a
registration mends: it takes over a username whose owner is gone.
"""

from __future__ import annotations

from dataclasses import replace

from ..engine.variants import GAMES
from ..store.players.base import DELETED_VERSION, PlayerStore
from .names import DELETED_NAME, username_key
from .races import RaceOutcome

__all__ = ["delete_player"]

PAGE = 100  # history entries read at a time


async def delete_player(store: PlayerStore, player_id: str) -> bool:
    """Delete the account; False if there was none."""
    if not (await store.players_exist([player_id]))[0]:
        return False
    for game in sorted(GAMES):  # every game: one rated meanwhile too
        await store.sync_board(player_id, game, DELETED_VERSION, None)
    rooms = await _all_rooms(store, player_id)
    record = await store.delete_player(player_id)
    if record is None:
        return False
    for room_id in rooms:
        await _forget_in_outcome(store, room_id, player_id)
    if record.username is not None:
        await store.release_username(username_key(record.username), player_id)
    return True


async def _all_rooms(store: PlayerStore, player_id: str) -> list[str]:
    rooms: list[str] = []
    mark: str | None = None
    while True:
        page, more = await store.history(player_id, mark, PAGE) or ([], False)
        marks = [each for each, _ in page]
        rooms += [each.split(":", 1)[1] for each in marks]
        if not more or not marks:
            return rooms
        mark = marks[-1]


async def _forget_in_outcome(store: PlayerStore, room_id: str, player_id: str) -> None:
    """The player's seat in the race's outcome named "deleted player"."""
    for _ in range(5):  # (only deletions change an outcome: a second try is plenty)
        found = await store.outcome(room_id)
        if found is None:
            return
        old = RaceOutcome.from_json(found[0])
        seats = tuple(
            replace(seat, name=DELETED_NAME) if seat.player_id == player_id else seat
            for seat in old.result.players
        )
        new = RaceOutcome(replace(old.result, players=seats), old.before, old.after)
        if new == old or await store.replace_outcome(room_id, found[0], new.to_json()):
            return
