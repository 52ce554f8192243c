"""``stalactites analyse`` and ``GET /api/rooms/{id}/analysis`` on a real finished race: the
same analysis from the server (on both stores, kept: the same text twice) and from the
command line (JSON and ``--text``), and bad input answered with its exit status."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from server_kit import InProcessServer, http, new_room, player, winning_line
from stalactites.cli import main

pytestmark = pytest.mark.usefixtures("close_clients")

COMMAND = str(Path(sys.executable).with_name("stalactites"))
DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")


async def raced(server: InProcessServer) -> str:
    """Ann wins ms:4 by ones; Bob plays five moves of her line, one other, undoes it and
    resigns."""
    room_id = await new_room(server.url, deal=DEAL, step="ones", seats=2, countdown_s=0)
    ann, bob = [await player(server, room_id, name) for name in ("Ann", "Bob")]
    for client in (ann, bob):
        await client.send(type="ready")
    await ann.expect("started")
    for index, move in enumerate(LINE[:5]):
        assert (await bob.move(f"b{index}", move))["type"] == "accepted"
    assert (await bob.move("b5", bob.frames[-1]["legal"][0]))["type"] == "accepted"
    await bob.send(type="undo", id="u1")
    assert (await bob.answer("u1"))["type"] == "accepted"
    status, early = await http("GET", f"{server.url}/api/rooms/{room_id}/analysis")
    assert (status, early["code"]) == (409, "not_finished")
    for index, move in enumerate(LINE):
        assert (await ann.move(f"a{index}", move))["type"] == "accepted"
    await bob.send(type="resign")
    for client in (ann, bob):
        await client.expect("results")
    return room_id


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["analyse", *args])
    out, err = capsys.readouterr()
    return status, out, err


async def test_a_finished_race_is_analysed_once_by_the_server_and_alike_by_the_cli(
    any_server: InProcessServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    room_id = await raced(any_server)
    url = f"{any_server.url}/api/rooms/{room_id}"
    status, analysis = await http("GET", f"{url}/analysis")
    assert status == 200, analysis
    ann, bob = analysis["players"]
    assert ann["verdicts"] == ["won"] * (len(LINE) + 1) and ann["accuracy"] == 1.0
    assert len(bob["verdicts"]) == 8 and bob["verdicts"][:6] == ["won"] * 6
    assert len(ann["times_ms"]) == len(LINE) and ann["fewest_moves"]["exact"] is True
    assert ann["fewest_moves"]["value"] <= len(LINE)
    assert [r["player_id"] for r in analysis["timeline"]["racers"]] == [
        ann["player_id"],
        bob["player_id"],
    ]
    again = await http("GET", f"{url}/analysis")
    assert again == (200, analysis)
    status, record = await http("GET", f"{url}/record")
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    status, out, err = await asyncio.to_thread(run, capsys, str(path))
    assert (status, err) == (0, "")
    assert json.loads(out) == analysis
    answer = await asyncio.to_thread(
        subprocess.run,
        [COMMAND, "analyse", "--text", url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert answer.returncode == 0, answer.stderr
    assert f"Ann ({ann['player_id']}): the deal is won, the end won" in answer.stdout
    assert "accuracy 100%" in answer.stdout


def _save(tmp_path: Path, name: str, data: Any) -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


async def test_bad_input_gets_its_exit_status_and_a_clear_message(
    server: InProcessServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    room_id = await raced(server)
    status, record = await http("GET", f"{server.url}/api/rooms/{room_id}/record")
    tampered = json.loads(json.dumps(record))
    tampered["players"][1]["actions"][5]["action"] = "t9-f1"
    other = json.loads(json.dumps(record))
    other["game"] = "freecell"
    cases = {
        str(tmp_path / "missing.json"): (2, "cannot read"),
        _save(tmp_path, "text.json", "not json"): (2, "not JSON"),
        _save(tmp_path, "tampered.json", tampered): (1, "action 6, 't9-f1', is refused"),
        _save(tmp_path, "other.json", other): (1, "freecell"),
    }
    for source, (code, message) in cases.items():
        status, out, err = await asyncio.to_thread(run, capsys, source)
        assert (status, out) == (code, ""), (source, out)
        assert err.startswith("stalactites: ") and message in err, (source, err)
