"""Friends over real HTTP and websockets, on both stores: follows and their lists, presence
across tabs and hidden, blocking in each place it applies (silently), challenges accepted,
declined, cancelled and expired, one room however many tabs accept at once, notifications
and their read marks, recent opponents, and the daily deal's "beaten your time"."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from daily_kit import attempt, resign_attempt
from friends_kit import NotifyClient, follow, presence_of, registered, tab
from players_kit import anonymous, api, recorded
from server_kit import REDIS_URL, Client, InProcessServer, ManualClock
from stalactites.store import open_friends_store, open_queue_store
from stalactites.store.queue.base import QueueEntry, Widening

pytestmark = pytest.mark.usefixtures("close_clients")


async def _get(server: InProcessServer, path: str, who: dict[str, Any]) -> Any:
    status, body, _ = await api("GET", f"{server.url}{path}", None, who["token"])
    assert status == 200, body
    return body


async def _challenge(
    server: InProcessServer, sender: dict[str, Any], to: dict[str, Any], **more: Any
) -> tuple[int, Any]:
    body = {"player_id": to["player_id"], **more}
    status, answer, _ = await api("POST", f"{server.url}/api/challenges", body, sender["token"])
    return status, answer


async def _act(server: InProcessServer, who: dict[str, Any], challenge_id: str, act: str) -> Any:
    url = f"{server.url}/api/challenges/{challenge_id}/{act}"
    return (await api("POST", url, None, who["token"]))[:2]


async def _challenge_frame(client: NotifyClient, status: str) -> dict[str, Any]:
    """Read the tab's frames until a challenge with this status comes."""
    while True:
        frame = await client.recv(10)
        if frame["type"] == "challenge" and frame["challenge"]["status"] == status:
            return frame


# Following.


async def test_following_is_listed_both_ways_and_told_to_the_one_followed(
    any_server: InProcessServer,
) -> None:
    ann, bob = await registered(any_server.url, "ann"), await registered(any_server.url, "bob")
    bob_tab, _ = await tab(any_server.url, bob)
    await follow(any_server.url, ann, bob)
    note = (await bob_tab.expect("notification"))["note"]
    assert note["kind"] == "followed" and note["data"]["player_id"] == ann["player_id"]
    following = await _get(any_server, "/api/me/following", ann)
    assert [p["player_id"] for p in following["players"]] == [bob["player_id"]]
    followers = await _get(any_server, "/api/me/followers", bob)
    assert [p["player_id"] for p in followers["players"]] == [ann["player_id"]]
    assert followers["total"] == 1
    relation = await _get(any_server, f"/api/me/following/{bob['player_id']}", ann)
    assert relation == {"following": True, "blocked": False}
    await follow(any_server.url, ann, bob)  # again: nothing new
    inbox = await _get(any_server, "/api/me/notifications", bob)
    assert [n["kind"] for n in inbox["notifications"]] == ["followed"] and inbox["unread"] == 1
    url = f"{any_server.url}/api/me/following/{bob['player_id']}"
    assert (await api("DELETE", url, None, ann["token"]))[:2] == (200, {"following": False})
    assert (await _get(any_server, "/api/me/followers", bob))["players"] == []


async def test_following_refuses_what_it_cannot_do_and_changes_nothing(
    any_server: InProcessServer,
) -> None:
    ann, guest = await registered(any_server.url, "ann"), await anonymous(any_server.url)
    own = f"{any_server.url}/api/me/following/{ann['player_id']}"
    status, body, _ = await api("PUT", own, None, ann["token"])
    assert (status, body["code"]) == (409, "own_follow")
    nobody = f"{any_server.url}/api/me/following/p.0000000000000000"
    status, body, _ = await api("PUT", nobody, None, ann["token"])
    assert (status, body["code"]) == (404, "player_not_found")
    status, body, _ = await api("PUT", own, None, guest["token"])
    assert (status, body["code"]) == (409, "not_registered")
    guest_page = f"{any_server.url}/api/me/following/{guest['player_id']}"
    status, body, _ = await api("PUT", guest_page, None, ann["token"])
    assert (status, body["code"]) == (404, "player_not_found")
    assert (await api("PUT", own, None))[0] == 401
    assert (await _get(any_server, "/api/me/following", ann))["players"] == []


# Presence.


async def test_presence_lasts_while_a_tab_is_open_and_can_be_hidden(
    any_server: InProcessServer,
) -> None:
    ann, bob = await registered(any_server.url, "ann"), await registered(any_server.url, "bob")
    await follow(any_server.url, ann, bob)
    bob_one, _ = await tab(any_server.url, bob)
    ann_tab, welcome = await tab(any_server.url, ann)
    assert [(f["player_id"], f["status"]) for f in welcome["online"]] == [
        (bob["player_id"], "online")
    ]
    cat = await registered(any_server.url, "cat")
    cat_tab, _ = await tab(any_server.url, cat)
    await follow(any_server.url, ann, cat)  # online already: the new follower told at once
    assert (await presence_of(ann_tab, cat["player_id"], "online"))["name"] == cat["name"]
    await cat_tab.close()
    bob_two, _ = await tab(any_server.url, bob)
    await bob_one.close()  # another tab is open still: online
    url = f"{any_server.url}/api/me/presence"
    assert (await api("PUT", url, {"hidden": True}, bob["token"]))[:2] == (200, {"hidden": True})
    await presence_of(ann_tab, bob["player_id"], "offline")
    assert (await tab(any_server.url, ann))[1]["online"] == []
    await api("PUT", url, {"hidden": False}, bob["token"])
    await presence_of(ann_tab, bob["player_id"], "online")
    await bob_two.close()
    await presence_of(ann_tab, bob["player_id"], "offline")
    assert (await _get(any_server, "/api/me/presence", bob)) == {"hidden": False}


async def test_a_racer_is_racing_for_followers_and_a_private_room_is_never_linked(
    any_server: InProcessServer,
) -> None:
    ann, bob = await registered(any_server.url, "ann"), await registered(any_server.url, "bob")
    cat = await registered(any_server.url, "cat")
    await follow(any_server.url, ann, bob)
    ann_tab, _ = await tab(any_server.url, ann)
    bob_tab, _ = await tab(any_server.url, bob)
    await presence_of(ann_tab, bob["player_id"], "online")
    status, sent = await _challenge(any_server, cat, bob)
    assert status == 201, sent
    status, accepted = await _act(any_server, bob, sent["challenge"]["challenge_id"], "accept")
    assert status == 200, accepted
    racer = await Client.open(any_server.ws_url(accepted["room_id"]))
    await racer.hello(accepted["token"])
    friend = await presence_of(ann_tab, bob["player_id"], "racing")
    assert friend["room_id"] is None  # a challenge's room is private
    await racer.close()
    await bob_tab.close()


# Blocking.


async def test_blocking_is_silent_and_hides_presence_follows_and_challenges(
    any_server: InProcessServer,
) -> None:
    ann, bob = await registered(any_server.url, "ann"), await registered(any_server.url, "bob")
    await follow(any_server.url, bob, ann)
    told = (await _get(any_server, "/api/me/notifications", ann))["notifications"]
    block = f"{any_server.url}/api/me/blocked/{bob['player_id']}"
    assert (await api("PUT", block, None, ann["token"]))[:2] == (200, {"blocked": True})
    assert (await _get(any_server, "/api/me/followers", ann))["players"] == []
    blocked = await _get(any_server, "/api/me/blocked", ann)
    assert [p["player_id"] for p in blocked["players"]] == [bob["player_id"]]
    # Bob sees nothing change: he follows Ann still, and may follow again; she is told nothing.
    await follow(any_server.url, bob, ann)
    bob_following = await _get(any_server, "/api/me/following", bob)
    assert [p["player_id"] for p in bob_following["players"]] == [ann["player_id"]]
    assert (await _get(any_server, "/api/me/followers", ann))["players"] == []
    ann_tab, _ = await tab(any_server.url, ann)
    bob_tab, welcome = await tab(any_server.url, bob)
    assert welcome["online"] == []  # Ann is online, but not for Bob
    status, sent = await _challenge(any_server, bob, ann)
    assert status == 201  # (silent) but never shown to Ann
    assert (await _get(any_server, "/api/challenges", ann))["challenges"] == []
    challenge_id = sent["challenge"]["challenge_id"]
    status, body = await _act(any_server, ann, challenge_id, "accept")
    assert (status, body["code"]) == (404, "not_found")
    assert (await _get(any_server, "/api/me/notifications", ann))["notifications"] == told
    await ann_tab.close()
    await _act(any_server, bob, challenge_id, "cancel")
    # Unblocked: Bob's follow counts again.
    assert (await api("DELETE", block, None, ann["token"]))[:2] == (200, {"blocked": False})
    followers = await _get(any_server, "/api/me/followers", ann)
    assert [p["player_id"] for p in followers["players"]] == [bob["player_id"]]
    ann_back, _ = await tab(any_server.url, ann)
    await presence_of(bob_tab, ann["player_id"], "online")
    await ann_back.close()
    assert not any(f["type"] == "challenge" for f in ann_tab.frames)


@pytest.mark.parametrize("store", ["memory", "redis"])
async def test_two_players_one_of_whom_blocks_the_other_are_never_paired(
    store: str, redis_prefix: str
) -> None:
    queue = open_queue_store("memory://" if store == "memory" else REDIS_URL, redis_prefix)
    try:
        widening = Widening(10_000, 0, 0)
        for name in ("ann", "bob"):
            entry = QueueEntry(f"p.{name}", name, 1500, 1_000, name)
            assert (await queue.enqueue("stalactites:ones", entry, f"c-{name}", 60_000)) is not None
        await queue.block_pair("p.bob", "p.ann", True)
        assert await queue.pair("stalactites:ones", 2_000, widening, 2) == []
        await queue.block_pair("p.ann", "p.bob", False)
        [pairing] = await queue.pair("stalactites:ones", 3_000, widening, 2)
        assert {entry.player_id for entry in pairing.players} == {"p.ann", "p.bob"}
    finally:
        await queue.close()


# Challenges.


async def test_a_challenge_accepted_seats_both_players_in_one_race(
    any_server: InProcessServer,
) -> None:
    ann, bob = await registered(any_server.url, "ann"), await registered(any_server.url, "bob")
    ann_tab, _ = await tab(any_server.url, ann)
    bob_tab, _ = await tab(any_server.url, bob)
    status, sent = await _challenge(
        any_server, ann, bob, game="stalactites", step="ones", time_limit_s=300, rated=True
    )
    assert status == 201, sent
    shown = (await _challenge_frame(bob_tab, "open"))["challenge"]
    assert (shown["from_id"], shown["step"], shown["rated"]) == (ann["player_id"], "ones", True)
    status, again = await _challenge(any_server, ann, bob)
    assert (status, again["code"]) == (409, "already_open")
    status, accepted = await _act(any_server, bob, shown["challenge_id"], "accept")
    assert status == 200, accepted
    told = await _challenge_frame(ann_tab, "accepted")
    assert told["challenge"]["room_id"] == accepted["room_id"] and told["token"]
    ann_seat = await Client.open(any_server.ws_url(accepted["room_id"]))
    bob_seat = await Client.open(any_server.ws_url(accepted["room_id"]))
    welcome = await ann_seat.hello(told["token"])
    await bob_seat.hello(accepted["token"])
    assert welcome["room"]["rated"] and welcome["room"]["time_limit_s"] == 300
    await ann_seat.expect("started")  # ready once connected, the usual countdown
    for seat in (ann_seat, bob_seat):
        await seat.send(type="resign")
    await ann_seat.expect("results")
    await recorded(any_server.url, ann["player_id"])
    opponents = await _get(any_server, "/api/me/opponents", ann)
    assert [(p["player_id"], p["following"]) for p in opponents["players"]] == [
        (bob["player_id"], False)
    ]


async def test_a_challenge_accepted_from_two_tabs_at_once_makes_one_room(
    any_server: InProcessServer,
) -> None:
    ann, bob = await registered(any_server.url, "ann"), await registered(any_server.url, "bob")
    status, sent = await _challenge(any_server, ann, bob)
    assert status == 201
    challenge_id = sent["challenge"]["challenge_id"]
    answers = await asyncio.gather(*(_act(any_server, bob, challenge_id, "accept") for _ in "ab"))
    statuses = sorted(status for status, _ in answers)
    assert statuses == [200, 409], answers
    refused = next(body for status, body in answers if status == 409)
    assert refused["code"] == "not_open"
    room_id = next(body["room_id"] for status, body in answers if status == 200)
    status, room, _ = await api("GET", f"{any_server.url}/api/rooms/{room_id}")
    assert {p["player_id"] for p in room["players"]} == {ann["player_id"], bob["player_id"]}


async def test_challenges_are_declined_cancelled_and_limited(
    any_server: InProcessServer,
) -> None:
    ann, bob = await registered(any_server.url, "ann"), await registered(any_server.url, "bob")
    ann_tab, _ = await tab(any_server.url, ann)
    status, sent = await _challenge(any_server, ann, bob)
    challenge_id = sent["challenge"]["challenge_id"]
    status, body = await _act(any_server, ann, challenge_id, "decline")
    assert (status, body["code"]) == (404, "not_found")  # not Ann's to decline
    status, body = await _act(any_server, bob, challenge_id, "decline")
    assert (status, body["challenge"]["status"]) == (200, "declined")
    await _challenge_frame(ann_tab, "declined")
    status, body = await _act(any_server, bob, challenge_id, "accept")
    assert (status, body["code"]) == (409, "not_open")
    status, sent = await _challenge(any_server, ann, bob)  # the pair is free again
    assert status == 201
    status, body = await _act(any_server, ann, sent["challenge"]["challenge_id"], "cancel")
    assert (status, body["challenge"]["status"]) == (200, "cancelled")
    assert (await _challenge(any_server, ann, ann))[1]["code"] == "own_challenge"
    others = [await registered(any_server.url, "crowd") for _ in range(5)]
    for other in others:
        assert (await _challenge(any_server, ann, other))[0] == 201
    status, body = await _challenge(any_server, ann, bob)
    assert (status, body["code"]) == (409, "too_many")
    status, body = await _challenge(any_server, ann, bob, game="squadron", step="ones")
    assert (status, body["code"]) == (422, "bad_message")


async def test_an_open_challenge_expires_after_a_minute(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    ann, bob = await registered(any_server.url, "ann"), await registered(any_server.url, "bob")
    status, sent = await _challenge(any_server, ann, bob)
    challenge_id = sent["challenge"]["challenge_id"]
    assert [
        c["challenge_id"] for c in (await _get(any_server, "/api/challenges", bob))["challenges"]
    ] == [challenge_id]
    clock.advance(61)
    assert (await _get(any_server, "/api/challenges", bob))["challenges"] == []
    status, body = await _act(any_server, bob, challenge_id, "accept")
    assert (status, body["code"]) == (409, "not_open") and "expired" in body["message"]
    assert (await _challenge(any_server, ann, bob))[0] == 201  # a new one may be sent


async def test_a_rated_challenge_between_a_bot_and_a_human_is_refused(
    any_server: InProcessServer,
) -> None:
    ann, bot = await registered(any_server.url, "ann"), await registered(any_server.url, "bot")
    status, body, _ = await api("PATCH", f"{any_server.url}/api/me", {"bot": True}, bot["token"])
    assert status == 200, body
    status, body = await _challenge(any_server, ann, bot, rated=True)
    assert (status, body["code"]) == (409, "rated_pools")
    assert (await _challenge(any_server, ann, bot))[0] == 201  # unrated: a friendly race


# Notifications.


async def test_notifications_are_marked_read(any_server: InProcessServer) -> None:
    ann = await registered(any_server.url, "ann")
    for _ in range(2):
        await follow(any_server.url, await registered(any_server.url, "fan"), ann)
    inbox = await _get(any_server, "/api/me/notifications", ann)
    assert inbox["unread"] == 2
    newest = inbox["notifications"][0]["ms"]
    url = f"{any_server.url}/api/me/notifications/read"
    assert (await api("POST", url, {"up_to_ms": newest}, ann["token"]))[:2] == (200, {"unread": 0})
    assert all(
        n["read"] for n in (await _get(any_server, "/api/me/notifications", ann))["notifications"]
    )
    status, body, _ = await api("POST", url, {"up_to_ms": "soon"}, ann["token"])
    assert (status, body["code"]) == (422, "bad_message")


async def test_a_followed_player_who_beats_your_daily_time_is_told_to_you(
    any_server: InProcessServer,
) -> None:
    ann, bob = await registered(any_server.url, "ann"), await registered(any_server.url, "bob")
    await follow(any_server.url, ann, bob)
    ann_tab, _ = await tab(any_server.url, ann)
    made = await attempt(any_server.url, "stalactites", ann["token"])
    await resign_attempt(any_server.url, made)  # Ann's official attempt: lost
    await recorded(any_server.url, ann["player_id"])
    made = await attempt(any_server.url, "stalactites", bob["token"])
    client = await Client.open(any_server.ws_url(made["room_id"]))
    await client.hello(made["token"])
    await client.send(type="ready")
    await client.expect("started")
    solution = any_server.app.state.process.rooms.known_settings(made["room_id"]).solution
    for number, move in enumerate(next(iter(solution.values()))):
        assert (await client.move(f"m{number}", move))["type"] == "accepted"
    await client.expect("results")
    await client.close()
    note = (await ann_tab.expect("notification", timeout=20))["note"]
    assert note["kind"] == "daily_beaten" and note["data"]["player_id"] == bob["player_id"]
    assert "deal" not in note["data"]
    [kept] = (await _get(any_server, "/api/me/notifications", ann))["notifications"]
    assert kept["note_id"] == note["note_id"]


@pytest.mark.parametrize("store", ["memory", "redis"])
async def test_a_renewal_never_brings_back_a_tab_closed_meanwhile(
    store: str, redis_prefix: str
) -> None:
    friends = open_friends_store("memory://" if store == "memory" else REDIS_URL, redis_prefix)
    try:
        assert await friends.tab_on("p.ann", "tab1", 60_000, 1_000)  # came online
        assert await friends.tab_off("p.ann", "tab1", 2_000)  # went offline
        assert not await friends.tab_on("p.ann", "tab1", 70_000, 3_000, renew=True)
        assert await friends.presence(["p.ann"], 4_000) == [None]
        assert await friends.tab_on("p.ann", "tab2", 80_000, 5_000)  # a new tab: online again
    finally:
        await friends.close()
