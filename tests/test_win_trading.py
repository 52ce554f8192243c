"""Win trading and sandbagging: the rated queue never pairs two accounts of one address and
pairs two players matched lately again only when nobody else is free; the k-th rated race
against one opponent within a day gains less (and nothing after the third); a rated race in
which someone resigned without really playing changes nobody's rating.  Real servers over
websockets and HTTP (the in-process server's uvicorn trusts ``X-Forwarded-For`` from
127.0.0.1, so each client says its own address), and the queue's store on memory, Redis and a
Redis Cluster."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from conftest import QUEUE_T0
from match_kit import MatchClient, match_url
from players_kit import anonymous, api, recorded
from server_kit import Client, lasting_moves
from stalactites.rooms.rating import NO_PLAY_MOVES
from stalactites.store.queue.base import (
    RECENT_PAIR_MS,
    QueueEntry,
    QueueStore,
    QuickRoom,
    Widening,
    queue_name,
)

pytestmark = pytest.mark.usefixtures("close_clients")

HOME, ELSEWHERE, FARTHER = "203.0.113.5", "198.51.100.7", "192.0.2.9"


# The rated queue, over a real server.


async def queued_from(server: Any, address: str) -> MatchClient:
    """A new anonymous player queued for Stalactites by ones from ``address``."""
    session = await anonymous(server.url)
    headers = {"X-Forwarded-For": address}
    client = await MatchClient.open(match_url(server), additional_headers=headers)
    client.session = session
    await client.send(type="hello", token=session["token"])
    await client.expect("welcome")
    frame = await client.queue(step="ones")
    assert frame["type"] == "queued", frame
    return client


async def match_of(client: MatchClient, timeout: float = 10.0) -> dict[str, Any]:
    return await client.expect("matched", timeout=timeout)


def ids(frame: dict[str, Any]) -> set[str]:
    return {player["player_id"] for player in frame["players"]}


async def test_two_accounts_of_one_address_are_never_paired_with_each_other(
    any_server: Any,
) -> None:
    mine = await queued_from(any_server, HOME)
    puppet = await queued_from(any_server, HOME)
    for _ in range(2):  # a second of pairing steps: still both waiting
        frame = await puppet.recv(timeout=3)
        assert (frame["type"], frame.get("waiting")) == ("queued", 2), frame
    assert not any(frame["type"] == "matched" for frame in mine.frames + puppet.frames)
    stranger = await queued_from(any_server, ELSEWHERE)
    first = await match_of(mine)
    assert ids(first) == {mine.session["player_id"], stranger.session["player_id"]}
    another = await queued_from(any_server, FARTHER)
    second = await match_of(puppet)
    assert ids(second) == {puppet.session["player_id"], another.session["player_id"]}


# The recent pairs and the addresses, on the queue's store.

T0 = QUEUE_T0  # the in-memory store's time (conftest.qstore)
LEASE = 5_000
Q = queue_name("stalactites", "ones")
WIDE = Widening(base=100, per_s=25, anyone_after_s=20)


async def join(
    store: QueueStore, player: str, rating: int = 1000, at: int = T0, address: str = ""
) -> None:
    entry = QueueEntry(player, player.title(), rating, at, address)
    assert await store.enqueue(Q, entry, f"{player}-c", at + LEASE) is not None


async def raced(store: QueueStore, at: int, *players: str) -> None:
    """The players are paired at ``at``, raced in a room, and the race is over."""
    for player in players:
        await join(store, player, at=at)
    (pairing,) = await store.pair(Q, at, WIDE, len(players))
    room = QuickRoom(f"r-{at}", at, at + 60_000)
    frame = f'{{"type":"matched","room_id":"{room.room_id}"}}'
    await store.settle(Q, pairing.match_id, dict.fromkeys(players, frame), room)
    await store.race_over(Q, room.room_id, players)


def rooms(pairings: list[Any]) -> list[list[str]]:
    return [sorted(entry.player_id for entry in one.players) for one in pairings]


async def test_one_address_is_never_paired_with_itself_however_long_it_waits(
    qstore: QueueStore,
) -> None:
    await join(qstore, "mine", address="a1")
    await join(qstore, "puppet", address="a1")
    assert await qstore.pair(Q, T0 + 2_000, WIDE, 2) == []  # the same rating, never together
    await join(qstore, "stranger", 1150, at=T0 + 2_000, address="a2")  # in mine's window
    assert rooms(await qstore.pair(Q, T0 + 2_000, WIDE, 2)) == [["mine", "stranger"]]


async def test_a_pair_matched_lately_is_not_paired_again_while_someone_else_waits(
    qstore: QueueStore,
) -> None:
    await raced(qstore, T0, "ann", "bob")
    later = T0 + 60_000
    await join(qstore, "ann", at=later)
    await join(qstore, "bob", at=later + 1)
    await join(qstore, "carl", 1200, at=later + 2)  # far in rating: ann's window is 100 now
    assert await qstore.pair(Q, later + 2, WIDE, 2) == []  # ann waits for carl's window
    assert rooms(await qstore.pair(Q, later + 4_000, WIDE, 2)) == [["ann", "carl"]]


async def test_a_pair_matched_lately_races_again_when_nobody_else_is_free(
    qstore: QueueStore,
) -> None:
    await raced(qstore, T0, "ann", "bob")
    later = T0 + 60_000
    await join(qstore, "ann", at=later)
    await join(qstore, "bob", at=later + 1)
    assert rooms(await qstore.pair(Q, later + 1, WIDE, 2)) == [["ann", "bob"]]


async def test_a_pair_is_new_again_once_its_last_match_is_old_enough(qstore: QueueStore) -> None:
    await raced(qstore, T0, "ann", "bob")
    later = T0 + RECENT_PAIR_MS + 1
    await join(qstore, "ann", at=later)
    await join(qstore, "bob", at=later + 1)
    await join(qstore, "carl", 1200, at=later + 2)
    assert rooms(await qstore.pair(Q, later + 2, WIDE, 2)) == [["ann", "bob"]]


# Ratings, over a real server: rated rooms (made over HTTP, each seat a session).


async def rated_race(
    base: str, winner: dict[str, Any], loser: dict[str, Any], loser_moves: int = NO_PLAY_MOVES
) -> dict[str, dict[str, Any]]:
    """A rated room's race: the winner makes 3 moves, the loser ``loser_moves``, the loser
    resigns and then the winner (so placed first); the standings by player id."""
    status, room, _ = await api("POST", f"{base}/api/rooms", {"rated": True, "countdown_s": 0})
    assert status == 201, room
    ws = base.replace("http", "ws", 1) + f"/ws/rooms/{room['room_id']}"
    clients: list[Client] = []
    for seat in (winner, loser):
        url = f"{base}/api/rooms/{room['room_id']}/players"
        status, answer, _ = await api("POST", url, {}, seat["token"])
        assert status == 201, answer
        client = await Client.open(ws)
        await client.hello(seat["token"])
        clients.append(client)
    for client in clients:
        await client.send(type="ready")
    openings = [(await client.expect("started"))["state"] for client in clients]
    for client, moves, opening in zip(clients, (NO_PLAY_MOVES, loser_moves), openings, strict=True):
        for number, move in enumerate(lasting_moves(opening, moves)):
            answer = await client.move(f"m{number}", move)
            assert answer["type"] == "accepted", answer
    for client in reversed(clients):
        await client.send(type="resign")
        await client.expect("finished", player_id=client.you, status="resigned")
    results = await clients[0].expect("results")
    for client in clients:
        await client.close()
    return {line["player_id"]: line for line in results["standings"]}


async def rating(base: str, player_id: str) -> dict[str, Any]:
    status, profile, _ = await api("GET", f"{base}/api/players/{player_id}")
    assert status == 200, profile
    never = {"rating": 1000, "races": 0}  # no rated race yet: no rating shown
    return dict(profile["ratings"].get("stalactites", never))


async def test_the_kth_race_against_one_opponent_gains_less_and_nothing_after_the_third(
    any_server: Any,
) -> None:
    base = any_server.url
    ann, bob = await anonymous(base), await anonymous(base)
    gains = []
    for number in range(1, 5):
        lines = await rated_race(base, ann, bob)
        await recorded(base, ann["player_id"], number)
        await recorded(base, bob["player_id"], number)
        line = lines[ann["player_id"]]
        assert line["place"] == 1
        gains.append((line["rated"], (line["rating_after"] or 0) - (line["rating_before"] or 0)))
    (rated1, first), (rated2, second), (rated3, third), (rated4, fourth) = gains
    assert rated1 and rated2 and rated3 and first > 0
    assert 0 < second <= first / 2  # the second counts half: unweighted it would be 80%
    assert 0 < third <= first / 3
    assert (rated4, fourth) == (False, 0)  # the fourth within a day counts not at all
    profile = await rating(base, ann["player_id"])
    assert profile["races"] == 3
    history = await recorded(base, ann["player_id"], 4)
    assert [entry["rated"] for entry in history] == [False, True, True, True]  # newest first


async def test_the_races_are_counted_per_opponent(any_server: Any) -> None:
    base = any_server.url
    ann, bob, carl = [await anonymous(base) for _ in range(3)]
    for number in range(1, 4):
        await rated_race(base, ann, bob)
        await recorded(base, ann["player_id"], number)
    with_carl = (await rated_race(base, ann, carl))[ann["player_id"]]
    assert with_carl["rated"] and with_carl["rating_after"] > with_carl["rating_before"]
    await recorded(base, ann["player_id"], 4)
    fourth_with_bob = (await rated_race(base, ann, bob))[ann["player_id"]]
    assert fourth_with_bob["rated"] is False


async def test_a_resignation_without_real_play_changes_nobodys_rating(any_server: Any) -> None:
    base = any_server.url
    ann, puppet = await anonymous(base), await anonymous(base)
    lines = await rated_race(base, ann, puppet, loser_moves=NO_PLAY_MOVES - 1)
    assert lines[ann["player_id"]]["place"] == 1
    for player in (ann, puppet):
        line = lines[player["player_id"]]
        assert line["rated"] is False and line["rating_before"] is None
        [entry] = await recorded(base, player["player_id"])
        assert entry["rated"] is False and entry["rating_after"] is None
        shown = await rating(base, player["player_id"])
        assert (shown["rating"], shown["races"]) == (1000, 0)


async def test_a_race_with_real_play_on_both_sides_is_rated(any_server: Any) -> None:
    base = any_server.url
    ann, bob = await anonymous(base), await anonymous(base)
    lines = await rated_race(base, ann, bob, loser_moves=NO_PLAY_MOVES)
    assert all(line["rated"] for line in lines.values())
    await asyncio.gather(*(recorded(base, p["player_id"]) for p in (ann, bob)))
    assert (await rating(base, bob["player_id"]))["rating"] < 1000
