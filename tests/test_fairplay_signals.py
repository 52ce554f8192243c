"""Fair play's pure assessment: a run's signals, what holds it, what opens a case.

Runs are played on real deals: bots play the solver's winning line, human-like players
choose legal moves greedily or at random (with mistakes and undos), 0.8-3 s apart with
jitter.  Hardness is checked against a plain solve of every move from the position.
"""

from __future__ import annotations

import random
import statistics
from functools import cache
from typing import Any

import pytest

from server_kit import winning_line
from stalactites.analysis import BadRecord
from stalactites.analysis.judges import Judge, SquadronJudge
from stalactites.engine import Move, Squadron, Stalactites
from stalactites.fairplay import (
    Signals,
    Standing,
    add,
    assess,
    assess_json,
    case_reasons,
    hold_reasons,
)
from stalactites.fairplay.assess import Oracle, auto_playable
from stalactites.fairplay.bounds import (
    CASE_MIN_RUNS,
    HARD_MAX_SHARE,
    HARD_MIN_CHOICES,
    INHUMAN_STRETCH_MS,
    STRETCH,
)
from stalactites.fairplay.signals import timing
from stalactites.solver import Verdict, solve

DEALS = ["ms:1", "ms:2", "ms:4", "ms:5", "ms:6", "ms:7"]  # each won by ones


def played(deal: str, step: str, actions: list[str]) -> Stalactites:
    game = Stalactites(deal, step)
    for action in actions:
        if action == "undo":
            game.pop()
        elif action.startswith("step:"):
            game.declare_step(action[5:])
        else:
            game.push(action)
    return game


def record(
    deal: str,
    actions: list[str],
    times: list[int] | None,
    step: str = "ones",
    autoplay: bool | None = False,
) -> dict[str, Any]:
    """A finished room's record of one player's run (``times`` None: an untimed record)."""
    game = played(deal, step, actions)
    line: dict[str, Any] = {
        "player_id": "p1",
        "name": "Ann",
        "status": "won" if game.is_won else "resigned",
        "elapsed_ms": times[-1] if times else 0,
        "record": {"game": "stalactites", "deal": deal, "step": step},
    }
    line["record"]["moves"] = [str(move) for move in game.move_stack]
    if times is not None:
        line["actions"] = [{"action": a, "at_ms": t} for a, t in zip(actions, times, strict=True)]
    else:
        line["record"]["moves"] = [str(move) for move in game.move_stack]
        assert "undo" not in actions, "an untimed record gives the final moves only"
    room: dict[str, Any] = {"game": "stalactites", "deal": deal, "step": step, "players": [line]}
    if autoplay is not None:
        room["autoplay"] = autoplay
    return room


def paced(count: int, gap_ms: int, first_ms: int | None = None) -> list[int]:
    first = gap_ms if first_ms is None else first_ms
    return [first + gap_ms * index for index in range(count)]


@cache
def judge_of(deal: str) -> Judge:
    return Judge()  # one per deal, as the server has one per room: the tests' runs share it


def signals(room: dict[str, Any]) -> Signals:
    return assess(room, judge_of(room["deal"]))["p1"]


# The signals, by hand.


def test_timing_of_a_small_run_by_hand() -> None:
    found = timing([1000, 2000, 2500, 4500])
    gaps = [1000, 500, 2000]
    assert found.first_move_ms == 1000 and found.gaps == 3
    assert found.median_gap_ms == 1000
    assert found.gap_cv == round(statistics.pstdev(gaps) / statistics.fmean(gaps), 4) == 0.5345
    assert found.fastest_stretch_ms is None  # fewer than STRETCH moves


def test_the_fastest_stretch_spans_stretch_moves_first_to_last() -> None:
    times = [1000 * index for index in range(1, STRETCH + 6)]
    times[10:] = [t - 4000 + 100 * i for i, t in enumerate(times[10:])]  # a burst, in order
    times = sorted(times)
    expected = min(times[i + STRETCH - 1] - times[i] for i in range(len(times) - STRETCH + 1))
    assert timing(times).fastest_stretch_ms == expected
    assert timing(times[: STRETCH - 1]).fastest_stretch_ms is None
    assert timing(paced(STRETCH, 50)).fastest_stretch_ms == 50 * (STRETCH - 1)


def test_one_gap_gives_no_median_and_even_gaps_a_cv_of_zero() -> None:
    assert timing([500, 900]).median_gap_ms is None and timing([500, 900]).gap_cv is None
    assert timing([]).first_move_ms is None
    assert timing(paced(5, 700)).gap_cv == 0.0 and timing([3, 3, 3]).gap_cv == 0.0


def test_undos_and_a_step_declaration_are_actions_but_not_timed_moves() -> None:
    line = winning_line("ms:1")
    actions = ["step:ones", line[0], "undo", *line[:4]]
    times = [300, 1200, 1500, 2600, 4600, 5100, 9100]
    found = signals(record("ms:1", actions, times, step="choice"))
    assert (found.actions, found.moves) == (7, 5)
    assert found.first_move_ms == 1200  # the step declared at 300 ms reads no card
    # Timed moves at 1200, 2600, 4600, 5100, 9100: the undo's time is in the next gap.
    assert found.gaps == 4 and found.median_gap_ms == 1700
    assert found.decided == 5 and found.accuracy == 1.0 and not found.won and not found.untimed


def test_an_untimed_record_gives_null_timings_and_still_its_accuracy() -> None:
    line = winning_line("ms:2")
    found = signals(record("ms:2", line, None))
    assert found.untimed and found.won and found.accuracy == 1.0
    assert found.first_move_ms is found.median_gap_ms is found.gap_cv is None
    assert found.fastest_stretch_ms is None and found.gaps == 0
    assert hold_reasons(found) == []


def test_assess_json_is_what_a_worker_sends_back() -> None:
    line = winning_line("ms:1")
    room = record("ms:1", line, paced(len(line), 900))
    sent = assess_json(room)
    assert set(sent) == {"p1"}
    assert Signals.model_validate(sent["p1"]) == assess(room)["p1"]


def test_a_tampered_record_is_refused() -> None:
    room = record("ms:1", winning_line("ms:1")[:3], [1000, 2000, 3000])
    room["players"][0]["actions"][1]["action"] = "t9-f1"
    with pytest.raises(BadRecord):
        assess(room)
    with pytest.raises(BadRecord):
        assess({"game": "chess", "deal": "ms:1", "players": []})


# Accuracy and hard positions.


def test_a_blunder_costs_accuracy_and_a_random_run_is_judged_move_by_move() -> None:
    rng = random.Random(7)
    game = Stalactites("ms:1", "ones")
    actions: list[str] = []
    while game.has_legal_move() and len(actions) < 40:
        actions.append(str(rng.choice(game.generate_legal_moves())))
        game.push(actions[-1])
    found = signals(record("ms:1", actions, paced(len(actions), 1000)))
    judge, replay = Judge(), Stalactites("ms:1", "ones")
    verdicts = [judge.verdict(replay)]
    for action in actions:
        replay.push(action)
        verdicts.append(judge.verdict(replay))
    decided = [(a, b) for a, b in zip(verdicts, verdicts[1:], strict=False) if a is Verdict.WON]
    assert found.decided == len(decided)
    assert found.kept == sum(b is Verdict.WON for _, b in decided)
    assert found.accuracy is not None and found.accuracy < 1.0  # random play loses the win


def hard_by_solving(game: Stalactites) -> bool:
    """Hardness from first principles: a plain solve of the position each move reaches,
    moves that reach the same board (same cards in the cells) counted once."""
    outcomes: dict[object, bool] = {}
    for move in game.generate_legal_moves():
        game.push(move)
        board = (
            game.step,
            tuple(map(len, game.tableau)),
            tuple(sorted(zip(game.bases, map(len, game.foundations), strict=True))),
        )
        outcomes[board] = solve(game).verdict is Verdict.WON
        game.pop()
    keeping = sum(outcomes.values())
    return len(outcomes) >= HARD_MIN_CHOICES and keeping <= len(outcomes) * HARD_MAX_SHARE


@pytest.mark.slow
@pytest.mark.parametrize("deal", ["ms:1", "ms:5"])
def test_hard_positions_along_a_winning_line_agree_with_plain_solves(deal: str) -> None:
    line = winning_line(deal)
    game, oracle, hard = Stalactites(deal, "ones"), Oracle(Judge()), 0
    for move in line[:-12]:  # the last positions offer too few moves to be hard
        expected = hard_by_solving(game)
        assert oracle.hard(game) is expected, (deal, str(move))
        hard += expected
        game.push(move)
    assert hard > 0
    found = signals(record(deal, line, paced(len(line), 1500)))
    assert found.hard_positions >= hard and found.hard_accuracy == 1.0


def test_squadron_verdicts_past_the_budget_decide_nothing() -> None:
    deal = Squadron("ms:1")
    moves = [str(m) for m in deal.generate_legal_moves()[:1]]
    deal.push(moves[0])
    line = {
        "player_id": "p1",
        "name": "Ann",
        "status": "resigned",
        "elapsed_ms": 2000,
        "record": {"game": "squadron", "deal": "ms:1", "moves": moves},
        "actions": [{"action": moves[0], "at_ms": 2000}],
    }
    room = {"game": "squadron", "deal": "ms:1", "players": [line]}
    found = assess(room, SquadronJudge(seconds=0))["p1"]
    assert found.decided == 0 and found.accuracy is None and found.hard_positions == 0
    assert found.first_move_ms == 2000 and found.moves == 1


def test_the_auto_play_assists_moves_are_not_timed_unless_the_room_had_it_off() -> None:
    line = winning_line("ms:1")
    game, auto = Stalactites("ms:1", "ones"), 0
    for move in line:
        auto += auto_playable(game, Move.parse(move))
        game.push(move)
    assert 0 < auto < len(line)
    times = paced(len(line), 1500)
    assert signals(record("ms:1", line, times, autoplay=False)).gaps == len(line) - 1
    unsaid = signals(record("ms:1", line, times, autoplay=None))
    assert unsaid.gaps == len(line) - auto - 1


# Holding a run, opening a case.


def test_a_solver_bot_at_50_ms_a_move_is_held() -> None:
    line = winning_line("ms:1")
    found = signals(record("ms:1", line, paced(len(line), 50)))
    assert found.fastest_stretch_ms == 50 * (STRETCH - 1) < INHUMAN_STRETCH_MS
    assert hold_reasons(found) == ["inhuman_speed", "perfect_and_fast"]


def test_a_perfect_run_at_a_fast_human_pace_is_not_held() -> None:
    line = winning_line("ms:1")
    found = signals(record("ms:1", line, paced(len(line), 400)))
    assert found.accuracy == 1.0 and found.won and hold_reasons(found) == []


def test_a_paced_perfect_bot_is_not_held_and_opens_a_case_on_its_fifth_run() -> None:
    standing = Standing()
    for number, deal in enumerate(DEALS[:CASE_MIN_RUNS], start=1):
        line = winning_line(deal)
        found = signals(record(deal, line, paced(len(line), 1500)))
        assert hold_reasons(found) == [] and found.gap_cv == 0.0 and found.accuracy == 1.0
        standing = add(standing, found)
        assert case_reasons(standing) == ([] if number < CASE_MIN_RUNS else ["even_timing"])
    assert standing.runs == standing.perfect == standing.even_runs == CASE_MIN_RUNS


def test_a_humanised_perfect_bot_opens_a_case_on_its_hard_positions() -> None:
    rng, standing = random.Random(3), Standing()
    for number in range(1, 21):
        deal = DEALS[number % len(DEALS)]
        line = winning_line(deal)
        gaps = [rng.randint(1000, 3000) for _ in line]
        found = signals(record(deal, line, [sum(gaps[: i + 1]) for i in range(len(line))]))
        assert hold_reasons(found) == []
        standing = add(standing, found)
        if case_reasons(standing):
            break
    assert case_reasons(standing) == ["perfect_at_hard_positions"], standing
    assert number <= 20


def human_run(deal: str, rng: random.Random, greedy: bool) -> tuple[list[str], list[int]]:
    """Greedy (foundation plays first) or random moves, some taken back, 0.8-3 s apart."""
    actions: list[str]
    game, actions, times, clock = Stalactites(deal, "ones"), [], [], rng.uniform(1500, 4000)
    while game.has_legal_move() and len(actions) < 120:
        legal = game.generate_legal_moves()
        home = [move for move in legal if move.dst.kind.value == "f"]
        action = str(rng.choice(home if greedy and home else legal))
        for taken in [action, "undo"] if rng.random() < 0.08 else [action]:
            game.pop() if taken == "undo" else game.push(taken)
            actions.append(taken)
            times.append(round(clock))
            clock += rng.uniform(800, 3000)
    return actions, times


@pytest.mark.slow
def test_human_like_runs_are_never_held_and_open_no_case() -> None:
    rng = random.Random(29)
    for player in range(12):
        standing = Standing()
        for _ in range(15):
            deal = rng.choice(DEALS)
            found = signals(record(deal, *human_run(deal, rng, greedy=player % 2 == 0)))
            assert hold_reasons(found) == [], found
            standing = add(standing, found)
        assert case_reasons(standing) == [], standing
