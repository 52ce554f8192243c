"""Argument parsing and the JSON-printing subcommands.

The subcommands that inspect games print JSON on standard output; ``play`` and
``serve`` are interactive.  Wrong arguments get a one-line error on standard
error and exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from ..engine import EngineError, GameName, GameRecord, InvalidMoveError, Squadron, new_game, replay
from ..engine.game import Game
from .analyse import add_analyse
from .backup import add_backup
from .mod import add_mod
from .serve import add_serve
from .solving import add_commands as add_solver_commands
from .usage import GAME_NAMES, STEPS, Parser, UsageError, emit
from .verify import add_verify

__all__ = ["main"]

DESCRIPTION = (
    "Stalactites Race: race each other at patience on the identical deal. "
    "serve runs the race server and web client; play is a game in the terminal; "
    "deal, moves, replay, solve and pick print JSON; verify checks a finished room's record; "
    "analyse analyses it; mod grants the moderator's role; backup and restore copy the "
    "Redis store to a file and back."
)


def make_game(name: str, deal: str, step: str | None) -> Game:
    """A game from command-line words; bad words become a UsageError."""
    if name == GameName.SQUADRON and step is not None:
        raise UsageError("--step is for stalactites only")
    try:
        return new_game(name, deal, step)
    except EngineError as error:
        raise UsageError(str(error)) from None


def cmd_deal(args: argparse.Namespace) -> int:
    game = make_game(args.game, args.deal, None)
    state = game.state()
    state.pop("step", None)
    if args.reveal_stock:
        if args.game != GameName.SQUADRON:
            raise UsageError("--reveal-stock is for squadron only")
        assert isinstance(game, Squadron)
        state["stock"] = [str(card) for card in game.stock]
    emit(state)
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    game = make_game(args.game, args.deal, args.step)
    for index, text in enumerate(args.move):
        try:
            game.push(text)
        except EngineError as error:
            code = error.code if isinstance(error, InvalidMoveError) else "illegal_move"
            emit({"error": {"index": index, "move": text, "code": code, "message": str(error)}})
            return 1
    emit(
        {
            "status": game.status.value,
            "step": game.step_name,
            "legal": sorted(str(move) for move in game.legal_moves),
        }
    )
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        raise UsageError(f"cannot read {args.file!r}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {args.file!r}: not UTF-8 text") from None
    try:
        record = GameRecord.loads(text)
        result = replay(record)
    except EngineError as error:
        raise UsageError(f"not a game record: {error}") from None
    emit(result.to_json())
    return 0 if result.valid else 1


def cmd_play(args: argparse.Namespace) -> int:
    from .terminal import play

    game = make_game(args.game, args.deal, args.step)
    return play(game)


def build_parser() -> Parser:
    parser = Parser(prog="stalactites", description=DESCRIPTION)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    deal = commands.add_parser("deal", help="print a deal's initial state as JSON")
    deal.add_argument("game", choices=GAME_NAMES)
    deal.add_argument("deal", metavar="DEAL_ID")
    deal.add_argument("--reveal-stock", action="store_true", help="squadron: list the stock")
    deal.set_defaults(run=cmd_deal)

    moves = commands.add_parser("moves", help="play moves and print the status and legal moves")
    moves.add_argument("game", choices=GAME_NAMES)
    moves.add_argument("deal", metavar="DEAL_ID")
    moves.add_argument("move", nargs="*", metavar="MOVE")
    moves.add_argument("--step", choices=STEPS, help="stalactites: fix the step from the start")
    moves.set_defaults(run=cmd_moves, spill="move")

    rep = commands.add_parser("replay", help="validate a game record")
    rep.add_argument("file", nargs="?", default="-", metavar="FILE", help="a record, - for stdin")
    rep.set_defaults(run=cmd_replay)

    play = commands.add_parser("play", help="play a game in the terminal")
    play.add_argument("game", choices=GAME_NAMES)
    play.add_argument("deal", metavar="DEAL_ID", nargs="?", default="ms:1")
    play.add_argument("--step", choices=STEPS, help="stalactites: fix the step from the start")
    play.set_defaults(run=cmd_play)
    add_serve(commands)
    add_solver_commands(commands)
    add_verify(commands)
    add_analyse(commands)
    add_mod(commands)
    add_backup(commands)
    return parser


def parse_args(parser: Parser, argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse like argparse, but let a list argument (``spill``) go on after an option.

    argparse ends ``moves GAME DEAL [MOVE ...]`` at the first option, so in
    ``moves stalactites ms:1 --step ones t2-f1`` the move would be left over.
    """
    args, extra = parser.parse_known_args(argv)
    if not extra:
        return args
    spill: str | None = getattr(args, "spill", None)
    if spill is None or any(word.startswith("-") for word in extra):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    getattr(args, spill).extend(extra)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parse_args(parser, argv)
        run: Callable[[argparse.Namespace], int] = args.run
        return run(args)
    except UsageError as error:
        print(f"stalactites: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``stalactites moves ... | head``): stop quietly, and keep
        # Python from complaining again when it flushes standard output at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
