"""The players' HTTP API over a real server, on both stores: sessions, accounts, profiles,
histories, leaderboards, the session cookie and its Origin check, and bad input refused with
its code and nothing changed."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from players_kit import anonymous, api, race, recorded

pytestmark = pytest.mark.usefixtures("close_clients")


def _username() -> str:
    return "u_" + uuid.uuid4().hex[:12]


async def _account(base: str, password: str = "correct horse") -> tuple[dict[str, Any], str]:
    made = await anonymous(base)
    username = _username()
    status, body, _ = await api(
        "POST",
        f"{base}/api/accounts",
        {"username": username, "password": password},
        token=made["token"],
    )
    assert status == 201, body
    return made, username


async def test_an_anonymous_player_gets_a_session_a_cookie_and_a_profile(any_server: Any) -> None:
    base = any_server.url
    status, body, headers = await api("POST", f"{base}/api/session", {})
    assert status == 201 and set(body) == {"player_id", "name", "token"}
    cookie = headers["set-cookie"]
    assert "stalactites_session=" in cookie and "HttpOnly" in cookie
    assert "SameSite=lax" in cookie and "Path=/" in cookie and "Secure" not in cookie
    status, me, _ = await api("GET", f"{base}/api/me", token=body["token"])
    assert status == 200 and me["player_id"] == body["player_id"] and me["name"] == body["name"]
    assert me["registered"] is False
    assert set(me["ratings"]) == {"stalactites", "squadron"}
    assert me["ratings"]["stalactites"]["provisional"] is True
    status, other, _ = await api("GET", f"{base}/api/players/{body['player_id']}")
    assert status == 200 and other["name"] == body["name"]


async def test_a_secure_cookie_behind_a_trusted_https_proxy(any_server: Any) -> None:
    headers = {"X-Forwarded-Proto": "https"}
    status, _, got = await api("POST", f"{any_server.url}/api/session", {}, headers=headers)
    assert status == 201 and "Secure" in got["set-cookie"]


async def test_register_sign_in_elsewhere_and_sign_out(any_server: Any) -> None:
    base = any_server.url
    made, username = await _account(base)
    status, profile, _ = await api("GET", f"{base}/api/players/{username.upper()}")
    assert status == 200 and profile["player_id"] == made["player_id"]
    assert profile["registered"] is True
    body = {"username": username.upper(), "password": "correct horse"}
    status, second, _ = await api("POST", f"{base}/api/session", body)
    assert status == 200 and second["player_id"] == made["player_id"]
    assert second["token"] != made["token"]
    status, _, _ = await api("DELETE", f"{base}/api/session", token=second["token"])
    assert status == 204
    assert (await api("GET", f"{base}/api/me", token=second["token"]))[0] == 401
    assert (await api("GET", f"{base}/api/me", token=made["token"]))[0] == 200
    status, third, _ = await api("POST", f"{base}/api/session", body)
    status, _, _ = await api("DELETE", f"{base}/api/session?everywhere=1", token=third["token"])
    assert status == 204
    assert (await api("GET", f"{base}/api/me", token=made["token"]))[0] == 401


async def test_wrong_password_and_unknown_username_get_the_same_401(any_server: Any) -> None:
    base = any_server.url
    _, username = await _account(base)
    answers = []
    for name, password in ((username, "wrong password"), (_username(), "correct horse")):
        body = {"username": name, "password": password}
        status, answer, _ = await api("POST", f"{base}/api/session", body)
        answers.append((status, answer))
    assert answers[0] == answers[1]
    assert answers[0][0] == 401 and answers[0][1]["code"] == "bad_credentials"


async def test_a_taken_username_is_409_whatever_its_case(any_server: Any) -> None:
    base = any_server.url
    _, username = await _account(base)
    other = await anonymous(base)
    body = {"username": username.upper(), "password": "another pass"}
    status, answer, _ = await api("POST", f"{base}/api/accounts", body, token=other["token"])
    assert status == 409 and answer["code"] == "username_taken"
    assert (await api("GET", f"{base}/api/me", token=other["token"]))[1]["registered"] is False


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"username": "ab", "password": "long enough"}, "bad_username", "username"),
        ({"username": "a b c", "password": "long enough"}, "bad_username", "username"),
        ({"username": "x" * 21, "password": "long enough"}, "bad_username", "username"),
        ({"username": "fine_name", "password": "short"}, "bad_password", "password"),
        ({"username": "fine_name", "password": "x" * 129}, "bad_password", "password"),
        ({"username": 7, "password": "long enough"}, "bad_username", "username"),
    ],
)
async def test_bad_accounts_are_422_naming_the_field_and_change_nothing(
    any_server: Any, body: dict[str, Any], code: str, field: str
) -> None:
    base = any_server.url
    made = await anonymous(base)
    status, answer, _ = await api("POST", f"{base}/api/accounts", body, token=made["token"])
    assert status == 422 and answer["code"] == code and answer["field"] == field
    assert (await api("GET", f"{base}/api/me", token=made["token"]))[1]["registered"] is False


@pytest.mark.parametrize(
    "token", ["", "garbage", "p.0000000000000000~" + "A" * 43, "p.zz~" + "A" * 43]
)
async def test_a_bad_or_dead_token_is_no_session(any_server: Any, token: str) -> None:
    base = any_server.url
    status, answer, _ = await api("GET", f"{base}/api/me", token=token)
    assert status == 401 and answer["code"] == "unauthorized"
    body = {"username": _username(), "password": "long enough"}
    assert (await api("POST", f"{base}/api/accounts", body, token=token))[0] == 401


async def test_who_am_i_answers_200_with_the_player_or_null(any_server: Any) -> None:
    base = any_server.url
    status, answer, headers = await api("GET", f"{base}/api/session")
    assert (status, answer) == (200, {"player": None}) and "set-cookie" not in headers
    made = (await api("POST", f"{base}/api/session", {}))[1]
    status, answer, _ = await api("GET", f"{base}/api/session", token=made["token"])
    _, me, _ = await api("GET", f"{base}/api/me", token=made["token"])
    assert status == 200 and answer == {"player": me}
    stale = {"Cookie": "stalactites_session=p.0000000000000000~" + "A" * 43}
    status, answer, headers = await api("GET", f"{base}/api/session", headers=stale)
    assert (status, answer) == (200, {"player": None})
    assert 'stalactites_session=""' in headers["set-cookie"]  # the stale cookie cleared


async def test_bad_cursors_limits_games_and_unknown_players(any_server: Any) -> None:
    base = any_server.url
    made = await anonymous(base)
    races = f"{base}/api/players/{made['player_id']}/races"
    status, page, _ = await api("GET", races)
    assert status == 200 and page == {"races": [], "next": None}
    for query, code, field in (
        ("?before=nonsense!", "bad_cursor", "before"),
        ("?before=MTIz", "bad_cursor", "before"),
        ("?limit=0", "bad_limit", "limit"),
        ("?limit=abc", "bad_limit", "limit"),
        ("?limit=101", "bad_limit", "limit"),
    ):
        status, answer, _ = await api("GET", races + query)
        assert (status, answer["code"], answer["field"]) == (422, code, field), query
    status, answer, _ = await api("GET", f"{base}/api/leaderboards/chess")
    assert (status, answer["code"], answer["field"]) == (422, "bad_game", "game")
    status, answer, _ = await api("GET", f"{base}/api/leaderboards/squadron?offset=-1")
    assert (status, answer["field"]) == (422, "offset")
    for who in ("p.0123456789abcdef", "nobody_here", "a%20b", "x" * 40):
        status, answer, _ = await api("GET", f"{base}/api/players/{who}")
        assert status == 404 and answer["code"] == "player_not_found", who
    status, answer, _ = await api("GET", f"{base}/api/players/p.0123456789abcdef/races")
    assert status == 404


async def test_leaderboards_page_and_around_me_needs_a_session(any_server: Any) -> None:
    base = any_server.url
    status, board, _ = await api("GET", f"{base}/api/leaderboards/stalactites?limit=5")
    assert status == 200 and isinstance(board["players"], list)
    status, answer, _ = await api("GET", f"{base}/api/leaderboards/stalactites?around=me")
    assert status == 401
    made = await anonymous(base)
    url = f"{base}/api/leaderboards/stalactites?around=me"
    status, board, _ = await api("GET", url, token=made["token"])
    assert status == 200 and board == {"players": []}  # provisional: not on the board


async def test_deleting_an_account_ends_its_sessions_and_frees_nothing_else(
    any_server: Any,
) -> None:
    base = any_server.url
    made, username = await _account(base)
    assert (await api("DELETE", f"{base}/api/me", token=made["token"]))[0] == 204
    assert (await api("GET", f"{base}/api/me", token=made["token"]))[0] == 401
    assert (await api("GET", f"{base}/api/players/{made['player_id']}"))[0] == 404
    assert (await api("GET", f"{base}/api/players/{username}"))[0] == 404
    assert (await api("DELETE", f"{base}/api/me"))[0] == 401


async def test_cookie_requests_that_change_state_check_their_origin(any_server: Any) -> None:
    base = any_server.url
    made = await anonymous(base)
    cookie = {"Cookie": f"stalactites_session={made['token']}"}
    host = base.removeprefix("http://")
    status, me, _ = await api("GET", f"{base}/api/me", headers=cookie)  # a read: no Origin needed
    assert status == 200 and me["player_id"] == made["player_id"]
    body = {"username": _username(), "password": "long enough"}
    for origin in ({}, {"Origin": "https://evil.example"}, {"Origin": "null"}):
        status, answer, _ = await api(
            "POST", f"{base}/api/accounts", body, headers={**cookie, **origin}
        )
        assert status == 403 and answer["code"] == "bad_origin", origin
        status, _, _ = await api("DELETE", f"{base}/api/me", headers={**cookie, **origin})
        assert status == 403
    assert (await api("GET", f"{base}/api/me", headers=cookie))[1]["registered"] is False
    same = {**cookie, "Origin": f"http://{host}"}
    status, answer, _ = await api("POST", f"{base}/api/accounts", body, headers=same)
    assert status == 201 and answer["registered"] is True
    status, _, _ = await api(
        "POST", f"{base}/api/session", {}, headers={"Origin": "https://evil.example"}
    )
    assert status == 403


async def test_bad_bodies_are_422(any_server: Any) -> None:
    base = any_server.url
    for raw in (b"not json", b"[1, 2]", b'"text"'):
        status, answer, _ = await api("POST", f"{base}/api/session", raw)
        assert status == 422 and answer["code"] == "bad_message"


async def test_renaming_once_a_day_with_its_refusals(any_server: Any) -> None:
    base = any_server.url
    made, other = await anonymous(base), await anonymous(base)
    wanted = "Ann " + uuid.uuid4().hex[:8]
    status, answer, _ = await api("PATCH", f"{base}/api/me", {"name": 7}, token=made["token"])
    assert status == 422 and answer["code"] == "bad_name" and answer["field"] == "name"
    status, answer, _ = await api("PATCH", f"{base}/api/me", {"name": wanted})
    assert status == 401 and answer["code"] == "unauthorized"
    status, answer, _ = await api("PATCH", f"{base}/api/me", {"name": wanted}, token=other["token"])
    assert status == 200 and answer["name"] == wanted
    status, answer, _ = await api("PATCH", f"{base}/api/me", {"name": wanted}, token=made["token"])
    assert status == 409 and answer["code"] == "name_taken"
    again = {"name": "x" + wanted}
    status, answer, headers = await api("PATCH", f"{base}/api/me", again, token=other["token"])
    assert status == 429 and answer["code"] == "rename_too_soon" and answer["retry_at_ms"] > 0
    assert 86_000 <= int(headers["retry-after"]) <= 86_400
    assert (await api("GET", f"{base}/api/me", token=other["token"]))[1]["name"] == wanted
    assert (await api("GET", f"{base}/api/me", token=made["token"]))[1]["name"] == made["name"]


async def test_the_kits_history_reads_every_page_of_a_long_history(any_server: Any) -> None:
    """``players_kit.recorded`` counts every page (20 races a page), not the first one only."""
    base = any_server.url
    made = await anonymous(base)
    players = any_server.app.state.process.players
    for number in range(23):  # beside a player with no history of their own
        result = race(f"room{number:03d}", (made["player_id"], 1), (None, 2), rated=False)
        await any_server.call(players.record_race(result))
    status, first, _ = await api("GET", f"{base}/api/players/{made['player_id']}/races")
    assert status == 200 and len(first["races"]) == 20 and first["next"] is not None
    held = await recorded(base, made["player_id"], 23)
    assert len(held) == 23 and len({entry["room_id"] for entry in held}) == 23
