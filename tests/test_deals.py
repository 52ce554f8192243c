"""Deals: the ms:N check values of both games, and the project's sr: generator."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stalactites.engine import Card, DealId, Squadron, Stalactites
from stalactites.engine.deals import draw_below, ms_shuffle, splitmix64, sr_shuffle


def cards(text: str) -> list[Card]:
    return [Card.parse(word) for word in text.split()]


def row(game: Stalactites | Squadron, index: int) -> list[Card]:
    return [column[index] for column in game.tableau]


# ms:N, Stalactites.


def test_stalactites_ms1_check_values_from_the_rules() -> None:
    game = Stalactites("ms:1")
    assert row(game, 0) == cards("JD 2D 9H JC 5D 7H 7C 5H")
    assert row(game, 5) == cards("6D 8S 8D QS 6C 3D 8C TC")
    assert [pile[0] for pile in game.foundations] == cards("6S 9C 2H 6H")


def test_stalactites_ms1_is_freecell_deal_1_with_its_last_four_cards_as_bases() -> None:
    # Microsoft FreeCell's game #1, row by row; its seventh row starts 6S 9C 2H 6H.
    freecell_1 = [
        "JD 2D 9H JC 5D 7H 7C 5H",
        "KD KC 9S 5S AD QC KH 3H",
        "2S KS 9D QD JS AS AH 3C",
        "4C 5C TS QH 4H AC 4D 7S",
        "3S TD 4S TH 8H 2C JH 7D",
        "6D 8S 8D QS 6C 3D 8C TC",
    ]
    game = Stalactites("ms:1")
    assert [row(game, index) for index in range(6)] == [cards(line) for line in freecell_1]


def test_stalactites_ms617_is_freecell_deal_617() -> None:
    game = Stalactites("ms:617")
    assert row(game, 0) == cards("7D AD 5C 3S 5S 8C 2D AH")
    assert row(game, 1) == cards("TD 7S QD AC 6D 8H AS KH")


# ms:N, Squadron.


def test_squadron_ms1_check_values_from_the_rules() -> None:
    game = Squadron("ms:1")
    assert game.cells == cards("3D 5H JC")
    assert game.tableau[0] == cards("KH 6H 8S JH")
    assert game.tableau[9] == cards("6C TD 8H 7D")
    game.push("s-w")
    assert game.waste == cards("4S")
    game.push("s-w")
    assert game.waste == cards("4S 8H")


def test_ms_shuffle_follows_the_lcg_of_the_rules() -> None:
    # For deal 1 the first three draws are 41 (state 2745024), 18467 and 6334.
    state, draws = 1, []
    for _ in range(3):
        state = (214013 * state + 2531011) % 2**31
        draws.append(state >> 16)
    assert draws == [41, 18467, 6334]
    deck = list(range(52))
    shuffled = ms_shuffle(deck, 1)
    assert shuffled[51] == deck[41 % 52]
    assert deck == list(range(52))  # the input is left alone


# sr: the project's generator.


def test_splitmix64_test_vector_seed_0() -> None:
    words = list(itertools.islice(splitmix64(0), 3))
    assert words == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_splitmix64_test_vector_seed_1234567() -> None:
    # The reference values (Rosetta Code, "Pseudo-random numbers/Splitmix64").
    words = list(itertools.islice(splitmix64(1234567), 5))
    assert words == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_draw_below_rejects_words_past_the_last_whole_multiple() -> None:
    # 2**64 % 3 == 1, so only the very top word is rejected for bound 3.
    assert draw_below(iter([2**64 - 1, 5]), 3) == 2
    assert draw_below(iter([2**64 - 2, 5]), 3) == (2**64 - 2) % 3
    # 2**64 % 10 == 6: the top six words are rejected.
    assert draw_below(iter([2**64 - 6, 2**64 - 1, 2**64 - 7]), 10) == (2**64 - 7) % 10


def test_draw_below_with_an_exhausted_stream_is_an_error() -> None:
    with pytest.raises(ValueError):
        draw_below(iter([2**64 - 1]), 3)


@given(st.integers(1, 2**20))
def test_draw_below_accepts_a_whole_number_of_rounds_of_every_remainder(bound: int) -> None:
    # The accepted words are 0 .. limit-1 with limit a multiple of bound: each remainder
    # comes from exactly limit/bound words, so the draw is unbiased.
    limit = 2**64 - 2**64 % bound
    assert limit % bound == 0
    assert 2**64 - bound < limit <= 2**64
    assert draw_below(iter([limit - 1]), bound) == bound - 1
    assert draw_below(iter([limit, 0]), bound) == 0


def test_sr_shuffle_gives_every_order_of_four_cards_equally_often() -> None:
    orders = Counter(tuple(sr_shuffle(list("ABCD"), seed)) for seed in range(24_000))
    assert len(orders) == 24
    expected = 1000
    chi_square = sum((seen - expected) ** 2 / expected for seen in orders.values())
    assert chi_square < 49.7  # the 0.1% point of chi-square with 23 degrees of freedom


def reference_words(seed: int) -> Iterator[int]:
    """SplitMix64 once more, written from the published formula in plain arithmetic."""
    modulus = 2**64
    while True:
        seed = (seed + 0x9E3779B97F4A7C15) % modulus
        z = seed
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 % modulus
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB % modulus
        yield z ^ (z >> 31)


def reference_deal_order(seed: int, deck: list[Card]) -> list[Card]:
    """The documented sr: deal in its draw-and-remove form: the order the cards are dealt."""
    words = reference_words(seed)
    remaining, dealt = list(deck), []
    while len(remaining) > 1:
        bound = len(remaining)
        word = next(words)
        while word >= 2**64 - 2**64 % bound:
            word = next(words)
        j = word % bound
        dealt.append(remaining[j])
        remaining[j] = remaining[-1]
        remaining.pop()
    return dealt + remaining


@given(st.integers(0, 2**64 - 1))
def test_sr_stalactites_deal_matches_the_documented_algorithm(seed: int) -> None:
    deck = [Card.parse(r + s) for r in "A23456789TJQK" for s in "CDHS"]
    order = reference_deal_order(seed, deck)
    game = Stalactites(DealId("sr", seed))
    for k in range(48):
        assert game.tableau[k % 8][k // 8] == order[k]
    assert [pile[0] for pile in game.foundations] == order[48:]


@given(st.integers(0, 2**64 - 1))
def test_sr_squadron_deal_matches_the_documented_algorithm(seed: int) -> None:
    deck = [Card.parse(r + s) for _ in range(2) for s in "CSHD" for r in "A23456789TJQK"]
    order = reference_deal_order(seed, deck)
    game = Squadron(DealId("sr", seed))
    assert game.cells == order[:3]
    for k in range(40):
        assert game.tableau[k % 10][k // 10] == order[3 + k]
    assert game.stock[::-1] == order[43:]


def test_sr_deal_test_vectors_stalactites() -> None:
    game = Stalactites("sr:0000000000000000")
    assert row(game, 0) == cards("9S 4C 8D 5H JS 9C AS KS")
    assert row(game, 5) == cards("2H 3H AC 4S 3D QC 7C 4H")
    assert [pile[0] for pile in game.foundations] == cards("JC 3C TC QH")
    game = Stalactites("sr:00000000075bcd15")
    assert row(game, 0) == cards("AD KC 7D 6H JS KS JC QH")
    assert row(game, 5) == cards("TH 9S AH 5S TC TS QD 5H")
    assert [pile[0] for pile in game.foundations] == cards("3S 8D 3H 4C")


def test_sr_deal_test_vectors_squadron() -> None:
    game = Squadron("sr:0000000000000000")
    assert game.cells == cards("TH QS 5D")
    assert game.tableau[0] == cards("KC 4H 7D 9S")
    assert game.tableau[9] == cards("6D 3C QD 6H")
    assert game.stock[-2:] == cards("7S 8S")  # 8S is dealt first
    game = Squadron("sr:00000000075bcd15")
    assert game.cells == cards("2C 9C 4C")
    assert game.tableau[0] == cards("4H 8H KD AD")
    assert game.tableau[9] == cards("9S KD 5S TD")
    assert game.stock[-2:] == cards("KH 2H")


def test_a_deal_is_the_same_every_time() -> None:
    for deal in ("ms:5", "sr:0123456789abcdef"):
        assert Stalactites(deal).state() == Stalactites(deal).state()
        assert Squadron(deal).state() == Squadron(deal).state()
        assert Squadron(deal).stock == Squadron(deal).stock


def test_different_seeds_give_different_deals() -> None:
    layouts = {str(Stalactites(DealId("sr", seed)).state()["tableau"]) for seed in range(50)}
    assert len(layouts) == 50


def test_sr_shuffle_leaves_its_input_alone_and_keeps_every_card() -> None:
    deck = list(range(104))
    shuffled = sr_shuffle(deck, 42)
    assert deck == list(range(104))
    assert sorted(shuffled) == deck
    assert shuffled != deck
