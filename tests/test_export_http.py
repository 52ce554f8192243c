"""A player's own data, ``GET /api/me/export``, over a real server on both stores: a JSON
file to keep with the profile, the account, ratings over time, every race with the
player's moves, the reports the player made, and fair play's word; limited per address."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from players_kit import anonymous, api, race_rated

pytestmark = pytest.mark.usefixtures("close_clients")

PARTS = {"schema", "exported_at", "profile", "account", "ratings", "races", "reports_made"}
PARTS |= {"fair_play"}


async def export(base: str, token: str) -> dict[str, Any]:
    status, document, headers = await api("GET", f"{base}/api/me/export", token=token)
    assert status == 200, document
    assert headers["content-type"] == "application/json"
    disposition = headers["content-disposition"]
    assert disposition.startswith("attachment; filename=") and disposition.endswith('.json"')
    return dict(document)


async def test_a_new_players_export_says_who_it_is_and_nothing_more(any_server: Any) -> None:
    base = any_server.url
    made = await anonymous(base)
    document = await export(base, made["token"])
    assert set(document) == PARTS and document["schema"] == "stalactites-export/1"
    _, me, _ = await api("GET", f"{base}/api/me", token=made["token"])
    assert document["profile"] == me
    assert document["account"] == {
        "registered": False,
        "username": None,
        "recovery_codes_left": 0,
    }
    assert document["ratings"] == {} and document["races"] == []
    assert document["reports_made"] == []
    assert document["fair_play"] == {"under_review": [], "marked": False, "appeal": None}
    status, answer, _ = await api("GET", f"{base}/api/me/export")
    assert status == 401 and answer["code"] == "unauthorized"


async def test_a_racers_export_has_every_race_its_moves_and_its_ratings(any_server: Any) -> None:
    base = any_server.url
    ann, bob = await anonymous(base), await anonymous(base)
    username = "x_" + uuid.uuid4().hex[:10]
    body = {"username": username, "password": "correct horse"}
    assert (await api("POST", f"{base}/api/accounts", body, ann["token"]))[0] == 201
    await race_rated(base, [ann, bob], 2)
    document = await export(base, ann["token"])
    assert document["account"] == {
        "registered": True,
        "username": username,
        "recovery_codes_left": 10,
    }
    _, page, _ = await api("GET", f"{base}/api/players/{ann['player_id']}/races")
    races = document["races"]
    assert [race["room_id"] for race in races] == [race["room_id"] for race in page["races"]]
    for race, entry in zip(races, page["races"], strict=True):
        assert {key: race[key] for key in entry} == entry  # the history's entry, whole
        assert race["moves"] and all(isinstance(move, str) for move in race["moves"])
    series = document["ratings"]["stalactites"]
    assert [point["room_id"] for point in series] == [race["room_id"] for race in races][::-1]
    assert series[0]["rating_after"] == series[1]["rating_before"]
    assert series[1]["rating_after"] == document["profile"]["ratings"]["stalactites"]["rating"]


async def test_the_reports_a_player_made_are_in_their_export_only(any_server: Any) -> None:
    base = any_server.url
    ann, bob = await anonymous(base), await anonymous(base)
    report = {"player_id": bob["player_id"], "reason": "abuse", "text": "Rude in the chat"}
    status, filed, _ = await api("POST", f"{base}/api/reports", report, ann["token"])
    assert status == 201, filed
    assert (await api("POST", f"{base}/api/reports", report, ann["token"]))[0] == 200  # the same
    made = (await export(base, ann["token"]))["reports_made"]
    assert len(made) == 1
    assert made[0]["at_ms"] > 0 and made[0] | {"at_ms": 0} == {
        "report_id": filed["report_id"],
        "player_id": bob["player_id"],
        "name": bob["name"],
        "reason": "abuse",
        "text": "Rude in the chat",
        "room_id": None,
        "at_ms": 0,
    }
    assert (await export(base, bob["token"]))["reports_made"] == []


@pytest.mark.own_server
async def test_exports_are_limited_per_address(server: Any) -> None:
    made = await anonymous(server.url)
    for _ in range(10):
        await export(server.url, made["token"])
    status, answer, headers = await api("GET", f"{server.url}/api/me/export", token=made["token"])
    assert status == 429 and answer["code"] == "rate_limited" and int(headers["retry-after"]) > 1
