"""The deployment's topology without Docker: Debian's nginx running the project's
``deploy/nginx.conf.template`` in front of two ``stalactites serve`` processes on the real
Redis, all on 127.0.0.1.  A race played through the balancer puts its two players on
different processes (round robin, no sticky sessions), and when the process serving one of
them is killed mid-race, that player reconnects through nginx to the other and the race
finishes with nothing lost.

Which process served a socket is read from that process's own log: uvicorn logs each
websocket it accepts (``"WebSocket /ws/rooms/<id>" [accepted]``) before answering the
handshake, so once a client's connection is open its line is already in the log.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from deploy_kit import NGINX, TEMPLATE, App, Balancer, fill_template, nginx_conf
from server_kit import Client, http, new_room, seat, start_race
from stalactites.engine import Stalactites
from stalactites.solver import solve

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = [str(move) for move in solve(Stalactites(DEAL), step="ones").moves]


@dataclass
class Topology:
    nginx: Balancer
    apps: list[App]


@pytest.fixture
def topology(redis_prefix: str, workdir: Path) -> Iterator[Topology]:
    assert Path(NGINX).exists(), "Debian's nginx is needed: apt-get install -y nginx"
    apps: list[App] = []
    try:
        for number in (1, 2):
            apps.append(App(redis_prefix, workdir / f"app{number}.log"))
        nginx = Balancer(workdir, apps)
        yield Topology(nginx, apps)
        nginx.stop()
    finally:
        for app in apps:
            app.stop()


def test_filled_template_passes_nginx_config_test(workdir: Path) -> None:
    values = {"LISTEN_PORT": "127.0.0.1:8080", "APP1": "app1:8000", "APP2": "app2:8000"}
    block = fill_template(TEMPLATE.read_text(), values)
    block = block.replace("app1:8000", "127.0.0.1:8001").replace("app2:8000", "127.0.0.1:8002")
    conf = workdir / "nginx.conf"
    conf.write_text(nginx_conf(workdir, block))
    checked = subprocess.run(
        [NGINX, "-t", "-p", str(workdir), "-e", str(workdir / "error.log"), "-c", str(conf)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr


async def test_http_requests_through_the_balancer_alternate_between_processes(
    topology: Topology,
) -> None:
    base = topology.nginx.url
    status, page = await http("GET", f"{base}/")
    assert status == 200 and "<html" in page.lower()  # the web client, through nginx
    rooms = [await new_room(base, deal=DEAL) for _ in range(4)]
    for room_id in rooms:  # every room is visible through either process
        status, view = await http("GET", f"{base}/api/rooms/{room_id}")
        assert status == 200 and view["room_id"] == room_id
    posts = [app.log.read_text().count('"POST /api/rooms HTTP/1.1" 201') for app in topology.apps]
    assert posts == [2, 2]  # round robin: no process took both of two requests in a row


async def connect(nginx: Balancer, room_id: str, token: str) -> Client:
    """A player's socket through the balancer, hello said."""
    client = await Client.open(nginx.ws_url(room_id))
    client.token = token
    await client.hello(token)
    return client


def served_by(apps: list[App], room_id: str, before: list[int]) -> App:
    """The one process whose log gained a websocket to the room since ``before``."""
    gained = [app for app, count in zip(apps, before, strict=True) if app.accepted(room_id) > count]
    assert len(gained) == 1, [app.accepted(room_id) for app in apps]
    return gained[0]


async def play_in_turn(ann: Client, bob: Client, count: int) -> None:
    """Both play the line's first ``count`` moves in turn, each seeing the other's progress."""
    for index, move in enumerate(LINE[:count]):
        assert (await ann.move(f"a{index}", move))["type"] == "accepted"
        await bob.expect("progress", player_id=ann.you, moves=index + 1)
        assert (await bob.move(f"b{index}", move))["type"] == "accepted"
        await ann.expect("progress", player_id=bob.you, moves=index + 1)


async def play_on(client: Client, tag: str, start: int, stop: int | None = None) -> None:
    """The line's moves ``start:stop``, each accepted, ids numbered by their index."""
    for index, move in enumerate(LINE[start:stop], start=start):
        assert (await client.move(f"{tag}{index}", move))["type"] == "accepted"


async def test_a_race_through_nginx_spans_both_processes_and_survives_killing_one(
    topology: Topology,
) -> None:
    nginx, apps = topology.nginx, topology.apps
    room_id = await new_room(nginx.url, deal=DEAL, step="ones", countdown_s=0, seats=2)
    tokens = [(await seat(nginx.url, room_id, name))[1] for name in ("Ann", "Bob")]
    # Round robin sends consecutive connections to alternate processes.
    ann = await connect(nginx, room_id, tokens[0])
    ann_app = served_by(apps, room_id, [0, 0])
    before = [app.accepted(room_id) for app in apps]
    bob = await connect(nginx, room_id, tokens[1])
    bob_app = served_by(apps, room_id, before)
    assert ann_app is not bob_app  # no sticky sessions: one player on each process
    await start_race(ann, bob)
    half = len(LINE) // 2
    await play_in_turn(ann, bob, half)  # progress crosses processes through Redis
    await ann.send(type="move", id=f"a{half}", move=LINE[half])  # in flight at the kill
    ann_app.kill()
    assert await ann.closed() is None  # the socket just dropped: no close frame
    await play_on(bob, "b", half, half + 5)  # Bob's socket, on the survivor, is untouched
    again = await Client.open(nginx.ws_url(room_id))  # through nginx, to the survivor
    welcome = await again.hello(ann.token, last_seq=ann.last_seq)
    assert welcome["resumed"] is True
    assert bob_app.accepted(room_id) == 2 and ann_app.accepted(room_id) == 1
    await play_on(again, "a", half)  # the move in flight again under its id: applied once
    missed = [f for f in again.frames if f["type"] == "progress" and f["player_id"] == bob.you]
    assert [f["moves"] for f in missed] == list(range(half + 1, half + 6))  # nothing lost
    assert (await bob.expect("finished", player_id=ann.you))["place"] == 1
    await play_on(bob, "b", half + 5)
    for client in (again, bob):
        standings = (await client.expect("results"))["standings"]
        lines = [(s["player_id"], s["place"], s["status"], s["moves"]) for s in standings]
        assert lines == [(ann.you, 1, "won", len(LINE)), (bob.you, 2, "won", len(LINE))]
    status, record = await http("GET", f"{nginx.url}/api/rooms/{room_id}/record")
    assert status == 200
    assert [player["record"]["moves"] for player in record["players"]] == [LINE, LINE]
