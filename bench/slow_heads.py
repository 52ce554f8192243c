"""What a request head's deadline costs a slow phone: how long real heads take to arrive whole
at 3G pace, and whether ``stalactites serve`` answers them (or 408) under head deadlines of
10, 5, 2 and 1 s (``STALACTITES_HEAD_TIMEOUT_S``).

    .venv/bin/python bench/slow_heads.py

The client paces its bytes at ``RATE`` from the moment the server accepts the connection (a
client sends its head right behind the handshake's last packet), one ``WINDOW`` per round
trip, and waits a retransmission timeout (``RTO``, then twice it) before the head when its
first segment is lost once or twice.  About 75 s.
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SERVE = "import sys; from stalactites.cli import main; sys.exit(main())"


def serve(deadline: float) -> tuple[subprocess.Popen[str], int]:
    """``stalactites serve`` (in-memory store) with this head deadline; it and its port."""
    env = dict(os.environ, STALACTITES_HEAD_TIMEOUT_S=str(deadline))
    server = subprocess.Popen(
        [sys.executable, "-c", SERVE, "serve", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=REPO,
    )  # fmt: skip
    assert server.stdout is not None
    found = re.search(r":(\d+)/", server.stdout.readline())
    assert found is not None, "the server did not start"
    return server, int(found.group(1))


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes (b"" if it resets the connection)."""
    chunks = []
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(4096):
            chunks.append(chunk)
    return b"".join(chunks)


RATE = 50_000  # bytes a second: a slow 3G phone
RTT = 0.3  # seconds
RTO = 0.9  # Linux's first retransmission timeout after one 300 ms sample: srtt + 4 * rtt/2
SEGMENT = 1_460
WINDOW = 10 * SEGMENT  # TCP's first window
HEADS = {"bare, 0.4 KB": 400, "browser, 1.5 KB": 1_500, "cookies, 4 KB": 4_000}
HEADS["uvicorn's most, 16 KB"] = 15_900
LOSSES = {"none": 0.0, "1st segment lost once": RTO, "lost twice": RTO + 2 * RTO}
DEADLINES = (10.0, 5.0, 2.0, 1.0)


def main() -> None:
    """Print, for a slow phone's request heads, how long each takes to arrive whole, and
    whether a real ``stalactites serve`` answers it (or 408) under head deadlines of 10, 5, 2
    and 1 s.

    The client paces its bytes at ``RATE`` from the moment the server accepts the connection
    (a client sends its head right behind the handshake's last packet), one ``WINDOW`` per
    round trip, and waits a retransmission timeout (``RTO``, then twice it) before the head
    when its first segment is lost once or twice."""
    answered: dict[tuple[str, str], list[bool]] = {}
    took: dict[tuple[str, str], float] = {}
    for deadline in DEADLINES:
        server, port = serve(deadline)
        try:
            for name, size in HEADS.items():
                for loss, delay in LOSSES.items():
                    took[name, loss], ok = paced_head(port, size, delay)
                    answered.setdefault((name, loss), []).append(ok)
        finally:
            server.terminate()
            server.wait(10)
    print(f"{RATE // 1000} kB/s, {RTT * 1000:.0f} ms round trip, {RTO * 1000:.0f} ms first RTO")
    print(f"{'head':22} {'loss':22} whole after  " + "  ".join(f"{d:4.0f} s" for d in DEADLINES))
    for (name, loss), oks in answered.items():
        verdicts = "  ".join(" 200  " if ok else " 408  " for ok in oks)
        print(f"{name:22} {loss:22} {took[name, loss]:7.2f} s    {verdicts}")


def paced_head(port: int, size: int, lost_for: float) -> tuple[float, bool]:
    """Send a ``size``-byte GET head paced as a slow phone's: how long it took to send,
    and whether the server answered 200 (not 408)."""
    head = b"GET /healthz HTTP/1.1\r\nHost: race.example\r\nConnection: close\r\nX-Pad: "
    head += b"x" * (size - len(head) - 4) + b"\r\n\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=15) as sock:
        started = time.monotonic()
        waited = lost_for
        for offset in range(0, size, SEGMENT):
            if offset and offset % WINDOW == 0:
                waited += RTT  # the window is spent: the next one after its acknowledgement
            segment = head[offset : offset + SEGMENT]
            due = started + waited + (offset + len(segment)) / RATE
            time.sleep(max(0.0, due - time.monotonic()))
            with contextlib.suppress(OSError):  # the server has given up on it
                sock.sendall(segment)
        return time.monotonic() - started, read_all(sock).startswith(b"HTTP/1.1 200")


if __name__ == "__main__":
    main()
