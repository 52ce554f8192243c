"""Certified deals: ``certify`` and ``pick`` contracts, and the solver's public API."""

from __future__ import annotations

import inspect

import pytest

import stalactites.solver as solver
from stalactites.engine import DealId, GameRecord, NotationError, Status, replay
from stalactites.engine.deals import splitmix64
from stalactites.solver import Certificate, certify, pick


def replays_to_a_win(game: str, deal: DealId, step: str | None, moves: list[str]) -> bool:
    result = replay(GameRecord(game, str(deal), step, tuple(moves)))
    return result.valid and result.status is Status.WON


def test_choice_certificate_holds_a_winning_line_for_each_step() -> None:
    certificate = certify("stalactites", "ms:1")
    assert certificate is not None
    assert certificate.deal == DealId.parse("ms:1")
    assert set(certificate.lines) == {"ones", "twos"}
    for step, moves in certificate.lines.items():
        assert replays_to_a_win("stalactites", certificate.deal, step, moves)


def test_choice_refuses_a_deal_won_by_one_step_only() -> None:
    assert certify("stalactites", "ms:3") is None  # lost by ones, won by twos
    certificate = certify("stalactites", DealId.parse("ms:3"), step="twos")
    assert certificate is not None and list(certificate.lines) == ["twos"]
    assert certify("stalactites", "ms:3", step="ones") is None


def test_squadron_certificate_holds_the_line_under_play() -> None:
    certificate = certify("squadron", "ms:1", max_states=50_000)
    assert certificate is not None and list(certificate.lines) == ["play"]
    assert replays_to_a_win("squadron", certificate.deal, None, certificate.lines["play"])


def test_squadron_is_not_certified_when_the_budget_runs_out() -> None:
    assert certify("squadron", "ms:6", max_states=200) is None


def test_certify_refuses_bad_arguments() -> None:
    with pytest.raises(NotationError):
        certify("klondike", "ms:1")
    with pytest.raises(NotationError):
        certify("stalactites", "ms:0")
    with pytest.raises(NotationError):
        certify("stalactites", "ms:1", step="threes")
    with pytest.raises(NotationError):
        certify("squadron", "ms:1", step="ones")


def test_pick_with_a_seed_is_reproducible_and_draws_the_splitmix_stream() -> None:
    first = pick("stalactites", 3, seed=2024)
    assert first == pick("stalactites", 3, seed=2024)
    assert len(first) == 3
    stream = [DealId("sr", word) for word, _ in zip(splitmix64(2024), range(50), strict=False)]
    positions = [stream.index(c.deal) for c in first]
    assert positions == sorted(positions)  # in stream order
    skipped = [deal for deal in stream[: positions[-1]] if deal not in {c.deal for c in first}]
    assert all(certify("stalactites", deal) is None for deal in skipped)


def test_pick_certificates_replay_to_wins() -> None:
    for certificate in pick("stalactites", 2, seed=7, step="ones"):
        assert certificate.deal.scheme == "sr"
        assert list(certificate.lines) == ["ones"]
        assert replays_to_a_win("stalactites", certificate.deal, "ones", certificate.lines["ones"])


def test_pick_without_a_seed_still_gives_the_count() -> None:
    certificates = pick("stalactites", 2)
    assert len(certificates) == 2 and all(isinstance(c, Certificate) for c in certificates)


def test_pick_counts_zero_and_refuses_a_negative_count() -> None:
    assert pick("stalactites", 0, seed=1) == []
    with pytest.raises(ValueError):
        pick("stalactites", -1, seed=1)


def test_pick_gives_up_clearly_when_nothing_can_be_certified() -> None:
    with pytest.raises(ValueError, match="certified"):
        pick("squadron", 1, seed=1, max_states=1)


def test_certificate_json() -> None:
    certificate = certify("stalactites", "ms:1", step="ones")
    assert certificate is not None
    data = certificate.to_json()
    assert data["deal"] == "ms:1" and list(data["lines"]) == ["ones"]


def test_all_names_every_public_member_of_the_solver() -> None:
    public = {
        name
        for name, value in vars(solver).items()
        if not name.startswith("_") and not inspect.ismodule(value)
    }
    assert set(solver.__all__) == public
    assert set(solver.__all__) >= {"solve", "hint", "certify", "pick", "Verdict", "Solution"}
    assert [v.value for v in solver.Verdict] == ["won", "lost", "unknown"]


def test_verdicts_are_their_strings() -> None:
    # (mypy holds an enum member and a str literal never equal; a StrEnum's are)
    assert solver.Verdict.WON == "won" and str(solver.Verdict.LOST) == "lost"  # type: ignore[comparison-overlap]
    assert solver.Verdict("unknown") is solver.Verdict.UNKNOWN


@pytest.mark.slow
def test_pick_squadron_deals_replay_to_wins() -> None:
    certificates = pick("squadron", 2, seed=1)  # the stream's first two deals come out quickly
    assert [c.deal for c in certificates] == [c.deal for c in pick("squadron", 2, seed=1)]
    for certificate in certificates:
        assert replays_to_a_win("squadron", certificate.deal, None, certificate.lines["play"])
