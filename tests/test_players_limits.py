"""Sign-in attempts are limited per client address and per username: 429 ``rate_limited``
with ``Retry-After``, and the limited attempt is not even checked.  And the process's
background task records races a process left half-recorded."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from players_kit import anonymous, api, race, recorded
from server_kit import REDIS_URL, InProcessServer, make_config

pytestmark = pytest.mark.usefixtures("close_clients")


@pytest.fixture(params=["memory", "redis"])
def limited_server(request: pytest.FixtureRequest, redis_prefix: str) -> Iterator[Any]:
    """A server allowing 4 attempts per address and 2 per username (and few more later)."""
    url = "memory://" if request.param == "memory" else REDIS_URL
    config = make_config(
        url,
        prefix=redis_prefix,
        signin_address_rate=0.001,
        signin_address_burst=4,
        signin_username_rate=0.001,
        signin_username_burst=2,
    )
    with InProcessServer(config) as running:
        yield running


async def _sign_in(base: str, username: Any, password: str = "wrong password") -> Any:
    return await api("POST", f"{base}/api/session", {"username": username, "password": password})


async def test_attempts_per_username_then_per_address_are_limited(limited_server: Any) -> None:
    base = limited_server.url
    made = await anonymous(base)  # an anonymous session is no sign-in attempt
    body = {"username": "limited_one", "password": "correct horse"}
    assert (await api("POST", f"{base}/api/accounts", body, made["token"]))[0] == 201
    for _ in range(2):
        assert (await _sign_in(base, "LIMITED_one"))[0] == 401
    status, answer, headers = await _sign_in(base, "limited_ONE", "correct horse")
    assert status == 429 and answer["code"] == "rate_limited"
    assert int(headers["retry-after"]) >= 1
    status, answer, _ = await _sign_in(base, "someone_else")  # the address's fourth attempt
    assert status == 401 and answer["code"] == "bad_credentials"
    for username in ("another_one", 7):  # the address has used its four
        status, answer, headers = await _sign_in(base, username)
        assert status == 429 and "retry-after" in headers
    assert (await api("GET", f"{base}/api/me", token=made["token"]))[0] == 200


@pytest.fixture(params=["memory", "redis"])
def resuming_server(request: pytest.FixtureRequest, redis_prefix: str) -> Iterator[Any]:
    """A server that looks for races left half-recorded every 50 ms."""
    url = "memory://" if request.param == "memory" else REDIS_URL
    config = make_config(url, prefix=redis_prefix, players_resume_s=0.05)
    with InProcessServer(config) as running:
        yield running


async def test_a_race_left_pending_is_recorded_by_the_background_task(
    resuming_server: Any,
) -> None:
    base = resuming_server.url
    ann, bob = await anonymous(base), await anonymous(base)
    result = race("left1", (ann["player_id"], 1), (bob["player_id"], 2))
    process = resuming_server.app.state.process  # as a process that died after step 1 left it
    await resuming_server.call(process.player_store.add_pending(result.room_id, result.to_json()))
    for someone in (ann, bob):
        [entry] = await recorded(base, someone["player_id"])
        assert entry["room_id"] == "left1" and entry["rated"] is True
        _, profile, _ = await api("GET", f"{base}/api/players/{someone['player_id']}")
        assert profile["ratings"]["stalactites"]["races"] == 1
