"""Fair-play benchmark (issue 29), one command printing the figures against the goals::

    nice .venv/bin/python bench/fairplay.py [--runs N] [--bot-players P] [--deals D]

Runs are simulated on a pool of real deals (ms:1 ... ms:D, default 40, each on a step it is
won by; one judge per deal, kept, so that the simulation stays cheap) and assessed as the
server assesses a finished room: ``assess`` on the room's record, ``hold_reasons`` on each
run, and each player's rolling ``Standing`` with ``case_reasons`` after every run.  Every
player plays ``RUNS_PER_PLAYER`` runs on deals drawn from the pool.

* Human-like players (N runs in all, default 10,000), four profiles: random or greedy moves
  (foundation plays first) and a skilled one (a winning move 9 times in 10), 0.8-3 s apart
  with random jitter, some moves taken back.
* For information, an expert (a winning move 19 times in 20), as many runs as a profile.
* Bots (P players of each kind, default 25): the solver's line at 50 ms a move, at 1.5 s a
  move, at 1.5 s +- 10%, and at a random 1-3 s.

The figures, against the goals: no human-like run held (goal: 0) and no human-like player
with a case; every fast bot's run held at once; the paced bots' cases open within
``RUNS_PER_PLAYER`` runs; CPU per assessed run p50 < 5 ms with the deal's judge already
warm (the analysis' judge, one per room), and the same with a fresh judge for information.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from benchkit import percentile  # noqa: E402
from stalactites.analysis.judges import Judge  # noqa: E402
from stalactites.engine import Stalactites  # noqa: E402
from stalactites.fairplay import (  # noqa: E402
    Standing,
    add,
    assess,
    case_reasons,
    hold_reasons,
)
from stalactites.fairplay.assess import Oracle  # noqa: E402
from stalactites.fairplay.bounds import EVEN_MIN_GAPS  # noqa: E402
from stalactites.solver import Verdict, solve  # noqa: E402

CPU_GOAL_S = 0.005
RUNS_PER_PLAYER = 20
MAX_ACTIONS = 150
COLD_EVERY = 25  # every 25th run is also assessed with a fresh judge


@dataclass
class Deal:
    deal: str
    step: str
    line: list[str]
    judge: Judge = field(default_factory=Judge)

    @property
    def oracle(self) -> Oracle:
        return Oracle(self.judge)


def deal_pool(count: int) -> list[Deal]:
    deals = []
    for number in range(1, count * 2):
        for step in ("ones", "twos"):
            solution = solve(Stalactites(f"ms:{number}", step))
            if solution.verdict is Verdict.WON:
                deals.append(Deal(f"ms:{number}", step, [str(m) for m in solution.moves]))
                break
        if len(deals) == count:
            break
    return deals


# Choosing moves.

Policy = Callable[[Stalactites, Deal, random.Random], str]


def random_move(game: Stalactites, deal: Deal, rng: random.Random) -> str:
    return str(rng.choice(game.generate_legal_moves()))


def greedy_move(game: Stalactites, deal: Deal, rng: random.Random) -> str:
    legal = game.generate_legal_moves()
    home = [move for move in legal if move.dst.kind.value == "f"]
    return str(rng.choice(home or legal))


def skilled(share: float) -> Policy:
    """A winning move ``share`` of the time (where there is one), else a random one."""

    def choose(game: Stalactites, deal: Deal, rng: random.Random) -> str:
        legal = game.generate_legal_moves()
        if rng.random() < share:
            oracle, winning = deal.oracle, []
            for move in legal:
                game.push(move)
                if oracle.verdict(game) is Verdict.WON:
                    winning.append(move)
                game.pop()
            if winning:
                return str(rng.choice(winning))
        return str(rng.choice(legal))

    return choose


# Timing.

Pace = Callable[[random.Random], float]  # seconds before the next move


def between(low: float, high: float) -> Pace:
    return lambda rng: rng.uniform(low, high)


@dataclass(frozen=True)
class Profile:
    name: str
    policy: Policy | None  # None: the solver's line
    pace: Pace
    undo: float = 0.0  # the chance a move that lost the win is taken back (humans)
    fidget: float = 0.0  # the chance any move is taken back and played again (humans)


HUMANS = [
    Profile("random, 1.5-3 s", random_move, between(1.5, 3.0), fidget=0.05),
    Profile("greedy, 0.8-1.8 s", greedy_move, between(0.8, 1.8), fidget=0.05),
    Profile("greedy, 1-2.5 s", greedy_move, between(1.0, 2.5), undo=0.3),
    Profile("skilled 9/10, 0.8-2.5 s", skilled(0.9), between(0.8, 2.5), undo=0.5),
]
EXPERTS = [Profile("expert 19/20, 0.8-2.5 s", skilled(0.95), between(0.8, 2.5), undo=0.5)]
BOTS = [
    Profile("fast solver bot, 50 ms", None, lambda rng: 0.05),
    Profile("paced perfect bot, 1.5 s", None, lambda rng: 1.5),
    Profile("paced bot, 1.5 s +-10%", None, between(1.35, 1.65)),
    Profile("humanised perfect bot, 1-3 s", None, between(1.0, 3.0)),
]


def play(profile: Profile, deal: Deal, rng: random.Random) -> tuple[list[str], list[int], str]:
    """A run: its actions, their race-clock times and its status."""
    game = Stalactites(deal.deal, deal.step)
    actions: list[str] = []
    times: list[int] = []
    clock = profile.pace(rng) + (0.5 if profile.policy else 0.0)  # reading the deal

    def act(action: str, after: float) -> None:
        nonlocal clock
        game.pop() if action == "undo" else game.push(action)
        actions.append(action)
        times.append(round(clock * 1000))
        clock += after

    line = list(deal.line)
    while len(actions) < MAX_ACTIONS and not game.is_won and game.has_legal_move():
        if profile.policy is None:
            act(line.pop(0), profile.pace(rng))
            continue
        won = profile.undo and deal.oracle.verdict(game) is Verdict.WON
        act(profile.policy(game, deal, rng), profile.pace(rng))
        lost = won and deal.oracle.verdict(game) is Verdict.LOST
        if (lost and rng.random() < profile.undo) or rng.random() < profile.fidget:
            act("undo", rng.uniform(0.3, 1.0))
    status = "won" if game.is_won else "lost" if not game.has_legal_move() else "resigned"
    return actions, times, status


def record_of(deal: Deal, actions: list[str], times: list[int], status: str) -> dict[str, Any]:
    game = Stalactites(deal.deal, deal.step)
    for action in actions:
        game.pop() if action == "undo" else game.push(action)
    line = {
        "player_id": "p",
        "name": "bench",
        "status": status,
        "elapsed_ms": times[-1] if times else 0,
        "record": {"game": "stalactites", "deal": deal.deal, "step": deal.step},
        "actions": [{"action": a, "at_ms": t} for a, t in zip(actions, times, strict=True)],
    }
    line["record"]["moves"] = [str(move) for move in game.move_stack]
    return {
        "game": "stalactites",
        "deal": deal.deal,
        "step": deal.step,
        "autoplay": False,
        "players": [line],
    }


# The population.


@dataclass
class Tally:
    runs: int = 0
    held: int = 0
    won: int = 0
    hard: int = 0
    hard_kept: int = 0
    players: int = 0
    cases: int = 0
    case_runs: list[int] = field(default_factory=list)  # the run each case opened on
    reasons: dict[str, int] = field(default_factory=dict)
    closest: dict[str, float] = field(default_factory=dict)  # the least of each timing

    def near(self, name: str, value: float | None) -> None:
        if value is not None:
            self.closest[name] = min(self.closest.get(name, value), value)


@dataclass
class Cpu:
    warm: list[float] = field(default_factory=list)
    cold: list[float] = field(default_factory=list)


def simulate(
    profile: Profile, players: int, deals: list[Deal], rng: random.Random, cpu: Cpu
) -> Tally:
    tally = Tally(players=players)
    for _ in range(players):
        standing, opened = Standing(), False
        for run_index in range(1, RUNS_PER_PLAYER + 1):
            deal = rng.choice(deals)
            record = record_of(deal, *play(profile, deal, rng))
            clock = time.process_time()
            signals = assess(record, deal.judge)["p"]
            cpu.warm.append(time.process_time() - clock)
            if len(cpu.warm) % COLD_EVERY == 0:
                clock = time.process_time()
                assess(record)
                cpu.cold.append(time.process_time() - clock)
            held = hold_reasons(signals)
            tally.near("stretch_ms", signals.fastest_stretch_ms)
            tally.near("median_ms", signals.median_gap_ms)
            tally.near("first_ms", signals.first_move_ms)
            tally.near("cv", signals.gap_cv if signals.gaps >= EVEN_MIN_GAPS else None)
            standing = add(standing, signals)
            tally.runs += 1
            tally.held += bool(held)
            tally.won += signals.won
            tally.hard += signals.hard_positions
            tally.hard_kept += signals.hard_kept
            for reason in held + case_reasons(standing):
                tally.reasons[reason] = tally.reasons.get(reason, 0) + 1
            if case_reasons(standing) and not opened:
                opened = True
                tally.cases += 1
                tally.case_runs.append(run_index)
    return tally


def report(profile: Profile, tally: Tally) -> None:
    share = tally.hard_kept / max(tally.hard, 1)
    opened = sorted(tally.case_runs)
    within = ""
    if opened:
        within = f", on run {opened[0]}-{opened[-1]} (median {opened[len(opened) // 2]})"
    print(
        f"  {profile.name}: {tally.runs} runs, {tally.won} won, held {tally.held} "
        f"({tally.held / tally.runs:.1%}); {tally.players} players, {tally.cases} with a case"
        f"{within}; hard positions {tally.hard} ({tally.hard / tally.runs:.1f}"
        f" a run), kept {share:.1%}; reasons {dict(sorted(tally.reasons.items())) or '-'}"
    )
    print(f"    least: {', '.join(f'{k} {v:g}' for k, v in tally.closest.items())}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10_000, help="human-like runs in all")
    parser.add_argument("--bot-players", type=int, default=25, help="players of each bot kind")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args()
    rng, cpu, started = random.Random(args.seed), Cpu(), time.perf_counter()
    deals = deal_pool(args.deals)
    print(
        f"deals: {len(deals)} ({deals[0].deal}..{deals[-1].deal}), {RUNS_PER_PLAYER} runs a player"
    )
    per_profile = max(args.runs // (len(HUMANS) * RUNS_PER_PLAYER), 1)
    print("human-like:")
    humans = []
    for profile in HUMANS:
        humans.append(simulate(profile, per_profile, deals, rng, cpu))
        report(profile, humans[-1])
    print("for information (not in the goals):")
    for profile in EXPERTS:
        report(profile, simulate(profile, per_profile, deals, rng, cpu))
    print("bots:")
    bots = []
    for profile in BOTS:
        bots.append(simulate(profile, args.bot_players, deals, rng, cpu))
        report(profile, bots[-1])
    human_runs, human_held = sum(t.runs for t in humans), sum(t.held for t in humans)
    human_cases = sum(t.cases for t in humans)
    fast, paced = bots[0], bots[1:3]
    print(
        f"false positives: {human_held} of {human_runs} human-like runs held (goal 0), "
        f"{human_cases} of {sum(t.players for t in humans)} human-like players with a case"
    )
    print(
        f"detection: fast bot runs held {fast.held / fast.runs:.1%} (goal 100%); bots with a "
        f"case within {RUNS_PER_PLAYER} runs (goal: every paced one): "
        + ", ".join(f"{p.name} {t.cases}/{t.players}" for p, t in zip(BOTS, bots, strict=True))
    )
    warm, cold = percentile(cpu.warm, 0.5), percentile(cpu.cold, 0.5)
    print(
        f"CPU per assessed run: warm judge p50 {warm:.1f} ms (goal < {CPU_GOAL_S * 1000:.0f}), "
        f"p99 {percentile(cpu.warm, 0.99):.1f} ms; fresh judge p50 {cold:.1f} ms, "
        f"p99 {percentile(cpu.cold, 0.99):.1f} ms ({len(cpu.cold)} runs)"
    )
    print(f"wall time: {time.perf_counter() - started:.0f} s")
    ok = (
        human_held == 0
        and human_cases == 0
        and fast.held == fast.runs
        and all(t.cases == t.players for t in paced)
        and warm < CPU_GOAL_S * 1000
    )
    print("goals met" if ok else "GOALS NOT MET")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
