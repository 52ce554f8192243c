"""``stalactites analyse URL_OR_FILE [--text]``: a finished room's analysis, on one's own machine.

The record is read as ``stalactites verify`` reads it (a URL of the record, the room or a
room page, or a file) and must verify; the analysis (:mod:`stalactites.analysis`) is printed
as the JSON ``GET /api/rooms/{id}/analysis`` serves, or with ``--text`` as a summary.  Exit
status 0 when analysed, 1 for a record that does not verify or cannot be analysed (another
game's, a tampered one: the reason is named), 2 for input that cannot be read as a record.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..analysis import Analysis, BadRecord, analyse
from ..analysis.models import PlayerAnalysis
from .usage import UsageError, emit
from .verify import Unreadable, load_record, verify

__all__ = ["add_analyse", "summary"]


def cmd_analyse(args: argparse.Namespace) -> int:
    try:
        where, record = load_record(args.source)
    except Unreadable as error:
        raise UsageError(str(error)) from None
    checked = verify(record)
    if not checked.ok:
        for line in checked.failed:
            print(f"stalactites: {where}: does not verify: {line}", file=sys.stderr)
        return 1
    try:
        analysis = analyse(record)
    except BadRecord as error:
        print(f"stalactites: {where}: cannot analyse: {error}", file=sys.stderr)
        return 1
    if args.text:
        print(summary(analysis))
    else:
        emit(analysis.model_dump())
    return 0


def _clock(ms: int | None) -> str:
    return "?" if ms is None else f"{ms / 1000:.1f} s"


def _player_lines(player: PlayerAnalysis, names: dict[str, str]) -> list[str]:
    verdicts = player.verdicts
    lines = [
        f"{player.name} ({player.player_id}): the deal is {verdicts[0]}, the end {verdicts[-1]}"
    ]
    accuracy = "-" if player.accuracy is None else f"{player.accuracy:.0%}"
    fewest = player.fewest_moves
    bound = "" if fewest.exact else " at most"
    fewest_text = "unknown" if fewest.value is None else f"{bound} {fewest.value}".strip()
    lines.append(f"  accuracy {accuracy}; {player.moves} moves, the fewest {fewest_text}")
    turning = player.turning_point
    if turning is None:
        lines.append("  no turning point: the win was never thrown away")
    else:
        lines.append(
            f"  turning point: action {turning.action_index}, {turning.action}, at "
            f"{_clock(turning.at_ms)}; this kept it winnable: {' '.join(turning.continuation[:8])}"
            + (" ..." if len(turning.continuation) > 8 else "")
        )
        if player.time_after_turning_point_ms is not None:
            lines.append(f"  time after it: {_clock(player.time_after_turning_point_ms)}")
    if player.times_ms:
        slow = ", ".join(f"#{i} ({_clock(player.times_ms[i - 1])})" for i in player.slowest)
        lines.append(f"  slowest actions: {slow}")
    return lines


def summary(analysis: Analysis) -> str:
    """The analysis as a few lines a person reads."""
    names = {player.player_id: player.name for player in analysis.players}
    lines = [f"analysis of room {analysis.room_id or '?'}: {analysis.game}, deal {analysis.deal}"]
    for player in analysis.players:
        lines += _player_lines(player, names)
    first = analysis.timeline.first_to_lose_win
    if first is not None:
        racer = next(r for r in analysis.timeline.racers if r.player_id == first)
        lines.append(f"who lost the win first: {names[first]}, at {_clock(racer.lost_win_at_ms)}")
    return "\n".join(lines)


def add_analyse(commands: Any) -> None:
    parser = commands.add_parser(
        "analyse",
        help="analyse a finished room's record: every position's verdict, turning points, "
        "accuracy, fewest moves, times and the race timeline (JSON, or --text)",
    )
    parser.add_argument("source", metavar="URL_OR_FILE", help="as for verify")
    parser.add_argument("--text", action="store_true", help="a readable summary, not JSON")
    parser.set_defaults(run=cmd_analyse)
