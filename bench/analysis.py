"""Analysis benchmark (issue 15), one command printing the figures against the goals::

    nice .venv/bin/python bench/analysis.py [--deals N] [--first K] [--check-every M]

Runs are made from ms:K ... ms:K+N-1 (default ms:1 ... ms:1000), one per deal, on a step
the deal is won by when there is one: the solver's line with random deviations (one action
in eight is a random legal move; half of those are undone at once, the rest are kept, and
the line is found again from there, so some runs turn lost), stopping when the board is won
or stuck.  The figures, against the goals:

* per run, the CPU time of all its verdicts (one judge, as the server makes one per room):
  p50 < 50 ms and p99 < 500 ms;
* fewest moves (the park search, 2 s of CPU per deal): exact for at least 95% of the deals won;
* every verdict of every M-th run (default 10) against a plain solve of the same position.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from benchkit import percentile  # noqa: E402
from stalactites.analysis.judges import Judge  # noqa: E402
from stalactites.analysis.report import fewest_moves, judge_run  # noqa: E402
from stalactites.analysis.runs import Run  # noqa: E402
from stalactites.engine import Stalactites  # noqa: E402
from stalactites.engine.actions import apply_action  # noqa: E402
from stalactites.solver import Verdict, solve  # noqa: E402

P50_GOAL, P99_GOAL, EXACT_GOAL = 0.050, 0.500, 0.95
DEVIATE, UNDO = 1 / 8, 0.5
MAX_ACTIONS = 150


def won_step(deal: str) -> str:
    for step in ("ones", "twos"):
        if solve(Stalactites(deal, step)).verdict is Verdict.WON:
            return step
    return "ones"


def make_run(deal: str, step: str, rng: random.Random) -> list[str]:
    """A run as described in the module: the solver's line, deviations, undos."""
    game = Stalactites(deal, step)
    actions: list[str] = []
    line = [str(move) for move in solve(game).moves]
    while len(actions) < MAX_ACTIONS and not game.is_won:
        legal = [str(move) for move in game.generate_legal_moves()]
        if not legal:
            break
        if line and rng.random() >= DEVIATE:
            action = line.pop(0)
        else:
            action = rng.choice(legal)
            if action != (line[0] if line else None):
                apply_action(game, action)
                actions.append(action)
                if rng.random() < UNDO:
                    action = "undo"
                else:
                    line = [str(move) for move in solve(game).moves]
                    continue
            else:
                line.pop(0)
        apply_action(game, action)
        actions.append(action)
    return actions


def checked(deal: str, step: str, actions: list[str], verdicts: list[Verdict]) -> int:
    """How many verdicts disagree with a plain solve of the same position."""
    game, wrong = Stalactites(deal, step), 0
    for index, verdict in enumerate(verdicts):
        if index:
            apply_action(game, actions[index - 1])
        wrong += solve(game).verdict is not verdict
    return wrong


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--check-every", type=int, default=10)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    times, fewest_times, exact, won_deals, turned = [], [], 0, 0, 0
    verdicts_checked = wrong = positions = 0
    started = time.perf_counter()
    for number in range(args.first, args.first + args.deals):
        deal = f"ms:{number}"
        step = won_step(deal)
        actions = make_run(deal, step, rng)
        run = Run("p", "bench", "won", 0, tuple(actions), None)
        judge, clock = Judge(), time.process_time()
        verdicts, turning = judge_run(judge, Stalactites(deal, step), run)
        times.append(time.process_time() - clock)
        positions += len(verdicts)
        turned += turning is not None
        if verdicts[0] is Verdict.WON:
            won_deals += 1
            clock = time.process_time()
            exact += fewest_moves(judge, Stalactites(deal, step)).exact
            fewest_times.append(time.process_time() - clock)
        if (number - args.first) % args.check_every == 0:
            verdicts_checked += len(verdicts)
            wrong += checked(deal, step, actions, verdicts)
    p50, p99 = percentile(times, 0.5) / 1000, percentile(times, 0.99) / 1000
    share = exact / max(won_deals, 1)
    print(
        f"runs: {len(times)} (ms:{args.first}..ms:{args.first + args.deals - 1}), "
        f"{turned} with a turning point, {positions} positions judged"
    )
    print(
        f"verdicts per run (CPU): p50 {p50 * 1000:.1f} ms (goal < 50), "
        f"p99 {p99 * 1000:.1f} ms (goal < 500), max {max(times) * 1000:.1f} ms"
    )
    print(
        f"fewest moves: exact for {exact} of {won_deals} won deals = {share:.1%} "
        f"(goal >= 95%), p50 {percentile(fewest_times, 0.5):.0f} ms, "
        f"max {max(fewest_times, default=0):.2f} s"
    )
    print(f"verdicts checked against a plain solve: {verdicts_checked}, wrong {wrong}")
    print(f"wall time: {time.perf_counter() - started:.0f} s")
    ok = p50 < P50_GOAL and p99 < P99_GOAL and share >= EXACT_GOAL and wrong == 0
    print("goals met" if ok else "GOALS NOT MET")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
