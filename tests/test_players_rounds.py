"""Tournament rounds on players' histories, over real websockets on both stores (and on two
processes on Redis, one killed mid-round): an entrant who enters with a session is that
player in every round (the round's seat, a hello by the session, each finished round in
their history and statistics, saying which tournament and round); an entrant without one
stays a guest; bad entries are refused and change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from players_kit import anonymous, api, recorded
from server_kit import Client, Spawn, play, resign, winning_line
from tournament_kit import Watcher, new_tournament, seat_in_round, start, view

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")
SETTINGS: dict[str, Any] = {
    "step": "ones",
    "rounds": 2,
    "round_time_s": 60,
    "break_s": 0,
    "deals": [DEAL, DEAL],
}


async def _enter(base: str, tournament_id: str, token: str | None, **body: Any) -> Any:
    url = f"{base}/api/tournaments/{tournament_id}/players"
    status, answer, _ = await api("POST", url, body, token)
    return status, answer


async def test_an_entrant_with_a_session_has_every_round_in_their_history(
    any_server: Any,
) -> None:
    base = any_server.url
    ann = await anonymous(base)
    tournament_id, admin = await new_tournament(base, **SETTINGS)
    status, ann_entry = await _enter(base, tournament_id, ann["token"])
    assert status == 201 and ann_entry["player_id"] == ann["player_id"]
    status, bob_entry = await _enter(base, tournament_id, None, name="Bob")
    assert status == 201 and not bob_entry["player_id"].startswith("p.")
    shown = await view(base, tournament_id)
    assert [line["name"] for line in shown["standings"]].count(ann["name"]) == 1
    watcher = await Watcher.open(base, tournament_id)
    await watcher.hello(spectator=True)
    status, body, _ = await start(base, tournament_id, f"Bearer {admin}")
    assert status == 200, body

    # Round 1: Ann (by her tournament token) wins, Bob resigns.
    first = (await watcher.expect("round_started", round=1))["room_id"]
    ann_seat = await seat_in_round(any_server, first, ann_entry["token"])
    bob_seat = await seat_in_round(any_server, first, bob_entry["token"])
    assert ann_seat.you == ann["player_id"]
    await play(ann_seat, LINE, "a")
    await resign(bob_seat)
    await watcher.expect("round_finished", round=1)

    # Round 2: Ann says hello with her session instead; both resign, Bob first.
    second = (await watcher.expect("round_started", round=2))["room_id"]
    ann_seat = await seat_in_round(any_server, second, ann["token"])
    bob_seat = await seat_in_round(any_server, second, bob_entry["token"])
    await play(ann_seat, LINE[:3], "b")
    await resign(bob_seat)
    await resign(ann_seat)
    await watcher.expect("finished")

    races = await recorded(base, ann["player_id"], 2)
    assert [race["room_id"] for race in races] == [second, first]  # newest first
    rounds = [race["tournament"] for race in races]
    assert rounds == [
        {"tournament_id": tournament_id, "name": "Cup", "round": 2},
        {"tournament_id": tournament_id, "name": "Cup", "round": 1},
    ]
    latest, earliest = races
    assert (earliest["place"], earliest["players"], earliest["status"]) == (1, 2, "won")
    assert (earliest["game"], earliest["deal"], earliest["foundation_cards"]) == (
        "stalactites",
        DEAL,
        52,
    )
    assert (latest["place"], latest["players"], latest["status"]) == (1, 2, "resigned")
    assert all(race["rated"] is False and race["rating_before"] is None for race in races)
    status, profile, _ = await api("GET", f"{base}/api/players/{ann['player_id']}")
    assert status == 200 and profile["ratings"]["stalactites"]["races"] == 0  # unrated
    ones = profile["stats"]["stalactites:ones"]
    assert (ones["races"], ones["wins"], ones["streak"]) == (2, 1, 0)
    for number, room_id in enumerate((first, second), 1):  # the replay link: the room kept
        status, record, _ = await api("GET", f"{base}/api/rooms/{room_id}/record")
        assert status == 200 and record["room_id"] == room_id
        status, room, _ = await api("GET", f"{base}/api/rooms/{room_id}")
        named = {"tournament_id": tournament_id, "name": "Cup", "round": number}
        assert status == 200 and room["tournament"] == named
    status, room, _ = await api("POST", f"{base}/api/rooms", {})
    assert status == 201 and room["tournament"] is None  # a room that is no round
    status, _, _ = await api("GET", f"{base}/api/players/{bob_entry['player_id']}")
    assert status == 404  # the guest has no profile and no history


async def test_a_second_entry_of_the_same_player_is_refused_and_changes_nothing(
    any_server: Any,
) -> None:
    base = any_server.url
    ann = await anonymous(base)
    tournament_id, _ = await new_tournament(base, **SETTINGS)
    status, _ = await _enter(base, tournament_id, ann["token"], name="Annie")
    assert status == 201
    status, answer = await _enter(base, tournament_id, ann["token"])
    assert status == 409 and answer["code"] == "already_entered"
    standings = (await view(base, tournament_id))["standings"]
    assert [(line["player_id"], line["name"]) for line in standings] == [
        (ann["player_id"], "Annie")
    ]


@pytest.mark.parametrize(
    ("token", "body", "status", "code"),
    [
        ("p.0123456789abcdef~" + "A" * 43, {"name": "Ann"}, 401, "unauthorized"),
        ("not-a-session", {"name": "Ann"}, 401, "unauthorized"),
        (None, {}, 422, "bad_message"),
        (None, {"name": ""}, 422, "bad_message"),
    ],
)
async def test_a_bad_entry_is_refused_with_its_code_and_enters_no_one(
    any_server: Any, token: str | None, body: dict[str, Any], status: int, code: str
) -> None:
    base = any_server.url
    tournament_id, _ = await new_tournament(base, **SETTINGS)
    answered, answer = await _enter(base, tournament_id, token, **body)
    assert (answered, answer["code"]) == (status, code)
    if code == "bad_message":
        assert answer["field"] == "name"
    assert (await view(base, tournament_id))["standings"] == []


async def test_an_entry_with_the_session_cookie_from_another_site_is_refused(
    any_server: Any,
) -> None:
    base = any_server.url
    ann = await anonymous(base)
    tournament_id, _ = await new_tournament(base, **SETTINGS)
    cookie = {"Cookie": f"stalactites_session={ann['token']}", "Origin": "https://evil.example"}
    url = f"{base}/api/tournaments/{tournament_id}/players"
    status, answer, _ = await api("POST", url, {}, headers=cookie)
    assert status == 403 and answer["code"] == "bad_origin"
    own = {"Cookie": f"stalactites_session={ann['token']}", "Origin": base}
    status, entry, _ = await api("POST", url, {}, headers=own)
    assert status == 201 and entry["player_id"] == ann["player_id"]


async def test_a_stranger_session_has_no_seat_in_a_round(any_server: Any) -> None:
    base = any_server.url
    ann, eve = await anonymous(base), await anonymous(base)
    tournament_id, admin = await new_tournament(base, **SETTINGS)
    await _enter(base, tournament_id, ann["token"])
    await _enter(base, tournament_id, None, name="Bob")
    status, shown, _ = await start(base, tournament_id, f"Bearer {admin}")
    assert status == 200, shown
    stranger = await Client.open(any_server.ws_url(shown["current_round"]["room_id"]))
    await stranger.send(type="hello", token=eve["token"])
    assert (await stranger.recv())["code"] == "unauthorized"


async def test_a_round_on_two_processes_one_killed_is_in_the_history_once(
    spawn: Spawn,
) -> None:
    one, two = spawn(), spawn()
    ann = await anonymous(one.url)
    settings = {**SETTINGS, "rounds": 1, "deals": [DEAL]}
    tournament_id, admin = await new_tournament(one.url, **settings)
    status, ann_entry = await _enter(two.url, tournament_id, ann["token"])
    assert status == 201 and ann_entry["player_id"] == ann["player_id"]
    status, bob_entry = await _enter(one.url, tournament_id, None, name="Bob")
    assert status == 201
    status, shown, _ = await start(one.url, tournament_id, f"Bearer {admin}")
    assert status == 200, shown
    room_id = shown["current_round"]["room_id"]
    ann_seat = await seat_in_round(one, room_id, ann["token"])  # by her session
    await play(ann_seat, LINE[: len(LINE) // 2], "a")
    one.kill()  # the process that began the round
    ann_seat = await seat_in_round(two, room_id, ann["token"])
    await play(ann_seat, LINE[len(LINE) // 2 :], "b")
    await resign(await seat_in_round(two, room_id, bob_entry["token"]))
    races = await recorded(two.url, ann["player_id"])
    assert [(race["room_id"], race["status"], race["tournament"]["round"]) for race in races] == [
        (room_id, "won", 1)
    ]
    status, profile, _ = await api("GET", f"{two.url}/api/players/{ann['player_id']}")
    assert status == 200 and profile["stats"]["stalactites:ones"]["races"] == 1
