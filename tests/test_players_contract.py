"""The players' contract, on the in-memory store and on a real Redis (the cluster module runs
these again on a Redis Cluster): accounts, sessions, names, ratings recorded exactly once,
histories, statistics, leaderboards and deleting an account."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator
from dataclasses import asdict, replace
from typing import cast

import pytest
import redis

from players_kit import CHEAP, Crash, CrashingStore, InterleavingStore, Stores, race
from server_kit import REDIS_URL, ManualClock
from stalactites.players import (
    AlreadyRegistered,
    BadCredentials,
    BadCursor,
    BadGame,
    BadLimit,
    BadName,
    BadPassword,
    BadRace,
    BadUsername,
    NameTaken,
    PlayerError,
    PlayerNotFound,
    PlayerService,
    RenameTooSoon,
    UsernameTaken,
)
from stalactites.players.names import skeleton
from stalactites.players.races import RaceOutcome, history_entry
from stalactites.players.ratings import PROVISIONAL_RACES, REPEAT_WINDOW_MS
from stalactites.players.sessions import token_hash
from stalactites.store.players.base import BoardLine, PlayerRecord, board_lines, board_shown


@pytest.fixture(params=["memory", "redis", "cluster"])
async def stores(request: pytest.FixtureRequest, redis_prefix: str) -> AsyncIterator[Stores]:
    """In memory, on the real Redis, or on the session's Redis Cluster (every master's keys
    read for checks)."""
    urls = [REDIS_URL]
    if request.param == "cluster":
        cluster = request.getfixturevalue("cluster")
        urls = [f"redis://127.0.0.1:{port}/0" for port in cluster.ports]
    made = Stores(request.param, urls, redis_prefix)
    yield made
    await made.close()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def service(stores: Stores, clock: ManualClock) -> PlayerService:
    return stores.service(clock)


async def registered(service: PlayerService, username: str) -> str:
    new = await service.create_anonymous()
    await service.register(new.player_id, username, "correct horse")
    return new.player_id


# Identity


async def test_an_anonymous_player_gets_a_generated_name_and_a_session(
    service: PlayerService,
) -> None:
    new = await service.create_anonymous()
    player = await service.resolve(new.token)
    assert player is not None and player.player_id == new.player_id
    assert player.name == new.name and not player.registered
    other = await service.create_anonymous()
    assert other.name != new.name and other.token != new.token


async def test_registering_keeps_the_players_id_ratings_and_history(
    service: PlayerService,
) -> None:
    a, b = await service.create_anonymous(), await service.create_anonymous()
    await service.record_race(race("r1", (a.player_id, 1), (b.player_id, 2)))
    rating = (await service.profile(a.player_id)).ratings["stalactites"]
    account = await service.register(a.player_id, "Alice_1", "correct horse")
    assert account.player_id == a.player_id and account.username == "Alice_1"
    profile = await service.profile("alice_1")
    assert profile.registered and profile.ratings["stalactites"] == rating
    assert [r.room_id for r in (await service.history(a.player_id)).races] == ["r1"]


@pytest.mark.parametrize("username", ["ab", "a" * 21, "al ice", "alïce", "al.ice", "", 7, None])
async def test_a_username_is_3_to_20_of_letters_digits_underscore_and_dash(
    service: PlayerService, username: object
) -> None:
    new = await service.create_anonymous()
    with pytest.raises(BadUsername) as caught:
        await service.register(new.player_id, username, "correct horse")
    assert caught.value.code == "bad_username" and caught.value.field == "username"
    assert not (await service.profile(new.player_id)).registered


@pytest.mark.parametrize("password", ["", "1234567", "x" * 129, None, 12345678])
async def test_a_password_is_8_to_128_characters(service: PlayerService, password: object) -> None:
    new = await service.create_anonymous()
    with pytest.raises(BadPassword) as caught:
        await service.register(new.player_id, "alice", password)
    assert caught.value.code == "bad_password"
    assert not (await service.profile(new.player_id)).registered
    other = await service.create_anonymous()  # and the username was not taken
    await service.register(other.player_id, "alice", "x" * 128)


async def test_a_username_is_taken_regardless_of_case(service: PlayerService) -> None:
    await registered(service, "Alice")
    new = await service.create_anonymous()
    with pytest.raises(UsernameTaken) as caught:
        await service.register(new.player_id, "aLICE", "correct horse")
    assert caught.value.code == "username_taken"
    assert not (await service.profile(new.player_id)).registered


async def test_an_account_registers_once(service: PlayerService) -> None:
    player_id = await registered(service, "alice")
    with pytest.raises(AlreadyRegistered):
        await service.register(player_id, "alice2", "correct horse")
    with pytest.raises(PlayerNotFound):
        await service.profile("alice2")


async def test_signing_in_takes_the_right_password_only(service: PlayerService) -> None:
    player_id = await registered(service, "alice")
    session = await service.sign_in("ALICE", "correct horse")
    assert session.player_id == player_id
    assert (await service.resolve(session.token)) is not None
    username: str | None
    password: str | None
    for username, password in [("alice", "wrong horse"), ("nobody", "correct horse")]:
        with pytest.raises(BadCredentials) as caught:
            await service.sign_in(username, password)
        assert caught.value.code == "bad_credentials"
    for username, password in [("a", "correct horse"), (None, None), ("alice", "x" * 999)]:
        with pytest.raises(BadCredentials):
            await service.sign_in(username, password)


async def test_an_anonymous_player_cannot_be_signed_in_to(service: PlayerService) -> None:
    new = await service.create_anonymous()
    with pytest.raises(BadCredentials):
        await service.sign_in(new.name, "correct horse")


async def test_a_session_is_revoked_alone_or_with_all_of_its_players(
    service: PlayerService,
) -> None:
    first = await service.create_anonymous()
    await service.register(first.player_id, "alice", "correct horse")
    second = await service.sign_in("alice", "correct horse")
    third = await service.sign_in("alice", "correct horse")
    await service.sign_out(first.token)
    assert await service.resolve(first.token) is None
    assert await service.resolve(second.token) is not None
    await service.sign_out(second.token, everywhere=True)
    assert await service.resolve(second.token) is None
    assert await service.resolve(third.token) is None
    await service.sign_out(third.token, everywhere=True)  # a dead session signs nothing out


@pytest.mark.parametrize("token", ["", "nonsense", None, 5, "p.0123456789abcdef~short"])
async def test_a_malformed_token_is_no_session(service: PlayerService, token: object) -> None:
    assert await service.resolve(token) is None
    await service.sign_out(token)


async def test_a_session_expires(stores: Stores, clock: ManualClock) -> None:
    service = PlayerService(stores.open(), clock, stores.service(clock)._passwords, session_ms=1000)
    new = await service.create_anonymous()
    clock.advance(2)
    assert await service.resolve(new.token) is None
    await service.create_anonymous()
    assert await service.store.session_count(new.player_id) == 1  # kept until the next one
    await service._new_session(new.player_id, new.name)
    assert await service.store.session_count(new.player_id) == 1  # the expired one dropped


async def test_tokens_and_passwords_are_never_stored_in_clear(
    service: PlayerService, stores: Stores
) -> None:
    new = await service.create_anonymous()
    await service.register(new.player_id, "alice", "correct horse")
    signed = await service.sign_in("alice", "correct horse")
    stored = stores.stored_text()
    for token in (new.token, signed.token):
        assert token not in stored and token.split("~")[1] not in stored
        assert token_hash(token) in stored
    assert "correct horse" not in stored and "$argon2id$" in stored


async def test_a_name_changes_once_a_day(service: PlayerService, clock: ManualClock) -> None:
    new = await service.create_anonymous()
    assert (await service.rename(new.player_id, "  Ann   the  Quick ")).name == "Ann the Quick"
    clock.advance(3600)
    with pytest.raises(RenameTooSoon) as caught:
        await service.rename(new.player_id, "Bob")
    assert caught.value.code == "rename_too_soon" and caught.value.retry_at_ms > clock.now_ms()
    assert (await service.profile(new.player_id)).name == "Ann the Quick"
    clock.advance(23 * 3600)
    assert (await service.rename(new.player_id, "Bob")).name == "Bob"


async def test_a_name_is_given_once_not_even_confusably(
    service: PlayerService, clock: ManualClock
) -> None:
    ann, bob = await service.create_anonymous(), await service.create_anonymous()
    assert (await service.rename(ann.player_id, "ann")).name == "ann"
    for taken in ("Ann", "\u0430nn", ann.name.upper()):  # Cyrillic а; a name given once
        with pytest.raises(NameTaken) as caught:
            await service.rename(bob.player_id, taken)
        assert caught.value.code == "name_taken"
    assert (await service.profile(bob.player_id)).name == bob.name
    clock.advance(24 * 3600)
    assert (await service.rename(ann.player_id, "ANN")).name == "ANN"  # respelling one's own
    assert (await service.rename(bob.player_id, "bob")).name == "bob"  # refusals claimed nothing


async def test_two_renames_of_one_player_at_once_give_one_name_and_claim_no_other(
    stores: Stores, service: PlayerService, clock: ManualClock
) -> None:
    ann, bob = await service.create_anonymous(), await service.create_anonymous()
    racing = stores.service(clock, InterleavingStore(service.store))
    names = ("Xavier", "Yolanda", "YOLANDA")
    answers = await asyncio.gather(
        *(racing.rename(ann.player_id, name) for name in names), return_exceptions=True
    )
    won = [answer.name for answer in answers if isinstance(answer, PlayerRecord)]
    assert len(won) == 1
    assert all(isinstance(a, RenameTooSoon) for a in answers if not isinstance(a, PlayerRecord))
    assert (await service.profile(ann.player_id)).name == won[0]
    clock.advance(24 * 3600)
    for name in names:  # the refused renames' names were given up (the winner's kept)
        if skeleton(name) != skeleton(won[0]):
            assert (await service.rename(bob.player_id, name)).name == name
            break
    with pytest.raises(NameTaken):
        await service.rename((await service.create_anonymous()).player_id, won[0])


async def test_two_players_claiming_one_name_at_once_one_gets_it_the_other_may_rename(
    stores: Stores, service: PlayerService, clock: ManualClock
) -> None:
    ann, bob = await service.create_anonymous(), await service.create_anonymous()
    racing = stores.service(clock, InterleavingStore(service.store))
    answers = await asyncio.gather(
        racing.rename(ann.player_id, "ann"),
        racing.rename(bob.player_id, "\u0430nn"),  # Cyrillic а: the same skeleton
        return_exceptions=True,
    )
    assert sorted(type(answer).__name__ for answer in answers) == ["NameTaken", "PlayerRecord"]
    loser = bob if isinstance(answers[0], PlayerRecord) else ann
    assert (await service.profile(loser.player_id)).name == loser.name
    assert (await service.rename(loser.player_id, "Zed")).name == "Zed"  # no rename used up


@pytest.mark.parametrize("name", ["", " ", "x" * 21, "a\u200bb", "tab\there", "deleted player"])
async def test_a_display_name_is_1_to_20_visible_characters_not_reserved(
    service: PlayerService, name: str
) -> None:
    new = await service.create_anonymous()
    with pytest.raises(BadName) as caught:
        await service.rename(new.player_id, name)
    assert caught.value.code == "bad_name"
    assert (await service.profile(new.player_id)).name == new.name
    await service.rename(new.player_id, "fine")  # the refusal used up no rename


# Ratings, exactly once


async def test_a_rated_race_changes_ratings_once_however_often_it_is_recorded(
    service: PlayerService,
) -> None:
    a, b = await service.create_anonymous(), await service.create_anonymous()
    result = race("r1", (a.player_id, 1), (b.player_id, 2))
    first = await service.record_race(result)
    again = await service.record_race(result)
    assert first == again
    winner = (await service.profile(a.player_id)).ratings["stalactites"]
    loser = (await service.profile(b.player_id)).ratings["stalactites"]
    assert winner.races == loser.races == 1 and winner.rating > loser.rating
    entry = (await service.history(a.player_id)).races[0]
    assert entry.rated and entry.rating_after == winner.rating
    assert entry.rating_before is not None and entry.rating_before < entry.rating_after
    assert first.change(a.player_id) == (entry.rating_before, entry.rating_after) == (1000, 1086)
    assert first.change("p.0123456789abcdef") is None


async def test_two_processes_recording_one_race_at_once_change_ratings_once(
    stores: Stores, clock: ManualClock
) -> None:
    one, two = stores.service(clock), stores.service(clock)
    a, b = await one.create_anonymous(), await one.create_anonymous()
    result = race("r1", (a.player_id, 1), (b.player_id, 2))
    first, second = await asyncio.gather(one.record_race(result), two.record_race(result))
    assert first == second
    for pid in (a.player_id, b.player_id):
        profile = await two.profile(pid)
        assert profile.ratings["stalactites"].races == 1
        assert profile.stats["stalactites:ones"].races == 1
        assert len((await two.history(pid)).races) == 1


async def test_a_race_a_crash_left_halfway_is_completed_once(
    stores: Stores, clock: ManualClock
) -> None:
    store = stores.open()
    healthy = stores.service(clock, store)
    a, b = await healthy.create_anonymous(), await healthy.create_anonymous()
    result = race("r1", (a.player_id, 1), (b.player_id, 2))
    dying = stores.service(clock, CrashingStore(store, "apply_race", after=1))
    with pytest.raises(Crash):
        await dying.record_race(result)
    assert len((await healthy.history(a.player_id)).races) == 1  # the first applied,
    assert (await healthy.history(b.player_id)).races == []  # the second not
    assert await healthy.resume_pending() == 1  # any process finishes it
    assert await healthy.resume_pending() == 0
    await healthy.record_race(result)
    for pid in (a.player_id, b.player_id):
        profile = await healthy.profile(pid)
        assert profile.ratings["stalactites"].races == 1
        assert len((await healthy.history(pid)).races) == 1
    outcome = await healthy.record_race(result)
    assert outcome.after[a.player_id].mu > outcome.before[a.player_id].mu


async def test_a_crash_before_the_outcome_is_stored_leaves_the_race_pending(
    stores: Stores, clock: ManualClock
) -> None:
    store = stores.open()
    healthy = stores.service(clock, store)
    a, b = await healthy.create_anonymous(), await healthy.create_anonymous()
    dying = stores.service(clock, CrashingStore(store, "claim_outcome", after=0))
    with pytest.raises(Crash):
        await dying.record_race(race("r1", (a.player_id, 1), (b.player_id, 2)))
    assert (await healthy.profile(a.player_id)).ratings["stalactites"].races == 0
    await healthy.resume_pending()
    assert (await healthy.profile(a.player_id)).ratings["stalactites"].races == 1


async def test_a_race_rated_before_another_was_applied_adds_its_change_to_it(
    stores: Stores, clock: ManualClock
) -> None:
    store = stores.open()
    healthy = stores.service(clock, store)
    a, b, c = [(await healthy.create_anonymous()).player_id for _ in range(3)]
    dying = stores.service(clock, CrashingStore(store, "apply_race", after=0))
    with pytest.raises(Crash):  # r1 is rated (a beats b) but not applied
        await dying.record_race(race("r1", (a, 1), (b, 2)))
    r2 = await healthy.record_race(race("r2", (a, 1), (c, 2), finished_at=1_800_000_000_001))
    r1 = await healthy.record_race(race("r1", (a, 1), (b, 2)))
    rating = (await healthy.profile(a)).ratings["stalactites"]
    assert rating.races == 2  # both counted, r2's change not overwritten by r1's
    gained = (r1.after[a].mu - r1.before[a].mu) + (r2.after[a].mu - r2.before[a].mu)
    record = await store.load_player(a)
    assert record is not None
    assert record.ratings["stalactites"].mu == pytest.approx(25.0 + gained)


async def test_ties_share_a_rating_change(service: PlayerService) -> None:
    ids = [(await service.create_anonymous()).player_id for _ in range(3)]
    outcome = await service.record_race(race("r1", (ids[0], 1), (ids[1], 2), (ids[2], 2)))
    assert outcome.after[ids[1]] == outcome.after[ids[2]]
    assert outcome.after[ids[0]].mu > outcome.after[ids[1]].mu


async def test_an_unrated_race_is_in_the_history_without_a_rating_change(
    service: PlayerService,
) -> None:
    a = await service.create_anonymous()
    await service.record_race(race("solo", (a.player_id, 1), (None, 2), rated=False))
    profile = await service.profile(a.player_id)
    assert profile.ratings["stalactites"].races == 0
    entry = (await service.history(a.player_id)).races[0]
    assert not entry.rated and entry.rating_before is None and entry.players == 2


@pytest.mark.parametrize(
    "bad",
    [
        race("bad id!", ("p.0000000000000001", 1), ("p.0000000000000002", 2)),
        race("r1", ("p.0000000000000001", 1), ("p.0000000000000002", 2), game="chess"),
        race("r1", ("p.0000000000000001", 1), (None, 2)),  # rated with a guest
        race("r1", ("p.0000000000000001", 1), ("p.0000000000000001", 2)),
        race("r1", ("p.0000000000000001", 3), ("p.0000000000000002", 1)),
        race("r1", ("p.0000000000000001", 1), ("p.0000000000000002", 2), step="threes"),
    ],
)
async def test_a_malformed_race_is_refused_and_records_nothing(
    service: PlayerService, stores: Stores, bad: object
) -> None:
    with pytest.raises(BadRace) as caught:
        await service.record_race(bad)  # type: ignore[arg-type]
    assert caught.value.code == "bad_race"
    assert await service.store.pending(10) == []


# History and statistics


async def test_the_history_is_newest_first_in_pages_with_cursors(service: PlayerService) -> None:
    a = await service.create_anonymous()
    for i in range(5):  # two finish in the same millisecond: the cursor keeps them apart
        at = 1_800_000_000_000 + 1000 * min(i, 3)
        await service.record_race(race(f"r{i}", (a.player_id, 1), rated=False, finished_at=at))
    page = await service.history(a.player_id, limit=2)
    seen = [r.room_id for r in page.races]
    while page.next is not None:
        page = await service.history(a.player_id, limit=2, before=page.next)
        seen += [r.room_id for r in page.races]
    assert seen == ["r4", "r3", "r2", "r1", "r0"]
    full = await service.history(a.player_id, limit=5)
    assert full.next is None and len(full.races) == 5


@pytest.mark.parametrize("cursor", ["", "!!!", "bm90IGEgbWFyaw", 42, "x" * 200])
async def test_a_bad_cursor_is_refused(service: PlayerService, cursor: object) -> None:
    a = await service.create_anonymous()
    with pytest.raises(BadCursor) as caught:
        await service.history(a.player_id, before=cursor)
    assert caught.value.code == "bad_cursor"


@pytest.mark.parametrize("limit", [0, 101, -1, "5", True])
async def test_a_page_holds_1_to_100(service: PlayerService, limit: object) -> None:
    a = await service.create_anonymous()
    with pytest.raises(BadLimit):
        await service.history(a.player_id, limit=limit)  # type: ignore[arg-type]
    with pytest.raises(BadLimit):
        await service.leaderboard("stalactites", limit=limit)  # type: ignore[arg-type]


def test_history_entries_and_outcomes_stored_in_the_older_forms_are_still_read() -> None:
    entry = {"room_id": "r1", "game": "stalactites", "deal": "ms:4", "finished_at": 7}
    entry |= {"place": 1, "players": 2, "status": "won", "elapsed_ms": 60_000}
    entry |= {"foundation_cards": 52, "step": "ones", "rated": True}
    stored = json.dumps([entry, [25.0, 25 / 3], [27.0, 8.0]])
    old = history_entry("0000000000007:r1", stored)
    assert (old.room_id, old.rating_before, old.rating_after) == ("r1", 1000, 1075)
    new = history_entry("0000000000007:r1", "stalactites|1|2|won|60000|52|ones|0|3|ms:4")
    assert replace(new, rated=True, rating_before=1000, rating_after=1075) == old
    outcome = RaceOutcome.from_json(
        RaceOutcome(race("r1", ("p.1", 1), ("p.2", 2)), {}, {}).to_json()
    )
    fields = {"result": asdict(outcome.result), "before": {}, "after": {}}
    assert RaceOutcome.from_json(json.dumps(fields)) == outcome


async def test_statistics_count_races_wins_times_and_streaks_per_game_and_step(
    service: PlayerService,
) -> None:
    a, b = await service.create_anonymous(), await service.create_anonymous()
    places = [1, 1, 2, 1, 1, 1]  # wins in 60 s, 60 s, -, 60 s, 61 s(as seat 1), ...
    for i, place in enumerate(places):
        seats = [(a.player_id, place), (b.player_id, 3 - place)]
        if i >= 4:
            seats.reverse()  # a sits second: a winning time of 61 s
        await service.record_race(race(f"r{i}", *seats, finished_at=1_800_000_000_000 + i))
    await service.record_race(race("t", (a.player_id, 1), (b.player_id, 2), step="twos"))
    stats = (await service.profile(a.player_id)).stats
    ones = stats["stalactites:ones"]
    assert (ones.races, ones.wins, ones.streak, ones.best_streak) == (6, 5, 3, 3)
    assert ones.best_ms == 60_000 and ones.median_ms == 60_000
    assert stats["stalactites:twos"].races == 1
    lost = (await service.profile(b.player_id)).stats["stalactites:ones"]
    assert (lost.wins, lost.streak, lost.best_streak, lost.best_ms) == (1, 0, 1, 61_000)


# Leaderboards


ROOMS = itertools.count()
DAY = REPEAT_WINDOW_MS  # races of one pair this far apart each count whole


async def settled(service: PlayerService, winner: str, loser: str, races: int) -> None:
    """``races`` races, each in a room of its own, that ``winner`` wins."""
    for _ in range(races):
        room = next(ROOMS)
        result = race(f"room{room}", (winner, 1), (loser, 2), finished_at=room * DAY)
        await service.record_race(result)


async def test_the_leaderboard_holds_registered_players_past_their_provisional_races(
    service: PlayerService,
) -> None:
    alice, bob = await registered(service, "alice"), await registered(service, "bob")
    guest = (await service.create_anonymous()).player_id
    await settled(service, alice, bob, PROVISIONAL_RACES - 1)
    assert await service.leaderboard("stalactites") == []  # both provisional
    await settled(service, guest, alice, 1)
    board = await service.leaderboard("stalactites")  # the guest never, bob still provisional
    assert [(e.rank, e.player_id) for e in board] == [(1, alice)]
    await settled(service, alice, bob, 1)
    board = await service.leaderboard("stalactites")
    assert [(e.rank, e.player_id) for e in board] == [(1, alice), (2, bob)]
    assert board[0].rating > board[1].rating and board[0].races == PROVISIONAL_RACES + 1
    assert board[0].name == (await service.profile(alice)).name
    assert await service.leaderboard("squadron") == []
    with pytest.raises(BadGame):
        await service.leaderboard("chess")


async def test_a_process_shows_a_board_page_a_second_late_at_most_and_its_own_changes_at_once(
    stores: Stores, service: PlayerService, clock: ManualClock
) -> None:
    alice, bob = await registered(service, "alice"), await registered(service, "bob")
    await settled(service, alice, bob, PROVISIONAL_RACES)
    reader = PlayerService(stores.open(), clock, CHEAP, board_page_ttl_ms=1000)  # keeps pages
    first = await reader.leaderboard("stalactites")
    assert [entry.player_id for entry in first] == [alice, bob]
    await settled(service, bob, alice, 1)  # recorded by another process
    assert await reader.leaderboard("stalactites") == first  # the page read just now
    clock.advance(1)  # a second old: read again
    assert await reader.leaderboard("stalactites") == await service.leaderboard("stalactites")
    assert await reader.leaderboard("stalactites") != first
    again = await reader.leaderboard("stalactites", 1, 1)  # a page of its own
    await reader.record_race(race(f"room{next(ROOMS)}", (bob, 1), (alice, 2)))  # here
    assert await reader.leaderboard("stalactites", 1, 1) != again  # at once
    assert await reader.leaderboard("stalactites") == await service.leaderboard("stalactites")


async def test_a_leaderboard_page_reads_the_board_alone_and_shows_a_new_name(
    stores: Stores, service: PlayerService, clock: ManualClock
) -> None:
    alice, bob = await registered(service, "alice"), await registered(service, "bob")
    await settled(service, alice, bob, PROVISIONAL_RACES)
    reader = stores.service(clock, CrashingStore(service.store, "load_player", 0))
    board = await reader.leaderboard("stalactites")  # no player's record loaded
    assert [(e.rank, e.player_id) for e in board] == [(1, alice), (2, bob)]
    assert board[1].races == PROVISIONAL_RACES and board[1].rating < board[0].rating
    await service.rename(bob, "Bob the Second")
    board = await reader.leaderboard("stalactites")
    assert [e.name for e in board] == [(await service.profile(alice)).name, "Bob the Second"]


async def test_a_player_who_registers_later_joins_the_leaderboard(service: PlayerService) -> None:
    a, b = await service.create_anonymous(), await service.create_anonymous()
    await settled(service, a.player_id, b.player_id, PROVISIONAL_RACES)
    assert await service.leaderboard("stalactites") == []
    await service.register(a.player_id, "alice", "correct horse")
    assert [e.player_id for e in await service.leaderboard("stalactites")] == [a.player_id]


async def test_around_me_is_a_page_of_the_board_with_me_in_its_middle(
    service: PlayerService,
) -> None:
    ids = [await registered(service, f"player{i}") for i in range(6)]
    for i in range(PROVISIONAL_RACES):  # player0 beats everyone, player1 all but player0, ...
        places = [(pid, rank + 1) for rank, pid in enumerate(ids)]
        await service.record_race(race(f"r{i}", *places, finished_at=i * DAY))
    board = await service.leaderboard("stalactites", limit=10)
    assert [e.player_id for e in board] == ids
    around = await service.leaderboard_around("stalactites", ids[3], limit=3)
    assert [(e.rank, e.player_id) for e in around] == [(3, ids[2]), (4, ids[3]), (5, ids[4])]
    top = await service.leaderboard_around("stalactites", ids[0], limit=3)
    assert [e.rank for e in top] == [1, 2, 3]
    page = await service.leaderboard("stalactites", limit=2, offset=4)
    assert [(e.rank, e.player_id) for e in page] == [(5, ids[4]), (6, ids[5])]
    guest = (await service.create_anonymous()).player_id
    assert await service.leaderboard_around("stalactites", guest) == []
    with pytest.raises(BadLimit):
        await service.leaderboard("stalactites", offset=-1)


def test_a_board_member_reads_back_as_the_line_it_shows() -> None:
    shown = [("p.00000000000000ab", "Ann | Bob", -12, 40), ("p.00000000000000aa", "x", 1003, 7)]
    members = [f"{pid}|{board_shown(name, rating, races)}" for pid, name, rating, races in shown]
    assert board_lines(members, 4) == [
        BoardLine(5, "p.00000000000000ab", "Ann | Bob", -12, 40),
        BoardLine(6, "p.00000000000000aa", "x", 1003, 7),
    ]
    old = board_lines([members[0], "p.00000000000000a9"], 0)  # a member of the id alone
    assert old == [
        BoardLine(1, "p.00000000000000ab", "Ann | Bob", -12, 40),
        BoardLine(2, "p.00000000000000a9", None, 0, 0),
    ]


async def test_a_players_line_moves_with_their_rating_and_name_and_stays_one_line(
    service: PlayerService,
) -> None:
    alice, bob = await registered(service, "alice"), await registered(service, "bob")
    await settled(service, alice, bob, PROVISIONAL_RACES)
    assert [e.player_id for e in await service.leaderboard("stalactites")] == [alice, bob]
    assert [e.rank for e in await service.leaderboard_around("stalactites", bob, 1)] == [2]
    await settled(service, bob, alice, PROVISIONAL_RACES + 1)  # bob overtakes her
    board = await service.leaderboard("stalactites")
    assert [(e.rank, e.player_id) for e in board] == [(1, bob), (2, alice)]
    assert board[0].rating > board[1].rating and board[0].races == 2 * PROVISIONAL_RACES + 1
    assert [e.rank for e in await service.leaderboard_around("stalactites", bob, 1)] == [1]
    await service.rename(alice, "Alice | the 2nd")  # a name with the lines' separator in it
    board = await service.leaderboard("stalactites")
    assert [(e.rank, e.name) for e in board][1] == (2, "Alice | the 2nd")
    assert board[1].races == 2 * PROVISIONAL_RACES + 1  # what it showed besides: the same
    around = await service.leaderboard_around("stalactites", alice, 1)
    assert [(e.rank, e.player_id, e.name) for e in around] == [(2, alice, "Alice | the 2nd")]
    assert await service.store.board_size("stalactites") == 2  # no line left behind


async def test_a_deleted_player_leaves_the_board_and_around_me_of_the_rest_is_right(
    service: PlayerService,
) -> None:
    ids = [await registered(service, f"player{i}") for i in range(4)]
    for i in range(PROVISIONAL_RACES):  # player0 first, then player1, ...
        places = [(pid, rank + 1) for rank, pid in enumerate(ids)]
        await service.record_race(race(f"d{i}", *places, finished_at=i * DAY))
    await service.delete(ids[1])
    board = await service.leaderboard("stalactites")
    assert [(e.rank, e.player_id) for e in board] == [(1, ids[0]), (2, ids[2]), (3, ids[3])]
    assert await service.store.board_size("stalactites") == 3
    assert await service.store.board_rank("stalactites", ids[1]) is None
    around = await service.leaderboard_around("stalactites", ids[3], limit=3)
    assert [(e.rank, e.player_id) for e in around] == [(2, ids[2]), (3, ids[3])]


async def test_a_board_stored_before_lines_showed_anything_is_read_and_mended(
    redis_prefix: str, clock: ManualClock
) -> None:
    """On Redis: members that were the player id alone (and JSON lines beside them) are read
    as lines told by the player's record, found by "around me", and taken off by the next
    change of the player's line."""
    stores = Stores("redis", [REDIS_URL], redis_prefix)
    service = stores.service(clock)
    try:
        alice, bob = await registered(service, "alice"), await registered(service, "bob")
        await settled(service, alice, bob, PROVISIONAL_RACES)
        new_board = await service.leaderboard("stalactites")
        client = redis.Redis.from_url(REDIS_URL, decode_responses=True)
        board, lines = (
            f"{redis_prefix}{{board:stalactites}}:{name}" for name in ("board", "lines")
        )
        scored = cast(list[tuple[str, float]], client.zrange(board, 0, -1, withscores=True))
        for member, score in scored:
            player_id = member.split("|")[0]
            client.zrem(board, member)
            client.zadd(board, {player_id: score})
            client.hset(lines, player_id, json.dumps({"name": "old", "rating": 1, "races": 1}))
        assert await service.leaderboard("stalactites") == new_board  # from the records
        assert [e.rank for e in await service.leaderboard_around("stalactites", bob, 1)] == [2]
        await service.rename(bob, "Bob Again")  # bob's line set anew, the old member gone
        assert await service.store.board_size("stalactites") == 2
        members = cast(list[str], client.zrange(board, 0, -1))  # decode_responses
        assert sorted(m.count("|") for m in members) == [0, 3]
        board_now = await service.leaderboard("stalactites")
        assert [(e.player_id, e.name) for e in board_now][1] == (bob, "Bob Again")
        assert [e.rank for e in await service.leaderboard_around("stalactites", bob, 1)] == [2]
        client.close()
    finally:
        await stores.close()


# Deleting an account


async def test_deleting_an_account_removes_identity_and_sessions_not_others_races(
    service: PlayerService, stores: Stores
) -> None:
    alice, bob = await registered(service, "alice"), await registered(service, "bob")
    session = await service.sign_in("alice", "correct horse")
    await settled(service, alice, bob, PROVISIONAL_RACES)
    await service.delete(alice)
    assert await service.resolve(session.token) is None
    with pytest.raises(PlayerNotFound):
        await service.profile(alice)
    with pytest.raises(PlayerNotFound):
        await service.profile("alice")
    with pytest.raises(BadCredentials):
        await service.sign_in("alice", "correct horse")
    assert [e.player_id for e in await service.leaderboard("stalactites")] == [bob]
    history = await service.history(bob, limit=100)
    assert len(history.races) == PROVISIONAL_RACES  # bob keeps his races
    assert await service.names_of([alice, bob]) == {
        alice: "deleted player",
        bob: (await service.profile(bob)).name,
    }
    assert not [key for key in stores.keys() if alice in key and ":outcome" not in key]
    newcomer = await service.create_anonymous()  # the username is free again
    await service.register(newcomer.player_id, "Alice", "another horse")
    with pytest.raises(PlayerNotFound):
        await service.delete(alice)


async def test_a_deleted_players_name_is_taken_out_of_their_races(
    service: PlayerService, stores: Stores
) -> None:
    alice, bob = await registered(service, "alice"), await registered(service, "bob")
    await service.rename(alice, "Alice Liddell")
    result = race("r1", (alice, 1), (bob, 2))
    seats = (replace(result.players[0], name="Alice Liddell"), result.players[1])
    await service.record_race(replace(result, players=seats))
    assert "Alice Liddell" in stores.stored_text()
    await service.delete(alice)
    assert "Alice Liddell" not in stores.stored_text()
    found = await service.store.outcome("r1")
    assert found is not None
    names = [seat.name for seat in RaceOutcome.from_json(found[0]).result.players]
    assert names == ["deleted player", "seat1"]
    assert [r.room_id for r in (await service.history(bob)).races] == ["r1"]


async def test_a_deletion_a_crash_left_halfway_shows_no_deleted_player_and_finishes_later(
    stores: Stores, service: PlayerService, clock: ManualClock
) -> None:
    alice, bob = await registered(service, "alice"), await registered(service, "bob")
    await settled(service, alice, bob, PROVISIONAL_RACES)
    dying = stores.service(clock, CrashingStore(service.store, "delete_player", 0))
    with pytest.raises(Crash):
        await dying.delete(alice)  # died between taking the lines off and the record
    board = await service.leaderboard("stalactites")
    assert [(e.rank, e.player_id) for e in board] == [(1, bob)]
    await settled(service, alice, bob, 1)  # a race recorded meanwhile puts no line back
    assert [e.player_id for e in await service.leaderboard("stalactites")] == [bob]
    await service.delete(alice)  # asked again, it finishes
    with pytest.raises(PlayerNotFound):
        await service.profile(alice)
    await service.store.delete_player(bob)  # then the process died: the username left
    newcomer = await service.create_anonymous()
    await service.register(newcomer.player_id, "BOB", "another horse")  # a gone owner's
    assert (await service.profile("bob")).player_id == newcomer.player_id


async def test_a_race_of_a_deleted_player_is_recorded_for_the_others(
    service: PlayerService,
) -> None:
    a, b = await service.create_anonymous(), await service.create_anonymous()
    await service.delete(a.player_id)
    await service.record_race(race("r1", (a.player_id, 1), (b.player_id, 2)))
    assert (await service.profile(b.player_id)).ratings["stalactites"].races == 1


async def test_every_error_has_a_code(service: PlayerService) -> None:
    with pytest.raises(PlayerError) as caught:
        await service.profile("p.0123456789abcdef")
    assert caught.value.code == "player_not_found"
    with pytest.raises(PlayerNotFound):
        await service.rename("p.0123456789abcdef", "Ann")
    with pytest.raises(PlayerNotFound):
        await service.register("p.0123456789abcdef", "ann", "correct horse")
    for who in ["{x}", "a b", "", "p.XYZ", "x" * 300]:  # no player, nor even looked up
        with pytest.raises(PlayerNotFound):
            await service.profile(who)
        with pytest.raises(PlayerNotFound):
            await service.history(who)
