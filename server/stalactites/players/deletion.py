"""Deleting an account: identity gone, its races kept for the other players.

One script on the player's slot deletes the record, the sessions, the history, the
statistics and the winning times at once: from then on nobody can sign in as the player or
use one of its sessions.  Then, each on its own key: the player's seat name in each of its
races' outcomes becomes "deleted player" (compare and set; the races stay in the other
players' histories), its leaderboard lines go (with a version no later change reaches), and
its username is given up.  A process dying after the first step leaves only what readers
mend: a leaderboard read takes off a line of a player who is gone, and a registration takes
over a username whose owner is gone.
"""

from __future__ import annotations

from dataclasses import replace

from ..store.players_base import DELETED_VERSION, PlayerStore
from .names import DELETED_NAME, username_key
from .races import Outcome, history_entry

__all__ = ["delete_player"]

PAGE = 100  # history entries read at a time


async def delete_player(store: PlayerStore, player_id: str) -> bool:
    """Delete the account; False if there was none."""
    rooms = await _all_rooms(store, player_id)
    record = await store.delete_player(player_id)
    if record is None:
        return False
    for room_id in rooms:
        await _forget_in_outcome(store, room_id, player_id)
    for game in record.ratings:
        await store.sync_board(player_id, game, DELETED_VERSION, None)
    if record.username is not None:
        await store.release_username(username_key(record.username), player_id)
    return True


async def _all_rooms(store: PlayerStore, player_id: str) -> list[str]:
    rooms: list[str] = []
    mark: str | None = None
    while True:
        entries, mark = await store.history(player_id, mark, PAGE)
        rooms += [history_entry(entry).room_id for entry in entries]
        if mark is None:
            return rooms


async def _forget_in_outcome(store: PlayerStore, room_id: str, player_id: str) -> None:
    """The player's seat in the race's outcome named "deleted player"."""
    for _ in range(5):  # (only deletions change an outcome: a second try is plenty)
        found = await store.outcome(room_id)
        if found is None:
            return
        old = Outcome.from_json(found[0])
        seats = tuple(
            replace(seat, name=DELETED_NAME) if seat.player_id == player_id else seat
            for seat in old.result.players
        )
        new = Outcome(replace(old.result, players=seats), old.before, old.after)
        if new == old or await store.replace_outcome(room_id, found[0], new.to_json()):
            return
