"""The fault campaign: real faults in the middle of races and tournament rounds, and after
each one every move a client saw ``accepted`` is in the room's record exactly once, in
order, and the race or round finishes with the right results.

* ``stalactites serve`` processes get SIGKILL mid-race (three times in one race, moves in
  flight each time) and mid-tournament round (the round still ends on its deadline, run by
  the surviving process);
* the tests' own ``redis-server`` (append-only file, ``appendfsync always``) is killed with
  SIGKILL, and shut down cleanly, mid-race, and started again from its file: the servers
  reconnect (commits, reads, doorbells), moves tried while it is down get ``internal``;
* a client's connection is reset with a move in flight, by the client and by a proxy
  between it and the server.

Clients reconnect with ``last_seq`` and send the unanswered move again under the same id.
The module's figures (faults injected, moves accepted, lost) are printed at its end.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from fault_kit import (
    TALLY,
    CutProxy,
    OwnRedis,
    Racer,
    ServeProcess,
    ShiftedClock,
    StallProxy,
    check_room,
    connect,
    reconnect,
    reset,
)
from server_kit import (
    OPEN_CLIENTS,
    REDIS_URL,
    InProcessServer,
    ProcessServer,
    http,
    make_config,
    new_room,
    seat,
    winning_line,
)
from tournament_kit import Watcher, enter, new_tournament, points, start, view

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")

Launch = Callable[..., ServeProcess]


@pytest.fixture(scope="module", autouse=True)
def campaign_figures(request: pytest.FixtureRequest) -> Iterator[None]:
    """Print the run's figures once the module's tests are done."""
    yield
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    assert capture is not None
    with capture.global_and_fixture_disabled():  # shown without -s
        print(f"\n{TALLY.summary()}")
    assert TALLY.lost == 0 and TALLY.extra == 0, TALLY.summary()


async def close_all() -> None:
    """Close the test's websockets (before stopping servers, which wait for them)."""
    while OPEN_CLIENTS:
        await OPEN_CLIENTS.pop().close()


@pytest.fixture
async def launch(
    tmp_path: Path, redis_prefix: str, spawned: list[ProcessServer]
) -> AsyncIterator[Launch]:
    """Start ``stalactites serve`` processes (on the shared Redis unless told otherwise);
    every one is stopped afterwards, once the test's websockets are closed."""
    started: list[ServeProcess] = []

    def start_one(redis_url: str = REDIS_URL, clock: ShiftedClock | None = None) -> ServeProcess:
        log = tmp_path / f"serve-{len(started)}.log"
        process = ServeProcess(redis_url, redis_prefix, log, None if clock is None else clock.path)
        started.append(process)
        spawned.append(process)
        return process

    yield start_one
    await close_all()
    for process in started:
        process.stop()


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    """A redis-server of this test's own, persisting to its append-only file in tmp_path."""
    server = OwnRedis(tmp_path)
    server.start()
    yield server
    server.stop()


async def racer(server: Any, room_id: str, name: str, tag: str, via: str = "") -> Racer:
    """A seated player connected to the server (or to ``via``, a websocket URL)."""
    _, token = await seat(server.url, room_id, name)
    player = Racer(name, token, LINE, tag)
    await connect(player, via or server.ws_url(room_id))
    return player


async def race(*racers: Racer) -> None:
    for player in racers:
        assert player.client is not None
        await player.client.send(type="ready")
    for player in racers:
        assert player.client is not None
        await player.client.expect("started")


async def results(player: Racer) -> list[dict[str, Any]]:
    """The race's standings, from the results frame (read already, or to come)."""
    client = player.client
    assert client is not None
    seen = [frame for frame in client.frames if frame["type"] == "results"]
    frame = seen[0] if seen else await client.expect("results", timeout=15)
    standings: list[dict[str, Any]] = frame["standings"]
    return standings


async def test_server_processes_killed_mid_race_lose_no_accepted_move(launch: Launch) -> None:
    first, second = launch(), launch()
    room_id = await new_room(first.url, deal=DEAL, step="ones", countdown_s=0, seats=2)
    ann = await racer(first, room_id, "Ann", "a")
    bob = await racer(second, room_id, "Bob", "b")
    await race(ann, bob)
    await ann.play(10)
    await bob.play(5)

    # The first process dies with Ann's move in flight: she goes on on the second.
    await ann.send_unanswered()
    first.kill()
    TALLY.fault("serve SIGKILL mid-race")
    await ann.resume(second.ws_url(room_id))
    await ann.play(10)
    await bob.play(10)

    # Each later process dies with both players' moves in flight: both go to a new one.
    for _ in range(2):
        survivor = launch()
        await ann.send_unanswered()
        await bob.send_unanswered()
        second.kill()
        TALLY.fault("serve SIGKILL mid-race")
        await ann.resume(survivor.ws_url(room_id))
        await bob.resume(survivor.ws_url(room_id))
        await ann.play(10)
        await bob.play(10)
        second = survivor

    await ann.play(len(LINE) - ann.done)
    await bob.play(len(LINE) - bob.done)
    standings = await results(bob)
    assert [(line["player_id"], line["place"]) for line in standings] == [
        (ann.player_id, 1),
        (bob.player_id, 2),
    ]
    await check_room(second.url, room_id, [ann, bob], DEAL)


async def test_a_process_killed_mid_round_the_round_ends_on_its_deadline_elsewhere(
    launch: Launch, tmp_path: Path
) -> None:
    clock = ShiftedClock(tmp_path / "clock")
    first, second = launch(clock=clock), launch(clock=clock)
    settings = {"step": "ones", "rounds": 1, "round_time_s": 60, "deals": [DEAL]}
    tournament_id, admin = await new_tournament(first.url, **settings)
    entrants = {}
    for name in ("Ann", "Bob", "Cat"):
        player_id, token = await enter(first.url, tournament_id, name)
        entrants[name] = Racer(name, token, LINE, name[0].lower(), player_id=player_id)
    ann, bob, cat = entrants.values()
    watcher = await Watcher.open(second.url, tournament_id)
    await watcher.hello(spectator=True)
    status, _, _ = await start(first.url, tournament_id, f"Bearer {admin}")
    assert status == 200
    room_id = (await watcher.expect("round_started", round=1))["room_id"]
    await connect(ann, first.ws_url(room_id))
    await connect(cat, first.ws_url(room_id))
    await connect(bob, second.ws_url(room_id))
    await ann.play(20)
    await cat.play(8)
    await bob.play(12)

    # The process that started the round dies with Ann's and Cat's moves in flight.
    await ann.send_unanswered()
    await cat.send_unanswered()
    first.kill()
    TALLY.fault("serve SIGKILL mid-round")
    await ann.resume(second.ws_url(room_id))
    await cat.resume(second.ws_url(room_id))
    await ann.play(len(LINE) - ann.done)  # Ann wins
    await cat.play(5)
    await bob.play(3)

    clock.advance(61)  # past the round's deadline: the second process ends it
    finished = await watcher.expect("round_finished", round=1, timeout=20)
    final = await watcher.expect("finished", timeout=20)
    lines = {line["player_id"]: line for line in finished["results"]}
    assert lines[ann.player_id]["status"] == "won"
    assert [lines[p.player_id]["status"] for p in (bob, cat)] == ["timeout", "timeout"]
    assert [lines[p.player_id]["moves"] for p in (ann, bob, cat)] == [ann.done, bob.done, cat.done]
    for line in finished["results"]:
        assert line["points"] == points(line)
    assert final["standings"][0]["player_id"] == ann.player_id
    await check_room(second.url, room_id, [ann, bob, cat], DEAL)
    shown = await view(second.url, tournament_id)
    assert shown["status"] == "finished" and shown["standings"] == final["standings"]


async def refused_while_down(player: Racer) -> None:
    """A move tried while Redis is down: ``internal`` (the socket then closes), never
    ``accepted``."""
    await player.send_unanswered()
    client = player.client
    assert client is not None
    frame = await client.recv(15)
    while frame["type"] not in ("error", "accepted", "rejected"):
        frame = await client.recv(15)
    assert (frame["type"], frame["code"]) == ("error", "internal"), frame
    assert await client.closed() == 1011
    TALLY.refused_while_down += 1


async def doorbells_ring(mover: Racer, watcher: Racer, count: int) -> None:
    """The mover's moves reach the watcher on the other process (pub/sub works again)."""
    await mover.play(count)
    assert watcher.client is not None
    await watcher.client.expect("progress", player_id=mover.player_id, moves=mover.done)


@pytest.mark.parametrize("stop", ["kill", "shutdown"])
async def test_redis_restarted_from_its_append_only_file_mid_race(
    launch: Launch, own_redis: OwnRedis, stop: str
) -> None:
    first, second = launch(own_redis.url), launch(own_redis.url)
    room_id = await new_room(first.url, deal=DEAL, step="ones", countdown_s=0, seats=2)
    ann = await racer(first, room_id, "Ann", "a")
    bob = await racer(second, room_id, "Bob", "b")
    await race(ann, bob)
    for _ in range(3):
        await ann.play(6)
        await bob.play(4)
        await ann.send_unanswered()  # in flight as Redis goes: applied or not, never half
        if stop == "kill":
            own_redis.kill()
        else:
            own_redis.shutdown()
        TALLY.fault(f"redis {stop} mid-race")
        await refused_while_down(bob)
        assert await http("GET", f"{first.url}/readyz") == (503, {"status": "unavailable"})
        status, body = await http("GET", f"{second.url}/api/rooms/{room_id}")
        assert (status, body["code"]) == (500, "internal"), body
        own_redis.start()
        assert await http("GET", f"{first.url}/readyz") == (200, {"status": "ok"})
        await ann.resume(first.ws_url(room_id))
        await bob.resume(second.ws_url(room_id), unapplied=True)
        await doorbells_ring(ann, bob, 2)
        await doorbells_ring(bob, ann, 2)
    await ann.play(len(LINE) - ann.done)
    await bob.play(len(LINE) - bob.done)
    standings = await results(ann)
    assert [line["place"] for line in standings] == [1, 2]
    await check_room(second.url, room_id, [ann, bob], DEAL)


@pytest.fixture
def redis_app(redis_prefix: str) -> Iterator[InProcessServer]:
    """A server in this process on the shared Redis, on the system clock."""
    with InProcessServer(make_config(REDIS_URL, prefix=redis_prefix)) as running:
        yield running


async def wait_for_moves(
    base: str, room_id: str, player_id: str, moves: int, within_s: float = 2.5
) -> bool:
    """Whether the room view reaches this many moves for the player within ``within_s``
    (a reset may lose the frame before the server reads it: the cut test does not assert
    it, only gives the server the time to store the move before it is sent again)."""
    for _ in range(int(within_s / 0.05)):
        _, room = await http("GET", f"{base}/api/rooms/{room_id}")
        line = next(p for p in room["players"] if p["player_id"] == player_id)
        if line["moves"] >= moves:
            return True
        await asyncio.sleep(0.05)
    return False


async def test_connections_cut_mid_move_lose_and_double_nothing(
    redis_app: InProcessServer,
) -> None:
    server = redis_app
    port = int(server.url.rsplit(":", 1)[1])
    room_id = await new_room(server.url, deal=DEAL, step="ones", countdown_s=0, seats=1)
    async with CutProxy(port) as proxy:
        ann = await racer(server, room_id, "Ann", "a", via=proxy.ws_url(room_id))
        await race(ann)
        cuts = 0
        while len(LINE) - ann.done > 4:
            await ann.play(3)
            assert ann.client is not None
            if cuts % 2 == 0:  # the client resets its own connection
                await ann.send_unanswered()
                reset(ann.client.ws.transport)
                TALLY.fault("client resets its connection mid-move")
            else:  # the network drops it: the proxy resets both sides after passing the move
                proxy.cut_next()
                await ann.send_unanswered()
                TALLY.fault("connection reset between client and server mid-move")
            cuts += 1
            await wait_for_moves(server.url, room_id, ann.player_id, ann.done + 1)
            await ann.resume(proxy.ws_url(room_id))
            assert ann.client is not None
            again = await ann.client.move(ann.move_id(ann.done - 1), LINE[ann.done - 1])
            ann.note(again)  # the same id once more: the same answer, checked by the ledger
        assert proxy.cuts == cuts // 2
        await ann.play(len(LINE) - ann.done)
        (line,) = await results(ann)
        assert (line["status"], line["moves"]) == ("won", len(LINE))
    await check_room(server.url, room_id, [ann], DEAL)


async def test_a_race_whose_server_died_between_the_last_commit_and_the_finish_still_ends(
    launch: Launch, own_redis: OwnRedis
) -> None:
    async with StallProxy(own_redis.port) as gate:
        first, second = launch(gate.url), launch(own_redis.url)
        room_id = await new_room(
            first.url, deal=DEAL, step="ones", countdown_s=0, seats=1, time_limit_s=900
        )
        ann = await racer(first, room_id, "Ann", "a")
        await race(ann)
        await ann.play(len(LINE) - 1)
        gate.marker = ann.move_id(ann.done).encode()  # the winning move's commit gets through,
        await ann.send_unanswered()  # then the first process reaches Redis no more ...
        await asyncio.wait_for(gate.stalled.wait(), 10)
        assert await wait_for_moves(second.url, room_id, ann.player_id, len(LINE), 30)
        first.kill()  # ... and dies before storing the results
        TALLY.fault("serve SIGKILL between the last commit and the finish")
        await ann.resume(second.ws_url(room_id))
        (line,) = await results(ann)  # now, not when the 900 s are up
        assert (line["status"], line["moves"], line["place"]) == ("won", len(LINE), 1)
        await check_room(second.url, room_id, [ann], DEAL)


async def until_finished(base: str, tournament_id: str) -> dict[str, Any]:
    """The tournament's view once it has finished (polled for up to 20 s)."""
    for _ in range(200):
        shown = await view(base, tournament_id)
        if shown["status"] == "finished":
            return shown
        await asyncio.sleep(0.1)
    raise AssertionError(f"the tournament did not finish: {shown}")


async def test_redis_down_across_a_round_deadline_the_round_ends_once_it_is_back(
    launch: Launch, own_redis: OwnRedis, tmp_path: Path
) -> None:
    clock = ShiftedClock(tmp_path / "clock")
    first, second = launch(own_redis.url, clock), launch(own_redis.url, clock)
    settings = {"step": "ones", "rounds": 1, "round_time_s": 60, "deals": [DEAL]}
    tournament_id, admin = await new_tournament(first.url, **settings)
    ann_id, ann_token = await enter(first.url, tournament_id, "Ann")
    bob_id, bob_token = await enter(first.url, tournament_id, "Bob")
    ann = Racer("Ann", ann_token, LINE, "a", player_id=ann_id)
    bob = Racer("Bob", bob_token, LINE, "b", player_id=bob_id)
    status, _, _ = await start(first.url, tournament_id, f"Bearer {admin}")
    assert status == 200
    room_id = (await view(first.url, tournament_id))["current_round"]["room_id"]
    await connect(ann, first.ws_url(room_id))
    await connect(bob, second.ws_url(room_id))
    await ann.play(15)
    await bob.play(9)

    own_redis.kill()
    TALLY.fault("redis kill across a round deadline")
    await refused_while_down(bob)
    clock.advance(61)  # the deadline passes while Redis is down
    await asyncio.sleep(1)  # the timers find it so and fail
    own_redis.start()

    standings = await results(ann)  # on Ann's socket, open all along
    lines = {line["player_id"]: line for line in standings}
    assert [lines[pid]["status"] for pid in (ann_id, bob_id)] == ["timeout", "timeout"]
    assert [lines[pid]["moves"] for pid in (ann_id, bob_id)] == [15, 9]
    await reconnect(bob, second.ws_url(room_id))  # the move refused while down stays refused
    assert bob.client is not None and bob.pending is not None
    late = await bob.client.move(bob.pending, LINE[bob.done])
    assert (late["type"], late["code"]) == ("rejected", "already_finished"), late
    shown = await until_finished(second.url, tournament_id)
    (round_,) = shown["round_results"]
    assert round_["room_id"] == room_id and round_["finished"] is True
    for line in round_["results"]:
        assert line["points"] == points(line) == lines[line["player_id"]]["foundation_cards"]
    table = {line["player_id"]: line["points"] for line in shown["standings"]}
    assert table == {line["player_id"]: line["points"] for line in round_["results"]}
    assert [line["player_id"] for line in shown["standings"]] == [ann_id, bob_id]
    await check_room(second.url, room_id, [ann, bob], DEAL)


async def test_redis_killed_with_several_players_commits_in_flight_on_one_process(
    launch: Launch, own_redis: OwnRedis
) -> None:
    server = launch(own_redis.url)
    room_id = await new_room(server.url, deal=DEAL, step="ones", countdown_s=0, seats=4)
    racers = [
        await racer(server, room_id, name, name[0].lower()) for name in "Ann Bob Cat Dan".split()
    ]
    await race(*racers)
    for _ in range(3):
        for player in racers:
            await player.play(4)
        for player in racers:  # four commits at once on the process's one commit connection
            await player.send_unanswered()
        own_redis.kill()
        TALLY.fault("redis kill with four commits in flight")
        own_redis.start()
        for player in racers:
            await player.resume(server.ws_url(room_id))
    for place, player in enumerate(racers, start=1):
        await player.play(len(LINE) - player.done)
        assert player.client is not None
        finished = await player.client.expect("finished", player_id=player.player_id)
        assert finished["place"] == place
    standings = await results(racers[-1])
    assert [line["player_id"] for line in standings] == [player.player_id for player in racers]
    await check_room(server.url, room_id, racers, DEAL)


async def test_a_commit_held_by_a_partition_and_delivered_late_is_not_applied_twice(
    launch: Launch, own_redis: OwnRedis
) -> None:
    async with StallProxy(own_redis.port) as gate:
        cut_off, other = launch(gate.url), launch(own_redis.url)
        room_id = await new_room(other.url, deal=DEAL, step="ones", countdown_s=0, seats=1)
        ann = await racer(cut_off, room_id, "Ann", "a")
        await race(ann)
        await ann.play(10)
        gate.stall()  # the first process's way to Redis stalls: its commit is held ...
        TALLY.fault("partition between a server and Redis, healed later")
        await ann.send_unanswered()
        await ann.resume(other.ws_url(room_id))  # ... the client gives up and goes elsewhere
        await ann.play(5)
        gate.release()  # the held commit reaches Redis after the same id was stored elsewhere
        await ann.resume(cut_off.ws_url(room_id))  # back on the first process, all is well
        await ann.play(len(LINE) - ann.done)
        (line,) = await results(ann)
        assert (line["status"], line["moves"]) == ("won", len(LINE))
        await check_room(other.url, room_id, [ann], DEAL)
        await close_all()
        await asyncio.to_thread(cut_off.stop)  # the proxy (in this loop) serves it meanwhile
