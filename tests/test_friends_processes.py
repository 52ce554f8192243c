"""Friends across two server processes on one real Redis: presence seen from the other
process and gone when the last tab closes, or within a lease (and a sweep) of the process
holding it being killed; a challenge sent on one process and accepted on the other from two
tabs at once lands both players in one room."""

from __future__ import annotations

import asyncio
import time

import pytest

from friends_kit import follow, presence_of, registered, tab
from players_kit import api
from server_kit import Spawn

pytestmark = pytest.mark.usefixtures("close_clients")

LEASE_S = 2.0
SWEEP_S = 5.0  # stalactites.live.tabs.SWEEP_S


async def test_presence_crosses_processes_and_ends_with_the_last_tab_or_a_killed_process(
    spawn: Spawn,
) -> None:
    env = {"STALACTITES_FRIENDS_LEASE_S": str(LEASE_S)}
    one, two = spawn(**env), spawn(**env)
    ann, bob = await registered(one.url, "ann"), await registered(two.url, "bob")
    await follow(one.url, ann, bob)
    ann_tab, _ = await tab(one.url, ann)
    bob_tab, _ = await tab(two.url, bob)
    await presence_of(ann_tab, bob["player_id"], "online")
    await bob_tab.close()
    await presence_of(ann_tab, bob["player_id"], "offline")
    doomed = spawn(**env)
    await tab(doomed.url, bob)
    await presence_of(ann_tab, bob["player_id"], "online")
    doomed.kill()  # its tab never closes: its lease runs out
    killed = time.monotonic()
    await presence_of(ann_tab, bob["player_id"], "offline")
    assert time.monotonic() - killed < LEASE_S + SWEEP_S + 3


async def test_a_challenge_sent_on_one_process_is_accepted_on_the_other_once(
    spawn: Spawn,
) -> None:
    one, two = spawn(), spawn()
    ann, bob = await registered(one.url, "ann"), await registered(two.url, "bob")
    ann_tab, _ = await tab(one.url, ann)
    bob_tabs = [(await tab(two.url, bob))[0], (await tab(one.url, bob))[0]]
    body = {"player_id": bob["player_id"]}
    status, sent, _ = await api("POST", f"{one.url}/api/challenges", body, ann["token"])
    assert status == 201, sent
    challenge_id = sent["challenge"]["challenge_id"]
    for bob_tab in bob_tabs:  # every tab of Bob's, on either process, is told
        assert (await bob_tab.expect("challenge"))["challenge"]["challenge_id"] == challenge_id
    answers = await asyncio.gather(
        *(
            api("POST", f"{server.url}/api/challenges/{challenge_id}/accept", None, bob["token"])
            for server in (one, two)
        )
    )
    assert sorted(status for status, _, _ in answers) == [200, 409], answers
    room_id = next(body["room_id"] for status, body, _ in answers if status == 200)
    accepted = await ann_tab.expect("challenge", timeout=10)
    while accepted["challenge"]["status"] != "accepted":
        accepted = await ann_tab.expect("challenge", timeout=10)
    assert accepted["challenge"]["room_id"] == room_id and accepted["token"]
    for bob_tab in bob_tabs:
        frame = await bob_tab.expect("challenge")
        while frame["challenge"]["status"] != "accepted":
            frame = await bob_tab.expect("challenge")
        assert frame["challenge"]["room_id"] == room_id
    status, room, _ = await api("GET", f"{two.url}/api/rooms/{room_id}")
    assert {p["player_id"] for p in room["players"]} == {ann["player_id"], bob["player_id"]}
