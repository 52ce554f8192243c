"""Every answer to a move carries its id (issue 18, item 8): two sockets of one player on two
processes hammering the same moves (commit conflicts on a real Redis) get only ``accepted`` or
``rejected`` frames with their ids, never an id-less error; a room the store lost mid-race is
answered ``rejected`` ``room_gone`` (with the id), then an ``error`` ``room_gone`` and close
1008."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis.asyncio as aioredis

from server_kit import (
    REDIS_URL,
    Client,
    Spawn,
    new_room,
    player,
    seat,
    start_race,
    winning_line,
)
from stalactites.rooms import play as play_module

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")


async def hammer(client: Client, tag: str) -> list[dict[str, Any]]:
    """Send every move of the line at once (ids ``tag``-n), then read one answer for each."""
    for n, move in enumerate(LINE):
        await client.send(type="move", id=f"{tag}-{n}", move=move)
    answers: list[dict[str, Any]] = []
    while len(answers) < len(LINE):
        frame = await client.recv(timeout=30)
        if frame["type"] in ("accepted", "rejected", "error"):
            answers.append(frame)
    return answers


async def test_two_sockets_of_one_player_on_two_processes_get_only_answers_with_ids(
    spawn: Spawn,
) -> None:
    first, second = spawn(), spawn()
    room_id = await new_room(first.url, deal=DEAL, step="ones", seats=1, countdown_s=0)
    _, token = await seat(first.url, room_id, "Ada")
    one, two = await Client.open(first.ws_url(room_id)), await Client.open(second.ws_url(room_id))
    await one.hello(token)
    await two.hello(token)
    await start_race(one)
    await two.expect("started")
    answers = await asyncio.gather(hammer(one, "a"), hammer(two, "b"))
    for tag, got in zip("ab", answers, strict=True):
        assert [frame["type"] for frame in got if frame["type"] == "error"] == []
        assert sorted(frame["id"] for frame in got) == sorted(
            f"{tag}-{n}" for n in range(len(LINE))
        )
        codes = {frame.get("code") for frame in got if frame["type"] == "rejected"}
        assert codes <= {"illegal_move", "retry", "already_finished"}, codes


async def test_a_room_lost_mid_race_is_answered_room_gone(
    redis_server: Any, redis_prefix: str
) -> None:
    room_id = await new_room(redis_server.url, deal=DEAL, step="ones", seats=1, countdown_s=0)
    racer = await player(redis_server, room_id, "Ada")
    await start_race(racer)
    first = await racer.move("m1", LINE[0])
    assert first["type"] == "accepted"
    store = aioredis.Redis.from_url(REDIS_URL)
    try:
        keys = [key async for key in store.scan_iter(match=f"{redis_prefix}*{room_id}*")]
        assert keys
        await store.delete(*keys)
    finally:
        await store.aclose()
    await racer.send(type="move", id="m2", move=LINE[1])
    answer = await racer.expect("rejected")
    assert answer["id"] == "m2" and answer["code"] == "room_gone"
    gone = await racer.expect("error")
    assert gone["code"] == "room_gone"
    assert await racer.closed() == 1008


async def test_a_move_whose_commits_keep_conflicting_is_rejected_retry_with_its_id(
    any_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every try conflicting is what a hammering second socket causes now and then; with no
    try left at all, each move meets that end at once."""
    room_id = await new_room(any_server.url, deal=DEAL, step="ones", seats=1, countdown_s=0)
    racer = await player(any_server, room_id, "Ada")
    await start_race(racer)
    monkeypatch.setattr(play_module, "ATTEMPTS", 0)
    answer = await racer.move("m1", LINE[0])
    assert answer["type"] == "rejected"
    assert answer["id"] == "m1" and answer["code"] == "retry"
    monkeypatch.setattr(play_module, "ATTEMPTS", 8)
    again = await racer.move("m1", LINE[0])
    assert again["type"] == "accepted" and again["id"] == "m1", "nothing was stored before"
