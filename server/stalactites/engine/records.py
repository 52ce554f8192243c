"""Game records: what a finished board is stored and shared as, and its replay.

A record is JSON: ``{"game": "stalactites", "deal": "ms:1", "step": "ones",
"moves": ["t3-f1", ...]}``.  ``step`` is the step the game ended with, or null
(Squadron, or a Stalactites game whose step was never fixed); replaying a
record with a step plays it with that step fixed from the start, which accepts
exactly the same moves.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from .errors import EngineError, NotationError
from .game import Game, Status
from .variants import new_game

__all__ = ["GameRecord", "ReplayError", "ReplayResult", "deal_commitment", "replay"]


def deal_commitment(deal: str, salt: str) -> str:
    """The commitment a room publishes to its deal before the race: the SHA-256 of the UTF-8
    text ``f"{deal}|{salt}"`` (the deal id as written, such as ``ms:1``, and the salt as the
    room gives it, lowercase hex), as 64 lowercase hex digits."""
    return hashlib.sha256(f"{deal}|{salt}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class GameRecord:
    game: str
    deal: str
    step: str | None = None
    moves: tuple[str, ...] = field(default_factory=tuple)

    @classmethod
    def of(cls, game: Game) -> GameRecord:
        """The record of a game as it stands."""
        moves = tuple(str(move) for move in game.move_stack)
        return cls(game.name, str(game.deal), game.step_name, moves)

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """A record from parsed JSON; raises NotationError naming what is wrong."""
        if not isinstance(data, dict):
            raise NotationError("a record is a JSON object with game, deal, step and moves")
        unknown = set(data) - {"game", "deal", "step", "moves"}
        if unknown:
            raise NotationError(f"unknown record fields: {sorted(unknown)!r}")
        game, deal, step = data.get("game"), data.get("deal"), data.get("step")
        moves = data.get("moves", [])
        if not isinstance(game, str) or not isinstance(deal, str):
            raise NotationError("a record needs a string 'game' and a string 'deal'")
        if step not in (None, "ones", "twos"):
            raise NotationError(f"a record's step is 'ones', 'twos' or null, not {step!r}")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise NotationError("a record's moves are a list of strings")
        return cls(game, deal, step, tuple(moves))

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise NotationError(f"a record is JSON: {error}") from None
        except RecursionError:
            raise NotationError("a record is JSON nested a little, not thousands deep") from None
        return cls.from_json(data)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "deal": self.deal, "step": self.step, "moves": list(self.moves)}

    def dumps(self) -> str:
        return json.dumps(self.to_json())

    def new_game(self) -> Game:
        """The game this record starts from; raises NotationError for a bad header."""
        return new_game(self.game, self.deal, self.step)


@dataclass(frozen=True, slots=True)
class ReplayError:
    index: int
    move: str
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class ReplayResult:
    valid: bool
    status: Status
    foundation_cards: int
    moves_applied: int
    error: ReplayError | None
    game: Game

    def to_json(self) -> dict[str, Any]:
        error = None
        if self.error is not None:
            error = {
                "index": self.error.index,
                "move": self.error.move,
                "code": self.error.code,
                "message": self.error.message,
            }
        return {
            "valid": self.valid,
            "status": self.status.value,
            "foundation_cards": self.foundation_cards,
            "moves_applied": self.moves_applied,
            "error": error,
        }


def replay(record: GameRecord) -> ReplayResult:
    """Play a record's moves through the engine, stopping at the first bad one."""
    game = record.new_game()
    error = None
    for index, text in enumerate(record.moves):
        try:
            game.push(text)
        except EngineError as exc:
            error = ReplayError(index, text, exc.code, str(exc))
            break
    outcome = game.outcome()
    return ReplayResult(
        valid=error is None,
        status=outcome.status,
        foundation_cards=outcome.foundation_cards,
        moves_applied=len(game.move_stack),
        error=error,
        game=game,
    )
