"""The analysis of a finished room's record: every run judged, the fewest moves, the timeline.

:func:`analyse` takes the record ``GET /api/rooms/{room_id}/record`` serves (or a file of it)
and returns the :class:`~.models.Analysis`; it raises :class:`~.runs.BadRecord` for a record
it cannot analyse.  It is pure computation: the server runs it in a worker process.
"""

from __future__ import annotations

import time
from typing import Any

from ..engine import Game, Stalactites
from ..engine.actions import apply_action
from ..solver.result import Verdict
from ..solver.search import _copy
from ..solver.stalactites import StalactitesPosition, play_line
from .fewest import DEFAULT_SECONDS, ParkSearch
from .judges import Judge, judge_for
from .known import SharedSearch, steps_of
from .models import Analysis, FewestMoves, PlayerAnalysis, RacerTimeline, Timeline, TurningPoint
from .runs import Run, new_deal_game, runs_of

__all__ = ["SLOWEST", "analyse", "analyse_json", "fewest_moves", "judge_run"]

SLOWEST = 3  # how many of the slowest actions a player's analysis names


def analyse_json(record: dict[str, Any]) -> dict[str, Any]:
    """:func:`analyse` as JSON (what a worker process sends back)."""
    return analyse(record).model_dump()


def analyse(record: dict[str, Any]) -> Analysis:
    runs = runs_of(record)
    deal = new_deal_game(record)
    judge = judge_for(deal)
    judged = [judge_run(judge, deal, run) for run in runs]
    fewest = fewest_moves(judge, deal)
    players = [
        _player(run, verdicts, tp, fewest, deal)
        for run, (verdicts, tp) in zip(runs, judged, strict=True)
    ]
    racers = [_racer(run, deal, verdicts) for run, (verdicts, _) in zip(runs, judged, strict=True)]
    lost = [(r.lost_win_at_ms, r.player_id) for r in racers if r.lost_win_at_ms is not None]
    room_id = record.get("room_id")
    return Analysis(
        room_id=room_id if isinstance(room_id, str) else None,
        game=deal.name,
        deal=str(deal.deal),
        players=players,
        timeline=Timeline(racers=racers, first_to_lose_win=min(lost)[1] if lost else None),
    )


def judge_run(judge: Judge, deal: Game, run: Run) -> tuple[list[Verdict], TurningPoint | None]:
    """Every position's verdict (0: the deal), and the turning point."""
    game = _copy(deal)
    verdicts = [judge.verdict(game)]
    turning: TurningPoint | None = None
    for index, action in enumerate(run.actions):
        before = _copy(game) if turning is None and verdicts[-1] is Verdict.WON else None
        apply_action(game, action)
        verdicts.append(judge.verdict(game))
        if before is not None and verdicts[-1] is Verdict.LOST:
            turning = TurningPoint(
                action_index=index + 1,
                action=action,
                at_ms=None if run.times is None else run.times[index],
                position=before.state(),
                continuation=judge.continuation(before),
            )
    return verdicts, turning


def fewest_moves(judge: Judge, deal: Game, seconds: float = DEFAULT_SECONDS) -> FewestMoves:
    """The fewest moves of a win of the deal (Stalactites: exact within ``seconds`` of park
    search (CPU time), both steps together; Squadron: the length of the solver's line, an upper
    bound)."""
    if not isinstance(deal, Stalactites):
        line = judge.continuation(deal)
        return FewestMoves(value=len(line) if line else None, exact=False, line=line)
    best: FewestMoves | None = None
    exact, deadline = True, time.process_time() + seconds
    for step in steps_of(deal):
        board = StalactitesPosition.of(deal, step)
        shared = SharedSearch(StalactitesPosition.of(deal, step), judge.known[step])
        if shared.run() is not Verdict.WON:
            continue
        known = judge.known[step].won[board.key()]
        search = ParkSearch(board, judge.known[step].lost, deadline - time.process_time())
        found = search.fewest(known)
        exact = exact and found.exact
        line = [str(m) for m in play_line(_copy(deal), search._engine_plays(list(found.path)))]
        if best is None or len(line) < len(best.line):
            best = FewestMoves(value=len(line), exact=found.exact, line=line)
    if best is None:
        return FewestMoves(value=None, exact=True, line=[])
    return best.model_copy(update={"exact": exact})


def _player(
    run: Run,
    verdicts: list[Verdict],
    turning: TurningPoint | None,
    fewest: FewestMoves,
    deal: Game,
) -> PlayerAnalysis:
    game = _copy(deal)
    for action in run.actions:
        apply_action(game, action)
    times = _durations(run.times)
    slowest = sorted(range(len(times or [])), key=lambda i: (-(times or [])[i], i))[:SLOWEST]
    after = None
    if turning is not None and turning.at_ms is not None:
        after = max(run.elapsed_ms - turning.at_ms, 0)
    return PlayerAnalysis(
        player_id=run.player_id,
        name=run.name,
        verdicts=[v.value for v in verdicts],
        turning_point=turning,
        accuracy=_accuracy(verdicts),
        moves=len(game.move_stack),
        fewest_moves=fewest,
        times_ms=times,
        slowest=[i + 1 for i in slowest],
        time_after_turning_point_ms=after,
    )


def _durations(times: tuple[int, ...] | None) -> list[int] | None:
    if times is None:
        return None
    return [b - a for a, b in zip((0, *times), times, strict=False)]


def _accuracy(verdicts: list[Verdict]) -> float | None:
    """Of the actions from won positions (with a decided result), the share that stayed won."""
    pairs = [(a, b) for a, b in zip(verdicts, verdicts[1:], strict=False) if a is Verdict.WON]
    decided = [b for _, b in pairs if b is not Verdict.UNKNOWN]
    if not decided:
        return None
    return round(sum(b is Verdict.WON for b in decided) / len(decided), 4)


def _racer(run: Run, deal: Game, verdicts: list[Verdict]) -> RacerTimeline:
    game = _copy(deal)
    foundation = [[0, game.foundation_cards]]
    for index, action in enumerate(run.actions):
        apply_action(game, action)
        if game.foundation_cards != foundation[-1][1]:
            at = index + 1 if run.times is None else run.times[index]
            foundation.append([at, game.foundation_cards])
    lost_at = None
    if verdicts[-1] is Verdict.LOST:
        for index in range(len(verdicts) - 1, 0, -1):
            if verdicts[index - 1] is Verdict.WON:
                lost_at = index if run.times is None else run.times[index - 1]
                break
    return RacerTimeline(player_id=run.player_id, foundation=foundation, lost_win_at_ms=lost_at)
