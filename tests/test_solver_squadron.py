"""The Squadron solver: won lines replay to wins, verdicts agree with a brute force on small
constructed positions, budgets give ``unknown``, hints come from any position."""

from __future__ import annotations

import copy
import gc
import random

import pytest

from stalactites.engine import Card, GameRecord, Move, NotationError, Squadron, Status, replay
from stalactites.engine.cards import card
from stalactites.solver import Verdict, hint, solve
from stalactites.solver.squadron import SquadronSearch, play_line
from stalactites.solver.squadron_best import (
    BRIEF_WEIGHTS,
    WEIGHTS,
    BestFirstSearch,
    Weights,
    score,
)
from stalactites.solver.squadron_board import FREE, SquadronPosition
from stalactites.solver.squadron_depth import DepthFirstSearch
from stalactites.solver.squadron_moves import candidate_moves, footprint, independent

SUIT_ORDER = (0, 3, 2, 1)  # a foundation pair per suit: clubs, spades, hearts, diamonds


def canonical(game: Squadron) -> tuple[object, ...]:
    """The position with columns, cells and foundations as multisets (for the brute force)."""
    return (
        tuple(sorted(tuple(map(str, column)) for column in game.tableau)),
        tuple(sorted(map(str, game.cells))),
        tuple(sorted(tuple(map(str, pile)) for pile in game.foundations)),
        len(game.stock),
        tuple(map(str, game.waste)),
    )


def brute_force(game: Squadron) -> bool:
    """Whether ``game`` can still be won, trying every legal engine move (a stock deal on a
    copy, since the engine never takes one back).  Written apart from the solver."""
    memo: dict[tuple[object, ...], bool] = {}

    def winnable(g: Squadron) -> bool:
        if g.is_won:
            return True
        key = canonical(g)
        if key not in memo:
            memo[key] = False
            for move in g.generate_legal_moves():
                if str(move) == "s-w":
                    child = copy.deepcopy(g)
                    child.push(move)
                    won = winnable(child)
                else:
                    g.push(move)
                    won = winnable(g)
                    g.pop()
                if won:
                    memo[key] = True
                    break
        return memo[key]

    return winnable(game)


def position(
    home: list[int], cells: list[Card | None], columns: list[list[Card]], stock: list[Card]
) -> Squadron:
    """A Squadron position: ``home[f]`` cards on foundation f (pairs per suit), the rest as
    given (the caller places every card not home exactly once)."""
    game = Squadron("ms:1")
    game.foundations = [
        [card(r, SUIT_ORDER[f // 2]) for r in range(1, home[f] + 1)] for f in range(8)
    ]
    game.cells, game.tableau, game.stock, game.waste = cells, columns, stock, []
    return game


def endgame(seed: int, cards_left: int) -> Squadron:
    """A random consistent endgame: foundations built to random heights, the other cards in
    full cells, a little stock and every column."""
    rng = random.Random(seed)
    home = [13] * 8
    while sum(13 - k for k in home) < cards_left:
        f = rng.randrange(8)
        home[f] -= home[f] > 0
    rest = [card(r, SUIT_ORDER[f // 2]) for f in range(8) for r in range(home[f] + 1, 14)]
    rng.shuffle(rest)
    stock = [rest.pop() for _ in range(rng.choice([0, 1, 2]))]
    cells: list[Card | None] = [rest.pop() for _ in range(3)]
    columns: list[list[Card]] = [[] for _ in range(10)]
    for i, c in enumerate(rest):
        columns[i % 10 if i < 10 else rng.randrange(10)].append(c)
    return position(home, cells, columns, stock)


def clubs_jam(stock: bool) -> Squadron:
    """Everything home but the 26 clubs; every column top is an even rank (no top takes
    another), the cells hold two Kings and a Queen.  With ``stock`` one Jack waits in the
    stock, where dealing it leads nowhere.  Nothing can be won."""
    c = [card(rank, 0) for rank in range(1, 14)]
    tops = [c[1], c[3], c[5], c[7], c[9]] * 2
    under = [c[0], c[0], c[2], c[2], c[4], c[4], c[6], c[6], c[8], c[8]]
    columns = [[under[i], tops[i]] for i in range(10)]
    columns[0].insert(0, c[10])
    (columns[1] if not stock else []).insert(0, c[10])
    cells: list[Card | None] = [c[12], c[12], c[11]]
    return position([0, 0] + [13] * 6, cells, columns, [c[10]] if stock else [])


def replays_to_a_win(game: Squadron, moves: list[str]) -> bool:
    record = GameRecord("squadron", str(game.deal), None, tuple(moves))
    result = replay(record)
    return result.valid and result.status is Status.WON


@pytest.mark.slow
@pytest.mark.parametrize("number", [1, 2, 3, 7, 9])
def test_won_lines_replay_to_a_win_through_the_engine(number: int) -> None:
    game = Squadron(f"ms:{number}")
    solution = solve(game, max_states=50_000)
    assert solution.verdict is Verdict.WON
    assert replays_to_a_win(game, [str(m) for m in solution.moves])


@pytest.mark.parametrize("seed", range(8))
def test_verdicts_on_constructed_endgames_agree_with_a_brute_force(seed: int) -> None:
    game = endgame(seed, cards_left=14)
    solution = solve(game)
    assert (solution.verdict is Verdict.WON) == brute_force(game)
    if solution.verdict is Verdict.WON:
        line = copy.deepcopy(game)
        for move in solution.moves:
            line.push(move)  # the engine checks every move
        assert line.status is Status.WON


@pytest.mark.parametrize("stock", [False, True])
def test_a_jammed_position_is_proven_lost(stock: bool) -> None:
    game = clubs_jam(stock)
    assert bool(game.generate_legal_moves()) == stock
    solution = solve(game)
    assert solution.verdict is Verdict.LOST
    assert not brute_force(game)


def line_wins(game: Squadron, line: list[tuple[int, int, int, int]]) -> bool:
    """Whether the search line, played through the engine on a copy of ``game``, wins it."""
    copy_ = copy.deepcopy(game)
    play_line(copy_, line)  # the engine checks every move
    return copy_.status is Status.WON


def test_the_key_ignores_the_order_of_the_columns_a_column_constraint_included() -> None:
    game = Squadron("ms:4")
    mirrored = copy.deepcopy(game)
    mirrored.tableau.reverse()
    board, other = SquadronPosition(game), SquadronPosition(mirrored)
    assert board.key(FREE) == other.key(FREE)
    for i in range(10):
        assert board.key(i) == other.key(9 - i)
        assert board.key(i) != board.key((i + 1) % 10)  # ms:4's columns all differ


def test_a_key_restores_the_position_it_was_made_from() -> None:
    game = Squadron("ms:1")
    line = solve(game, max_states=50_000).moves
    for moves in range(0, len(line), 25):
        played = copy.deepcopy(game)
        for move in line[:moves]:
            played.push(move)
        board = SquadronPosition(played)
        for constraint in (FREE, 10, 3):
            key = board.key(constraint)
            restored = SquadronPosition(played)
            found = restored.restore(key)
            assert restored.key(found) == key
            assert sorted(map(bytes, restored.cols)) == sorted(map(bytes, board.cols))


@pytest.mark.slow
def test_moves_the_depth_first_search_calls_independent_commute_through_the_engine() -> None:
    game = Squadron("ms:1")
    line = solve(game, max_states=50_000).moves
    pairs = 0
    for moves in range(0, len(line), 60):
        played = copy.deepcopy(game)
        for move in line[:moves]:
            played.push(move)
        board = SquadronPosition(played)
        candidates = candidate_moves(board, FREE)
        for i, first in enumerate(candidates):
            for second in candidates[i + 1 :]:
                marks = footprint(board, first), footprint(board, second)
                if not independent(*marks):
                    continue
                pairs += 1
                keys = []
                for order in ([first, second], [second, first]):
                    both = copy.deepcopy(played)
                    play_line(both, order)  # the engine checks each move
                    keys.append(SquadronPosition(both).key(FREE))
                assert keys[0] == keys[1], (moves, first, second)
    assert pairs > 20, pairs


@pytest.mark.slow
@pytest.mark.parametrize("weights", WEIGHTS + BRIEF_WEIGHTS)
def test_every_best_first_ranking_wins_a_deal_with_a_line_the_engine_replays(
    weights: Weights,
) -> None:
    game = Squadron("ms:2")
    search = BestFirstSearch(game, 3000, weights, complete=False)
    assert search.run() is Verdict.WON
    assert line_wins(game, search.line)


@pytest.mark.parametrize("seed", range(8))
def test_an_exhaustive_best_first_search_agrees_with_a_brute_force(seed: int) -> None:
    game = endgame(seed, cards_left=14)
    search = BestFirstSearch(game, 10**6, WEIGHTS[0], complete=True)
    verdict = search.run()
    assert verdict is (Verdict.WON if brute_force(game) else Verdict.LOST)
    if verdict is Verdict.WON:
        assert line_wins(game, search.line)


@pytest.mark.parametrize("stock", [False, True])
def test_an_exhaustive_best_first_search_proves_a_jam_lost(stock: bool) -> None:
    assert BestFirstSearch(clubs_jam(stock), 10**6).run() is Verdict.LOST


@pytest.mark.slow  # seconds of search
def test_taking_turns_wins_a_deal_the_depth_first_search_misses_in_five_times_the_budget() -> None:
    game = Squadron("ms:6")
    assert DepthFirstSearch(game, 50_000).run() is Verdict.UNKNOWN
    search = SquadronSearch(game, 10_000)
    assert search.run() is Verdict.WON
    assert line_wins(game, search.line)


def test_a_small_budget_gives_unknown() -> None:
    solution = solve(Squadron("ms:6"), max_states=500)
    assert solution.verdict is Verdict.UNKNOWN
    assert solution.moves == []
    assert 500 <= solution.states <= 501


def test_a_time_limit_gives_unknown() -> None:
    solution = solve(Squadron("ms:6"), max_states=10**9, seconds=0.2)
    assert solution.verdict is Verdict.UNKNOWN
    assert solution.seconds < 5


def test_solving_leaves_the_game_as_it_was() -> None:
    game = Squadron("ms:2")
    game.push("s-w")
    before = (game.state(), list(game.stock), list(game.move_stack))
    solve(game, max_states=2000)
    assert (game.state(), list(game.stock), list(game.move_stack)) == before


def test_solving_turns_the_cycle_collector_back_on() -> None:
    assert gc.isenabled()
    solve(Squadron("ms:6"), max_states=2000)
    assert gc.isenabled()


def test_squadron_has_no_step() -> None:
    with pytest.raises(NotationError):
        solve(Squadron("ms:1"), step="ones")


def test_hint_from_a_mid_game_position_keeps_the_game_winnable() -> None:
    game = Squadron("ms:1")
    move: Move | None
    for move in solve(game, max_states=50_000).moves[:60]:
        game.push(move)
    move = hint(game, max_states=50_000)
    assert move is not None and game.is_legal(move)
    game.push(move)
    assert solve(game, max_states=50_000).verdict is Verdict.WON


def test_hint_in_a_lost_position_is_none() -> None:
    assert hint(clubs_jam(stock=True)) is None


def test_hint_past_the_budget_still_offers_a_legal_move() -> None:
    game = Squadron("ms:6")
    move = hint(game, max_states=300)
    assert move is not None and game.is_legal(move)


def test_the_buried_weight_counts_the_cards_over_each_foundations_next_card() -> None:
    # ms:1 deals AC under 4D, AD under TH, AS under KD 7D 3S (docs/rules.md's deal check): 5 cards
    # lie over Aces, and each Ace is the next card of both foundations of its suit.
    board = SquadronPosition(Squadron("ms:1"))
    plain = Weights(12, 2, 3, 2, 4, 6)
    assert score(board, plain._replace(buried=1)) == score(board, plain) - 2 * 5
    # With one club foundation started, AC is the next card of the other only; the club
    # foundation's 2C is next, and ms:1 has no 2C in its columns.
    board.cols[1].remove(0)
    board.put_home(0)
    assert score(board, plain._replace(buried=1)) == score(board, plain) - 2 * 4
