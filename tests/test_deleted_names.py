"""A deleted player's name leaves the rooms it sat in (docs/players.md, "Deleting"): the
room's view, its record and a later socket's welcome say "deleted player" for the seat, on
both stores; the process that deleted the player at once, another within a second."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from typing import Any

import pytest

from players_kit import anonymous, api, recorded
from server_kit import REDIS_URL, Client, InProcessServer, make_config
from stalactites.engine import GameName
from stalactites.protocol.room import RoomStatus, Standing
from stalactites.rooms.ghost_seat import GhostSeat
from stalactites.rooms.settings import RoomSettings
from stalactites.rooms.views import DeletedPlayers, unnamed
from stalactites.store import PlayerRow, ProgressRow, RoomRow

pytestmark = pytest.mark.usefixtures("close_clients")

DELETED = "deleted player"
SETTINGS = RoomSettings(
    game=GameName.STALACTITES,
    step="ones",
    deal="ms:4",
    seats=2,
    time_limit_s=600,
    undo=True,
    countdown_s=0,
    certified=False,
    solution=None,
)


async def _raced(server: Any, sessions: list[dict[str, Any]], names: list[str | None]) -> str:
    """A finished race of these players (each seated under ``names``' name, or their own),
    both resigning, recorded on each: the room's id."""
    base = server.url
    status, room, _ = await api("POST", f"{base}/api/rooms", {"countdown_s": 0})
    assert status == 201, room
    room_id = room["room_id"]
    for made, name in zip(sessions, names, strict=True):
        body = {} if name is None else {"name": name}
        status, seat, _ = await api(
            "POST", f"{base}/api/rooms/{room_id}/players", body, made["token"]
        )
        assert status == 201, seat
    clients = []
    for made in sessions:
        client = await Client.open(server.ws_url(room_id))
        await client.hello(made["token"])
        clients.append(client)
    for client in clients:
        await client.send(type="ready")
    for client in clients:
        await client.expect("started")
    for client in clients:
        await client.send(type="resign")
        await client.expect("finished", player_id=client.you, status="resigned")
    await clients[0].expect("results")
    for client in clients:
        await client.close()
    for made in sessions:
        await recorded(base, made["player_id"])
    return str(room_id)


async def _shown(base: str, room_id: str) -> tuple[dict[str, str], dict[str, str], str]:
    """The seats' names in the room's view and in its record, by player id, and both as text."""
    status, view, _ = await api("GET", f"{base}/api/rooms/{room_id}")
    assert status == 200, view
    status, record, _ = await api("GET", f"{base}/api/rooms/{room_id}/record")
    assert status == 200, record
    viewed = {p["player_id"]: p["name"] for p in view["players"]}
    kept = {p["player_id"]: p["name"] for p in record["players"]}
    return viewed, kept, json.dumps([view, record], ensure_ascii=False)


async def _delete(base: str, session: dict[str, Any]) -> None:
    status, answer, _ = await api("DELETE", f"{base}/api/me", token=session["token"])
    assert status == 204, answer


async def test_a_deleted_players_seat_is_deleted_player_in_the_view_and_the_record(
    any_server: Any,
) -> None:
    base = any_server.url
    ann, bob = await anonymous(base), await anonymous(base)
    chosen = "Ann " + uuid.uuid4().hex[:8]  # a seat name of her own choosing
    room_id = await _raced(any_server, [ann, bob], [chosen, None])
    viewed, kept, _ = await _shown(base, room_id)
    assert viewed == kept == {ann["player_id"]: chosen, bob["player_id"]: bob["name"]}

    await _delete(base, ann)
    viewed, kept, text = await _shown(base, room_id)
    assert viewed == kept == {ann["player_id"]: DELETED, bob["player_id"]: bob["name"]}
    assert chosen not in text and ann["name"] not in text
    watcher = await Client.open(any_server.ws_url(room_id))  # a later socket's welcome
    await watcher.send(type="hello", spectator=True)
    welcome = await watcher.expect("welcome")
    welcome = {p["player_id"]: p["name"] for p in welcome["room"]["players"]}
    assert welcome == {ann["player_id"]: DELETED, bob["player_id"]: bob["name"]}
    status, page, _ = await api("GET", f"{base}/api/players/{bob['player_id']}/races")
    assert status == 200 and chosen not in json.dumps(page, ensure_ascii=False)


async def test_a_guest_and_a_living_player_keep_their_names(any_server: Any) -> None:
    base = any_server.url
    ann, bob = await anonymous(base), await anonymous(base)
    room_id = await _raced(any_server, [ann, bob], [None, "Bob the bold"])
    await _delete(base, bob)
    viewed, kept, _ = await _shown(base, room_id)
    assert viewed == kept == {ann["player_id"]: ann["name"], bob["player_id"]: DELETED}


async def test_another_process_shows_the_deletion_within_a_second(redis_prefix: str) -> None:
    config = make_config(REDIS_URL, prefix=redis_prefix)
    with InProcessServer(config) as first, InProcessServer(config) as second:
        ann, bob = await anonymous(first.url), await anonymous(first.url)
        room_id = await _raced(first, [ann, bob], [None, None])
        for server in (first, second):  # each process has seen her as she was
            viewed, _, _ = await _shown(server.url, room_id)
            assert viewed[ann["player_id"]] == ann["name"]
        await _delete(first.url, ann)
        viewed, kept, _ = await _shown(first.url, room_id)  # the deleting process: at once
        assert viewed[ann["player_id"]] == kept[ann["player_id"]] == DELETED
        deadline = time.monotonic() + 3
        while True:
            viewed, kept, _ = await _shown(second.url, room_id)
            if viewed[ann["player_id"]] == kept[ann["player_id"]] == DELETED:
                break
            assert time.monotonic() < deadline, viewed
            await asyncio.sleep(0.1)


class _Clock:
    def __init__(self) -> None:
        self.ms = 1_000_000

    def now_ms(self) -> int:
        return self.ms


def _row(*player_ids: str) -> RoomRow:
    seats = [
        PlayerRow(pid, f"name {n}", n, "", False, False, ProgressRow(0, 0), None, None, None)
        for n, pid in enumerate(player_ids)
    ]
    return RoomRow("r", "{}", 4, RoomStatus.FINISHED, None, None, 0, 0, seats, None)


async def test_a_deletion_is_remembered_and_a_player_found_is_asked_again_a_second_later() -> None:
    alive, asked = {"p.0000000000000001"}, []

    async def exist(player_ids: list[str]) -> list[bool]:
        asked.append(sorted(player_ids))
        return [pid in alive for pid in player_ids]

    clock = _Clock()
    known = DeletedPlayers(exist, clock, found_ttl_ms=1000)
    ann, bob, guest = "p.0000000000000001", "p.0000000000000002", "0000000000000003"
    row = _row(ann, bob, guest)
    assert await known.among(row, SETTINGS) == {bob}
    assert await known.among(row, SETTINGS) == {bob}
    assert asked == [[ann, bob]]  # one batch, the guest never asked about
    alive.clear()
    clock.ms += 999
    assert await known.among(row, SETTINGS) == {bob}
    clock.ms += 1
    assert await known.among(row, SETTINGS) == {ann, bob}
    assert asked == [[ann, bob], [ann]]  # the deleted one never asked about again
    known.deleted("p.0000000000000004")
    assert await known.among(_row("p.0000000000000004"), SETTINGS) == {"p.0000000000000004"}
    assert len(asked) == 2


def test_a_ghost_of_a_deleted_players_run_is_unnamed_too() -> None:
    ghost = GhostSeat(
        seat_id="g.00000000000001",
        name="Ann",
        source_room_id="old",
        source_player_id="p.0000000000000001",
        status="won",
        elapsed_ms=60_000,
        foundation_cards=52,
        actions=(),
    )
    settings = SETTINGS.model_copy(update={"ghost": ghost})
    line = Standing(
        player_id=ghost.seat_id,
        name="Ann",
        place=1,
        status="won",
        foundation_cards=52,
        moves=90,
        elapsed_ms=60_000,
        ghost_of="Ann",
    )
    gone = unnamed(line, frozenset({ghost.source_player_id}), settings)
    assert (gone.name, gone.ghost_of) == (DELETED, DELETED)
    assert unnamed(line, frozenset({"p.0000000000000002"}), settings) == line
