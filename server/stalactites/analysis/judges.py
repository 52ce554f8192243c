"""Verdicts of positions: exact for Stalactites (shared searches), best effort for Squadron.

One judge serves every run of a room: the runs are of one deal, so what one search decided
serves them all.  A Squadron judge has a time budget for the whole room; once it is spent,
the positions not yet decided are ``unknown`` (never a guess).
"""

from __future__ import annotations

import time

from ..engine import Game, Squadron, Stalactites, Status
from ..engine.stalactites import Step
from ..solver.result import Verdict
from ..solver.search import _copy, solve
from ..solver.stalactites import StalactitesPosition, play_line
from .known import Known, SharedSearch, steps_of

__all__ = ["SQUADRON_POSITION_S", "SQUADRON_ROOM_S", "Judge", "SquadronJudge", "judge_for"]

SQUADRON_ROOM_S = 10.0  # a room's Squadron searches, all together
SQUADRON_POSITION_S = 2.0  # one position's at most
SQUADRON_POSITION_STATES = 200_000


class Judge:
    """Stalactites: every verdict exact; :attr:`known` holds each step's decided keys.

    With ``max_states``, each search of a verdict stops past that many new positions, and a
    position it leaves undecided is ``unknown``."""

    def __init__(self, max_states: int | None = None) -> None:
        self.known = {Step.ONES: Known(), Step.TWOS: Known()}
        self.max_states = max_states

    def verdict(self, game: Game) -> Verdict:
        assert isinstance(game, Stalactites)
        verdict = Verdict.LOST
        for step in steps_of(game):
            found = SharedSearch(
                StalactitesPosition.of(game, step), self.known[step], self.max_states
            ).run()
            if found is Verdict.WON:
                return Verdict.WON
            if found is Verdict.UNKNOWN:
                verdict = Verdict.UNKNOWN
        return verdict

    def size(self) -> int:
        """How many decided positions it keeps (what its memory grows with)."""
        return sum(len(known.lost) + len(known.won) for known in self.known.values())

    def continuation(self, game: Game) -> list[str]:
        """A winning line from a won position."""
        assert isinstance(game, Stalactites)
        for step in steps_of(game):
            search = SharedSearch(StalactitesPosition.of(game, step), self.known[step])
            if search.run() is Verdict.WON:
                return [str(move) for move in play_line(_copy(game), search.plays)]
        return []


class SquadronJudge(Judge):
    """Squadron: a position is won with a line, lost when proven, else unknown."""

    def __init__(self, seconds: float = SQUADRON_ROOM_S) -> None:
        super().__init__()
        self.deadline = time.perf_counter() + seconds
        self._decided: dict[tuple[object, ...], tuple[Verdict, list[str]]] = {}

    def verdict(self, game: Game) -> Verdict:
        return self._judge(game)[0]

    def size(self) -> int:
        return len(self._decided)

    def continuation(self, game: Game) -> list[str]:
        return self._judge(game)[1]

    def _judge(self, game: Game) -> tuple[Verdict, list[str]]:
        key = game.key()
        found = self._decided.get(key)
        if found is not None:
            return found
        status = game.outcome().status
        if status is Status.WON:
            return Verdict.WON, []
        left = self.deadline - time.perf_counter()
        if left <= 0:
            return Verdict.UNKNOWN, []
        seconds = min(left, SQUADRON_POSITION_S)
        solution = solve(game, max_states=SQUADRON_POSITION_STATES, seconds=seconds)
        answer = solution.verdict, [str(move) for move in solution.moves]
        if solution.verdict is not Verdict.UNKNOWN:
            self._decided[key] = answer
            self._follow(game, answer[1])
        return answer

    def _follow(self, game: Game, line: list[str]) -> None:
        """Every position along a winning line is won, with the rest of the line."""
        follower = _copy(game)
        for index, move in enumerate(line[:-1]):
            follower.push(move)
            self._decided.setdefault(follower.key(), (Verdict.WON, line[index + 1 :]))


def judge_for(game: Game) -> Judge:
    return SquadronJudge() if isinstance(game, Squadron) else Judge()
