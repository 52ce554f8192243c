"""The ``stalactites`` command's contract: JSON out, exit codes 0/1/2, one-line errors."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine_positions import MS1_LOSS_BY_ONES, MS1_WIN_BY_ONES
from stalactites.cli import main
from stalactites.cli.terminal import play, render
from stalactites.engine import Squadron, Stalactites

COMMAND = str(Path(sys.executable).with_name("stalactites"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    """Run the command in this process: exit status, the JSON printed (or None), stderr."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) <= 1, "a subcommand prints one JSON object on one line"
    return status, json.loads(lines[0]) if lines else None, err


def assert_usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status, data, err = run(capsys, *argv)
    assert status == 2
    assert data is None
    assert err.startswith("stalactites: error: ")
    assert err.count("\n") == 1
    return err


def write(tmp_path: Path, record: dict[str, Any]) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


# deal


def test_deal_prints_the_initial_stalactites_state(capsys: pytest.CaptureFixture[str]) -> None:
    status, data, _ = run(capsys, "deal", "stalactites", "ms:1")
    assert status == 0
    assert list(data) == ["game", "deal", "foundations", "cells", "tableau"]
    assert data["game"] == "stalactites"
    assert data["deal"] == "ms:1"
    assert data["foundations"] == [["6S"], ["9C"], ["2H"], ["6H"]]
    assert data["cells"] == [None, None]
    assert [column[0] for column in data["tableau"]] == "JD 2D 9H JC 5D 7H 7C 5H".split()
    assert data["tableau"][0] == ["JD", "KD", "2S", "4C", "3S", "6D"]


def test_deal_prints_squadron_with_waste_and_stock_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, data, _ = run(capsys, "deal", "squadron", "ms:1")
    assert status == 0
    assert set(data) == {"game", "deal", "foundations", "cells", "tableau", "waste", "stock_count"}
    assert data["cells"] == ["3D", "5H", "JC"]
    assert data["tableau"][0] == ["KH", "6H", "8S", "JH"]
    assert data["tableau"][9] == ["6C", "TD", "8H", "7D"]
    assert data["foundations"] == [[]] * 8
    assert (data["waste"], data["stock_count"]) == ([], 61)


def test_deal_reveal_stock_lists_the_stock_with_the_next_card_last(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, data, _ = run(capsys, "deal", "squadron", "ms:1", "--reveal-stock")
    assert status == 0
    assert len(data["stock"]) == data["stock_count"] == 61
    assert data["stock"][-2:] == ["8H", "4S"]


def test_deal_takes_the_projects_own_deal_ids(capsys: pytest.CaptureFixture[str]) -> None:
    status, data, _ = run(capsys, "deal", "stalactites", "sr:00000000075bcd15")
    assert status == 0
    assert data["deal"] == "sr:00000000075bcd15"
    assert data["foundations"] == [["3S"], ["8D"], ["3H"], ["4C"]]


def test_reveal_stock_is_for_squadron_only(capsys: pytest.CaptureFixture[str]) -> None:
    err = assert_usage_error(capsys, "deal", "stalactites", "ms:1", "--reveal-stock")
    assert "--reveal-stock is for squadron only" in err


# moves


def test_moves_prints_status_step_and_sorted_legal_moves(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, data, _ = run(capsys, "moves", "stalactites", "ms:1")
    assert status == 0
    assert list(data) == ["status", "step", "legal"]
    assert data["status"] == "playing"
    assert data["step"] is None
    assert data["legal"] == sorted(str(move) for move in Stalactites("ms:1").legal_moves)
    assert {"t2-f1", "t2-f4", "t6-f3", "t8-f2"} <= set(data["legal"])


def test_moves_with_a_step_fixes_it_from_the_start(capsys: pytest.CaptureFixture[str]) -> None:
    status, data, _ = run(capsys, "moves", "stalactites", "ms:1", "--step", "twos")
    assert (status, data["step"]) == (0, "twos")
    assert "t6-f3" not in data["legal"]  # 3D on 2H is by ones


def test_moves_reports_the_step_fixed_by_play(capsys: pytest.CaptureFixture[str]) -> None:
    status, data, _ = run(capsys, "moves", "stalactites", "ms:1", "t2-f1", "t3-c1")
    assert (status, data["status"], data["step"]) == (0, "playing", "twos")
    assert "t3-c1" not in data["legal"]


@pytest.mark.parametrize(
    "argv",
    [
        ["--step", "ones", "t6-f3", "t8-f2"],
        ["t6-f3", "--step", "ones", "t8-f2"],
        ["t6-f3", "t8-f2", "--step", "ones"],
    ],
)
def test_moves_may_come_before_or_after_the_step_option(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    status, data, _ = run(capsys, "moves", "stalactites", "ms:1", *argv)
    assert (status, data["step"]) == (0, "ones")
    expected = Stalactites("ms:1", step="ones")
    expected.push("t6-f3")
    expected.push("t8-f2")
    assert data["legal"] == sorted(str(move) for move in expected.legal_moves)


def test_moves_to_a_win(capsys: pytest.CaptureFixture[str]) -> None:
    status, data, _ = run(capsys, "moves", "stalactites", "ms:1", *MS1_WIN_BY_ONES)
    assert (status, data) == (0, {"status": "won", "step": "ones", "legal": []})


def test_moves_to_a_loss(capsys: pytest.CaptureFixture[str]) -> None:
    status, data, _ = run(
        capsys, "moves", "stalactites", "ms:1", "--step", "ones", *MS1_LOSS_BY_ONES
    )
    assert (status, data) == (0, {"status": "lost", "step": "ones", "legal": []})


def test_moves_in_squadron_deal_the_stock(capsys: pytest.CaptureFixture[str]) -> None:
    status, data, _ = run(capsys, "moves", "squadron", "ms:1", "s-w", "s-w")
    assert (status, data["status"], data["step"]) == (0, "playing", None)
    assert "s-w" in data["legal"]
    assert data["legal"] == sorted(data["legal"])


def test_an_illegal_move_is_reported_with_its_index_and_exit_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, data, _ = run(capsys, "moves", "stalactites", "ms:1", "t2-f1", "t1-t2", "t3-c1")
    assert status == 1
    assert data == {
        "error": {
            "index": 1,
            "move": "t1-t2",
            "code": "illegal_move",
            "message": "'t1-t2': nothing is ever played onto a column",
        }
    }


def test_an_invalid_move_is_reported_with_its_index_and_exit_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, data, _ = run(capsys, "moves", "squadron", "ms:1", "s-w", "sw")
    assert status == 1
    assert list(data) == ["error"]
    assert (data["error"]["index"], data["error"]["move"]) == (1, "sw")
    assert data["error"]["code"] == "invalid_move"
    assert "'sw'" in data["error"]["message"]


def test_a_step_is_for_stalactites_only(capsys: pytest.CaptureFixture[str]) -> None:
    err = assert_usage_error(capsys, "moves", "squadron", "ms:1", "--step", "ones")
    assert "--step is for stalactites only" in err


# replay


def test_replay_of_a_valid_record_exits_0(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = {"game": "stalactites", "deal": "ms:1", "step": "ones", "moves": MS1_WIN_BY_ONES}
    status, data, _ = run(capsys, "replay", write(tmp_path, record))
    assert status == 0
    assert data == {
        "valid": True,
        "status": "won",
        "foundation_cards": 52,
        "moves_applied": 59,
        "error": None,
    }


def test_replay_reports_the_first_bad_move_and_exits_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = {"game": "stalactites", "deal": "ms:1", "step": "ones", "moves": ["t6-f3", "t6-f3"]}
    status, data, _ = run(capsys, "replay", write(tmp_path, record))
    assert status == 1
    assert data == {
        "valid": False,
        "status": "playing",
        "foundation_cards": 5,
        "moves_applied": 1,
        "error": {
            "index": 1,
            "move": "t6-f3",
            "code": "illegal_move",
            "message": "'t6-f3': foundation f3 takes 4 next, not 2C",
        },
    }


def test_replay_reports_an_invalid_move_code(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = {"game": "squadron", "deal": "ms:1", "step": None, "moves": ["s-w", "t1-x"]}
    status, data, _ = run(capsys, "replay", write(tmp_path, record))
    assert status == 1
    assert data["error"]["code"] == "invalid_move"
    assert data["error"]["index"] == 1


@pytest.mark.parametrize("argv", [["replay", "-"], ["replay"]])
def test_replay_reads_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    record = {"game": "stalactites", "deal": "ms:1", "moves": MS1_LOSS_BY_ONES}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(record)))
    status, data, _ = run(capsys, *argv)
    assert status == 0
    assert (data["valid"], data["status"], data["moves_applied"]) == (True, "lost", 4)


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"{not json", "not a game record: a record is JSON"),
        (b'{"game": "chess", "deal": "ms:1"}', "not a game record: not a game: 'chess'"),
        (b'{"game": "stalactites", "deal": "ms:1", "step": "threes"}', "a record's step"),
        (b"\xff\xfe{}", "not UTF-8 text"),
    ],
)
def test_replay_of_what_is_not_a_record_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes, says: str
) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(content)
    assert says in assert_usage_error(capsys, "replay", str(path))


def test_replay_of_a_missing_file_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    err = assert_usage_error(capsys, "replay", str(tmp_path / "nowhere.json"))
    assert "cannot read" in err
    assert "No such file or directory" in err


# Wrong arguments.


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        ([], "required: command"),
        (["shuffle"], "invalid choice: 'shuffle'"),
        (["deal", "chess", "ms:1"], "invalid choice: 'chess'"),
        (["deal", "stalactites"], "required: DEAL_ID"),
        (["deal", "stalactites", "ms:0"], "not a deal id: 'ms:0'"),
        (["deal", "squadron", "sr:xyz"], "not a deal id: 'sr:xyz'"),
        (["deal", "stalactites", "ms:1", "extra"], "unrecognized arguments: extra"),
        (["moves", "stalactites", "ms:1", "--step", "threes"], "invalid choice: 'threes'"),
        (["moves", "stalactites", "ms:1", "t1-c1", "--bogus"], "unrecognized arguments: --bogus"),
        (["play", "squadron", "ms:1", "--step", "ones"], "--step is for stalactites only"),
    ],
)
def test_wrong_arguments_get_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    assert says in assert_usage_error(capsys, *argv)


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    assert "deal" in capsys.readouterr().out


# The installed command, as other tools run it.


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["moves", "stalactites", "ms:1", "t2-f1"], 0),
        (["moves", "stalactites", "ms:1", "t1-t2"], 1),
        (["deal", "stalactites", "ms:99999999999"], 2),
        (["frobnicate"], 2),
    ],
)
@pytest.mark.slow  # a process per command
def test_installed_command_exit_codes_and_no_traceback(argv: list[str], code: int) -> None:
    done = subprocess.run([COMMAND, *argv], capture_output=True, text=True, timeout=60)
    assert done.returncode == code
    assert "Traceback" not in done.stderr
    if code == 2:
        assert done.stdout == ""
        assert done.stderr.count("\n") == 1
    else:
        json.loads(done.stdout)


@pytest.mark.parametrize("argv", [["deal", "squadron", "ms:1"], ["play", "stalactites", "ms:1"]])
@pytest.mark.slow  # a process per command
def test_a_reader_that_goes_away_gets_no_traceback(argv: list[str]) -> None:
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    with subprocess.Popen(
        [COMMAND, *argv],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()
        err = process.stderr.read()
    assert process.returncode == 1
    assert err == b""


@pytest.mark.slow  # a process
def test_installed_replay_reads_a_record_piped_to_it() -> None:
    record = json.dumps({"game": "stalactites", "deal": "ms:1", "moves": MS1_WIN_BY_ONES})
    done = subprocess.run(
        [COMMAND, "replay", "-"], input=record, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["status"] == "won"


# The terminal game.


@pytest.mark.slow  # a process
def test_terminal_game_piped_to_a_win() -> None:
    typed = "\n".join(["help", "moves", *MS1_WIN_BY_ONES]) + "\n"
    done = subprocess.run(
        [COMMAND, "play", "stalactites", "ms:1", "--step", "ones"],
        input=typed,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert done.stderr == ""
    assert "Stalactites ms:1" in done.stdout
    assert "52/52 cards on the foundations" in done.stdout
    assert done.stdout.rstrip().endswith("You won in 59 moves!")


@pytest.mark.slow  # a process
def test_terminal_game_piped_to_a_loss() -> None:
    typed = "\n".join(MS1_LOSS_BY_ONES) + "\n"
    done = subprocess.run(
        [COMMAND, "play", "stalactites", "ms:1", "--step", "ones"],
        input=typed,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert done.stdout.rstrip().endswith(
        "No legal move remains: the game is lost with 6 cards home."
    )


def play_typed(game: Stalactites | Squadron, *lines: str) -> str:
    sink = io.StringIO()
    assert play(game, io.StringIO("".join(line + "\n" for line in lines)), sink) == 0
    return sink.getvalue()


def test_terminal_game_announces_a_win_and_a_loss() -> None:
    won = play_typed(Stalactites("ms:1", step="ones"), *MS1_WIN_BY_ONES)
    assert won.endswith("You won in 59 moves!\n")
    lost = play_typed(Stalactites("ms:1", step="ones"), "help", *MS1_LOSS_BY_ONES)
    assert "undo          take back your last move" in lost
    assert lost.endswith("No legal move remains: the game is lost with 6 cards home.\n")


def test_terminal_game_explains_refused_input_and_plays_on() -> None:
    game = Stalactites("ms:1")
    shown = play_typed(game, "", "t1t2", "t1-t2", "undo", "quit")
    assert "not a move: 't1t2'" in shown
    assert "(invalid_move)" in shown
    assert "'t1-t2': nothing is ever played onto a column (illegal_move)" in shown
    assert "nothing to undo (undo_refused)" in shown
    assert game.move_stack == []


def test_terminal_game_declares_the_step_and_undoes() -> None:
    game = Stalactites("ms:1")
    shown = play_typed(game, "twos", "ones", "t2-f1", "t3-c1", "undo", "q")
    assert "step: twos" in shown
    assert "the step is already fixed: twos, cannot declare ones (step_locked)" in shown
    assert [str(move) for move in game.move_stack] == ["t2-f1"]


def test_terminal_game_lists_the_legal_moves() -> None:
    shown = play_typed(Stalactites("ms:1", step="ones"), "moves", "exit")
    assert " ".join(sorted(str(m) for m in Stalactites("ms:1", step="ones").legal_moves)) in shown


def test_terminal_squadron_shows_waste_and_stock_and_has_no_step() -> None:
    game = Squadron("ms:1")
    shown = play_typed(game, "s-w", "ones")
    assert "waste       4S   stock: 60 cards" in shown
    assert "Squadron has no step to declare." in shown


def test_terminal_game_ends_quietly_at_end_of_input() -> None:
    game = Stalactites("ms:1")
    shown = play_typed(game, "t1-c1")
    assert shown.endswith("> ")
    assert len(game.move_stack) == 1


def test_board_is_drawn_with_every_pile() -> None:
    board = render(Stalactites("ms:1")).splitlines()
    assert board[0].startswith("Stalactites ms:1")
    assert "4/52 cards on the foundations" in board[0]
    assert "step: not fixed" in board[0]
    assert board[1].split() == ["foundations", "6S", "9C", "2H", "6H"]
    assert board[2].split() == ["cells", "--", "--"]
    assert board[3].split() == [f"t{i}" for i in range(1, 9)]
    assert board[4].split() == "JD 2D 9H JC 5D 7H 7C 5H".split()
    assert len(board) == 4 + 6


def test_interrupted_game_exits_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Interrupted(io.StringIO):
        # typeshed checks it against _IOBase.readline too, which returns bytes
        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", Interrupted())
    assert main(["play", "stalactites"]) == 130
    assert "Stalactites ms:1" in capsys.readouterr().out
