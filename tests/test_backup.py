"""``stalactites backup`` and ``stalactites restore``: a store filled by a real server (players
with ratings and histories, the day's boards, a tournament, a waiting room) is backed up,
restored into a new empty ``redis-server``, and read back the same, key by key and through a
server on the restored copy; a restore into a Redis that holds keys is refused."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from daily_kit import attempt, board_until, resign_attempt
from players_kit import anonymous, api, race_rated
from server_kit import InProcessServer, ManualClock, end_process, free_port, make_config, new_room
from tournament_kit import enter, new_tournament, view

pytestmark = pytest.mark.usefixtures("close_clients")

COMMAND = str(Path(sys.executable).with_name("stalactites"))
PREFIX = "sr:"
SECRET = "the backup test's daily secret"  # the same day's deal on both servers
LASTING_MS = 60_000  # keys expiring sooner may go between the backup and the comparison


class OwnRedis:
    """A ``redis-server`` of this test's own on a free port, in ``workdir``."""

    def __init__(self, workdir: Path) -> None:
        workdir.mkdir()
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--dir", str(workdir), "--save", "", "--appendonly", "yes"]
        command += ["--enable-debug-command", "local", "--logfile", str(workdir / "redis.log")]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        self.client = redis.Redis(port=self.port)
        deadline = time.monotonic() + 15
        while True:
            try:
                self.client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError(f"redis-server did not start on {self.port}") from None
                time.sleep(0.05)

    def stop(self) -> None:
        self.client.close()
        end_process(self.process)


@pytest.fixture
def redises(tmp_path: Path) -> Iterator[list[OwnRedis]]:
    """Two empty Redis servers: the service's, and the one a backup is restored into."""
    started = [OwnRedis(tmp_path / "source"), OwnRedis(tmp_path / "target")]
    yield started
    for server in started:
        server.stop()


def cli(url: str, *words: str) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"REDIS_URL": url, "STALACTITES_REDIS_PREFIX": PREFIX}
    command = [COMMAND, *words]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)


def serve(url: str) -> InProcessServer:
    return InProcessServer(make_config(url, PREFIX, daily_secret=SECRET), ManualClock())


async def account(base: str, username: str) -> dict[str, Any]:
    made = await anonymous(base)
    body = {"username": username, "password": "correct horse battery"}
    status, answer, _ = await api("POST", f"{base}/api/accounts", body, made["token"])
    assert status == 201, answer
    return made


async def fill(base: str) -> dict[str, Any]:
    """Registered players who raced rated, official daily attempts on both of the day's
    boards, a tournament with an entrant, a waiting room: what :func:`reads` reads back."""
    ann, bob = await account(base, "annbackup"), await account(base, "bobbackup")
    await race_rated(base, [ann, bob], 2)
    guest = await anonymous(base)
    days = [await attempt(base, "stalactites", made["token"]) for made in (ann, guest)]
    for made in days:
        await resign_attempt(base, made)
    date = days[0]["date"]
    await board_until(base, "stalactites", date, ann["player_id"], board="ranked")
    await board_until(base, "stalactites", date, guest["player_id"], board="guests")
    tournament_id, _ = await new_tournament(
        base, step="ones", rounds=1, round_time_s=60, break_s=0, deals=["ms:4"]
    )
    await enter(base, tournament_id, "Cid")
    room_id = await new_room(base)
    players = [ann["player_id"], bob["player_id"], guest["player_id"]]
    return {"players": players, "date": date, "tournament": tournament_id, "room": room_id}


async def reads(base: str, made: dict[str, Any]) -> dict[str, Any]:
    """What players and visitors read of it all, over HTTP."""
    paths = [f"/api/players/{pid}" for pid in made["players"]]
    paths += [f"/api/players/{pid}/races" for pid in made["players"]]
    paths += ["/api/leaderboards/stalactites", f"/api/rooms/{made['room']}"]
    paths += [
        f"/api/daily/stalactites/{made['date']}/leaderboard?board={board}"
        for board in ("ranked", "guests")
    ]
    answers: dict[str, Any] = {}
    for path in paths:
        status, body, _ = await api("GET", base + path)
        assert status == 200, (path, body)
        answers[path] = body
    answers["tournament"] = await view(base, made["tournament"])
    return answers


def stored(client: redis.Redis) -> dict[bytes, tuple[Any, int]]:
    """Every key under the prefix: (a digest of its value, whatever its encoding; its expiry)."""
    keys = list(client.scan_iter(match=f"{PREFIX}*", count=1000))
    return {
        key: (
            # (redis-py leaves execute_command untyped)
            client.execute_command("DEBUG", "DIGEST-VALUE", key),  # type: ignore[no-untyped-call]
            client.pexpiretime(key),
        )
        for key in keys
    }


async def test_a_backup_restored_into_an_empty_redis_reads_back_the_same(
    redises: list[OwnRedis], tmp_path: Path
) -> None:
    source, target = redises
    with serve(source.url) as server:
        made = await fill(server.url)
        before = await reads(server.url, made)
    assert sum(len(before[f"/api/players/{pid}/races"]["races"]) for pid in made["players"]) == 6

    path = tmp_path / "store.backup"
    backup = await asyncio.to_thread(cli, source.url, "backup", str(path))
    assert backup.returncode == 0, backup.stderr
    summary = json.loads(backup.stdout)
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["format"] == "stalactites-backup"
    assert (
        json.loads(lines[-1])
        == {"end": True, "keys": summary["keys"]}
        == {
            "end": True,
            "keys": len(lines) - 2,
        }
    )
    restore = await asyncio.to_thread(cli, target.url, "restore", str(path))
    assert restore.returncode == 0, restore.stderr

    # Key by key: every key, its value and its expiry (but those ending within the test).
    was, now = stored(source.client), stored(target.client)
    soon = time.time() * 1000 + LASTING_MS
    lasting = {key for key, (_, ends) in was.items() if ends == -1 or ends > soon}
    assert len(lasting) > 50  # players, races, boards, rooms, the tournament, the results log
    assert lasting <= now.keys() <= was.keys()
    assert {key: was[key] for key in now} == now
    assert (
        json.loads(restore.stdout)["keys"] + json.loads(restore.stdout)["expired"] == len(lines) - 2
    )

    with serve(target.url) as restored:
        after = await reads(restored.url, made)
    assert after == before


async def test_a_restore_into_a_redis_holding_keys_is_refused(
    redises: list[OwnRedis], tmp_path: Path
) -> None:
    source, target = redises
    with serve(source.url) as server:
        await new_room(server.url)
    path = tmp_path / "store.backup"
    assert (await asyncio.to_thread(cli, source.url, "backup", str(path))).returncode == 0
    target.client.set(f"{PREFIX}someone:else", "here")

    refused = await asyncio.to_thread(cli, target.url, "restore", str(path))
    assert refused.returncode == 2
    assert "holds keys under 'sr:' already" in refused.stderr
    assert target.client.keys("*") == [f"{PREFIX}someone:else".encode()]

    cut = tmp_path / "cut.backup"
    cut.write_text("".join(path.read_text().splitlines(keepends=True)[:-1]))
    target.client.flushall()
    short = await asyncio.to_thread(cli, target.url, "restore", str(cut))
    assert short.returncode == 2 and "cut short" in short.stderr
    assert target.client.dbsize() == 0
