"""Fair play over real websockets and HTTP, on both stores: a solver bot's official daily run
is held at once and shown on no board but to its player as under review; a human-paced run
(the server's clock moved 0.8-3 s between moves) is not; reports and their refusals; the
moderators' queue, decisions and audit log; the role granted from the command line; an
arena's race won by a held run, counted once cleared."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from arena_kit import ArenaClient
from daily_kit import attempt
from match_kit import queued_player
from players_kit import anonymous, api, race_rated, recorded
from server_kit import REDIS_URL, Client, InProcessServer, ManualClock, make_config
from stalactites.fairplay.record import FairRecord
from stalactites.fairplay.service import set_moderator
from stalactites.store import FairPlayStore, open_fairplay_store

pytestmark = pytest.mark.usefixtures("close_clients")

GAME = "stalactites"
COMMAND = str(Path(sys.executable).with_name("stalactites"))


async def account(base: str, username: str) -> dict[str, Any]:
    made = await anonymous(base)
    body = {"username": username, "password": "correct horse battery"}
    status, answer, _ = await api("POST", f"{base}/api/accounts", body, made["token"])
    assert status == 201, answer
    return made


async def until(done: Callable[[], bool], seconds: float) -> None:
    """Wait until ``done()`` (an in-process server's counter), ``seconds`` at most."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"not done in {seconds} s"
        await asyncio.sleep(0.02)


async def play_attempt(
    server: InProcessServer, token: str, clock: ManualClock, gaps: list[float] | None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play today's official attempt: the room's winning line at once (``gaps`` None: a
    solver bot, every move within the same millisecond of the server's clock, stopped, however
    slow a loaded machine makes the round trips), or legal moves chosen at random with the
    server's clock moved ``gaps`` seconds before each, then resign.  The attempt, and the
    player's history once recorded."""
    recorder = server.app.state.process.recorder
    done = recorder.recorded
    made = await attempt(server.url, GAME, token)
    client = await Client.open(server.ws_url(made["room_id"]))
    await client.hello(made["token"])
    with clock.frozen() if gaps is None else contextlib.nullcontext():
        await _play(server, client, made["room_id"], clock, gaps)
    await client.close()
    # Every effect stored (fair play's assessment, the history, the day's board): the solver's
    # assessment may take long on a loaded machine.
    await until(lambda: recorder.recorded > done, 60)
    _, history, _ = await api(
        "GET", f"{server.url}/api/players/{made['player_id']}/races", None, token
    )
    return made, history["races"]


async def _play(
    server: InProcessServer,
    client: Client,
    room_id: str,
    clock: ManualClock,
    gaps: list[float] | None,
) -> None:
    """Ready, play (see :func:`play_attempt`), and read until the results."""
    await client.send(type="ready")
    legal = (await client.expect("started"))["legal"]
    if gaps is None:
        solution = server.app.state.process.rooms.known_settings(room_id).solution
        for number, move in enumerate(next(iter(solution.values()))):
            assert (await client.move(f"m{number}", move))["type"] == "accepted"
    else:
        chosen = random.Random(7)
        for number, gap in enumerate(gaps):
            if not legal:
                break
            clock.advance(gap)
            answer = await client.move(f"m{number}", chosen.choice(legal))
            assert answer["type"] == "accepted", answer
            legal = answer["legal"]
        await client.send(type="resign")  # (out of moves too: an undo may still help)
    if not any(frame["type"] == "results" for frame in client.frames):  # (read on the way?)
        await client.expect("results")


@pytest.fixture(params=["memory", "redis"])
def held_server(
    request: pytest.FixtureRequest, clock: ManualClock, redis_prefix: str
) -> Iterator[InProcessServer]:
    """A server of the test's own on either store that holds runs (tests' servers do not:
    their clients play at machine speed)."""
    url = "memory://" if request.param == "memory" else REDIS_URL
    with InProcessServer(make_config(url, redis_prefix, fairplay_holds=True), clock) as running:
        yield running


@contextlib.asynccontextmanager
async def fair_store(server: InProcessServer) -> AsyncIterator[FairPlayStore]:
    """The server's fair-play store, as this test's loop reaches it (on Redis, a connection
    of the test's own: the server's belongs to its own loop)."""
    if server.config.store_url.startswith("memory://"):
        yield server.app.state.process.fairplay_store
        return
    store = open_fairplay_store(REDIS_URL, server.config.redis_prefix)
    try:
        yield store
    finally:
        await store.close()


async def fair_record(server: InProcessServer, player_id: str) -> FairRecord:
    async with fair_store(server) as store:
        text, _ = await store.read(player_id)
    return FairRecord() if text is None else FairRecord.model_validate_json(text)


async def board(base: str, date: str, which: str = "ranked") -> dict[str, Any]:
    status, body, _ = await api("GET", f"{base}/api/daily/{GAME}/{date}/leaderboard?board={which}")
    assert status == 200, body
    return dict(body)


async def test_a_solver_bot_is_held_at_once_and_a_moderator_clears_then_marks_it(
    held_server: InProcessServer, clock: ManualClock
) -> None:
    any_server = held_server
    base = any_server.url
    bot, mod = await account(base, "fastbot"), await account(base, "moddy")
    made, history = await play_attempt(any_server, bot["token"], clock, None)
    room_id = made["room_id"]
    assert history[0]["room_id"] == room_id and history[0]["under_review"] is True
    _, mine, _ = await api("GET", f"{base}/api/me/fairplay", None, bot["token"])
    assert mine["under_review"] == [room_id] and mine["marked"] is False
    _, public, _ = await api("GET", f"{base}/api/players/{bot['player_id']}/races")
    assert "under_review" not in public["races"][0]  # only its player is told
    assert (await board(base, made["date"]))["total"] == 0  # on no board
    assert (await board(base, made["date"], "guests"))["total"] == 0

    cases_url = f"{base}/api/mod/cases"
    status, refused, _ = await api("GET", cases_url, None, mod["token"])
    assert (status, refused["code"]) == (403, "forbidden")
    assert (await api("GET", cases_url))[0] == 401
    async with fair_store(any_server) as store:
        await set_moderator(store, mod["player_id"], True, clock.now_ms())
    status, cases, _ = await api("GET", cases_url, None, mod["token"])
    assert status == 200, cases
    [case] = cases["cases"]
    assert case["player_id"] == bot["player_id"] and f"held:{room_id}" in case["reasons"]
    [run] = [run for run in case["runs"] if run["room_id"] == room_id]
    assert run["held"] and run["signals"]["accuracy"] == 1.0 and run["counts"] is True

    decide = f"{base}/api/mod/players/{bot['player_id']}"
    status, bad, _ = await api("POST", decide, {"action": "ban", "reason": "x"}, mod["token"])
    assert (status, bad["field"]) == (422, "action")
    clear = {"action": "clear", "reason": "a fast player, seen live"}
    status, cleared, _ = await api("POST", decide, clear, mod["token"])
    assert (status, cleared["marked"]) == (200, False)
    assert (await board(base, made["date"]))["entries"][0]["player_id"] == bot["player_id"]
    assert (await api("GET", cases_url, None, mod["token"]))[1]["cases"] == []

    mark = {"action": "mark", "reason": "a line no human plays"}
    assert (await api("POST", decide, mark, mod["token"]))[0] == 200
    assert (await api("POST", decide, mark, mod["token"]))[0] == 200  # again: no change
    assert (await board(base, made["date"]))["total"] == 0
    _, profile, _ = await api("GET", f"{base}/api/players/{bot['player_id']}")
    assert profile["marked"] is True
    _, audit, _ = await api("GET", f"{base}/api/mod/audit", None, mod["token"])
    actions = [(entry["action"], entry["player_id"]) for entry in audit["decisions"]]
    assert actions[:3] == [
        ("mark", bot["player_id"]),
        ("clear", bot["player_id"]),
        ("grant", mod["player_id"]),
    ]
    appeal = f"{base}/api/me/appeal"
    assert (await api("POST", appeal, {"text": "I am fast"}, bot["token"]))[0] == 200
    status, again, _ = await api("POST", appeal, {"text": "really"}, bot["token"])
    assert (status, again["code"]) == (409, "no_appeal")  # once
    _, cases, _ = await api("GET", cases_url, None, mod["token"])
    assert cases["cases"][0]["appeal"] == "I am fast"


async def test_a_human_paced_run_is_assessed_and_not_held(
    held_server: InProcessServer, clock: ManualClock
) -> None:
    any_server = held_server
    base = any_server.url
    ann = await account(base, "annhuman")
    gaps = [random.Random(n).uniform(0.8, 3.0) for n in range(40)]
    made, history = await play_attempt(any_server, ann["token"], clock, gaps)
    assert history[0]["under_review"] is False
    record = await fair_record(any_server, ann["player_id"])
    assert record.run(made["room_id"]) is not None and record.case is None
    assert record.standing.runs == 1
    assert (await board(base, made["date"]))["entries"][0]["player_id"] == ann["player_id"]


async def test_reports_are_counted_once_a_day_and_refused_with_their_codes(
    any_server: InProcessServer,
) -> None:
    base = any_server.url
    ann, bob = await account(base, "annreports"), await anonymous(base)
    url = f"{base}/api/reports"
    body = {"player_id": bob["player_id"], "reason": "cheating", "text": "too fast"}
    status, first, _ = await api("POST", url, body, ann["token"])
    assert status == 201 and first["report_id"]
    status, second, _ = await api("POST", url, body | {"reason": "other"}, ann["token"])
    assert (status, second["report_id"]) == (200, first["report_id"])
    refusals = [
        (None, body, 401, "unauthorized"),
        (ann["token"], {"player_id": ann["player_id"], "reason": "abuse"}, 409, "own_report"),
        (ann["token"], body | {"reason": "rude"}, 422, "bad_message"),
        (ann["token"], body | {"text": "x" * 501}, 422, "bad_message"),
        (ann["token"], body | {"player_id": "p.nobody"}, 404, "player_not_found"),
    ]
    for token, sent, code, name in refusals:
        status, refused, _ = await api("POST", url, sent, token)
        assert (status, refused["code"]) == (code, name), sent
    record = await fair_record(any_server, bob["player_id"])
    assert len(record.reports) == 1 and record.case is not None


async def test_an_operator_grants_and_revokes_the_role_from_the_command_line(
    redis_server: InProcessServer, redis_prefix: str
) -> None:
    base = redis_server.url
    mod = await account(base, "cli-mod")
    env = os.environ | {"REDIS_URL": REDIS_URL, "STALACTITES_REDIS_PREFIX": redis_prefix}

    def run(*words: str) -> subprocess.CompletedProcess[str]:
        command = [COMMAND, "mod", *words]
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)

    assert run("grant", "CLI-Mod").returncode == 0  # usernames are matched as at sign-in
    assert (await api("GET", f"{base}/api/mod/cases", None, mod["token"]))[0] == 200
    assert run("revoke", "cli-mod").returncode == 0
    assert (await api("GET", f"{base}/api/mod/cases", None, mod["token"]))[0] == 403
    unknown = run("grant", "nobody-here")
    assert unknown.returncode == 2 and "no registered player" in unknown.stderr
    memory = subprocess.run(
        [COMMAND, "mod", "grant", "cli-mod"],
        env={k: v for k, v in env.items() if k != "REDIS_URL"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert memory.returncode == 2 and "REDIS_URL" in memory.stderr


async def test_marking_a_player_gives_their_opponents_losses_back_once_and_tells_them(
    any_server: InProcessServer,
) -> None:
    base = any_server.url
    ann, bob = await account(base, "annrefunds"), await account(base, "bobrefunds")
    mod = await account(base, "modrefunds")
    await race_rated(base, [ann, bob], 1)
    [race] = await recorded(base, ann["player_id"])
    loser, cheat = (ann, bob) if race["place"] == 2 else (bob, ann)
    [race] = await recorded(base, loser["player_id"])
    assert race["rated"] and race["place"] == 2 and race["refund"] is None
    report = {"player_id": cheat["player_id"], "reason": "cheating", "room_id": race["room_id"]}
    assert (await api("POST", f"{base}/api/reports", report, loser["token"]))[0] == 201
    async with fair_store(any_server) as store:
        await set_moderator(store, mod["player_id"], True, 0)
    decide = f"{base}/api/mod/players/{cheat['player_id']}"
    for _ in range(2):  # the same decision again gives nothing more
        body = {"action": "mark", "reason": "solver lines"}
        assert (await api("POST", decide, body, mod["token"]))[0] == 200
    [race] = await recorded(base, loser["player_id"])
    assert 0 < race["refund"] <= 150  # the race's drop of μ, as shown points
    _, profile, _ = await api("GET", f"{base}/api/players/{loser['player_id']}")
    rating = profile["ratings"]["stalactites"]["rating"]
    assert abs(rating - (race["rating_after"] + race["refund"])) <= 1  # given once
    [won] = await recorded(base, cheat["player_id"])
    assert won["refund"] is None
    _, inbox, _ = await api("GET", f"{base}/api/me/notifications", None, loser["token"])
    told = {note["kind"]: note["data"] for note in inbox["notifications"]}
    assert told["report_acted"]["player_id"] == cheat["player_id"]  # the reporter, once
    assert told["refund"]["points"] == race["refund"] and len(inbox["notifications"]) == 2
    await race_rated(base, [loser, cheat], 1)  # from now on the marked player races unrated
    newest = (await recorded(base, cheat["player_id"], 2))[0]
    assert len(await recorded(base, cheat["player_id"], 2)) == 2 and newest["rated"] is False


async def test_a_bot_declares_itself_and_races_bots_only(any_server: InProcessServer) -> None:
    base = any_server.url
    me = f"{base}/api/me"
    guest = await anonymous(base)
    status, refused, _ = await api("PATCH", me, {"bot": True}, guest["token"])
    assert (status, refused["code"]) == (409, "not_registered")
    human, one = await account(base, "humanq"), await account(base, "botone")
    two = await account(base, "bottwo")
    for bot in (one, two):
        status, profile, _ = await api("PATCH", me, {"bot": True}, bot["token"])
        assert (status, profile["bot"]) == (200, True)
    status, bad, _ = await api("PATCH", me, {"bot": False}, one["token"])
    assert (status, bad["field"]) == (422, "bot")  # a bot stays one
    waiting = await queued_player(any_server, human, step="ones")
    first = await queued_player(any_server, one, step="ones")
    assert first.frames[-1]["type"] == "queued" and first.frames[-1]["others"] == 0  # apart
    second = await queued_player(any_server, two, step="ones")
    matched = await first.expect("matched", timeout=20)
    assert {p["player_id"] for p in matched["players"]} == {one["player_id"], two["player_id"]}
    assert not any(frame["type"] == "matched" for frame in waiting.frames)
    await second.close()
    await waiting.close()
    await race_rated(base, [human, one], 1)  # a bot against a human: unrated
    [race] = await recorded(base, human["player_id"])
    assert race["rated"] is False
    rival = await account(base, "humanrival")
    await race_rated(base, [human, rival], 1)
    status, late, _ = await api("PATCH", me, {"bot": True}, human["token"])
    assert (status, late["code"]) == (409, "rated_before")  # a rating made among humans


async def test_an_arena_win_held_scores_nothing_until_a_moderator_clears_it(
    held_server: InProcessServer, clock: ManualClock
) -> None:
    base = held_server.url
    bot, rival = await account(base, "fastbot"), await account(base, "rival")
    mod = await account(base, "moddy")
    body = {"name": "Held arena", "duration_min": 10}
    status, made, _ = await api("POST", f"{base}/api/arenas", body, mod["token"])
    assert status == 201, made
    arena_id = made["arena"]["arena_id"]
    sockets = []
    for who in (bot, rival):
        url = f"{base}/api/arenas/{arena_id}/players"
        assert (await api("POST", url, None, who["token"]))[0] == 200
        socket = await ArenaClient.open(base.replace("http://", "ws://") + f"/ws/arenas/{arena_id}")
        await socket.welcome(who["token"])
        sockets.append(socket)
    paired = [await socket.expect("paired") for socket in sockets]
    seats = []
    for frame in paired:
        seat = await Client.open(held_server.ws_url(frame["room_id"]))
        await seat.hello(frame["token"])
        seats.append(seat)
    await seats[0].expect("started")
    room_id = paired[0]["room_id"]
    solution = held_server.app.state.process.rooms.known_settings(room_id).solution
    for number, move in enumerate(next(iter(solution.values()))):  # at a solver's speed
        assert (await seats[0].move(f"m{number}", move))["type"] == "accepted"
    clock.advance(15)
    await seats[1].send(type="resign")
    await seats[1].expect("results")

    arena_url = f"{base}/api/arenas/{arena_id}"
    frame = await sockets[0].expect("standings", timeout=15)
    while frame["you"]["races"] < 1:
        frame = await sockets[0].expect("standings", timeout=15)
    assert (frame["you"]["wins"], frame["you"]["score"]) == (1, 0)  # held: no points yet
    async with fair_store(held_server) as store:
        await set_moderator(store, mod["player_id"], True, clock.now_ms())
    decide = f"{base}/api/mod/players/{bot['player_id']}"
    clear = {"action": "clear", "reason": "a fast player, seen live"}
    for _ in range(2):  # the same decision again counts nothing more
        assert (await api("POST", decide, clear, mod["token"]))[0] == 200
        _, one, _ = await api("GET", arena_url, None, bot["token"])
        assert one["you"]["score"] == 2
