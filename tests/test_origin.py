"""The websocket Origin check: a page from another origin cannot open the room or tournament
sockets (the handshake is refused with HTTP 403 before it is accepted); the server's own pages,
listed origins and clients that send no Origin (not browsers) can.  Checked with a websocket
client sending the header, in chromium (a page of one server opening a socket to another), and
through nginx on the deployment's template (which must pass Host on with its port).

The module prints its figures at the end (``-s`` shows them).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import sync_playwright
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from browser_kit import CHROMIUM, CHROMIUM_ARGS
from deploy_kit import App, Balancer
from server_kit import Client, InProcessServer, ManualClock, make_config, new_room
from stalactites.web.origin import origins
from tournament_kit import Watcher, new_tournament, ws_base

pytestmark = pytest.mark.usefixtures("close_clients")

FOREIGN = "https://evil.example"
FIGURES: Counter[str] = Counter()


@pytest.fixture(scope="module", autouse=True)
def origin_figures() -> Iterator[None]:
    yield
    print("\norigin figures: " + ", ".join(f"{key} {value}" for key, value in FIGURES.items()))


# The rule.


def test_the_same_origin_is_the_host_header_with_the_scheme_default_port() -> None:
    same = origins("")
    assert same.allow("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert same.allow("https://Race.Example", "race.example")
    assert same.allow("https://race.example", "race.example:443")
    assert same.allow("http://[::1]:8000", "[::1]:8000")
    assert not same.allow("http://127.0.0.1:8001", "127.0.0.1:8000")
    assert not same.allow("http://race.example:8080", "race.example")  # a proxy lost the port
    assert not same.allow(FOREIGN, "race.example")
    assert not same.allow("null", "race.example")  # a sandboxed page or a file
    assert not same.allow("http://race.example/path", "race.example")
    assert not same.allow("http://race.example", None)
    assert same.allow(None, "race.example")  # not a browser


def test_listed_origins_are_allowed_besides_the_servers_own() -> None:
    listed = origins("https://race.example, http://localhost:3000")
    assert listed.allow("https://race.example:443", "app.internal:8000")
    assert listed.allow("http://localhost:3000", "app.internal:8000")
    assert listed.allow("http://app.internal:8000", "app.internal:8000")
    assert not listed.allow("http://localhost:3001", "app.internal:8000")
    assert origins("*").allow(FOREIGN, "race.example")


def test_serve_refuses_to_start_with_a_bad_allowed_origin() -> None:
    env = dict(os.environ, STALACTITES_ALLOWED_ORIGINS="https://race.example, race.example")
    code = "import sys; from stalactites.cli import main; sys.exit(main())"
    done = subprocess.run(
        [sys.executable, "-c", code, "serve", "--port", "0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "STALACTITES_ALLOWED_ORIGINS: 'race.example' is not an origin" in done.stderr


# Over real websockets.


async def refused(url: str, origin: str) -> None:
    with pytest.raises(InvalidStatus) as raised:
        async with connect(url, origin=Origin(origin), open_timeout=10):
            pass
    assert raised.value.response.status_code == 403
    FIGURES["handshakes refused (403)"] += 1


def own_origin(server: InProcessServer) -> Any:
    return server.url  # http://127.0.0.1:PORT: what a page the server serves sends


async def test_a_foreign_origin_is_refused_on_both_sockets_and_the_own_one_is_not(
    server: InProcessServer,
) -> None:
    room_id = await new_room(server.url)
    tournament_id, _ = await new_tournament(server.url)
    tournament_url = f"{ws_base(server.url)}/ws/tournaments/{tournament_id}"
    for origin in (FOREIGN, "null", "http://127.0.0.1:1", server.url.replace("127.0.0.1", "x")):
        await refused(server.ws_url(room_id), origin)
        await refused(tournament_url, origin)
    spectator = await Client.open(server.ws_url(room_id), origin=own_origin(server))
    await spectator.send(type="hello", spectator=True)
    assert (await spectator.recv())["type"] == "welcome"
    watcher = await Watcher.open(server.url, tournament_id, origin=own_origin(server))
    assert (await watcher.hello(spectator=True))["type"] == "welcome"
    plain = await Client.open(server.ws_url(room_id))  # no Origin: not a browser
    await plain.send(type="hello", spectator=True)
    assert (await plain.recv())["type"] == "welcome"


async def test_a_listed_origin_may_connect(clock: ManualClock) -> None:
    config = make_config("memory://", allowed_origins=f"{FOREIGN}, http://localhost:3000")
    with InProcessServer(config, clock) as server:
        room_id = await new_room(server.url)
        client = await Client.open(server.ws_url(room_id), origin=FOREIGN)
        await client.send(type="hello", spectator=True)
        assert (await client.recv())["type"] == "welcome"
        await refused(server.ws_url(room_id), "http://localhost:3001")


# In a real browser.

OPEN_SOCKET = """(url) => new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.onopen = () => ws.send(JSON.stringify({type: "hello", spectator: true}));
    ws.onmessage = (event) => { resolve(JSON.parse(event.data).type); ws.close(); };
    ws.onclose = (event) => resolve(`closed ${event.code}`);
})"""


@pytest.mark.browser
def test_a_page_of_another_origin_cannot_open_a_socket_in_chromium(clock: ManualClock) -> None:
    config = make_config("memory://")
    with InProcessServer(config, clock) as home, InProcessServer(config, clock) as other:
        room_id = asyncio.run(new_room(home.url))
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(f"{home.url}/healthz")
            assert page.evaluate(OPEN_SOCKET, home.ws_url(room_id)) == "welcome"
            # Another port: another origin.  The page is a plain one of that origin's (its
            # own pages' Content-Security-Policy would stop the socket in the browser, before
            # the server could refuse it).
            page.route(f"{other.url}/plain", lambda route: route.fulfill(body="<p>x</p>"))
            page.goto(f"{other.url}/plain")
            assert page.evaluate(OPEN_SOCKET, home.ws_url(room_id)) == "closed 1006"
            FIGURES["browser sockets from another origin refused"] += 1
            browser.close()


# Behind nginx.


async def test_through_nginx_the_own_origin_connects_and_a_foreign_one_is_refused(
    redis_prefix: str, workdir: Path
) -> None:
    apps = [App(redis_prefix, workdir / f"app{number}.log") for number in (1, 2)]
    try:
        nginx = Balancer(workdir, apps)
        try:
            served: set[int] = set()
            while len(served) < 2:  # rooms until each process has served one (by room id)
                room_id = await new_room(nginx.url)
                client = await Client.open(nginx.ws_url(room_id), origin=nginx.url)
                await client.send(type="hello", spectator=True)
                assert (await client.recv())["type"] == "welcome"
                await refused(nginx.ws_url(room_id), FOREIGN)
                served |= {n for n, app in enumerate(apps) if app.accepted(room_id)}
        finally:
            nginx.stop()
    finally:
        for app in apps:
            app.stop()
