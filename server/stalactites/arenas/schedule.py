"""The standing schedule: arenas the server makes itself, e.g. an hourly Stalactites arena and
a daily Squadron one (``STALACTITES_ARENA_SCHEDULE``).

Each line is ``GAME[/STEP]@EVERY/DURATION`` (minutes), lines apart by commas:
``stalactites/choice@60/50`` starts an arena every hour on the hour lasting 50 minutes.  Every
process makes the current and the next slot's arena every :data:`LOOK_S` seconds; an arena's
id names its line and slot, so the store takes each once however many processes try.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from ..engine import GameName
from ..repeating import Repeating
from .service import Arenas
from .state import ArenaSettings

__all__ = ["LOOK_S", "Line", "Schedule", "parse"]

LOOK_S = 30.0
RACE_TIME_S = 300  # a scheduled arena's race time limit
_LINE = re.compile(r"^(stalactites|squadron)(?:/(choice|ones|twos))?@(\d+)/(\d+)$")


@dataclass(frozen=True, slots=True)
class Line:
    game: str
    step: str | None
    every_min: int
    duration_min: int

    @property
    def text(self) -> str:
        step = f"/{self.step}" if self.step else ""
        return f"{self.game}{step}@{self.every_min}/{self.duration_min}"

    def name(self) -> str:
        every = {60: "Hourly", 1440: "Daily"}.get(self.every_min, f"Every {self.every_min} min")
        return f"{every} {self.game.capitalize()}"

    def arena_id(self, starts_ms: int) -> str:
        slot = datetime.fromtimestamp(starts_ms / 1000, UTC).strftime("%Y%m%d%H%M")
        step = f"-{self.step}" if self.step else ""
        return f"s-{self.game}{step}-{self.every_min}-{slot}"


def parse(text: str) -> list[Line]:
    """The schedule's lines; ValueError naming a bad one."""
    lines = []
    for part in filter(None, (piece.strip() for piece in text.split(","))):
        found = _LINE.match(part)
        if found is None:
            raise ValueError(f"not a schedule line: {part!r} (GAME[/STEP]@EVERY/DURATION)")
        game, step, every, duration = found.groups()
        if game == GameName.SQUADRON and step is not None:
            raise ValueError(f"{part!r}: Squadron has no step")
        if not 10 <= int(duration) <= min(180, int(every)):
            raise ValueError(f"{part!r}: a duration of 10-180 minutes, at most its period")
        lines.append(Line(game, step, int(every), int(duration)))
    return lines


class Schedule:
    def __init__(self, arenas: Arenas, lines: list[Line]) -> None:
        self.arenas, self.lines = arenas, lines
        self.repeating = Repeating("arena-schedule", LOOK_S, self.make)

    async def make(self) -> None:
        """Make each line's current (if not over) and next slot's arena, once."""
        now = self.arenas.now()
        for line in self.lines:
            period = line.every_min * 60_000
            current = now - now % period
            for starts in (current, current + period):
                if starts + line.duration_min * 60_000 <= now:
                    continue
                settings = ArenaSettings(
                    name=line.name(),
                    game=line.game,  # type: ignore[arg-type]
                    step=line.step,  # type: ignore[arg-type]
                    duration_min=line.duration_min,
                    time_limit_s=RACE_TIME_S,
                    starts_ms=starts,
                    recurring=line.text,
                )
                await self.arenas.create(settings, line.arena_id(starts))  # (None: made)
