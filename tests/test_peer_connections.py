"""A client address's connections are counted from the moment each is accepted: a burst from
one address past ``STALACTITES_ADDRESS_CONNECTIONS`` is refused inside ``accept`` and cannot
spend the process's descriptors, however many arrive at once.  Real sockets to a real
``stalactites serve`` process under a 128 open-file limit; the burst waits in the kernel's
accept queue (the server stopped with SIGSTOP) so that the server meets it all in one go, as
a busy server does.  127.0.0.1 is a client here, not a trusted proxy; "another address" is
127.0.0.2 (the loopback network takes any 127/8).

Run as a script, the module measures what a head deadline costs a slow client instead
(``python tests/test_peer_connections.py``; see :func:`measure_slow_heads`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server_kit import SERVE, ProcessServer
from stalactites.web.transport import REFUSED

pytestmark = pytest.mark.slow  # server processes

OPEN_FILES = 128  # the server's soft and hard open-file limit here
CAP = 16
BURST = CAP + OPEN_FILES  # more than the server has descriptors for
CAPPED = {
    "STALACTITES_ADDRESS_CONNECTIONS": str(CAP),
    "STALACTITES_HEAD_TIMEOUT_S": "1",
    "FORWARDED_ALLOW_IPS": "10.255.255.1",  # 127.0.0.1 is a client here, not a trusted proxy
}
OTHER = "127.0.0.2"
OUT_OF_DESCRIPTORS = "socket.accept() out of system resource"  # asyncio's log message
NOFILE = f"import resource; resource.setrlimit(resource.RLIMIT_NOFILE, ({OPEN_FILES},) * 2)"
LIMITED = f"{NOFILE}; {SERVE}"  # serve's raise to the hard limit leaves it there
HALF_A_HEAD = b"GET /healthz HTTP/1.1\r\nHost: x\r\n"


def limited_server(log: Path, **env: str) -> ProcessServer:
    """``stalactites serve`` under an open-file limit of ``OPEN_FILES``, its log in ``log``."""
    return ProcessServer(None, log=log, env={**CAPPED, **env}, code=LIMITED)


@contextlib.contextmanager
def stopped(server: ProcessServer) -> Iterator[None]:
    """The server stopped (SIGSTOP) for the block: what connects meanwhile waits, accepted by
    the kernel, for the server to accept it once it goes on (SIGCONT)."""
    os.kill(server.process.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(server.process.pid, signal.SIGCONT)


def half_heads(port: int, count: int) -> list[socket.socket]:
    """``count`` connections from 127.0.0.1 that each send half a request head."""
    heads = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(HALF_A_HEAD)
        heads.append(sock)
    return heads


def request_from(address: str, port: int) -> socket.socket:
    """A connection from ``address`` that has sent a whole GET /healthz."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(address, 0))
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    return sock


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes (b"" if it resets the connection)."""
    chunks = []
    try:
        while chunk := sock.recv(4096):
            chunks.append(chunk)
    except ConnectionResetError:  # closed with the head unread: the kernel sends a reset
        pass
    return b"".join(chunks)


def still_open(sock: socket.socket) -> bool:
    """Whether the server has neither answered nor closed ``sock`` (asked without waiting)."""
    sock.setblocking(False)
    try:
        sock.recv(1)
    except BlockingIOError:
        return True
    except ConnectionResetError:
        return False
    finally:
        sock.settimeout(5)
    return False


def close_all(socks: list[socket.socket]) -> None:
    for sock in socks:
        sock.close()


def test_a_burst_from_one_address_is_refused_as_it_is_accepted(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = limited_server(log, STALACTITES_HEAD_TIMEOUT_S="5")  # the held ones stay a while
    heads: list[socket.socket] = []
    try:
        with stopped(server):
            heads = half_heads(server.port, BURST)
            other = request_from(OTHER, server.port)  # waits behind the whole burst
            resumed = time.monotonic()
        answer = read_all(other)
        waited = time.monotonic() - resumed
        other.close()
        assert answer.startswith(b"HTTP/1.1 200"), answer[:80]
        refusals = [read_all(head) for head in heads[CAP:]]
        assert all(refusal in (b"", REFUSED) for refusal in refusals), "closed at once, or 503"
        assert all(still_open(head) for head in heads[:CAP]), "the first 16 are held"
        assert OUT_OF_DESCRIPTORS not in log.read_text(), "the burst spent every descriptor"
        assert waited < 0.5, f"another address waited {waited:.2f} s for its answer"
    finally:
        close_all(heads)
        server.stop()


def test_an_address_gets_its_places_back_as_its_connections_close(tmp_path: Path) -> None:
    server = limited_server(tmp_path / "server.log")
    heads: list[socket.socket] = []
    try:
        with stopped(server):
            heads = half_heads(server.port, CAP + 1)
        assert read_all(heads[CAP]) in (b"", REFUSED), "the seventeenth is refused"
        for head in heads[:CAP]:  # each is closed after its head's deadline (1 s)
            assert read_all(head).startswith(b"HTTP/1.1 408")
        again = request_from("127.0.0.1", server.port)
        assert read_all(again).startswith(b"HTTP/1.1 200"), "the address's count was released"
        again.close()
    finally:
        close_all(heads)
        server.stop()


def test_a_trusted_proxy_is_not_counted_and_running_out_is_logged_per_pause(tmp_path: Path) -> None:
    """From a trusted proxy, connections are not counted: a burst larger than the open-file
    limit does spend every descriptor, and accepting pauses for asyncio's second.  That is
    logged once each time, not once for every connection still waiting in the queue."""
    log = tmp_path / "server.log"
    server = limited_server(log, FORWARDED_ALLOW_IPS="127.0.0.1")
    heads: list[socket.socket] = []
    try:
        with stopped(server):
            heads = half_heads(server.port, BURST)
            other = request_from(OTHER, server.port)
        assert read_all(other).startswith(b"HTTP/1.1 200")
        other.close()
        held = [read_all(head) for head in heads]
        assert all(answer.startswith(b"HTTP/1.1 408") for answer in held), "none was refused"
        logged = log.read_text().count(OUT_OF_DESCRIPTORS)
        assert 1 <= logged <= 3, f"running out of descriptors was logged {logged} times"
    finally:
        close_all(heads)
        server.stop()
