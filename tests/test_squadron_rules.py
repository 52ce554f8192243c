"""Every Squadron rule of docs/rules.md, each shown enforced: the legal side and the illegal
side."""

from __future__ import annotations

import json
from collections import Counter
from itertools import product

import pytest

from engine_positions import cards, legal, squadron, suit_run
from stalactites.engine import IllegalMoveError, Move, Squadron, Status, UndoError
from stalactites.engine.squadron import run_capacity

KINGS = ["KC", "KD", "KH", "KS"] * 3  # cards that never go anywhere without an empty column


def assert_illegal(game: Squadron, text: str, reason: str) -> None:
    """The move is refused with a message quoting it and giving the reason, and changes nothing."""
    before, stock = game.state(), list(game.stock)
    with pytest.raises(IllegalMoveError) as error:
        game.push(text)
    assert repr(text) in str(error.value)
    assert reason in str(error.value)
    assert text not in game.legal_moves
    assert game.state() == before
    assert game.stock == stock


def assert_legal(game: Squadron, text: str) -> None:
    assert text in legal(game)
    game.push(text)


def filled(*columns: str) -> list[str]:
    """Ten columns: the ones given, then Kings, so that no column is empty."""
    return list(columns) + KINGS[len(columns) : 10]


# The deal.


def test_squadron_deal_is_three_cells_ten_columns_of_four_and_a_61_card_stock() -> None:
    game = Squadron("ms:2")
    assert all(card is not None for card in game.cells)
    assert [len(column) for column in game.tableau] == [4] * 10
    assert len(game.stock) == 61
    assert game.waste == []
    assert game.foundations == [[]] * 8


def test_squadron_deals_two_whole_decks() -> None:
    game = Squadron("ms:3")
    every = [card for card in game.cells if card is not None] + game.stock
    every += [card for column in game.tableau for card in column]
    counts = Counter(map(str, every))
    assert len(every) == 104
    assert set(counts.values()) == {2}
    assert len(counts) == 52


# Foundations.


def test_any_ace_starts_any_empty_foundation() -> None:
    game = squadron(filled("AS"), foundations=["AH"])
    assert [move for move in legal(game) if "-f" in move] == [f"t1-f{i}" for i in range(2, 9)]
    assert_illegal(game, "t1-f1", "builds up in suit from AH, not AS")
    assert_legal(game, "t1-f5")
    assert game.foundations[4] == cards("AS")


def test_an_empty_foundation_takes_only_an_ace() -> None:
    game = squadron(filled("2S"))
    assert_illegal(game, "t1-f1", "an empty foundation takes only an Ace, not 2S")


def test_there_are_eight_foundations() -> None:
    game = squadron(filled("AS"))
    assert_illegal(game, "t1-f9", "there is no foundation f9")


def test_foundation_builds_up_in_suit() -> None:
    game = squadron(filled("2S", "2H", "3S"), foundations=["AS"])
    assert_illegal(game, "t2-f1", "builds up in suit from AS, not 2H")
    assert_illegal(game, "t3-f1", "builds up in suit from AS, not 3S")
    assert_legal(game, "t1-f1")
    assert_legal(game, "t3-f1")
    assert game.foundations[0] == cards("AS 2S 3S")


def test_foundation_builds_up_to_king_and_no_further() -> None:
    game = squadron(filled("AS", "KS"), foundations=[suit_run("S", "A", "Q")])
    assert_illegal(game, "t1-f1", "builds up in suit from QS, not AS")
    assert_legal(game, "t2-f1")
    assert len(game.foundations[0]) == 13
    assert_illegal(game, "t1-f1", "builds up in suit from KS, not AS")
    assert_legal(game, "t1-f2")  # the second deck's Ace starts another foundation


def test_two_foundations_of_one_suit_build_side_by_side() -> None:
    game = squadron(filled("2S", "3S"), foundations=["AS 2S", "AS"])
    assert_illegal(game, "t1-f1", "builds up in suit from 2S, not 2S")
    assert_legal(game, "t1-f2")
    assert_legal(game, "t2-f1")


@pytest.mark.parametrize("text", ["f1-t1", "f1-c1", "f1-f2", "f1-w"])
def test_nothing_leaves_a_foundation(text: str) -> None:
    game = squadron(filled("2S"), foundations=["AS"], cells=[None])
    assert_illegal(game, text, "nothing leaves a foundation")


# The tableau.


def test_column_builds_down_in_suit() -> None:
    game = squadron(filled("9S", "8H", "7S", "8S"))
    assert_illegal(game, "t2-t1", "8H does not go on 9S (down by one in the same suit)")
    assert_illegal(game, "t3-t1", "7S does not go on 9S")
    assert_illegal(game, "t1-t4", "9S does not go on 8S")
    assert_legal(game, "t4-t1")
    assert game.tableau[0] == cards("9S 8S")


def test_any_card_fills_an_empty_column() -> None:
    columns = filled("2C 9D")
    columns[1] = ""
    game = squadron(columns, cells=["5S"], waste="QH")
    assert {"t1-t2", "c1-t2", "w-t2"} <= set(legal(game))
    assert_legal(game, "t1-t2")
    game.pop()
    assert_legal(game, "c1-t2")
    game.pop()
    assert_legal(game, "w-t2")
    assert game.tableau[1] == cards("QH")


def test_a_move_goes_to_another_pile() -> None:
    game = squadron(filled("9S 8S"))
    assert_illegal(game, "t1-t1", "a move goes to another pile")


def test_there_are_ten_columns() -> None:
    game = squadron(filled("9S"))
    assert_illegal(game, "t1-t11", "there is no column t11")
    assert_illegal(game, "t11-t1", "there is no pile t11")


# Cells.


def test_any_available_card_goes_to_an_empty_cell() -> None:
    game = squadron(filled("9S"), cells=[None, "KD", None], waste="4H")
    assert {"t1-c1", "t1-c3", "w-c1", "w-c3"} <= set(legal(game))
    assert_legal(game, "t1-c1")
    assert_legal(game, "w-c3")
    assert game.cells == cards("9S KD 4H")
    assert game.waste == []


def test_a_cell_holds_one_card() -> None:
    game = squadron(filled("9S"), cells=["QD", "KD", None], waste="4H")
    assert_illegal(game, "t1-c1", "cell c1 is full")
    assert_illegal(game, "w-c2", "cell c2 is full")


def test_there_are_three_cells() -> None:
    game = squadron(filled("9S"), cells=[None, None, None])
    assert_illegal(game, "t1-c4", "there is no cell c4")
    assert_illegal(game, "c4-t1", "there is no pile c4")


def test_cell_card_goes_to_a_foundation() -> None:
    game = squadron(filled(), foundations=["AD"], cells=["2D", "3D"])
    assert_illegal(game, "c2-f1", "builds up in suit from AD, not 3D")
    assert_legal(game, "c1-f1")
    assert_legal(game, "c2-f1")


def test_cell_card_goes_onto_a_column() -> None:
    game = squadron(filled("9S"), cells=["8S", "8H"])
    assert_illegal(game, "c2-t1", "8H does not go on 9S")
    assert_legal(game, "c1-t1")
    assert game.cells == [None, *cards("8H"), None]


def test_cell_card_never_goes_to_another_cell() -> None:
    game = squadron(filled("9S"), cells=["8S", None, None])
    assert_illegal(game, "c1-c2", "a cell card never goes to another cell")
    assert not any(move.startswith("c1-c") for move in legal(game))


def test_an_empty_cell_has_no_card() -> None:
    game = squadron(filled("9S"), cells=[None, None, None])
    assert_illegal(game, "c1-t1", "cell c1 is empty")


# Available cards: column tops, cells, the top of the waste.


def test_only_the_top_of_the_waste_is_available() -> None:
    game = squadron(filled("3S"), waste="AS 2S")
    assert_illegal(game, "w-f1", "an empty foundation takes only an Ace, not 2S")
    assert_legal(game, "w-t1")
    assert_legal(game, "w-f1")


def test_only_the_top_of_a_column_is_available() -> None:
    game = squadron(filled("AS 5D"))
    assert_illegal(game, "t1-f1", "an empty foundation takes only an Ace, not 5D")


def test_an_empty_waste_has_no_card() -> None:
    game = squadron(filled("9S"), cells=[None])
    assert_illegal(game, "w-c1", "the waste is empty")


def test_nothing_is_played_onto_the_waste() -> None:
    game = squadron(filled("9S"), waste="TS")
    assert_illegal(game, "t1-w", "nothing is played onto the waste")


# The stock.


def test_stock_deals_its_top_card_onto_the_waste() -> None:
    game = squadron(filled("9S"), stock="3H 5D")
    assert "s-w" in legal(game)
    assert_legal(game, "s-w")
    assert game.waste == cards("5D")
    assert_legal(game, "s-w")
    assert game.waste == cards("5D 3H")
    assert game.stock == []


def test_stock_has_one_pass_and_no_redeal() -> None:
    game = squadron(filled("9S"), waste="5D 3H")
    assert_illegal(game, "s-w", "the stock is empty (there is one pass only)")
    assert_illegal(game, "w-s", "the stock is only ever dealt to the waste")


@pytest.mark.parametrize("text", ["s-c1", "s-t1", "s-f1", "t1-s", "c1-s", "s-w:2"])
def test_stock_deals_one_card_and_only_to_the_waste(text: str) -> None:
    game = squadron(filled("9S"), cells=["AS"], stock="3H 5D")
    assert_illegal(game, text, "the stock is only ever dealt to the waste, 's-w'")


# Supermoves.


@pytest.mark.parametrize(("free", "empty"), list(product(range(4), range(10))))
def test_run_capacity_is_free_cells_plus_one_times_two_to_the_empty_columns(
    free: int, empty: int
) -> None:
    assert run_capacity(free, empty) == (free + 1) * 2**empty


def test_supermove_carries_a_run_up_to_the_capacity() -> None:
    # Three free cells, no empty column: (3 + 1) * 2**0 = 4.
    game = squadron(filled("9S 8S 7S 6S", "TS"), cells=[None, None, None])
    assert_legal(game, "t1-t2:4")
    assert game.tableau[1] == cards("TS 9S 8S 7S 6S")
    assert game.tableau[0] == []


def test_supermove_beyond_the_capacity_is_refused() -> None:
    # Two free cells, no empty column: (2 + 1) * 2**0 = 3 < 4.
    game = squadron(filled("9S 8S 7S 6S", "TS"), cells=[None, None, "KD"])
    assert_illegal(game, "t1-t2:4", "a run of 4 needs room; free cells and empty columns allow 3")


def test_each_empty_column_doubles_the_capacity() -> None:
    run = "9S 8S 7S 6S"
    two_empty = filled(run, "TS")[:8] + ["", ""]
    one_empty = filled(run, "TS")[:9] + [""]
    game = squadron(two_empty, cells=["KD", "KD", "KD"])  # (0 + 1) * 2**2 = 4
    assert_legal(game, "t1-t2:4")
    game = squadron(one_empty, cells=["KD", "KD", "KD"])  # (0 + 1) * 2**1 = 2
    assert_illegal(game, "t1-t2:4", "allow 2")


def test_empty_destination_does_not_count_toward_the_capacity() -> None:
    columns = filled("9S 8S 7S 6S")[:8] + ["", ""]
    game = squadron(columns, cells=["KD", "KD", None])  # (1 + 1) * 2**(2 - 1) = 4
    assert_legal(game, "t1-t9:4")
    game = squadron(columns, cells=["KD", "KD", "KD"])  # (0 + 1) * 2**(2 - 1) = 2
    assert_illegal(game, "t1-t9:4", "allow 2")
    assert_illegal(game, "t1-t9:3", "allow 2")
    assert_legal(game, "t1-t9:2")
    assert game.tableau[8] == cards("7S 6S")


def test_any_part_of_a_run_within_capacity_may_fill_an_empty_column() -> None:
    columns = filled("9S 8S 7S 6S")[:9] + [""]
    game = squadron(columns, cells=[None, None, "KD"])  # (2 + 1) * 2**0 = 3
    assert [move for move in legal(game) if move.startswith("t1-t10")] == [
        "t1-t10",
        "t1-t10:2",
        "t1-t10:3",
    ]


def test_supermove_needs_a_same_suit_descending_run() -> None:
    game = squadron(filled("9S 8H 7S", "9H", "9S 7S"), cells=[None, None, None])
    assert_illegal(game, "t1-t2:2", "the top 2 cards of t1 are no run")
    assert_illegal(game, "t3-t1:2", "the top 2 cards of t3 are no run")


def test_supermove_lands_its_lowest_card_on_one_rank_higher_in_suit() -> None:
    game = squadron(filled("9S 8S 7S", "JS", "TS"), cells=[None, None, None])
    assert_illegal(game, "t1-t2:3", "9S does not go on JS")
    assert_illegal(game, "t1-t3:2", "8S does not go on TS")
    assert [move for move in legal(game) if move.startswith("t1-t")] == ["t1-t3:3"]


def test_supermove_cannot_carry_more_cards_than_the_column_holds() -> None:
    game = squadron(filled("8S 7S", "9S"), cells=[None, None, None])
    assert_illegal(game, "t1-t2:3", "column t1 has 2 cards")


@pytest.mark.parametrize("text", ["c1-t1:2", "w-t1:2", "t1-f1:2", "t1-c2:2"])
def test_only_a_column_to_column_move_carries_a_run(text: str) -> None:
    game = squadron(filled("9S 8S"), cells=["7S", None, None], waste="6S")
    assert_illegal(game, text, "only a column-to-column move carries a run")


def test_supermove_is_exactly_a_bundle_of_single_moves() -> None:
    position: tuple[list[str], list[str], list[str | None]]
    position = (filled("9S 8S 7S", "TS"), [], [None, None, "KD"])
    bundle = squadron(*position)
    bundle.push("t1-t2:3")
    singles = squadron(*position)
    for text in ("t1-c1", "t1-c2", "t1-t2", "c2-t2", "c1-t2"):
        singles.push(text)
    assert bundle.state() == singles.state()


# Won and lost.


def test_won_when_all_104_cards_are_on_the_foundations() -> None:
    whole = [suit_run(suit, "A", "K") for suit in "CDHS"] * 2
    whole[7] = suit_run("S", "A", "Q")
    game = squadron(["KS"], foundations=whole)
    assert game.status is Status.PLAYING
    assert_legal(game, "t1-f8")
    assert game.outcome().status is Status.WON
    assert game.foundation_cards == 104
    assert game.is_won


def test_lost_when_the_stock_is_empty_and_no_legal_move_remains() -> None:
    game = squadron(KINGS[:10], cells=KINGS[:3], waste="KH")
    assert legal(game) == []
    assert game.status is Status.LOST
    assert game.outcome().foundation_cards == 0


def test_not_lost_while_the_stock_has_cards() -> None:
    game = squadron(KINGS[:10], cells=KINGS[:3], stock="2D")
    assert legal(game) == ["s-w"]
    assert game.status is Status.PLAYING
    game.push("s-w")
    # (mypy keeps the narrowing to PLAYING from before the push)
    assert game.status is Status.LOST  # type: ignore[comparison-overlap]


# Hidden information: the stock.


def test_state_shows_the_stock_only_as_a_count() -> None:
    game = Squadron("ms:1")
    state = json.loads(json.dumps(game.state()))
    assert set(state) == {
        "game",
        "deal",
        "foundations",
        "cells",
        "tableau",
        "waste",
        "stock_count",
    }
    assert state["stock_count"] == 61
    assert state["cells"] == ["3D", "5H", "JC"]
    assert state["tableau"][0] == ["KH", "6H", "8S", "JH"]
    game.push("s-w")
    assert game.state()["waste"] == ["4S"]
    assert game.state()["stock_count"] == 60


def test_pop_never_takes_back_a_stock_deal() -> None:
    game = Squadron("ms:1")
    game.push("s-w")
    assert not game.can_pop()
    with pytest.raises(UndoError, match="'s-w': a stock deal is final") as error:
        game.pop()
    assert error.value.code == "undo_refused"
    assert game.waste == cards("4S")
    assert game.move_stack == [Move.parse("s-w")]


def test_pop_takes_back_moves_after_a_stock_deal_but_not_the_deal() -> None:
    game = squadron(filled("9S"), cells=[None, None, None], stock="8S")
    game.push("s-w")
    game.push("w-t1")
    game.pop()
    assert game.waste == cards("8S")
    with pytest.raises(UndoError):
        game.pop()


def test_pop_takes_back_a_supermove() -> None:
    game = squadron(filled("9S 8S 7S 6S", "TS"), cells=[None, None, None])
    before, key = game.state(), game.key()
    game.push("t1-t2:4")
    assert game.pop() == Move.parse("t1-t2:4")
    assert game.state() == before
    assert game.key() == key


def test_pop_with_nothing_to_undo_is_refused() -> None:
    game = Squadron("ms:1")
    assert not game.can_pop()
    with pytest.raises(UndoError, match="nothing to undo"):
        game.pop()


# The legal-move list against the rules.


def every_move() -> list[Move]:
    """Every well-formed move between t1-t11, c1-c4, f1-f9, s and w, runs up to 13 cards."""
    names = [f"t{i}" for i in range(1, 12)] + [f"c{i}" for i in range(1, 5)]
    names += [f"f{i}" for i in range(1, 10)] + ["s", "w"]
    moves = [Move.parse(f"{a}-{b}") for a, b in product(names, names) if a != b]
    columns = [f"t{i}" for i in range(1, 11)]
    runs = product(columns, columns, range(2, 14))
    return moves + [Move.parse(f"{a}-{b}:{n}") for a, b, n in runs if a != b]


@pytest.mark.parametrize("deal", ["ms:1", "ms:11", "sr:00000000075bcd15"])
def test_legal_moves_are_exactly_the_moves_the_rules_allow(deal: str) -> None:
    game = Squadron(deal)
    universe = every_move()
    for turn in range(12):
        generated = list(game.legal_moves)
        assert len(set(generated)) == len(generated)
        assert set(generated) == {move for move in universe if game.is_legal(move)}
        others = [move for move in generated if str(move) != "s-w"]
        game.push(others[turn % len(others)] if others and turn % 3 else generated[0])


def test_legal_moves_are_exactly_the_moves_the_rules_allow_with_runs_and_space() -> None:
    columns = filled("9S 8S 7S 6S", "TS", "7H", "8H 7H", "AD")[:8] + ["", ""]
    game = squadron(columns, foundations=["AH"], cells=[None, "2H", None], waste="3S")
    universe = every_move()
    assert set(game.legal_moves) == {move for move in universe if game.is_legal(move)}
    assert "t1-t2:4" in game.legal_moves


def test_key_tells_positions_apart() -> None:
    game = Squadron("ms:1")
    start = game.key()
    assert start == Squadron("ms:1").key()
    game.push("s-w")
    assert game.key() != start
    assert hash(game.key()) == hash(game.key())


def test_repr_names_the_deal() -> None:
    assert repr(Squadron("ms:4")) == "<Squadron ms:4 moves=0>"
    assert Squadron("ms:4").step_name is None
