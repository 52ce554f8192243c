"""Places: winners by elapsed time; the rest, when the race ends, by foundation cards, then by
when their foundation count last changed (earlier is better).  Exact ties share a place.

A winner's place is fixed when they win (the store counts winners); everyone
else is placed here when the race ends, and anyone still playing then is
finished with status ``timeout``.  Where the time of the last card decided between racers
of equal cards, their lines say it (``last_card_ms``), so that the results show what placed
them: a resignation's time (``elapsed_ms``) never does.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..protocol.room import Standing
from ..store import Finisher, PlayerRow, RoomRow

__all__ = ["FinalResults", "final_results"]


@dataclass(frozen=True, slots=True)
class FinalResults:
    finishers: list[Finisher]  # every player's place; status and elapsed for the timed out
    timed_out: list[Finisher]
    standings: list[Standing]


def _rank_key(player: PlayerRow, starts_at: int) -> tuple[int, int]:
    reached = player.progress.reached_ms
    return (-player.progress.foundation_cards, starts_at if reached is None else reached)


def final_results(row: RoomRow) -> FinalResults:
    """The final lines of a race that is ending now (everyone done, or time up)."""
    assert row.starts_at is not None and row.ends_at is not None
    limit = row.ends_at - row.starts_at
    winners = sorted(
        (p for p in row.players if p.finish == "won"), key=lambda p: (p.place or 0, p.seat)
    )
    rest = sorted(
        (p for p in row.players if p.finish != "won"),
        key=lambda p: (_rank_key(p, row.starts_at or 0), p.seat),
    )
    finishers = [
        Finisher(p.player_id, p.place or i + 1, "won", p.elapsed_ms or 0)
        for i, p in enumerate(winners)
    ]
    timed_out = []
    place, previous = len(winners), None
    for index, player in enumerate(rest):
        key = _rank_key(player, row.starts_at)
        if key != previous:
            place, previous = len(winners) + index + 1, key
        finish = player.finish or "timeout"
        elapsed = limit if player.elapsed_ms is None else player.elapsed_ms
        line = Finisher(player.player_id, place, finish, elapsed)
        finishers.append(line)
        if player.finish is None:
            timed_out.append(line)
    return FinalResults(finishers, timed_out, _standings(row, finishers, _tie_breaks(rest, row)))


def _tie_breaks(rest: list[PlayerRow], row: RoomRow) -> dict[str, int]:
    """The time of the last card (race time) of each racer it placed: those not winning with
    as many foundation cards as another racer whose last card came at another time."""
    starts_at = row.starts_at or 0
    groups: dict[int, list[PlayerRow]] = {}
    for player in rest:
        groups.setdefault(player.progress.foundation_cards, []).append(player)
    decided = {}
    for group in groups.values():
        if len({_rank_key(player, starts_at) for player in group}) < 2:
            continue
        for player in group:
            reached = player.progress.reached_ms
            decided[player.player_id] = max((reached or starts_at) - starts_at, 0)
    return decided


def _standings(row: RoomRow, finishers: list[Finisher], ties: dict[str, int]) -> list[Standing]:
    by_id = {player.player_id: player for player in row.players}
    lines = [
        Standing(
            player_id=line.player_id,
            name=by_id[line.player_id].name,
            place=line.place,
            status=line.finish,  # type: ignore[arg-type]
            foundation_cards=by_id[line.player_id].progress.foundation_cards,
            moves=by_id[line.player_id].progress.moves,
            elapsed_ms=line.elapsed_ms,
            last_card_ms=ties.get(line.player_id),
        )
        for line in finishers
    ]
    lines.sort(key=lambda line: (line.place, by_id[line.player_id].seat))
    return lines
