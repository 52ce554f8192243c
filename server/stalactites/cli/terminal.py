"""``stalactites play``: a game in the terminal, moves typed in notation."""

from __future__ import annotations

import sys
from typing import TextIO

from ..engine import EngineError, Game, Stalactites, Status

HELP = """\
Type a move in notation (t3-f1, t5-c2, c1-f4; squadron also s-w and t2-t7:3).
  moves         list the legal moves
  hint          ask the solver for a good next move
  ones | twos   declare the foundation step (stalactites, before any foundation play)
  undo          take back your last move
  help          this text
  quit          leave the game"""


def _cards(cards: list[str | None]) -> str:
    return "  ".join(card or "--" for card in cards)


def render(game: Game) -> str:
    """The board as text: foundations, cells, waste and stock, then the columns row by row."""
    state = game.state()
    lines = [
        f"{game.name.capitalize()} {game.deal}  ·  {game.foundation_cards}/{game.card_count}"
        f" cards on the foundations"
    ]
    if isinstance(game, Stalactites):
        lines[0] += f"  ·  step: {game.step_name or 'not fixed'}"
    tops = [pile[-1] if pile else None for pile in state["foundations"]]
    lines.append("foundations " + _cards(tops))
    lines.append("cells       " + _cards(state["cells"]))
    if "stock_count" in state:
        waste = state["waste"][-1] if state["waste"] else "--"
        lines.append(f"waste       {waste}   stock: {state['stock_count']} cards")
    columns = state["tableau"]
    names = [f"t{i + 1}" for i in range(len(columns))]
    lines.append("     " + "  ".join(f"{name:<3}" for name in names).rstrip())
    for row in range(max((len(column) for column in columns), default=0)):
        cells = [column[row] if row < len(column) else "" for column in columns]
        lines.append("     " + "  ".join(f"{card:<3}" for card in cells).rstrip())
    return "\n".join(lines)


def play(game: Game, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run the game loop until it is won, lost or quit; returns the exit status."""
    source, sink = stdin or sys.stdin, stdout or sys.stdout

    def out(text: str, end: str = "\n") -> None:
        sink.write(text + end)
        sink.flush()

    out(render(game))
    out("Type 'help' for the commands.")
    while game.status is Status.PLAYING:
        out("> ", end="")
        line = source.readline()
        if not line:
            return 0
        command = line.strip()
        if command in ("quit", "q", "exit"):
            return 0
        if not command:
            continue
        message = _command(game, command)
        if message is not None:
            out(message)
            continue
        out(render(game))
    if game.status is Status.WON:
        out(f"You won in {len(game.move_stack)} moves!")
    else:
        out(f"No legal move remains: the game is lost with {game.foundation_cards} cards home.")
    return 0


def _command(game: Game, command: str) -> str | None:
    """Carry out one typed command; returns a message to show, or None to redraw."""
    try:
        if command == "help":
            return HELP
        if command == "moves":
            return " ".join(sorted(str(move) for move in game.legal_moves))
        if command == "hint":
            from .solving import hint_text

            return hint_text(game)
        if command == "undo":
            game.pop()
        elif command in ("ones", "twos"):
            if not isinstance(game, Stalactites):
                return "Squadron has no step to declare."
            game.declare_step(command)
        else:
            game.push(command)
    except EngineError as error:
        return f"{error} ({error.code})"
    return None
