"""The analysis of runs: verdicts, turning points, undos that mend, accuracy, fewest moves.

The known answers come from a brute force over every legal engine move (memoised on the
engine's own position key), written apart from the solver and sharing nothing with it, on
late positions of real deals reached along a solver's winning line.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest

from stalactites.analysis import BadRecord, analyse
from stalactites.analysis.judges import Judge, SquadronJudge
from stalactites.analysis.report import fewest_moves, judge_run
from stalactites.analysis.runs import Run
from stalactites.engine import Move, Squadron, Stalactites
from stalactites.engine.stalactites import Step
from stalactites.solver import Verdict, solve


def brute_force(game: Stalactites) -> int | None:
    """The fewest engine moves that win ``game`` from here, or None when it cannot be won."""
    game = copy.deepcopy(game)

    @cache
    def fewest(_: object) -> int | None:
        if game.is_won:
            return 0
        best = None
        for move in game.generate_legal_moves():
            game.push(move)
            rest = fewest(game.key())
            game.pop()
            if rest is not None and (best is None or rest + 1 < best):
                best = rest + 1
        return best

    return fewest(game.key())


def late(deal: str, step: str, left: int) -> tuple[list[str], list[str]]:
    """A solver's winning line for the deal, split where ``left`` cards are still to go home."""
    game = Stalactites(deal, step)
    line = [str(move) for move in solve(game).moves]
    for index, move in enumerate(line):
        if 52 - game.foundation_cards <= left:
            return line[:index], line[index:]
        game.push(move)
    return line, []


def played(deal: str, step: str, actions: list[str]) -> Stalactites:
    game = Stalactites(deal, step)
    for action in actions:
        game.pop() if action == "undo" else game.push(action)
    return game


def losing_move(game: Stalactites) -> Move | None:
    for move in game.generate_legal_moves():
        game.push(move)
        lost = brute_force(game) is None
        game.pop()
        if lost:
            return move
    return None


@cache
def blunder() -> tuple[str, list[str], str, list[str]]:
    """(deal, line before, a losing move there, the line's rest), the first found."""
    for number in range(1, 40):
        deal = f"ms:{number}"
        if solve(Stalactites(deal, "ones")).verdict is not Verdict.WON:
            continue
        before, rest = late(deal, "ones", 14)
        move = losing_move(played(deal, "ones", before))
        if move is not None:
            return deal, before, str(move), rest
    raise AssertionError("no late blunder in ms:1..39")


def run_of(actions: list[str]) -> Run:
    return Run("p1", "Ann", "won", 100 * len(actions), tuple(actions), None)


def test_a_winning_line_is_won_all_along_with_full_accuracy() -> None:
    deal = Stalactites("ms:1", "ones")
    line = [str(move) for move in solve(deal).moves]
    verdicts, turning = judge_run(Judge(), deal, run_of(line))
    assert verdicts == [Verdict.WON] * (len(line) + 1) and turning is None


def test_a_lost_deal_is_lost_from_the_start_and_has_no_turning_point() -> None:
    deal = Stalactites("ms:88", "ones")  # lost by ones (the solver's golden verdicts)
    first = str(deal.generate_legal_moves()[0])
    verdicts, turning = judge_run(Judge(), deal, run_of([first]))
    assert verdicts == [Verdict.LOST, Verdict.LOST] and turning is None


def test_a_judge_with_a_state_budget_says_unknown_past_it_and_learns_nothing() -> None:
    deal = Stalactites("ms:88", "ones")  # lost by ones: its search must exhaust the deal
    judge = Judge(max_states=10)
    assert judge.verdict(deal) is Verdict.UNKNOWN
    assert not judge.known[Step.ONES].lost and not judge.known[Step.ONES].won
    assert Judge(max_states=10**6).verdict(deal) is Verdict.LOST
    won = Stalactites("ms:1", "ones")
    assert Judge(max_states=10).verdict(won) is Verdict.UNKNOWN
    assert Judge(max_states=10**6).verdict(won) is Verdict.WON


def test_the_turning_point_is_the_losing_move_and_an_undo_mends_it() -> None:
    deal_id, before, losing, rest = blunder()
    actions = [*before, losing, "undo", *rest]
    deal = Stalactites(deal_id, "ones")
    verdicts, turning = judge_run(Judge(), deal, run_of(actions))
    blunder_at = len(before) + 1
    expected = [Verdict.WON] * (len(actions) + 1)
    expected[blunder_at] = Verdict.LOST
    assert verdicts == expected
    # Each late position agrees with the brute force.
    for index in range(len(before), len(actions) + 1):
        won = brute_force(played(deal_id, "ones", actions[:index])) is not None
        assert won == (verdicts[index] is Verdict.WON), index
    assert turning is not None
    assert (turning.action_index, turning.action) == (blunder_at, losing)
    position = played(deal_id, "ones", before)
    assert turning.position == position.state()
    for move in turning.continuation:
        position.push(move)  # the engine checks every move
    assert position.is_won


def test_the_analysis_of_a_record_counts_accuracy_and_times() -> None:
    deal_id, before, losing, rest = blunder()
    actions = [*before, losing, "undo", *rest]
    final = played(deal_id, "ones", actions)
    line: dict[str, Any] = {
        "player_id": "p1",
        "name": "Ann",
        "status": "won",
        "elapsed_ms": 10 * len(actions) + 500,
        "record": {"game": "stalactites", "deal": deal_id, "step": "ones", "moves": []},
        "actions": [{"action": a, "at_ms": 10 * (i + 1)} for i, a in enumerate(actions)],
    }
    line["record"]["moves"] = [str(move) for move in final.move_stack]
    record = {"game": "stalactites", "deal": deal_id, "step": "ones", "players": [line]}
    analysis = analyse(record)
    player = analysis.players[0]
    from_won = len(actions) - 1  # every action but the undo was played from a won position
    assert player.accuracy == round((from_won - 1) / from_won, 4)
    assert player.times_ms == [10] * len(actions)
    assert player.turning_point is not None and player.turning_point.at_ms == 10 * (len(before) + 1)
    assert player.time_after_turning_point_ms == line["elapsed_ms"] - 10 * (len(before) + 1)
    assert analysis.timeline.racers[0].lost_win_at_ms is None  # the undo mended it
    assert analysis.timeline.first_to_lose_win is None


@pytest.mark.parametrize("step", ["ones", "twos"])
@pytest.mark.parametrize("number", [1, 2, 4, 5, 6])
@pytest.mark.parametrize("left", [10, 14])
def test_fewest_moves_agree_with_a_brute_force_on_late_positions(
    number: int, left: int, step: str
) -> None:
    deal = f"ms:{number}"
    if solve(Stalactites(deal, step)).verdict is not Verdict.WON:
        pytest.skip(f"{deal} is lost by {step}")
    before, _ = late(deal, step, left)
    game = played(deal, step, before)
    fewest = fewest_moves(Judge(), game)
    assert fewest.exact and fewest.value == brute_force(game)
    for move in fewest.line:
        game.push(move)
    assert game.is_won


def test_a_tampered_record_or_another_game_is_refused() -> None:
    line = {
        "player_id": "p1",
        "record": {"game": "stalactites", "deal": "ms:1", "step": "ones", "moves": ["t9-f1"]},
    }
    with pytest.raises(BadRecord, match="refused"):
        analyse({"game": "stalactites", "deal": "ms:1", "step": "ones", "players": [line]})
    with pytest.raises(BadRecord, match="Stalactites or Squadron"):
        analyse({"game": "chess", "deal": "ms:1", "players": []})


def test_squadron_positions_along_a_winning_line_are_won_and_unknown_past_the_budget() -> None:
    deal = Squadron("ms:1")
    line = [str(move) for move in solve(deal, seconds=10).moves]
    assert line, "ms:1 is won by the Squadron solver"
    run = run_of(line[:12])
    verdicts, turning = judge_run(SquadronJudge(), deal, run)
    assert verdicts == [Verdict.WON] * 13 and turning is None
    verdicts, _ = judge_run(SquadronJudge(seconds=0), deal, run)
    assert verdicts == [Verdict.UNKNOWN] * 13  # no budget: no verdict, never a guess
