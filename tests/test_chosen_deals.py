"""Rooms whose creator chose the deal: marked in every view, list and record, and never rated."""

from __future__ import annotations

from typing import Any

import pytest

from server_kit import InProcessServer, http, new_room, player, resign, start_race
from stalactites.rooms.rating import may_be_rated
from stalactites.rooms.settings import RoomSettings

pytestmark = pytest.mark.usefixtures("close_clients")


async def test_a_chosen_deal_is_marked_in_the_view_the_list_and_the_record(
    any_server: InProcessServer,
) -> None:
    base = any_server.url
    chosen = await new_room(base, deal="ms:7", seats=1, countdown_s=0)
    dealt = await new_room(base, seats=1, countdown_s=0)
    for room_id, marked in ((chosen, True), (dealt, False)):
        status, view = await http("GET", f"{base}/api/rooms/{room_id}")
        assert status == 200 and view["deal_chosen"] is marked
        assert view["certified"] is not marked
    status, page = await http("GET", f"{base}/api/rooms?status=waiting")
    assert status == 200
    marks = {room["room_id"]: room["deal_chosen"] for room in page["rooms"]}
    assert marks[chosen] is True and marks[dealt] is False
    racer = await player(any_server, chosen, "Ada")
    await start_race(racer)
    await resign(racer)
    await racer.expect("results")
    status, record = await http("GET", f"{base}/api/rooms/{chosen}/record")
    assert status == 200 and record["deal_chosen"] is True


def test_a_chosen_deal_is_never_rated_whatever_else_it_says() -> None:
    base: dict[str, Any] = dict(
        game="stalactites", step="ones", deal="ms:7", seats=2, time_limit_s=60
    )
    rest: dict[str, Any] = dict(undo=True, countdown_s=0, solution=None)
    assert not may_be_rated(RoomSettings(**base, **rest, certified=False))
    assert may_be_rated(RoomSettings(**base, **rest, certified=True))
