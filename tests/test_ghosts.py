"""Ghost races on one server, both stores: a ghost keeps its run's times, is labelled a
ghost everywhere, is unrated and goes into the racer's history; bad asks get clear codes."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ghosts_kit import (
    SourceRun,
    ghost_race,
    ghost_times,
    raced_run,
    source_run,
)
from players_kit import anonymous, api, recorded
from server_kit import Client, ManualClock
from stalactites.ghosts.runs import MIN_ELAPSED_MS, MIN_MOVES, raced
from stalactites.ghosts.service import CANDIDATES
from stalactites.rooms import CreateRoom, RoomSettings
from stalactites.rooms.settings import new_salt
from stalactites.store import IndexedRun

pytestmark = pytest.mark.usefixtures("close_clients")

STALACTITES = str(Path(sys.executable).with_name("stalactites"))


async def test_a_ghost_plays_its_run_at_its_recorded_times_and_is_labelled(
    any_server: Any, clock: ManualClock
) -> None:
    with clock.frozen():  # only the test moves the server's clock: each action's time is exact
        await _ghost_plays_its_run_and_is_labelled(any_server, clock)


async def _ghost_plays_its_run_and_is_labelled(server: Any, clock: ManualClock) -> None:
    run = await source_run(server, moves=5, clock=clock)
    racer = await anonymous(server.url)
    status, answer = await ghost_race(server, run, racer)
    assert status == 201, answer
    room = answer["room"]
    assert room["rated"] is False and room["certified"] is True
    ghost = next(p for p in room["players"] if p["player_id"] != racer["player_id"])
    assert ghost["ghost_of"] == run.player["name"] and ghost["ready"] and ghost["connected"]
    client = await Client.open(server.ws_url(answer["room_id"]))
    welcome = await client.hello(answer["token"])
    assert [p["ghost_of"] for p in welcome["room"]["players"]].count(run.player["name"]) == 1
    await client.send(type="ready")
    await client.expect("started")
    recorded_times = [*run.times, run.line["elapsed_ms"]]
    elapsed_ms = 0
    for due_ms in recorded_times:  # the clock moved to each action's time: played at it
        clock.offset_ms += due_ms - elapsed_ms
        elapsed_ms = due_ms
        await client.expect("progress", player_id=ghost["player_id"], at_ms=due_ms)
    finished = await client.expect("finished", player_id=ghost["player_id"])
    assert finished["status"] == "resigned"
    assert ghost_times(client.frames, ghost["player_id"]) == recorded_times
    await client.send(type="resign")
    results = await client.expect("results")
    lines = {line["player_id"]: line for line in results["standings"]}
    assert lines[ghost["player_id"]]["ghost_of"] == run.player["name"]
    assert not any(line["rated"] for line in lines.values())
    history = await recorded(server.url, racer["player_id"])
    entry = history[0]
    assert entry["room_id"] == answer["room_id"] and entry["rated"] is False
    assert entry["ghost"]["name"] == run.player["name"]
    assert entry["ghost"]["elapsed_ms"] == run.line["elapsed_ms"]
    assert entry["ghost"]["room_id"] == run.room_id
    url = f"{server.url}/api/rooms/{answer['room_id']}/record"  # the ghost's times too
    checked = await asyncio.to_thread(
        subprocess.run, [STALACTITES, "verify", url], capture_output=True, text=True, timeout=60
    )
    assert (checked.returncode, checked.stderr) == (0, ""), checked.stdout


async def test_a_ghost_is_refused_with_a_code_for_each_reason(any_server: Any) -> None:
    run = await source_run(any_server, moves=1)
    racer = await anonymous(any_server.url)
    base = f"{any_server.url}/api/rooms"
    ask = {"player_id": run.player["player_id"]}
    cases = [
        (f"{base}/nosuchroom/ghost", ask, racer["token"], 404, "room_not_found"),
        (f"{base}/{run.room_id}/ghost", {"player_id": "p.0"}, racer["token"], 404, "run_not_found"),
        (f"{base}/{run.room_id}/ghost", ask, run.player["token"], 409, "own_run"),
        (f"{base}/{run.room_id}/ghost", ask, None, 401, "session_required"),
        (f"{base}/{run.room_id}/ghost", {"seat": 1}, racer["token"], 422, "bad_message"),
    ]
    for url, body, token, want_status, code in cases:
        status, answer, _ = await api("POST", url, body, token)
        assert (status, answer["code"]) == (want_status, code), (url, body, answer)
    status, room, _ = await api("POST", base, {"countdown_s": 0, "seats": 1}, racer["token"])
    status, seat, _ = await api("POST", f"{base}/{room['room_id']}/players", {}, racer["token"])
    status, answer, _ = await api("POST", f"{base}/{room['room_id']}/ghost", ask, racer["token"])
    assert (status, answer["code"]) == (409, "not_finished")
    chosen = await source_run(any_server, moves=0, deal="ms:4")
    status, answer = await ghost_race(any_server, chosen, racer)
    assert (status, answer["code"]) == (409, "not_certified")


POOL = "stalactites:choice"
RATING = 1000  # an anonymous player's shown rating, as every runner's and racer's here


async def _race_ghost(server: Any, player_id: str) -> Any:
    """``GhostService.race_ghost`` as the quick-race queue calls it, on the server's loop."""
    ghosts = server.app.state.process.ghosts
    return await server.call(ghosts.race_ghost(player_id, "stalactites", "choice"))


async def _index(server: Any, run: SourceRun, rating: int, won: bool) -> None:
    """Index ``run`` as if its runner had had ``rating`` and it had been won or not."""
    marked = IndexedRun(run.room_id, run.player["player_id"], rating, won)
    store = server.app.state.process.ghost_store
    await server.call(store.add_run(POOL, marked, run.record["deal"], 0))


async def _ghost_name(server: Any, player_id: str) -> str | None:
    """Whose run the queue races ``player_id`` against (None: no ghost)."""
    matched = await _race_ghost(server, player_id)
    if matched is None:
        return None
    names = {view.ghost_of for view in matched.players} - {None}
    assert len(names) == 1, matched.players
    return str(names.pop())


@pytest.mark.own_server
async def test_the_queue_gets_a_ghost_of_another_players_run_won_runs_first(
    any_server: Any, clock: ManualClock
) -> None:
    racer = await anonymous(any_server.url)
    assert await _race_ghost(any_server, racer["player_id"]) is None  # nothing indexed yet
    run = await raced_run(any_server, clock)
    own = await raced_run(any_server, clock)
    matched = await _race_ghost(any_server, own.player["player_id"])
    assert matched is not None  # never their own run: the other one
    names = {view.ghost_of for view in matched.players}
    assert names == {None, run.player["name"]}
    status, view, _ = await api("GET", f"{any_server.url}/api/rooms/{matched.room_id}")
    assert status == 200 and view["rated"] is False and view["seats"] == 2
    client = await Client.open(any_server.ws_url(matched.room_id))
    assert (await client.hello(matched.token))["you"] == own.player["player_id"]


@pytest.mark.own_server
async def test_the_queue_prefers_a_won_run_near_the_rating(
    any_server: Any, clock: ManualClock
) -> None:
    runs = [await raced_run(any_server, clock) for _ in range(2)]
    # The later in the index's order (room|player) is marked won: were won runs not preferred,
    # the earlier would be chosen (equal ratings, the order next).
    first, second = sorted(runs, key=lambda run: f"{run.room_id}|{run.player['player_id']}")
    await _index(any_server, second, RATING, True)
    racer = await anonymous(any_server.url)
    assert await _ghost_name(any_server, racer["player_id"]) == second.player["name"]
    assert first.player["name"] != second.player["name"]


@pytest.mark.own_server
async def test_a_won_run_far_in_rating_beats_a_run_not_won_at_the_rating(
    any_server: Any, clock: ManualClock
) -> None:
    runs = [await raced_run(any_server, clock) for _ in range(2)]  # both resigned: not won
    # The earlier in the index's order stays a run not won at the racer's very rating, first
    # of the runs not won; the later is marked won, 400 points away (past two windows).
    near, far = sorted(runs, key=lambda run: f"{run.room_id}|{run.player['player_id']}")
    await _index(any_server, far, RATING + 400, True)
    racer = await anonymous(any_server.url)
    assert await _ghost_name(any_server, racer["player_id"]) == far.player["name"]
    assert near.player["name"] != far.player["name"]


@pytest.mark.own_server
async def test_a_run_that_did_not_race_is_never_a_ghost(
    any_server: Any, clock: ManualClock
) -> None:
    lasting_s = MIN_ELAPSED_MS / 1000
    with clock.frozen():  # only the third run lasts, however loaded the machine is
        short = [
            await source_run(any_server, moves=0),  # resigned with no move, at once
            await source_run(any_server, moves=MIN_MOVES, gap_s=0),  # the moves, not the time
            await source_run(  # the time, not the moves
                any_server, moves=MIN_MOVES - 1, gap_s=0, clock=clock, lasting_s=lasting_s
            ),
        ]
    assert short[0].line["status"] == "resigned" and short[0].line["moves"] == 0
    assert short[1].line["moves"] >= MIN_MOVES and short[2].line["elapsed_ms"] >= MIN_ELAPSED_MS
    assert not any(raced(run.line["moves"], run.line["elapsed_ms"]) for run in short)
    racer = await anonymous(any_server.url)
    assert await _race_ghost(any_server, racer["player_id"]) is None  # none was indexed
    for run in short:  # indexed all the same (by an index older than the minimums): won, even
        await _index(any_server, run, RATING, True)
    assert await _race_ghost(any_server, racer["player_id"]) is None  # never chosen
    run = await raced_run(any_server, clock)
    assert await _ghost_name(any_server, racer["player_id"]) == run.player["name"]


@pytest.mark.own_server
async def test_the_queue_looks_past_runs_it_cannot_race(
    any_server: Any, clock: ManualClock
) -> None:
    store = any_server.app.state.process.ghost_store
    for n in range(CANDIDATES + 1):  # gone rooms at the racer's rating, first in the index
        for won in (True, False):
            gone = IndexedRun(f"!gone{n:02}", "p.0", RATING, won)
            await any_server.call(store.add_run(POOL, gone, f"sr:{n}", 0))
    run = await raced_run(any_server, clock)  # indexed not won, at the racer's rating
    await _index(any_server, run, RATING + 300, True)
    racer = await anonymous(any_server.url)
    assert await _ghost_name(any_server, racer["player_id"]) == run.player["name"]


async def test_the_ghost_of_a_quick_races_run_races_instead_of_resigning_at_the_start(
    any_server: Any, clock: ManualClock
) -> None:
    """A quick race's start puts out its seats not connected; a ghost never connects, so a
    ghost room that kept the source's ``quick`` had its ghost resign at 0:00 with no move."""
    process = any_server.app.state.process
    runner = await anonymous(any_server.url)
    body = CreateRoom.model_validate({"seats": 1, "countdown_s": 0})
    chosen = await any_server.call(process.rooms.pick_deal("stalactites", "choice"))
    settings = RoomSettings.resolve(body, chosen.deal, True, chosen.solution, new_salt())
    quick = settings.model_copy(update={"quick": True, "private": True})  # as the queue makes
    room_id = await any_server.call(process.rooms.open(quick))
    _, token = await any_server.call(
        process.rooms.join(room_id, runner["name"], runner["player_id"])
    )
    client = await Client.open(any_server.ws_url(room_id))
    await client.hello(token)
    await client.send(type="ready")
    legal = (await client.expect("started"))["legal"]
    assert (await client.move("m0", legal[0]))["type"] == "accepted"
    clock.advance(30)
    await client.send(type="resign")
    await client.expect("results")
    await recorded(any_server.url, runner["player_id"])
    racer = await anonymous(any_server.url)
    run = SourceRun(room_id, runner, {})
    status, matched = await ghost_race(any_server, run, racer)
    assert status == 201, matched
    room = await Client.open(any_server.ws_url(matched["room_id"]))
    await room.hello(matched["token"])
    await room.send(type="ready")
    await room.expect("started")
    _, view, _ = await api("GET", f"{any_server.url}/api/rooms/{matched['room_id']}")
    assert view["quick"] is False
    [ghost] = [line for line in view["players"] if line["ghost_of"]]
    assert ghost["status"] == "playing"  # not "resigned" at the start
    await room.expect("progress", player_id=ghost["player_id"])  # its move, on its time
