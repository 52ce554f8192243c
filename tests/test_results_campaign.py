"""The results log's fault campaign: hundreds of races finished at the same moment on two
``stalactites serve`` processes, a process SIGKILLed at random points between the last move
and the records, the Redis server (``appendfsync always``) killed and started again from its
append-only file; every race is recorded exactly once.

The races: rated two-seat rooms (each racer on another process, each playing three moves,
then both resigning at once), official and practice daily attempts, rated quick races and
tournament rounds, in batches finished together.  A fault strikes once a random number of a
batch's races have shown their results (none: right after the resignations went).  Before a
kill, a fifth of the rated rooms' racers on the doomed process walk away without resigning;
after a fault the others go back to any live process and resign again if their resignation
was lost (half the rated rooms' racers do not come back).  At the end the processes' clock is
moved past every race's deadline: their sweeps end the races left racing, with no socket
left, and one more process is killed as they do.  The effects, read with redis-py:

* each race once in each of its players' histories, within ``PROMPT_S`` for the races of
  the batches with no fault and before the clock moves (once it has moved 65 s, the sweeps'
  recheck of a finished room not recorded would put it in the log again: this is what finds
  a finish that was never appended);
* once all has settled, every race once in every history and nothing else there; each
  race's outcome (its ratings, fixed once as it ended) marked recorded, and each player's
  rating changed once per race whose outcome rates them; each official attempt on its day's
  board once and no practice attempt there; each tournament round counted once in the
  standings; the results log and the rooms' deadlines empty.

The players' own resumption of half-recorded races is put off past the campaign, so that
every effect has to come through the results log.  Races left in the players' pending races
are shown, not counted: an entry re-added there after its race was recorded changes no effect
(the players' resumption takes it out).  A round room a tournament opened and never used (a
process that lost the round's transition) must never be raced nor recorded: it counts as
doubled (``ORPHANS_SHOWN`` False).

The fault points come from a seeded random generator; the seed is printed, and
``STALACTITES_CAMPAIGN_SEED`` replays them (not the processes' timing).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis
from websockets.exceptions import ConnectionClosed

from daily_kit import attempt
from fault_kit import OwnRedis, ServeProcess, ShiftedClock
from match_kit import queued_player
from players_kit import anonymous, api
from server_kit import OPEN_CLIENTS, Client
from stalactites.players.races import RaceOutcome
from stalactites.tournaments.rounds import tournament_of_room
from tournament_kit import start, view

pytestmark = pytest.mark.usefixtures("close_clients")

PREFIX = "campaign:"
LOG, DUE = f"{PREFIX}{{results:0}}:log", f"{PREFIX}{{results:0}}:due"
SETTINGS = {
    "STALACTITES_RESULTS_CLAIM_S": "1",
    "STALACTITES_RESULTS_POLL_S": "0.2",
    "STALACTITES_PLAYERS_RESUME_S": "3600",  # the players' effects come from the log alone
    "STALACTITES_DAILY_SECRET": "the campaign's secret",
    "STALACTITES_LOG_LEVEL": "warning",
}
TIME_LIMIT_S = 60  # the shortest race the API allows (rooms/settings.py)
MOVES = 3  # each racer's moves before resigning: a race really raced (and so rated)
RATED = {"rated": True, "countdown_s": 0, "time_limit_s": TIME_LIMIT_S}
ROUNDS, ROUND_S = 2, 60  # each tournament's
TOURNAMENT = {
    "name": "Cup",
    "step": "ones",
    "rounds": ROUNDS,
    "round_time_s": ROUND_S,
    "break_s": 0,
}

BATCHES = 12
RATED_PER_BATCH = 26  # rated rooms finished together in each batch
POOL = 2 * RATED_PER_BATCH + 4  # the rated rooms' players, each in one room a batch
DAILY_PER_BATCH = 2  # official attempts (and one practice attempt every other batch)
QUICK_BATCHES = (1, 7)  # batches that also race quick races ...
QUICK_PER_BATCH = 3  # ... this many
TOURNAMENTS = 3  # two entrants each, no break between the rounds
KILLS = (2, 4, 8, 10)  # the batches whose finishes a serve process dies in
ABANDONED = 0.2  # the share of a kill's rated rooms whose racer on the doomed process quits
REDIS_RESTART = 6  # the batch whose finishes Redis dies in
PROMPT_S = 20.0  # a race of a batch with no fault is recorded this soon
SETTLE_S = 45.0  # once the clock is past every deadline, all is recorded this soon
# Two processes that begin a tournament's round at the same moment each open a round room;
# only the one whose transition won is put in the deadlines (tournaments/service.py,
# _begin_round), so the loser's room is never raced.  True would show such rooms apart.
ORPHANS_SHOWN = False


@dataclass
class Seat:
    """A racer: the player, the token their socket says hello with, the process it is on."""

    player_id: str
    token: str
    server: ServeProcess
    client: Client | None = None


@dataclass
class Race:
    kind: str  # rated, daily, practice, quick, round
    room_id: str
    seats: list[Seat]
    date: str = ""  # a daily attempt's day
    batch: int = -1


@dataclass
class Tournament:
    tournament_id: str
    entrants: list[tuple[str, str]]  # (player id, entry token)
    played: int = 0  # rounds whose racers have resigned


@dataclass
class Audit:
    """The store against the ledger: effects missing, effects there twice (or that no race
    should have had), effects checked."""

    lost: int = 0
    doubled: int = 0
    checked: int = 0
    pending: int = 0  # races left in the players' pending races (no effect: a leak)
    rated: int = 0  # races whose outcome rates their players
    orphans: set[str] = field(default_factory=set)  # see ORPHANS_SHOWN
    notes: list[str] = field(default_factory=list)

    def count(self, surplus: int, note: str) -> None:
        """One effect checked: ``surplus`` times more than expected (negative: missing)."""
        self.checked += 1
        if surplus < 0:
            self.lost -= surplus
            self.notes.append(f"lost {-surplus}: {note}")
        elif surplus > 0:
            self.doubled += surplus
            self.notes.append(f"doubled {surplus}: {note}")


class Campaign:
    """The Redis, the live processes on it, and the ledger of every race expected recorded."""

    def __init__(self, tmp_path: Path, seed: int) -> None:
        self.tmp_path, self.rng = tmp_path, random.Random(seed)
        self.redis = OwnRedis(tmp_path)
        self.clock = ShiftedClock(tmp_path / "clock")
        self.started: list[ServeProcess] = []
        self.live: list[ServeProcess] = []
        self.races: list[Race] = []
        self.tournaments: list[Tournament] = []
        self.faults: Counter[str] = Counter()
        self.to_deadline = 0  # races left racing until the clock passed their deadline

    def launch(self) -> ServeProcess:
        log = self.tmp_path / f"serve-{len(self.started)}.log"
        process = ServeProcess(self.redis.url, PREFIX, log, self.clock.path)
        self.started.append(process)
        return process

    def stop(self) -> None:
        for process in self.started:
            process.stop()
        self.redis.stop()

    def store(self) -> redis.Redis:
        return redis.Redis.from_url(self.redis.url, decode_responses=True)

    # Faults.

    async def kill_one(self, index: int | None = None) -> None:
        """SIGKILL a live process (the generator's pick); a new one takes its place."""
        index = self.rng.randrange(len(self.live)) if index is None else index
        self.live[index].kill()
        self.faults["kill"] += 1
        self.live[index] = await asyncio.to_thread(self.launch)

    async def restart_redis(self) -> None:
        """SIGKILL the Redis server; start it again on its append-only file."""
        self.redis.kill()
        self.faults["redis"] += 1
        await asyncio.to_thread(self.redis.start)

    # The races' ends.

    async def finish(self, races: list[Race], fault: str | None) -> None:
        """Every racer resigns at once; a fault strikes once the generator's number of races
        have shown their results (none: right after the resignations went).  Before a kill,
        some rated rooms' racers on the doomed process walk away instead: those races end at
        their deadline, with no socket left."""
        victim = self.rng.randrange(len(self.live))
        gone = set()
        if fault == "kill":
            rated = [race for race in races if race.kind == "rated"]
            gone = {id(race) for race in rated if self.rng.random() < ABANDONED}
        resigning = [
            seat.client
            for race in races
            for seat in race.seats
            if seat.client and (id(race) not in gone or seat.server is not self.live[victim])
        ]
        await asyncio.gather(*(client.send(type="resign") for client in resigning))
        waits = [asyncio.create_task(results_of(race)) for race in races]
        if fault is None:
            shown = await asyncio.gather(*waits)
            unseen = [race.room_id for race, seen in zip(races, shown, strict=True) if not seen]
            assert not unseen, unseen
        else:
            await first_done(waits, self.rng.randint(0, (len(races) - len(gone)) // 2))
            await (self.kill_one(victim) if fault == "kill" else self.restart_redis())
            for wait in waits:
                wait.cancel()
        await close_all()
        if fault is not None:  # racers of a lost resignation go back and resign again
            kept = [race for race in races if id(race) not in gone]
            mended = [race for race in kept if race.kind != "rated" or self.rng.random() < 0.5]
            await asyncio.gather(*(self.mend(race) for race in mended))

    async def mend(self, race: Race) -> None:
        """Each racer says hello again on a live process; one still playing resigns."""
        for seat in race.seats:
            seat.server = self.rng.choice(self.live)
            welcome = await hello_again(seat, race.room_id)
            assert seat.client is not None
            [me] = [p for p in welcome["room"]["players"] if p["player_id"] == seat.player_id]
            if me["status"] == "playing":
                await seat.client.send(type="resign")
                await seat.client.expect("finished", player_id=seat.player_id, status="resigned")
            await seat.client.close()

    # Each kind of race, up to its start.

    async def rated(self, ann: dict[str, Any], bob: dict[str, Any]) -> Race:
        """A rated room, Ann's socket on one process and Bob's on the other."""
        one, two = self.rng.sample(self.live, 2)
        status, room, _ = await api("POST", f"{one.url}/api/rooms", RATED)
        assert status == 201, room
        seats = [Seat(p["player_id"], p["token"], s) for p, s in ((ann, one), (bob, two))]
        for seat in seats:
            url = f"{seat.server.url}/api/rooms/{room['room_id']}/players"
            status, body, _ = await api("POST", url, {}, seat.token)
            assert status == 201, body
        race = Race("rated", room["room_id"], seats)
        await ready(race)
        return race

    async def daily(self, someone: dict[str, Any], official: bool) -> Race:
        """A daily attempt of the player's: their first of the day is the official one."""
        server = self.rng.choice(self.live)
        made = await attempt(server.url, "stalactites", someone["token"])
        assert made["official"] is official, made
        seat = Seat(someone["player_id"], made["token"], server)
        kind = "daily" if official else "practice"
        race = Race(kind, made["room_id"], [seat], date=made["date"])
        await ready(race)
        return race

    async def quick(self, count: int) -> list[Race]:
        """``count`` quick races of new players, queued half on each process (rated)."""
        sessions = await asyncio.gather(*(anonymous(self.live[0].url) for _ in range(2 * count)))
        servers = [self.live[n % 2] for n in range(2 * count)]
        arrivals = zip(servers, sessions, strict=True)
        queued = await asyncio.gather(*(queued_player(s, m, step="ones") for s, m in arrivals))
        frames = await asyncio.gather(*(matched(client) for client in queued))
        rooms: dict[str, list[Seat]] = {}
        for server, made, frame in zip(servers, sessions, frames, strict=True):
            seat = Seat(made["player_id"], frame["token"], server)
            rooms.setdefault(frame["room_id"], []).append(seat)
        assert sorted(map(len, rooms.values())) == [2] * count, rooms
        races = [Race("quick", room_id, seats) for room_id, seats in rooms.items()]
        await asyncio.gather(*(connect(race) for race in races))
        await asyncio.gather(*(play_started(seat) for race in races for seat in race.seats))
        return races

    async def enter(self) -> None:
        """The tournaments, their entrants with a session each, started."""
        for _ in range(TOURNAMENTS):
            server = self.rng.choice(self.live)
            status, made, _ = await api("POST", f"{server.url}/api/tournaments", TOURNAMENT)
            assert status == 201, made
            tournament = Tournament(made["tournament_id"], [])
            for _ in range(2):
                someone = await anonymous(server.url)
                url = f"{server.url}/api/tournaments/{tournament.tournament_id}/players"
                status, entry, _ = await api("POST", url, {}, someone["token"])
                assert status == 201 and entry["player_id"] == someone["player_id"], entry
                tournament.entrants.append((entry["player_id"], entry["token"]))
            bearer = f"Bearer {made['admin_token']}"
            status, body, _ = await start(server.url, tournament.tournament_id, bearer)
            assert status == 200, body
            self.tournaments.append(tournament)

    async def rounds(self) -> list[Race]:
        """The tournaments' rounds in play that their entrants have not played yet, started
        (the entrants on both processes)."""
        races = []
        for tournament in self.tournaments:
            shown = await view(self.live[0].url, tournament.tournament_id)
            current = shown["current_round"]
            if current is None or current["round"] <= tournament.played:
                continue
            tournament.played = current["round"]
            seats = [
                Seat(player_id, token, self.live[n % 2])
                for n, (player_id, token) in enumerate(tournament.entrants)
            ]
            races.append(Race("round", current["room_id"], seats))
        await asyncio.gather(*(ready_round(race) for race in races))
        return races

    async def batch(self, number: int, pool: list[dict[str, Any]]) -> list[Race]:
        """One batch of races, all started, to be finished together."""
        self.rng.shuffle(pool)
        pairs = [(pool[2 * n], pool[2 * n + 1]) for n in range(RATED_PER_BATCH)]
        daily = [await anonymous(self.live[1].url) for _ in range(DAILY_PER_BATCH)]
        made = [self.rated(ann, bob) for ann, bob in pairs]
        made += [self.daily(someone, official=True) for someone in daily]
        races = list(await asyncio.gather(*made))
        if number % 2:  # the first official attempt's player tries again: practice
            races.append(await self.daily(daily[0], official=False))
        if number in QUICK_BATCHES:
            races += await self.quick(QUICK_PER_BATCH)
        races += await self.rounds()
        for race in races:
            race.batch = number
        self.races += races
        return races

    # The end: the last rounds, the clock past every deadline, one more kill.

    async def end(self) -> None:
        """Play the tournaments' last rounds; move the clock past every race's deadline, and
        kill a process once the sweeps have begun ending the races left racing."""
        deadline = time.monotonic() + SETTLE_S
        while any(t.played < ROUNDS for t in self.tournaments):
            assert time.monotonic() < deadline, "a tournament's next round did not begin"
            races = await self.rounds()
            self.races += races
            if races:
                await self.finish(races, None)
            else:
                await asyncio.sleep(0.1)  # the tournament's next round is being begun
        racing = self.racing()
        self.to_deadline = len(racing)
        self.clock.advance(TIME_LIMIT_S + 5)
        deadline = time.monotonic() + SETTLE_S
        while racing and len(self.racing()) == len(racing) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        await self.kill_one()

    def racing(self) -> list[str]:
        """The rooms of the ledger not finished in the store."""
        store = self.store()
        try:
            with store.pipeline(transaction=False) as pipe:
                for race in self.races:
                    pipe.hget(f"{PREFIX}{{room:{race.room_id}}}:room", "status")
                statuses = pipe.execute()
        finally:
            store.close()
        return [r.room_id for r, s in zip(self.races, statuses, strict=True) if s != "finished"]

    # The store against the ledger.

    async def settled(self, races: list[Race], whole: bool, within_s: float) -> Audit:
        """The audit of these races once it finds nothing wrong, or after ``within_s``."""
        deadline = time.monotonic() + within_s
        while (found := await self.audit(races, whole)).notes and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        return found

    async def audit(self, races: list[Race], whole: bool) -> Audit:
        """The effects of these races; ``whole``: of the whole campaign (and then nothing
        else in any history or on any board, every rating, the tournaments, the log and the
        deadlines empty)."""
        found = Audit()
        shown = [await view(self.live[0].url, t.tournament_id) for t in self.tournaments]
        if whole:
            for tournament in shown:
                self.audit_tournament(tournament, found)
        rounds = {record["room_id"] for t in shown for record in t["round_results"]}
        store = self.store()
        try:
            self.audit_histories(store, races, whole, found, rounds)
            self.audit_daily(store, races, whole, found)
            if whole:
                self.audit_ratings(store, found)
                found.count(-int(store.xlen(LOG)), "entries left in the results log")
                found.count(-int(store.zcard(DUE)), "rooms left due")
                found.pending = int(store.hlen(f"{PREFIX}{{races}}:pending"))
        finally:
            store.close()
        return found

    def audit_histories(
        self, store: redis.Redis, races: list[Race], whole: bool, found: Audit, rounds: set[str]
    ) -> None:
        """Each race once in each of its players' histories (its mark and its entry).  A room
        of one of the tournaments' that none of its rounds was played in is shown apart (an
        orphaned round room: see ORPHANS_SHOWN)."""
        ours = {tournament.tournament_id for tournament in self.tournaments}
        expected: dict[str, Counter[str]] = {}
        for race in races:
            for seat in race.seats:
                expected.setdefault(seat.player_id, Counter())[race.room_id] += 1
        for player_id, rooms in expected.items():
            key = f"{PREFIX}{{player:{player_id}}}"
            marks = Counter(str(m).split(":", 1)[1] for m in store.zrange(f"{key}:races", 0, -1))
            entries = {str(room_id) for room_id in store.hkeys(f"{key}:history")}
            for room_id in (rooms | marks) if whole else rooms:
                if ORPHANS_SHOWN and tournament_of_room(room_id) in ours and room_id not in rounds:
                    found.orphans.add(room_id)
                    continue
                there = marks[room_id] if room_id in entries else 0
                found.count(there - rooms[room_id], f"room {room_id} in {player_id}'s history")

    def audit_ratings(self, store: redis.Redis, found: Audit) -> None:
        """Each race's outcome (its ratings before and after, fixed once as it ended) marked
        recorded; each player's rating changed once per race whose outcome rates them."""
        keys = [f"{PREFIX}{{room:{race.room_id}}}:outcome" for race in self.races]
        rated: Counter[str] = Counter()
        for race, text in zip(self.races, store.mget(keys), strict=True):
            stored = None if text is None else str(text)
            found.count(-int(stored is None or stored[0] != "1"), f"{race.room_id}'s outcome")
            outcome = None if stored is None else RaceOutcome.from_json(stored[1:])
            for seat in race.seats:
                changed = outcome is not None and outcome.change(seat.player_id) is not None
                rated[seat.player_id] += changed
            found.rated += outcome is not None and bool(outcome.after)
        for player_id, count in rated.items():
            rating = store.hget(f"{PREFIX}{{player:{player_id}}}:player", "rating:stalactites")
            races = 0 if rating is None else int(str(rating).split("|")[2])
            found.count(races - count, f"{player_id}'s rating's races")

    def audit_daily(self, store: redis.Redis, races: list[Race], whole: bool, found: Audit) -> None:
        """Each official attempt on its day's boards once (the registered players' or, for an
        anonymous player, the guests'); no practice attempt there."""
        official = [race for race in races if race.kind == "daily"]
        for date in {race.date for race in official}:
            day = f"{PREFIX}{{daily:stalactites:{date}}}"
            kept = [*store.hvals(f"{day}:entries"), *store.hvals(f"{day}:guest-entries")]
            entries = [json.loads(text) for text in kept]
            board = Counter((entry["player_id"], entry["room_id"]) for entry in entries)
            on_day = [race for race in official if race.date == date]
            for race in on_day:
                there = board.pop((race.seats[0].player_id, race.room_id), 0)
                found.count(there - 1, f"official attempt {race.room_id} on {date}'s board")
            if whole:
                for (_, room_id), count in board.items():
                    found.count(count, f"attempt {room_id} on {date}'s board")
                placed = int(store.zcard(f"{day}:board")) + int(store.zcard(f"{day}:guests"))
                found.count(placed - len(on_day), f"{date}'s boards")

    def audit_tournament(self, shown: dict[str, Any], found: Audit) -> None:
        """Each round once, finished; each entrant's standing the sum of their rounds."""
        named = shown["tournament_id"]
        numbers = Counter(
            record["round"] for record in shown["round_results"] if record["finished"]
        )
        for number in range(1, ROUNDS + 1):
            found.count(numbers.pop(number, 0) - 1, f"{named}'s round {number}")
        found.count(sum(numbers.values()), f"{named}'s rounds beyond the last")
        lines = [line for record in shown["round_results"] for line in record["results"]]
        round_ms = ROUND_S * 1000
        for standing in shown["standings"]:
            mine = [line for line in lines if line["player_id"] == standing["player_id"]]
            played_ms = sum(
                line["elapsed_ms"] if line["status"] == "won" else round_ms for line in mine
            )
            counted = (standing["total_time_ms"] - played_ms) // round_ms
            found.count(counted, f"{standing['player_id']}'s rounds in {named}'s standings")
            points = standing["points"] - sum(line["points"] for line in mine)
            found.count(points, f"{standing['player_id']}'s points in {named}'s standings")


async def close_all() -> None:
    while OPEN_CLIENTS:
        with contextlib.suppress(Exception):
            await OPEN_CLIENTS.pop().close()


async def connect(race: Race) -> list[dict[str, Any]]:
    """Each racer's socket on their process, hello said; the welcomes."""
    welcomes = []
    for seat in race.seats:
        seat.client = await Client.open(seat.server.ws_url(race.room_id), max_queue=None)
        welcomes.append(await seat.client.hello(seat.token))
    return welcomes


async def ready(race: Race) -> None:
    """The racers connected and ready; the race started for each."""
    await connect(race)
    for seat in race.seats:
        assert seat.client is not None
        await seat.client.send(type="ready")
    for seat in race.seats:
        await play_started(seat)


async def ready_round(race: Race) -> None:
    """The entrants connected to the round's room; the race started for each (a round
    starts by itself)."""
    welcomes = await connect(race)
    for seat, welcome in zip(race.seats, welcomes, strict=True):
        racing = welcome["room"]["status"] == "racing"
        await play(seat, welcome["legal"] if racing else await started(seat))


async def started(seat: Seat) -> list[str]:
    """The race started for the racer: their legal moves."""
    assert seat.client is not None
    legal: list[str] = (await seat.client.expect("started", timeout=15))["legal"]
    return legal


async def play_started(seat: Seat) -> None:
    await play(seat, await started(seat))


async def play(seat: Seat, legal: list[str]) -> None:
    """The racer's first ``MOVES`` moves, each the first legal one, each accepted."""
    assert seat.client is not None
    for number in range(MOVES):
        if not legal:
            return
        answer = await seat.client.move(f"m{number}", legal[0])
        assert answer["type"] == "accepted", answer
        legal = answer["legal"]


async def matched(client: Client) -> dict[str, Any]:
    for frame in client.frames:
        if frame["type"] == "matched":
            return frame
    return await client.expect("matched", timeout=20)


async def results_of(race: Race) -> bool:
    """Whether the race's results reach its last racer's socket (False: the socket closed)."""
    client = race.seats[-1].client
    assert client is not None
    try:
        await client.expect("results", timeout=20)
    except ConnectionClosed:
        return False
    return True


async def first_done(tasks: list[asyncio.Task[bool]], count: int) -> None:
    """Wait until ``count`` of the tasks are done (or all of them)."""
    pending = set(tasks)
    while len(tasks) - len(pending) < min(count, len(tasks)):
        _, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)


async def hello_again(seat: Seat, room_id: str) -> dict[str, Any]:
    """A new socket for the racer on their (live) process, hello said: its welcome; tried
    again while the process is still reaching its store."""
    deadline = time.monotonic() + 30
    while True:
        try:
            seat.client = await Client.open(seat.server.ws_url(room_id), max_queue=None)
            await seat.client.send(type="hello", token=seat.token)
            welcome = await seat.client.recv()
            if welcome["type"] == "welcome":
                seat.client.last_seq, seat.client.you = welcome["seq"], welcome["you"]
                return welcome
        except (OSError, ConnectionClosed, TimeoutError) as error:
            welcome = {"error": repr(error)}
        assert time.monotonic() < deadline, (room_id, welcome)
        await asyncio.sleep(0.2)


@pytest.fixture
def seed() -> int:
    chosen = os.environ.get("STALACTITES_CAMPAIGN_SEED")
    return int(chosen) if chosen else secrets.randbelow(1 << 32)


@pytest.fixture
async def campaign(
    tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Campaign]:
    """The Redis and two processes on it, their clock read from the campaign's file."""
    for name, value in SETTINGS.items():
        monkeypatch.setenv(name, value)  # what ServeProcess starts them with
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(32))  # HTTP calls
    running = Campaign(tmp_path, seed)
    running.redis.start()
    try:
        running.live = [running.launch(), running.launch()]
        yield running
    finally:
        await close_all()
        running.stop()


@pytest.fixture
def printed(request: pytest.FixtureRequest) -> Iterator[list[str]]:
    """Lines printed at the end, even without ``-s``."""
    lines: list[str] = []
    yield lines
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    assert capture is not None
    with capture.global_and_fixture_disabled():
        for line in lines:
            print(f"\n{line}")


async def test_every_race_is_recorded_exactly_once_whatever_dies_when(
    campaign: Campaign, seed: int, printed: list[str]
) -> None:
    printed.append(f"results campaign: seed {seed} (STALACTITES_CAMPAIGN_SEED={seed} replays it)")
    began = time.monotonic()
    pool = list(await asyncio.gather(*(anonymous(campaign.live[0].url) for _ in range(POOL))))
    await campaign.enter()
    for number in range(BATCHES):
        races = await campaign.batch(number, pool)
        fault = "kill" if number in KILLS else "redis" if number == REDIS_RESTART else None
        await campaign.finish(races, fault)
    calm = [race for race in campaign.races if race.batch not in (*KILLS, REDIS_RESTART)]
    prompt = await campaign.settled(calm, False, PROMPT_S)
    await campaign.end()
    found = await campaign.settled(campaign.races, True, SETTLE_S)
    found.count(-len(campaign.racing()), "races never ended")

    kinds = Counter(race.kind for race in campaign.races)
    shown = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
    lost, doubled = prompt.lost + found.lost, prompt.doubled + found.doubled
    printed.append(
        f"results campaign (seed {seed}): {len(campaign.races)} races ({shown}; "
        f"{found.rated} rated), {campaign.faults['kill']} kills, "
        f"{campaign.faults['redis']} Redis restart, "
        f"{prompt.checked + found.checked} effects checked, lost {lost}, doubled {doubled} "
        f"({time.monotonic() - began:.0f} s; {campaign.to_deadline} races ended at their "
        f"deadline; {found.pending} left in the players' pending races; "
        f"{len(found.orphans)} orphaned round rooms recorded)"
    )
    assert (lost, doubled) == (0, 0), (prompt.notes[:10], found.notes[:10])
