"""``GET /metrics`` over a real server: what a race, its sockets and its refusals show."""

from __future__ import annotations

import asyncio

import pytest

from metrics_kit import parse, scrape
from server_kit import InProcessServer, new_room, player, spectator, start_race, winning_line
from stalactites.live.metrics import Histogram, Metrics, ResultsFigures
from stalactites.store import Backlog
from tournament_kit import Watcher, new_tournament

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")


@pytest.mark.own_server  # it counts every connection, move and refusal of its server
async def test_a_race_shows_its_connections_moves_refusals_and_latencies(
    any_server: InProcessServer,
) -> None:
    base = any_server.url
    before = await scrape(base)
    assert before[("stalactites_moves_accepted_total", None)] == 0
    assert before[("stalactites_connections", "player")] == 0
    room_id = await new_room(base, deal=DEAL, step="ones", seats=2, countdown_s=0)
    ann, bob = [await player(any_server, room_id, name) for name in ("Ann", "Bob")]
    watcher = await spectator(any_server, room_id)
    tournament_id, _ = await new_tournament(
        base, step="ones", rounds=1, round_time_s=60, break_s=0, deals=[DEAL]
    )
    follower = await Watcher.open(base, tournament_id)
    await follower.hello(spectator=True)
    await new_room(base)  # listed while it waits (a full room, as Ann and Bob's, is not)

    waiting = await scrape(base)
    assert waiting[("stalactites_connections", "player")] == 2
    assert waiting[("stalactites_connections", "spectator")] == 1
    assert waiting[("stalactites_connections", "tournament")] == 1
    assert await settled(base, ("stalactites_rooms", "waiting"), 1)  # as the hub reads it
    assert waiting[("stalactites_rooms_listed", "waiting")] == 1  # as the store lists it
    assert waiting[("stalactites_rooms_listed", "racing")] == 0

    early = await ann.move("early", LINE[0])  # before the start: not_started
    assert early["code"] == "not_started"
    await start_race(ann, bob)
    for index, move in enumerate(LINE[:10]):
        assert (await ann.move(f"a{index}", move))["type"] == "accepted"
    illegal = await bob.move("b0", "t1-t1")
    assert illegal["type"] == "rejected"
    for client in (ann, bob, watcher):  # each has Ann's ten progress events (read on the way)
        tenth = {"type": "progress", "player_id": ann.you, "moves": 10}
        if not any(tenth.items() <= frame.items() for frame in client.frames):
            await client.expect("progress", player_id=ann.you, moves=10)

    racing = await scrape(base)
    assert racing[("stalactites_moves_accepted_total", None)] == 10
    assert racing[("stalactites_moves_rejected_total", "not_started")] == 1
    assert racing[("stalactites_moves_rejected_total", illegal["code"])] == 1
    assert await settled(base, ("stalactites_rooms", "racing"), 1)
    assert racing[("stalactites_rooms_listed", "waiting")] == 1  # the empty room still waits
    assert racing[("stalactites_rooms_listed", "racing")] == 1
    commits = racing[("stalactites_move_commit_seconds_count", None)]
    assert commits == 10 == racing[("stalactites_move_commit_seconds_bucket", "+Inf")]
    assert racing[("stalactites_move_commit_seconds_sum", None)] > 0
    buckets = [racing[("stalactites_move_commit_seconds_bucket", le)] for le in ("0.001", "2.5")]
    assert buckets[0] <= buckets[1] <= commits
    # Ten progress events went to Ann, Bob and the spectator: each a fan-out sample.
    assert racing[("stalactites_fanout_lag_seconds_count", None)] >= 30
    assert racing[("stalactites_pubsub_reconnects_total", "rooms")] == 0

    for client in (ann, bob, watcher, follower):
        await client.close()
    for role in ("player", "spectator", "tournament"):  # the server sees the closes in its time
        assert await settled(base, ("stalactites_connections", role), 0)
    assert (await scrape(base))[("stalactites_moves_accepted_total", None)] == 10


async def settled(base: str, key: tuple[str, str | None], value: float) -> bool:
    """Whether the sample comes to this value within ten seconds."""
    for _ in range(200):
        if (await scrape(base)).get(key) == value:
            return True
        await asyncio.sleep(0.05)
    return False


def test_the_exposition_counts_buckets_cumulatively() -> None:
    histogram = Histogram((0.01, 0.1))
    for value in (0.005, 0.01, 0.05, 3.0):
        histogram.observe(value)
    metrics = Metrics()
    metrics.commit_seconds = histogram
    metrics.answered("accepted", None, 0.0)  # one more, in the first bucket
    metrics.answered("rejected", 'odd"code', 0.0)
    results = ResultsFigures(Backlog(3, 2_500), 7, 1, 9)
    samples = parse(
        metrics.render({"player": 3}, {}, {"rooms": 2}, {"waiting": 4, "racing": 1}, results)
    )
    name = "stalactites_move_commit_seconds"
    assert samples[(f"{name}_bucket", "0.01")] == 3
    assert samples[(f"{name}_bucket", "0.1")] == 4
    assert samples[(f"{name}_bucket", "+Inf")] == 5 == samples[(f"{name}_count", None)]
    assert samples[(f"{name}_sum", None)] == pytest.approx(3.065)
    assert samples[("stalactites_connections", "player")] == 3
    assert samples[("stalactites_connections", "spectator")] == 0
    assert samples[("stalactites_rooms", "finished")] == 0
    assert samples[("stalactites_pubsub_reconnects_total", "rooms")] == 2
    assert samples[("stalactites_rooms_listed", "waiting")] == 4
    assert samples[("stalactites_results_backlog", None)] == 3
    assert samples[("stalactites_results_oldest_age_seconds", None)] == 2.5
    assert samples[("stalactites_results_recorded_total", None)] == 7
    assert samples[("stalactites_results_failures_total", None)] == 1
    assert samples[("stalactites_deadlines_advanced_total", None)] == 9
    text = metrics.render({}, {}, {}, {}, ResultsFigures(Backlog(0, None), 0, 0, 0))
    assert 'stalactites_moves_rejected_total{code="odd\\"code"} 1' in text
