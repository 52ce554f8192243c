"""The HTTP side of the server: health, readiness, rooms, joining, the static client."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from server_kit import InProcessServer, ManualClock, http, make_config, new_room, seat
from stalactites.config import ServerConfig


async def test_healthz_answers_ok(server: InProcessServer) -> None:
    assert await http("GET", f"{server.url}/healthz") == (200, {"status": "ok"})


async def test_readyz_is_ok_while_the_store_answers(any_server: InProcessServer) -> None:
    assert await http("GET", f"{any_server.url}/readyz") == (200, {"status": "ok"})


async def test_readyz_is_503_when_redis_does_not_answer(clock: ManualClock) -> None:
    config = make_config("redis://127.0.0.1:9/0")  # the discard port: nothing listens
    with InProcessServer(config, clock) as server:
        assert await http("GET", f"{server.url}/readyz") == (503, {"status": "unavailable"})
        assert (await http("GET", f"{server.url}/healthz"))[0] == 200


async def test_a_room_takes_the_documented_defaults(server: InProcessServer) -> None:
    status, room = await http("POST", f"{server.url}/api/rooms")
    assert status == 201
    assert room["room_id"]
    settings = {key: room[key] for key in ("game", "step", "seats", "time_limit_s", "undo")}
    assert settings == {
        "game": "stalactites",
        "step": "choice",
        "seats": 2,
        "time_limit_s": 900,
        "undo": True,
    }
    assert (room["countdown_s"], room["status"], room["players"]) == (5, "waiting", [])
    assert room["deal"] is None and room["solution"] is None


async def test_squadron_rooms_have_no_step_and_no_undo_by_default(server: InProcessServer) -> None:
    status, room = await http("POST", f"{server.url}/api/rooms", {"game": "squadron"})
    assert status == 201
    assert (room["game"], room["step"], room["undo"]) == ("squadron", None, False)


async def test_auto_play_is_off_unless_the_room_asks_for_it(server: InProcessServer) -> None:
    for body, autoplay in (
        ({"seats": 1}, False),
        ({"seats": 2}, False),
        ({"seats": 1, "autoplay": True}, True),
        ({"seats": 3, "autoplay": True}, True),
    ):
        status, room = await http("POST", f"{server.url}/api/rooms", body)
        assert status == 201 and room["autoplay"] is autoplay, body


async def test_a_room_keeps_the_settings_it_was_given(server: InProcessServer) -> None:
    body = {
        "game": "stalactites",
        "step": "twos",
        "deal": "ms:7",
        "seats": 8,
        "time_limit_s": 7200,
        "undo": False,
        "countdown_s": 30,
    }
    status, room = await http("POST", f"{server.url}/api/rooms", body)
    assert status == 201
    assert {key: room[key] for key in body if key != "deal"} == {
        key: value for key, value in body.items() if key != "deal"
    }
    assert room["deal"] is None  # never shown before the race ends
    status, view = await http("GET", f"{server.url}/api/rooms/{room['room_id']}")
    assert status == 200 and view == room


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "freecell"}, "game"),
        ({"step": "threes"}, "step"),
        ({"game": "squadron", "step": "ones"}, "step"),
        ({"deal": "ms:0"}, "deal"),
        ({"deal": "nonsense"}, "deal"),
        ({"seats": 0}, "seats"),
        ({"seats": 9}, "seats"),
        ({"seats": "2"}, "seats"),
        ({"time_limit_s": 59}, "time_limit_s"),
        ({"time_limit_s": 7201}, "time_limit_s"),
        ({"undo": "yes"}, "undo"),
        ({"autoplay": 1}, "autoplay"),
        ({"countdown_s": 31}, "countdown_s"),
        ({"countdown_s": -1}, "countdown_s"),
        ({"colour": "red"}, "colour"),
    ],
)
async def test_a_bad_room_body_is_422_naming_the_field(
    server: InProcessServer, body: dict[str, Any], field: str
) -> None:
    status, answer = await http("POST", f"{server.url}/api/rooms", body)
    assert status == 422
    assert (answer["code"], answer["field"]) == ("bad_message", field)
    assert field in answer["message"]


@pytest.mark.parametrize("body", ["{nope", "[1, 2]", '"room"'])
async def test_a_body_that_is_no_json_object_is_422(server: InProcessServer, body: str) -> None:
    status, answer = await http("POST", f"{server.url}/api/rooms", body)
    assert (status, answer["code"], answer["field"]) == (422, "bad_message", None)


async def test_an_oversized_body_is_refused(server: InProcessServer) -> None:
    status, _ = await http("POST", f"{server.url}/api/rooms", {"deal": "x" * 20_000})
    assert status == 413


async def test_joining_gives_a_player_id_and_a_long_random_token(server: InProcessServer) -> None:
    room_id = await new_room(server.url)
    first = await seat(server.url, room_id, "Ann")
    second = await seat(server.url, room_id, "Bob")
    assert first[0] != second[0] and first[1] != second[1]
    assert len(first[1]) >= 43  # 32 random bytes, URL-safe base64
    status, view = await http("GET", f"{server.url}/api/rooms/{room_id}")
    assert status == 200
    players = [(p["name"], p["status"], p["ready"], p["connected"]) for p in view["players"]]
    assert players == [("Ann", "waiting", False, False), ("Bob", "waiting", False, False)]
    assert first[1] not in str(view)


@pytest.mark.parametrize(
    "body", [{}, {"name": ""}, {"name": "x" * 25}, {"name": "   "}, {"name": "a\u0000b"}]
)
async def test_a_bad_name_is_422(server: InProcessServer, body: dict[str, Any]) -> None:
    room_id = await new_room(server.url)
    status, answer = await http("POST", f"{server.url}/api/rooms/{room_id}/players", body)
    assert (status, answer["code"], answer["field"]) == (422, "bad_message", "name")


async def test_names_may_be_any_printable_text(server: InProcessServer) -> None:
    room_id = await new_room(server.url)
    await seat(server.url, room_id, "<script>é 名前")
    _, view = await http("GET", f"{server.url}/api/rooms/{room_id}")
    assert view["players"][0]["name"] == "<script>é 名前"


async def test_the_web_client_is_served_at_the_root(clock: ManualClock, tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>race</title>")
    config = make_config("memory://", client_dir=tmp_path)
    with InProcessServer(config, clock) as server:
        status, page = await http("GET", f"{server.url}/")
        assert status == 200 and "<title>race</title>" in page


async def test_without_a_client_folder_the_root_is_404(clock: ManualClock, tmp_path: Path) -> None:
    config = make_config("memory://", client_dir=tmp_path / "missing")
    with InProcessServer(config, clock) as server:
        status, answer = await http("GET", f"{server.url}/")
        assert status == 404 and answer["code"] == "not_found"
        assert (await http("GET", f"{server.url}/healthz"))[0] == 200


def test_configuration_comes_from_the_environment() -> None:
    config = ServerConfig.from_env(
        {"REDIS_URL": "redis://127.0.0.1:6379/2", "STALACTITES_MOVE_RATE": "7.5"}
    )
    assert (config.store_url, config.move_rate) == ("redis://127.0.0.1:6379/2", 7.5)
    assert ServerConfig.from_env({}).store_url == "memory://"
    for bad in ({"STALACTITES_SEND_QUEUE": "many"}, {"STALACTITES_MAX_EVENTS": "-1"}):
        with pytest.raises(ValueError, match="STALACTITES_"):
            ServerConfig.from_env(bad)
