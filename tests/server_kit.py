"""What the server tests share: running servers, an HTTP helper, a player over a real websocket.

Every frame a test client receives is checked against the protocol's server
union, so each test also checks that the server speaks the documented protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Coroutine, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar, Protocol, Self, TypeVar, cast

import redis
import uvicorn
from pydantic import TypeAdapter
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from stalactites.config import ServerConfig
from stalactites.engine import Card, Stalactites, Status, StepPolicy
from stalactites.protocol.room import SERVER_FRAMES
from stalactites.solver import Verdict, solve
from stalactites.web import create_app
from uvicorn_kit import PromptServer

T = TypeVar("T")

# How long a test waits for a frame, a close or a connection before it fails: time enough on
# a loaded machine (two cores running four workers, their servers, solvers and browsers).  A
# passing test never waits it out: each wait ends at its event.
WAIT_S = 30.0

OPEN_CLIENTS: list[Client] = []  # closed after each test by the conftest's fixture

REDIS_URL = os.environ.get("STALACTITES_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
REPO = Path(__file__).resolve().parents[1]


class ManualClock:
    """The real clock plus an offset the test moves forward; inside :meth:`frozen`, the
    real clock's part stands still."""

    def __init__(self) -> None:
        self.offset_ms = 0
        self.frozen_at_ms: int | None = None

    def now_ms(self) -> int:
        real = time.time_ns() // 1_000_000 if self.frozen_at_ms is None else self.frozen_at_ms
        return real + self.offset_ms

    @contextlib.contextmanager
    def frozen(self) -> Iterator[None]:
        """Time stands still inside (only :meth:`advance` moves it): what a test asserts of
        a run's timing does not depend on how loaded the machine running it is."""
        self.frozen_at_ms = time.time_ns() // 1_000_000
        try:
            yield
        finally:
            self.frozen_at_ms = None

    def advance(self, seconds: float) -> None:
        self.offset_ms += int(seconds * 1000)


# Rate limits off: tests play whole lines at full speed and make many rooms, all from
# 127.0.0.1 (the limits have their own tests, tests/test_abuse.py).
NO_RATE_LIMITS = {
    "STALACTITES_MOVE_RATE": "0",
    "STALACTITES_ADDRESS_MOVE_RATE": "0",
    "STALACTITES_CREATE_RATE": "0",
    "STALACTITES_JOIN_RATE": "0",
    "STALACTITES_FRAME_RATE": "0",
    "STALACTITES_SIGNIN_ADDRESS_RATE": "0",
    "STALACTITES_SIGNIN_USERNAME_RATE": "0",
    "STALACTITES_SESSION_ADDRESS_RATE": "0",
    "STALACTITES_REGISTER_ADDRESS_RATE": "0",
    "STALACTITES_ADDRESS_CONNECTIONS": "0",
    "STALACTITES_ADDRESS_SPECTATORS": "0",
    "STALACTITES_FAIRPLAY_HOLDS": "0",  # tests play at machine speed (fair play's tests hold)
}


# Each server certifies its quick races' stock of deals when it starts (64 by default):
# a test server needs fewer, and the suite starts many.
TEST_DEAL_POOL = 2


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def make_config(store_url: str, prefix: str = "sr:", **changes: Any) -> ServerConfig:
    """A test server's settings: a short hello timeout, and no rate limits."""
    base = ServerConfig(
        store_url=store_url,
        redis_prefix=prefix,
        hello_timeout_s=1.0,
        presence_ttl_s=3.0,
        move_rate=0,
        address_move_rate=0,
        create_rate=0,
        join_rate=0,
        frame_rate=0,
        signin_address_rate=0,
        signin_username_rate=0,
        session_address_rate=0,
        register_address_rate=0,
        address_spectators=0,
        match_deal_pool=TEST_DEAL_POOL,
        fairplay_holds=False,  # tests play at machine speed (fair play's tests hold)
    )
    return replace(base, **changes)


class InProcessServer:
    """uvicorn serving the app on a free port, in a thread of this process."""

    def __init__(
        self, config: ServerConfig, clock: ManualClock | None = None, sndbuf: int | None = None
    ) -> None:
        """``sndbuf`` fixes the kernel send buffer of the server's sockets (no autotuning), as
        on a constrained network, so that a client that stops reading backs up quickly."""
        self.config = config
        self.app = create_app(config, clock)
        settings = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=0,
            ws="websockets-sansio",
            ws_max_size=1 << 20,
            ws_per_message_deflate=False,
            lifespan="on",
            log_level="warning",
        )
        self.server = PromptServer(settings)
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        if sndbuf is not None:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, sndbuf)
        listener.bind(("127.0.0.1", 0))
        self.listener = listener
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [listener]}, daemon=True
        )
        self.url = ""

    def __enter__(self) -> InProcessServer:
        self.thread.start()
        if not self.server.ready.wait(60) or not self.server.started:  # (60 s: only a hang)
            self.__exit__(None, None, None)
            raise RuntimeError("the server did not start")
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.server.stop()
        self.thread.join(10)
        self.listener.close()

    def ws_url(self, room_id: str) -> str:
        return self.url.replace("http://", "ws://") + f"/ws/rooms/{room_id}"

    def call(self, work: Coroutine[Any, Any, T]) -> asyncio.Future[T]:
        """Run ``work`` (a call into the server's own objects) on the server's event loop,
        starting now; await the answer.  Its store's connections live there: awaited on the
        test's loop, a Redis reply is handed over from the server's thread without waking the
        test's loop, which then sleeps until its next timer (a websocket ping, 20 s on)."""
        loop = self.server.loop
        assert loop is not None  # (set once it serves)
        return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work, loop))


SERVE = "import sys; from stalactites.cli import main; sys.exit(main())"


class ProcessServer:
    """``stalactites serve --port 0`` in a subprocess, on the port it picks and prints; on
    Redis when ``redis_url`` is given.  Its log (stderr) goes to ``log``, or nowhere; ``env``
    adds variables (rate limits are off); ``code`` is the Python that runs the command."""

    def __init__(
        self,
        redis_url: str | None,
        prefix: str = "sr:",
        *,
        log: Path | None = None,
        env: Mapping[str, str] | None = None,
        code: str = SERVE,
    ) -> None:
        environ = dict(os.environ, **NO_RATE_LIMITS)
        environ["STALACTITES_MATCH_DEAL_POOL"] = str(TEST_DEAL_POOL)
        if redis_url is not None:
            environ.update(REDIS_URL=redis_url, STALACTITES_REDIS_PREFIX=prefix)
            environ["STALACTITES_PRESENCE_TTL_S"] = "3"
        environ.update(env or {})
        self.log_path = log
        self.log = None if log is None else log.open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-c", code, "serve", "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL if self.log is None else self.log,
            text=True,
            env=environ,
            cwd=REPO,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if match is None:
            self.stop()
            raise RuntimeError(f"the server did not start: {line!r}")
        self.port = int(match.group(1))
        self.url = f"http://127.0.0.1:{self.port}"

    def ws_url(self, room_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/rooms/{room_id}"

    def log_text(self) -> str:
        """What it has logged so far (nothing when its log goes nowhere)."""
        if self.log_path is None or not self.log_path.exists():
            return ""
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL: no chance to clean up."""
        self.process.kill()
        self.process.wait(10)

    def stop(self) -> int:
        """SIGTERM (SIGKILL if it lingers); the exit code."""
        end_process(self.process)
        if self.process.stdout is not None:
            self.process.stdout.close()
        if self.log is not None:
            self.log.close()
        return self.process.returncode


class Spawn(Protocol):
    """The ``spawn`` fixture: start a ``ProcessServer`` on Redis, ``env`` its variables."""

    def __call__(self, **env: str) -> ProcessServer: ...


class LoggedServer(ProcessServer):
    """``stalactites serve`` in a subprocess, its stderr (the log) written to a file, with the
    log settings' defaults unless ``env`` sets them."""

    def __init__(self, log_path: Path, **env: str) -> None:
        for variable in ("STALACTITES_LOG_FORMAT", "STALACTITES_LOG_LEVEL"):
            env.setdefault(variable, "")  # empty: the default, whatever the test run has set
        super().__init__(None, log=log_path, env=env)

    def lines(self) -> list[str]:
        return [line for line in self.log_text().splitlines() if line.strip()]


def _request(method: str, url: str, body: Any) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    if isinstance(body, bytes | str):
        data = body.encode() if isinstance(body, str) else body
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, _decode(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, _decode(error.read())


def _decode(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw.decode(errors="replace")


async def http(method: str, url: str, body: Any = None) -> tuple[int, Any]:
    """(status, parsed JSON body) of one HTTP request, made in a thread."""
    return await asyncio.to_thread(_request, method, url, body)


async def new_room(base: str, **settings: Any) -> str:
    status, body = await http("POST", f"{base}/api/rooms", settings)
    assert status == 201, body
    room_id: str = body["room_id"]
    return room_id


async def seat(base: str, room_id: str, name: str) -> tuple[str, str]:
    status, body = await http("POST", f"{base}/api/rooms/{room_id}/players", {"name": name})
    assert status == 201, body
    return body["player_id"], body["token"]


@dataclass
class Client:
    """One websocket to a room, as a player's client would use it."""

    ws: ClientConnection
    frames: list[dict[str, Any]] = field(default_factory=list)
    arrivals: list[float] = field(default_factory=list)  # monotonic time of each frame
    last_seq: int = 0
    you: str | None = None
    token: str = ""

    schema: ClassVar[TypeAdapter[Any]] = SERVER_FRAMES  # what every received frame must be

    @classmethod
    async def open(cls, url: str, **options: Any) -> Self:
        client = cls(await connect(url, open_timeout=WAIT_S, max_size=1 << 22, **options))
        OPEN_CLIENTS.append(client)
        return client

    async def send(self, **frame: Any) -> None:
        await self.ws.send(json.dumps(frame))

    async def send_raw(self, data: str | bytes) -> None:
        await self.ws.send(data)

    async def recv(self, timeout: float = WAIT_S) -> dict[str, Any]:
        """The next frame, checked against the protocol."""
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        frame: dict[str, Any] = json.loads(raw)
        self.schema.validate_python(frame)
        self.frames.append(frame)
        self.arrivals.append(time.monotonic())
        if "seq" in frame and frame["type"] != "welcome":
            assert frame["seq"] == self.last_seq + 1, (frame, self.last_seq)
            self.last_seq = frame["seq"]
        return frame

    async def reply(self, timeout: float = WAIT_S) -> dict[str, Any]:
        """The next frame that answers this socket: room events told to everyone (a player's
        presence) read on the way."""
        while True:
            frame = await self.recv(timeout)
            if frame["type"] != "presence":
                return frame

    async def expect(self, kind: str, timeout: float = WAIT_S, **match: Any) -> dict[str, Any]:
        """Read frames until one of this type (and these field values) arrives."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                frame = await self.recv(max(deadline - time.monotonic(), 0.01))
            except TimeoutError:
                last = [f"{f['type']}:{f.get('seq', '-')}" for f in self.frames[-12:]]
                raise TimeoutError(f"no {kind} {match} in {timeout} s; last: {last}") from None
            if frame["type"] == kind and all(frame.get(k) == v for k, v in match.items()):
                return frame

    async def hello(self, token: str, last_seq: int | None = None) -> dict[str, Any]:
        frame: dict[str, Any] = {"type": "hello", "token": token}
        if last_seq is not None:
            frame["last_seq"] = last_seq
        await self.ws.send(json.dumps(frame))
        welcome = await self.recv()
        assert welcome["type"] == "welcome", welcome
        self.last_seq, self.you = welcome["seq"], welcome["you"]
        return welcome

    async def move(self, move_id: str, move: str) -> dict[str, Any]:
        """Send a move; its answer (accepted or rejected), room events read on the way."""
        await self.send(type="move", id=move_id, move=move)
        return await self.answer(move_id)

    async def answer(self, move_id: str | None) -> dict[str, Any]:
        while True:
            frame = await self.recv()
            if frame["type"] in ("accepted", "rejected") and frame["id"] == move_id:
                return frame

    async def closed(self, timeout: float = WAIT_S) -> int | None:
        """Read until the server closes; the close code it sent."""
        try:
            while True:
                await self.recv(timeout)
        except ConnectionClosed as closed:
            return None if closed.rcvd is None else closed.rcvd.code

    async def close(self) -> None:
        """The closing handshake, what is left unread dropped meanwhile: a socket with frames
        unread stops reading (websockets' flow control), and would not read the server's
        closing frame before its close timed out (10 s)."""
        if self in OPEN_CLIENTS:  # (closed here: not again, on another test's loop, later)
            OPEN_CLIENTS.remove(self)
        dropping = asyncio.create_task(self._drop_unread())
        try:
            await self.ws.close()
        finally:
            dropping.cancel()
            await asyncio.gather(dropping, return_exceptions=True)

    async def _drop_unread(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                await self.ws.recv()


async def player(server: Any, room_id: str, name: str) -> Client:
    """Seat a player and say hello."""
    _, token = await seat(server.url, room_id, name)
    client = await Client.open(server.ws_url(room_id))
    client.token = token
    await client.hello(token)
    return client


async def spectator(
    server: Any, room_id: str, last_seq: int | None = None, **options: Any
) -> Client:
    """A spectator's socket, welcomed (``options`` go to :meth:`Client.open`)."""
    client = await Client.open(server.ws_url(room_id), **options)
    frame: dict[str, Any] = {"type": "hello", "spectator": True}
    if last_seq is not None:
        frame["last_seq"] = last_seq
    await client.send(**frame)
    welcome = await client.recv()
    assert welcome["type"] == "welcome", welcome
    client.last_seq = welcome["seq"]
    return client


def last_verdict(client: Client, player_id: str | None) -> str | None:
    """Whether a spectator was last told the player's board can still be won (what its page
    shows now): from the welcome's ``board_verdicts``, ``board`` and ``board_verdict`` frames."""
    shown = None
    for frame in client.frames:
        if frame["type"] == "welcome":
            shown = (frame["board_verdicts"] or {}).get(player_id)
        elif frame["type"] in ("board", "board_verdict") and frame["player_id"] == player_id:
            shown = frame["verdict"]
    return shown


async def verdict_becomes(client: Client, player_id: str | None, verdict: str) -> None:
    """Read a spectator's frames until the player's board shows ``verdict``."""
    while last_verdict(client, player_id) != verdict:
        await client.recv()


async def play(client: Client, moves: list[str], tag: str) -> dict[str, Any]:
    """Make the moves one after another (ids ``tag0``, ``tag1``, ...), each accepted; the
    last answer."""
    answer: dict[str, Any] = {}
    for index, move in enumerate(moves):
        answer = await client.move(f"{tag}{index}", move)
        assert answer["type"] == "accepted", answer
    return answer


async def resign(client: Client) -> None:
    """Resign, and read until the room says so."""
    await client.send(type="resign")
    await client.expect("finished", player_id=client.you, status="resigned")


async def counts_until(client: Client, count: int) -> list[int]:
    """The spectator counts the client is sent until one says ``count``."""
    counts: list[int] = []
    while not counts or counts[-1] != count:
        counts.append((await client.expect("spectators", timeout=10))["count"])
    return counts


async def start_race(*players: Client) -> None:
    """Every player says ready, then each sees the race start."""
    for client in players:
        await client.send(type="ready")
    for client in players:
        await client.expect("started")


def winning_line(deal: str, step: str = "ones") -> list[str]:
    """The solver's winning line for a Stalactites deal by the given step."""
    solution = solve(Stalactites(deal, StepPolicy(step)))
    assert solution.verdict is Verdict.WON, f"no win for {deal} by {step}: {solution.verdict}"
    return [str(move) for move in solution.moves]


def board_game(board: Mapping[str, Any], step: str | None = None) -> Stalactites:
    """The Stalactites game on a board known only by its cards (a protocol ``Board``: the
    ``started`` frame's ``state``, which hides the deal), by ``step`` or the board's own."""
    game = Stalactites("ms:1", step or board.get("step") or "choice")  # its cards replaced

    def cards(pile: list[str]) -> list[Card]:
        return [Card.parse(card) for card in pile]

    game.tableau = [cards(column) for column in board["tableau"]]
    game.foundations = [cards(pile) for pile in board["foundations"]]
    game.bases = [int(pile[0].rank) for pile in game.foundations]
    game.cells = [None if card is None else Card.parse(card) for card in board["cells"]]
    return game


def stored_solution(prefix: str, room_id: str, step: str | None = None) -> list[str]:
    """A certified room's winning line (by ``step``, else its first), from its settings in
    Redis: tests read the store; no client sees the line before the results."""
    client = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    try:
        stored = client.hget(f"{prefix}{{room:{room_id}}}:room", "settings")
        settings = json.loads(cast(str, stored))  # decode_responses: a str, or None if gone
    finally:
        client.close()
    lines = settings["solution"]
    return list(lines[step] if step else next(iter(lines.values())))


def lasting_moves(board: Mapping[str, Any], count: int) -> list[str]:
    """``count`` moves from a Stalactites race's opening ``board`` (``started``'s ``state``)
    after each of which a move is left: the first legal move each time can fill both cells
    and lose the game before the player means to stop."""
    assert board["game"] == "stalactites", board["game"]
    game = board_game(board)

    def search(left: int) -> bool:
        if left == 0:
            return True
        for move in game.generate_legal_moves():
            game.push(move)
            if game.status is Status.PLAYING and search(left - 1):
                return True
            game.pop()
        return False

    assert search(count), f"no {count} moves that leave a move to play: {board}"
    return [str(move) for move in game.move_stack]


def end_process(process: subprocess.Popen[Any], sig: int = signal.SIGTERM) -> None:
    """Stop a child process with ``sig``, and SIGKILL it if it is still there after 10 s."""
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
