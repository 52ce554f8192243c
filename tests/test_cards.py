"""Notation round trips: cards, piles, moves and deal ids, and what is refused."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stalactites.engine import (
    Card,
    DealId,
    EngineError,
    InvalidMoveError,
    Move,
    NotationError,
    Pile,
    PileKind,
    Rank,
    Suit,
)

ALL_CARDS = [r + s for r in "A23456789TJQK" for s in "CDHS"]
NUMBERED = [PileKind.TABLEAU, PileKind.CELL, PileKind.FOUNDATION]


def piles() -> st.SearchStrategy[Pile]:
    numbered = st.builds(Pile, st.sampled_from(NUMBERED), st.integers(0, 98))
    single = st.sampled_from([Pile(PileKind.STOCK), Pile(PileKind.WASTE)])
    return st.one_of(numbered, single)


def moves() -> st.SearchStrategy[Move]:
    return st.builds(Move, piles(), piles(), st.integers(1, 99))


# Cards.


@pytest.mark.parametrize("text", ALL_CARDS)
def test_every_card_round_trips(text: str) -> None:
    card = Card.parse(text)
    assert str(card) == text
    assert eval(repr(card)) == card


def test_card_notation_is_rank_then_suit() -> None:
    assert Card.parse("TD") == Card(Rank.TEN, Suit.DIAMONDS)
    assert Card.parse("AC") == Card(Rank.ACE, Suit.CLUBS)
    assert Card.parse("KS") == Card(Rank.KING, Suit.SPADES)
    assert Card.parse("9H").rank == 9


def test_rank_values_run_ace_one_to_king_thirteen() -> None:
    assert [rank.symbol for rank in Rank] == list("A23456789TJQK")
    assert [int(rank) for rank in Rank] == list(range(1, 14))
    assert [suit.symbol for suit in Suit] == list("CDHS")


@pytest.mark.parametrize(
    "text", ["", "T", "10D", "td", "DT", "1C", "XD", "TX", "TD ", " TD", "AS2"]
)
def test_not_a_card_is_refused_quoting_the_input(text: str) -> None:
    with pytest.raises(NotationError) as error:
        Card.parse(text)
    assert repr(text) in str(error.value)
    assert error.value.code == "bad_notation"


def test_card_parse_refuses_what_is_not_text() -> None:
    with pytest.raises(NotationError):
        Card.parse(["TD"])  # type: ignore[arg-type]


# Piles.


@pytest.mark.parametrize("text", ["t1", "t8", "t10", "c1", "c3", "f1", "f8", "t99", "s", "w"])
def test_pile_round_trips(text: str) -> None:
    pile = Pile.parse(text)
    assert str(pile) == text
    assert eval(repr(pile)) == pile


def test_pile_numbers_are_one_based() -> None:
    assert Pile.parse("t3") == Pile(PileKind.TABLEAU, 2)
    assert Pile.parse("c1") == Pile(PileKind.CELL, 0)
    assert Pile.parse("s") == Pile(PileKind.STOCK)


@pytest.mark.parametrize(
    "text", ["", "t", "t0", "t01", "t100", "T1", "x1", "s1", "w2", "f-1", "c 1"]
)
def test_not_a_pile_is_refused_quoting_the_input(text: str) -> None:
    with pytest.raises(NotationError) as error:
        Pile.parse(text)
    assert repr(text) in str(error.value)


@pytest.mark.parametrize(
    ("kind", "index"),
    [(PileKind.TABLEAU, -1), (PileKind.CELL, 99), (PileKind.STOCK, 1), (PileKind.WASTE, 2)],
)
def test_pile_that_notation_cannot_write_is_refused(kind: PileKind, index: int) -> None:
    with pytest.raises(NotationError):
        Pile(kind, index)


@given(piles())
def test_any_pile_round_trips(pile: Pile) -> None:
    assert Pile.parse(str(pile)) == pile


# Moves.


@pytest.mark.parametrize("text", ["t3-f1", "t5-c2", "c1-f4", "s-w", "t2-t7:3", "w-t10", "t1-t2:13"])
def test_move_round_trips(text: str) -> None:
    move = Move.parse(text)
    assert str(move) == text
    assert eval(repr(move)) == move


def test_move_parts() -> None:
    move = Move.parse("t2-t7:3")
    assert move == Move(Pile(PileKind.TABLEAU, 1), Pile(PileKind.TABLEAU, 6), 3)
    assert Move.parse("c1-f4").count == 1


def test_single_card_move_is_written_without_count() -> None:
    assert str(Move(Pile.parse("t2"), Pile.parse("t7"), 1)) == "t2-t7"


@pytest.mark.parametrize(
    "text",
    ["", "t3f1", "t3-", "-f1", "t0-f1", "t3-f0", "t3 - f1", "t3-f1:1", "t3-f1:0", "t3-f1:100",
     "t3-f1:", "t3-f1:x", "T3-F1", "s1-w", "t3-f1-c1", "t3_f1", "hello", "t3-f1\n"],
)  # fmt: skip
def test_not_a_move_is_invalid_and_quotes_the_input(text: str) -> None:
    with pytest.raises(InvalidMoveError) as error:
        Move.parse(text)
    assert repr(text) in str(error.value)
    assert error.value.code == "invalid_move"


def test_invalid_move_is_a_notation_error_under_the_engine_root() -> None:
    assert issubclass(InvalidMoveError, NotationError)
    assert issubclass(NotationError, EngineError)
    assert issubclass(EngineError, ValueError)


def test_move_parse_refuses_what_is_not_text() -> None:
    with pytest.raises(InvalidMoveError):
        Move.parse(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("count", [0, -1, 100])
def test_move_with_a_count_notation_cannot_write_is_refused(count: int) -> None:
    with pytest.raises(InvalidMoveError):
        Move(Pile.parse("t1"), Pile.parse("t2"), count)


@given(moves())
def test_any_move_round_trips(move: Move) -> None:
    assert Move.parse(str(move)) == move
    assert eval(repr(move)) == move


def test_values_are_immutable_and_hashable() -> None:
    move = Move.parse("t3-f1")
    with pytest.raises(AttributeError):
        move.count = 2  # type: ignore[misc]
    assert {move, Move.parse("t3-f1")} == {move}
    assert len({Card.parse("TD"), Card(Rank.TEN, Suit.DIAMONDS)}) == 1


# Deal ids.


@pytest.mark.parametrize(
    "text", ["ms:1", "ms:617", "ms:2147483647", "sr:0000000000000000", "sr:00000000075bcd15"]
)
def test_deal_id_round_trips(text: str) -> None:
    deal = DealId.parse(text)
    assert str(deal) == text
    assert eval(repr(deal)) == deal


def test_deal_id_parts() -> None:
    assert DealId.parse("ms:617") == DealId("ms", 617)
    assert DealId.parse("sr:00000000075bcd15") == DealId("sr", 123456789)
    assert str(DealId("sr", 2**64 - 1)) == "sr:ffffffffffffffff"


@pytest.mark.parametrize(
    "text",
    ["", "ms:", "ms:0", "ms:-1", "ms:01", "ms:2147483648", "ms:99999999999", "MS:1", "ms 1", "1",
     "sr:", "sr:75bcd15", "sr:00000000075BCD15", "sr:00000000075bcd150", "sr:g000000000000000",
     "xx:1"],
)  # fmt: skip
def test_not_a_deal_id_is_refused_quoting_the_input(text: str) -> None:
    with pytest.raises(NotationError) as error:
        DealId.parse(text)
    assert repr(text) in str(error.value)


@pytest.mark.parametrize(
    ("scheme", "number"),
    [("ms", 0), ("ms", 2**31), ("sr", -1), ("sr", 2**64), ("ms", True), ("ms", 1.0), ("xx", 1)],
)
def test_deal_id_out_of_range_is_refused(scheme: str, number: int) -> None:
    with pytest.raises(NotationError):
        DealId(scheme, number)


def test_deal_id_parse_refuses_what_is_not_text() -> None:
    with pytest.raises(NotationError):
        DealId.parse(1)  # type: ignore[arg-type]


@given(st.integers(1, 2**31 - 1))
def test_any_ms_deal_id_round_trips(number: int) -> None:
    deal = DealId("ms", number)
    assert DealId.parse(str(deal)) == deal


@given(st.integers(0, 2**64 - 1))
def test_any_sr_deal_id_round_trips(number: int) -> None:
    deal = DealId("sr", number)
    assert DealId.parse(str(deal)) == deal
