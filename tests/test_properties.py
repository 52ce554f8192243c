"""Properties of random legal play on random deals, checked with hypothesis."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stalactites.engine import (
    DealId,
    Game,
    GameRecord,
    Move,
    Squadron,
    Stalactites,
    Status,
    UndoError,
    new_game,
    replay,
)

EXAMPLES = settings(max_examples=25, deadline=None)
LONGEST = 250  # Squadron may wander (a card between two empty columns); stop it there

deal_ids = st.one_of(
    st.builds(DealId, st.just("ms"), st.integers(1, 2**31 - 1)),
    st.builds(DealId, st.just("sr"), st.integers(0, 2**64 - 1)),
)
stalactites_games = st.builds(Stalactites, deal_ids, st.sampled_from(["choice", "ones", "twos"]))
squadron_games = st.builds(Squadron, deal_ids)
games = st.one_of(stalactites_games, squadron_games)
Board = Stalactites | Squadron


def play(game: Game, rng: random.Random) -> Iterator[Move]:
    """Play random legal moves, yielding each after it is pushed, until none is left."""
    while len(game.move_stack) < LONGEST:
        moves = game.generate_legal_moves()
        if not moves:
            return
        move = rng.choice(moves)
        game.push(move)
        yield move


def every_card(game: Board) -> Counter[str]:
    piles = [*game.tableau, *game.foundations]
    held = [card for card in game.cells if card is not None]
    if isinstance(game, Squadron):
        piles += [game.stock, game.waste]
    return Counter(str(card) for card in held + [card for pile in piles for card in pile])


@EXAMPLES
@given(stalactites_games, st.randoms(use_true_random=False))
def test_random_play_keeps_every_card_exactly_once(game: Stalactites, rng: random.Random) -> None:
    deck = Counter(r + s for r in "A23456789TJQK" for s in "CDHS")
    assert every_card(game) == deck
    for _ in play(game, rng):
        assert every_card(game) == deck


@pytest.mark.slow
@EXAMPLES
@given(squadron_games, st.randoms(use_true_random=False))
def test_random_play_keeps_every_card_exactly_twice(game: Squadron, rng: random.Random) -> None:
    decks = Counter({r + s: 2 for r in "A23456789TJQK" for s in "CDHS"})
    assert every_card(game) == decks
    for _ in play(game, rng):
        assert every_card(game) == decks


@EXAMPLES
@given(games, st.randoms(use_true_random=False))
def test_foundations_never_hold_more_than_13_cards(game: Board, rng: random.Random) -> None:
    for _ in play(game, rng):
        sizes = [len(pile) for pile in game.foundations]
        assert all(size <= 13 for size in sizes)
        assert sum(sizes) == game.foundation_cards


@pytest.mark.slow
@EXAMPLES
@given(games, st.randoms(use_true_random=False))
def test_pop_restores_the_exact_previous_position(game: Game, rng: random.Random) -> None:
    while len(game.move_stack) < LONGEST:
        moves = game.generate_legal_moves()
        if not moves:
            break
        before, key, step = game.state(), game.key(), game.step_name
        move = rng.choice(moves)
        game.push(move)
        if game.can_pop():
            assert game.pop() == move
            assert (game.state(), game.key(), game.step_name) == (before, key, step)
            assert game.generate_legal_moves() == moves
            game.push(move)
        else:
            assert str(move) == "s-w"
            after = game.state()
            with pytest.raises(UndoError):
                game.pop()
            assert game.state() == after


@EXAMPLES
@given(games, st.randoms(use_true_random=False))
def test_replaying_a_record_reproduces_the_position(game: Game, rng: random.Random) -> None:
    for _ in play(game, rng):
        pass
    result = replay(GameRecord.loads(GameRecord.of(game).dumps()))
    assert result.valid
    assert result.moves_applied == len(game.move_stack)
    assert result.game.state() == game.state()
    assert result.game.key() == game.key()
    assert result.status is game.status


@pytest.mark.slow
@EXAMPLES
@given(games, st.randoms(use_true_random=False))
def test_a_game_with_no_legal_move_is_lost_unless_won(game: Game, rng: random.Random) -> None:
    for _ in play(game, rng):
        moves = game.generate_legal_moves()
        expected = Status.WON if game.is_won else Status.PLAYING if moves else Status.LOST
        assert game.status is expected
        assert game.has_legal_move() == bool(moves) == bool(game.legal_moves)
    if len(game.move_stack) < LONGEST:
        assert game.status in (Status.WON, Status.LOST)


def stalactites_universe() -> list[Move]:
    names = [f"t{i}" for i in range(1, 10)] + ["c1", "c2", "c3", "f1", "f2", "f3", "f4", "f5"]
    return [Move.parse(f"{a}-{b}") for a, b in product(names, names) if a != b]


@EXAMPLES
@given(stalactites_games, st.randoms(use_true_random=False))
def test_stalactites_generates_exactly_the_moves_check_accepts(
    game: Stalactites, rng: random.Random
) -> None:
    universe = stalactites_universe()
    for index, _ in enumerate(play(game, rng)):
        if index % 4 == 0:
            assert set(game.generate_legal_moves()) == {m for m in universe if game.is_legal(m)}


@EXAMPLES
@given(stalactites_games, st.randoms(use_true_random=False))
def test_step_stays_unfixed_only_until_a_foundation_play(
    game: Stalactites, rng: random.Random
) -> None:
    policy_step = None if game.policy.value == "choice" else game.policy.value
    assert game.step_name == policy_step
    for move in play(game, rng):
        played = any(len(pile) > 1 for pile in game.foundations)
        assert (game.step is None) == (policy_step is None and not played)
        if policy_step is not None:
            assert game.step_name == policy_step
        if move.dst.kind.value == "f":
            assert game.step is not None


@settings(max_examples=10, deadline=None)
@given(deal_ids, st.randoms(use_true_random=False))
def test_a_record_with_its_step_replays_like_the_choice_game_it_came_from(
    deal: DealId, rng: random.Random
) -> None:
    game = new_game("stalactites", deal)
    for _ in play(game, rng):
        pass
    record = GameRecord.of(game)
    result = replay(record)
    assert result.valid
    assert result.game.step_name == game.step_name
    unfixed = replay(GameRecord(record.game, record.deal, None, record.moves))
    assert unfixed.game.state() == game.state()
