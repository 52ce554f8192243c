"""Deals the server picks: certified winnable by the solver when it is installed.

The solver (``stalactites.solver.pick``) is looked up when a room is made, so
the server works before it exists; without it, or when it finds nothing, the
deal is a random ``sr:`` deal marked uncertified.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine import DealId

__all__ = ["ChosenDeal", "pick_deal"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ChosenDeal:
    deal: str
    certified: bool
    solution: dict[str, list[str]] | None


def _solver() -> Callable[..., Any] | None:
    try:
        module = importlib.import_module("stalactites.solver")
    except ImportError:
        return None
    pick = getattr(module, "pick", None)
    return pick if callable(pick) else None


def random_deal() -> ChosenDeal:
    return ChosenDeal(str(DealId("sr", secrets.randbits(64))), False, None)


async def pick_deal(game: str, step: str | None) -> ChosenDeal:
    """One deal for a new room, picked by the solver in a thread when it is available."""
    pick = _solver()
    if pick is None:
        return random_deal()
    try:
        found = await asyncio.to_thread(pick, game, 1, None, step or "choice")
    except Exception:
        log.exception("the solver failed to pick a %s deal; using an uncertified one", game)
        return random_deal()
    if not found:
        return random_deal()
    certificate = found[0]
    lines = {str(name): [str(move) for move in moves] for name, moves in certificate.lines.items()}
    return ChosenDeal(str(certificate.deal), True, lines)
