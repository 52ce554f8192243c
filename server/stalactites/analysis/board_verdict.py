"""The verdict of one board shown to spectators (:mod:`stalactites.live.rooms.board_verdicts`).

:func:`board_verdict` runs in a worker process of the solver pool, never on the event loop.
Stalactites is exact, with the step as it stands (fixed, or still the player's choice:
winnable by either step); each worker keeps a judge per deal and step setting, so the
positions of one deal share what its searches decided.  Each Stalactites search stops past
``STALACTITES_BOARD_STATES`` new positions (more than a search of a whole deal is expected to
need), and the board is then ``unknown``, so a worker is never held up by one board.
Squadron is best effort with a small budget per position: ``unknown`` when it runs out,
never a guess.
"""

from __future__ import annotations

import time
from collections import OrderedDict

from ..engine import Game, GameName, Status, new_game
from ..engine.actions import apply_action
from ..solver.result import Verdict
from .judges import Judge, SquadronJudge
from .models import PositionVerdict

__all__ = ["SQUADRON_BOARD_S", "STALACTITES_BOARD_STATES", "board_verdict"]

SQUADRON_BOARD_S = 0.5  # one Squadron board's search, at most
STALACTITES_BOARD_STATES = 400_000  # one Stalactites search of a board, at most
KEPT_DEALS = 512  # judges kept per worker, the least recently used dropped first ...
KEPT_POSITIONS = 400_000  # ... and while they keep more decided positions than this (a bound
# on each worker's memory)
SIZE_CHECKS = 64  # verdicts between two counts of the positions kept

DealKey = tuple[str, str, str | None]

WIRE: dict[Verdict, PositionVerdict] = {
    Verdict.WON: "won",
    Verdict.LOST: "lost",
    Verdict.UNKNOWN: "unknown",
}

_judges: OrderedDict[DealKey, Judge] = OrderedDict()
_verdicts = 0  # verdicts asked of this worker


class _SquadronBoards(SquadronJudge):
    """A Squadron judge with a fresh budget for every board, not one for the whole room."""

    def verdict(self, game: Game) -> Verdict:
        self.deadline = time.perf_counter() + SQUADRON_BOARD_S
        return super().verdict(game)


def _judge(deal: DealKey) -> Judge:
    """The worker's judge of ``deal``, the most recently used now; the least recently used
    go while more than ``KEPT_DEALS`` are kept or they hold more than ``KEPT_POSITIONS``
    decided positions (counted when a judge is made and every ``SIZE_CHECKS`` verdicts)."""
    global _verdicts
    judge = _judges.get(deal)
    made = judge is None
    if judge is None:
        judge = _judges[deal] = (
            _SquadronBoards() if deal[0] == GameName.SQUADRON else Judge(STALACTITES_BOARD_STATES)
        )
    _judges.move_to_end(deal)
    _verdicts += 1
    while len(_judges) > KEPT_DEALS:
        _judges.popitem(last=False)
    if made or _verdicts % SIZE_CHECKS == 0:
        while len(_judges) > 1 and sum(kept.size() for kept in _judges.values()) > KEPT_POSITIONS:
            _judges.popitem(last=False)
    return judge


def board_verdict(
    game: str, deal: str, step: str | None, actions: tuple[str, ...]
) -> PositionVerdict:
    """``won`` (still winnable), ``lost`` or ``unknown``: the board of ``deal`` after
    ``actions`` (a player's logged actions, undos and step declarations included)."""
    board = new_game(game, deal, step)
    for action in actions:
        apply_action(board, action)
    if board.outcome().status is Status.WON:
        return "won"
    return WIRE[_judge((game, deal, step)).verdict(board)]
