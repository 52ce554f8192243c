"""The daily deal over HTTP and real websockets: today's deal (never its id), the official
attempt (the first to start) and practice, the leaderboard, the archive revealing past
deals, the streak on the profile, bad input; and on two server processes sharing one Redis:
the same deal on both, and one official attempt when two start at once from two tabs.
(tests/test_daily_midnight.py: what an attempt gives away, and the day's end.)"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from daily_kit import attempt, board_until, resign_attempt
from players_kit import anonymous, api
from server_kit import REDIS_URL, Client, InProcessServer, ManualClock, ProcessServer

pytestmark = pytest.mark.usefixtures("close_clients")


async def test_todays_deal_names_the_day_and_step_never_the_deal(
    any_server: InProcessServer,
) -> None:
    ann = await anonymous(any_server.url)
    status, today, _ = await api("GET", f"{any_server.url}/api/daily/stalactites", None)
    assert status == 200
    assert set(today) == {"date", "game", "step", "room_id", "token"}
    assert (today["game"], today["step"], today["room_id"]) == ("stalactites", "choice", None)
    assert today["token"] is None
    made = await attempt(any_server.url, "stalactites", ann["token"])
    _, mine, _ = await api("GET", f"{any_server.url}/api/daily/stalactites", None, ann["token"])
    assert mine["room_id"] is None and mine["date"] == made["date"]  # official once started
    _, room, _ = await api("GET", f"{any_server.url}/api/rooms/{made['room_id']}")
    assert room["deal"] is None and room["private"] is True and room["certified"] is True
    assert room["seats"] == 1 and room["step"] == "choice"


async def test_the_first_attempt_to_start_is_official_later_ones_practice_on_the_same_deal(
    any_server: InProcessServer,
) -> None:
    ann = await anonymous(any_server.url)
    first = await attempt(any_server.url, "stalactites", ann["token"])
    await resign_attempt(any_server.url, first)
    second = await attempt(any_server.url, "stalactites", ann["token"])
    assert (first["official"], second["official"]) == (True, False)
    assert first["player_id"] == ann["player_id"]
    await resign_attempt(any_server.url, second)
    rooms = any_server.app.state.process.rooms  # (no answer shows the deal during its day)
    deals = {rooms.known_settings(made["room_id"]).deal for made in (first, second)}
    assert len(deals) == 1
    board = await board_until(any_server.url, "stalactites", first["date"], ann["player_id"])
    [entry] = [e for e in board["entries"] if e["player_id"] == ann["player_id"]]
    assert entry["room_id"] == first["room_id"] and entry["won"] is False
    assert entry["replay"] == f"#/replay/{first['room_id']}"


async def test_past_days_are_archived_with_their_deal_and_the_streak_counts_days(
    server: InProcessServer, clock: ManualClock
) -> None:
    ann = await anonymous(server.url)
    first = await attempt(server.url, "stalactites", ann["token"])
    await resign_attempt(server.url, first)
    await board_until(server.url, "stalactites", first["date"], ann["player_id"])
    _, archive, _ = await api("GET", f"{server.url}/api/daily/stalactites/archive")
    assert archive["days"] == []  # today is not archived: its deal is still secret
    room_url = f"{server.url}/api/rooms/{first['room_id']}"
    _, view, _ = await api("GET", room_url)
    assert view["status"] == "finished" and view["deal"] is None  # not from its replay either
    watcher = await Client.open(server.ws_url(first["room_id"]))
    await watcher.send(type="hello", spectator=True)
    assert (await watcher.expect("error"))["code"] == "unauthorized"
    for part in ("record", "analysis"):
        status, body, _ = await api("GET", f"{room_url}/{part}")
        assert (status, body["code"]) == (409, "not_finished")
    _, me, _ = await api("GET", f"{server.url}/api/me", None, ann["token"])
    assert me["daily_streak"] == 1
    clock.advance(86_400)
    await resign_attempt(server.url, await attempt(server.url, "stalactites", ann["token"]))
    _, me, _ = await api("GET", f"{server.url}/api/me", None, ann["token"])
    assert me["daily_streak"] == 2
    deal = server.app.state.process.rooms.known_settings(first["room_id"]).deal
    _, archive, _ = await api("GET", f"{server.url}/api/daily/stalactites/archive")
    [day] = archive["days"]
    assert (day["date"], day["deal"], day["attempts"]) == (first["date"], deal, 1)
    assert day["winner"] is None  # nobody won that day
    _, view, _ = await api("GET", room_url)
    assert view["deal"] == deal
    status, record, _ = await api("GET", f"{room_url}/record")
    assert (status, record["deal"]) == (200, deal)
    clock.advance(2 * 86_400)
    _, me, _ = await api("GET", f"{server.url}/api/players/{ann['player_id']}")
    assert me["daily_streak"] == 0


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/api/daily/klondike", 404, "no_daily"),
        ("/api/daily/klondike/archive", 404, "no_daily"),
        ("/api/daily/stalactites/2026-13-01/leaderboard", 422, "bad_message"),
        ("/api/daily/stalactites/yesterday/leaderboard", 422, "bad_message"),
        ("/api/daily/stalactites/2026-12-01/leaderboard?limit=0", 422, "bad_message"),
        ("/api/daily/stalactites/2026-12-01/leaderboard?limit=101", 422, "bad_message"),
        ("/api/daily/stalactites/2026-12-01/leaderboard?offset=-1", 422, "bad_message"),
        ("/api/daily/stalactites/archive?before=soon", 422, "bad_message"),
    ],
)
async def test_bad_daily_requests_get_their_code(
    server: InProcessServer, path: str, status: int, code: str
) -> None:
    got, body, _ = await api("GET", f"{server.url}{path}")
    assert (got, body["code"]) == (status, code)


async def test_an_attempt_needs_a_session(server: InProcessServer) -> None:
    status, body, _ = await api("POST", f"{server.url}/api/daily/stalactites/attempts", {})
    assert (status, body["code"]) == (401, "unauthorized")
    status, body, _ = await api("POST", f"{server.url}/api/daily/klondike/attempts", {})
    assert (status, body["code"]) == (404, "no_daily")


def two_processes(prefix: str, logs: Path) -> list[ProcessServer]:
    env = {"STALACTITES_DAILY_SECRET": "a secret both processes share"}
    return [ProcessServer(REDIS_URL, prefix, env=env, log=logs / f"server{n}.log") for n in (1, 2)]


def troubles(logs: Path) -> str:
    """What the servers logged above info, to say why a check failed."""
    lines = (line for path in sorted(logs.glob("server*.log")) for line in path.open())
    return "".join(line for line in lines if '"level": "info"' not in line)


async def started(base: str, made: dict[str, Any]) -> tuple[Client, dict[str, Any]]:
    """The attempt's race started (``ready`` on its websocket): its socket, the board dealt."""
    client = await Client.open(base.replace("http://", "ws://") + f"/ws/rooms/{made['room_id']}")
    await client.hello(made["token"])
    await client.send(type="ready")
    return client, (await client.expect("started"))["state"]


@pytest.mark.parametrize("game", ["stalactites", "squadron"])
async def test_the_daily_deal_is_the_same_on_two_processes_and_one_attempt_is_official(
    redis_prefix: str, game: str, tmp_path: Path
) -> None:
    servers = two_processes(redis_prefix, tmp_path)
    try:
        one, two = (server.url for server in servers)
        ann, bob = await anonymous(one), await anonymous(two)
        both = await asyncio.gather(  # two tabs, one on each process
            attempt(one, game, ann["token"]), attempt(two, game, ann["token"])
        )
        assert [made["official"] for made in both] == [True, True]  # neither has started
        races = list(await asyncio.gather(started(one, both[0]), started(two, both[1])))  # at once
        theirs = await attempt(two, game, bob["token"])
        races.append(await started(two, theirs))
        assert races[0][1] == races[1][1] == races[2][1]  # one deal: the same board dealt
        for client, _ in races:
            await client.send(type="resign")
            await client.expect("results")
        _, today, _ = await api("GET", f"{one}/api/daily/{game}", None, ann["token"])
        assert today["room_id"] in {made["room_id"] for made in both}
        _, there, _ = await api("GET", f"{two}/api/daily/{game}", None, ann["token"])
        assert there["room_id"] == today["room_id"]
        date = theirs["date"]
        board = await board_until(one, game, date, ann["player_id"], bob["player_id"])
        assert sorted(e["player_id"] for e in board["entries"]) == sorted(
            [ann["player_id"], bob["player_id"]]
        ), troubles(tmp_path)
        [practice] = [made["room_id"] for made in both if made["room_id"] != today["room_id"]]
        assert today["room_id"] in json.dumps(board) and practice not in json.dumps(board)
    finally:
        for server in servers:
            server.stop()


async def test_a_daily_run_is_raced_as_a_ghost_once_its_day_is_over(
    server: InProcessServer, clock: ManualClock
) -> None:
    ann, bob = await anonymous(server.url), await anonymous(server.url)
    made = await attempt(server.url, "stalactites", ann["token"])
    await resign_attempt(server.url, made)
    board = await board_until(server.url, "stalactites", made["date"], ann["player_id"])
    [entry] = board["entries"]
    url = f"{server.url}/api/rooms/{entry['room_id']}/ghost"
    run = {"player_id": entry["player_id"]}
    status, refused, _ = await api("POST", url, run, bob["token"])
    assert (status, refused["code"]) == (409, "not_finished")  # the deal is secret today
    clock.advance(86_400)
    status, raced, _ = await api("POST", url, run, bob["token"])
    assert status == 201, raced
    room = raced["room"]
    assert room["rated"] is False and room["private"] is True and room["seats"] == 2
    [ghost] = [p for p in room["players"] if p["player_id"] != bob["player_id"]]
    assert ghost["ghost_of"] == ann["name"]
    client = await Client.open(server.ws_url(raced["room_id"]))
    await client.hello(raced["token"])
    await client.send(type="ready")
    await client.expect("started")
    await client.send(type="resign")
    deal = server.app.state.process.rooms.known_settings(made["room_id"]).deal
    assert (await client.expect("results"))["deal"] == deal  # that day's deal
    await client.close()
    day = f"{server.url}/api/daily/stalactites/{made['date']}"
    _, after, _ = await api("GET", f"{day}/leaderboard?board=guests")
    assert after["total"] == 1  # a ghost race of a daily run is no attempt of that day
