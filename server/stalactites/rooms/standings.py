"""Places: winners by elapsed time; the rest, when the race ends, by foundation cards, then by
when their foundation count last changed (earlier is better).  Exact ties share a place.

A winner's place is fixed when they win (the store counts winners); everyone
else is placed here when the race ends, and anyone still playing then is
finished with status ``timeout``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..protocol import Standing
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
    return FinalResults(finishers, timed_out, _standings(row, finishers))


def _standings(row: RoomRow, finishers: list[Finisher]) -> list[Standing]:
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
        )
        for line in finishers
    ]
    lines.sort(key=lambda line: (line.place, by_id[line.player_id].seat))
    return lines
