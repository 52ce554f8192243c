"""Arenas over real HTTP and websockets, on both stores: made, listed and entered (and the
refusals), entrants paired over their arena sockets and paired again as each race ends with
its points counted, a paused entrant left out, spectators' standings and top race, and the
end: no new race, the race under way counted, then the podium."""

from __future__ import annotations

from typing import Any

import pytest

from arena_kit import ArenaClient
from friends_kit import registered, tab
from players_kit import anonymous, api, recorded
from server_kit import Client, InProcessServer, ManualClock

pytestmark = pytest.mark.usefixtures("close_clients")


async def _arena(server: InProcessServer, who: dict[str, Any], **settings: Any) -> str:
    body = {"name": "Friday arena", "duration_min": 10} | settings
    status, made, _ = await api("POST", f"{server.url}/api/arenas", body, who["token"])
    assert status == 201, made
    assert made["admin_token"]
    return str(made["arena"]["arena_id"])


async def _enter(server: InProcessServer, arena_id: str, who: dict[str, Any]) -> tuple[int, Any]:
    url = f"{server.url}/api/arenas/{arena_id}/players"
    status, body, _ = await api("POST", url, None, who["token"])
    return status, body


async def _socket(
    server: InProcessServer, arena_id: str, who: dict[str, Any] | None
) -> ArenaClient:
    url = server.url.replace("http://", "ws://") + f"/ws/arenas/{arena_id}"
    client = await ArenaClient.open(url)
    await client.welcome(None if who is None else who["token"])
    return client


async def _seated(server: InProcessServer, paired: list[dict[str, Any]]) -> list[Client]:
    """Both racers connected to their race, once it has started."""
    seats = []
    for frame in paired:
        seat = await Client.open(server.ws_url(frame["room_id"]))
        await seat.hello(frame["token"])
        seats.append(seat)
    await seats[0].expect("started")
    return seats


async def _race(server: InProcessServer, paired: list[dict[str, Any]], clock: ManualClock) -> None:
    """Both racers connect, race past the quick resignation's time, and resign in turn."""
    seats = await _seated(server, paired)
    clock.advance(15)
    for seat in seats:
        await seat.send(type="resign")
    await seats[0].expect("results")
    for seat in seats:
        await seat.close()


async def _standings_after(client: ArenaClient, races: int) -> dict[str, Any]:
    """Read the socket's standings until its entrant has ``races`` races counted."""
    while True:
        frame = await client.expect("standings", timeout=15)
        if frame["you"] and frame["you"]["races"] >= races:
            return frame


async def test_an_arena_is_made_listed_and_refuses_what_it_cannot_take(
    any_server: InProcessServer,
) -> None:
    ann = await registered(any_server.url, "ann")
    arena_id = await _arena(any_server, ann, min_rating=1600, max_rating=2000)
    status, listed, _ = await api("GET", f"{any_server.url}/api/arenas?status=running")
    assert status == 200 and arena_id in [a["arena_id"] for a in listed["arenas"]]
    status, body = await _enter(any_server, arena_id, ann)  # a new player's rating: 1000ish
    assert (status, body["code"]) == (409, "rating_band")
    status, body, _ = await api("POST", f"{any_server.url}/api/arenas/{arena_id}/players")
    assert status == 401
    status, body, _ = await api("GET", f"{any_server.url}/api/arenas/nope")
    assert (status, body["code"]) == (404, "not_found")
    status, body, _ = await api("GET", f"{any_server.url}/api/arenas?status=later")
    assert (status, body["code"]) == (422, "bad_message")
    bad = {"name": "x", "game": "squadron", "step": "ones"}
    status, body, _ = await api("POST", f"{any_server.url}/api/arenas", bad, ann["token"])
    assert (status, body["code"]) == (422, "bad_message")
    status, body, _ = await api(
        "POST", f"{any_server.url}/api/arenas/{arena_id}/pause", None, ann["token"]
    )
    assert (status, body["code"]) == (404, "not_entered")
    status, one, _ = await api("GET", f"{any_server.url}/api/arenas/{arena_id}")
    assert one["arena"]["entrants"] == 0 and one["standings"] == [] and one["podium"] is None


async def test_entrants_are_paired_again_as_each_race_ends_and_a_paused_one_is_left_out(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    ann, bob = await registered(any_server.url, "ann"), await anonymous(any_server.url)
    arena_id = await _arena(any_server, ann)
    watcher = await _socket(any_server, arena_id, None)
    sockets = []
    for who in (ann, bob):
        assert (await _enter(any_server, arena_id, who))[0] == 200
        sockets.append(await _socket(any_server, arena_id, who))
    first = [await client.expect("paired") for client in sockets]
    assert first[0]["room_id"] == first[1]["room_id"] and first[0]["token"] != first[1]["token"]
    top = await watcher.expect("standings")
    while top["top_race"] is None:
        top = await watcher.expect("standings")
    assert top["top_race"] == first[0]["room_id"] and top["you"] is None
    await _race(any_server, first, clock)
    second = [await client.expect("paired", timeout=15) for client in sockets]
    assert second[0]["room_id"] == second[1]["room_id"] != first[0]["room_id"]
    [race] = await recorded(any_server.url, ann["player_id"])
    assert race["arena"] == arena_id  # the arena's race in its history
    lines = (await _standings_after(sockets[0], 1))["top"]
    assert sorted(line["races"] for line in lines) == [1, 1]
    # Both resigned past 10 s: neither won, neither cleared the deal: both lost, 0 points.
    assert [line["score"] for line in lines] == [0, 0]
    url = f"{any_server.url}/api/arenas/{arena_id}/pause"
    assert (await api("POST", url, None, ann["token"]))[:2] == (200, {"paused": True})
    await _race(any_server, second, clock)
    await _standings_after(sockets[1], 2)
    status, one, _ = await api("GET", f"{any_server.url}/api/arenas/{arena_id}", None, ann["token"])
    assert one["you"]["paused"] and one["room_id"] is None
    pairings = [frame for frame in sockets[1].frames if frame["type"] == "paired"]
    assert len(pairings) == 2  # Bob waits alone: Ann is paused
    url = f"{any_server.url}/api/arenas/{arena_id}/resume"
    assert (await api("POST", url, None, ann["token"]))[:2] == (200, {"paused": False})
    third = await sockets[0].expect("paired", timeout=15)
    assert third["room_id"] not in (first[0]["room_id"], second[0]["room_id"])


async def test_the_end_makes_no_new_race_counts_the_one_under_way_and_shows_the_podium(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    ann, bob = await registered(any_server.url, "ann"), await registered(any_server.url, "bob")
    arena_id = await _arena(any_server, ann, time_limit_s=900)  # races outlast the arena
    sockets = []
    for who in (ann, bob):
        assert (await _enter(any_server, arena_id, who))[0] == 200
        sockets.append(await _socket(any_server, arena_id, who))
    paired = [await client.expect("paired") for client in sockets]
    seats = await _seated(any_server, paired)
    clock.advance(10 * 60)  # the arena's time is up, its race under way
    status, body = await _enter(any_server, arena_id, await registered(any_server.url, "late"))
    assert (status, body["code"]) == (409, "closed")
    for seat in seats:
        await seat.send(type="resign")
    await seats[0].expect("results")
    ended = await sockets[0].expect("ended", timeout=30)
    assert [line["races"] for line in ended["podium"]] == [1, 1]
    assert ended["you"]["player_id"] == ann["player_id"]
    status, one, _ = await api("GET", f"{any_server.url}/api/arenas/{arena_id}")
    assert one["arena"]["status"] == "finished" and len(one["podium"]) == 2
    assert [frame["type"] for frame in sockets[0].frames].count("paired") == 1  # none after


async def test_a_berserk_racer_has_half_the_time_and_no_undo_chosen_before_the_start(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    ann, bob = await registered(any_server.url, "ann"), await registered(any_server.url, "bob")
    arena_id = await _arena(any_server, ann)  # races of 300 s
    sockets = []
    for who in (ann, bob):
        assert (await _enter(any_server, arena_id, who))[0] == 200
        sockets.append(await _socket(any_server, arena_id, who))
    paired = [await client.expect("paired") for client in sockets]
    berserk = f"{any_server.url}/api/arenas/{arena_id}/berserk"
    status, body, _ = await api("POST", berserk, None, ann["token"])
    assert (status, body) == (200, {"berserk": True, "room_id": paired[0]["room_id"]})
    status, one, _ = await api("GET", f"{any_server.url}/api/arenas/{arena_id}", None, ann["token"])
    assert one["you"]["berserk"] is True
    seats = []
    for frame in paired:
        seat = await Client.open(any_server.ws_url(frame["room_id"]))
        await seat.hello(frame["token"])
        seats.append(seat)
    await seats[0].expect("started")
    status, body, _ = await api("POST", berserk, None, bob["token"])
    assert (status, body["code"]) == (409, "too_late")
    await seats[0].send(type="undo", id="u1")
    assert (await seats[0].answer("u1"))["code"] == "undo_disabled"
    clock.advance(150)  # Ann's half of the race's time is up; Bob races on
    await seats[1].expect("progress", timeout=15, player_id=ann["player_id"], status="timeout")
    refused = await seats[0].move("m1", "t1-f1")
    assert (refused["type"], refused["code"]) == ("rejected", "already_finished")
    await seats[1].send(type="resign")
    await seats[1].expect("results")
    lines = (await _standings_after(sockets[0], 1))["top"]
    rates = {line["player_id"]: line["berserk_rate"] for line in lines}
    assert rates == {ann["player_id"]: 1.0, bob["player_id"]: 0.0}


async def test_a_lone_entrant_races_a_ghost_of_another_entrants_run_for_half_points(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    ann, bob = await registered(any_server.url, "ann"), await registered(any_server.url, "bob")
    arena_id = await _arena(any_server, ann)
    sockets = []
    for who in (ann, bob):
        assert (await _enter(any_server, arena_id, who))[0] == 200
        sockets.append(await _socket(any_server, arena_id, who))
    paired = [await client.expect("paired") for client in sockets]
    for who in (ann, bob):  # (no race after this one)
        await api("POST", f"{any_server.url}/api/arenas/{arena_id}/pause", None, who["token"])
    seats = []
    for frame in paired:
        seat = await Client.open(any_server.ws_url(frame["room_id"]))
        await seat.hello(frame["token"])
        seats.append(seat)
    await seats[1].expect("started")
    rooms = any_server.app.state.process.rooms
    line = next(iter(rooms.known_settings(paired[0]["room_id"]).solution.values()))
    for number, move in enumerate(line[:10]):  # Bob's run: 10 moves over 25 s, then resigned
        clock.advance(2.5)
        assert (await seats[1].move(f"m{number}", move))["type"] == "accepted"
    for seat in (seats[1], seats[0]):
        await seat.send(type="resign")
    await seats[0].expect("results")
    lines = (await _standings_after(sockets[1], 1))["top"]  # scored: Bob's run is the arena's
    bob_name = next(line["name"] for line in lines if line["player_id"] == bob["player_id"])

    carl = await registered(any_server.url, "carl")
    assert (await _enter(any_server, arena_id, carl))[0] == 200
    alone = await _socket(any_server, arena_id, carl)
    clock.advance(21)  # nobody to race for 20 s: a ghost of Bob's run
    ghost_race = await alone.expect("paired", timeout=15)
    seat = await Client.open(any_server.ws_url(ghost_race["room_id"]))
    welcome = await seat.hello(ghost_race["token"])
    [ghost] = [p for p in welcome["room"]["players"] if p["player_id"] != carl["player_id"]]
    assert ghost["ghost_of"] == bob_name
    if welcome["room"]["status"] != "racing":  # (ready at once: no click between races)
        await seat.expect("started")
    solution = next(iter(rooms.known_settings(ghost_race["room_id"]).solution.values()))
    for number, move in enumerate(solution):
        assert (await seat.move(f"c{number}", move))["type"] == "accepted"
    clock.advance(30)  # the ghost's run plays out
    await seat.expect("results", timeout=15)
    you = (await _standings_after(alone, 1))["you"]
    assert (you["wins"], you["score"]) == (1, 1)  # a win, 2 points halved


async def test_entrants_are_told_once_five_minutes_before_the_arena_starts(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    ann = await registered(any_server.url, "ann")
    starts = clock.now_ms() + 10 * 60_000
    arena_id = await _arena(any_server, ann, name="Evening arena", starts_ms=starts)
    assert (await _enter(any_server, arena_id, ann))[0] == 200
    notify, _ = await tab(any_server.url, ann)
    clock.advance(5 * 60 + 1)  # within five minutes of the start
    frame = await notify.expect("notification", timeout=15)
    assert frame["note"]["kind"] == "arena_soon"
    about = {"arena_id": arena_id, "name": "Evening arena", "starts_ms": starts}
    assert frame["note"]["data"] == about
    await any_server.call(any_server.app.state.process.arena_reminders.remind())  # told once
    _, inbox, _ = await api("GET", f"{any_server.url}/api/me/notifications", None, ann["token"])
    assert [note["kind"] for note in inbox["notifications"]] == ["arena_soon"]
