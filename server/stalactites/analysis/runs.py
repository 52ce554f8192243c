"""A run: one player's actions in a finished room, read from the room's record and checked.

The record's ``actions`` (every action with its race-clock time, undos included) are the
run; a record made before actions were recorded gives its final moves, untimed.  A run is
replayed through the engine from the room's deal, and must end on the player's recorded
moves: anything else is a tampered record (:class:`BadRecord`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine import EngineError, Game, GameName, new_game
from ..engine.actions import apply_action

__all__ = ["GAMES", "BadRecord", "Run", "actions_problem", "new_deal_game", "runs_of"]

GAMES = tuple(GameName)


class BadRecord(ValueError):
    """A record that cannot be analysed: another game's, or one that does not replay."""


@dataclass(frozen=True, slots=True)
class Run:
    player_id: str
    name: str
    status: str
    elapsed_ms: int
    actions: tuple[str, ...]
    times: tuple[int, ...] | None  # race-clock ms of each action, when the record has them


def new_deal_game(record: dict[str, Any]) -> Game:
    """The room's deal as a fresh game (with the room's fixed step, if any)."""
    game, step = record.get("game"), record.get("step")
    if game not in GAMES:
        raise BadRecord(f"not a record of Stalactites or Squadron: game {game!r}")
    fixed = step if game == GameName.STALACTITES and step in ("ones", "twos") else None
    try:
        return new_game(str(game), str(record.get("deal")), fixed)
    except EngineError as error:
        raise BadRecord(f"the deal is not one: {error}") from None


def _timed(line: dict[str, Any]) -> tuple[tuple[str, ...], tuple[int, ...] | None]:
    actions = line.get("actions")
    if actions is None:
        record = line.get("record")
        moves = record.get("moves") if isinstance(record, dict) else None
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise BadRecord("a player has neither actions nor a game record's moves")
        return tuple(moves), None
    if not isinstance(actions, list) or not all(
        isinstance(a, dict) and isinstance(a.get("action"), str) and type(a.get("at_ms")) is int
        for a in actions
    ):
        raise BadRecord("a player's actions are not a list of {action, at_ms}")
    times = tuple(int(a["at_ms"]) for a in actions)
    if any(t < 0 for t in times) or any(a > b for a, b in zip(times, times[1:], strict=False)):
        raise BadRecord("a player's action times are not in order from the race's start")
    return tuple(str(a["action"]) for a in actions), times


def actions_problem(record: dict[str, Any], line: dict[str, Any]) -> str | None:
    """Why a player's actions do not replay to their recorded moves, or None."""
    try:
        actions, _ = _timed(line)
        game = new_deal_game(record)
        for index, action in enumerate(actions):
            try:
                apply_action(game, action)
            except EngineError as error:
                return f"action {index + 1}, {action!r}, is refused: {error}"
    except BadRecord as error:
        return str(error)
    moves = [str(move) for move in game.move_stack]
    recorded = line.get("record", {}).get("moves") if isinstance(line.get("record"), dict) else None
    if moves != recorded:
        return "the actions do not end on the recorded moves"
    return None


def runs_of(record: dict[str, Any]) -> list[Run]:
    """Every player's run; BadRecord naming the first that does not check."""
    new_deal_game(record)
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        raise BadRecord("'players' is missing or not a list of objects")
    runs = []
    for line in players:
        who = f"{line.get('name', '?')} ({line.get('player_id', '?')})"
        problem = actions_problem(record, line)
        if problem is not None:
            raise BadRecord(f"{who}: {problem}")
        actions, times = _timed(line)
        elapsed = line.get("elapsed_ms")
        runs.append(
            Run(
                str(line.get("player_id")),
                str(line.get("name")),
                str(line.get("status")),
                elapsed if type(elapsed) is int else (times[-1] if times else 0),
                actions,
                times,
            )
        )
    return runs
