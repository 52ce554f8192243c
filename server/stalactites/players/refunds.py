"""Rating losses given back to the opponents of a player marked for unfair play.

When fair play's moderators mark a player (:mod:`stalactites.fairplay`), each opponent who
lost rating to them in a rated race gets that loss back: the marked player's last
:data:`REFUND_RACES` rated races within :data:`REFUND_WINDOW_MS`, at most
:data:`REFUND_MOST` points per opponent in all (the bounds Lichess uses for its refunds).
What goes back is the race's drop of μ (σ stays: the race still told how sure the rating is),
so the shown rating rises by the points lost.  Each refund is one script on the opponent's
slot that also rewrites their history entry of the race to say so (``refund``): run again it
finds the entry changed and gives nothing more, so a pass cut short by a crash is finished by
the next, and points already given count towards the bound.
"""

from __future__ import annotations

from ..store.players.base import PlayerStore, history_mark
from .races import RaceOutcome, history_entry, with_refund
from .ratings import shown_ordinal

__all__ = ["REFUND_MOST", "REFUND_RACES", "REFUND_WINDOW_MS", "refund_opponents"]

REFUND_RACES = 40  # the marked player's latest rated races looked at
REFUND_WINDOW_MS = 5 * 86_400_000  # ...within this long before the mark
REFUND_MOST = 150  # points given back to one opponent at most


async def refund_opponents(store: PlayerStore, marked_id: str, now_ms: int) -> dict[str, int]:
    """Give back the marked player's opponents' losses; the points given now, by player."""
    found = await store.history(marked_id, None, REFUND_RACES)
    given: dict[str, int] = {}  # counted towards the bound: given earlier too
    now_given: dict[str, int] = {}
    for mark, stored in (found or ([], False))[0]:
        race = history_entry(mark, stored)
        if not race.rated or now_ms - race.finished_at > REFUND_WINDOW_MS:
            continue
        kept = await store.outcome(race.room_id)
        if kept is None:
            continue
        outcome = RaceOutcome.from_json(kept[0])
        for player_id, after in outcome.after.items():
            before = outcome.before[player_id]
            if player_id == marked_id or after.mu >= before.mu:
                continue
            points = await _refund(store, player_id, outcome, before.mu - after.mu, given)
            if points:
                now_given[player_id] = now_given.get(player_id, 0) + points
    return now_given


async def _refund(
    store: PlayerStore, player_id: str, outcome: RaceOutcome, lost_mu: float, given: dict[str, int]
) -> int:
    """One opponent's refund of one race (0: given before, or the bound reached)."""
    result = outcome.result
    mark = history_mark(result.finished_at, result.room_id)
    page = await store.history(player_id, mark + "~", 1)  # the entry of this race
    entries = (page or ([], False))[0]
    if not entries or entries[0][0] != mark:
        return 0
    stored = entries[0][1]
    earlier = history_entry(mark, stored).refund
    if earlier is not None:
        given[player_id] = given.get(player_id, 0) + earlier
        return 0
    room = REFUND_MOST - given.get(player_id, 0)
    points = min(shown_ordinal(lost_mu) - shown_ordinal(0.0), room)
    if points <= 0:
        return 0
    new = with_refund(stored, points)
    if not await store.refund(player_id, result.game, result.room_id, stored, new, points / 25):
        return 0
    given[player_id] = given.get(player_id, 0) + points
    return points
