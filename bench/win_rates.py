"""The win-rate table: how often Stalactites and Squadron deals come out.

Runs the solver over ms:1 ... ms:32000 for Stalactites (exact, both steps) and over
ms:1 ... ms:1000 for Squadron (best effort within a state budget), and writes
docs/win-rates.md with the figures and the command that produced them::

    nice .venv/bin/python bench/win_rates.py

With ``--golden FILE`` it instead writes the golden verdicts file the tests compare against
(Stalactites, ms:1 ... ms:200, both steps)::

    .venv/bin/python bench/win_rates.py --golden tests/data/stalactites-verdicts.txt

With ``--squadron-seconds S --deals FIRST:LAST --log FILE`` it runs only Squadron, giving each
deal S seconds of this process's CPU time (so a loaded machine slows the run, not the
verdicts), replays every won line through the engine, appends one line per deal to FILE (a
rerun skips the deals already there, so blocks can run apart and be stopped), and prints the
shares won, lost and undecided; ``--summarise FILE ...`` prints them for logs already made::

    nice .venv/bin/python bench/win_rates.py --squadron-seconds 10 --deals 1:100 --log a.txt
    .venv/bin/python bench/win_rates.py --summarise a.txt b.txt
"""

from __future__ import annotations

import argparse
import datetime
import platform
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from stalactites.engine import GameRecord, Squadron, Status, new_game, replay
from stalactites.solver import Solution, Verdict, solve
from stalactites.solver.squadron import SquadronSearch, play_line

ROOT = Path(__file__).resolve().parent.parent
STEPS = ("ones", "twos")
GOLDEN_DEALS = 200


@dataclass(frozen=True)
class Outcome:
    deal: str
    step: str
    verdict: Verdict
    states: int
    seconds: float


def solve_deal(game: str, deal: str, step: str | None, max_states: int | None) -> Outcome:
    solution: Solution = solve(new_game(game, deal, step), max_states=max_states)
    return Outcome(deal, step or "play", solution.verdict, solution.states, solution.seconds)


def run(game: str, last: int, steps: tuple[str | None, ...], budget: int | None) -> list[Outcome]:
    outcomes: list[Outcome] = []
    started = time.perf_counter()
    for number in range(1, last + 1):
        for step in steps:
            outcomes.append(solve_deal(game, f"ms:{number}", step, budget))
        if number % 500 == 0 or number == last:
            elapsed = time.perf_counter() - started
            print(f"{game}: {number}/{last} deals, {elapsed:.0f} s", file=sys.stderr, flush=True)
    return outcomes


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def stalactites_section(outcomes: list[Outcome], last: int) -> list[str]:
    won = {
        step: {o.deal for o in outcomes if o.step == step and o.verdict is Verdict.WON}
        for step in STEPS
    }
    undecided = [o for o in outcomes if o.verdict is Verdict.UNKNOWN]
    either, both = won["ones"] | won["twos"], won["ones"] & won["twos"]
    lines = [
        f"## Stalactites: ms:1 … ms:{last}, exact",
        "",
        f"Every (deal, step) decided: {'yes' if not undecided else f'no, {len(undecided)} not'}.",
        "",
        "| won by | deals | rate |",
        "|---|---:|---:|",
        f"| ones | {len(won['ones'])} | {percent(len(won['ones']), last)} |",
        f"| twos | {len(won['twos'])} | {percent(len(won['twos']), last)} |",
        f"| either step | {len(either)} | {percent(len(either), last)} |",
        f"| both steps | {len(both)} | {percent(len(both), last)} |",
        "",
    ]
    lines += cross_check(outcomes)
    slowest = sorted(outcomes, key=lambda o: (o.states, o.seconds), reverse=True)[:10]
    lines += ["The largest searches (positions visited; the seconds depend on the machine's load):"]
    lines += ["", "| deal | step | verdict | states | seconds |"]
    lines.append("|---|---|---|---:|---:|")
    for o in slowest:
        lines.append(f"| {o.deal} | {o.step} | {o.verdict.value} | {o.states} | {o.seconds:.2f} |")
    total = sum(o.seconds for o in outcomes)
    lines += ["", f"Solver time for the {len(outcomes)} searches: {total:.0f} s.", ""]
    return lines


def cross_check(outcomes: list[Outcome]) -> list[str]:
    """The figures of docs/rules.md for ms:1 ... ms:200: 92.0% by ones, 90.5% by twos, 98.0%
    by either."""
    first = [o for o in outcomes if int(o.deal[3:]) <= GOLDEN_DEALS and o.verdict is Verdict.WON]
    ones = {o.deal for o in first if o.step == "ones"}
    twos = {o.deal for o in first if o.step == "twos"}
    return [
        f"Cross-check with docs/rules.md on ms:1 … ms:{GOLDEN_DEALS}: "
        f"{percent(len(ones), GOLDEN_DEALS)} by ones (92.0%), "
        f"{percent(len(twos), GOLDEN_DEALS)} by twos (90.5%), "
        f"{percent(len(ones | twos), GOLDEN_DEALS)} by either (98.0%).",
        "",
    ]


def squadron_section(outcomes: list[Outcome], last: int, budget: int) -> list[str]:
    counts = {v: sum(1 for o in outcomes if o.verdict is v) for v in Verdict}
    total = sum(o.seconds for o in outcomes)
    return [
        f"## Squadron: ms:1 … ms:{last}, best effort, {budget:,} states per deal",
        "",
        "| verdict | deals | rate |",
        "|---|---:|---:|",
        *(f"| {v.value} | {counts[v]} | {percent(counts[v], last)} |" for v in Verdict),
        "",
        "`unknown` means the budget ran out, not that the deal cannot be won: the won rate is",
        "a lower bound on how many deals can be won.",
        "",
        f"Solver time for the {len(outcomes)} searches: {total:.0f} s.",
        "",
    ]


def budget_solve(number: int, seconds: float) -> str:
    """One log line: the deal, its verdict within ``seconds`` of CPU time, the positions, the
    CPU seconds, the length of the winning line (replayed to a win through the engine), and
    which search decided (``SquadronSearch.decider``, -1 for none)."""
    game = Squadron(f"ms:{number}")
    started = time.process_time()
    search = SquadronSearch(game, 10**12, seconds, time.process_time)
    verdict = search.run()
    spent = time.process_time() - started
    moves = 0
    if verdict is Verdict.WON:
        line = [str(m) for m in play_line(new_game("squadron", f"ms:{number}"), search.line)]
        result = replay(GameRecord("squadron", f"ms:{number}", None, tuple(line)))
        if not (result.valid and result.status is Status.WON):
            raise AssertionError(f"ms:{number}: the winning line does not replay to a win")
        moves = len(line)
    return f"ms:{number} {verdict.value} {search.states} {spent:.2f} {moves} {search.decider}"


def budget_run(deals: str, seconds: float, log: Path) -> None:
    first, _, last = deals.partition(":")
    done = set(read_log(log)) if log.exists() else set()
    with log.open("a", encoding="utf-8") as out:
        for number in range(int(first), int(last or first) + 1):
            if f"ms:{number}" not in done:
                print(budget_solve(number, seconds), file=out, flush=True)
    print("\n".join(summary([log])))


def read_log(log: Path) -> dict[str, tuple[str, float]]:
    """Deal -> (verdict, CPU seconds), from a ``--log`` file."""
    rows = [line.split() for line in log.read_text(encoding="utf-8").splitlines() if line]
    return {row[0]: (row[1], float(row[3])) for row in rows}


def summary(logs: list[Path]) -> list[str]:
    rows: dict[str, tuple[str, float]] = {}
    for log in logs:
        rows |= read_log(log)
    total = len(rows)
    counts = {v: sum(1 for verdict, _ in rows.values() if verdict == v.value) for v in Verdict}
    decided = counts[Verdict.WON] + counts[Verdict.LOST]
    slowest = sorted(seconds for verdict, seconds in rows.values() if verdict != "unknown")
    lines = [
        f"{total} deals: won {counts[Verdict.WON]} ({percent(counts[Verdict.WON], total)}), "
        f"lost {counts[Verdict.LOST]} ({percent(counts[Verdict.LOST], total)}), "
        f"undecided {counts[Verdict.UNKNOWN]} ({percent(counts[Verdict.UNKNOWN], total)}); "
        f"decided {percent(decided, total)}",
        "undecided: " + " ".join(sorted((d for d, r in rows.items() if r[0] == "unknown"), key=_n)),
    ]
    if slowest:
        lines.append(f"decided: median {slowest[len(slowest) // 2]:.2f} s, max {slowest[-1]:.2f} s")
    return lines


def _n(deal: str) -> int:
    return int(deal.partition(":")[2])


def header(command: str, seconds: float) -> list[str]:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    day = datetime.date.today().isoformat()
    return [
        "# Win rates",
        "",
        "How often deals come out, by the project's solver (see `docs/solver.md`).",
        "",
        f"Produced by `{command}` on {day} at commit {commit or 'unknown'}, "
        f"Python {platform.python_version()}, in {seconds / 60:.0f} minutes.",
        "",
    ]


def write_golden(path: Path) -> None:
    outcomes = run("stalactites", GOLDEN_DEALS, STEPS, None)
    verdicts = {(o.deal, o.step): o.verdict.value for o in outcomes}
    lines = [
        f"# Stalactites verdicts, ms:1 ... ms:{GOLDEN_DEALS}: deal, then the verdict by ones and",
        "# by twos.  Written by: .venv/bin/python bench/win_rates.py --golden " + str(path),
    ]
    for number in range(1, GOLDEN_DEALS + 1):
        deal = f"ms:{number}"
        lines.append(f"{deal} {verdicts[deal, 'ones']} {verdicts[deal, 'twos']}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stalactites", type=int, default=32000, metavar="N", help="deals")
    parser.add_argument("--squadron", type=int, default=1000, metavar="N", help="deals")
    parser.add_argument("--squadron-states", type=int, default=300_000, metavar="N")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "win-rates.md")
    parser.add_argument("--golden", type=Path, metavar="FILE", help="write the golden file")
    parser.add_argument("--squadron-seconds", type=float, metavar="S", help="CPU s per deal")
    parser.add_argument("--deals", default="1:1000", metavar="FIRST:LAST")
    parser.add_argument("--log", type=Path, metavar="FILE", help="with --squadron-seconds")
    parser.add_argument("--summarise", type=Path, nargs="+", metavar="FILE")
    args = parser.parse_args()
    if args.summarise:
        print("\n".join(summary(args.summarise)))
        return
    if args.squadron_seconds is not None:
        budget_run(args.deals, args.squadron_seconds, args.log or Path("squadron-budget.txt"))
        return
    if args.golden is not None:
        write_golden(args.golden)
        return
    started = time.perf_counter()
    stalactites = run("stalactites", args.stalactites, STEPS, None)
    squadron = run("squadron", args.squadron, (None,), args.squadron_states)
    command = "nice .venv/bin/python bench/win_rates.py " + " ".join(sys.argv[1:])
    lines = header(command.strip(), time.perf_counter() - started)
    lines += stalactites_section(stalactites, args.stalactites)
    lines += squadron_section(squadron, args.squadron, args.squadron_states)
    args.out.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
