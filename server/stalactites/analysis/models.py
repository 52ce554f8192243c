"""The analysis of a finished room, as ``GET /api/rooms/{room_id}/analysis`` and
``stalactites analyse`` give it (documented in ``docs/protocol.md`` from these models)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

__all__ = [
    "Analysis",
    "FewestMoves",
    "PlayerAnalysis",
    "RacerTimeline",
    "TimedAction",
    "Timeline",
    "TurningPoint",
]

PositionVerdict = Literal["won", "lost", "unknown"]


class TimedAction(BaseModel):
    """One action of a player's in the record: a move, ``undo`` or ``step:ones|twos``."""

    action: str
    at_ms: int = Field(description="when it was played: ms since the race's start")


class TurningPoint(BaseModel):
    """The first action that took a winnable position to a lost one."""

    action_index: int = Field(description="which action (1 = the first)")
    action: str = Field(description="the action played")
    at_ms: int | None = Field(description="its race-clock time (null: an untimed record)")
    position: dict[str, Any] = Field(description="the board before it (the engine's state)")
    continuation: list[str] = Field(description="a winning line from that board, move by move")


class FewestMoves(BaseModel):
    """The fewest moves any win of the deal needs (Stalactites: the foundation plays plus the
    fewest parks in a cell), with a line that makes them."""

    value: int | None = Field(description="null when no win is known")
    exact: bool = Field(description="false: the search ran out of budget; value is an upper bound")
    line: list[str] = Field(description="a win in ``value`` moves, from the deal")


class PlayerAnalysis(BaseModel):
    """One player's run (their actions, undos included) judged by the solver."""

    player_id: str
    name: str
    verdicts: list[PositionVerdict] = Field(
        description="the position's verdict before the first action (index 0: the deal), then "
        "after each action; exact for Stalactites (with the step as it stood: an open step "
        "is won by either), best effort for Squadron (unknown: the budget ran out)"
    )
    turning_point: TurningPoint | None = Field(description="null: the win was never thrown away")
    accuracy: float | None = Field(
        description="a number from 0 to 1: of the actions played from winnable positions, the "
        "share that kept a "
        "winnable position (null: none was played from one)"
    )
    moves: int = Field(description="the moves on the player's board at the end")
    fewest_moves: FewestMoves
    times_ms: list[int] | None = Field(
        description="the time each action took (since the one before, or the race's start)"
    )
    slowest: list[int] = Field(description="the slowest actions' indexes (1 = the first)")
    time_after_turning_point_ms: int | None = Field(
        description="race time spent after the turning point (to the player's finish)"
    )


class RacerTimeline(BaseModel):
    """One racer's foundation cards against the race clock."""

    player_id: str
    foundation: list[list[int]] = Field(
        description="[at_ms, foundation cards] at the start and at each change"
    )
    lost_win_at_ms: int | None = Field(
        description="when the board became lost for good after being winnable (null: never)"
    )


class Timeline(BaseModel):
    """Every racer on the one race clock."""

    racers: list[RacerTimeline]
    first_to_lose_win: str | None = Field(description="the player id who lost the win first")


class Analysis(BaseModel):
    """A finished room's analysis: every player's run judged, and the race timeline."""

    room_id: str | None
    game: str
    deal: str
    players: list[PlayerAnalysis]
    timeline: Timeline
