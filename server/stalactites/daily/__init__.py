"""The daily deal: each UTC day, per game, one certified deal for everyone (:mod:`.deal`);
attempts, the leaderboard, the archive and streaks (:mod:`.service`)."""

from .deal import DAILY_GAMES, daily_seed, day_number, today
from .service import DailyService

__all__ = ["DAILY_GAMES", "DailyService", "daily_seed", "day_number", "today"]
