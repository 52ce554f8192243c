"""One token on two sockets (issue 18, item 11): both work, neither is closed, and they stay in
step: each socket's accepted action reaches the player's other socket as ``synced`` with the
board, on one process and across two processes on Redis."""

from __future__ import annotations

from typing import Any

import pytest

from server_kit import Client, Spawn, new_room, seat, start_race, winning_line

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")


async def two_tabs(first: Any, second: Any) -> tuple[Client, Client]:
    """One seat's two sockets (on ``first`` and ``second``), racing a solo room."""
    room_id = await new_room(first.url, deal=DEAL, step="ones", seats=1, countdown_s=0)
    _, token = await seat(first.url, room_id, "Ada")
    one, two = await Client.open(first.ws_url(room_id)), await Client.open(second.ws_url(room_id))
    await one.hello(token)
    await two.hello(token)
    await start_race(one)
    await two.expect("started")
    return one, two


async def take_turns(one: Client, two: Client) -> None:
    """The tabs play the line in turns; after each move the other tab shows its board."""
    tabs = [one, two]
    for n, move in enumerate(LINE[:6]):
        mover, other = tabs[n % 2], tabs[(n + 1) % 2]
        accepted = await mover.move(f"m{n}", move)
        assert accepted["type"] == "accepted", accepted
        synced = await other.expect("synced")
        assert synced["state"] == accepted["state"]
        assert synced["legal"] == accepted["legal"] and synced["status"] == "playing"
    for tab in tabs:  # only the moves of the other tab came back as synced
        await tab.send(type="ping")
        await tab.expect("pong")
        assert len([f for f in tab.frames if f["type"] == "synced"]) == 3
        assert len([f for f in tab.frames if f["type"] == "accepted"]) == 3


async def test_two_sockets_of_one_seat_stay_in_step(any_server: Any) -> None:
    one, two = await two_tabs(any_server, any_server)
    await take_turns(one, two)


async def test_two_sockets_of_one_seat_on_two_processes_stay_in_step(
    spawn: Spawn,
) -> None:
    one, two = await two_tabs(spawn(), spawn())
    await take_turns(one, two)
