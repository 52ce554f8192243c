"""Solver benchmark (issue 3), one command printing the figures against the goals::

    nice .venv/bin/python bench/solver.py [--stalactites N] [--squadron N] [--seconds S]

* Stalactites, ms:1 ... ms:N (default 1000), both steps, exact: every (deal, step) decided,
  median under 5 ms, the whole batch under 60 s; also the states searched per second.
* Squadron, ms:1 ... ms:N (default 200) at S seconds each (default 10): at least 75% won.

Times are wall-clock times of this process (the machine is shared: run it niced, alone);
the CPU time is printed next to them.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from dataclasses import dataclass

from stalactites.engine import new_game
from stalactites.solver import Solution, Verdict, solve

STALACTITES_MEDIAN_GOAL = 0.005
STALACTITES_TOTAL_GOAL = 60.0
SQUADRON_WON_GOAL = 0.75
NO_STATE_CAP = 10**12


@dataclass
class Batch:
    solutions: list[Solution]
    wall: float
    cpu: float

    def count(self, verdict: Verdict) -> int:
        return sum(1 for s in self.solutions if s.verdict is verdict)

    @property
    def states_per_second(self) -> float:
        """Positions searched per second of this process's CPU time."""
        return sum(s.states for s in self.solutions) / self.cpu


def run_batch(game: str, deals: int, steps: tuple[str | None, ...], seconds: float | None) -> Batch:
    wall, cpu = time.perf_counter(), time.process_time()
    solutions = []
    for number in range(1, deals + 1):
        for step in steps:
            board = new_game(game, f"ms:{number}", step)
            cap = None if seconds is None else NO_STATE_CAP
            solutions.append(solve(board, max_states=cap, seconds=seconds))
    return Batch(solutions, time.perf_counter() - wall, time.process_time() - cpu)


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def report_stalactites(batch: Batch, deals: int) -> None:
    times = [s.seconds for s in batch.solutions]
    median, longest = statistics.median(times), max(times)
    undecided = batch.count(Verdict.UNKNOWN)
    print(f"Stalactites ms:1..ms:{deals}, both steps: {len(times)} searches")
    print(f"  decided        {len(times) - undecided}/{len(times)}  {verdict(undecided == 0)}")
    print(f"  won            {batch.count(Verdict.WON)}, lost {batch.count(Verdict.LOST)}")
    print(
        f"  total          {batch.wall:.1f} s wall ({batch.cpu:.1f} s CPU)  goal < 60 s  "
        f"{verdict(batch.wall < STALACTITES_TOTAL_GOAL)}"
    )
    print(
        f"  median         {median * 1000:.2f} ms  goal < 5 ms  "
        f"{verdict(median < STALACTITES_MEDIAN_GOAL)}"
    )
    print(f"  maximum        {longest * 1000:.0f} ms")
    print(f"  states/second  {batch.states_per_second:,.0f} (per CPU second)")


def report_squadron(batch: Batch, deals: int, seconds: float) -> None:
    won = batch.count(Verdict.WON)
    rate = won / deals
    print(f"Squadron ms:1..ms:{deals} at {seconds:g} s each")
    print(
        f"  won            {won}/{deals} = {rate:.1%}  goal >= 75%  "
        f"{verdict(rate >= SQUADRON_WON_GOAL)}"
    )
    print(f"  unknown        {batch.count(Verdict.UNKNOWN)}, lost {batch.count(Verdict.LOST)}")
    print(f"  total          {batch.wall:.0f} s wall ({batch.cpu:.0f} s CPU)")
    print(f"  states/second  {batch.states_per_second:,.0f} (per CPU second)")


def main() -> None:
    parser = argparse.ArgumentParser(description="the solver benchmark of issue 3")
    parser.add_argument("--stalactites", type=int, default=1000, metavar="N", help="deals")
    parser.add_argument("--squadron", type=int, default=200, metavar="N", help="deals (0: none)")
    parser.add_argument("--seconds", type=float, default=10.0, help="Squadron time per deal")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}")
    if args.stalactites:
        batch = run_batch("stalactites", args.stalactites, ("ones", "twos"), None)
        report_stalactites(batch, args.stalactites)
    if args.squadron:
        batch = run_batch("squadron", args.squadron, (None,), args.seconds)
        report_squadron(batch, args.squadron, args.seconds)


if __name__ == "__main__":
    main()
