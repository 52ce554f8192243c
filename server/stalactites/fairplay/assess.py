"""The assessment of a finished room for fair play: every run's :class:`~.signals.Signals`.

:func:`assess` takes the record ``GET /api/rooms/{room_id}/record`` serves, replays every run
with the analysis' judge (one per room: every run is of one deal, so what one search decided
serves them all) and raises :class:`~stalactites.analysis.BadRecord` for a record that does
not check.  It is pure computation: the server runs it in a worker process
(:func:`assess_json`).

A position's hardness needs the verdict of every move from it: each distinct move is
played and judged.  Squadron's verdicts are best effort within ``SQUADRON_S`` for the room;
a position with a move left unknown is not counted as hard.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from typing import Any

from ..analysis.judges import Judge, SquadronJudge
from ..analysis.runs import Run, new_deal_game, runs_of
from ..engine import Card, Game, Move, PileKind, Squadron, Stalactites, Step
from ..engine.actions import STEP_PREFIX, UNDO, apply_action
from ..solver.result import Verdict
from ..solver.search import _copy
from ..solver.stalactites import COUNT_BITS, FULL, HEIGHT_BITS
from .bounds import HARD_MAX_SHARE, HARD_MIN_CHOICES
from .signals import Decision, Signals, signals_of

__all__ = ["SQUADRON_S", "Oracle", "assess", "assess_json", "auto_playable"]

SQUADRON_S = 3.0  # a Squadron room's searches, all together (the analysis allows 10 s)


def assess_json(record: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """:func:`assess` as JSON (what a worker process sends back)."""
    return {player: signals.model_dump() for player, signals in assess(record).items()}


def assess(record: dict[str, Any], judge: Judge | None = None) -> dict[str, Signals]:
    """Every player's signals, by player id; ``judge`` may be one already used on this
    room's deal (the analysis'), so that nothing is searched twice."""
    runs = runs_of(record)
    deal = new_deal_game(record)
    if judge is None:
        judge = SquadronJudge(SQUADRON_S) if isinstance(deal, Squadron) else Judge()
    oracle = Oracle(judge)
    autoplay = record.get("autoplay") is not False  # unsaid: it may have been on
    verdicts = [_verdicts(oracle, deal, run) for run in runs]  # first, within any budget
    return {
        run.player_id: _signals(oracle, deal, run, judged, autoplay)
        for run, judged in zip(runs, verdicts, strict=True)
    }


def _verdicts(oracle: Oracle, deal: Game, run: Run) -> list[Verdict]:
    """Every position's verdict (0: the deal, then after each action)."""
    game = _copy(deal)
    verdicts = [oracle.verdict(game)]
    for action in run.actions:
        apply_action(game, action)
        verdicts.append(oracle.verdict(game))
    return verdicts


def _signals(
    oracle: Oracle, deal: Game, run: Run, verdicts: list[Verdict], autoplay: bool
) -> Signals:
    game = _copy(deal)
    times: list[int] = []
    decisions: list[Decision] = []
    moves = 0
    for index, action in enumerate(run.actions):
        if action == UNDO or action.startswith(STEP_PREFIX):
            apply_action(game, action)
            continue
        moves += 1
        move = Move.parse(action)
        if run.times is not None and not (autoplay and auto_playable(game, move)):
            times.append(run.times[index])
        before, after = verdicts[index], verdicts[index + 1]
        if before is Verdict.WON and after is not Verdict.UNKNOWN:
            kept = after is Verdict.WON
            decisions.append(Decision(kept, oracle.hard(game) is True))
        game.push(move)
    return signals_of(
        actions=len(run.actions),
        moves=moves,
        won=run.status == "won",
        times=None if run.times is None else times,
        decisions=decisions,
    )


class Oracle:
    """A judge's verdicts, and the hardness of a won position (bounds.py).

    For Stalactites a verdict is first read from what the judge's searches already decided
    (a position's key, as the solver writes it, in the judge's ``known``), which most
    positions near a run are; only the others are searched."""

    def __init__(self, judge: Judge) -> None:
        self.judge = judge

    def verdict(self, game: Game) -> Verdict:
        if isinstance(game, Stalactites) and type(self.judge) is Judge:
            found = self._known(game.step, _key(game))
            if found is not None:
                return found
        return self.judge.verdict(game)

    def hard(self, game: Game) -> bool | None:
        """Whether a won position is hard (moves that reach the same position count once),
        None when a verdict it needs is unknown; ``game`` is left as it was."""
        if not isinstance(game, Stalactites) or type(self.judge) is not Judge:
            return self._hard(game, [(move, None) for move in _choices(game)])
        choices = _stalactites_choices(game)
        known = [(move, self._known(step, key)) for move, step, key in choices]
        return self._hard(game, known)

    def _hard(self, game: Game, choices: list[tuple[Move, Verdict | None]]) -> bool | None:
        """From the choices, with their verdicts where already known (searched lazily)."""
        if len(choices) < HARD_MIN_CHOICES:
            return False
        limit = int(len(choices) * HARD_MAX_SHARE + 1e-9)
        keeping = sum(verdict is Verdict.WON for _, verdict in choices)
        unknown = False
        for move, verdict in choices:
            if keeping > limit:
                return False
            if verdict is None:
                with _played(game, move) as after:
                    verdict = self.judge.verdict(after)
                keeping += verdict is Verdict.WON
                unknown = unknown or verdict is Verdict.UNKNOWN
        if keeping > limit:
            return False
        return None if unknown else True

    def _known(self, step: Step | None, key: int) -> Verdict | None:
        """A Stalactites position's verdict if the judge has decided it (None: not yet)."""
        if key < 0:
            return Verdict.WON
        steps = (step,) if step is not None else (Step.ONES, Step.TWOS)
        lost = 0
        for one in steps:
            known = self.judge.known[one]
            if key in known.won:
                return Verdict.WON
            lost += key in known.lost
        return Verdict.LOST if lost == len(steps) else None


def _key(game: Stalactites, move: Move | None = None) -> int:
    """The solver's key of the position (-1: won), or of the one ``move`` leads to."""
    heights = [len(column) for column in game.tableau]
    counts = [len(pile) for pile in game.foundations]
    if move is not None:
        if move.src.kind is PileKind.TABLEAU:
            heights[move.src.index] -= 1
        if move.dst.kind is PileKind.FOUNDATION:
            counts[move.dst.index] += 1
    if sum(counts) == FULL * len(counts):
        return -1
    bases = game.bases
    key = 0
    for f in sorted(range(len(bases)), key=lambda f: (bases[f], -counts[f], f), reverse=True):
        key = (key << COUNT_BITS) | counts[f]
    for height in reversed(heights):
        key = (key << HEIGHT_BITS) | height
    return key


def _stalactites_choices(game: Stalactites) -> list[tuple[Move, Step | None, int]]:
    """The legal moves, one for each position they reach, each with that position's step
    and key (the solver's: equal-base foundations and cells are interchangeable)."""
    seen: set[tuple[Step | None, int]] = set()
    choices = []
    for move in game.generate_legal_moves():
        step = game.step
        if step is None and move.dst.kind is PileKind.FOUNDATION:
            card = _top(game, move)
            assert card is not None
            step = Step((card.rank - game.foundations[move.dst.index][-1].rank) % 13)
        position = step, _key(game, move)
        if position not in seen:
            seen.add(position)
            choices.append((move, *position))
    return choices


def _choices(game: Game) -> list[Move]:
    """The legal moves, one for each position they reach."""
    seen: set[Hashable] = set()
    choices = []
    for move in game.generate_legal_moves():
        with _played(game, move) as after:
            key = after.key()
        if key not in seen:
            seen.add(key)
            choices.append(move)
    return choices


@contextmanager
def _played(game: Game, move: Move) -> Iterator[Game]:
    """The position ``move`` leads to: ``game`` with the move pushed, popped afterwards, or
    a copy for a stock deal (no pop takes one back)."""
    if move.src.kind is PileKind.STOCK:
        after = _copy(game)
        after.push(move)
        yield after
        return
    game.push(move)
    try:
        yield game
    finally:
        game.pop()


def auto_playable(game: Game, move: Move) -> bool:
    """Whether the web client's auto-play assist could make ``move`` here (the client's
    ``safeToFoundation``, client_web/js/board/foundations.js): Stalactites, with the step fixed,
    the last card of its rank off the foundations; Squadron, an ace, or a card whose two
    lower cards of its suit are both home."""
    if move.dst.kind is not PileKind.FOUNDATION or move.count != 1:
        return False
    if not isinstance(game, Stalactites | Squadron):
        return False
    card = _top(game, move)
    if card is None:
        return False
    home = [c for pile in game.foundations for c in pile]
    if isinstance(game, Stalactites):
        return game.step is not None and sum(c.rank == card.rank for c in home) == 3
    if card.rank == 1:
        return True
    return sum(c.rank == card.rank - 1 and c.suit == card.suit for c in home) >= 2


def _top(game: Stalactites | Squadron, move: Move) -> Card | None:
    """The card a move from a column, a cell or the waste takes."""
    kind, index = move.src.kind, move.src.index
    if kind is PileKind.CELL:
        return game.cells[index]
    pile = None
    if kind is PileKind.TABLEAU:
        pile = game.tableau[index]
    elif kind is PileKind.WASTE and isinstance(game, Squadron):
        pile = game.waste
    return pile[-1] if pile else None
