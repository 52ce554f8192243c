"""The daily deal's store contract, in memory, on a real Redis and on a Redis Cluster: one
official attempt per player and day however many start at once, the leaderboard's order,
the days, the streak."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from server_kit import REDIS_URL
from stalactites.store import DailyStore, open_daily_store
from stalactites.store.daily.base import DailyEntry, streak_of


@pytest.fixture(params=["memory", "redis", "cluster"])
async def daily(request: pytest.FixtureRequest, redis_prefix: str) -> AsyncIterator[DailyStore]:
    if request.param == "memory":
        made = open_daily_store("memory://")
    elif request.param == "redis":
        made = open_daily_store(REDIS_URL, redis_prefix)
    else:
        cluster = request.getfixturevalue("cluster")
        made = open_daily_store(cluster.url, redis_prefix, cluster=True)
    yield made
    await made.close()


def entry(player: str, room: str, won: bool, ms: int, cards: int, at: int) -> DailyEntry:
    return DailyEntry(player, player.upper(), room, won, ms, cards, at)


async def test_the_first_attempt_is_official_even_when_many_start_at_once(
    daily: DailyStore,
) -> None:
    claims = [daily.claim("squadron", "2026-12-01", "ann", f"r{i}", 20788) for i in range(8)]
    officials = await asyncio.gather(*claims)
    assert len(set(officials)) == 1 and officials[0] in {f"r{i}" for i in range(8)}
    later = await daily.claim("squadron", "2026-12-01", "ann", "late", 20788)
    assert later == officials[0]
    assert await daily.official("squadron", "2026-12-01", "ann") == officials[0]
    assert await daily.official("squadron", "2026-12-02", "ann") is None
    assert await daily.official("stalactites", "2026-12-01", "ann") is None


async def test_only_the_official_attempt_goes_on_the_board_and_only_once(
    daily: DailyStore,
) -> None:
    await daily.claim("stalactites", "2026-12-01", "ann", "r1", 20788)
    await daily.claim("stalactites", "2026-12-01", "ann", "r2", 20788)  # practice
    assert not await daily.record("stalactites", "2026-12-01", entry("ann", "r2", True, 1, 52, 5))
    assert await daily.record("stalactites", "2026-12-01", entry("ann", "r1", False, 9, 30, 6))
    assert await daily.record("stalactites", "2026-12-01", entry("ann", "r1", False, 9, 30, 7))
    page = await daily.leaderboard("stalactites", "2026-12-01", 0, 10)
    assert page.total == 1 and [e.room_id for e in page.entries] == ["r1"]


async def test_the_board_ranks_won_then_time_then_cards_then_who_finished_first(
    daily: DailyStore,
) -> None:
    game, date = "stalactites", "2026-12-01"
    lines = [
        entry("lost_more_cards", "a", False, 5_000, 40, 1),
        entry("lost_fewer_cards", "b", False, 1_000, 20, 2),
        entry("won_slow", "c", True, 90_000, 52, 3),
        entry("won_fast_later", "d", True, 60_000, 52, 9),
        entry("won_fast_first", "e", True, 60_000, 52, 4),
        entry("lost_same_cards_quicker", "f", False, 4_000, 40, 8),
    ]
    for line in lines:
        await daily.claim(game, date, line.player_id, line.room_id, 20788)
        await daily.record(game, date, line)
    page = await daily.leaderboard(game, date, 0, 10)
    assert [e.player_id for e in page.entries] == [
        "won_fast_first",
        "won_fast_later",
        "won_slow",
        "lost_fewer_cards",
        "lost_same_cards_quicker",
        "lost_more_cards",
    ]
    second = await daily.leaderboard(game, date, 2, 2)
    assert [e.player_id for e in second.entries] == ["won_slow", "lost_fewer_cards"]
    assert second.total == 6


async def test_the_deal_is_kept_once_and_days_are_listed_newest_first(
    daily: DailyStore,
) -> None:
    assert await daily.keep_deal("squadron", "2026-12-01", "first") == "first"
    assert await daily.keep_deal("squadron", "2026-12-01", "second") == "first"
    for date, day in (("2026-11-29", 20786), ("2026-12-01", 20788), ("2026-11-30", 20787)):
        await daily.claim("squadron", date, "ann", f"room-{date}", day)
    assert await daily.days("squadron", None, 10) == ["2026-12-01", "2026-11-30", "2026-11-29"]
    assert await daily.days("squadron", "2026-12-01", 1) == ["2026-11-30"]
    assert await daily.days("stalactites", None, 10) == []
    assert await daily.player_days("ann") == [20786, 20787, 20788]
    assert await daily.player_days("bob") == []


def test_the_streak_counts_days_in_a_row_up_to_today_or_yesterday() -> None:
    assert streak_of([10, 11, 12], 12) == 3
    assert streak_of([10, 11, 12], 13) == 3  # today's still to come
    assert streak_of([10, 11, 12], 14) == 0
    assert streak_of([8, 10, 11], 11) == 2
    assert streak_of([], 5) == 0
