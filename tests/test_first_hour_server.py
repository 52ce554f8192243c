"""A new player's first hour (issue 35), the server's part, over real websockets and HTTP on
both stores: the queue says who else waits and whether a ghost can come (item 2); a daily
attempt left is handed back to its player's session (item 3) and its room says its day
(item 6); a race nobody played changes no rating, and the tie-break that placed racers of
equal cards is in their results (item 8); refusals a client expects answered quietly
(item 11)."""

from __future__ import annotations

from typing import Any

import pytest

from daily_kit import attempt
from match_kit import MatchClient
from players_kit import anonymous, api
from server_kit import Client, InProcessServer, ManualClock, lasting_moves, resign
from stalactites.ghosts.runs import pool_of
from stalactites.rooms.rating import NO_PLAY_MOVES
from stalactites.store import IndexedRun

pytestmark = pytest.mark.usefixtures("close_clients")


# Item 2: alone in a queue.


@pytest.mark.own_server
async def test_alone_in_a_new_queue_nobody_else_waits_and_no_ghost_is_promised(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    lone = await MatchClient.said_hello(any_server, await anonymous(any_server.url))
    frame = await lone.queue(step="choice")
    assert frame["type"] == "queued", frame
    assert (frame["waiting"], frame["others"], frame["ghost_ready"]) == (1, 0, False)
    clock.advance(2)  # the once-a-second frames say the same
    later = await lone.expect("queued", timeout=3)
    assert (later["others"], later["ghost_ready"]) == (0, False)
    await lone.send(type="leave")
    await lone.expect("left")
    # Once another player's run is in the ghosts' index, a player queuing is told a ghost
    # can come (whether it can be raced is the ghosts' tests'), but never of their own run.
    runner = await anonymous(any_server.url)
    run = IndexedRun("some-room", runner["player_id"], 1000, True)
    index = any_server.app.state.process.ghosts.index
    await any_server.call(
        index.add_run(pool_of("stalactites", "choice"), run, "ms:1", clock.now_ms())
    )
    racer = await MatchClient.said_hello(any_server, await anonymous(any_server.url))
    frame = await racer.queue(step="choice")
    assert frame["type"] == "queued" and frame["ghost_ready"] is True, frame
    await racer.send(type="leave")
    await racer.expect("left")
    own = await MatchClient.said_hello(any_server, runner)
    frame = await own.queue(step="choice")
    assert frame["type"] == "queued" and frame["ghost_ready"] is False, frame


# Item 3 and 6: the daily attempt left, and its room.


async def _start(base: str, made: dict[str, Any]) -> None:
    """Start the attempt's race from a socket that then goes (the player leaves the page)."""
    client = await Client.open(base.replace("http://", "ws://") + f"/ws/rooms/{made['room_id']}")
    await client.hello(made["token"])
    await client.send(type="ready")
    await client.expect("started")
    await client.close()


async def test_a_daily_attempt_left_is_handed_back_to_its_players_session(
    any_server: InProcessServer,
) -> None:
    base = any_server.url
    ann = await anonymous(base)
    made = await attempt(base, "stalactites", ann["token"])
    await _start(base, made)
    # Another tab or device: no seat token kept, only the session.
    status, today, _ = await api("GET", f"{base}/api/daily/stalactites", None, ann["token"])
    assert status == 200 and today["room_id"] == made["room_id"], today
    assert today["token"]
    client = await Client.open(any_server.ws_url(made["room_id"]))
    welcome = await client.hello(today["token"])
    assert welcome["you"] == ann["player_id"] and welcome["room"]["status"] == "racing"
    assert welcome["room"]["daily"] == made["date"]  # the room says it is that day's attempt
    assert welcome["state"] is not None  # the player's own board, as they left it
    await resign(client)
    # Nobody else is handed it: another player's answer names no room and no token.
    bob = await anonymous(base)
    _, theirs, _ = await api("GET", f"{base}/api/daily/stalactites", None, bob["token"])
    assert (theirs["room_id"], theirs["token"]) == (None, None)
    # A practice attempt is not the official one: the answer still hands back the official.
    practice = await attempt(base, "stalactites", ann["token"])
    assert practice["official"] is False
    _, again, _ = await api("GET", f"{base}/api/daily/stalactites", None, ann["token"])
    assert again["room_id"] == made["room_id"] and again["token"] == today["token"]
    _, view, _ = await api("GET", f"{base}/api/rooms/{practice['room_id']}")
    assert view["daily"] == made["date"] and view["deal"] is None
    _, room, _ = await api("POST", f"{base}/api/rooms", {"seats": 1})
    _, plain, _ = await api("GET", f"{base}/api/rooms/{room['room_id']}")
    assert plain["daily"] is None


# Item 8: places and ratings.


async def _rated_room(base: str, game: str, sessions: list[dict[str, Any]]) -> list[Client]:
    """A rated room of ``game``, each session seated and connected, the race started."""
    status, room, _ = await api(
        "POST", f"{base}/api/rooms", {"game": game, "rated": True, "countdown_s": 0}
    )
    assert status == 201 and room["rated"], room
    clients = []
    for made in sessions:
        url = f"{base}/api/rooms/{room['room_id']}/players"
        status, seat, _ = await api("POST", url, {}, made["token"])
        assert status == 201, seat
        client = await Client.open(base.replace("http", "ws", 1) + f"/ws/rooms/{room['room_id']}")
        await client.hello(made["token"])
        clients.append(client)
    for client in clients:
        await client.send(type="ready")
    for client in clients:
        client.frames.append(await client.expect("started"))
    return clients


async def test_a_rated_race_nobody_played_changes_no_rating(any_server: InProcessServer) -> None:
    base = any_server.url
    sessions = [await anonymous(base), await anonymous(base)]
    clients = await _rated_room(base, "squadron", sessions)
    for client in clients:  # moves enough, but no card put on a foundation: the stock dealt
        for number in range(NO_PLAY_MOVES):
            answer = await client.move(f"deal{number}", "s-w")
            assert answer["type"] == "accepted", answer
    for client in clients:
        await resign(client)
    results = await clients[0].expect("results")
    lines = results["standings"]
    assert {line["foundation_cards"] for line in lines} == {0}
    assert [line["place"] for line in lines] == [1, 1]  # a shared place...
    assert not any(line["rated"] for line in lines), lines  # ...and nobody's rating moves
    assert all(line["rating_after"] is None for line in lines)


@pytest.mark.own_server
async def test_the_tie_break_that_placed_equal_cards_is_in_the_results(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    base = any_server.url
    sessions = [await anonymous(base), await anonymous(base)]
    first, second = await _rated_room(base, "stalactites", sessions)
    moves = lasting_moves(first.frames[-1]["state"], NO_PLAY_MOVES)  # the same deal for both
    for client in (first, second):
        clock.advance(5)
        for number, move in enumerate(moves):
            answer = await client.move(f"m{number}", move)
            assert answer["type"] == "accepted", answer
    clock.advance(5)
    await resign(second)  # the later card, the earlier resignation: placed by the card
    clock.advance(5)
    await resign(first)
    lines = {line["player_id"]: line for line in (await first.expect("results"))["standings"]}
    mine, theirs = lines[first.you or ""], lines[second.you or ""]
    assert mine["foundation_cards"] == theirs["foundation_cards"]
    assert (mine["place"], theirs["place"]) == (1, 2)
    assert mine["last_card_ms"] is not None and theirs["last_card_ms"] is not None
    assert mine["last_card_ms"] < theirs["last_card_ms"]
    assert theirs["elapsed_ms"] < mine["elapsed_ms"]  # the time of resigning decided nothing
    assert mine["rated"] and theirs["rated"]  # both played: rated


async def test_no_tie_break_is_shown_where_it_decided_nothing(any_server: InProcessServer) -> None:
    base = any_server.url
    status, room, _ = await api("POST", f"{base}/api/rooms", {"seats": 1, "countdown_s": 0})
    assert status == 201
    url = f"{base}/api/rooms/{room['room_id']}/players"
    _, seat, _ = await api("POST", url, {"name": "Solo"})
    client = await Client.open(any_server.ws_url(room["room_id"]))
    await client.hello(seat["token"])
    await client.send(type="ready")
    await client.expect("started")
    await resign(client)
    [line] = (await client.expect("results"))["standings"]
    assert line["last_card_ms"] is None


# Item 11: refusals the web client expects.


async def test_a_refusal_asked_for_quietly_is_answered_200_with_its_status_aside(
    any_server: InProcessServer,
) -> None:
    base = any_server.url
    wrong = {"username": "nobody_here", "password": "not the password"}
    status, body, _ = await api("POST", f"{base}/api/session", wrong)
    assert status == 401 and body["code"] == "bad_credentials"
    quiet = {"Stalactites-Refusal": "quiet"}
    status, body, headers = await api("POST", f"{base}/api/session", wrong, headers=quiet)
    assert status == 200 and body["code"] == "bad_credentials"
    assert _lower(headers)["stalactites-refused"] == "401"
    ann = await anonymous(base)
    status, _, _ = await api("PATCH", f"{base}/api/me", {"name": "Zoe First"}, ann["token"])
    assert status == 200
    second = {"name": "Zoe Second"}
    status, body, headers = await api("PATCH", f"{base}/api/me", second, ann["token"], quiet)
    assert status == 200 and body["code"] == "rename_too_soon" and body["retry_at_ms"]
    assert _lower(headers)["stalactites-refused"] == "429" and "retry-after" in _lower(headers)
    # What succeeds, or fails on the server's side, is answered as ever.
    status, body, headers = await api("GET", f"{base}/api/daily/stalactites", headers=quiet)
    assert status == 200 and "stalactites-refused" not in _lower(headers)


def _lower(headers: dict[str, str]) -> dict[str, str]:
    return {name.lower(): value for name, value in headers.items()}
