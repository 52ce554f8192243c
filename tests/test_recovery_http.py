"""Recovery codes over a real server, on both stores: ten at registration, shown once; a
code sets a new password once and ends every other session; two uses of one code at once,
one succeeds; a new set replaces the old; the sign-in limits count recovery attempts; bad
input is refused with its code and changes nothing."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from players_kit import anonymous, api
from server_kit import REDIS_URL, InProcessServer, make_config

pytestmark = pytest.mark.usefixtures("close_clients")

PASSWORD = "correct horse"
CODE = re.compile(r"[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}")


async def account(base: str) -> tuple[dict[str, Any], str, list[str]]:
    """A new account: its first session, username and recovery codes."""
    made = await anonymous(base)
    username = "u_" + uuid.uuid4().hex[:12]
    body = {"username": username, "password": PASSWORD}
    status, answer, _ = await api("POST", f"{base}/api/accounts", body, made["token"])
    assert status == 201, answer
    return made, username, answer["recovery_codes"]


async def recover(base: str, username: str, code: str, password: str) -> tuple[int, Any]:
    body = {"username": username, "code": code, "password": password}
    status, answer, _ = await api("POST", f"{base}/api/recover", body)
    return status, answer


async def sign_in(base: str, username: str, password: str) -> int:
    body = {"username": username, "password": password}
    return (await api("POST", f"{base}/api/session", body))[0]


async def left(base: str, token: str) -> int:
    status, answer, _ = await api("GET", f"{base}/api/me/recovery-codes", token=token)
    assert status == 200, answer
    return int(answer["left"])


async def test_registering_gives_ten_codes_shown_that_once(any_server: Any) -> None:
    base = any_server.url
    made, username, codes = await account(base)
    assert len(codes) == len(set(codes)) == 10
    assert all(CODE.fullmatch(code) for code in codes), codes
    assert len({code[:4] for code in codes}) == 10  # each named by its first group
    _, me, _ = await api("GET", f"{base}/api/me", token=made["token"])
    assert "recovery_codes" not in me and me["username"] == username
    assert await left(base, made["token"]) == 10
    anonymous_one = await anonymous(base)
    assert await left(base, anonymous_one["token"]) == 0
    assert (await api("GET", f"{base}/api/me/recovery-codes"))[0] == 401


async def test_a_code_sets_a_new_password_once_and_ends_every_other_session(
    any_server: Any,
) -> None:
    base = any_server.url
    made, username, codes = await account(base)
    other = (
        await api("POST", f"{base}/api/session", {"username": username, "password": PASSWORD})
    )[1]
    status, session = await recover(base, username.upper(), codes[3], "a new password")
    assert status == 200 and session["player_id"] == made["player_id"]
    for old in (made["token"], other["token"]):
        assert (await api("GET", f"{base}/api/me", token=old))[0] == 401
    assert (await api("GET", f"{base}/api/me", token=session["token"]))[0] == 200
    assert await sign_in(base, username, PASSWORD) == 401
    assert await sign_in(base, username, "a new password") == 200
    status, answer = await recover(base, username, codes[3], "yet another one")
    assert status == 401 and answer["code"] == "wrong_recovery_code"
    assert await sign_in(base, username, "a new password") == 200
    typed = codes[4].lower().replace("-", " ").replace("1", "l").replace("0", "o")
    status, latest = await recover(base, username, typed, "typed by hand")  # as people type
    assert status == 200 and await left(base, latest["token"]) == 8
    assert (await api("GET", f"{base}/api/me", token=session["token"]))[0] == 401


async def test_two_uses_of_one_code_at_once_only_one_succeeds(any_server: Any) -> None:
    base = any_server.url
    _, username, codes = await account(base)
    answers = await asyncio.gather(
        recover(base, username, codes[0], "first new password"),
        recover(base, username, codes[0], "second new password"),
    )
    statuses = sorted(status for status, _ in answers)
    assert statuses == [200, 401], answers
    winner = "first new password" if answers[0][0] == 200 else "second new password"
    loser = "second new password" if winner.startswith("first") else "first new password"
    assert await sign_in(base, username, winner) == 200
    assert await sign_in(base, username, loser) == 401


@pytest.mark.parametrize(
    ("change", "status", "code", "field"),
    [
        ({"code": "NOT-A-CODE"}, 422, "bad_recovery_code", "code"),
        ({"code": "ABCD-EFGH-JKMN-PQRU"}, 422, "bad_recovery_code", "code"),  # no U in codes
        ({"code": 1234}, 422, "bad_recovery_code", "code"),
        ({"password": "short"}, 422, "bad_password", "password"),
        ({"password": None}, 422, "bad_password", "password"),
        ({"code": "ABCD-EFGH-JKMN-PQRS"}, 401, "wrong_recovery_code", None),
        ({"username": "nobody_" + uuid.uuid4().hex[:8]}, 401, "wrong_recovery_code", None),
        ({"username": "no such name!"}, 401, "wrong_recovery_code", None),
    ],
)
async def test_bad_recoveries_are_refused_with_their_code_and_change_nothing(
    any_server: Any, change: dict[str, Any], status: int, code: str, field: str | None
) -> None:
    base = any_server.url
    made, username, codes = await account(base)
    body = {"username": username, "code": codes[0], "password": "a new password"} | change
    got, answer, _ = await api("POST", f"{base}/api/recover", body)
    assert (got, answer["code"], answer.get("field")) == (status, code, field), answer
    assert (await api("GET", f"{base}/api/me", token=made["token"]))[0] == 200
    assert await left(base, made["token"]) == 10
    assert await sign_in(base, username, PASSWORD) == 200


async def test_a_body_that_is_no_object_is_a_bad_message(any_server: Any) -> None:
    status, answer, _ = await api("POST", f"{any_server.url}/api/recover", [1, 2])
    assert status == 422 and answer["code"] == "bad_message"


async def test_a_new_set_needs_the_password_and_replaces_the_old_one(any_server: Any) -> None:
    base = any_server.url
    made, username, old = await account(base)
    url = f"{base}/api/me/recovery-codes"
    status, answer, _ = await api("POST", url, {"password": "wrong password"}, made["token"])
    assert status == 401 and answer["code"] == "bad_credentials"
    status, answer, _ = await api("POST", url, {"password": PASSWORD}, made["token"])
    assert status == 201 and len(answer["recovery_codes"]) == 10
    new = answer["recovery_codes"]
    assert not set(new) & set(old)
    assert (await recover(base, username, old[1], "a new password"))[0] == 401
    assert (await api("GET", f"{base}/api/me", token=made["token"]))[0] == 200  # unchanged
    status, session = await recover(base, username, new[1], "a new password")
    assert status == 200 and await left(base, session["token"]) == 9
    guest = await anonymous(base)
    status, answer, _ = await api("POST", url, {"password": PASSWORD}, guest["token"])
    assert status == 409 and answer["code"] == "not_registered"
    assert (await api("POST", url, {"password": PASSWORD}))[0] == 401


@pytest.fixture(params=["memory", "redis"])
def limited_server(request: pytest.FixtureRequest, redis_prefix: str) -> Iterator[Any]:
    """A server allowing 4 sign-in attempts per address and 2 per username."""
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


async def test_recoveries_take_from_the_sign_in_limits(limited_server: Any) -> None:
    base = limited_server.url
    made, username, codes = await account(base)
    assert await sign_in(base, username, "wrong password") == 401
    status, _ = await recover(base, username, "ABCD-EFGH-JKMN-PQRS", "a new password")
    assert status == 401  # the username's second attempt from this address
    status, answer, headers = await api(
        "POST", f"{base}/api/recover", {"username": username, "code": codes[0], "password": "x" * 9}
    )
    assert status == 429 and answer["code"] == "rate_limited" and int(headers["retry-after"]) >= 1
    assert await left(base, made["token"]) == 10  # the limited attempt was not even checked
    status, answer = await recover(base, "someone_else", codes[0], "a new password")
    assert status == 401  # the address's fourth attempt
    assert (await recover(base, "another_one", codes[0], "a new password"))[0] == 429
