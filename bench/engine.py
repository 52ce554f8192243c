"""Engine benchmark: legal-move generations and validated push+pop pairs per second.

    .venv/bin/python bench/engine.py [--deals N] [--seconds S]

Positions are taken along whole games on deals ms:1..ms:N, played by a fixed
greedy policy (a foundation move when there is one, otherwise a random legal
move, seeded), so they cover openings, middle games and endings, not just the
deal.  Each figure is work done per second of this process's CPU time, so it
is the speed of one core even on a busy machine.  The goal (issue 2) is at
least 100,000 of each per second for Stalactites.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable

from stalactites.engine import Game, Move, PileKind, new_game

GOAL = 100_000
LONGEST_GAME = 300  # Squadron can wander; a game stops here at the latest


def greedy_game(name: str, deal: str, rng: random.Random) -> list[Move]:
    """The moves of one game: foundation moves first, otherwise a random legal move."""
    game = new_game(name, deal)
    while len(game.move_stack) < LONGEST_GAME:
        moves = game.generate_legal_moves()
        if not moves:
            break
        home = [move for move in moves if move.dst.kind is PileKind.FOUNDATION]
        game.push(rng.choice(home or moves))
    return list(game.move_stack)


def winning_game(name: str, deal: str, budget: int) -> list[Move] | None:
    """A won game found by a small depth-first search, or None within ``budget`` positions."""
    game, seen = new_game(name, deal), set()

    def search() -> bool:
        if game.is_won:
            return True
        if len(seen) >= budget or game.key() in seen:
            return False
        seen.add(game.key())
        moves = game.generate_legal_moves()
        moves.sort(key=lambda move: move.dst.kind is not PileKind.FOUNDATION)
        for move in moves:
            game.push(move)
            if search():
                return True
            game.pop()
        return False

    return list(game.move_stack) if search() else None


def positions(name: str, deals: int, stride: int) -> list[Game]:
    """Game objects at every ``stride``-th position along one whole game per deal.

    The game is a win found by a small search where one turns up quickly (Stalactites),
    otherwise a greedy game (Squadron, and the Stalactites deals the search gives up on).
    """
    rng = random.Random(2024)
    found: list[Game] = []
    for number in range(1, deals + 1):
        deal = f"ms:{number}"
        won = winning_game(name, deal, 10_000) if name == "stalactites" else None
        line = won or greedy_game(name, deal, rng)
        for length in range(0, len(line) + 1, stride):
            game = new_game(name, deal)
            for move in line[:length]:
                game.push(move)
            found.append(game)
    return found


def rate(work: Callable[[], int], seconds: float) -> float:
    """Run ``work`` (which returns how many operations it did) for about ``seconds`` of CPU."""
    done, start = 0, time.process_time()
    while (spent := time.process_time() - start) < seconds:
        done += work()
    return done / spent


def generations(games: list[Game]) -> Callable[[], int]:
    def work() -> int:
        for game in games:
            game.generate_legal_moves()
        return len(games)

    return work


def push_pops(games: list[Game], as_text: bool) -> Callable[[], int]:
    """Every undoable legal move of every position, pushed (validated) and popped."""
    pairs = [
        (game, str(move) if as_text else move)
        for game in games
        for move in game.generate_legal_moves()
        if str(move) != "s-w"
    ]

    def work() -> int:
        for game, move in pairs:
            game.push(move)
            game.pop()
        return len(pairs)

    return work


def report(name: str, deals: int, seconds: float) -> float:
    games = positions(name, deals, stride=1 if name == "stalactites" else 5)
    depth = sum(len(game.move_stack) for game in games) / len(games)
    gen = rate(generations(games), seconds)
    pairs = rate(push_pops(games, as_text=False), seconds)
    text = rate(push_pops(games, as_text=True), seconds)
    print(
        f"{name:<12} {len(games):>6} positions (mean depth {depth:5.1f})"
        f"  generations/s {gen:>10,.0f}  push+pop/s {pairs:>10,.0f}"
        f"  (from notation {text:>10,.0f})"
    )
    return min(gen, pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=40, help="games per rule set (ms:1..N)")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per figure")
    args = parser.parse_args()
    print(f"engine benchmark: Python {platform.python_version()}, one core, CPU time")
    slowest = report("stalactites", args.deals, args.seconds)
    report("squadron", args.deals, args.seconds)
    verdict = "met" if slowest >= GOAL else "NOT met"
    print(f"goal: stalactites >= {GOAL:,} generations and push+pop pairs per second: {verdict}")


if __name__ == "__main__":
    main()
