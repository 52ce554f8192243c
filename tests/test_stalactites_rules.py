"""Every Stalactites rule of docs/rules.md, each shown enforced: the legal side and the
illegal side."""

from __future__ import annotations

import json
import random
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine_positions import MS1_LOSS_BY_ONES, MS1_WIN_BY_ONES, cards, legal, stalactites
from stalactites.engine import (
    IllegalMoveError,
    InvalidMoveError,
    Move,
    NotationError,
    Stalactites,
    Status,
    Step,
    StepLockedError,
    StepPolicy,
    UndoError,
)
from stalactites.engine.stalactites import next_rank

RANKS = "A23456789TJQK"
BASES = ["6S", "9C", "2H", "4D"]  # foundations that take 7/8, T/J, 3/4, 5/6 next: never Q or K


def assert_illegal(game: Stalactites, text: str, reason: str) -> None:
    """The move is refused with a message quoting it and giving the reason, and changes nothing."""
    before = game.state()
    with pytest.raises(IllegalMoveError) as error:
        game.push(text)
    assert repr(text) in str(error.value)
    assert reason in str(error.value)
    assert error.value.code == "illegal_move"
    assert text not in game.legal_moves
    assert game.state() == before


def assert_legal(game: Stalactites, text: str) -> None:
    assert text in legal(game)
    game.push(text)


def ranks_on(game: Stalactites, foundation: int) -> str:
    return "".join(str(card)[0] for card in game.foundations[foundation])


# The deal.


def test_stalactites_deal_is_eight_columns_of_six_four_bases_and_empty_cells() -> None:
    game = Stalactites("ms:2")
    assert [len(column) for column in game.tableau] == [6] * 8
    assert [len(pile) for pile in game.foundations] == [1] * 4
    assert game.cells == [None, None]
    every = [card for column in game.tableau for card in column] + [
        pile[0] for pile in game.foundations
    ]
    assert sorted(map(str, every)) == sorted(r + s for r in "A23456789TJQK" for s in "CDHS")


# The step: by ones or by twos, wrapping.


def test_ones_builds_ace_up_to_king() -> None:
    assert "".join(RANKS[next_rank(1, k, Step.ONES) - 1] for k in range(13)) == "A23456789TJQK"


def test_twos_builds_a_3_5_7_9_j_k_2_4_6_8_t_q() -> None:
    assert "".join(RANKS[next_rank(1, k, Step.TWOS) - 1] for k in range(13)) == "A3579JK2468TQ"


@given(st.integers(1, 13), st.integers(0, 12), st.sampled_from([Step.ONES, Step.TWOS]))
def test_foundation_takes_base_plus_step_times_count_mod_13(
    base: int, count: int, step: Step
) -> None:
    wanted = next_rank(base, count, step)
    assert 1 <= wanted <= 13
    assert wanted % 13 == (base + step * count) % 13


@given(st.integers(1, 13), st.integers(13, 20), st.sampled_from([Step.ONES, Step.TWOS]))
def test_foundation_takes_nothing_at_13_cards(base: int, count: int, step: Step) -> None:
    assert next_rank(base, count, step) == 0


def test_ace_plays_on_king_by_ones() -> None:
    game = stalactites(["2S", "AS"], ["QC KD", *BASES[1:]], step="ones")
    assert_illegal(game, "t1-f1", "takes A next, not 2S")
    assert_legal(game, "t2-f1")
    assert ranks_on(game, 0) == "QKA"


def test_ace_plays_on_queen_by_twos() -> None:
    game = stalactites(["KS", "AS"], ["TC QD", *BASES[1:]], step="twos")
    assert_illegal(game, "t1-f1", "takes A next, not KS")
    assert_legal(game, "t2-f1")
    assert ranks_on(game, 0) == "TQA"


def test_two_plays_on_king_by_twos() -> None:
    game = stalactites(["AS", "2S"], ["JC KD", *BASES[1:]], step="twos")
    assert_illegal(game, "t1-f1", "takes 2 next, not AS")
    assert_legal(game, "t2-f1")
    assert ranks_on(game, 0) == "JK2"


def test_a_whole_foundation_by_ones_wraps_from_king_to_ace() -> None:
    column = "7C 6D 5H 4S 3C 2D AH KS QC JD TH 9S"  # 9S on top, then T J Q K A ... 7
    game = stalactites([column], ["8H", *BASES[1:]], step="ones")
    for _ in range(12):
        assert_legal(game, "t1-f1")
    assert ranks_on(game, 0) == "89TJQKA234567"


def test_a_whole_foundation_by_twos_runs_through_every_rank() -> None:
    column = "QC TD 8H 6S 4C 2D KH JS 9C 7D 5H 3S"  # 3S on top, then 5 7 9 J K 2 ... Q
    game = stalactites([column], ["AH", *BASES[1:]], step="twos")
    for _ in range(12):
        assert_legal(game, "t1-f1")
    assert ranks_on(game, 0) == "A3579JK2468TQ"


def test_complete_foundation_of_13_cards_takes_nothing_more() -> None:
    full = "5C 6C 7C 8C 9C TC JC QC KC AC 2C 3C 4C"
    game = stalactites(["5H", "6H"], [full, *BASES[1:]], step="ones")
    assert_illegal(game, "t1-f1", "foundation f1 is complete")
    assert_illegal(game, "t2-f1", "foundation f1 is complete")
    assert game.foundation_cards == 13 + 3


def test_foundations_build_regardless_of_suit() -> None:
    game = stalactites(["7C", "8H", "9D"], BASES, step="ones")
    assert_legal(game, "t1-f1")  # 7C on 6S
    assert_legal(game, "t2-f1")  # 8H on 7C
    assert_legal(game, "t3-f1")  # 9D on 8H
    assert ranks_on(game, 0) == "6789"


# The step policy: ones, twos or choice; declaring; the first foundation play fixing it.


def test_ones_policy_refuses_a_card_two_above() -> None:
    game = stalactites(["8D", "7D"], BASES, step="ones")
    assert game.step is Step.ONES
    assert_illegal(game, "t1-f1", "takes 7 next, not 8D")
    assert_legal(game, "t2-f1")


def test_twos_policy_refuses_a_card_one_above() -> None:
    game = stalactites(["7D", "8D"], BASES, step="twos")
    assert game.step is Step.TWOS
    assert_illegal(game, "t1-f1", "takes 8 next, not 7D")
    assert_legal(game, "t2-f1")


def test_choice_offers_both_steps_before_the_step_is_fixed() -> None:
    game = stalactites(["7D", "8D"], BASES)
    assert game.policy is StepPolicy.CHOICE
    assert game.step is None
    assert {"t1-f1", "t2-f1"} <= set(legal(game))
    assert_illegal(game, "t1-f2", "takes T or J next, not 7D")


def test_first_foundation_play_by_one_fixes_ones_for_every_foundation() -> None:
    game = stalactites(["7D", "JH", "TH"], BASES)
    assert_legal(game, "t1-f1")
    assert game.step is Step.ONES
    assert game.step_name == "ones"
    assert_illegal(game, "t2-f2", "takes T next, not JH")
    assert_legal(game, "t3-f2")


def test_first_foundation_play_by_two_fixes_twos_for_every_foundation() -> None:
    game = stalactites(["8D", "TH", "JH"], BASES)
    assert_legal(game, "t1-f1")
    assert game.step is Step.TWOS
    assert_illegal(game, "t2-f2", "takes J next, not TH")
    assert_legal(game, "t3-f2")


def test_moves_to_cells_leave_the_step_unfixed() -> None:
    game = stalactites(["7D", "8D", "5S"], BASES)
    game.push("t3-c1")
    assert game.step is None
    assert {"t1-f1", "t2-f1"} <= set(legal(game))


def test_player_may_declare_the_step_before_any_foundation_play() -> None:
    game = stalactites(["7D", "8D", "5S"], BASES)
    game.push("t3-c1")  # cell moves first are fine
    game.declare_step("twos")
    assert game.step is Step.TWOS
    assert_illegal(game, "t1-f1", "takes 8 next, not 7D")
    assert_legal(game, "t2-f1")


def test_declaring_after_a_foundation_play_is_refused() -> None:
    game = stalactites(["7D", "8D"], BASES)
    game.push("t1-f1")
    with pytest.raises(StepLockedError) as error:
        game.declare_step(Step.TWOS)
    assert error.value.code == "step_locked"
    assert "already fixed: ones" in str(error.value)
    assert game.step is Step.ONES


def test_declared_step_never_changes() -> None:
    game = stalactites(["7D", "8D"], BASES)
    game.declare_step("ones")
    with pytest.raises(StepLockedError):
        game.declare_step("twos")
    with pytest.raises(StepLockedError):
        game.declare_step("ones")
    assert game.step is Step.ONES


@pytest.mark.parametrize("policy", ["ones", "twos"])
def test_declaring_under_a_fixed_policy_is_refused(policy: str) -> None:
    game = stalactites(["7D"], BASES, step=policy)
    with pytest.raises(StepLockedError):
        game.declare_step(policy)


def test_a_step_is_ones_or_twos() -> None:
    game = stalactites(["7D"], BASES)
    with pytest.raises(NotationError, match="'threes'"):
        game.declare_step("threes")
    assert game.step is None
    assert Step.parse("ones") is Step.ONES
    assert str(Step.TWOS) == "twos"


def test_a_step_policy_is_choice_ones_or_twos() -> None:
    assert [StepPolicy.parse(text) for text in ("choice", "ones", "twos")] == list(StepPolicy)
    with pytest.raises(NotationError, match="'any'"):
        Stalactites("ms:1", step="any")


# Legal moves, and no others.


def test_column_top_goes_to_an_empty_cell() -> None:
    game = stalactites(["KS", "QS"], BASES)
    assert {"t1-c1", "t1-c2", "t2-c1", "t2-c2"} <= set(legal(game))
    assert_legal(game, "t1-c2")
    assert game.cells == [None, *cards("KS")]
    assert game.tableau[0] == []


def test_a_cell_holds_one_card() -> None:
    game = stalactites(["KS", "QS"], BASES, cells=["KD"])
    assert_illegal(game, "t1-c1", "cell c1 is full")
    assert_legal(game, "t1-c2")
    assert_illegal(game, "t2-c2", "cell c2 is full")
    assert legal(game) == []


def test_only_the_top_card_of_a_column_moves() -> None:
    game = stalactites(["7D KS"], BASES, cells=["QS", "QD"])
    assert_illegal(game, "t1-f1", "takes 7 or 8 next, not KS")


def test_cell_card_goes_to_a_foundation_that_accepts_it() -> None:
    game = stalactites(["KS"], BASES, cells=["9H", "8D"])
    assert_illegal(game, "c1-f1", "takes 7 or 8 next, not 9H")
    assert_legal(game, "c2-f1")
    assert game.cells == [*cards("9H"), None]
    assert game.step is Step.TWOS


def test_no_building_on_the_tableau() -> None:
    game = stalactites(["5C", "6C", "4C"], BASES)
    assert_illegal(game, "t1-t2", "nothing is ever played onto a column")
    assert_illegal(game, "t1-t3", "nothing is ever played onto a column")
    assert not any(move.endswith(("-t1", "-t2", "-t3")) for move in legal(game))


def test_cell_card_never_returns_to_the_tableau() -> None:
    game = stalactites(["5C"], BASES, cells=["6C"])
    assert_illegal(game, "c1-t1", "nothing is ever played onto a column")
    assert_illegal(game, "c1-t2", "nothing is ever played onto a column")


def test_cell_card_never_moves_to_another_cell() -> None:
    game = stalactites(["5C"], BASES, cells=["6C"])
    assert_illegal(game, "c1-c2", "a cell card goes only to a foundation")


@pytest.mark.parametrize("text", ["f1-c1", "f1-t1", "f1-f2", "f1-t2"])
def test_nothing_leaves_a_foundation(text: str) -> None:
    game = stalactites(["5C"], BASES)
    assert_illegal(game, text, "cards leave only columns and cells")


def test_emptied_column_is_never_refilled() -> None:
    game = stalactites(["7D", "8D", "JH"], BASES, cells=["5C"])
    assert_legal(game, "t1-f1")
    assert game.tableau[0] == []
    assert_illegal(game, "c1-t1", "nothing is ever played onto a column")
    assert_illegal(game, "t2-t1", "nothing is ever played onto a column")
    assert_illegal(game, "t1-c2", "column t1 is empty")
    assert not any("t1" in move for move in legal(game))


def test_empty_cell_has_no_card_to_move() -> None:
    game = stalactites(["7D"], BASES)
    assert_illegal(game, "c1-f1", "cell c1 is empty")


@pytest.mark.parametrize("text", ["s-w", "w-f1", "t1-w", "t1-s"])
def test_stalactites_has_no_stock_or_waste(text: str) -> None:
    game = stalactites(["7D"], BASES)
    with pytest.raises(IllegalMoveError):
        game.push(text)


def test_cards_move_one_at_a_time() -> None:
    game = stalactites(["8D 7D"], BASES)
    assert_illegal(game, "t1-f1:2", "cards move one at a time")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("t9-f1", "there is no pile t9"),
        ("c3-f1", "there is no pile c3"),
        ("t1-f5", "there is no foundation f5"),
        ("t1-c3", "there is no cell c3"),
        ("t10-t1", "there is no pile t10"),
    ],
)
def test_pile_beyond_the_layout_is_an_illegal_move_not_an_invalid_one(
    text: str, reason: str
) -> None:
    game = stalactites(["7D"], BASES)
    with pytest.raises(IllegalMoveError) as error:
        game.push(text)
    assert not isinstance(error.value, InvalidMoveError)
    assert reason in str(error.value)


def test_text_that_is_not_a_move_is_invalid_and_changes_nothing() -> None:
    game = Stalactites("ms:1")
    before = game.state()
    with pytest.raises(InvalidMoveError, match="'t2f1'"):
        game.push("t2f1")
    assert game.state() == before
    assert game.move_stack == []


def test_parse_move_reads_notation_and_checks_it_is_legal_here() -> None:
    game = Stalactites("ms:1", step="ones")
    assert game.parse_move("t6-f3") == Move.parse("t6-f3")
    assert game.move_stack == []
    with pytest.raises(IllegalMoveError):
        game.parse_move("t6-f1")
    with pytest.raises(InvalidMoveError):
        game.parse_move("t6f1")


def every_move() -> list[Move]:
    """Each well-formed single-card move between the piles t1-t9, c1-c3, f1-f5, s and w."""
    names = [f"t{i}" for i in range(1, 10)] + ["c1", "c2", "c3", "f1", "f2", "f3", "f4", "f5"]
    names += ["s", "w"]
    return [Move.parse(f"{a}-{b}") for a, b in product(names, names) if a != b]


@pytest.mark.parametrize("deal", ["ms:1", "ms:2", "sr:00000000075bcd15"])
@pytest.mark.parametrize("policy", ["choice", "ones", "twos"])
def test_legal_moves_are_exactly_the_moves_the_rules_allow(deal: str, policy: str) -> None:
    game = Stalactites(deal, step=policy)
    for _ in range(8):
        generated = list(game.legal_moves)
        assert len(set(generated)) == len(generated)
        assert set(generated) == {move for move in every_move() if game.is_legal(move)}
        if not generated:
            break
        game.push(generated[len(generated) // 2])


def moves_in_rule_order(game: Stalactites) -> list[Move]:
    """The legal moves read off the rules one pile at a time, in the engine's order: each
    column's top card to each foundation that takes it, then to each empty cell; then each
    cell card to each foundation that takes it."""
    steps = [game.step] if game.step is not None else [Step.ONES, Step.TWOS]

    def takers(rank: int) -> list[int]:
        return [
            f
            for f, pile in enumerate(game.foundations)
            if any(rank == next_rank(game.bases[f], len(pile), step) for step in steps)
        ]

    found: list[str] = []
    for i, column in enumerate(game.tableau):
        if column:
            found += [f"t{i + 1}-f{f + 1}" for f in takers(column[-1].rank)]
            found += [f"t{i + 1}-c{j + 1}" for j, cell in enumerate(game.cells) if cell is None]
    for j, cell in enumerate(game.cells):
        if cell is not None:
            found += [f"c{j + 1}-f{f + 1}" for f in takers(cell.rank)]
    return [Move.parse(text) for text in found]


@pytest.mark.parametrize("policy", ["choice", "ones", "twos"])
def test_legal_moves_come_in_the_rule_order_along_random_play(policy: str) -> None:
    """The order is part of the answer (the client lists the moves as sent): on many
    positions of many deals, moves played and taken back, it stays the rules' order."""
    rng = random.Random(policy)
    for deal in range(1, 41):
        game = Stalactites(f"ms:{deal}", step=policy)
        for _ in range(60):
            generated = game.generate_legal_moves()
            assert generated == moves_in_rule_order(game)
            if generated and (rng.random() < 0.8 or not game.can_pop()):
                game.push(rng.choice(generated))
            elif game.can_pop():
                game.pop()
            else:
                break


def test_legal_moves_view_counts_iterates_and_answers_in() -> None:
    game = Stalactites("ms:1", step="ones")
    view = game.legal_moves
    assert view.count() == len(view) == len(list(view)) == 18
    assert bool(view)
    assert Move.parse("t6-f3") in view
    assert "t6-f3" in view
    assert "t6-f1" not in view
    assert "not a move" not in view
    assert 42 not in view
    assert "t6-f3" in repr(view)


# Won and lost.


def test_won_when_all_52_cards_are_on_the_foundations() -> None:
    game = Stalactites("ms:1", step="ones")
    for text in MS1_WIN_BY_ONES[:-1]:
        game.push(text)
        assert game.status is Status.PLAYING
    game.push(MS1_WIN_BY_ONES[-1])
    assert game.outcome().status is Status.WON
    assert game.foundation_cards == 52
    assert [len(pile) for pile in game.foundations] == [13] * 4
    assert game.is_won
    assert legal(game) == []


def test_lost_when_no_legal_move_remains() -> None:
    game = Stalactites("ms:1", step="ones")
    for text in MS1_LOSS_BY_ONES:
        assert game.status is Status.PLAYING
        game.push(text)
    assert legal(game) == []
    assert game.status is Status.LOST
    assert game.outcome().foundation_cards == 6
    assert not game.is_won


def test_playing_while_a_cell_is_free_and_a_column_has_a_card() -> None:
    game = stalactites(["KS"], BASES, cells=["KD"])
    assert legal(game) == ["t1-c2"]
    assert game.status is Status.PLAYING


def test_under_choice_with_the_step_unfixed_a_move_by_twos_keeps_the_game_going() -> None:
    position = (["8D", "KS"], BASES, ["KD", "KC"])
    assert stalactites(*position).status is Status.PLAYING
    assert legal(stalactites(*position)) == ["t1-f1"]
    assert stalactites(*position, step="ones").status is Status.LOST
    assert stalactites(*position, step="twos").status is Status.PLAYING


def test_under_choice_with_the_step_unfixed_a_move_by_ones_keeps_the_game_going() -> None:
    position = (["KS", "7D"], BASES, ["KD", "KC"])
    assert stalactites(*position).status is Status.PLAYING
    assert stalactites(*position, step="twos").status is Status.LOST
    game = stalactites(*position)
    game.declare_step("twos")
    assert game.status is Status.LOST


# Undo (a room setting, not a rule of the game).


def test_pop_takes_back_the_last_move() -> None:
    game = Stalactites("ms:1")
    before, key = game.state(), game.key()
    game.push("t1-c1")
    assert game.state() != before
    assert game.pop() == Move.parse("t1-c1")
    assert game.state() == before
    assert game.key() == key
    assert game.move_stack == []


def test_pop_of_the_move_that_fixed_the_step_unfixes_it() -> None:
    game = stalactites(["7D", "8D", "KS"], BASES)
    game.push("t3-c1")
    game.push("t1-f1")
    assert game.step is Step.ONES
    game.pop()
    assert game.step is None
    assert {"t1-f1", "t2-f1"} <= set(legal(game))
    game.push("t2-f1")
    assert game.step is Step.TWOS


def test_pop_of_a_later_move_keeps_the_step() -> None:
    game = stalactites(["7D", "KS", "8D"], BASES)
    game.push("t1-f1")
    game.push("t2-c1")
    game.push("t3-f1")
    game.pop()
    game.pop()
    assert game.step is Step.ONES


def test_pop_keeps_a_declared_step() -> None:
    game = stalactites(["8D"], BASES)
    game.declare_step("twos")
    game.push("t1-f1")
    game.pop()
    assert game.step is Step.TWOS


def test_pop_with_nothing_to_undo_is_refused() -> None:
    game = Stalactites("ms:1")
    assert not game.can_pop()
    with pytest.raises(UndoError) as error:
        game.pop()
    assert error.value.code == "undo_refused"
    game.push("t1-c1")
    assert game.can_pop()


# Views.


def test_state_view_is_json_of_what_the_player_sees() -> None:
    game = Stalactites("ms:1")
    game.push("t2-f1")
    state = json.loads(json.dumps(game.state()))
    assert state == {
        "game": "stalactites",
        "deal": "ms:1",
        "step": "twos",
        "foundations": [["6S", "8S"], ["9C"], ["2H"], ["6H"]],
        "cells": [None, None],
        "tableau": [
            ["JD", "KD", "2S", "4C", "3S", "6D"],
            ["2D", "KC", "KS", "5C", "TD"],
            ["9H", "9S", "9D", "TS", "4S", "8D"],
            ["JC", "5S", "QD", "QH", "TH", "QS"],
            ["5D", "AD", "JS", "4H", "8H", "6C"],
            ["7H", "QC", "AS", "AC", "2C", "3D"],
            ["7C", "KH", "AH", "4D", "JH", "8C"],
            ["5H", "3H", "3C", "7S", "7D", "TC"],
        ],
    }


def test_key_tells_positions_apart_and_is_hashable() -> None:
    game = Stalactites("ms:1")
    start = game.key()
    assert hash(start) == hash(Stalactites("ms:1").key())
    game.push("t1-c1")
    moved = game.key()
    assert moved != start
    game.pop()
    game.push("t1-c2")
    assert game.key() != start
    game.pop()
    game.declare_step("ones")
    assert game.key() != start
    assert len({start, moved, game.key()}) == 3


def test_repr_names_the_deal_and_step() -> None:
    game = Stalactites("ms:7", step="twos")
    assert repr(game) == "<Stalactites ms:7 step=twos moves=0>"
