"""Stalactites, decided exactly by a depth-first search over a compact position.

Suits never matter and nothing is ever undone, so a position is the eight column heights and
the four foundation counts: the cells hold whatever left the columns without reaching a
foundation.  Equal-base foundations are kept in a fixed order, so mirrored positions share a
key.  Three reductions, each proven in ``docs/solver.md``, keep the search small:

* a card goes to a cell only on the way to the card beneath it, so one search step (a
  :class:`Dig`) digs ``depth`` cards into free cells and plays the card beneath them home;
* when several foundations take a rank now, only the one with the most cards still to come is
  tried;
* some plays are forced: a cell card whose foundation has at least as far to go as any other
  still wanting its rank, and any card whose rank every foundation still wanting it wants now.

What a foundation takes next comes from the engine's :func:`next_rank`, and the line found is
played through the engine, which checks every move, before it is returned.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..engine import Move, Pile, PileKind, Stalactites
from ..engine.stalactites import Step, next_rank
from .result import Verdict

__all__ = ["Dig", "StalactitesPosition", "StalactitesSearch", "play_line"]

CELLS = 2
FULL = 13
HEIGHT_BITS = 3
COUNT_BITS = 4
COUNT_SHIFT = HEIGHT_BITS * 8  # eight columns

# A play inside the search: (column or -1 for a cell card, depth, foundation, rank).
Step4 = tuple[int, int, int, int]


class OutOfStates(Exception):
    """The caller's state budget ran out."""


@dataclass(frozen=True, slots=True)
class Dig:
    """One search step: dig ``depth`` cards of ``column`` into the cells, then play the card
    beneath them to ``foundation`` (an engine index).  ``column`` is -1 for a cell card."""

    column: int
    depth: int
    foundation: int
    rank: int


@dataclass(slots=True)
class StalactitesPosition:
    """A Stalactites position by ranks only, foundations in search order (see ``order``)."""

    columns: list[tuple[int, ...]]
    heights: list[int]
    counts: list[int]
    cells: list[int]
    need: list[list[int]]  # need[f][k]: the rank foundation f takes holding k cards (0: none)
    order: list[int]  # search foundation index -> engine foundation index

    @classmethod
    def of(cls, game: Stalactites, step: Step) -> StalactitesPosition:
        columns = [tuple(int(card.rank) for card in column) for column in game.tableau]
        bases, counts = game.bases, [len(pile) for pile in game.foundations]
        # Equal bases sorted by falling count: the search keeps them so (see _targets).
        order = sorted(range(len(bases)), key=lambda f: (bases[f], -counts[f], f))
        return cls(
            columns=columns,
            heights=[len(column) for column in columns],
            counts=[counts[f] for f in order],
            cells=[int(card.rank) for card in game.cells if card is not None],
            need=[[next_rank(bases[f], k, step) for k in range(FULL + 1)] for f in order],
            order=order,
        )

    def key(self) -> int:
        """The heights, three bits each, then the counts, four bits each."""
        key = 0
        for count in reversed(self.counts):
            key = (key << COUNT_BITS) | count
        for height in reversed(self.heights):
            key = (key << HEIGHT_BITS) | height
        return key

    @property
    def cards(self) -> int:
        return sum(self.heights) + len(self.cells) + sum(self.counts)


class StalactitesSearch:
    """The exhaustive search: :meth:`run` answers won or lost, or unknown past ``max_states``."""

    def __init__(self, board: StalactitesPosition, max_states: int | None = None) -> None:
        self.board = board
        self.max_states = max_states
        self.states = 0
        self.plays: list[Dig] = []  # the winning line, once won
        self._best: list[Step4] = []  # a line reaching the most foundation cards seen
        # at[f][r]: how many cards foundation f holds when it takes rank r.
        self.at = [[0] * (FULL + 1) for _ in board.need]
        for f, ranks in enumerate(board.need):
            for k in range(FULL):
                self.at[f][ranks[k]] = k

    @property
    def best(self) -> list[Dig]:
        """The line that brought the most cards home (the winning line once won)."""
        return self._engine_plays(self._best)

    def run(self) -> Verdict:
        board = self.board
        seen: set[int] = set()
        path: list[Step4] = []
        dfs = self._dfs(seen, path)
        try:
            won = dfs(board.key(), sum(board.counts))
        except OutOfStates:
            return Verdict.UNKNOWN
        finally:
            self.states = len(seen)
        if not won:
            return Verdict.LOST
        self._best = path
        self.plays = self._engine_plays(path)
        return Verdict.WON

    def _dfs(self, seen: set[int], path: list[Step4]) -> Callable[[int, int], bool]:
        board, limit, total = self.board, self.max_states, self.board.cards
        plays_here, children = self._plays, self.children
        best = [sum(board.counts)]

        def dfs(key: int, home: int) -> bool:
            if home == total:
                return True
            if key in seen:
                return False
            seen.add(key)
            if limit is not None and len(seen) > limit:
                raise OutOfStates
            if home > best[0]:
                best[0], self._best = home, path.copy()
            for play, child in children(key, plays_here()):
                path.append(play)
                if dfs(child, home + 1):
                    return True
                path.pop()
            return False

        return dfs

    def children(self, key: int, plays: list[Step4]) -> Iterator[tuple[Step4, int]]:
        """The search's one step: each of ``plays`` made on the board in turn, yielded with the
        key after it (``key`` is the board's).  The board is put back after each play, also
        when the caller stops early (the generator is closed)."""
        board = self.board
        counts, heights, cells, columns = board.counts, board.heights, board.cells, board.columns
        for play in plays:
            i, depth, f, rank = play
            counts[f] += 1
            child = key + (1 << (COUNT_SHIFT + COUNT_BITS * f))
            if i < 0:
                j = cells.index(rank)
                del cells[j]
            else:
                height = heights[i]
                cells.extend(columns[i][height - depth : height])
                heights[i] = height - depth - 1
                child -= (depth + 1) << (HEIGHT_BITS * i)
            try:
                yield play, child
            finally:
                counts[f] -= 1
                if i < 0:
                    cells.insert(j, rank)
                else:
                    heights[i] = height
                    del cells[len(cells) - depth :]

    def _plays(self, parks: int = CELLS, forced_cell: bool = True) -> list[Step4]:
        """The plays worth trying here: one forced play, or every candidate, digs last.
        ``parks``: the most cards a dig may park; ``forced_cell`` False: a cell card's play
        is never the only one tried (the park search's: its proof may park a card)."""
        board = self.board
        target = self._targets()
        plays: list[Step4] = []
        for j, rank in enumerate(board.cells):
            f = target[rank]
            if f >= 0 and rank not in board.cells[:j]:
                if forced_cell and self._forced_from_cell(rank, f):
                    return [(-1, 0, f, rank)]
                plays.append((-1, 0, f, rank))
        free = min(CELLS - len(board.cells), parks)
        digs: list[Step4] = []
        for i, column in enumerate(board.columns):
            height = board.heights[i]
            for depth in range(min(free, height - 1) + 1):
                rank = column[height - 1 - depth]
                f = target[rank]
                if f < 0:
                    continue
                if depth:
                    digs.append((i, depth, f, rank))
                elif self._forced_from_column(rank):
                    return [(i, 0, f, rank)]
                else:
                    plays.append((i, 0, f, rank))
        if len(digs) > 1:
            digs.sort(key=_depth)
        return plays + digs

    def _targets(self) -> list[int]:
        """For each rank, the foundation taking it now with the most cards to come, or -1.

        Among equal-base foundations holding as many cards the first wins, which keeps their
        counts falling in search order."""
        counts, need = self.board.counts, self.board.need
        target = [-1] * (FULL + 1)
        for f in range(len(counts)):
            count = counts[f]
            rank = need[f][count]
            if rank:
                other = target[rank]
                if other < 0 or count < counts[other]:
                    target[rank] = f
        return target

    def _forced_from_cell(self, rank: int, f: int) -> bool:
        """No foundation still wanting ``rank`` wants it with fewer cards than ``f`` holds."""
        counts, at = self.board.counts, self.at
        for g in range(len(counts)):
            if counts[g] <= at[g][rank] < counts[f]:
                return False
        return True

    def _forced_from_column(self, rank: int) -> bool:
        """Every foundation still wanting ``rank`` wants it now."""
        counts, at = self.board.counts, self.at
        for g in range(len(counts)):
            if at[g][rank] > counts[g]:
                return False
        return True

    def _engine_plays(self, path: list[Step4]) -> list[Dig]:
        order = self.board.order
        return [Dig(i, depth, order[f], rank) for i, depth, f, rank in path]


def _depth(play: Step4) -> int:
    return play[1]


def play_line(game: Stalactites, plays: list[Dig]) -> list[Move]:
    """Push the engine moves of ``plays`` onto ``game`` (the engine checks each one) and return
    them; a free cell is the first the engine has free, a cell card the first of its rank."""
    moves: list[Move] = []
    for play in plays:
        if play.column < 0:
            j = next(j for j, card in enumerate(game.cells) if card and card.rank == play.rank)
            source = Pile(PileKind.CELL, j)
        else:
            source = Pile(PileKind.TABLEAU, play.column)
            for _ in range(play.depth):
                cell = Pile(PileKind.CELL, game.cells.index(None))
                moves.append(game.push(Move(source, cell)))
        moves.append(game.push(Move(source, Pile(PileKind.FOUNDATION, play.foundation))))
    return moves
