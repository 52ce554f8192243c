"""Players who persist: accounts, sessions, names, ratings, histories and leaderboards.

The domain and its service, no HTTP: :class:`PlayerService` over a
:class:`~stalactites.store.players.base.PlayerStore`.
"""

from __future__ import annotations

from .errors import (
    AlreadyRegistered,
    BadCredentials,
    BadCursor,
    BadGame,
    BadInput,
    BadLimit,
    BadName,
    BadPassword,
    BadRace,
    BadRecoveryCode,
    BadUsername,
    NameTaken,
    NotRegistered,
    PlayerError,
    PlayerNotFound,
    RenameTooSoon,
    UsernameTaken,
    WrongRecoveryCode,
)
from .names import DELETED_NAME, skeleton
from .passwords import Passwords
from .races import HistoryEntry, RaceOutcome, RacePlayer, RaceResult
from .ratings import PROVISIONAL_RACES, displayed
from .service import BoardEntry, HistoryPage, NewSession, PlayerService, Profile, RatingView

__all__ = [
    "DELETED_NAME",
    "PROVISIONAL_RACES",
    "AlreadyRegistered",
    "BadCredentials",
    "BadCursor",
    "BadGame",
    "BadInput",
    "BadLimit",
    "BadName",
    "BadPassword",
    "BadRace",
    "BadRecoveryCode",
    "BadUsername",
    "BoardEntry",
    "HistoryEntry",
    "HistoryPage",
    "NewSession",
    "RaceOutcome",
    "PlayerError",
    "PlayerNotFound",
    "PlayerService",
    "Passwords",
    "Profile",
    "RacePlayer",
    "RaceResult",
    "RatingView",
    "NameTaken",
    "NotRegistered",
    "RenameTooSoon",
    "UsernameTaken",
    "WrongRecoveryCode",
    "displayed",
    "skeleton",
]
