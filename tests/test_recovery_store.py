"""Recovery codes and the reports a player made, in the players' service and store, on the
in-memory store, a real Redis and a Redis Cluster: codes stored only as argon2id hashes, a
code used once even by two uses at once, a new set replacing the old, the reports made
kept for the reporter (expiring with an expiring player), and both gone with the account."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import redis

from players_kit import CHEAP, InterleavingStore, Stores
from server_kit import REDIS_URL, ManualClock
from stalactites.players import (
    BadCredentials,
    BadRecoveryCode,
    NotRegistered,
    PlayerService,
    WrongRecoveryCode,
)
from stalactites.players.export import remember_report
from stalactites.players.recovery import code_name, new_codes, parse_code, shown_code
from stalactites.players.service import DAY_MS


@pytest.fixture(params=["memory", "redis", "cluster"])
async def stores(request: pytest.FixtureRequest, redis_prefix: str) -> AsyncIterator[Stores]:
    urls = [REDIS_URL]
    if request.param == "cluster":
        cluster = request.getfixturevalue("cluster")
        urls = [f"redis://127.0.0.1:{port}/0" for port in cluster.ports]
    made = Stores(request.param, urls, redis_prefix)
    yield made
    await made.close()


@pytest.fixture
def service(stores: Stores) -> PlayerService:
    return stores.service(ManualClock())


async def account(service: PlayerService, username: str) -> tuple[str, list[str]]:
    new = await service.create_anonymous()
    codes = new_codes()
    await service.register(new.player_id, username, "correct horse", codes)
    return new.player_id, codes


def test_a_code_reads_back_as_people_type_it() -> None:
    code = "K7QF-XM3P-9TW2-H4RD"
    assert parse_code(code) == "K7QFXM3P9TW2H4RD" == parse_code(" k7qf xm3p 9tw2 h4rd ")
    assert parse_code("10AB-CDEF-GHJK-MNPQ") == parse_code("lOab cdef ghjk mnpq")
    assert shown_code(parse_code(code)) == code and code_name(code) == "K7QF"
    for bad in ("K7QF-XM3P-9TW2", "K7QF-XM3P-9TW2-H4RU", "", None, 7, "K" * 100):
        with pytest.raises(BadRecoveryCode):
            parse_code(bad)


async def test_codes_are_stored_only_as_argon2_hashes(
    service: PlayerService, stores: Stores
) -> None:
    player_id, codes = await account(service, "alice")
    stored = stores.stored_text()
    for code in codes:
        assert code not in stored and parse_code(code) not in stored
        assert code_name(code) in stored  # a code's name is no secret
    assert stored.count("$argon2id$") == 11  # the password's and the ten codes'
    assert await service.recovery.left(player_id) == 10


async def test_a_code_sets_the_password_ends_every_session_and_is_used_once(
    service: PlayerService,
) -> None:
    player_id, codes = await account(service, "alice")
    first = await service.sign_in("alice", "correct horse")
    recovered = await service.recover("ALICE", codes[0], "a new password")
    assert recovered.player_id == player_id
    assert await service.resolve(first.token) is None
    assert await service.resolve(recovered.token) is not None
    assert await service.store.session_count(player_id) == 1
    with pytest.raises(BadCredentials):
        await service.sign_in("alice", "correct horse")
    await service.sign_in("alice", "a new password")
    with pytest.raises(WrongRecoveryCode):
        await service.recover("alice", codes[0], "another password")
    assert await service.recovery.left(player_id) == 9


async def test_two_uses_of_one_code_at_once_one_succeeds(stores: Stores) -> None:
    # Every store call lets the other use run: both verify the code before either uses it.
    service = PlayerService(InterleavingStore(stores.open()), ManualClock(), CHEAP)
    _, codes = await account(service, "alice")
    answers = await asyncio.gather(
        service.recover("alice", codes[0], "first password"),
        service.recover("alice", codes[0], "second password"),
        return_exceptions=True,
    )
    assert sorted(type(answer).__name__ for answer in answers) == [
        "NewSession",
        "WrongRecoveryCode",
    ]


async def test_a_new_set_replaces_the_old_one(service: PlayerService) -> None:
    player_id, old = await account(service, "alice")
    record = await service.store.load_player(player_id)
    assert record is not None
    with pytest.raises(BadCredentials):
        await service.recovery.renew(record, "wrong password")
    new = await service.recovery.renew(record, "correct horse")
    assert len(new) == 10 and not set(new) & set(old)
    with pytest.raises(WrongRecoveryCode):
        await service.recover("alice", old[0], "a new password")
    await service.recover("alice", new[0], "a new password")
    anonymous = await service.create_anonymous()
    guest = await service.store.load_player(anonymous.player_id)
    assert guest is not None
    with pytest.raises(NotRegistered):
        await service.recovery.renew(guest, "correct horse")
    assert not await service.store.set_recovery_codes(anonymous.player_id, {"ABCD": "x"})


async def test_codes_and_reports_made_go_with_the_account(
    service: PlayerService, stores: Stores
) -> None:
    alice, codes = await account(service, "alice")
    bob, _ = await account(service, "bob")
    report = {"report_id": "r1", "player_id": bob, "reason": "abuse", "text": "Rude words"}
    await remember_report(service.store, alice, report, 1_800_000_000_000)
    assert [text for text in await service.store.reports_made(alice) if "Rude words" in text]
    await service.delete(alice)
    assert "Rude words" not in stores.stored_text()
    assert await service.store.recovery_codes_left(alice) == 0
    assert await service.store.reports_made(alice) == []
    assert not [key for key in stores.keys() if alice in key and ":outcome" not in key]
    with pytest.raises(WrongRecoveryCode):
        await service.recover("alice", codes[0], "a new password")


async def test_an_anonymous_reporters_reports_expire_with_it_until_it_is_kept(
    redis_prefix: str,
) -> None:
    stores, clock = Stores("redis", [REDIS_URL], redis_prefix), ManualClock()
    service = stores.service(clock)
    try:
        made = await service.create_anonymous()
        await remember_report(service.store, made.player_id, {"report_id": "r1"}, 1)
        tag = f"{redis_prefix}{{player:{made.player_id}}}"
        client = redis.Redis.from_url(REDIS_URL)
        try:
            reports, player = client.pttl(f"{tag}:reports"), client.pttl(f"{tag}:player")
            assert reports > 0 and abs(reports - player) < 1000  # the player's expiry
            client.pexpire(f"{tag}:reports", DAY_MS)  # as if unused for 29 days
            clock.advance(2 * 3600)
            assert await service.resolve(made.token) is not None  # used: its expiry moves on
            assert client.pttl(f"{tag}:reports") > 29 * DAY_MS
            await service.register(made.player_id, "kept_one", "correct horse")
            assert client.pttl(f"{tag}:reports") == -1 and client.pttl(f"{tag}:player") == -1
        finally:
            client.close()
    finally:
        await stores.close()
