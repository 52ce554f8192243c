"""Provably fair deals, over real websockets and HTTP against a running server.

A room (and a tournament round) publishes a commitment to its deal from its creation,
SHA-256 of ``"{deal}|{salt}"``; the deal id and the salt are revealed in ``results``, the
room view once finished and the record.  Until then neither reaches any client: every
body and frame of every path is kept as raw text and searched for both once they are
revealed.  Racers never get whether a board can still be won (spectators do: it is judged
on their delayed boards).  Also here: a ``ready`` once the waiting is over gets a prompt
error.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest

from server_kit import Client, InProcessServer, ManualClock, http, new_room, player, seat
from stalactites.engine.records import deal_commitment
from tournament_kit import Watcher, enter, new_tournament, seat_in_round, start, view

pytestmark = pytest.mark.usefixtures("close_clients")

HEX64 = re.compile(r"[0-9a-f]{64}")
HEX32 = re.compile(r"[0-9a-f]{32}")
AnyClient = TypeVar("AnyClient", bound=Client)  # a room's socket, or a tournament's


def _request(method: str, url: str, body: Any) -> tuple[int, str]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@dataclass
class Seen:
    """Every body and frame a client was given, as raw text, until the reveal."""

    texts: list[tuple[str, str]] = field(default_factory=list)  # (where, raw text)

    async def http(self, method: str, url: str, body: Any = None) -> tuple[int, Any]:
        status, text = await asyncio.to_thread(_request, method, url, body)
        self.texts.append((f"{method} {url}", text))
        return status, json.loads(text)

    def tap(self, client: AnyClient, name: str) -> AnyClient:
        """Keep the raw text of every frame the client receives from now on."""
        ws_recv = client.ws.recv

        async def recv(*args: Any, **kwargs: Any) -> Any:
            raw = await ws_recv(*args, **kwargs)
            text = raw if isinstance(raw, str) else raw.decode(errors="replace")
            self.texts.append((f"socket of {name}", text))
            return raw

        client.ws.recv = recv  # type: ignore[method-assign]
        return client

    def before(self, *kinds: str) -> Seen:
        """What was seen, without the frames of these types (the reveal)."""
        marks = [f'"type":"{kind}"' for kind in kinds]
        return Seen([(where, t) for where, t in self.texts if not any(m in t for m in marks)])

    def besides(self, where: str) -> Seen:
        """What was seen anywhere but there (the spectators' sockets: everything racers see)."""
        return Seen([(place, text) for place, text in self.texts if place != where])

    def assert_hidden(self, *secrets: str) -> None:
        assert self.texts, "nothing was seen"
        for where, text in self.texts:
            for secret in secrets:
                assert secret not in text, f"{secret!r} leaked by {where}: {text[:300]}"


def test_the_commitment_is_sha256_of_deal_bar_salt_as_documented() -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "fairness.md").read_text("utf-8")
    salt = "000102030405060708090a0b0c0d0e0f"
    digest = deal_commitment("ms:4", salt)
    assert digest == hashlib.sha256(b"ms:4|" + salt.encode()).hexdigest()
    assert f"deal `ms:4` with salt `{salt}`" in doc and f"\n{digest}\n" in doc


def revealed(commitment: str, deal: str, salt: str) -> None:
    """The revealed deal and salt open the published commitment."""
    assert HEX64.fullmatch(commitment) and HEX32.fullmatch(salt)
    assert hashlib.sha256(f"{deal}|{salt}".encode()).hexdigest() == commitment
    assert deal_commitment(deal, salt) == commitment


async def tapped_player(seen: Seen, server: InProcessServer, room_id: str, name: str) -> Client:
    """Seat a player (the join answer seen) and say hello on a tapped socket."""
    status, joined = await seen.http(
        "POST", f"{server.url}/api/rooms/{room_id}/players", {"name": name}
    )
    assert status == 201, joined
    client = seen.tap(await Client.open(server.ws_url(room_id)), name)
    client.token = joined["token"]
    await client.hello(joined["token"])
    return client


async def tapped_spectator(seen: Seen, server: InProcessServer, room_id: str) -> Client:
    client = seen.tap(await Client.open(server.ws_url(room_id)), "a spectator")
    await client.send(type="hello", spectator=True)
    welcome = await client.recv()
    assert welcome["type"] == "welcome", welcome
    client.last_seq = welcome["seq"]
    return client


async def test_a_room_commits_to_its_deal_and_shows_it_to_no_one_before_the_results(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    seen, url = Seen(), any_server.url
    status, created = await seen.http("POST", f"{url}/api/rooms", {"seats": 2, "countdown_s": 5})
    assert status == 201, created
    room_id, commitment = created["room_id"], created["commitment"]
    assert HEX64.fullmatch(commitment) and (created["deal"], created["salt"]) == (None, None)
    watcher = await tapped_spectator(seen, any_server, room_id)
    ann = await tapped_player(seen, any_server, room_id, "Ann")
    assert ann.frames[0]["room"]["commitment"] == commitment  # in the welcome
    status, early = await seen.http("GET", f"{url}/api/rooms/{room_id}/record")
    assert (status, early["code"]) == (409, "not_started")
    status, early = await seen.http("GET", f"{url}/api/rooms/{room_id}/analysis")
    assert (status, early["code"]) == (409, "not_finished")
    bob = await tapped_player(seen, any_server, room_id, "Bob")
    await ann.send(type="move", id="early", move="t1-c1")
    assert (await ann.answer("early"))["code"] == "not_started"
    for client in (ann, bob):
        await client.send(type="ready")
    await ann.expect("countdown")
    status, counting = await seen.http("GET", f"{url}/api/rooms/{room_id}")
    assert (counting["status"], counting["commitment"], counting["deal"]) == (
        "countdown",
        commitment,
        None,
    )
    await seen.http("GET", f"{url}/api/rooms?status=waiting")
    clock.advance(5)
    started = [await client.expect("started") for client in (ann, bob, watcher)]
    assert all(frame["state"] == started[0]["state"] for frame in started)
    # The race: a move each, room views and lists while racing, a late spectator's welcome.
    for index, client in enumerate((ann, bob)):
        legal = client.frames[-1]["legal"]
        assert (await client.move(f"m{index}", legal[0]))["type"] == "accepted"
    status, racing = await seen.http("GET", f"{url}/api/rooms/{room_id}")
    assert (racing["status"], racing["deal"], racing["salt"]) == ("racing", None, None)
    await seen.http("GET", f"{url}/api/rooms?status=racing")
    status, racing = await seen.http("GET", f"{url}/api/rooms/{room_id}/analysis")
    assert (status, racing["code"]) == (409, "not_finished")  # it would be a hint
    late = await tapped_spectator(seen, any_server, room_id)
    for client in (ann, bob):
        await client.send(type="resign")
    results = [await client.expect("results") for client in (ann, bob, watcher, late)]
    deal, salt = results[0]["deal"], results[0]["salt"]
    assert all((r["deal"], r["salt"], r["commitment"]) == (deal, salt, commitment) for r in results)
    assert deal.startswith("sr:")  # a deal the server picked: no one knew it
    revealed(commitment, deal, salt)
    seen.before("results").assert_hidden(deal, salt, '"verdicts"', '"turning_point"')
    # Spectators were told whether each delayed board can still be won; racers never are.
    spectated = [text for where, text in seen.texts if where == "socket of a spectator"]
    assert any('"board_verdicts":{"' in text for text in spectated)
    seen.besides("socket of a spectator").assert_hidden(
        '"verdict"', '"board_verdict"', '"board_verdicts":{'
    )
    # Once over, the room view and the record reveal both.
    status, final = await http("GET", f"{url}/api/rooms/{room_id}")
    assert (final["deal"], final["salt"], final["commitment"]) == (deal, salt, commitment)
    status, record = await http("GET", f"{url}/api/rooms/{room_id}/record")
    assert (record["deal"], record["salt"], record["commitment"]) == (deal, salt, commitment)
    status, analysis = await http("GET", f"{url}/api/rooms/{room_id}/analysis")
    assert status == 200 and analysis["deal"] == deal
    assert {line["player_id"] for line in analysis["players"]} == {ann.you, bob.you}


async def test_a_room_dealt_by_its_creator_still_commits_under_a_fresh_salt(
    server: InProcessServer,
) -> None:
    first = await new_room(server.url, deal="ms:4", seats=1)
    second = await new_room(server.url, deal="ms:4", seats=1)
    views = [(await http("GET", f"{server.url}/api/rooms/{room}"))[1] for room in (first, second)]
    assert views[0]["commitment"] != views[1]["commitment"]  # the salt differs
    ann = await player(server, first, "Ann")
    await ann.send(type="ready")
    await ann.expect("started")
    await ann.send(type="resign")
    results = await ann.expect("results")
    assert results["deal"] == "ms:4"
    revealed(views[0]["commitment"], "ms:4", results["salt"])


async def test_the_deal_of_a_tournament_round_is_hidden_until_the_round_is_over(
    server: InProcessServer,
) -> None:
    seen, url = Seen(), server.url
    settings = {"name": "Cup", "step": "ones", "rounds": 1, "round_time_s": 60, "break_s": 0}
    status, created = await seen.http("POST", f"{url}/api/tournaments", settings)
    assert status == 201, created
    tournament_id, admin = created["tournament_id"], created["admin_token"]
    entries = f"{url}/api/tournaments/{tournament_id}/players"
    tokens = [(await seen.http("POST", entries, {"name": name}))[1]["token"] for name in "AB"]
    feed = seen.tap(await Watcher.open(url, tournament_id), "the tournament's spectator")
    await feed.hello(spectator=True)
    status, body, _ = await start(url, tournament_id, f"Bearer {admin}")
    assert status == 200, body
    begun = await feed.expect("round_started")
    room_id, commitment = begun["room_id"], begun["commitment"]
    assert HEX64.fullmatch(commitment)
    status, during = await seen.http("GET", f"{url}/api/tournaments/{tournament_id}")
    (record,) = during["round_results"]
    assert (record["commitment"], record["deal"], record["salt"]) == (commitment, None, None)
    status, room = await seen.http("GET", f"{url}/api/rooms/{room_id}")
    assert (room["commitment"], room["deal"]) == (commitment, None)
    watcher = await tapped_spectator(seen, server, room_id)
    entrants = []
    for token in tokens:
        entrant = seen.tap(await Client.open(server.ws_url(room_id), max_queue=None), "an entrant")
        await entrant.hello(token)
        entrants.append(entrant)
    await seen.http("GET", f"{url}/api/rooms/{room_id}/record")
    for client in entrants:
        await client.send(type="resign")
    finished = await feed.expect("round_finished")
    await watcher.expect("results")
    deal, salt = finished["deal"], finished["salt"]
    revealed(commitment, deal, salt)
    seen.before("round_finished", "results").assert_hidden(deal, salt)
    (after,) = (await view(url, tournament_id))["round_results"]
    assert (after["deal"], after["salt"], after["commitment"]) == (deal, salt, commitment)


# A ready once the waiting is over.


async def ready_answer(client: Client) -> dict[str, Any]:
    """Send ready; the answer, which must come before a ping's pong."""
    await client.send(type="ready")
    await client.send(type="ping")
    answer = await client.recv()
    while answer["type"] in ("progress", "player", "spectators", "presence"):
        answer = await client.recv()
    assert (await client.reply())["type"] == "pong"
    return answer


async def test_a_ready_during_the_countdown_or_the_race_is_refused_at_once(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    room_id = await new_room(any_server.url, deal="ms:4", seats=2, countdown_s=5)
    ann, bob = [await player(any_server, room_id, name) for name in ("Ann", "Bob")]
    for client in (ann, bob):
        await client.send(type="ready")
    await ann.expect("countdown")
    answer = await ready_answer(ann)
    assert (answer["type"], answer["code"]) == ("error", "not_waiting"), answer
    clock.advance(5)
    await ann.expect("started")
    before = await room_state(any_server, room_id)
    answer = await ready_answer(ann)
    assert (answer["type"], answer["code"]) == ("error", "not_waiting"), answer
    assert await room_state(any_server, room_id) == before


async def room_state(server: InProcessServer, room_id: str) -> dict[str, Any]:
    """The room as its API shows it, less the seats' presence: a test that moves the clock
    past the presence lease sees ``connected`` flip until the seats' next renewal."""
    room: dict[str, Any] = (await http("GET", f"{server.url}/api/rooms/{room_id}"))[1]
    for shown in room["players"]:
        del shown["connected"]
    return room


async def test_a_ready_from_a_player_who_resigned_is_already_finished(
    server: InProcessServer,
) -> None:
    room_id = await new_room(server.url, deal="ms:4", seats=2, countdown_s=0)
    ann, bob = [await player(server, room_id, name) for name in ("Ann", "Bob")]
    for client in (ann, bob):
        await client.send(type="ready")
    await ann.expect("started")
    await ann.send(type="resign")
    await ann.expect("finished", player_id=ann.you)
    answer = await ready_answer(ann)
    assert (answer["type"], answer["code"]) == ("error", "already_finished"), answer
    assert (await bob.move("b0", "t1-c1"))["type"] == "accepted"  # Bob races on


async def test_a_ready_in_a_tournament_round_is_not_waiting(server: InProcessServer) -> None:
    tournament_id, admin = await new_tournament(
        server.url, step="ones", rounds=1, round_time_s=60, break_s=0, deals=["ms:4"]
    )
    _, token = await enter(server.url, tournament_id, "Ann")
    assert (await start(server.url, tournament_id, f"Bearer {admin}"))[0] == 200
    room_id = (await view(server.url, tournament_id))["current_round"]["room_id"]
    ann = await seat_in_round(server, room_id, token)
    answer = await ready_answer(ann)
    assert (answer["type"], answer["code"]) == ("error", "not_waiting"), answer


async def test_a_second_ready_while_waiting_changes_nothing(server: InProcessServer) -> None:
    room_id = await new_room(server.url, deal="ms:4", seats=2)
    _, token = await seat(server.url, room_id, "Ann")
    ann = await Client.open(server.ws_url(room_id))
    await ann.hello(token)
    await ann.send(type="ready")
    assert (await ann.expect("player"))["player"]["ready"]
    view_before = (await http("GET", f"{server.url}/api/rooms/{room_id}"))[1]
    await ann.send(type="ready")
    await ann.send(type="ping")
    assert (await ann.reply())["type"] == "pong"
    assert (await http("GET", f"{server.url}/api/rooms/{room_id}"))[1] == view_before
