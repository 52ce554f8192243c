"""What the solver answers: a verdict, the winning line, and what the search cost."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from ..engine import DealId, Move

__all__ = ["Certificate", "Solution", "Verdict"]


class Verdict(enum.StrEnum):
    """``won``: a winning line was found; ``lost``: proven that none exists; ``unknown``:
    the state or time budget ran out first.  Each is equal to its string value."""

    WON = "won"
    LOST = "lost"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Solution:
    """A verdict for one position, with the winning line from that position when ``won``."""

    verdict: Verdict
    moves: list[Move] = field(default_factory=list)
    states: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict.value,
            "moves": [str(move) for move in self.moves],
            "states": self.states,
            "seconds": round(self.seconds, 6),
        }


@dataclass(frozen=True, slots=True)
class Certificate:
    """A deal proven winnable, with a winning line per step (``"play"`` for Squadron)."""

    deal: DealId
    lines: dict[str, list[str]]

    def to_json(self) -> dict[str, Any]:
        return {"deal": str(self.deal), "lines": {k: list(v) for k, v in self.lines.items()}}
