"""Tournament settings: the body of ``POST /api/tournaments`` and what a tournament stores."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from ..engine import DealId, EngineError, GameName
from ..players.names import PrintableName
from ..protocol.room import GameField

__all__ = ["CreateTournament", "TournamentSettings"]

StepChoice = Literal["choice", "ones", "twos"]


class CreateTournament(BaseModel):
    """``POST /api/tournaments``: only ``name`` is required."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: PrintableName = Field(min_length=1, max_length=60)
    game: GameField = GameName.STALACTITES
    step: StepChoice | None = Field(default=None, description="stalactites only; default choice")
    rounds: int = Field(default=3, ge=1, le=20)
    round_time_s: int = Field(default=300, ge=60, le=3600)
    break_s: int = Field(default=30, ge=0, le=600)
    starts_at: int | None = Field(
        default=None,
        ge=0,
        description="unix ms; null: the organiser starts it with the admin token",
    )
    max_players: int = Field(default=100, ge=2, le=1000)
    deals: list[str] | None = Field(
        default=None,
        description="the organiser's own deal for each round (one per round; uncertified); "
        "default: the server deals each round a deal certified winnable by the solver",
    )

    @field_validator("step")
    @classmethod
    def _step_for_stalactites(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value not in (None, "choice") and info.data.get("game") == GameName.SQUADRON:
            raise ValueError("squadron has no foundation step")
        return value

    @field_validator("deals")
    @classmethod
    def _deal_ids(cls, value: list[str] | None, info: ValidationInfo) -> list[str] | None:
        if value is None:
            return None
        if len(value) != info.data.get("rounds", 3):
            raise ValueError("give one deal for each round")
        try:
            return [str(DealId.parse(text)) for text in value]
        except EngineError as error:
            raise ValueError(str(error)) from None


class TournamentSettings(BaseModel):
    """What a tournament keeps about itself (stored as JSON; never changes after creation)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    game: GameField
    step: StepChoice | None
    rounds: int
    round_time_s: int
    break_s: int
    max_players: int
    deals: list[str] | None

    @classmethod
    def resolve(cls, body: CreateTournament) -> TournamentSettings:
        stalactites = body.game == GameName.STALACTITES
        return cls(
            name=body.name,
            game=body.game,
            step=(body.step or "choice") if stalactites else None,
            rounds=body.rounds,
            round_time_s=body.round_time_s,
            break_s=body.break_s,
            max_players=body.max_players,
            deals=body.deals,
        )
