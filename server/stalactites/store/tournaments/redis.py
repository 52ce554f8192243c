"""The Redis tournament store: tournaments shared by any number of server processes.

Keys (``P`` is the configured prefix, ``ID`` the tournament id; the hash tag
``{tournament:ID}`` keeps a tournament in one Redis Cluster slot):

* ``P{tournament:ID}:t`` hash: settings, admin (the admin token's hash),
  status, round, room, ends_at, break_ends_at, starts_at, seq, count, and per
  entrant ``entrant:PID`` (JSON) and ``seat:PID``; ``round:N`` (JSON) per round.
* ``P{tournament:ID}:events`` list: tournament events as JSON without seq.
* ``P{tournament:ID}:standings`` sorted set: player id scored by
  :func:`~stalactites.tournaments.points.score`; ``P{tournament:ID}:lines``
  hash: player id -> the standing line (JSON).
* channel ``P{tournament:ID}:bell``: the newest seq, published by the script that stored it.
* ``P tournaments:scheduled`` and ``P tournaments:running`` sorted sets: the tournament
  lists, outside any hash tag (see :mod:`.lists`).
* ``P{tournaments}:due`` sorted set and ``P{tournaments}:gen`` hash: the due
  index (see :mod:`.base`), tournament id -> when due / generation.
"""

from __future__ import annotations

import json
import logging
import uuid
from typing import Any

from ..redis.cluster import ClusterPipe
from ..redis.doorbells import Doorbells
from ..redis.resp import Address, Pipe, Script
from ..redis.scripts import lua
from ..rooms.base import Bell, EventBatch
from .base import (
    TOURNAMENT_LISTS,
    Claim,
    EnterResult,
    EntrantRow,
    NewEntrant,
    NewTournament,
    StandingRow,
    StartResult,
    TournamentRow,
    Transition,
)
from .lists import TournamentIndex

__all__ = ["RedisTournamentStore", "TournamentKeys"]

log = logging.getLogger(__name__)


class TournamentKeys:
    """The names of one tournament's keys."""

    __slots__ = ("bell", "events", "lines", "standings", "tag", "tournament")

    def __init__(self, prefix: str, tournament_id: str) -> None:
        self.tag = f"{prefix}{{tournament:{tournament_id}}}"
        self.tournament = f"{self.tag}:t"
        self.events = f"{self.tag}:events"
        self.standings = f"{self.tag}:standings"
        self.lines = f"{self.tag}:lines"
        self.bell = f"{self.tag}:bell"


class RedisTournamentStore:
    """See :class:`.base.TournamentStore` for the contract."""

    def __init__(self, url: str, prefix: str = "sr:", cluster: bool = False) -> None:
        """``cluster``: ``url`` is any node of a Redis Cluster (see :mod:`..redis.cluster`)."""
        # Everything, pings included: the small client of store/redis/resp.py (on a cluster, MOVED
        # and ASK followed).
        address, self._origin = Address.parse(url), uuid.uuid4().hex[:12]
        calls = address.named(f"stalactites-tournaments-{self._origin}")
        self._pipe: Pipe | ClusterPipe = ClusterPipe(calls) if cluster else Pipe(calls)
        self._prefix = prefix
        self._index = TournamentIndex(self._pipe, prefix)
        self._due = f"{prefix}{{tournaments}}:due"
        self._generations = f"{prefix}{{tournaments}}:gen"
        scripts = {
            "create": "create",
            "standings": "tournaments/standings",
            "enter": "tournaments/enter",
            "start": "tournaments/request_start",
            "transition": "tournaments/transition",
            "events": "tournaments/events",
            "poke": "tournaments/poke",
            "claim_due": "tournaments/claim_due",
            "claim": "tournaments/claim",
            "release": "tournaments/release",
        }
        self._scripts = {name: Script(self._pipe, lua(file)) for name, file in scripts.items()}
        # As the rooms' bells: one plain subscription, at any master of a cluster.
        bells = address.named(f"stalactites-tournament-bells-{self._origin}")
        others = self._pipe.nodes if isinstance(self._pipe, ClusterPipe) else None
        self._bells = Doorbells(bells, others, what="tournaments")

    @property
    def reconnects(self) -> int:
        """Doorbell subscriptions lost and made again (for /metrics)."""
        return self._bells.reconnects

    @property
    def origin(self) -> str:
        """This store's name among the processes (its Redis connections carry it)."""
        return self._origin

    def keys(self, tournament_id: str) -> TournamentKeys:
        return TournamentKeys(self._prefix, tournament_id)

    async def ping(self) -> bool:
        return await self._pipe.ping()

    async def close(self) -> None:
        await self._bells.close()
        await self._pipe.close()

    async def create(self, tournament: NewTournament, ttl_ms: int) -> None:
        keys = self.keys(tournament.tournament_id)
        fields: dict[Any, str | int] = {
            "settings": tournament.settings_json,
            "admin": tournament.admin_hash,
            "status": "scheduled",
            "round": 0,
            "seq": 0,
            "count": 0,
            "created": tournament.created_ms,
        }
        if tournament.starts_at is not None:
            fields["starts_at"] = tournament.starts_at
        pairs = [item for pair in fields.items() for item in pair]
        await self._scripts["create"](keys=[keys.tournament], args=[ttl_ms, *pairs])
        await self._index.created(tournament.tournament_id, tournament.created_ms)
        if tournament.starts_at is not None:
            await self.poke(tournament.tournament_id, tournament.starts_at)

    async def load(self, tournament_id: str) -> TournamentRow | None:
        key = self.keys(tournament_id).tournament
        flat = await self._pipe.call_at(key, "HGETALL", key)
        data = dict(zip(flat[::2], flat[1::2], strict=True))
        if not data:
            return None
        return _tournament_row(tournament_id, data)

    async def enter(
        self, tournament_id: str, entrant: NewEntrant, max_players: int, ttl_ms: int
    ) -> EnterResult:
        keys = self.keys(tournament_id)
        about = json.dumps({"name": entrant.name, "token_hash": entrant.token_hash})
        answer = await self._scripts["enter"](
            keys=[keys.tournament, keys.standings, keys.lines],
            args=[entrant.player_id, about, max_players, entrant.score, entrant.line_json, ttl_ms],
        )
        return EnterResult(answer)

    async def request_start(self, tournament_id: str, now_ms: int, ttl_ms: int) -> StartResult:
        keys = self.keys(tournament_id)
        answer, starts = await self._scripts["start"](keys=[keys.tournament], args=[now_ms, ttl_ms])
        result = StartResult(answer)
        if result is StartResult.STARTING:
            await self.poke(tournament_id, int(starts))
        return result

    async def transition(self, step: Transition, ttl_ms: int) -> bool:
        keys = self.keys(step.tournament_id)
        record_round, record = ("", "") if step.record is None else step.record
        rows = step.standings or []
        args: list[str | int] = [
            step.expected[0],
            step.expected[1],
            step.status,
            step.round,
            step.room_id or "",
            _blank(step.ends_at),
            _blank(step.break_ends_at),
            record_round,
            record,
            "" if step.standings is None else "1",
            len(rows),
            ttl_ms,
            keys.bell,
        ]
        for row in rows:
            args += [row.player_id, row.score, row.line_json]
        args += step.events
        answer = await self._scripts["transition"](
            keys=[keys.tournament, keys.events, keys.standings, keys.lines], args=args
        )
        if answer and step.status != step.expected[0]:
            starts = None
            if step.status in TOURNAMENT_LISTS["running"]:
                starts = _int(
                    await self._pipe.call_at(keys.tournament, "HGET", keys.tournament, "starts_at")
                )
            await self._index.moved(step.tournament_id, step.status, starts)
        return bool(answer)

    async def list_tournaments(self, name: str, limit: int, now_ms: int) -> list[TournamentRow]:
        return await self._index.page(name, limit, now_ms, self.load)

    async def standings(self, tournament_id: str) -> list[StandingRow]:
        keys = self.keys(tournament_id)
        flat = await self._scripts["standings"](keys=[keys.standings, keys.lines])
        return [StandingRow(flat[i], int(flat[i + 1]), flat[i + 2]) for i in range(0, len(flat), 3)]

    async def events_since(self, tournament_id: str, seq: int) -> EventBatch:
        keys = self.keys(tournament_id)
        last, items = await self._scripts["events"](keys=[keys.tournament, keys.events], args=[seq])
        return EventBatch(int(last), False, [(seq + 1 + i, text) for i, text in enumerate(items)])

    async def subscribe(self, tournament_id: str, bell: Bell) -> None:
        await self._bells.subscribe(self.keys(tournament_id).bell, bell)

    async def unsubscribe(self, tournament_id: str, bell: Bell) -> None:
        await self._bells.unsubscribe(self.keys(tournament_id).bell, bell)

    # The due index.

    async def poke(self, tournament_id: str, at_ms: int) -> None:
        await self._scripts["poke"](
            keys=[self._due, self._generations], args=[tournament_id, at_ms]
        )

    async def claim_due(self, now_ms: int, lease_ms: int, limit: int) -> list[Claim]:
        flat = await self._scripts["claim_due"](
            keys=[self._due, self._generations], args=[now_ms, lease_ms, limit]
        )
        return [Claim(flat[i], int(flat[i + 1])) for i in range(0, len(flat), 2)]

    async def claim(self, tournament_id: str, now_ms: int, lease_ms: int) -> Claim | None:
        generation = await self._scripts["claim"](
            keys=[self._due, self._generations], args=[tournament_id, now_ms, lease_ms]
        )
        return None if generation is None else Claim(tournament_id, int(generation))

    async def release(self, claim: Claim, next_ms: int | None, now_ms: int) -> None:
        await self._scripts["release"](
            keys=[self._due, self._generations],
            args=[
                claim.tournament_id,
                claim.generation,
                "" if next_ms is None else next_ms,
                now_ms,
            ],
        )

    async def next_due(self) -> int | None:
        first = await self._pipe.call_at(self._due, "ZRANGE", self._due, 0, 0, "WITHSCORES")
        return int(first[1]) if first else None


def _blank(value: int | None) -> int | str:
    return "" if value is None else value


def _int(value: str | None) -> int | None:
    return None if value is None else int(value)


def _tournament_row(tournament_id: str, data: dict[str, str]) -> TournamentRow:
    entrants, rounds = [], {}
    for name, value in data.items():
        if name.startswith("entrant:"):
            pid = name[len("entrant:") :]
            about = json.loads(value)
            seat = int(data[f"seat:{pid}"])
            entrants.append(EntrantRow(pid, about["name"], about["token_hash"], seat))
        elif name.startswith("round:"):
            rounds[int(name[len("round:") :])] = value
    entrants.sort(key=lambda row: row.seat)
    return TournamentRow(
        tournament_id=tournament_id,
        settings_json=data["settings"],
        admin_hash=data["admin"],
        status=data["status"],
        round=int(data["round"]),
        room_id=data.get("room"),
        ends_at=_int(data.get("ends_at")),
        break_ends_at=_int(data.get("break_ends_at")),
        starts_at=_int(data.get("starts_at")),
        seq=int(data["seq"]),
        entrants=entrants,
        rounds=[rounds[number] for number in sorted(rounds)],
    )
