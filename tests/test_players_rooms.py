"""Players in rooms over a real server, on both stores: rated rooms and who may sit in them,
a player's own seat, confusable names refused, the rating change in the results and the
record, and every finished race with players in their histories."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import pytest
import redis

from players_kit import anonymous, api, recorded
from server_kit import REDIS_URL, Client, lasting_moves, winning_line
from stalactites.rooms.rating import NO_PLAY_MOVES

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")
VERIFY = str(Path(sys.executable).with_name("stalactites"))


async def _room(base: str, **settings: Any) -> dict[str, Any]:
    status, body, _ = await api("POST", f"{base}/api/rooms", {"countdown_s": 0, **settings})
    assert status == 201, body
    return dict(body)


async def _sit(base: str, room_id: str, token: str | None, **body: Any) -> tuple[int, Any]:
    status, answer, _ = await api("POST", f"{base}/api/rooms/{room_id}/players", body, token)
    return status, answer


@pytest.mark.parametrize(
    "settings", [{"rated": True, "deal": "ms:4"}, {"rated": True, "seats": 1}, {"rated": "yes"}]
)
async def test_a_room_that_may_not_be_rated_is_refused(any_server: Any, settings: Any) -> None:
    status, answer, _ = await api("POST", f"{any_server.url}/api/rooms", settings)
    assert status == 422 and answer["code"] == "bad_message" and answer["field"] == "rated"


async def test_a_rated_room_seats_players_with_a_session_only_once_each(any_server: Any) -> None:
    base = any_server.url
    room = await _room(base, rated=True)
    assert room["rated"] is True and room["certified"] is True
    status, answer = await _sit(base, room["room_id"], None, name="Guest")
    assert status == 401 and answer["code"] == "session_required"
    ann = await anonymous(base)
    status, seat = await _sit(base, room["room_id"], ann["token"])
    assert status == 201 and seat["player_id"] == ann["player_id"]
    status, answer = await _sit(base, room["room_id"], ann["token"], name="Another")
    assert status == 409 and answer["code"] == "already_seated"
    status, view, _ = await api("GET", f"{base}/api/rooms/{room['room_id']}")
    assert [p["name"] for p in view["players"]] == [ann["name"]]


async def test_guests_sit_the_old_way_and_a_guest_needs_a_name(any_server: Any) -> None:
    base = any_server.url
    room = await _room(base)
    status, seat = await _sit(base, room["room_id"], None, name="Guest")
    assert status == 201 and not seat["player_id"].startswith("p.")
    status, answer = await _sit(base, room["room_id"], None)
    assert status == 422 and answer["field"] == "name"
    status, answer = await _sit(base, room["room_id"], "p.0000000000000000~" + "A" * 43)
    assert status == 401


@pytest.mark.parametrize(("first", "second"), [("ann", "\u0430nn"), ("Bob", "bob"), ("l1", "ll")])
async def test_confusable_names_in_one_room_are_refused(
    any_server: Any, first: str, second: str
) -> None:
    base = any_server.url
    room = await _room(base, seats=3)
    assert (await _sit(base, room["room_id"], None, name=first))[0] == 201
    status, answer = await _sit(base, room["room_id"], None, name=second)
    assert status == 409 and answer["code"] == "name_confusable"
    status, view, _ = await api("GET", f"{base}/api/rooms/{room['room_id']}")
    assert len(view["players"]) == 1


async def _resign_both(
    server: Any, room_id: str, tokens: list[str], moves: int = 0
) -> dict[str, Any]:
    """Both say hello with their session token, the race starts, each makes ``moves`` moves
    (the first legal one each time), both resign: the results."""
    clients = []
    for token in tokens:
        client = await Client.open(server.ws_url(room_id))
        await client.hello(token)
        clients.append(client)
    for client in clients:
        await client.send(type="ready")
    openings = [(await client.expect("started"))["state"] for client in clients]
    for client, opening in zip(clients, openings, strict=True):
        for number, move in enumerate(lasting_moves(opening, moves)):
            answer = await client.move(f"m{number}", move)
            assert answer["type"] == "accepted", answer
    for client in clients:
        await client.send(type="resign")
        await client.expect("finished", player_id=client.you, status="resigned")
    return await clients[0].expect("results")


async def test_a_rated_race_changes_ratings_once_and_shows_it(any_server: Any) -> None:
    base = any_server.url
    room = await _room(base, rated=True)
    ann, bob = await anonymous(base), await anonymous(base)
    for someone in (ann, bob):
        assert (await _sit(base, room["room_id"], someone["token"]))[0] == 201
    tokens = [ann["token"], bob["token"]]  # each plays: a resignation with no play is unrated
    results = await _resign_both(any_server, room["room_id"], tokens, NO_PLAY_MOVES)
    lines = {line["player_id"]: line for line in results["standings"]}
    for someone in (ann, bob):
        line = lines[someone["player_id"]]
        assert line["rated"] is True and line["rating_before"] is not None
        await recorded(base, someone["player_id"])
        status, profile, _ = await api("GET", f"{base}/api/players/{someone['player_id']}")
        assert profile["ratings"]["stalactites"]["races"] == 1
        assert profile["ratings"]["stalactites"]["rating"] == line["rating_after"]
        status, page, _ = await api("GET", f"{base}/api/players/{someone['player_id']}/races")
        [entry] = page["races"]
        assert entry["room_id"] == room["room_id"] and entry["rated"] is True
        assert entry["players"] == 2 and entry["place"] == line["place"]
        assert (entry["rating_before"], entry["rating_after"]) == (
            line["rating_before"],
            line["rating_after"],
        )


async def test_an_unrated_race_with_a_guest_is_in_the_players_history(any_server: Any) -> None:
    base = any_server.url
    room = await _room(base)
    assert room["rated"] is False
    ann = await anonymous(base)
    _, mine = await _sit(base, room["room_id"], ann["token"], name="Ann the first")
    _, guest = await _sit(base, room["room_id"], None, name="Guest")
    results = await _resign_both(any_server, room["room_id"], [ann["token"], guest["token"]])
    assert all(line["rated"] is False for line in results["standings"])
    await recorded(base, ann["player_id"])
    status, page, _ = await api("GET", f"{base}/api/players/{ann['player_id']}/races")
    [entry] = page["races"]
    assert entry["rated"] is False and entry["rating_before"] is None
    status, profile, _ = await api("GET", f"{base}/api/players/{ann['player_id']}")
    assert profile["ratings"]["stalactites"]["races"] == 0
    assert profile["stats"]["stalactites:none"]["races"] == 1


async def test_a_finished_room_with_players_is_kept_and_an_abandoned_one_expires(
    redis_server: Any,
) -> None:
    base, prefix = redis_server.url, redis_server.config.redis_prefix
    room = await _room(base, rated=True)
    ann, bob = await anonymous(base), await anonymous(base)
    for someone in (ann, bob):
        await _sit(base, room["room_id"], someone["token"])
    abandoned = await _room(base)
    await _sit(base, abandoned["room_id"], ann["token"])
    await _resign_both(redis_server, room["room_id"], [ann["token"], bob["token"]])
    await recorded(base, ann["player_id"])
    client = redis.Redis.from_url(REDIS_URL)
    try:
        tag = f"{prefix}{{room:{room['room_id']}}}"
        assert client.pttl(f"{tag}:room") == -1  # (resigning logs no action)
        assert 0 < client.pttl(f"{tag}:events") <= 3_600_000  # compacted after a grace
        assert client.pttl(f"{prefix}{{room:{abandoned['room_id']}}}:room") > 0
    finally:
        client.close()


async def test_a_hello_may_use_the_session_cookie_of_a_seated_player(any_server: Any) -> None:
    base = any_server.url
    room = await _room(base)
    ann, bob = await anonymous(base), await anonymous(base)
    await _sit(base, room["room_id"], ann["token"])
    for someone, answer in ((ann, "welcome"), (bob, "error")):
        cookie = {"Cookie": f"stalactites_session={someone['token']}"}
        client = await Client.open(any_server.ws_url(room["room_id"]), additional_headers=cookie)
        await client.send(type="hello", session=True)
        frame = await client.recv()
        assert frame["type"] == answer, frame
        if answer == "welcome":
            assert frame["you"] == ann["player_id"]
        else:
            assert frame["code"] == "unauthorized"


async def test_under_choice_each_players_own_step_is_recorded(any_server: Any) -> None:
    base = any_server.url
    room = await _room(base, step="choice")
    ann, bob = await anonymous(base), await anonymous(base)
    clients = []
    for someone in (ann, bob):
        assert (await _sit(base, room["room_id"], someone["token"]))[0] == 201
        client = await Client.open(any_server.ws_url(room["room_id"]))
        await client.hello(someone["token"])
        clients.append(client)
    for client in clients:
        await client.send(type="ready")
    for client in clients:
        await client.expect("started")
    await clients[0].send(type="declare_step", id="s1", step="twos")
    assert (await clients[0].answer("s1"))["type"] == "accepted"
    for client in clients:
        await client.send(type="resign")
        await client.expect("finished", player_id=client.you, status="resigned")
    for someone, step in ((ann, "twos"), (bob, "none")):  # bob fixed no step
        [entry] = await recorded(base, someone["player_id"])
        assert entry["step"] == step
        status, profile, _ = await api("GET", f"{base}/api/players/{someone['player_id']}")
        assert list(profile["stats"]) == [f"stalactites:{step}"]


async def test_a_kept_room_is_archived_slim_a_guests_log_too_and_serves_every_reader(
    redis_server: Any,
) -> None:
    base, prefix = redis_server.url, redis_server.config.redis_prefix
    room = await _room(base, deal=DEAL, step="ones")
    ann = await anonymous(base)
    await _sit(base, room["room_id"], ann["token"])
    status, guest = await _sit(base, room["room_id"], None, name="Guest")  # no session
    clients = []
    for token in (ann["token"], guest["token"]):
        client = await Client.open(redis_server.ws_url(room["room_id"]))
        await client.hello(token)
        clients.append(client)
    for client in clients:
        await client.send(type="ready")
    for client in clients:
        await client.expect("started")
    await clients[0].send(type="resign")
    for index, move in enumerate(LINE):  # the guest wins
        assert (await clients[1].move(f"m{index}", move))["type"] == "accepted"
    await clients[1].expect("results")
    await recorded(base, ann["player_id"])
    tag = f"{prefix}{{room:{room['room_id']}}}"
    direct = redis.Redis.from_url(REDIS_URL)
    try:
        ids = f"{tag}:ids:{guest['player_id']}"
        for key in (f"{tag}:events", ids):  # an hour's grace, then gone
            assert 0 < direct.pttl(key) <= 3_600_000, key
        for key in (f"{tag}:room", f"{tag}:archive"):  # kept for good
            assert direct.pttl(key) == -1, key
        for key in (f"{tag}:actions", f"{tag}:log:{guest['player_id']}"):  # in the archive
            assert not direct.exists(key), key
        room_fields = {name.decode() for name in cast(list[bytes], direct.hkeys(f"{tag}:room"))}
        assert direct.object("encoding", f"{tag}:room") == b"listpack"  # slim: in the archive
        assert not {"settings", "results", f"seat:{guest['player_id']}"} & room_fields
        assert f"player:{guest['player_id']}" in room_fields  # the seat's mark
        direct.delete(f"{tag}:events", ids)  # as when the grace is over
    finally:
        direct.close()
    status, view, _ = await api("GET", f"{base}/api/rooms/{room['room_id']}")
    assert status == 200 and view["status"] == "finished"
    url = f"{base}/api/rooms/{room['room_id']}/record"
    status, record, _ = await api("GET", url)
    moves = {p["name"]: p["record"]["moves"] for p in record["players"]}
    assert status == 200 and moves == {"Guest": LINE, ann["name"]: []}
    answer = await asyncio.to_thread(
        subprocess.run, [VERIFY, "verify", url], capture_output=True, text=True, timeout=60
    )
    assert (answer.returncode, answer.stderr) == (0, ""), answer.stdout
    status, analysis, _ = await api("GET", f"{base}/api/rooms/{room['room_id']}/analysis")
    assert status == 200, analysis
    fresh = await Client.open(redis_server.ws_url(room["room_id"]))  # a hello after the trim
    welcome = await fresh.hello(guest["token"], last_seq=1)  # the events are gone
    assert welcome["room"]["status"] == "finished"
    names = {p["player_id"]: p["name"] for p in welcome["room"]["players"]}
    assert names == {ann["player_id"]: ann["name"], guest["player_id"]: "Guest"}
    late = await fresh.move("late", LINE[0])  # the seat is still a seat, the race over
    assert (late["type"], late["code"]) == ("rejected", "already_finished"), late
    [entry] = await recorded(base, ann["player_id"])  # the history's link: this room
    assert entry["room_id"] == room["room_id"] and entry["status"] == "resigned"
