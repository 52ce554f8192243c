"""A kept room's archive and a race's outcome, as small as they are kept for good: a certified
room's winning lines left out of the archive and found again by the solver for every reader,
on both stores and the cluster; the archive's older forms still read; a race's outcome a
string (the older hash still read and changed)."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import zlib
from collections.abc import Iterator
from typing import Any, Literal, cast

import pytest

from server_kit import REDIS_URL, ManualClock
from stalactites.config import ServerConfig
from stalactites.engine import GameName
from stalactites.rooms import CreateRoom, Play, RoomService
from stalactites.rooms.settings import RoomSettings
from stalactites.rooms.solutions import Lines, certified_lines
from stalactites.store import Store
from stalactites.store.players.redis import RedisPlayerStore
from stalactites.store.rooms import archive as archive
from stalactites.store.rooms.base import ActionRow
from stalactites.store.rooms.memory import MemoryStore
from stalactites.workers import SolverPool

PLAYERS = ("p.00000000000000a1", "p.00000000000000b2")


@pytest.fixture(scope="module")
def solver() -> Iterator[SolverPool]:
    pool = SolverPool(1)
    yield pool
    pool.close()


async def _kept_race(
    rooms: RoomService, store: Store, game: Literal["stalactites", "squadron"]
) -> str:
    """A rated race on a certified deal, both players resigning, its room kept."""
    room_id = (
        await rooms.create(CreateRoom(game=GameName(game), countdown_s=0, rated=True))
    ).room_id
    for player, name in zip(PLAYERS, ("Ann", "Bob"), strict=True):
        await rooms.join(room_id, name, player)
    for player in PLAYERS:
        await rooms.ready(room_id, player)
    play = Play(rooms, rooms.boards, rooms.store, rooms.clock, rooms.berserk)
    for player in PLAYERS:
        await play.resign(room_id, player)
    await rooms.finalize(room_id)
    await store.keep_room(room_id, list(PLAYERS))
    return room_id


@pytest.mark.slow
@pytest.mark.parametrize("store", ["memory", "redis", "cluster"], indirect=True)
@pytest.mark.parametrize("game", ["stalactites", "squadron"])
async def test_a_kept_rooms_winning_lines_are_found_again_by_another_process(
    store: Store,
    solver: SolverPool,
    clock: ManualClock,
    game: Literal["stalactites", "squadron"],
) -> None:
    config = ServerConfig(store_url=REDIS_URL)
    first, second = (RoomService(store, config, clock, solver) for _ in range(2))
    room_id = await _kept_race(first, store, game)
    published = (await first.view(room_id)).solution
    assert published is not None and published == (await first.record(room_id))["solution"]
    row = await store.load_room(room_id, clock.now_ms())
    assert row is not None
    stored = RoomSettings.model_validate_json(row.settings_json)
    if isinstance(store, MemoryStore):  # nothing is archived in memory
        assert stored.solution == published and stored.solution_digest is None
    else:  # the archive holds the lines' digest, not the lines
        assert stored.solution is None
        assert stored.solution_digest == archive.lines_digest(published)
    view = await second.view(room_id)  # another process: the lines found again
    assert view.solution == published
    assert (await second.record(room_id))["solution"] == published


ONES = RoomSettings(  # a certified room's settings under the ones step, without its lines
    game=GameName.STALACTITES,
    step="ones",
    deal="ms:4",
    seats=2,
    time_limit_s=900,
    undo=True,
    countdown_s=0,
    certified=True,
    solution=None,
)


async def test_lines_found_again_unlike_the_published_ones_are_served_with_a_warning(
    solver: SolverPool, caplog: pytest.LogCaptureFixture
) -> None:
    lines = certified_lines("stalactites", "ms:4", "ones")
    assert lines is not None
    settings = ONES.model_copy(update={"solution_digest": "000000000000"})  # not the lines'
    with caplog.at_level(logging.WARNING, "stalactites.rooms.solutions"):
        restored = await Lines(solver).restored(settings)
    assert restored.solution == lines
    assert "differ from those published" in caplog.text
    same = settings.model_copy(update={"solution_digest": archive.lines_digest(lines)})
    caplog.clear()
    assert (await Lines(solver).restored(same)).solution == lines
    assert caplog.text == ""
    with_lines = settings.model_copy(update={"solution": lines})
    assert await Lines(solver).restored(with_lines) is with_lines  # nothing to find


class CountingPool:
    """A solver pool that counts the calls it runs."""

    def __init__(self, pool: SolverPool) -> None:
        self.pool, self.calls = pool, 0

    async def run(self, call: Any, *args: object) -> Any:
        self.calls += 1
        return await self.pool.run(call, *args)


async def test_readers_of_one_kept_deal_at_once_share_one_search(solver: SolverPool) -> None:
    lines = certified_lines("stalactites", "ms:4", "ones")
    assert lines is not None
    kept = ONES.model_copy(update={"solution_digest": archive.lines_digest(lines)})
    pool = CountingPool(solver)
    found = Lines(cast(SolverPool, pool))
    answers = await asyncio.gather(*(found.restored(kept) for _ in range(5)))
    assert [answer.solution for answer in answers] == [lines] * 5 and pool.calls == 1
    await found.restored(kept)  # that search is over: the next reader searches anew
    assert pool.calls == 2


def test_a_room_with_its_lines_writes_no_digest() -> None:
    assert "solution_digest" not in json.loads(ONES.model_dump_json())
    assert "solution_digest" in json.loads(
        ONES.model_copy(update={"solution_digest": "0"}).model_dump_json()
    )


STREAM = ["1000|p.a|t1-f1", "2500|p.b|t2-f2", "4100|p.a|undo"]
ROWS = [
    ActionRow(1000, "p.a", "t1-f1"),
    ActionRow(2500, "p.b", "t2-f2"),
    ActionRow(4100, "p.a", "undo"),
]


def test_an_archive_keeps_every_action_and_field_but_the_solvers_lines() -> None:
    lines = {"ones": ["t1-f1", "t2-f2"], "twos": ["t3-f1"]}
    settings = {"game": "stalactites", "certified": True, "solution": lines, "salt": "ab"}
    fields = {"settings": json.dumps(settings), "results": "[]", "seat:p.a": "1"}
    text = archive.archived(STREAM, fields)
    assert text.startswith(archive.SEVEN_BITS) and text.isascii()
    assert archive.actions_of(text) == ROWS
    assert archive.log_of(text, "p.a") == ["t1-f1", "undo"]
    kept = archive.fields_of(text)
    assert {name: kept[name] for name in ("results", "seat:p.a")} == {
        "results": "[]",
        "seat:p.a": "1",
    }
    back = json.loads(kept["settings"])
    assert back == {**settings, "solution": None, "solution_digest": archive.lines_digest(lines)}


@pytest.mark.parametrize("words", [archive._WORDS, None])
def test_an_archive_of_the_older_form_is_still_read(words: bytes | None) -> None:
    data = {"p": ["p.a", "p.b"], "t": 1000, "a": [0, 0, "t1-f1", 1, 1500, "t2-f2", 0, 1600, "undo"]}
    squeeze = zlib.compressobj(9, zdict=words) if words is not None else zlib.compressobj(9)
    packed = squeeze.compress(json.dumps(data).encode()) + squeeze.flush()
    text = base64.b85encode(packed).decode()  # base85, as archives were written before
    assert archive.actions_of(text) == ROWS
    assert archive.fields_of(text) == {}


@pytest.mark.parametrize("size", [0, 1, 6, 7, 8, 300])
def test_seven_bit_text_gives_back_its_bytes(size: int) -> None:
    data = bytes((index * 37 + 255) % 256 for index in range(size))
    text = archive._seven_bits(data)
    assert all(ord(char) < 128 for char in text)
    assert len(text) == (8 * size + 1 + 6) // 7
    assert archive._eight_bits(text) == data


async def test_a_race_outcome_stored_as_a_hash_before_is_still_read_and_changed(
    redis_prefix: str,
) -> None:
    store = RedisPlayerStore(REDIS_URL, redis_prefix)
    try:
        key = f"{redis_prefix}{{room:r1}}:outcome"
        await store._pipe.call_at(key, "HSET", key, "outcome", '["old"]')
        assert await store.outcome("r1") == ('["old"]', False)
        assert await store.claim_outcome("r1", '["mine"]') == ('["old"]', False)
        assert not await store.replace_outcome("r1", '["other"]', '["new"]')
        assert await store.replace_outcome("r1", '["old"]', '["new"]')
        await store.finish_race("r1")
        assert await store.outcome("r1") == ('["new"]', True)
        assert await store._pipe.call_at(key, "TYPE", key) == "hash"
        # and the string of today's outcomes: '0' or '1' (done) before the JSON
        assert await store.outcome("r2") is None
        assert await store.claim_outcome("r2", '["first"]') == ('["first"]', False)
        assert await store.claim_outcome("r2", '["second"]') == ('["first"]', False)
        await store.finish_race("r2")
        other = f"{redis_prefix}{{room:r2}}:outcome"
        assert await store._pipe.call_at(other, "GET", other) == '1["first"]'
        assert await store.outcome("r2") == ('["first"]', True)
    finally:
        await store.close()
