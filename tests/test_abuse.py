"""Abuse limits over a real server: per-address limits on moves, on creating rooms and
tournaments and on taking seats (HTTP 429 with ``Retry-After``), floods of moves and of
frames closed with 1008, ``bad_message`` and not-found answers that never echo the client's
input, failures that tell the client nothing of the server's insides, and every size cap
at its limit and one over.

Addresses: the in-process server's uvicorn trusts ``X-Forwarded-For`` from 127.0.0.1 (as
``serve`` does from ``FORWARDED_ALLOW_IPS``), so each test client claims an address of its
own with that header.  Limits are set so that no token comes back during a test (a rate of
one per 1000 s): every count is exact, whatever the machine's speed.  The module prints
its figures at the end (``-s`` shows them).
"""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError
from websockets.exceptions import ConnectionClosed

from server_kit import (
    Client,
    InProcessServer,
    ManualClock,
    end_process,
    free_port,
    http,
    make_config,
    new_room,
    seat,
    start_race,
    winning_line,
)
from stalactites.protocol.room import CLIENT_FRAMES
from stalactites.rooms import CreateRoom, JoinRoom
from stalactites.tournaments import CreateTournament
from stalactites.web.invalid import describe
from stalactites.web.limits import AddressBuckets, Flood, TokenBucket
from tournament_kit import Watcher, new_tournament

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")
SLOW = 0.001  # tokens a second: none comes back during a test
MARK = "ZQ<x>"  # in every bad input below; a message containing it echoes the input
FIGURES: Counter[str] = Counter()


@pytest.fixture(scope="module", autouse=True)
def abuse_figures() -> Iterator[None]:
    yield
    print("\nabuse figures: " + ", ".join(f"{key} {value}" for key, value in FIGURES.items()))


class Tick:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


# The limits themselves.


def test_a_bucket_says_when_its_next_token_comes() -> None:
    tick = Tick()
    bucket = TokenBucket(2.0, 2, tick)
    assert [bucket.take() for _ in range(3)] == [True, True, False]
    assert bucket.retry_after() == 0.5
    tick.now = 0.5
    assert bucket.retry_after() == 0.0
    assert bucket.take() and not bucket.take()


def test_address_buckets_are_separate_and_idle_ones_are_forgotten() -> None:
    tick = Tick()
    buckets = AddressBuckets(1.0, 2, tick)
    assert [buckets.take("a") for _ in range(3)] == [True, True, False]
    assert buckets.take("b")
    for number in range(1000):
        buckets.take(f"10.0.{number // 256}.{number % 256}")
    assert len(buckets) == 1002
    tick.now = 1.5  # not yet full again: every address is still remembered
    assert buckets.take("a") and not buckets.take("a")
    assert len(buckets) == 1002
    tick.now = 10.0  # every bucket full again: a fresh one would be the same
    assert buckets.take("c")
    assert len(buckets) == 1


def test_a_flood_is_so_many_refusals_within_the_window() -> None:
    tick = Tick()
    flood = Flood(3, 10.0, tick)
    assert [flood.refused(), flood.refused()] == [False, False]
    tick.now = 20.0
    assert not flood.refused()  # two of the three are outside the window
    tick.now = 21.0
    assert not flood.refused()
    assert flood.refused()  # three within 1 s
    assert not Flood(0, 10.0, tick).refused()  # 0: never


# HTTP: creating and joining.


def _request(method: str, url: str, body: Any, address: str) -> tuple[int, Any, dict[str, str]]:
    data = json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    request.add_header("X-Forwarded-For", address)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read()), _lower(answer.headers.items())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), _lower(error.headers.items())


def _lower(headers: Any) -> dict[str, str]:
    return {name.lower(): value for name, value in headers}


async def post(url: str, body: Any, address: str) -> tuple[int, Any, dict[str, str]]:
    """(status, JSON body, headers) of a POST made from ``address``."""
    return await asyncio.to_thread(_request, "POST", url, body, address)


def assert_rate_limited(status: int, body: Any, headers: dict[str, str]) -> None:
    assert status == 429, body
    assert set(body) == {"code", "message"} and body["code"] == "rate_limited"
    assert int(headers["retry-after"]) >= 1
    FIGURES["HTTP 429"] += 1


async def room_count(base: str) -> int:
    status, page = await http("GET", f"{base}/api/rooms?status=waiting&limit=100")
    assert status == 200
    return len(page["rooms"])


async def test_creating_rooms_and_tournaments_is_limited_per_address(
    clock: ManualClock,
) -> None:
    config = make_config("memory://", create_rate=SLOW, create_burst=3)
    with InProcessServer(config, clock) as server:
        rooms, tournaments = f"{server.url}/api/rooms", f"{server.url}/api/tournaments"
        for _ in range(2):
            assert (await post(rooms, {}, "203.0.113.1"))[0] == 201
        assert (await post(tournaments, {"name": "Cup"}, "203.0.113.1"))[0] == 201
        assert_rate_limited(*await post(rooms, {}, "203.0.113.1"))
        assert_rate_limited(*await post(tournaments, {"name": "Cup"}, "203.0.113.1"))
        assert await room_count(server.url) == 2  # the refused ones made nothing
        assert (await post(rooms, {}, "203.0.113.2"))[0] == 201  # another address
        assert await room_count(server.url) == 3


async def test_taking_seats_and_tournament_entries_is_limited_per_address(
    clock: ManualClock,
) -> None:
    config = make_config("memory://", join_rate=SLOW, join_burst=2)
    with InProcessServer(config, clock) as server:
        room_id = await new_room(server.url, seats=8)
        status, cup, _ = await post(f"{server.url}/api/tournaments", {"name": "Cup"}, "10.1.1.1")
        assert status == 201
        seats = f"{server.url}/api/rooms/{room_id}/players"
        entries = f"{server.url}/api/tournaments/{cup['tournament_id']}/players"
        assert (await post(seats, {"name": "Ann"}, "198.51.100.7"))[0] == 201
        assert (await post(entries, {"name": "Ann"}, "198.51.100.7"))[0] == 201
        assert_rate_limited(*await post(seats, {"name": "Bob"}, "198.51.100.7"))
        assert_rate_limited(*await post(entries, {"name": "Bob"}, "198.51.100.7"))
        assert (await post(seats, {"name": "Cat"}, "198.51.100.8"))[0] == 201
        status, view = await http("GET", f"{server.url}/api/rooms/{room_id}")
        assert [p["name"] for p in view["players"]] == ["Ann", "Cat"]
        status, view = await http("GET", f"{server.url}/api/tournaments/{cup['tournament_id']}")
        assert view["entrants"] == 1


# Websockets: moves.


async def racer(server: InProcessServer, room_id: str, name: str, address: str) -> Client:
    _, token = await seat(server.url, room_id, name)
    client = await Client.open(
        server.ws_url(room_id), additional_headers={"X-Forwarded-For": address}
    )
    client.token = token
    await client.hello(token)
    return client


async def race(server: InProcessServer, players: list[tuple[str, str]]) -> list[Client]:
    """A room on DEAL with these (name, address) players, racing."""
    room_id = await new_room(server.url, deal=DEAL, seats=len(players), countdown_s=0)
    clients = [await racer(server, room_id, name, address) for name, address in players]
    await start_race(*clients)
    return clients


def room_of(client: Client) -> str:
    assert client.ws.request is not None
    return client.ws.request.path.rsplit("/", 1)[1]


async def moves_on_boards(server: InProcessServer, client: Client) -> dict[str, int]:
    status, view = await http("GET", f"{server.url}/api/rooms/{room_of(client)}")
    assert status == 200
    return {p["name"]: p["moves"] for p in view["players"]}


async def test_an_address_shares_one_move_allowance_across_its_connections(
    clock: ManualClock,
) -> None:
    config = make_config("memory://", address_move_rate=SLOW, address_move_burst=5)
    with InProcessServer(config, clock) as server:
        ann, bob, cat = await race(
            server, [("Ann", "192.0.2.1"), ("Bob", "192.0.2.1"), ("Cat", "192.0.2.9")]
        )
        answers = []
        for index in range(4):  # Ann and Bob take turns: 8 moves, 5 allowed
            answers.append(await ann.move(f"a{index}", LINE[index]))
            answers.append(await bob.move(f"b{index}", LINE[index]))
        codes = [answer.get("code") for answer in answers]
        assert codes == [None] * 5 + ["rate_limited"] * 3
        FIGURES["moves refused per address"] += 3
        assert (await cat.move("c0", LINE[0]))["type"] == "accepted"  # another address
        assert await moves_on_boards(server, ann) == {"Ann": 3, "Bob": 2, "Cat": 1}


async def test_a_connection_that_keeps_moving_after_rate_limited_is_closed_1008(
    clock: ManualClock,
) -> None:
    config = make_config(
        "memory://", move_rate=SLOW, move_burst=2, flood_refusals=5, flood_window_s=600
    )
    with InProcessServer(config, clock) as server:
        (ann,) = await race(server, [("Ann", "192.0.2.50")])
        assert [(await ann.move(f"m{i}", LINE[i]))["type"] for i in range(2)] == ["accepted"] * 2
        for index in range(2, 6):  # four refusals: still open
            answer = await ann.move(f"m{index}", LINE[index])
            assert (answer["type"], answer["code"]) == ("rejected", "rate_limited")
            FIGURES["moves refused per connection"] += 1
        await ann.send(type="move", id="m6", move=LINE[6])  # the fifth: the end
        last = await ann.expect("error")
        assert last["code"] == "rate_limited"
        assert await ann.closed() == 1008
        FIGURES["flooding connections closed 1008"] += 1
        assert await moves_on_boards(server, ann) == {"Ann": 2}
        again = await Client.open(server.ws_url(room_of(ann)))  # the player may come back
        welcome = await again.hello(ann.token)
        assert welcome["you"] == ann.you


async def test_a_connection_sending_frames_past_its_allowance_is_closed_1008(
    clock: ManualClock,
) -> None:
    config = make_config("memory://", frame_rate=SLOW, frame_burst=10)
    with InProcessServer(config, clock) as server:
        room_id = await new_room(server.url)
        tournament_id, _ = await new_tournament(server.url)
        _, token = await seat(server.url, room_id, "Ann")  # first: a hello is due in 1 s
        player = await Client.open(server.ws_url(room_id))
        await player.hello(token)
        watcher = await Watcher.open(server.url, tournament_id)
        await watcher.hello(spectator=True)
        for client in (player, watcher):  # the hello and 9 pings: the burst of 10
            for _ in range(9):
                await client.send(type="ping")
                assert (await client.expect("pong"))["type"] == "pong"
            await client.send(type="ping")
            last = await client.expect("error")
            assert (last["code"], last["message"]) == ("rate_limited", "too many frames; closing")
            assert await client.closed() == 1008
            FIGURES["frame floods closed 1008"] += 1


# bad_message names the field and the problem, never the input.


MARKED = st.text(max_size=20).map(lambda text: MARK + text)


@st.composite
def marked_frames(draw: st.DrawFn) -> dict[str, Any]:
    """A frame with the marked text where a client's input could be echoed."""
    marked = draw(MARKED)
    return draw(
        st.sampled_from(
            [
                {"type": marked},
                {"type": "move", "id": "m1", "move": "t1-f1", marked: 1},
                {"type": "move", "id": marked * 20, "move": "t1-f1"},
                {"type": "hello", "token": marked * 30},
                {"type": "declare_step", "id": "d", "step": marked},
                {"type": "hello", "last_seq": marked},
            ]
        )
    )


@settings(max_examples=200, derandomize=True, database=None)
@given(frame=marked_frames())
def test_a_frame_error_never_quotes_the_frame(frame: dict[str, Any]) -> None:
    with pytest.raises(ValidationError) as raised:
        CLIENT_FRAMES.validate_json(json.dumps(frame))
    field, message = describe(raised.value)
    assert MARK not in message and (field is None or MARK not in field)
    FIGURES["marked frames described without echo"] += 1


@settings(max_examples=200, derandomize=True, database=None)
@given(marked=MARKED, kind=st.sampled_from(["deal", "game", "extra", "name", "deals"]))
def test_a_body_error_never_quotes_the_body(marked: str, kind: str) -> None:
    cases: dict[str, tuple[type[BaseModel], dict[str, Any]]] = {
        "deal": (CreateRoom, {"deal": marked}),
        "game": (CreateRoom, {"game": marked}),
        "extra": (CreateRoom, {marked: 1}),
        "name": (JoinRoom, {"name": "\x00" + marked}),
        "deals": (CreateTournament, {"name": "Cup", "rounds": 2, "deals": ["ms:1", marked]}),
    }
    model, body = cases[kind]
    with pytest.raises(ValidationError) as raised:
        model.model_validate(body)
    field, message = describe(raised.value)
    assert MARK not in message and (field is None or MARK not in field)
    FIGURES["marked bodies described without echo"] += 1


async def test_bad_message_over_the_wire_names_the_field_without_the_input(
    server: InProcessServer,
) -> None:
    (ann,) = await race(server, [("Ann", "192.0.2.60")])
    frames: list[dict[str, Any]] = [
        {"type": MARK},
        {"type": "move", "id": "m1", "move": "t1-f1", MARK: 1},
        {"type": "declare_step", "id": "d1", "step": MARK},
        {"type": "move", "id": MARK * 20, "move": "t1-f1"},
    ]
    expected: list[str | None] = ["type", "move", "declare_step.step", "move.id"]
    for frame, field in zip(frames, expected, strict=True):
        await ann.send(**frame)
        error = await ann.expect("error")
        assert error["code"] == "bad_message" and MARK not in error["message"]
        assert error["message"].startswith(f"{field}: "), error
        FIGURES["bad frames answered without echo"] += 1
    bodies = [
        ("/api/rooms", {"deal": MARK}, "deal"),
        ("/api/rooms", {MARK: 1}, None),
        ("/api/tournaments", {"name": "Cup", "rounds": 1, "deals": [MARK]}, "deals"),
        (f"/api/rooms/{room_of(ann)}/players", {"name": MARK + "\x07"}, "name"),
    ]
    for path, body, field in bodies:
        status, answer = await http("POST", f"{server.url}{path}", body)
        assert status == 422 and answer["field"] == field, answer
        assert MARK not in json.dumps(answer)
        FIGURES["bad bodies answered without echo"] += 1
    status, answer = await http("GET", f"{server.url}/api/rooms?status=racing&after={MARK}")
    assert (status, answer["field"]) == (422, "after") and MARK not in json.dumps(answer)


async def test_an_id_that_is_no_id_at_all_is_not_echoed_back(server: InProcessServer) -> None:
    odd = urllib.parse.quote(MARK * 200)  # 1000 characters, none of an id's
    for path in (f"/api/rooms/{odd}", f"/api/tournaments/{odd}"):
        status, answer = await http("GET", f"{server.url}{path}")
        assert status == 404 and MARK not in json.dumps(answer), answer
    stranger = await Client.open(server.ws_url(odd))
    await stranger.send(type="hello", spectator=True)
    error = await stranger.expect("error")
    assert error["code"] == "room_not_found" and MARK not in error["message"]
    status, answer = await http("GET", f"{server.url}/api/rooms/nosuchroom")
    assert answer["message"] == "no room 'nosuchroom'"  # a well-formed id is named
    FIGURES["ids that are no ids answered without echo"] += 3


# Failures: no exception text to the client.


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """A Redis server of this test's own, which the test may kill."""
    port = free_port()
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
        + ["--appendonly", "no", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if process.poll() is not None:
                raise RuntimeError("redis-server did not start") from None
            time.sleep(0.05)
    yield process, port
    end_process(process)


LEAKS = ("Error", "error:", "Traceback", "refused", "Errno", "redis", "File ")


def assert_nothing_leaks(text: str, port: int) -> None:
    for leak in (*LEAKS, str(port)):
        assert leak not in text, (leak, text)


async def test_a_store_that_dies_mid_race_gets_internal_with_no_exception_text(
    own_redis: tuple[subprocess.Popen[bytes], int], clock: ManualClock
) -> None:
    process, port = own_redis
    config = make_config(f"redis://127.0.0.1:{port}/0", prefix="abuse:")
    with InProcessServer(config, clock) as server:
        (ann,) = await race(server, [("Ann", "192.0.2.70")])
        assert (await ann.move("m1", LINE[0]))["type"] == "accepted"
        room_id = room_of(ann)
        process.kill()  # Redis gone mid-race
        process.wait(10)
        await ann.send(type="move", id="m2", move=LINE[1])
        error = await ann.expect("error", timeout=30)
        assert error["code"] == "internal"
        assert_nothing_leaks(error["message"], port)
        assert await ann.closed(30) == 1011
        requests = [
            ("GET", f"/api/rooms/{room_id}", None),
            ("POST", "/api/rooms", {}),
            ("POST", "/api/tournaments", {"name": "Cup"}),
        ]
        for method, path, sent in requests:
            status, body = await http(method, f"{server.url}{path}", sent)
            assert status == 500
            assert body == {"code": "internal", "message": "the server failed; try again"}
            FIGURES["internal failures answered without exception text"] += 1
        FIGURES["internal failures answered without exception text"] += 1


# Sizes.


async def test_a_body_over_the_configured_cap_is_413_and_at_the_cap_is_read(
    clock: ManualClock,
) -> None:
    body = json.dumps({"game": "stalactites"})
    padded = body[:-1] + " " * (200 - len(body)) + "}"
    config = make_config("memory://", max_body_bytes=200)
    with InProcessServer(config, clock) as server:
        status, _ = await http("POST", f"{server.url}/api/rooms", padded)
        assert status == 201
        status, _ = await http("POST", f"{server.url}/api/rooms", padded + " ")
        assert status == 413
        status, _ = await http("POST", f"{server.url}/api/tournaments", padded + " ")
        assert status == 413
        assert await room_count(server.url) == 1


@pytest.mark.parametrize(
    ("path", "at_cap", "over_cap", "field"),
    [
        ("/api/rooms", {"seats": 8}, {"seats": 9}, "seats"),
        ("/api/rooms", {"deal": "ms:" + "1" * 9}, {"deal": "ms:" + "1" * 30}, "deal"),
        ("/api/rooms/{room}/players", {"name": "x" * 24}, {"name": "x" * 25}, "name"),
        ("/api/tournaments", {"name": "x" * 60}, {"name": "x" * 61}, "name"),
        ("/api/tournaments", {"name": "C", "rounds": 20}, {"name": "C", "rounds": 21}, "rounds"),
        (
            "/api/tournaments",
            {"name": "C", "max_players": 1000},
            {"name": "C", "max_players": 1001},
            "max_players",
        ),
        ("/api/tournaments/{cup}/players", {"name": "x" * 24}, {"name": "x" * 25}, "name"),
    ],
)
async def test_each_http_cap_takes_its_limit_and_refuses_one_more(
    server: InProcessServer, path: str, at_cap: dict[str, Any], over_cap: dict[str, Any], field: str
) -> None:
    room_id = await new_room(server.url, seats=8)
    status, cup = await http("POST", f"{server.url}/api/tournaments", {"name": "Cup"})
    url = server.url + path.format(room=room_id, cup=cup["tournament_id"])
    status, answer = await http("POST", url, at_cap)
    assert status == 201, answer
    status, answer = await http("POST", url, over_cap)
    assert (status, answer["field"]) == (422, field), answer
    FIGURES["caps checked at the limit and one over"] += 1


async def test_a_room_list_page_is_at_most_100_rooms(server: InProcessServer) -> None:
    for limit, status in ((100, 200), (101, 422)):
        answer = await http("GET", f"{server.url}/api/rooms?status=waiting&limit={limit}")
        assert answer[0] == status
    FIGURES["caps checked at the limit and one over"] += 1


async def test_each_frame_cap_takes_its_limit_and_refuses_one_more(
    server: InProcessServer,
) -> None:
    room_id = await new_room(server.url)
    _, token = await seat(server.url, room_id, "Ann")
    stranger = await Client.open(server.ws_url(room_id))
    await stranger.send(type="hello", token="t" * 129)
    assert (await stranger.recv())["code"] == "bad_message"
    await stranger.send(type="hello", token="t" * 128)  # read, and not a player's
    assert (await stranger.recv())["code"] == "unauthorized"
    client = await Client.open(server.ws_url(room_id))
    await client.hello(token)
    answers = []
    for move_id, move in (("i" * 64, "x" * 32), ("i" * 65, "t1-f1"), ("m", "x" * 33)):
        await client.send(type="move", id=move_id, move=move)
        answers.append(await client.reply())
    assert [(a["type"], a["code"]) for a in answers] == [
        ("rejected", "not_started"),  # read: the room is still waiting
        ("error", "bad_message"),
        ("error", "bad_message"),
    ]
    ping = '{"type": "ping"}'
    await client.send_raw(ping[:-1] + " " * (4096 - len(ping)) + "}")
    assert (await client.reply())["type"] == "pong"
    await client.send_raw(ping[:-1] + " " * (4097 - len(ping)) + "}")
    assert (await client.recv())["message"] == "a frame is at most 4096 bytes"
    try:
        await client.send_raw(ping[:-1] + " " * (1 << 20) + "}")  # past the transport's 1 MiB
    except ConnectionClosed as closed:  # closed by the server while it was still going out
        code = None if closed.rcvd is None else closed.rcvd.code
    else:
        code = await client.closed()
    assert code == 1009
    FIGURES["caps checked at the limit and one over"] += 6
