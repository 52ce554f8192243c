"""The deployment's topology without Docker: Debian's nginx running the project's
``deploy/nginx.conf.template`` in front of two ``stalactites serve`` processes on the real
Redis, all on 127.0.0.1.  HTTP requests go round robin; a room's websockets all go to one
process, picked by the room's id (consistent hashing), rooms spread over both; when that
process is killed mid-race, its players reconnect through nginx to the other and the race
finishes with nothing lost.

Which process served a socket is read from that process's own log: uvicorn logs each
websocket it accepts (``"WebSocket /ws/rooms/<id>" [accepted]``) before answering the
handshake, so once a client's connection is open its line is already in the log.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import urllib.error
import urllib.request
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


def started(prefix: str, workdir: Path, limited: bool) -> Iterator[Topology]:
    assert Path(NGINX).exists(), "Debian's nginx is needed: apt-get install -y nginx"
    apps: list[App] = []
    try:
        for number in (1, 2):
            apps.append(App(prefix, workdir / f"app{number}.log", limited))
        nginx = Balancer(workdir, apps)
        yield Topology(nginx, apps)
        nginx.stop()
    finally:
        for app in apps:
            app.stop()


@pytest.fixture
def topology(redis_prefix: str, workdir: Path) -> Iterator[Topology]:
    yield from started(redis_prefix, workdir, limited=False)


@pytest.fixture
def limited_topology(redis_prefix: str, workdir: Path) -> Iterator[Topology]:
    """As deployed: the default rate limits, the apps trusting nginx as docker-compose.yml says."""
    yield from started(redis_prefix, workdir, limited=True)


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


async def test_a_forged_forwarded_for_header_does_not_change_the_address_behind_nginx(
    limited_topology: Topology,
) -> None:
    """A client that writes its own X-Forwarded-For, a new address on every request, is still
    limited as the one address nginx saw: each process allows it a burst of 10 creations."""
    base, apps = limited_topology.nginx.url, limited_topology.apps
    statuses = []
    for number in range(30):
        headers = {"X-Forwarded-For": f"203.0.113.{number}", "Content-Type": "application/json"}
        statuses.append(await asyncio.to_thread(post_status, f"{base}/api/rooms", headers))
    created = statuses.count(201)
    assert 20 <= created <= 22  # a burst of 10 a process, and 0.2/s more while this runs
    assert statuses.count(429) == 30 - created
    clients = [re.findall(r"(\S+):\d+ - \"POST /api/rooms ", app.log.read_text()) for app in apps]
    assert sorted(set(clients[0] + clients[1])) == ["127.0.0.1"]  # the address nginx saw
    assert len(clients[0]) == len(clients[1]) == 15


def post_status(url: str, headers: dict[str, str]) -> int:
    request = urllib.request.Request(url, data=json.dumps({"deal": DEAL}).encode(), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


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


async def reconnect(nginx: Balancer, room_id: str, was: Client) -> Client:
    """A player's socket again through the balancer, resuming where ``was`` left off."""
    again = await Client.open(nginx.ws_url(room_id))
    welcome = await again.hello(was.token, last_seq=was.last_seq)
    assert welcome["resumed"] is True
    return again


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


async def test_a_rooms_sockets_go_to_one_process_and_rooms_spread_over_both(
    topology: Topology,
) -> None:
    nginx, apps = topology.nginx, topology.apps
    rooms = [await new_room(nginx.url, deal=DEAL) for _ in range(16)]
    for room_id in rooms:
        before = [app.accepted(room_id) for app in apps]
        first = await Client.open(nginx.ws_url(room_id))
        app = served_by(apps, room_id, before)
        before = [app.accepted(room_id) for app in apps]
        second = await Client.open(nginx.ws_url(room_id))
        assert served_by(apps, room_id, before) is app  # the room's process, every time
        await first.close()
        await second.close()
    held = [sum(app.accepted(room_id) > 0 for room_id in rooms) for app in apps]
    assert sorted(held) != [0, 16] and sum(held) == 16  # both processes hold rooms


async def test_a_race_through_nginx_survives_killing_the_process_serving_it(
    topology: Topology,
) -> None:
    nginx, apps = topology.nginx, topology.apps
    room_id = await new_room(nginx.url, deal=DEAL, step="ones", countdown_s=0, seats=2)
    tokens = [(await seat(nginx.url, room_id, name))[1] for name in ("Ann", "Bob")]
    ann = await connect(nginx, room_id, tokens[0])
    app = served_by(apps, room_id, [0, 0])
    bob = await connect(nginx, room_id, tokens[1])
    assert app.accepted(room_id) == 2  # the room's sockets on one process
    survivor = next(other for other in apps if other is not app)
    await start_race(ann, bob)
    half = len(LINE) // 2
    await play_in_turn(ann, bob, half)
    await ann.send(type="move", id=f"a{half}", move=LINE[half])  # in flight at the kill
    app.kill()
    assert await ann.closed() is None and await bob.closed() is None  # dropped, no close frame
    ann_again, bob_again = [await reconnect(nginx, room_id, was) for was in (ann, bob)]
    assert survivor.accepted(room_id) == 2 and app.accepted(room_id) == 2
    await play_on(bob_again, "b", half, half + 5)
    await play_on(ann_again, "a", half)  # the move in flight again under its id: applied once
    missed = [f for f in ann_again.frames if f["type"] == "progress" and f["player_id"] == bob.you]
    assert [f["moves"] for f in missed] == list(range(half + 1, half + 6))  # nothing lost
    assert (await bob_again.expect("finished", player_id=ann.you))["place"] == 1
    await play_on(bob_again, "b", half + 5)
    for client in (ann_again, bob_again):
        standings = (await client.expect("results"))["standings"]
        lines = [(s["player_id"], s["place"], s["status"], s["moves"]) for s in standings]
        assert lines == [(ann.you, 1, "won", len(LINE)), (bob.you, 2, "won", len(LINE))]
    status, record = await http("GET", f"{nginx.url}/api/rooms/{room_id}/record")
    assert status == 200
    assert [player["record"]["moves"] for player in record["players"]] == [LINE, LINE]
