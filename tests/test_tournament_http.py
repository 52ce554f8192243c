"""The tournament HTTP API: creating, entering, starting with the admin token, and its errors.

A refused request answers with a code and a message and changes nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from server_kit import InProcessServer, ManualClock, http
from tournament_kit import enter, new_tournament, start, view


async def test_a_new_tournament_has_the_settings_asked_for_and_defaults(
    server: InProcessServer,
) -> None:
    status, body = await http("POST", f"{server.url}/api/tournaments", {"name": "Spring Cup"})
    assert status == 201 and set(body) == {"tournament_id", "admin_token"}
    assert len(body["admin_token"]) >= 32  # 256 random bits, url-safe
    shown = await view(server.url, body["tournament_id"])
    assert {key: shown[key] for key in ("name", "game", "step", "rounds", "status")} == {
        "name": "Spring Cup",
        "game": "stalactites",
        "step": "choice",
        "rounds": 3,
        "status": "scheduled",
    }
    assert (shown["round_time_s"], shown["break_s"], shown["max_players"]) == (300, 30, 100)
    assert shown["starts_at"] is None and shown["round"] is None and shown["entrants"] == 0
    tournament_id, _ = await new_tournament(server.url, game="squadron", rounds=1)
    assert (await view(server.url, tournament_id))["step"] is None


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "name"),
        ({"name": ""}, "name"),
        ({"name": "   "}, "name"),
        ({"name": "Cup", "rounds": 21}, "rounds"),
        ({"name": "Cup", "rounds": 0}, "rounds"),
        ({"name": "Cup", "round_time_s": 59}, "round_time_s"),
        ({"name": "Cup", "round_time_s": 3601}, "round_time_s"),
        ({"name": "Cup", "break_s": 601}, "break_s"),
        ({"name": "Cup", "max_players": 1}, "max_players"),
        ({"name": "Cup", "max_players": 1001}, "max_players"),
        ({"name": "Cup", "rounds": "3"}, "rounds"),
        ({"name": "Cup", "game": "klondike"}, "game"),
        ({"name": "Cup", "game": "squadron", "step": "ones"}, "step"),
        ({"name": "Cup", "rounds": 2, "deals": ["ms:1"]}, "deals"),
        ({"name": "Cup", "rounds": 1, "deals": ["ms:0"]}, "deals"),
        ({"name": "Cup", "starts_at": 1}, "starts_at"),
        ({"name": "Cup", "colour": "red"}, "colour"),
    ],
)
async def test_a_bad_tournament_body_is_refused_naming_the_field(
    server: InProcessServer, body: dict[str, Any], field: str
) -> None:
    status, answer = await http("POST", f"{server.url}/api/tournaments", body)
    assert status == 422, answer
    assert (answer["code"], answer["field"]) == ("bad_message", field)
    assert answer["message"].startswith(field)


async def test_a_body_that_is_not_a_json_object_is_refused(server: InProcessServer) -> None:
    for raw in ("{not json", "[1, 2]"):
        status, answer = await http("POST", f"{server.url}/api/tournaments", raw)
        assert (status, answer["code"], answer["field"]) == (422, "bad_message", None)


async def test_entrants_are_taken_until_the_tournament_is_full(server: InProcessServer) -> None:
    tournament_id, _ = await new_tournament(server.url, max_players=2)
    ann_id, ann_token = await enter(server.url, tournament_id, "Ann")
    assert len(ann_id) == 16 and len(ann_token) >= 32
    await enter(server.url, tournament_id, "Bob")
    url = f"{server.url}/api/tournaments/{tournament_id}/players"
    status, answer = await http("POST", url, {"name": "Cat"})
    assert (status, answer["code"]) == (409, "tournament_full")
    status, answer = await http("POST", url, {"name": "x" * 25})
    assert (status, answer["field"]) == (422, "name")
    shown = await view(server.url, tournament_id)
    assert shown["entrants"] == 2
    lines = sorted((s["name"], s["points"], s["rank"]) for s in shown["standings"])
    assert lines == [("Ann", 0, 1), ("Bob", 0, 1)]  # entered, level before any round


async def test_an_unknown_tournament_is_not_found(server: InProcessServer) -> None:
    for method, path, body in [
        ("GET", "/api/tournaments/nope", None),
        ("GET", "/api/tournaments/no%20such", None),
        ("POST", "/api/tournaments/nope/players", {"name": "Ann"}),
    ]:
        status, answer = await http(method, f"{server.url}{path}", body)
        assert (status, answer["code"]) == (404, "tournament_not_found")
    status, answer, _ = await start(server.url, "nope", "Bearer whatever")
    assert (status, answer["code"]) == (404, "tournament_not_found")


async def test_only_the_admin_token_starts_a_tournament_and_only_once(
    server: InProcessServer,
) -> None:
    tournament_id, admin = await new_tournament(server.url, rounds=1, round_time_s=60)
    await enter(server.url, tournament_id, "Ann")
    for header in (None, "Basic abc", "Bearer", f"Bearer {admin}x", f"Token {admin}"):
        status, answer, headers = await start(server.url, tournament_id, header)
        assert (status, answer["code"]) == (401, "unauthorized"), header
        assert headers.get("www-authenticate") == "Bearer"
    assert (await view(server.url, tournament_id))["status"] == "scheduled"
    status, answer, _ = await start(server.url, tournament_id, f"bearer {admin}")
    assert status == 200 and answer["status"] == "running" and answer["round"] == 1
    assert answer["starts_at"] is not None
    status, answer, _ = await start(server.url, tournament_id, f"Bearer {admin}")
    assert (status, answer["code"]) == (409, "already_started")
    url = f"{server.url}/api/tournaments/{tournament_id}/players"
    status, answer = await http("POST", url, {"name": "Late"})
    assert (status, answer["code"]) == (409, "already_started")
    assert (await view(server.url, tournament_id))["entrants"] == 1


async def test_a_start_time_is_kept_and_the_organiser_may_start_earlier(
    server: InProcessServer, clock: ManualClock
) -> None:
    starts_at = clock.now_ms() + 3_600_000
    tournament_id, admin = await new_tournament(server.url, starts_at=starts_at)
    assert (await view(server.url, tournament_id))["starts_at"] == starts_at
    await enter(server.url, tournament_id, "Ann")
    status, answer, _ = await start(server.url, tournament_id, f"Bearer {admin}")
    assert status == 200 and answer["status"] == "running"
    assert answer["starts_at"] < starts_at


async def listed(server: InProcessServer, status: str) -> dict[str, dict[str, Any]]:
    code, body = await http("GET", f"{server.url}/api/tournaments?status={status}&limit=50")
    assert code == 200, body
    return {row["tournament_id"]: row for row in body["tournaments"]}


@pytest.mark.slow
async def test_the_lobby_lists_tournaments_starting_soon_and_running(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    soon = clock.now_ms() + 600_000
    later, _ = await new_tournament(any_server.url, name="Later Cup", starts_at=soon)
    now, admin = await new_tournament(any_server.url, name="Now Cup", rounds=2)
    await enter(any_server.url, now, "Ann")
    scheduled = await listed(any_server, "scheduled")
    assert list(scheduled)[:2] == [now, later]  # the newest first
    assert scheduled[later]["starts_at"] == soon and scheduled[later]["name"] == "Later Cup"
    assert (scheduled[now]["entrants"], scheduled[now]["rounds"]) == (1, 2)
    assert scheduled[now]["deals_chosen"] is False and now not in await listed(
        any_server, "running"
    )
    status, _, _ = await start(any_server.url, now, f"Bearer {admin}")
    assert status == 200
    running = await listed(any_server, "running")
    assert (running[now]["status"], running[now]["round"]) == ("running", 1)
    assert running[now]["ends_at"] is not None
    assert now not in await listed(any_server, "scheduled")


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("", "status"),
        ("?status=finished", "status"),
        ("?status=running&limit=0", "limit"),
        ("?status=running&limit=51", "limit"),
        ("?status=running&limit=x", "limit"),
    ],
)
async def test_a_bad_tournament_list_query_is_refused_naming_the_parameter(
    server: InProcessServer, query: str, field: str
) -> None:
    status, body = await http("GET", f"{server.url}/api/tournaments{query}")
    assert (status, body["code"], body["field"]) == (422, "bad_message", field)
