"""``stalactites solve`` and ``stalactites pick``, and the terminal game's ``hint``.

``solve`` prints one JSON object per deal, one per line, as each is decided:
``{"game", "deal", "results": {STEP: {"verdict", "moves", "states", "seconds"}}}`` where STEP
is ``ones`` and ``twos`` for Stalactites (or the one ``--step`` names) and ``play`` for
Squadron.  ``pick`` prints certified deal ids, one per line.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from ..engine import DealId, EngineError, Game, GameName, new_game
from ..solver import hint, pick, solve
from .usage import GAME_NAMES, STEPS, Parser, UsageError, emit

__all__ = ["add_commands", "hint_text"]

MAX_SEED = 2**64 - 1


def _whole(low: int, high: int | None = None, base: int = 10) -> Callable[[str], int]:
    """An argument type for whole numbers from ``low`` (to ``high``, when given)."""

    def parse(text: str) -> int:
        try:
            value = int(text, base)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < low or (high is not None and value > high):
            bounds = f"at least {low}" if high is None else f"from {low} to {high:#x}"
            raise argparse.ArgumentTypeError(f"must be {bounds}, not {value}")
        return value

    return parse


_positive = _whole(1)
_count = _whole(0)
_seed = _whole(0, MAX_SEED, base=0)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value


def _steps(game: str, step: str | None) -> list[tuple[str, str | None]]:
    """(result key, step policy) for each search a deal gets."""
    if game == GameName.SQUADRON:
        if step is not None:
            raise UsageError("--step is for stalactites only")
        return [("play", None)]
    return [(step, step)] if step is not None else [(name, name) for name in STEPS]


def cmd_solve(args: argparse.Namespace) -> int:
    steps = _steps(args.game, args.step)
    try:
        deals = [DealId.parse(text) for text in args.deal]
    except EngineError as error:
        raise UsageError(str(error)) from None
    for deal in deals:
        results: dict[str, Any] = {}
        for key, policy in steps:
            game = new_game(args.game, deal, policy)
            solution = solve(game, max_states=args.max_states, seconds=args.seconds)
            results[key] = solution.to_json()
        emit({"game": args.game, "deal": str(deal), "results": results})
        sys.stdout.flush()
    return 0


def cmd_pick(args: argparse.Namespace) -> int:
    if args.game == GameName.SQUADRON and args.step != "choice":
        raise UsageError("--step is for stalactites only")
    try:
        certificates = pick(args.game, args.count, args.seed, args.step, args.max_states)
    except ValueError as error:
        print(f"stalactites: error: {error}", file=sys.stderr)
        return 1
    for certificate in certificates:
        print(certificate.deal)
    return 0


def add_commands(commands: Any) -> None:
    """Register ``solve`` and ``pick`` on the main parser's subcommands."""
    solver: Parser = commands.add_parser("solve", help="solve deals, one JSON line per deal")
    solver.add_argument("game", choices=GAME_NAMES)
    solver.add_argument("deal", nargs="+", metavar="DEAL_ID")
    solver.add_argument("--step", choices=STEPS, help="stalactites: search only this step")
    solver.add_argument("--max-states", type=_positive, metavar="N", help="state budget")
    solver.add_argument("--seconds", type=_seconds, metavar="S", help="time budget per search")
    solver.set_defaults(run=cmd_solve)

    picker: Parser = commands.add_parser("pick", help="print certified winnable deal ids")
    picker.add_argument("game", choices=GAME_NAMES)
    picker.add_argument("--count", type=_count, required=True, metavar="N")
    picker.add_argument("--seed", type=_seed, metavar="S", help="reproducible picks")
    picker.add_argument("--step", choices=("choice", *STEPS), default="choice")
    picker.add_argument("--max-states", type=_positive, metavar="N", help="state budget")
    picker.set_defaults(run=cmd_pick)


def hint_text(game: Game) -> str:
    """The terminal game's answer to ``hint``."""
    move = hint(game)
    if move is None:
        return "No winning line from here."
    return f"Try {move}."
