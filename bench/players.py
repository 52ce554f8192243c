"""Players at scale on a real Redis: reads of profiles, history pages and leaderboard pages,
the cost of finishing a rated race, and the memory a player and an archived race take.

    .venv/bin/python bench/players.py [--players 100000] [--races 200000] [--readers 50]
        [--seconds 5] [--servers 1] [--no-http] [--only board]

It builds ``--players`` registered players and ``--races`` finished two-player rated races
under a key prefix of its own, through the players' store's own scripts in pipelined
batches (each race: its outcome, both players' histories, ratings and statistics, their
leaderboard lines), then measures p50/p99 of each read with ``--readers`` concurrent
readers and the CPU each read costs the server's side:

* in this process, through :class:`~stalactites.players.PlayerService` on
  :class:`~stalactites.store.players.redis.RedisPlayerStore` (one shared connection, as a
  server process has; no HTTP): random pages, none kept, and the top four pages of the
  board as a server keeps them (a second, :mod:`stalactites.players.pages`);
* through HTTP (unless ``--no-http``): the same reads from ``--servers`` processes of
  ``stalactites serve`` on the same keys, the readers here on keep-alive connections of
  their own spread over them, the servers' CPU read from ``/proc``;

then the CPU µs of this process and of Redis to record one rated two-player race
(:meth:`PlayerService.record_race`: outcome, ratings, histories, statistics, leaderboards);
``MEMORY USAGE`` per player (sampled) and per archived race: a real finished rated
two-player room on a certified deal (the server's, step ``choice``; a won race of the
certificate's line with each action 0.4-3 s after the one before, and a resignation, via
:class:`~stalactites.rooms.RoomService` on the Redis room store, rated and recorded by the
server's :class:`RaceRecorder`) kept for good (its room hash, the archive of its actions
and fields, its outcome), plus both players' history entries (its event list and client
ids, which expire an hour after, are shown apart), after checking that another room
service reads the kept room's winning lines back, found again by the solver.  Its keys are
deleted afterwards.  ``--only board`` builds the board's lines alone (no players' records,
no races) and measures the leaderboard's reads alone.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, cast

import redis

from benchkit import (
    NO_LIMITS,
    REDIS_URL,
    Server,
    delete_keys,
    percentile,
    stalactites_command,
    start_server,
)
from stalactites.clock import SystemClock
from stalactites.config import ServerConfig
from stalactites.live.race_recording import RaceRecorder
from stalactites.players import PlayerService, RacePlayer, RaceResult
from stalactites.players.races import RaceOutcome, player_race
from stalactites.protocol.room import MoveFrame
from stalactites.rooms import CreateRoom, Play, RoomService
from stalactites.store.players.base import PlayerRecord, Rating, board_shown
from stalactites.store.players.redis import RedisPlayerStore
from stalactites.store.rooms.archive import actions_of
from stalactites.store.rooms.redis import RedisStore
from stalactites.workers import worker_pid

BATCH = 2000
GAMES = ("stalactites", "squadron")
BOARD_KEYS = ("board", "versions", "lines")
DEAL = "ms:4"


def player_id(index: int) -> str:
    return f"p.{index:016x}"


async def batched(calls: list[Callable[[], Awaitable[Any]]]) -> None:
    for start in range(0, len(calls), BATCH):
        await asyncio.gather(*(call() for call in calls[start : start + BATCH]))


def line(index: int) -> str:
    """What the board shows of a player (as the service keeps it in the board's member)."""
    return board_shown(f"Player {index}", 1000 + index % 500, 12)


async def build_players(store: RedisPlayerStore, count: int) -> None:
    now = int(time.time() * 1000)

    def one(index: int) -> Callable[[], Awaitable[Any]]:
        async def make() -> None:
            pid = player_id(index)
            await store.create_player(PlayerRecord(pid, f"Player {index}", now))
            await store.claim_username(f"user{index}", pid, None)
            await store.register(pid, f"user{index}", "$argon2id$v=19$m=65536,t=3,p=4$bench")

        return make

    await batched([one(index) for index in range(count)])


def fake_outcome(rng: random.Random, room_id: str, players: int, at: int) -> RaceOutcome:
    """A rated two-player race between random players (ratings moved a little, no OpenSkill:
    the store's work is the same)."""
    a, b = rng.sample(range(players), 2)
    seats = tuple(
        RacePlayer(player_id(i), f"Player {i}", place, status, 60_000 + place, 52 // place, "ones")
        for i, place, status in ((a, 1, "won"), (b, 2, "timeout"))
    )
    result = RaceResult(room_id, "stalactites", DEAL, at, True, seats)
    before = {seat.player_id: Rating() for seat in seats if seat.player_id}
    after = {pid: Rating(r.mu + (1 if i == 0 else -1), r.sigma * 0.97, 1) for i, (pid, r) in
             enumerate(before.items())}  # fmt: skip
    return RaceOutcome(result, before, after)


async def build_races(store: RedisPlayerStore, players: int, races: int) -> None:
    rng = random.Random(13)
    start = int(time.time() * 1000) - races * 1000

    def one(index: int) -> Callable[[], Awaitable[Any]]:
        outcome = fake_outcome(rng, f"bench{index}", players, start + index * 1000)

        async def record() -> None:
            room_id = outcome.result.room_id
            await store.claim_outcome(room_id, outcome.to_json())
            for seat in outcome.result.players:
                assert seat.player_id is not None
                await store.apply_race(seat.player_id, player_race(outcome, seat))
            await store.finish_race(room_id)

        return record

    await batched([one(index) for index in range(races)])


async def build_board(store: RedisPlayerStore, players: int) -> None:
    """Leaderboard lines: every player rated in enough races to be on the board."""
    rng = random.Random(17)
    await batched(
        [
            (
                lambda i=i: store.sync_board(
                    player_id(i), "stalactites", 1, rng.gauss(10, 5), line(i)
                )
            )
            for i in range(players)
        ]
    )


Read = Callable[[random.Random], Awaitable[Any]]


async def read_p99(
    name: str,
    readers: int,
    seconds: float,
    read: Read | Callable[[int], Awaitable[Read]],
    client: redis.Redis,
    servers: list[Server] | None = None,
) -> None:
    """p50/p99 of ``readers`` reading flat out, and the CPU each read took (the server's
    side: this process's, or the ``servers``' when reading through HTTP; and Redis's): in
    one process, a closed loop's latency is about ``readers`` times the larger of the two
    (the readers queue for the one event loop).  With ``servers``, ``read(seed)`` gives
    each reader its own read (its own connection)."""
    times: list[float] = []
    stop = time.monotonic() + seconds

    def cpu_now() -> float:
        if servers is None:
            return time.process_time()
        return sum(server.cpu_seconds() for server in servers)

    cpu, redis_cpu = cpu_now(), redis_cpu_s(client)

    async def reader(seed: int) -> None:
        rng = random.Random(seed)
        own = cast(Read, read) if servers is None else await cast(Any, read)(seed)
        while time.monotonic() < stop:
            began = time.perf_counter()
            await own(rng)
            times.append(time.perf_counter() - began)

    await asyncio.gather(*(reader(seed) for seed in range(readers)))
    cpu = (cpu_now() - cpu) / len(times) * 1e6
    redis_cpu = (redis_cpu_s(client) - redis_cpu) / len(times) * 1e6
    p50, p99 = percentile(times, 0.5), percentile(times, 0.99)
    where = "here" if servers is None else f"{len(servers)} server(s)"
    print(
        f"{name:<22} {len(times):>7} reads  p50 {p50:6.2f} ms  p99 {p99:6.2f} ms  "
        f"CPU per read {cpu:4.0f} µs {where}, {redis_cpu:4.0f} µs Redis"
    )


def http_reads(
    servers: list[Server], path: Callable[[random.Random], str]
) -> Callable[[int], Awaitable[Read]]:
    """Each reader's GETs of ``path(rng)`` on a keep-alive connection of its own, to the
    servers in turn (as a proxy in front of them spreads its clients)."""

    async def connect(seed: int) -> Read:
        server = servers[seed % len(servers)]
        host, port = server.url.split(":")
        reader, writer = await asyncio.open_connection(host, int(port))

        async def get(rng: random.Random) -> None:
            writer.write(f"GET {path(rng)} HTTP/1.1\r\nHost: {server.url}\r\n\r\n".encode())
            head = await reader.readuntil(b"\r\n\r\n")
            found = re.search(rb"content-length: *(\d+)", head, re.IGNORECASE)
            assert head.startswith(b"HTTP/1.1 200") and found is not None, head
            await reader.readexactly(int(found.group(1)))

        return get

    return connect


async def http_p99(args: argparse.Namespace, prefix: str, client: redis.Redis) -> None:
    """The same reads through HTTP: ``--servers`` processes of ``stalactites serve`` on the
    benchmark's keys (their CPU per read from ``/proc``), the readers here on connections of
    their own, spread over them."""
    env = {"REDIS_URL": REDIS_URL, "STALACTITES_REDIS_PREFIX": prefix, **NO_LIMITS}
    servers = [
        start_server(f"players{index}", stalactites_command(), env) for index in range(args.servers)
    ]
    try:
        players, board = args.players, max(args.players - 50, 1)
        paths = {
            "profile": lambda rng: f"/api/players/{player_id(rng.randrange(players))}",
            "history page (20)": lambda rng: (
                f"/api/players/{player_id(rng.randrange(players))}/races?limit=20"
            ),
            "leaderboard page (50)": lambda rng: (
                f"/api/leaderboards/stalactites?limit=50&offset={rng.randrange(board)}"
            ),
            "top 4 pages, kept 1 s": lambda rng: (
                f"/api/leaderboards/stalactites?limit=50&offset={50 * rng.randrange(4)}"
            ),
        }
        if args.only == "board":  # (no players' records: the leaderboard's reads alone)
            paths = {
                name: paths[name] for name in ("leaderboard page (50)", "top 4 pages, kept 1 s")
            }
        print(f"through HTTP, {args.readers} readers on their own connections:")
        for name, path in paths.items():
            reads = http_reads(servers, path)
            await read_p99(name, args.readers, args.seconds, reads, client, servers)
    finally:
        for server in servers:
            server.stop()


def redis_cpu_s(client: redis.Redis) -> float:
    info = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


async def finish_cost(service: PlayerService, client: redis.Redis, players: int) -> None:
    rng = random.Random(7)
    count = 300
    results = []
    for index in range(count):
        a, b = rng.sample(range(players), 2)
        seats = tuple(
            RacePlayer(player_id(i), "x", place, "won" if place == 1 else "timeout", 70_000, 52)
            for i, place in ((a, 1), (b, 2))
        )
        at = int(time.time() * 1000) + index
        results.append(RaceResult(f"cost{index}", "stalactites", DEAL, at, True, seats))
    cpu, redis_cpu, wall = time.process_time(), redis_cpu_s(client), time.perf_counter()
    for result in results:
        await service.record_race(result)
    cpu = (time.process_time() - cpu) / count * 1e6
    redis_used = (redis_cpu_s(client) - redis_cpu) / count * 1e6
    wall = (time.perf_counter() - wall) / count * 1e3
    print(
        f"record a rated 2-player race: {cpu:.0f} µs server CPU, {redis_used:.0f} µs Redis CPU, "
        f"{wall:.2f} ms wall (one after another)"
    )


class RaceClock:
    """The machine's clock and the think time of a player on top: :meth:`think` moves it on
    by a player's pause before a move (0.4-3 s, seeded), so that every action's time in the
    archive is as long as a real race's."""

    def __init__(self) -> None:
        self._ahead, self._rng = 0, random.Random(11)

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000 + self._ahead

    def think(self) -> None:
        self._ahead += self._rng.randrange(400, 3000)


async def archived_room(prefix: str, player_store: RedisPlayerStore) -> tuple[str, list[str]]:
    """A real finished rated two-player room on a certified deal (the server's, step
    ``choice``, as a quick race's), recorded on its two new players and kept: a won race
    (the certificate's ones line, every action timed, 0.4-3 s apart) and a resignation.
    Then a second room service, as another process, reads the kept room: its winning lines
    found again."""
    config = ServerConfig(store_url=REDIS_URL, redis_prefix=prefix, solver_workers=1)
    store, clock = RedisStore(REDIS_URL, prefix), RaceClock()
    rooms = RoomService(store, config, clock)
    players = PlayerService(player_store, clock)
    recorder = RaceRecorder(players, rooms, clock)
    rooms.rater = recorder.rate
    play = Play(rooms, rooms.boards, rooms.store, rooms.clock, rooms.berserk)
    other = RoomService(store, config, clock)
    try:
        await other.solver.run(worker_pid)  # its worker started, as a server's is
        body = CreateRoom(rated=True, countdown_s=0, seats=2)
        room_id = (await rooms.create(body)).room_id
        seats = []
        for _ in range(2):
            someone = await players.create_anonymous()
            seats.append((await rooms.join(room_id, someone.name, someone.player_id))[0])
        ann, bob = seats
        for seat in seats:
            await rooms.ready(room_id, seat)
        settings = await rooms.settings(room_id)
        assert settings.rated and settings.certified and settings.solution is not None
        for index, move in enumerate(settings.solution["ones"]):
            clock.think()
            frame = MoveFrame(type="move", id=f"m{index}", move=move)
            assert (await play.act(room_id, ann, frame)).type == "accepted"
        clock.think()
        await play.resign(room_id, bob)
        await rooms.finalize(room_id)
        assert await recorder.resume() == 1  # the room kept, the race on both players
        began = time.perf_counter()
        view = await other.view(room_id)
        found = (time.perf_counter() - began) * 1e3
        same = view.solution == settings.solution
        print(f"kept room read by another room service: lines found again in {found:.0f} ms, "
              f"the same as published: {same}")  # fmt: skip
        assert same
        keys = store.keys(room_id)
        kept = [keys.room, keys.archive, keys.actions, keys.log(ann), keys.log(bob)]
        outcome = f"{prefix}{{room:{room_id}}}:outcome"
        return room_id, kept + [keys.analysis, keys.presence, outcome]
    finally:
        await other.close()
        await rooms.close()
        await store.close()


def usage(client: redis.Redis, keys: list[str]) -> int:
    return sum(int(client.memory_usage(key, samples=0) or 0) for key in keys)


async def memory(
    client: redis.Redis, store: RedisPlayerStore, prefix: str, players: int, races: int
) -> None:
    rng = random.Random(3)
    sample = rng.sample(range(players), min(500, players))
    identity = history = entries = 0
    for index in sample:
        tag = f"{prefix}{{player:{player_id(index)}}}"
        identity += usage(client, [f"{tag}:player", f"{prefix}{{username:user{index}}}"])
        history += usage(client, [f"{tag}:races", f"{tag}:history"])
        entries += int(client.zcard(f"{tag}:races"))
    board = usage(client, [f"{prefix}{{board:stalactites}}:{name}" for name in BOARD_KEYS])
    per_player = identity / len(sample) + board / players
    per_entry = history / max(entries, 1)
    outcome = usage(client, [f"{prefix}{{room:bench{i}}}:outcome" for i in range(100)]) / 100
    room_id, room_keys = await archived_room(prefix, store)
    room = usage(client, room_keys)
    moves = len(actions_of(client.get(room_keys[1]).decode()))
    parts = ", ".join(f"{key.rsplit('}:', 1)[1]} {usage(client, [key])}" for key in room_keys)
    print(f"archived room {room_id}'s keys kept for good (B): {parts}")
    tag = room_keys[0].rsplit(":", 1)[0]
    grace = [f"{tag}:events", f"{tag}:ids:{player_id(0)}"]
    print(f"  and for the hour's grace only: events, client ids {usage(client, grace)} B")
    print(
        f"memory per player (identity, password hash, board line and version): {per_player:.0f} B"
    )
    print(f"memory per history entry: {per_entry:.0f} B; per race outcome: {outcome:.0f} B")
    per_race = room + 2 * per_entry
    print(
        f"memory per archived rated 2-player race on a certified deal: {per_race:.0f} B "
        f"(room record of {moves} timed actions and its outcome {room} B, 2 history entries)"
    )


async def main_async(args: argparse.Namespace) -> None:
    prefix = f"bench:players:{uuid.uuid4().hex[:8]}:"
    store = RedisPlayerStore(REDIS_URL, prefix)
    client = redis.Redis.from_url(REDIS_URL)
    began = time.monotonic()
    try:
        board_only = args.only == "board"
        if not board_only:
            await build_players(store, args.players)
            built = time.monotonic()
            print(f"{args.players} players built in {built - began:.1f} s")
            await build_races(store, args.players, args.races)
            print(f"{args.races} finished races built in {time.monotonic() - built:.1f} s")
        built = time.monotonic()
        await build_board(store, args.players)
        print(f"a board of {args.players} lines built in {time.monotonic() - built:.1f} s")
        service = PlayerService(store, SystemClock(), board_page_ttl_ms=0)  # every read read
        keeping = PlayerService(store, SystemClock())  # a server's: board pages kept a second
        readers, seconds = args.readers, args.seconds

        async def profile(rng: random.Random) -> None:
            await service.profile(player_id(rng.randrange(args.players)))

        async def history(rng: random.Random) -> None:
            await service.history(player_id(rng.randrange(args.players)), 20)

        async def board(rng: random.Random) -> None:
            await service.leaderboard("stalactites", 50, rng.randrange(max(args.players - 50, 1)))

        async def top(rng: random.Random) -> None:
            await keeping.leaderboard("stalactites", 50, 50 * rng.randrange(4))

        print(f"reads with {readers} concurrent readers, {seconds:.0f} s each:")
        if not board_only:
            await read_p99("profile", readers, seconds, profile, client)
            await read_p99("history page (20)", readers, seconds, history, client)
        await read_p99("leaderboard page (50)", readers, seconds, board, client)
        await read_p99("top 4 pages, kept 1 s", readers, seconds, top, client)
        if args.http:
            await http_p99(args, prefix, client)
        if not board_only:
            await finish_cost(service, client, args.players)
            await memory(client, store, prefix, args.players, args.races)
    finally:
        await store.close()
        client.close()
        deleted = delete_keys(prefix)
        print(f"{deleted} keys deleted; the whole run took {time.monotonic() - began:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--races", type=int, default=200_000)
    parser.add_argument("--readers", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--servers", type=int, default=1, help="server processes for HTTP")
    parser.add_argument(
        "--no-http", dest="http", action="store_false", help="reads in-process only"
    )
    parser.add_argument(
        "--only", choices=["board"], help="board: the leaderboard's lines and reads alone"
    )
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
