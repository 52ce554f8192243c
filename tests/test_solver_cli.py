"""``stalactites solve`` and ``stalactites pick``: one JSON line per deal, ids one per line,
one-line errors with exit status 2; and the terminal game's ``hint``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from stalactites.cli import main
from stalactites.cli.terminal import play
from stalactites.engine import GameRecord, Move, Squadron, Stalactites, Status, replay

COMMAND = str(Path(sys.executable).with_name("stalactites"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def assert_usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status, lines, err = run(capsys, *argv)
    assert status == 2
    assert lines == []
    assert err.startswith("stalactites: error: ") and err.count("\n") == 1
    return err


def won(game: str, deal: str, step: str | None, result: dict[str, Any]) -> bool:
    replayed = replay(GameRecord(game, deal, step, tuple(result["moves"])))
    return result["verdict"] == "won" and replayed.valid and replayed.status is Status.WON


def test_solve_prints_one_json_object_per_deal_with_both_steps(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, lines, err = run(capsys, "solve", "stalactites", "ms:1", "ms:3", "ms:88")
    assert status == 0 and err == ""
    objects = [json.loads(line) for line in lines]
    assert [o["deal"] for o in objects] == ["ms:1", "ms:3", "ms:88"]
    for o in objects:
        assert list(o) == ["game", "deal", "results"] and o["game"] == "stalactites"
        assert list(o["results"]) == ["ones", "twos"]
        for result in o["results"].values():
            assert list(result) == ["verdict", "moves", "states", "seconds"]
            assert isinstance(result["states"], int) and isinstance(result["seconds"], float)
    assert won("stalactites", "ms:1", "ones", objects[0]["results"]["ones"])
    assert objects[1]["results"]["ones"]["verdict"] == "lost"
    assert objects[1]["results"]["ones"]["moves"] == []
    assert won("stalactites", "ms:3", "twos", objects[1]["results"]["twos"])
    assert objects[2]["results"]["ones"]["verdict"] == "lost"


def test_solve_with_a_step_searches_only_that_step(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = run(capsys, "solve", "stalactites", "ms:2", "--step", "twos")
    assert status == 0
    assert list(json.loads(lines[0])["results"]) == ["twos"]


def test_solve_squadron_reports_play(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = run(capsys, "solve", "squadron", "ms:1", "--max-states", "50000")
    assert status == 0
    data = json.loads(lines[0])
    assert list(data["results"]) == ["play"]
    assert won("squadron", "ms:1", None, data["results"]["play"])


def test_solve_past_the_budget_reports_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = run(capsys, "solve", "squadron", "ms:6", "--max-states", "100")
    assert status == 0
    assert json.loads(lines[0])["results"]["play"]["verdict"] == "unknown"
    status, lines, _ = run(capsys, "solve", "squadron", "ms:6", "--seconds", "0.1")
    assert json.loads(lines[0])["results"]["play"]["verdict"] in ("won", "unknown")


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "stalactites"],
        ["solve", "stalactites", "ms:1", "ms:zero"],
        ["solve", "stalactites", "ms:1", "--step", "threes"],
        ["solve", "squadron", "ms:1", "--step", "ones"],
        ["solve", "stalactites", "ms:1", "--max-states", "0"],
        ["solve", "stalactites", "ms:1", "--max-states", "many"],
        ["solve", "squadron", "ms:1", "--seconds", "-1"],
        ["solve", "squadron", "ms:1", "--seconds", "soon"],
        ["solve", "klondike", "ms:1"],
        ["pick", "stalactites"],
        ["pick", "stalactites", "--count", "-2"],
        ["pick", "stalactites", "--count", "two"],
        ["pick", "stalactites", "--count", "1", "--seed", "x"],
        ["pick", "stalactites", "--count", "1", "--seed", str(2**64)],
        ["pick", "squadron", "--count", "1", "--step", "ones"],
        ["pick", "stalactites", "--count", "1", "--max-states", "0"],
    ],
)
def test_wrong_arguments_get_a_one_line_error(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert_usage_error(capsys, *argv)


def test_bad_deal_ids_are_refused_before_any_output(capsys: pytest.CaptureFixture[str]) -> None:
    err = assert_usage_error(capsys, "solve", "stalactites", "ms:1", "sr:12")
    assert "'sr:12'" in err


def test_pick_prints_certified_ids_one_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = run(capsys, "pick", "stalactites", "--count", "3", "--seed", "99")
    assert status == 0 and len(lines) == 3
    assert all(line.startswith("sr:") and len(line) == 19 for line in lines)
    assert run(capsys, "pick", "stalactites", "--count", "3", "--seed", "0x63")[1] == lines
    for deal in lines:
        _, solved, _ = run(capsys, "solve", "stalactites", deal)
        results = json.loads(solved[0])["results"]
        assert results["ones"]["verdict"] == results["twos"]["verdict"] == "won"


def test_pick_that_cannot_certify_fails_with_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, err = run(
        capsys, "pick", "squadron", "--count", "1", "--seed", "1", "--max-states", "1"
    )
    assert status == 1 and lines == []
    assert err.startswith("stalactites: error: ") and err.count("\n") == 1


@pytest.mark.slow
def test_the_installed_command_solves_a_batch() -> None:
    done = subprocess.run(
        [COMMAND, "solve", "stalactites", "ms:1", "ms:2", "--step", "ones"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["deal"] for line in done.stdout.splitlines()] == ["ms:1", "ms:2"]


def test_terminal_hint_suggests_a_legal_move() -> None:
    out = io.StringIO()
    play(Stalactites("ms:1", "ones"), io.StringIO("hint\nquit\n"), out)
    suggestion = next(line for line in out.getvalue().splitlines() if "Try " in line)
    move = suggestion.split("Try ")[1].rstrip(".")
    assert Stalactites("ms:1", "ones").is_legal(Move.parse(move))


def test_terminal_hint_in_a_lost_game_says_so() -> None:
    out = io.StringIO()
    play(Stalactites("ms:3", "ones"), io.StringIO("hint\nquit\n"), out)
    assert "No winning line from here." in out.getvalue()


def test_terminal_help_lists_hint() -> None:
    out = io.StringIO()
    play(Squadron("ms:1"), io.StringIO("help\nquit\n"), out)
    assert "hint" in out.getvalue()
