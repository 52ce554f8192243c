"""What the fault campaign needs: its own Redis, server processes, a proxy that cuts
connections, racers that keep a ledger of their accepted moves, and the tally of one run.

Every fault is real: a process gets SIGKILL, ``redis-server`` is killed or shut down and
started again from its append-only file, a TCP connection is reset.  After a fault the
racers reconnect with ``last_seq`` and send again, under the same id, the move they had no
answer to; at the end :func:`check_room` compares the room's record with every move a
client saw ``accepted``.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

from websockets.exceptions import ConnectionClosed

from server_kit import Client, ProcessServer, end_process, free_port, http
from stalactites.engine import Stalactites, Status

STARTUP_S = 15.0
RECONNECT_S = 30.0


@dataclass
class Tally:
    """The campaign's figures for one run of the module."""

    faults: dict[str, int] = field(default_factory=dict)
    accepted: int = 0
    lost: int = 0
    extra: int = 0  # actions in a log that no client saw accepted (a move applied twice)
    refused_while_down: int = 0
    in_flight_stored: int = 0  # unanswered at a fault, found stored on reconnecting
    in_flight_unstored: int = 0  # unanswered at a fault, not stored: the resend stored it

    def fault(self, kind: str) -> None:
        self.faults[kind] = self.faults.get(kind, 0) + 1

    def summary(self) -> str:
        kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(self.faults.items()))
        return (
            f"fault campaign: {sum(self.faults.values())} faults injected ({kinds}); "
            f"{self.accepted} moves accepted, {self.lost} lost, {self.extra} extra in the logs; "
            f"{self.refused_while_down} moves refused while Redis was down; "
            f"moves in flight at a fault: {self.in_flight_stored} found stored, "
            f"{self.in_flight_unstored} not (stored by the resend)"
        )


TALLY = Tally()


class OwnRedis:
    """A ``redis-server`` of the test's own on a free port, persisting every write to its
    append-only file before answering (``appendfsync always``), never snapshotting."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [
            "redis-server",
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.workdir),
            "--appendonly", "yes",
            "--appendfsync", "always",
            "--save", "",
            "--logfile", str(self.workdir / "redis.log"),
        ]  # fmt: skip
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + STARTUP_S
        while not self.answers():
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.05)

    def answers(self) -> bool:
        """Whether it answers PING (with the data loaded: a loading server answers -LOADING)."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                conn.sendall(b"*1\r\n$4\r\nPING\r\n")
                return conn.recv(64).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        """SIGKILL: what was not in the append-only file is gone."""
        assert self.process is not None
        self.process.kill()
        self.process.wait(10)

    def shutdown(self) -> None:
        """A clean ``SHUTDOWN`` (the file is flushed, clients are closed)."""
        assert self.process is not None
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as conn:
            conn.sendall(b"*1\r\n$8\r\nSHUTDOWN\r\n")
            with contextlib.suppress(OSError):
                conn.recv(64)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None:
            end_process(self.process)


# A ``stalactites serve`` whose system clock reads an offset (ms) from a file the test
# writes: the rest of ``stalactites serve`` is unchanged, and a test can move time forward.
_SHIFTED = """
import os, sys, time
import stalactites.clock as clock
path = os.environ["FAULT_CLOCK_FILE"]
seen = [None, 0]
def now_ms(self):
    mtime = os.stat(path).st_mtime_ns
    if mtime != seen[0]:
        seen[0], seen[1] = mtime, int(open(path).read() or 0)
    return time.time_ns() // 1_000_000 + seen[1]
clock.SystemClock.now_ms = now_ms
from stalactites.cli import main
sys.exit(main())
"""


class ServeProcess(ProcessServer):
    """``stalactites serve --port 0`` on a Redis; its log goes to ``log``; with a clock file,
    its clock is shifted by the offset the file holds (:class:`ShiftedClock`)."""

    def __init__(
        self, redis_url: str, prefix: str, log: Path, clock_file: Path | None = None
    ) -> None:
        if clock_file is None:
            super().__init__(redis_url, prefix, log=log)
        else:
            env = {"FAULT_CLOCK_FILE": str(clock_file)}
            super().__init__(redis_url, prefix, log=log, env=env, code=_SHIFTED)


class ShiftedClock:
    """The offset file of :data:`_SHIFTED` servers; :meth:`advance` moves their time on."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset_ms = 0
        path.write_text("0")

    def advance(self, seconds: float) -> None:
        self.offset_ms += int(seconds * 1000)
        self.path.write_text(str(self.offset_ms))


class Proxy:
    """A TCP proxy in front of a port on 127.0.0.1; subclasses act on what the clients send
    (:meth:`before` may hold it, :meth:`after` may end the connection)."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self._server: asyncio.Server | None = None
        self._pairs: set[asyncio.Task[Any]] = set()  # the connections being passed on

    async def __aenter__(self) -> Self:
        self._server = await asyncio.start_server(self._pair, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        """Stop listening and end every connection still passed on, both its sockets closed
        (a socket left to the garbage collector warns in whichever test comes next)."""
        assert self._server is not None
        self._server.close()
        for pair in self._pairs:
            pair.cancel()
        await asyncio.gather(*self._pairs, return_exceptions=True)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._server.wait_closed(), 5)

    async def before(self, data: bytes) -> None:
        """Client bytes are about to go to the target."""

    def after(self, data: bytes, ends: tuple[asyncio.StreamWriter, ...]) -> bool:
        """Client bytes have gone to the target; False to stop the connection."""
        return True

    async def _pair(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        pair = asyncio.current_task()
        assert pair is not None
        self._pairs.add(pair)
        opened = [writer]
        pumps: list[asyncio.Task[None]] = []
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
            opened.append(up_writer)
            ends = (writer, up_writer)
            pumps.append(asyncio.create_task(self._pump(reader, up_writer, ends, upward=True)))
            pumps.append(asyncio.create_task(self._pump(up_reader, writer, ends, upward=False)))
            await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for pump in pumps:
                pump.cancel()
            await asyncio.gather(*pumps, return_exceptions=True)
            for end in opened:
                end.close()
            await asyncio.gather(*(end.wait_closed() for end in opened), return_exceptions=True)
            self._pairs.discard(pair)

    async def _pump(
        self,
        source: asyncio.StreamReader,
        sink: asyncio.StreamWriter,
        ends: tuple[asyncio.StreamWriter, ...],
        upward: bool,
    ) -> None:
        while data := await source.read(1 << 16):
            if upward:
                await self.before(data)
            sink.write(data)
            await sink.drain()
            if upward and not self.after(data, ends):
                return


class CutProxy(Proxy):
    """In front of a server: :meth:`cut_next` makes it reset both sides of a connection right
    after it has passed the client's next bytes on to the server, so the server may get the
    frame and the client never gets the answer."""

    def __init__(self, target_port: int) -> None:
        super().__init__(target_port)
        self._armed = False
        self.cuts = 0

    def ws_url(self, room_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/rooms/{room_id}"

    def cut_next(self) -> None:
        self._armed = True

    def after(self, data: bytes, ends: tuple[asyncio.StreamWriter, ...]) -> bool:
        if not self._armed:
            return True
        self._armed = False
        self.cuts += 1
        for end in ends:
            reset(end.transport)
        return False


class StallProxy(Proxy):
    """In front of Redis: once stalled (by :meth:`stall`, or when a command containing
    ``marker`` has gone through) nothing more from any server connection reaches Redis,
    while replies still come back, as when the network stalls one way; :meth:`release`
    lets what was held go on."""

    def __init__(self, target_port: int) -> None:
        super().__init__(target_port)
        self.marker: bytes | None = None
        self.stalled = asyncio.Event()
        self._released = asyncio.Event()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stall(self) -> None:
        self.stalled.set()

    def release(self) -> None:
        self._released.set()

    async def before(self, data: bytes) -> None:
        if self.stalled.is_set():
            await self._released.wait()

    def after(self, data: bytes, ends: tuple[asyncio.StreamWriter, ...]) -> bool:
        if self.marker is not None and self.marker in data:
            self.stalled.set()
        return True


def reset(transport: asyncio.BaseTransport) -> None:
    """Close a connection with a TCP reset (linger 0): no FIN, no close frame."""
    raw = transport.get_extra_info("socket")
    if raw is not None:
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    assert isinstance(transport, asyncio.Transport)
    transport.abort()


@dataclass
class Racer:
    """A player with a line to play, the moves their client saw accepted (id -> move, in
    order) and the move sent but not yet answered."""

    name: str
    token: str
    line: list[str]
    tag: str
    client: Client | None = None
    player_id: str = ""
    accepted: dict[str, str] = field(default_factory=dict)
    states: dict[str, Any] = field(default_factory=dict)  # id -> the board it answered
    pending: str | None = None
    last_seq: int = 0

    @property
    def done(self) -> int:
        return len(self.accepted)

    def move_id(self, index: int) -> str:
        return f"{self.tag}{index}"

    def note(self, answer: dict[str, Any]) -> None:
        """Record an answer: an accepted move joins the ledger once (a duplicate answer must
        repeat the first one)."""
        assert answer["type"] == "accepted", answer
        move_id = answer["id"]
        if move_id in self.accepted:
            assert self.accepted[move_id] == answer["move"], answer
            assert self.states[move_id] == answer["state"], answer
            return
        assert move_id == self.move_id(self.done), (move_id, self.done)
        assert answer["move"] == self.line[self.done], answer
        self.accepted[move_id] = answer["move"]
        self.states[move_id] = answer["state"]
        if self.pending == move_id:
            self.pending = None

    async def play(self, count: int) -> None:
        """Play the next ``count`` moves of the line, each answered before the next."""
        assert self.client is not None and self.pending is None
        for _ in range(count):
            index = self.done
            self.note(await self.client.move(self.move_id(index), self.line[index]))
        self.last_seq = self.client.last_seq

    async def send_unanswered(self) -> None:
        """Send the next move and read nothing: a fault comes before its answer."""
        assert self.client is not None and self.pending is None
        self.pending = self.move_id(self.done)
        self.last_seq = self.client.last_seq
        await self.client.send(type="move", id=self.pending, move=self.line[self.done])

    async def resume(self, ws_url: str, unapplied: bool = False) -> dict[str, Any]:
        """Reconnect (retrying while the server or its Redis is down) with ``last_seq``;
        then send the unanswered move again under its id.  The welcome shows the board of
        the last accepted move (or of the unanswered one, unless it is known ``unapplied``)."""
        welcome = await reconnect(self, ws_url)
        last = self.states[self.move_id(self.done - 1)] if self.done else None
        if self.done and (self.pending is None or unapplied):
            assert welcome["state"] == last, (self.name, welcome["state"])
        if self.pending is not None and self.done:
            if welcome["state"] == last:
                TALLY.in_flight_unstored += 1
            else:
                TALLY.in_flight_stored += 1
        if self.pending is not None:
            assert self.client is not None
            self.note(await self.client.move(self.pending, self.line[self.done]))
        return welcome


async def reconnect(racer: Racer, ws_url: str) -> dict[str, Any]:
    """A new socket for the racer, said hello with its ``last_seq``; a refused or failed
    hello (the server is still reaching its store) is tried again shortly."""
    deadline = time.monotonic() + RECONNECT_S
    last: Any = None
    while time.monotonic() < deadline:
        if racer.client is not None:
            with contextlib.suppress(Exception):
                await racer.client.close()
        try:
            client = await Client.open(ws_url, max_queue=None)
            client.token = racer.token
            await client.send(type="hello", token=racer.token, last_seq=racer.last_seq)
            welcome = await client.recv()
        except (OSError, ConnectionClosed, TimeoutError) as error:
            last = error
            await asyncio.sleep(0.2)
            continue
        racer.client = client
        if welcome["type"] == "welcome":
            assert welcome["resumed"] is True, welcome
            client.last_seq, client.you = welcome["seq"], welcome["you"]
            racer.player_id = welcome["you"]
            return welcome
        assert welcome == {**welcome, "type": "error", "code": "internal"}, welcome
        last = welcome
        await asyncio.sleep(0.2)
    raise AssertionError(f"{racer.name} could not reconnect: {last!r}")


async def connect(racer: Racer, ws_url: str) -> None:
    """The racer's first socket."""
    client = await Client.open(ws_url, max_queue=None)
    client.token = racer.token
    welcome = await client.hello(racer.token)
    racer.client, racer.player_id = client, welcome["you"]
    racer.last_seq = client.last_seq


async def check_room(base: str, room_id: str, racers: list[Racer], deal: str) -> dict[str, Any]:
    """The finished room's record against the ledgers: every accepted move is there exactly
    once and in order, nothing else is; each board replays through the engine to the
    reported results.  Counts into the tally; the record."""
    status, record = await http("GET", f"{base}/api/rooms/{room_id}/record")
    assert status == 200, record
    players = {line["player_id"]: line for line in record["players"]}
    for racer in racers:
        line = players[racer.player_id]
        stored: list[str] = line["record"]["moves"]
        ledger = list(racer.accepted.values())
        TALLY.accepted += len(ledger)
        TALLY.lost += sum(
            1 for index, move in enumerate(ledger) if stored[index : index + 1] != [move]
        )
        TALLY.extra += max(len(stored) - len(ledger), 0)
        assert stored == ledger, (racer.name, stored, ledger)
        game = Stalactites(deal, "ones")
        for move in stored:
            game.push(move)
        assert line["moves"] == len(stored), line
        assert line["foundation_cards"] == game.foundation_cards, line
        if game.outcome().status is Status.WON:
            assert line["status"] == "won", line
        else:
            assert line["status"] in ("resigned", "timeout", "lost"), line
    result: dict[str, Any] = record
    return result
