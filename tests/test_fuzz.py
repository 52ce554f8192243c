"""Protocol fuzzing over real websockets against a live server, on both stores.

Hypothesis builds frames that are bad by construction: text that is not JSON
(truncated frames, arbitrary text), JSON that is not an object, unknown and
odd-unicode types, known frames with a field missing, an extra field, a value
of the wrong type, an out-of-range string or a huge number, frames over the size
cap, and binary frames.  A racing player sends them a few at a time (the server
keeps a connection through ``max_bad_frames`` of them) and every one must get
``bad_message``; afterwards the player's board, the room and a second room are
exactly as before, the connection still answers, and the server still races.
The same frames go to a spectator's socket and to the tournament socket; well-formed
moves the engine refuses are rejected and change nothing.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import connect

from server_kit import Client, InProcessServer, http, new_room, player, winning_line
from stalactites.engine import Stalactites
from stalactites.engine.errors import EngineError
from tournament_kit import Watcher, enter, new_tournament, start, view, ws_base

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")
FRAME_CAP = 4096  # ServerConfig.max_frame_bytes, the test servers' default
PER_CONNECTION = 5  # ServerConfig.max_bad_frames: this many bad frames keep the socket open
FUZZ_EXAMPLES = 150
MOVE_EXAMPLES = 100
SPECTATOR_EXAMPLES = 40
TOURNAMENT_EXAMPLES = 40

# One well-formed frame of each client type, and the fields each type allows.
TEMPLATES: dict[str, dict[str, Any]] = {
    "ready": {"type": "ready"},
    "resign": {"type": "resign"},
    "ping": {"type": "ping"},
    "move": {"type": "move", "id": "fz", "move": "t1-c1"},
    "undo": {"type": "undo", "id": "fz"},
    "declare_step": {"type": "declare_step", "step": "twos", "id": "fz"},
}
FIELDS = {
    "hello": {"type", "token", "spectator", "last_seq"},
    **{kind: set(frame) for kind, frame in TEMPLATES.items()},
}
FIELDS["declare_step"] = {"type", "step", "id"}
REQUIRED = {"move": ["id", "move"], "undo": ["id"], "declare_step": ["step"]}
STRING_FIELDS = {"move": ["id", "move"], "undo": ["id"], "declare_step": ["step", "id"]}
MAX_LENGTH = {"id": 64, "move": 32}

huge = st.integers(min_value=-(10**40), max_value=10**40) | st.sampled_from([2**63, -(2**63)])
odd_text = st.text(
    st.characters(codec="utf-8", categories=["L", "M", "N", "S", "Z", "C", "P"]), max_size=40
)
leaves = st.none() | st.booleans() | huge | st.floats(allow_nan=False) | odd_text
json_values = st.recursive(
    leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(odd_text, inner, max_size=4)
)
templates = st.sampled_from(sorted(TEMPLATES)).map(lambda kind: dict(TEMPLATES[kind]))


@st.composite
def missing_field(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(sorted(REQUIRED)))
    frame = dict(TEMPLATES[kind])
    del frame[draw(st.sampled_from(REQUIRED[kind]))]
    return json.dumps(frame)


@st.composite
def no_type(draw: st.DrawFn) -> str:
    frame = draw(templates)
    del frame["type"]
    return json.dumps(frame)


@st.composite
def extra_field(draw: st.DrawFn) -> str:
    frame = draw(templates)
    name = draw(odd_text.filter(lambda key: key not in FIELDS[frame["type"]]))
    frame[name] = draw(json_values)
    return json.dumps(frame, ensure_ascii=draw(st.booleans()))


@st.composite
def wrong_type(draw: st.DrawFn) -> str:
    """A string field given a number, a list, an object, a boolean (or null where required)."""
    kind = draw(st.sampled_from(sorted(STRING_FIELDS)))
    frame = dict(TEMPLATES[kind])
    name = draw(st.sampled_from(STRING_FIELDS[kind]))
    values = json_values.filter(lambda value: not isinstance(value, str))
    if kind == "declare_step" and name == "id":
        values = values.filter(lambda value: value is not None)  # a null id is allowed
    frame[name] = draw(values)
    return json.dumps(frame)


@st.composite
def out_of_range(draw: st.DrawFn) -> str:
    """An empty or too long id or move, or a step that is not ones or twos."""
    kind = draw(st.sampled_from(sorted(STRING_FIELDS)))
    frame = dict(TEMPLATES[kind])
    name = draw(st.sampled_from(STRING_FIELDS[kind]))
    if name == "step":
        frame[name] = draw(odd_text.filter(lambda text: text not in ("ones", "twos")))
    else:
        limit = MAX_LENGTH[name]
        frame[name] = draw(st.just("") | st.text(min_size=limit + 1, max_size=limit + 200))
    return json.dumps(frame, ensure_ascii=draw(st.booleans()))


@st.composite
def unknown_type(draw: st.DrawFn) -> str:
    kind = draw(
        odd_text.filter(lambda text: text not in FIELDS)
        | st.sampled_from(["PING", "Ping", "pıng", "ping\u0000", "ｐｉｎｇ", "move ", "\u202emove"])
        | json_values.filter(lambda value: not isinstance(value, str))
    )
    frame = {**draw(templates), "type": kind}
    return json.dumps(frame, ensure_ascii=draw(st.booleans()))


@st.composite
def truncated(draw: st.DrawFn) -> str:
    """A strict prefix of a frame (never valid JSON: the closing brace is gone)."""
    text = json.dumps(draw(templates))
    return text[: draw(st.integers(0, len(text) - 1))]


@st.composite
def oversize(draw: st.DrawFn) -> str:
    """A frame that would be valid but is over the size cap (padding inside the object)."""
    text = json.dumps(draw(templates))
    padding = " " * draw(st.integers(FRAME_CAP - len(text) + 1, 3 * FRAME_CAP))
    return text[:-1] + padding + "}"


not_json = odd_text.filter(lambda text: not _parses(text))
not_an_object = json_values.filter(lambda value: not isinstance(value, dict)).map(json.dumps)
hello_again = st.fixed_dictionaries(
    {"type": st.just("hello")}, optional={"token": odd_text, "last_seq": huge}
).map(json.dumps)  # after the welcome, any hello is a bad frame

before_hello: st.SearchStrategy[str | bytes] = st.one_of(
    truncated(),
    not_json,
    not_an_object,
    unknown_type(),
    no_type(),
    missing_field(),
    extra_field(),
    wrong_type(),
    out_of_range(),
    oversize(),
    st.binary(max_size=64),
)
bad_frames = before_hello | hello_again


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


@dataclass
class Arena:
    """Two racing rooms: the fuzzed one (Ann, some moves played) and a bystander (Bob)."""

    server: InProcessServer
    room: str
    token: str
    other: str
    other_view: dict[str, Any]
    bob: Client
    sent: int = 0


def unchanging(view: dict[str, Any]) -> dict[str, Any]:
    """A room view without what comes and goes with connections."""
    players = [{k: v for k, v in p.items() if k != "connected"} for p in view["players"]]
    return {**{k: v for k, v in view.items() if k != "spectators"}, "players": players}


async def racing_room(server: InProcessServer, name: str, moves: int) -> tuple[str, Client]:
    room_id = await new_room(server.url, deal=DEAL, step="ones", seats=1, countdown_s=0)
    client = await player(server, room_id, name)
    await client.send(type="ready")
    await client.expect("started")
    for index in range(moves):
        assert (await client.move(f"{name}{index}", LINE[index]))["type"] == "accepted"
    return room_id, client


async def room_view(server: InProcessServer, room_id: str) -> dict[str, Any]:
    status, view = await http("GET", f"{server.url}/api/rooms/{room_id}")
    assert status == 200, view
    return unchanging(view)


@pytest.fixture
async def arena(any_server: InProcessServer) -> AsyncIterator[Arena]:
    """The rooms the fuzz test shares across its examples.  Once every example has run, the
    bystander room is checked untouched and the server is checked still racing: Bob's and
    Ann's next moves are accepted, and a new room races."""
    room, ann = await racing_room(any_server, "Ann", 3)
    await ann.close()
    other, bob = await racing_room(any_server, "Bob", 2)
    arena = Arena(any_server, room, ann.token, other, await room_view(any_server, other), bob)
    yield arena
    assert arena.sent >= SPECTATOR_EXAMPLES  # the examples ran, each sending at least one frame
    await still_racing(arena)


async def still_racing(arena: Arena) -> None:
    server = arena.server
    assert await room_view(server, arena.other) == arena.other_view
    await arena.bob.send(type="ping")
    assert (await answer_to(arena.bob))["type"] == "pong"
    assert [frame for frame in arena.bob.frames if frame["type"] == "error"] == []
    assert (await arena.bob.move("Bob-next", LINE[2]))["type"] == "accepted"
    ann, _ = await welcomed(arena)
    assert (await ann.move("Ann-next", LINE[3]))["type"] == "accepted"
    await ann.close()
    room_id, _ = await racing_room(server, "Cat", 2)
    assert (await room_view(server, room_id))["players"][0]["moves"] == 2


async def welcomed(
    arena: Arena, early: tuple[str | bytes, ...] = ()
) -> tuple[Client, dict[str, Any]]:
    """Ann on a new socket (its bad frames before the hello answered), welcomed."""
    client = Client(await connect(arena.server.ws_url(arena.room), open_timeout=10))
    try:
        for frame in early:
            await bad_frame(client, frame)
        arena.sent += len(early)
        return client, await client.hello(arena.token)
    except BaseException:
        await client.close()
        raise


def fuzzing(examples: int) -> settings:
    """The same examples on every run (no database), with no per-example deadline."""
    return settings(
        derandomize=True,
        database=None,
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


async def answer_to(client: Client) -> dict[str, Any]:
    """The next frame that answers the client (room or tournament events are read past)."""
    while True:
        frame = await client.recv()
        if frame["type"] in ("error", "accepted", "rejected", "pong", "welcome"):
            return frame


async def bad_frame(client: Client, frame: str | bytes) -> None:
    await client.send_raw(frame)
    answer = await answer_to(client)
    assert (answer["type"], answer.get("code")) == ("error", "bad_message"), (frame, answer)


@fuzzing(FUZZ_EXAMPLES)
@given(
    early=st.lists(before_hello, max_size=2),
    late=st.lists(bad_frames, min_size=1, max_size=PER_CONNECTION - 2),
)
async def test_every_bad_frame_gets_bad_message_and_changes_nothing(
    arena: Arena, early: list[str | bytes], late: list[str | bytes]
) -> None:
    """Bad frames before the hello and after it; the socket survives them and answers a ping;
    the player's board, legal moves and room view are then exactly as before."""
    client, before = await welcomed(arena, tuple(early))
    try:
        for frame in late:
            await bad_frame(client, frame)
            arena.sent += 1
        await client.send(type="ping")
        assert (await answer_to(client))["type"] == "pong"
    finally:
        await client.close()
    checker, after = await welcomed(arena)
    await checker.close()
    assert after["state"] == before["state"]
    assert after["legal"] == before["legal"]
    assert unchanging(after["room"]) == unchanging(before["room"])


def legal_here(text: str) -> bool:
    """Whether the engine takes this move on Ann's board (the first three moves of the line)."""
    game = Stalactites(DEAL, step="ones")
    for move in LINE[:3]:
        game.push(move)
    try:
        game.parse_move(text)
    except EngineError:
        return False
    return True


@st.composite
def mutated_move(draw: st.DrawFn) -> str:
    """A move of the line with one character inserted, replaced or deleted."""
    text = draw(st.sampled_from(LINE[:12]))
    where = draw(st.integers(0, len(text) - 1))
    char = draw(st.characters(codec="utf-8") | st.sampled_from("tcfsw0123456789-:"))
    edit = draw(st.sampled_from(["insert", "replace", "delete"]))
    if edit == "insert":
        return text[:where] + char + text[where:]
    return text[:where] + (char if edit == "replace" else "") + text[where + 1 :]


move_texts = (mutated_move() | odd_text).filter(lambda text: 1 <= len(text) <= 32)


@fuzzing(MOVE_EXAMPLES)
@given(text=move_texts)
async def test_a_well_formed_move_the_engine_refuses_is_rejected_and_changes_nothing(
    arena: Arena, text: str
) -> None:
    """Move frames of the right shape whose text is no move, or no legal move here: rejected
    with invalid_move or illegal_move, and the board is as before."""
    assume(not legal_here(text))
    client, before = await welcomed(arena)
    try:
        arena.sent += 1
        answer = await client.move(f"fuzz-{arena.sent}", text)
    finally:
        await client.close()
    assert answer["type"] == "rejected", (text, answer)
    assert answer["code"] in ("invalid_move", "illegal_move"), (text, answer)
    checker, after = await welcomed(arena)
    await checker.close()
    assert (after["state"], after["legal"]) == (before["state"], before["legal"])
    assert unchanging(after["room"]) == unchanging(before["room"])


async def watching(arena: Arena, early: tuple[str | bytes, ...] = ()) -> tuple[Client, Any]:
    """A spectator of Ann's room (its bad frames before the hello answered), welcomed."""
    client = Client(await connect(arena.server.ws_url(arena.room), open_timeout=10))
    try:
        for frame in early:
            await bad_frame(client, frame)
        await client.send(type="hello", spectator=True)
        welcome = await answer_to(client)
        assert welcome["type"] == "welcome", welcome
        return client, welcome
    except BaseException:
        await client.close()
        raise


@fuzzing(SPECTATOR_EXAMPLES)
@given(
    early=st.lists(before_hello, max_size=2),
    late=st.lists(bad_frames, min_size=1, max_size=PER_CONNECTION - 2),
)
async def test_a_spectators_bad_frames_get_bad_message_and_change_no_board(
    arena: Arena, early: list[str | bytes], late: list[str | bytes]
) -> None:
    client, before = await watching(arena, tuple(early))
    try:
        for frame in late:
            await bad_frame(client, frame)
        arena.sent += len(early) + len(late)
        await client.send(type="ping")
        assert (await answer_to(client))["type"] == "pong"
    finally:
        await client.close()
    checker, after = await watching(arena)
    await checker.close()
    assert after["boards"] == before["boards"]
    assert unchanging(after["room"]) == unchanging(before["room"])


@dataclass
class Cup:
    """A running one-round tournament with one entrant, whose token the fuzzer uses."""

    server: InProcessServer
    tournament_id: str
    token: str


@pytest.fixture
async def cup(server: InProcessServer) -> Cup:
    """On the in-memory store only: frames are parsed before any store is asked, and here the
    in-process Redis server with a round running took 10 s to shut down."""
    settings = {"step": "ones", "rounds": 1, "round_time_s": 60, "break_s": 0, "deals": [DEAL]}
    tournament_id, admin = await new_tournament(server.url, **settings)
    _, token = await enter(server.url, tournament_id, "Ann")
    status, body, _ = await start(server.url, tournament_id, f"Bearer {admin}")
    assert status == 200, body
    return Cup(server, tournament_id, token)


@fuzzing(TOURNAMENT_EXAMPLES)
@given(
    early=st.lists(before_hello, max_size=2),
    late=st.lists(bad_frames, min_size=1, max_size=PER_CONNECTION - 2),
)
async def test_bad_frames_on_the_tournament_socket_get_bad_message_and_change_nothing(
    cup: Cup, early: list[str | bytes], late: list[str | bytes]
) -> None:
    before = await view(cup.server.url, cup.tournament_id)
    url = f"{ws_base(cup.server.url)}/ws/tournaments/{cup.tournament_id}"
    watcher = Watcher(await connect(url, open_timeout=10))
    try:
        for frame in early:
            await bad_frame(watcher, frame)
        await watcher.send(type="hello", token=cup.token)
        assert (await answer_to(watcher))["type"] == "welcome"
        for frame in late:
            await bad_frame(watcher, frame)
        await watcher.send(type="ping")
        assert (await answer_to(watcher))["type"] == "pong"
    finally:
        await watcher.close()
    assert await view(cup.server.url, cup.tournament_id) == before
