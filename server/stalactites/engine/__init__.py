"""The rules engine: cards, deals, both games, records. Pure Python, no I/O.

>>> from stalactites.engine import Stalactites
>>> game = Stalactites("ms:1", step="ones")
>>> game.legal_moves.count()
18
"""

from .cards import Card, Move, Pile, PileKind, Rank, Suit
from .deals import DealId
from .errors import (
    EngineError,
    IllegalMoveError,
    InvalidMoveError,
    NotationError,
    StepLockedError,
    UndoError,
)
from .game import Game, GameName, LegalMoves, Outcome, Status
from .records import GameRecord, ReplayError, ReplayResult, replay
from .squadron import Squadron
from .stalactites import Stalactites, Step, StepPolicy
from .variants import GAMES, new_game

__all__ = [
    "GAMES",
    "Card",
    "DealId",
    "EngineError",
    "Game",
    "GameName",
    "GameRecord",
    "IllegalMoveError",
    "InvalidMoveError",
    "LegalMoves",
    "Move",
    "NotationError",
    "Outcome",
    "Pile",
    "PileKind",
    "Rank",
    "ReplayError",
    "ReplayResult",
    "Squadron",
    "Stalactites",
    "Status",
    "Step",
    "StepLockedError",
    "StepPolicy",
    "Suit",
    "UndoError",
    "new_game",
    "replay",
]
