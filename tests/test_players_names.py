"""Names, passwords, tokens and the rating formula: the players' pure parts."""

from __future__ import annotations

import random
import re
import time

import pytest

from stalactites.players import Passwords, displayed, skeleton
from stalactites.players.names import (
    check_display_name,
    check_username,
    generated_name,
    username_key,
)
from stalactites.players.ratings import PROVISIONAL_RACES, provisional, rate_race
from stalactites.players.sessions import new_token, parse_token, token_hash
from stalactites.store.players.base import Rating, moved_rating


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("ann", "\u0430nn"),  # Cyrillic a
        ("Ann", "ann"),
        ("paypal", "\u0440\u0430\u0443\u0440\u0430l"),  # Cyrillic р а у р а
        ("rn", "m"),
        ("Il", "ll"),
        ("BILL", "bill"),  # "I" is "l"'s look-alike and "i"'s capital
        ("\uff21nn", "Ann"),  # fullwidth A
        ("ann", "a\u200dnn"),  # an invisible joiner
        ("\u00e9", "e\u0301"),  # composed and decomposed
    ],
)
def test_confusable_names_share_a_skeleton(one: str, other: str) -> None:
    assert skeleton(one) == skeleton(other)


@pytest.mark.parametrize(("one", "other"), [("ann", "anne"), ("bob", "rob"), ("ann", "\u00e4nn")])
def test_different_names_have_different_skeletons(one: str, other: str) -> None:
    assert skeleton(one) != skeleton(other)


def test_a_skeleton_is_its_own_skeleton() -> None:
    for name in ["Ann", "\u0430nn", "m", "paypal", "BraveOtter42"]:
        assert skeleton(skeleton(name)) == skeleton(name)


def test_usernames_are_unique_without_regard_to_case() -> None:
    assert username_key("Alice_1") == username_key("aLICE_1") == "alice_1"
    assert check_username("a-b_C9") == "a-b_C9"


def test_a_display_name_is_stored_normalised() -> None:
    assert check_display_name(" e\u0301va  la   rapide ") == "\u00e9va la rapide"


def test_generated_names_are_an_adjective_an_animal_and_a_number() -> None:
    chooser = random.Random(7)
    names = {generated_name(chooser) for _ in range(200)}
    assert len(names) == 200
    for name in names:
        assert re.fullmatch(r"([A-Z][a-z]+){2}\d{2,4}", name)
        assert check_display_name(name) == name and check_username(name) == name
    assert re.fullmatch(r"([A-Z][a-z]+){2}\d{2,4}", generated_name())


def test_the_displayed_rating_is_1000_plus_25_times_mu_minus_3_sigma() -> None:
    assert displayed(Rating()) == 1000
    assert displayed(Rating(mu=30.0, sigma=2.0)) == 1000 + 25 * 24


def test_a_rating_is_provisional_for_its_first_races() -> None:
    assert provisional(Rating(races=PROVISIONAL_RACES - 1))
    assert not provisional(Rating(races=PROVISIONAL_RACES))


def test_a_race_is_rated_by_places_and_ties_are_equal() -> None:
    first, second, third = rate_race([Rating()] * 3, [1, 2, 2])
    assert first.mu > second.mu and second == third and first.races == 1
    assert first.sigma < Rating().sigma
    with pytest.raises(ValueError):
        rate_race([Rating()], [1])


def test_a_races_new_ratings_have_six_decimals_so_its_outcome_is_short() -> None:
    for rating in rate_race([Rating(), Rating(27.123456, 7.654321, 3)], [2, 1]):
        assert (round(rating.mu, 6), round(rating.sigma, 6)) == (rating.mu, rating.sigma)
        assert len(repr(rating.mu)) <= 10 and len(repr(rating.sigma)) <= 9


def test_a_rating_moved_meanwhile_gets_the_races_change_added() -> None:
    before, after = Rating(25.0, 8.0, 0), Rating(27.0, 7.0, 1)
    assert moved_rating(before, before, after) == Rating(27.0, 7.0, 1)
    moved = moved_rating(Rating(30.0, 4.0, 5), before, after)
    assert moved == Rating(32.0, 3.5, 6)


def test_a_token_holds_256_random_bits_and_names_its_player() -> None:
    token = new_token("p.0123456789abcdef")
    assert parse_token(token) == "p.0123456789abcdef"
    secret = token.split("~")[1]
    assert len(secret) == 43  # 32 bytes in base64url
    assert token_hash(token) != token and len(token_hash(token)) == 64
    assert new_token("p.0123456789abcdef") != token


@pytest.mark.slow
def test_passwords_are_hashed_with_argon2id_as_stated() -> None:
    passwords = Passwords()
    hashed = passwords.hash("correct horse")
    assert hashed.startswith("$argon2id$v=19$m=65536,t=3,p=1$")
    assert passwords.verify(hashed, "correct horse").right
    assert not passwords.verify(hashed, "wrong horse").right
    assert not passwords.verify(None, "correct horse").right


def test_a_hash_made_with_old_parameters_is_made_again() -> None:
    old = Passwords(time_cost=1, memory_kib=8).hash("correct horse")
    verdict = Passwords(time_cost=2, memory_kib=16).verify(old, "correct horse")
    assert verdict.right and verdict.rehashed is not None
    assert verdict.rehashed.startswith("$argon2id$v=19$m=16,t=2,p=1$")
    assert Passwords(time_cost=1, memory_kib=8).verify(old, "correct horse").rehashed is None
    assert not Passwords().verify("not a hash", "correct horse").right


@pytest.mark.slow
def test_an_unknown_username_costs_what_a_wrong_password_costs() -> None:
    passwords = Passwords(time_cost=2, memory_kib=16 * 1024)
    hashed = passwords.hash("correct horse")

    def cost(stored: str | None) -> float:
        """The process's CPU time (not the wall clock's, which other processes' load moves)."""
        start = time.process_time()
        for _ in range(5):
            passwords.verify(stored, "wrong horse")
        return time.process_time() - start

    wrong, unknown = min(cost(hashed) for _ in range(3)), min(cost(None) for _ in range(3))
    assert 0.5 < unknown / wrong < 2.0
