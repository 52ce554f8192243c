"""Every HTTP route refuses a body over ``STALACTITES_MAX_BODY_BYTES`` with 413 before it runs:
the routes walked from the app itself, each method each takes, the body sent with a
Content-Length and chunked (no length: counted as its bytes arrive)."""

from __future__ import annotations

import asyncio
import json
import re
import socket
from typing import Any

import pytest
from starlette.routing import Mount, Route

from players_kit import anonymous
from server_kit import InProcessServer, http

PARAM = re.compile(r"\{(\w+)(?::\w+)?\}")
VALUES = {"game": "stalactites", "date": "2026-12-01"}  # any other path parameter: "x"
PIECE = 1024  # bytes in each chunk of a chunked body


def padded(size: int) -> bytes:
    """A JSON object of ``size`` bytes (``{}`` and blanks): a body every route would take."""
    return b"{" + b" " * (size - 2) + b"}"


def requests_of(server: InProcessServer) -> list[tuple[str, str]]:
    """(method, path) for every method of every HTTP route of the app, its parameters filled."""
    found = []
    for route in server.app.routes:
        if isinstance(route, Route):
            path = PARAM.sub(lambda m: VALUES.get(m.group(1), "x"), route.path)
            found += [(method, path) for method in sorted(route.methods or ())]
        elif isinstance(route, Mount):  # the web client's files
            found += [("GET", route.path + "/"), ("HEAD", route.path + "/")]
    return found


def raw_request(
    port: int, method: str, path: str, body: bytes, token: str, *, chunked: bool, length: int
) -> tuple[int, bytes]:
    """(status, body) of one request written by hand: ``Content-Length: length`` (``body``
    may be less of it) or ``Transfer-Encoding: chunked``.  The server may answer and close
    before reading it all: a refused write is fine."""
    head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json"]
    head += [f"Authorization: Bearer {token}", "Connection: close"]
    if chunked:
        head.append("Transfer-Encoding: chunked")
        pieces = [body[i : i + PIECE] for i in range(0, len(body), PIECE)]
        payload = b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in pieces) + b"0\r\n\r\n"
    else:
        head.append(f"Content-Length: {length}")
        payload = body
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        try:
            sock.sendall("\r\n".join(head).encode() + b"\r\n\r\n" + payload)
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass
    status_line, _, rest = answer.partition(b"\r\n")
    assert status_line.startswith(b"HTTP/1.1 "), (method, path, answer[:200])
    return int(status_line.split()[1]), rest.partition(b"\r\n\r\n")[2]


async def send(
    server: InProcessServer,
    method: str,
    path: str,
    body: bytes,
    token: str,
    *,
    chunked: bool,
    length: int | None = None,
) -> tuple[int, bytes]:
    port = int(server.url.rsplit(":", 1)[1])
    size = len(body) if length is None else length
    return await asyncio.to_thread(
        raw_request, port, method, path, body, token, chunked=chunked, length=size
    )


def refusal(status: int, body: bytes, method: str) -> dict[str, Any]:
    assert status == 413
    return {} if method == "HEAD" else dict(json.loads(body))


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
@pytest.mark.slow  # a server process
async def test_every_route_answers_413_to_a_body_over_the_cap(
    server: InProcessServer, chunked: bool
) -> None:
    session = await anonymous(server.url)
    over = padded(server.config.max_body_bytes + 1)
    walked = requests_of(server)
    assert ("POST", "/api/daily/stalactites/attempts") in walked
    assert ("GET", "/healthz") in walked and ("PATCH", "/api/me") in walked
    answers = {}
    for method, path in walked:
        status, body = await send(server, method, path, over, session["token"], chunked=chunked)
        answers[(method, path)] = status, body
    wrong = {request: status for request, (status, _) in answers.items() if status != 413}
    assert wrong == {}
    for (method, _), (status, body) in answers.items():
        if method != "HEAD":
            assert refusal(status, body, method)["code"] == "bad_message"


async def test_a_declared_mebibyte_is_refused_before_it_is_sent(server: InProcessServer) -> None:
    """The daily deal's attempts took a 1 MiB body with 201: the route ignores its body."""
    session = await anonymous(server.url)
    path = "/api/daily/stalactites/attempts"
    status, _ = await send(
        server, "POST", path, padded(64), session["token"], chunked=False, length=1 << 20
    )
    assert status == 413


@pytest.mark.slow  # a server process
async def test_a_chunked_body_over_the_cap_makes_no_room_and_one_at_the_cap_does(
    server: InProcessServer,
) -> None:
    session = await anonymous(server.url)
    cap = server.config.max_body_bytes
    before = await waiting_rooms(server)
    status, _ = await send(server, "POST", "/api/rooms", padded(cap + 1), "-", chunked=True)
    assert status == 413
    assert await waiting_rooms(server) == before  # refused before the route ran
    status, body = await send(
        server, "POST", "/api/rooms", padded(cap), session["token"], chunked=True
    )
    assert status == 201, body
    assert await waiting_rooms(server) == before | {json.loads(body)["room_id"]}


async def waiting_rooms(server: InProcessServer) -> set[str]:
    status, page = await http("GET", f"{server.url}/api/rooms?status=waiting&limit=100")
    assert status == 200
    return {room["room_id"] for room in page["rooms"]}
