"""``stalactites verify``: a real finished race's record verifies, fetched from a live server
(by the record's URL, the room view's or a room page's) and read from a file; a record
tampered with in any one way fails with a message naming what is wrong (exit 1); input
that is no record fails as a usage error (exit 2)."""

from __future__ import annotations

import asyncio
import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from server_kit import InProcessServer, http, new_room, player, winning_line
from stalactites.cli import main
from stalactites.cli.verify import record_url
from stalactites.engine.records import deal_commitment

pytestmark = pytest.mark.usefixtures("close_clients")

COMMAND = str(Path(sys.executable).with_name("stalactites"))
DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")


async def finished_race(server: InProcessServer) -> tuple[str, dict[str, Any]]:
    """A three-player race on ms:4 by ones, over: Ann wins, Bob plays some moves and
    resigns, Cat resigns at once.  The room id and its record."""
    room_id = await new_room(server.url, deal=DEAL, step="ones", seats=3, countdown_s=0)
    ann, bob, cat = [await player(server, room_id, name) for name in ("Ann", "Bob", "Cat")]
    for client in (ann, bob, cat):
        await client.send(type="ready")
    await ann.expect("started")
    for index, move in enumerate(LINE[:5]):
        assert (await bob.move(f"b{index}", move))["type"] == "accepted"
    extra = bob.frames[-1]["legal"][0]
    assert (await bob.move("b5", extra))["type"] == "accepted"
    await bob.send(type="undo", id="u1")  # the record holds the board's moves, not the undone
    assert (await bob.answer("u1"))["type"] == "accepted"
    for index, move in enumerate(LINE):
        assert (await ann.move(f"a{index}", move))["type"] == "accepted"
    for client in (bob, cat):
        await client.send(type="resign")
    for client in (ann, bob, cat):
        await client.expect("results")  # every frame read: no send is left waiting
    status, record = await http("GET", f"{server.url}/api/rooms/{room_id}/record")
    assert status == 200, record
    return room_id, record


def run_verify(capsys: pytest.CaptureFixture[str], source: str) -> tuple[int, str, str]:
    status = main(["verify", source])
    out, err = capsys.readouterr()
    return status, out, err


def save(tmp_path: Path, record: Any, name: str = "record.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


async def test_a_real_race_verifies_from_its_url_its_page_and_a_file(
    any_server: InProcessServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    room_id, record = await finished_race(any_server)
    assert [(p["name"], p["status"]) for p in record["players"]] == [
        ("Ann", "won"),
        ("Bob", "resigned"),
        ("Cat", "resigned"),
    ]
    url = f"{any_server.url}/api/rooms/{room_id}/record"
    answer = await asyncio.to_thread(
        subprocess.run, [COMMAND, "verify", url], capture_output=True, text=True, timeout=60
    )
    assert (answer.returncode, answer.stderr) == (0, ""), answer.stdout
    assert "verified: the deal was committed to" in answer.stdout
    assert f"SHA-256 of {DEAL}|{record['salt']} is {record['commitment']}" in answer.stdout
    assert f"Ann ({record['players'][0]['player_id']}): {len(LINE)} moves" in answer.stdout
    for source in (f"{any_server.url}/#/room/{room_id}", f"{any_server.url}/api/rooms/{room_id}"):
        status, out, err = await asyncio.to_thread(run_verify, capsys, source)
        assert (status, err) == (0, ""), out
    status, out, err = run_verify(capsys, save(tmp_path, record))
    assert (status, err) == (0, ""), out
    assert out.count("  ok  ") == 6 and "FAILED" not in out  # commitment, layout, 3, places


@pytest.mark.parametrize(
    "settings",
    [{"game": "squadron"}, {"game": "stalactites", "step": "choice", "deal": DEAL}],
    ids=str,
)
async def test_a_squadron_race_and_a_race_by_choice_verify(
    settings: dict[str, Any],
    server: InProcessServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Squadron's layout includes its stock; under choice the step is each player's own."""
    room_id = await new_room(server.url, seats=1, countdown_s=0, **settings)
    ann = await player(server, room_id, "Ann")
    await ann.send(type="ready")
    legal = (await ann.expect("started"))["legal"]
    for index in range(6):  # Squadron: its last legal move each time; Stalactites: the line
        move = legal[-1] if settings["game"] == "squadron" else LINE[index]
        answer = await ann.move(f"a{index}", move)
        assert answer["type"] == "accepted", answer
        legal = answer["legal"]
    await ann.send(type="resign")
    await ann.expect("results")
    status, record = await http("GET", f"{server.url}/api/rooms/{room_id}/record")
    assert status == 200 and len(record["players"][0]["record"]["moves"]) == 6, record
    status, out, _ = run_verify(capsys, save(tmp_path, record))
    assert status == 0, out
    assert "layout: the starting layout is deal" in out
    step = record["players"][0]["record"]["step"]
    assert step == ("ones" if settings["game"] == "stalactites" else None)


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        target: Any = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _illegal_move(record: dict[str, Any]) -> None:
    moves = record["players"][1]["record"]["moves"]
    moves[2] = "t1-t2"  # a move, but not one the rules allow there


def _recommit_to(deal: str) -> Callable[[dict[str, Any]], None]:
    """Another deal with a commitment made to fit it: the layout and the moves give it away."""

    def change(record: dict[str, Any]) -> None:
        record["deal"] = deal
        record["commitment"] = deal_commitment(deal, record["salt"])
        for line in record["players"]:
            line["record"]["deal"] = deal

    return change


def _times_backwards(record: dict[str, Any]) -> None:
    actions = record["players"][1]["actions"]
    actions[0]["at_ms"], actions[-1]["at_ms"] = actions[-1]["at_ms"] + 1, actions[0]["at_ms"]


TAMPERED: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "wrong salt": (_set(("salt",), "0" * 32), "but the room published"),
    "changed deal": (_set(("deal",), "ms:5"), "the deal or the salt is not the one"),
    "changed commitment": (_set(("commitment",), "f" * 64), "but the room published"),
    "no commitment": (_set(("commitment",), None), "the record has no salt and commitment"),
    "short salt": (_set(("salt",), "abcd"), "not 16+ bytes of lowercase hex"),
    "another deal recommitted": (_recommit_to("ms:5"), "starting layout is not deal ms:5's"),
    "illegal move": (_illegal_move, "is refused (illegal_move)"),
    "no such pile": (_set(("players", 2, "record", "moves"), ["t9-f1"]), "there is no pile t9"),
    "more cards": (_set(("players", 1, "foundation_cards"), 20), "reported 20 foundation cards"),
    "fewer moves": (_set(("players", 0, "moves"), 3), "foundation cards in 3 moves"),
    "a resignation called a win": (_set(("players", 1, "status"), "won"), "reported won, but"),
    "a win called a timeout": (_set(("players", 0, "status"), "timeout"), "board is won"),
    "swapped places": (_set(("players", 0, "place"), 2), "won but has place 2, not 1"),
    "action times out of order": (_times_backwards, "action times are not in order"),
    "an undone move changed": (
        _set(("players", 1, "actions", 5, "action"), "t9-f1"),
        "action 6, 't9-f1', is refused",
    ),
    "another player's record": (
        _set(("players", 2, "record", "deal"), "ms:5"),
        "it is of stalactites ms:5, not the room's",
    ),
}


async def test_the_record_times_every_action_undos_included_and_older_records_verify(
    server: InProcessServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, record = await finished_race(server)
    bob = record["players"][1]
    assert [a["action"] for a in bob["actions"]] == [*LINE[:5], bob["actions"][5]["action"], "undo"]
    for line in record["players"]:
        times = [a["at_ms"] for a in line["actions"]]
        assert times == sorted(times) and all(0 <= t <= line["elapsed_ms"] for t in times)
    assert record["players"][2]["actions"] == []
    for line in record["players"]:  # a record made before actions were timed
        del line["actions"]
    status, out, _ = run_verify(capsys, save(tmp_path, record))
    assert status == 0, out


@pytest.mark.parametrize("case", list(TAMPERED))
async def test_a_tampered_record_fails_naming_what_is_wrong(
    case: str, server: InProcessServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, record = await finished_race(server)
    change, message = TAMPERED[case]
    tampered = copy.deepcopy(record)
    change(tampered)
    status, out, err = run_verify(capsys, save(tmp_path, tampered))
    assert (status, err) == (1, ""), out
    failures = [line for line in out.splitlines() if line.startswith("  FAILED  ")]
    assert failures and any(message in line for line in failures), out
    assert out.splitlines()[-1].startswith("NOT verified: ")


async def test_an_illegal_move_is_named_with_its_number(
    server: InProcessServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, record = await finished_race(server)
    _illegal_move(record)
    status, out, _ = run_verify(capsys, save(tmp_path, record))
    assert status == 1
    assert "Bob (" in out and "move 3, 't1-t2', is refused (illegal_move)" in out, out


async def test_input_that_is_no_finished_record_is_a_usage_error(
    server: InProcessServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    waiting = await new_room(server.url, deal=DEAL, seats=2)
    cases = {
        str(tmp_path / "missing.json"): "cannot read",
        save(tmp_path, [1, 2], "list.json"): "not a room record: a record is a JSON object",
        save(tmp_path, {"game": "stalactites"}, "bare.json"): "'deal' is missing",
        f"{server.url}/api/rooms/{waiting}/record": "HTTP 409: the records are shown once",
        f"{server.url}/api/rooms/nosuchroom/record": "HTTP 404",
        f"{server.url}/healthz": "not a room's address",
        "http://127.0.0.1:9/api/rooms/abc/record": "cannot fetch",
    }
    (tmp_path / "text.json").write_text("not json", encoding="utf-8")
    cases[str(tmp_path / "text.json")] = "not JSON"
    for source, message in cases.items():
        status, out, err = await asyncio.to_thread(run_verify, capsys, source)
        assert (status, out) == (2, ""), (source, out)
        assert err.startswith("stalactites: error: ") and message in err, (source, err)


def test_room_addresses_map_to_the_record() -> None:
    record = "http://h:8/api/rooms/Ab_1-x/record"
    assert record_url(record) == record
    assert record_url("http://h:8/api/rooms/Ab_1-x") == record
    assert record_url("http://h:8/#/room/Ab_1-x") == record
    assert record_url("http://h:8/#/watch/Ab_1-x") == record
    assert record_url("https://h/race/api/rooms/r1/record") == "https://h/race/api/rooms/r1/record"
    assert record_url("record.json") is None
    with pytest.raises(ValueError, match="not a room's address"):
        record_url("http://h/#/tournament/t1")
