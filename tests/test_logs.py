"""The server's log: one JSON object per line, with room, player and connection ids where
known, and never a token nor a token's hash, whatever the clients do."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from players_kit import anonymous, api
from server_kit import (
    REPO,
    Client,
    LoggedServer,
    new_room,
    seat,
    spectator,
    start_race,
    winning_line,
)
from stalactites import logs
from stalactites.logs import JsonFormatter, bind
from stalactites.rooms.service import token_hash
from tournament_kit import Watcher, enter, new_tournament

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")


async def test_a_race_logs_json_lines_with_ids_and_no_token(logged: Any) -> None:
    server: LoggedServer = logged()
    room_id = await new_room(server.url, deal=DEAL, step="ones", seats=2, countdown_s=0)
    ann_id, ann_token = await seat(server.url, room_id, "Ann")
    bob_id, bob_token = await seat(server.url, room_id, "Bob")
    secrets = [ann_token, bob_token]

    forged = Client(await _open(server.ws_url(room_id)))  # a wrong token is refused, unlogged
    await forged.send(type="hello", token=ann_token[:-4] + "AAAA")
    assert (await forged.recv())["code"] == "unauthorized"
    secrets.append(ann_token[:-4] + "AAAA")

    ann, bob = (
        Client(await _open(server.ws_url(room_id))),
        Client(await _open(server.ws_url(room_id))),
    )
    await ann.hello(ann_token)
    await bob.hello(bob_token)
    watcher = await spectator(server, room_id, max_queue=None)  # boards left unread
    await start_race(ann, bob)
    for index, move in enumerate(LINE):
        assert (await ann.move(f"a{index}", move))["type"] == "accepted"
    assert (await bob.move("bad", "t1-t1"))["type"] == "rejected"
    await bob.send(type="resign")
    await watcher.expect("results")

    tournament_id, admin = await new_tournament(
        server.url, step="ones", rounds=1, round_time_s=60, break_s=0, deals=[DEAL]
    )
    _, entrant = await enter(server.url, tournament_id, "Cy")
    secrets += [admin, entrant]
    follower = await Watcher.open(server.url, tournament_id)
    await follower.hello(token=entrant)
    for client in (ann, bob, watcher, follower):
        await client.close()
    assert server.stop() == 0

    lines = server.lines()
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    for record in records:
        assert {"time", "level", "logger", "message"} <= record.keys(), record
        assert record["time"].endswith("Z")
    text = server.log_text()
    for secret in secrets:
        assert secret not in text
        assert token_hash(secret) not in text
    in_room = [record for record in records if record.get("room_id") == room_id]
    assert any(record.get("player_id") == ann_id for record in in_room)
    assert any(record.get("player_id") == bob_id for record in in_room)
    assert all(
        "connection_id" in record for record in in_room if record["logger"] != "uvicorn.access"
    )
    assert any(record.get("tournament_id") == tournament_id for record in records)
    access = [record for record in records if record["logger"] == "uvicorn.access"]
    joins = [record for record in access if record.get("path") == f"/api/rooms/{room_id}/players"]
    assert [(record["method"], record["status"]) for record in joins] == [("POST", 201)] * 2


async def test_the_text_format_is_chosen_by_its_variable(logged: Any) -> None:
    server: LoggedServer = logged(STALACTITES_LOG_FORMAT="text")
    await new_room(server.url, deal=DEAL, step="ones", seats=1)
    assert server.stop() == 0
    lines = server.lines()
    assert any("POST /api/rooms" in line for line in lines)
    for line in lines:
        with pytest.raises(json.JSONDecodeError):
            json.loads(line)


def test_a_bad_log_format_is_refused_before_starting(tmp_path: Path) -> None:
    code = "import sys; from stalactites.cli import main; sys.exit(main())"
    env = dict(os.environ, STALACTITES_LOG_FORMAT="xml")
    done = subprocess.run(
        [sys.executable, "-c", code, "serve", "--port", "0"],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=60,
    )
    assert done.returncode == 2
    assert "STALACTITES_LOG_FORMAT='xml'" in done.stderr


async def _open(url: str) -> Any:
    return (await Client.open(url)).ws


async def test_the_client_address_is_the_forwarded_one_from_a_trusted_proxy(
    logged: Any,
) -> None:
    """Behind nginx (on 127.0.0.1 here) the access log, and the app, see the address nginx
    forwards; from an address not in FORWARDED_ALLOW_IPS the header is ignored."""
    trusting, wary = logged(), logged(FORWARDED_ALLOW_IPS="192.0.2.1")
    headers = {"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https"}
    for server in (trusting, wary):
        await asyncio.to_thread(_get, f"{server.url}/healthz", headers)
        client = await Client.open(server.ws_url("nosuchroom"), additional_headers=headers)
        await client.send(type="hello", spectator=True)
        assert (await client.recv())["code"] == "room_not_found"
        await client.close()
    assert trusting.stop() == wary.stop() == 0
    for server, address in ((trusting, "203.0.113.7"), (wary, "127.0.0.1")):
        records = [json.loads(line) for line in server.lines()]
        health = [record for record in records if record.get("path") == "/healthz"]
        assert [record["client"].rsplit(":", 1)[0] for record in health] == [address]
        sockets = [
            record for record in records if "WebSocket /ws/rooms/nosuchroom" in record["message"]
        ]
        assert len(sockets) == 1 and sockets[0]["message"].startswith(address + ":")


def _get(url: str, headers: dict[str, str]) -> int:
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        status: int = answer.status
        return status


async def test_a_connection_binds_its_ids_and_a_background_task_only_its_own() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("stalactites.tests.logs")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False

    async def hub() -> None:
        logger.info("from a hub")

    async def connection() -> None:
        bind(room_id="R1", connection_id="C1")
        bind(player_id="P1", tournament_id=None)
        logger.info("from a connection")
        await logs.task(hub(), "hub:R1", room_id="R1")

    try:
        await asyncio.create_task(connection())
        logger.info("from elsewhere", extra={"room_id": "R2"})
    finally:
        logger.removeHandler(handler)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    ids = [{key: line[key] for key in logs.FIELDS if key in line} for line in lines]
    assert ids == [
        {"room_id": "R1", "player_id": "P1", "connection_id": "C1"},
        {"room_id": "R1"},
        {"room_id": "R2"},
    ]
    assert [line["message"] for line in lines] == [
        "from a connection",
        "from a hub",
        "from elsewhere",
    ]


async def test_no_session_token_nor_password_is_logged(logged: Any) -> None:
    server: LoggedServer = logged(STALACTITES_LOG_LEVEL="debug")
    base = server.url
    made = await anonymous(base)
    password, username = "a secret password", "log_tester"
    body = {"username": username, "password": password}
    assert (await api("POST", f"{base}/api/accounts", body, made["token"]))[0] == 201
    wrong = {"username": username, "password": "not the password"}
    assert (await api("POST", f"{base}/api/session", wrong))[0] == 401
    status, second, _ = await api("POST", f"{base}/api/session", body)
    assert status == 200
    cookie = {"Cookie": f"stalactites_session={second['token']}"}
    assert (await api("GET", f"{base}/api/me", headers=cookie))[0] == 200
    room_id = await new_room(server.url, countdown_s=0)
    status, seated, _ = await api("POST", f"{base}/api/rooms/{room_id}/players", {}, made["token"])
    assert status == 201
    client = Client(await _open(server.ws_url(room_id)))
    await client.hello(made["token"])
    forged = Client(await _open(server.ws_url(room_id)))
    await forged.send(type="hello", token=made["token"][:-4] + "AAAA")
    assert (await forged.recv())["code"] == "unauthorized"
    await api("DELETE", f"{base}/api/session?everywhere=1", token=second["token"])
    for socket in (client, forged):
        await socket.close()
    assert server.stop() == 0
    text = server.log_text()
    secrets = [made["token"], second["token"], seated["token"], made["token"][:-4] + "AAAA"]
    for secret in secrets:
        assert secret not in text
        assert secret.split("~")[-1] not in text
        assert token_hash(secret) not in text
    for secret in (password, "not the password"):
        assert secret not in text
    assert made["player_id"] in text  # the player is named, the session never
