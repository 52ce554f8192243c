"""The players' API under abuse, over HTTP on the in-memory store and a real Redis: new
anonymous players and registrations limited per address, anonymous players that expire
unless used (kept once they race or register), password hashes a few at a time, sign-in
guesses at one address that cannot lock the owner out at another, and bodies nested too
deeply to read answered 422.

Addresses: the in-process server's uvicorn trusts ``X-Forwarded-For`` from 127.0.0.1, so each
request names the client address it comes from."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import redis

from players_kit import anonymous, api, race_rated
from server_kit import REDIS_URL, InProcessServer, ManualClock, make_config
from stalactites.config import ServerConfig
from stalactites.players.hashing import HASHING_AT_ONCE
from stalactites.players.names import skeleton

pytestmark = pytest.mark.usefixtures("close_clients")

DAY_S = 86_400
IDLE_MS = 30 * DAY_S * 1000  # an anonymous player's time to live after its last use
DEFAULTS = ServerConfig()


@contextmanager
def serving(
    kind: str, prefix: str, clock: ManualClock | None = None, **changes: Any
) -> Iterator[InProcessServer]:
    url = "memory://" if kind == "memory" else REDIS_URL
    with InProcessServer(make_config(url, prefix=prefix, **changes), clock) as running:
        yield running


def _from(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


async def _new_player(base: str, address: str) -> tuple[int, Any, dict[str, str]]:
    return await api("POST", f"{base}/api/session", {}, headers=_from(address))


async def _register(base: str, made: dict[str, Any], username: str, address: str) -> int:
    body = {"username": username, "password": "correct horse"}
    status, _, _ = await api("POST", f"{base}/api/accounts", body, made["token"], _from(address))
    return status


async def _sign_in(base: str, username: str, password: str, address: str) -> tuple[int, Any]:
    body = {"username": username, "password": password}
    status, answer, headers = await api("POST", f"{base}/api/session", body, None, _from(address))
    if status == 429:
        assert answer["code"] == "rate_limited" and int(headers["retry-after"]) >= 1
    return status, answer


# 1. New anonymous players: limited per address; expiring unless used, until kept.


@pytest.mark.parametrize("kind", ["memory", "redis"])
async def test_new_anonymous_players_are_limited_per_address(kind: str, redis_prefix: str) -> None:
    with serving(kind, redis_prefix, session_address_rate=0.001, session_address_burst=5) as srv:
        for _ in range(5):
            assert (await _new_player(srv.url, "203.0.113.1"))[0] == 201
        status, answer, headers = await _new_player(srv.url, "203.0.113.1")
        assert status == 429 and answer["code"] == "rate_limited"
        assert int(headers["retry-after"]) >= 1
        assert (await _new_player(srv.url, "203.0.113.2"))[0] == 201  # another address
        status, _ = await _sign_in(srv.url, "nobody_here", "wrong password", "203.0.113.1")
        assert status == 401  # a sign-in is not a new player: its own limits


async def test_the_default_limit_stops_a_flood_of_new_players(redis_prefix: str) -> None:
    """300 new players from one address in a second were all made; the defaults make the
    burst (and one for each token come back meanwhile) and refuse the rest."""
    rate, burst = DEFAULTS.session_address_rate, DEFAULTS.session_address_burst
    changes: dict[str, Any] = {"session_address_rate": rate, "session_address_burst": burst}
    with serving("redis", redis_prefix, **changes) as srv:
        began = time.monotonic()
        answers = await asyncio.gather(
            *(_new_player(srv.url, "203.0.113.3") for _ in range(burst + 20))
        )
        took = time.monotonic() - began
    statuses = [status for status, _, _ in answers]
    assert burst <= statuses.count(201) <= burst + 1 + took * rate
    assert statuses.count(429) == len(statuses) - statuses.count(201)


def _redis_keys(prefix: str, player: dict[str, Any]) -> list[str]:
    """The three keys an anonymous player has: its record, its sessions, its name's claim."""
    tag = f"{prefix}{{player:{player['player_id']}}}"
    return [f"{tag}:player", f"{tag}:sessions", f"{prefix}{{name:{skeleton(player['name'])}}}"]


def _ttls(keys: list[str]) -> list[int]:
    """Each key's time to live in ms (-1: kept for good, -2: no such key)."""
    client = redis.Redis.from_url(REDIS_URL)
    try:
        return [int(client.pttl(key)) for key in keys]
    finally:
        client.close()


def _shorten(keys: list[str], ms: int) -> None:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        for key in keys:
            client.pexpire(key, ms)
    finally:
        client.close()


async def test_an_anonymous_player_s_keys_expire_unless_used_until_it_registers(
    redis_prefix: str, clock: ManualClock
) -> None:
    with serving("redis", redis_prefix, clock) as srv:
        made = await anonymous(srv.url)
        keys = _redis_keys(redis_prefix, made)
        assert all(IDLE_MS - 60_000 < ttl <= IDLE_MS for ttl in _ttls(keys)), _ttls(keys)
        _shorten(keys, DAY_S * 1000)  # as if it had gone unused for 29 days
        clock.advance(2 * 3600)
        assert (await api("GET", f"{srv.url}/api/me", token=made["token"]))[0] == 200
        assert all(IDLE_MS - 60_000 < ttl <= IDLE_MS for ttl in _ttls(keys)), _ttls(keys)
        assert await _register(srv.url, made, "kept_by_registering", "203.0.113.4") == 201
        assert _ttls(keys) == [-1, -1, -1]
        assert (await api("GET", f"{srv.url}/api/me", token=made["token"]))[0] == 200


async def test_an_anonymous_player_s_keys_are_kept_once_it_races(redis_prefix: str) -> None:
    with serving("redis", redis_prefix) as srv:
        ann, bob = await anonymous(srv.url), await anonymous(srv.url)
        keys = _redis_keys(redis_prefix, ann) + _redis_keys(redis_prefix, bob)
        assert all(ttl > 0 for ttl in _ttls(keys))
        await race_rated(srv.url, [ann, bob], 1)
        assert _ttls(keys) == [-1] * 6


async def test_an_anonymous_player_unused_for_30_days_is_forgotten_in_memory(
    clock: ManualClock,
) -> None:
    with serving("memory", "", clock) as srv:
        base = srv.url
        idle, used, registered, raced, other = [await anonymous(base) for _ in range(5)]
        assert await _register(base, registered, "kept_in_memory", "203.0.113.5") == 201
        await race_rated(base, [raced, other], 1)
        clock.advance(20 * DAY_S)
        assert (await api("GET", f"{base}/api/me", token=used["token"]))[0] == 200
        clock.advance(11 * DAY_S)  # 31 days after the idle one's last use
        assert (await api("GET", f"{base}/api/me", token=idle["token"]))[0] == 401
        status, _, _ = await api("GET", f"{base}/api/players/{idle['player_id']}")
        assert status == 404
        for kept in (used, registered, raced, other):
            assert (await api("GET", f"{base}/api/me", token=kept["token"]))[0] == 200
        newcomer = await anonymous(base)
        rename = f"{base}/api/me"
        status, answer, _ = await api("PATCH", rename, {"name": raced["name"]}, newcomer["token"])
        assert status == 409 and answer["code"] == "name_taken"  # a kept player's name
        status, answer, _ = await api("PATCH", rename, {"name": idle["name"]}, newcomer["token"])
        assert status == 200 and answer["name"] == idle["name"]  # the forgotten one's: free


# 2. Registrations: limited per address; password hashes a few at a time.


@pytest.mark.parametrize("kind", ["memory", "redis"])
async def test_registrations_are_limited_per_address(kind: str, redis_prefix: str) -> None:
    with serving(kind, redis_prefix, register_address_rate=0.001, register_address_burst=3) as srv:
        players = [await anonymous(srv.url) for _ in range(5)]
        for number, made in enumerate(players[:3]):
            assert await _register(srv.url, made, f"limited_{number}", "203.0.113.6") == 201
        body = {"username": "limited_3", "password": "correct horse"}
        status, answer, headers = await api(
            "POST", f"{srv.url}/api/accounts", body, players[3]["token"], _from("203.0.113.6")
        )
        assert status == 429 and answer["code"] == "rate_limited"
        assert int(headers["retry-after"]) >= 1
        assert await _register(srv.url, players[4], "limited_4", "203.0.113.7") == 201


@pytest.mark.own_server
async def test_password_hashes_run_at_most_two_at_once(server: InProcessServer) -> None:
    """Forty registrations at once took a server from 58 to 442 MiB: each argon2id hash takes
    64 MiB.  However many come, the process runs two hashes at a time, the rest waiting."""
    base = server.url
    players = [await anonymous(base) for _ in range(8)]
    hashing = server.app.state.process.players.hashing
    registering = [
        _register(base, made, f"queued_{number}", f"198.51.100.{number}")
        for number, made in enumerate(players)
    ]
    signing_in = [
        _sign_in(base, f"queued_{number}", "wrong password", f"198.51.100.{number}")
        for number in range(8, 12)
    ]
    answers: list[Any] = await asyncio.gather(*registering, *signing_in)
    assert answers[:8] == [201] * 8
    assert all(answer[0] == 401 for answer in answers[8:])
    assert hashing.most == HASHING_AT_ONCE == 2 and hashing.running == 0


# 3. Sign-in guesses at one address cannot lock the owner out at another.


def _sign_in_defaults(**changes: Any) -> dict[str, Any]:
    """The sign-in limits as shipped (the test servers turn them off), with ``changes``."""
    limits = {
        "signin_address_rate": DEFAULTS.signin_address_rate,
        "signin_address_burst": DEFAULTS.signin_address_burst,
        "signin_username_rate": DEFAULTS.signin_username_rate,
        "signin_username_burst": DEFAULTS.signin_username_burst,
    }
    return {**limits, **changes}


@pytest.mark.parametrize("kind", ["memory", "redis"])
async def test_guesses_from_one_address_leave_the_owner_signing_in_from_another(
    kind: str, redis_prefix: str
) -> None:
    with serving(kind, redis_prefix, **_sign_in_defaults()) as srv:
        owner = await anonymous(srv.url)
        assert await _register(srv.url, owner, "the_victim", "192.0.2.1") == 201
        guesses = [
            (await _sign_in(srv.url, "THE_VICTIM", f"guess {n}", "203.0.113.66"))[0]
            for n in range(8)
        ]
        assert guesses == [401] * 5 + [429] * 3
        status, answer = await _sign_in(srv.url, "the_victim", "correct horse", "192.0.2.1")
        assert status == 200 and answer["player_id"] == owner["player_id"]
        assert (await _sign_in(srv.url, "the_victim", "correct horse", "203.0.113.66"))[0] == 429


async def test_the_username_total_bounds_guesses_from_many_addresses() -> None:
    """Guesses refused at their own address take nothing from the username's total; guesses
    from several addresses use it up, and then the owner waits too (429, Retry-After)."""
    limits = _sign_in_defaults(signin_username_total_rate=0.001, signin_username_total_burst=7)
    with serving("memory", "", **limits) as srv:
        owner = await anonymous(srv.url)
        assert await _register(srv.url, owner, "many_ways", "192.0.2.2") == 201
        first = [
            (await _sign_in(srv.url, "many_ways", "guess", "203.0.113.8"))[0] for _ in range(9)
        ]
        assert first == [401] * 5 + [429] * 4  # the pair's five; the total has two left
        assert (await _sign_in(srv.url, "many_ways", "correct horse", "192.0.2.2"))[0] == 200
        assert (await _sign_in(srv.url, "many_ways", "guess", "203.0.113.9"))[0] == 401
        status, _ = await _sign_in(srv.url, "many_ways", "correct horse", "192.0.2.2")
        assert status == 429  # the total used up: the owner too
        assert (await _sign_in(srv.url, "someone_else", "guess", "192.0.2.2"))[0] == 401


# 4. Bodies nested too deeply to read.

DEEP = [b"[" * 2000 + b"]" * 2000, b'{"a":' * 2000 + b"1" + b"}" * 2000]


@pytest.mark.parametrize("body", DEEP, ids=["array", "object"])
async def test_bodies_nested_too_deeply_are_bad_messages(server: Any, body: bytes) -> None:
    made = await anonymous(server.url)
    for method, path, token in [
        ("POST", "/api/session", None),
        ("POST", "/api/accounts", made["token"]),
        ("PATCH", "/api/me", made["token"]),
    ]:
        status, answer, _ = await api(method, f"{server.url}{path}", body, token)
        assert status == 422, (path, status, answer)
        assert answer["code"] == "bad_message" and answer["field"] is None
