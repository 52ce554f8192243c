"""Spectators over real websockets, on both stores: every board the room's delay behind, live
progress, nothing to play, everything once the race is over; their throttled count."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from server_kit import (
    Client,
    InProcessServer,
    ManualClock,
    counts_until,
    http,
    new_room,
    player,
    spectator,
    start_race,
    winning_line,
)
from stalactites.engine import Stalactites
from stalactites.protocol.room import board

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")


async def race(server: Any, seats: int = 2, **settings: Any) -> tuple[str, list[Client]]:
    """A room on ms:4 by ones, everyone seated, ready and racing."""
    options = {"deal": DEAL, "step": "ones", "seats": seats, "countdown_s": 0, **settings}
    room_id = await new_room(server.url, **options)
    players = [await player(server, room_id, f"P{n}") for n in range(seats)]
    await start_race(*players)
    return room_id, players


def boards_after(moves: list[str]) -> list[dict[str, Any]]:
    """The wire board after each move of ``moves`` on ms:4 by ones."""
    game, states = Stalactites(DEAL, step="ones"), []
    for move in moves:
        game.push(move)
        states.append(board(game.state()).model_dump())
    return states


def initial_board() -> dict[str, Any]:
    return board(Stalactites(DEAL, step="ones").state()).model_dump()


async def boards_seen(client: Client, count: int, timeout: float = 10) -> list[dict[str, Any]]:
    """The next ``count`` board frames (other frames are read past)."""
    return [await client.expect("board", timeout=timeout) for _ in range(count)]


async def test_a_spectator_sees_boards_the_delay_behind_and_progress_at_once(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    room_id, (ann, bob) = await race(any_server, time_limit_s=600)  # two seats: 30 s behind
    watcher = await spectator(any_server, room_id)
    welcome = watcher.frames[0]
    assert welcome["you"] is None and welcome["state"] is None
    assert welcome["room"]["spectator_delay_s"] == 30
    assert welcome["boards"] == {ann.you: initial_board(), bob.you: initial_board()}
    for index, move in enumerate(LINE[:3]):
        assert (await ann.move(f"a{index}", move))["type"] == "accepted"
        progress = await watcher.expect("progress", player_id=ann.you)  # progress: at once
        assert progress["moves"] == index + 1
    # A spectator arriving now sees Ann's board as it was 30 s ago: as dealt.
    late = await spectator(any_server, room_id)
    assert late.frames[0]["boards"][ann.you] == initial_board()
    assert late.frames[0]["room"]["players"][0]["moves"] == 3  # counts are never delayed
    assert not any(frame["type"] == "board" for frame in watcher.frames + late.frames)
    clock.advance(31)
    frames = await boards_seen(watcher, 3)
    expected = boards_after(LINE[:3])
    assert [(f["player_id"], f["move"], f["state"]) for f in frames] == [
        (ann.you, move, state) for move, state in zip(LINE[:3], expected, strict=True)
    ]
    assert [f["state"] for f in await boards_seen(late, 3)] == expected
    assert all(frame["at"] <= clock.now_ms() - 30_000 for frame in frames)
    fresh = await spectator(any_server, room_id)
    assert fresh.frames[0]["boards"][ann.you] == expected[-1]
    assert fresh.frames[0]["boards"][bob.you] == initial_board()


async def test_once_the_race_is_over_spectators_see_everything(
    any_server: InProcessServer,
) -> None:
    room_id, (ann, bob) = await race(any_server, spectator_delay_s=300)
    watcher = await spectator(any_server, room_id)
    for index, move in enumerate(LINE[:5]):
        await ann.move(f"a{index}", move)
    await bob.move("b0", LINE[0])
    await ann.send(type="resign")
    await bob.send(type="resign")
    await watcher.expect("results")
    frames = await all_boards(watcher, 6)
    assert [(f["player_id"], f["move"]) for f in frames if f["player_id"] == ann.you] == [
        (ann.you, move) for move in LINE[:5]
    ]
    assert [f["move"] for f in frames if f["player_id"] == bob.you] == LINE[:1]
    after = await spectator(any_server, room_id)
    welcome = after.frames[0]
    assert welcome["room"]["status"] == "finished"
    assert welcome["boards"] == {
        ann.you: boards_after(LINE[:5])[-1],
        bob.you: boards_after(LINE[:1])[0],
    }


async def all_boards(client: Client, count: int) -> list[dict[str, Any]]:
    """Every board frame the client has had, reading on until there are ``count``."""
    while sum(frame["type"] == "board" for frame in client.frames) < count:
        await client.recv()
    return [frame for frame in client.frames if frame["type"] == "board"]


async def test_a_spectator_cannot_move_undo_declare_ready_or_resign(
    any_server: InProcessServer,
) -> None:
    room_id = await new_room(any_server.url, deal=DEAL, seats=2, countdown_s=0)
    ann = await player(any_server, room_id, "Ann")
    watcher = await spectator(any_server, room_id)
    assert watcher.frames[0]["boards"] == {}  # before the start: no boards
    await watcher.send(type="ready")
    assert (await watcher.expect("error"))["code"] == "unauthorized"
    bob = await player(any_server, room_id, "Bob")
    for client in (ann, bob):
        await client.send(type="ready")
    await watcher.expect("started")
    for frame in (
        {"type": "move", "id": "w1", "move": LINE[0]},
        {"type": "undo", "id": "w2"},
        {"type": "declare_step", "id": "w3", "step": "ones"},
    ):
        await watcher.send(**frame)
        answer = await watcher.expect("rejected", id=frame["id"])
        assert answer["code"] == "unauthorized"
    await watcher.send(type="resign")
    assert (await watcher.expect("error"))["code"] == "unauthorized"
    await watcher.send(type="ping")
    await watcher.expect("pong")  # the socket stays open
    _, view = await http("GET", f"{any_server.url}/api/rooms/{room_id}")
    assert [(p["moves"], p["status"]) for p in view["players"]] == [(0, "playing")] * 2


async def test_a_spectator_reconnecting_with_last_seq_gets_the_missed_events(
    server: InProcessServer,
) -> None:
    room_id, (ann, _) = await race(server, spectator_delay_s=0)
    watcher = await spectator(server, room_id)
    seen = watcher.last_seq
    await watcher.close()
    await ann.move("a0", LINE[0])
    again = await spectator(server, room_id, last_seq=seen)
    assert again.frames[0]["resumed"] is True and again.frames[0]["seq"] == seen
    assert again.frames[0]["boards"][ann.you] == boards_after(LINE[:1])[0]  # no delay here
    progress = await again.expect("progress", player_id=ann.you)
    assert progress["seq"] == seen + 1


async def test_a_spectator_hello_for_an_unknown_room_is_refused(server: InProcessServer) -> None:
    client = await Client.open(server.ws_url("nosuchroom"))
    await client.send(type="hello", spectator=True)
    assert (await client.recv())["code"] == "room_not_found"
    assert await client.closed() == 1008


@pytest.mark.parametrize(
    ("settings", "delay"),
    [({"seats": 1}, 0), ({"seats": 2}, 30), ({"seats": 8}, 30), ({"spectator_delay_s": 5}, 5)],
)
async def test_the_spectator_delay_defaults_to_30_s_with_company_and_0_alone(
    server: InProcessServer, settings: dict[str, Any], delay: int
) -> None:
    status, view = await http("POST", f"{server.url}/api/rooms", settings)
    assert status == 201 and view["spectator_delay_s"] == delay and view["spectators"] == 0


@pytest.mark.parametrize("delay", [-1, 301, "10", 1.5])
async def test_a_bad_spectator_delay_is_422(server: InProcessServer, delay: Any) -> None:
    status, body = await http("POST", f"{server.url}/api/rooms", {"spectator_delay_s": delay})
    assert status == 422 and body["field"] == "spectator_delay_s"


async def test_spectators_coming_and_going_reach_the_players_at_most_once_a_second(
    any_server: InProcessServer,
) -> None:
    room_id = await new_room(any_server.url, deal=DEAL, seats=2)
    ann = await player(any_server, room_id, "Ann")
    began = time.monotonic()
    crowd = await asyncio.gather(*(spectator(any_server, room_id) for _ in range(12)))
    joined_s = time.monotonic() - began
    counts = await counts_until(ann, 12)
    # The first arrival is announced at once, then at most one count a second.
    assert len(counts) <= 2 + joined_s
    _, view = await http("GET", f"{any_server.url}/api/rooms/{room_id}")
    assert view["spectators"] == 12
    began = time.monotonic()
    for client in crowd:
        await client.close()
    left_s = time.monotonic() - began
    counts = await counts_until(ann, 0)
    # (The server may see the last one leave a moment after its close returns: 0.5 s slack.)
    assert len(counts) <= 2 + left_s + 0.5


# The room lists and the record's starting layout.


async def room_list(server: Any, query: str) -> tuple[int, Any]:
    return await http("GET", f"{server.url}/api/rooms?{query}")


async def test_the_room_lists_show_waiting_and_racing_rooms_newest_first(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    older = await new_room(any_server.url, deal=DEAL, seats=2)
    clock.advance(1)
    newer = await new_room(any_server.url, deal=DEAL, seats=2)
    racing_id, _ = await race(any_server, seats=1, time_limit_s=60)
    status, waiting = await room_list(any_server, "status=waiting")
    assert status == 200
    assert [room["room_id"] for room in waiting["rooms"]] == [newer, older]
    assert waiting["next"] is None and waiting["rooms"][0]["seats"] == 2
    _, racing = await room_list(any_server, "status=racing")
    assert [(room["room_id"], room["status"]) for room in racing["rooms"]] == [
        (racing_id, "racing")
    ]
    assert racing["rooms"][0]["deal"] is None  # a listed room shows no more than its view
    clock.advance(61)  # the race's time is up: the list finishes it and leaves it out
    _, racing = await room_list(any_server, "status=racing")
    assert racing["rooms"] == []
    _, view = await http("GET", f"{any_server.url}/api/rooms/{racing_id}")
    assert view["status"] == "finished"


async def test_a_room_list_comes_a_page_at_a_time(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    made = []
    for _ in range(5):
        made.append(await new_room(any_server.url, deal=DEAL))
        clock.advance(0.01)
    listed, query = [], "status=waiting&limit=2"
    for _ in range(5):
        status, page = await room_list(any_server, query)
        assert status == 200 and len(page["rooms"]) <= 2
        listed += [room["room_id"] for room in page["rooms"]]
        if page["next"] is None:
            break
        query = f"status=waiting&limit=2&after={page['next']}"
    assert listed == made[::-1]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("", "status"),
        ("status=finished", "status"),
        ("status=waiting&limit=0", "limit"),
        ("status=waiting&limit=101", "limit"),
        ("status=waiting&limit=x", "limit"),
        ("status=waiting&after=nonsense", "after"),
    ],
)
async def test_a_bad_room_list_query_is_422_naming_the_field(
    server: InProcessServer, query: str, field: str
) -> None:
    status, body = await room_list(server, query)
    assert status == 422 and body["code"] == "bad_message" and body["field"] == field


async def test_the_record_gives_the_starting_layout_once_the_race_is_over(
    any_server: InProcessServer,
) -> None:
    room_id = await new_room(any_server.url, game="squadron", deal=DEAL, seats=1, countdown_s=0)
    squad = await player(any_server, room_id, "Squad")
    status, _ = await http("GET", f"{any_server.url}/api/rooms/{room_id}/record")
    assert status == 409  # not before the end
    await squad.send(type="ready")
    started = await squad.expect("started")
    dealt = [await squad.move(f"s{n}", "s-w") for n in range(3)]
    await squad.send(type="resign")
    await squad.expect("results")
    status, record = await http("GET", f"{any_server.url}/api/rooms/{room_id}/record")
    assert status == 200
    layout = record["initial_state"]
    assert layout["deal"] == DEAL and len(layout["stock"]) == layout["stock_count"] == 61
    shown = {key: value for key, value in layout.items() if key not in ("deal", "stock")}
    assert shown == started["state"]
    # The stock's last card is dealt first.
    assert dealt[-1]["state"]["waste"] == layout["stock"][::-1][:3]
