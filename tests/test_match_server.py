"""Quick races over a real server, on both stores: the ``/ws/match`` socket's answers, a pair
matched into a rated room on a certified deal, the race played to the end and rated, two tabs
of one player, leaving by closing or by ``leave``, and a seat that never connects."""

from __future__ import annotations

from typing import Any

import pytest

from ghosts_kit import raced_run
from match_kit import MatchClient, match_url, queued_player, race_client
from players_kit import anonymous, api, recorded
from server_kit import Client, ManualClock, http, lasting_moves
from stalactites.rooms.rating import NO_PLAY_MOVES

pytestmark = pytest.mark.usefixtures("close_clients")


async def matched(client: MatchClient) -> dict[str, Any]:
    for frame in client.frames:
        if frame["type"] == "matched":
            return frame
    return await client.expect("matched")


async def test_a_hello_without_a_session_is_refused(any_server: Any) -> None:
    client = await MatchClient.open(match_url(any_server))
    await client.send(type="hello", token="not-a-session")
    frame = await client.recv()
    assert (frame["type"], frame["code"]) == ("error", "unauthorized")
    assert await client.closed() == 1008


async def test_bad_queue_frames_get_an_error_code(any_server: Any) -> None:
    client = await MatchClient.said_hello(any_server, await anonymous(any_server.url))
    await client.send(type="queue", game="squadron", step="ones")
    assert (await client.expect("error"))["code"] == "bad_message"
    await client.send(type="leave")
    assert (await client.expect("error"))["code"] == "not_queued"


async def test_a_queued_player_hears_how_long_and_how_many(any_server: Any) -> None:
    client = await queued_player(any_server, step="twos")
    first = client.frames[-1]
    assert (first["step"], first["waiting"]) == ("twos", 1)
    later = await client.expect("queued")
    assert later["waited_ms"] >= first["waited_ms"]
    await client.send(type="queue", game="stalactites", step="twos")
    assert (await client.expect("error"))["code"] == "already_queued"
    await client.send(type="leave")
    await client.expect("left")


async def test_two_players_are_matched_into_one_rated_race_played_to_the_end(
    any_server: Any,
) -> None:
    ann = await queued_player(any_server, step="choice")
    bob = await queued_player(any_server, step="choice")
    ann_match, bob_match = await matched(ann), await matched(bob)
    assert ann_match["room_id"] == bob_match["room_id"]
    assert ann_match["token"] != bob_match["token"]
    assert {p["player_id"] for p in ann_match["players"]} == {
        ann.session["player_id"],
        bob.session["player_id"],
    }
    status, view = await http("GET", f"{any_server.url}/api/rooms/{ann_match['room_id']}")
    assert status == 200 and view["rated"] and view["certified"] and view["quick"]
    rooms = [await race_client(any_server, ann_match), await race_client(any_server, bob_match)]
    openings = []
    for room in rooms:  # connected is ready: the countdown, then the race
        await room.expect("countdown")
        openings.append((await room.expect("started"))["state"])
    for room, opening in zip(rooms, openings, strict=True):  # real play: the race is rated
        for number, move in enumerate(lasting_moves(opening, NO_PLAY_MOVES)):
            answer = await room.move(f"m{number}", move)
            assert answer["type"] == "accepted", answer
    for room in rooms:
        await room.send(type="resign")
    results = await rooms[0].expect("results")
    assert all(line["rated"] for line in results["standings"])
    history = await recorded(any_server.url, ann.session["player_id"])
    assert history[0]["room_id"] == ann_match["room_id"] and history[0]["rated"]


async def test_two_tabs_of_one_player_are_one_entry_both_told_of_the_match(
    any_server: Any,
) -> None:
    ann = await anonymous(any_server.url)
    tab1 = await queued_player(any_server, ann, step="twos")
    tab2 = await queued_player(any_server, ann, step="twos")
    assert tab2.frames[-1]["waiting"] == 1  # one entry: never paired with themselves
    bob = await queued_player(any_server, step="twos")
    rooms = {(await matched(one))["room_id"] for one in (tab1, tab2, bob)}
    assert len(rooms) == 1


async def test_closing_the_socket_leaves_the_queue(any_server: Any) -> None:
    gone = await queued_player(any_server, step="ones")
    await gone.close()
    stays = await queued_player(any_server, step="ones")
    while (await stays.expect("queued"))["waiting"] != 1:
        pass
    late = await queued_player(any_server, step="ones")
    assert (await matched(stays))["room_id"] == (await matched(late))["room_id"]


async def test_a_seat_that_never_connects_is_out_when_the_race_starts(any_server: Any) -> None:
    ann = await queued_player(any_server, step="choice")
    bob = await queued_player(any_server, step="choice")
    ann_match = await matched(ann)
    await matched(bob)
    room = await race_client(any_server, ann_match)  # bob never connects
    await room.expect("countdown", timeout=15)
    await room.expect("started")
    resigned = await room.expect("finished", status="resigned")
    assert resigned["player_id"] == bob.session["player_id"]
    status, page, _ = await api("GET", f"{any_server.url}/api/rooms/{ann_match['room_id']}")
    assert status == 200


async def test_a_room_socket_of_a_quick_race_seats_by_session_too(any_server: Any) -> None:
    ann = await queued_player(any_server, step="twos")
    bob = await queued_player(any_server, step="twos")
    match = await matched(ann)
    await matched(bob)
    room = await Client.open(any_server.ws_url(match["room_id"]))
    welcome = await room.hello(ann.session["token"])
    assert welcome["you"] == ann.session["player_id"]


@pytest.mark.own_server
async def test_asking_for_a_ghost_races_another_players_run_or_waits_for_one(
    any_server: Any, clock: ManualClock
) -> None:
    lone = await MatchClient.said_hello(any_server, await anonymous(any_server.url))
    await lone.send(type="queue", game="stalactites", step="choice", ghost=True)
    assert (await lone.expect("queued"))["step"] == "choice"  # no run yet: queued as usual
    await lone.send(type="leave")
    await lone.expect("left")
    run = await raced_run(any_server, clock)
    racer = await MatchClient.said_hello(any_server, await anonymous(any_server.url))
    await racer.send(type="queue", game="stalactites", step="choice", ghost=True)
    frame = await matched(racer)
    ghosts = [p for p in frame["players"] if p["ghost"]]
    assert [p["name"] for p in ghosts] == [run.player["name"]]
    assert {p["player_id"] for p in frame["players"]} - {ghosts[0]["player_id"]} == {
        racer.session["player_id"]
    }
    status, view = await http("GET", f"{any_server.url}/api/rooms/{frame['room_id']}")
    assert status == 200 and not view["rated"] and view["private"]
    room = await Client.open(any_server.ws_url(frame["room_id"]))
    assert (await room.hello(frame["token"]))["you"] == racer.session["player_id"]


async def test_a_queued_player_asking_for_a_ghost_keeps_their_place_when_there_is_none(
    any_server: Any, clock: ManualClock
) -> None:
    lone = await MatchClient.said_hello(any_server, await anonymous(any_server.url))
    first = await lone.queue(step="choice")
    assert first["type"] == "queued"
    clock.advance(3)  # within the lease: the entry stays
    await lone.send(type="queue", game="stalactites", step="choice", ghost=True)
    again = await lone.expect("queued")  # no run yet: still queued, the time waited kept
    while again["waited_ms"] < 3_000:  # a once-a-second update sent before the clock moved
        again = await lone.expect("queued", timeout=1.5)
    await lone.send(type="queue", game="squadron", ghost=True)
    assert (await lone.expect("error"))["code"] == "already_queued"  # another queue
    run = await raced_run(any_server, clock)
    await lone.send(type="queue", game="stalactites", step="choice", ghost=True)
    frame = await matched(lone)
    assert [p["name"] for p in frame["players"] if p["ghost"]] == [run.player["name"]]
    status, view = await http("GET", f"{any_server.url}/api/rooms/{frame['room_id']}")
    assert status == 200 and not view["rated"]
    await lone.send(type="leave")
    assert (await lone.expect("error"))["code"] == "not_queued"  # out of the queue
