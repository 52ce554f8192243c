"""The players' store in Redis, one node or a Redis Cluster (see :mod:`.base`).

Keys (``P`` the configured prefix; each hash tag ``{...}`` keeps what one script touches in
one Redis Cluster slot):

* ``P{player:ID}:player`` hash: ``name``, ``created``, ``renamed``, ``username``,
  ``password`` (argon2id PHC string), ``board`` (the leaderboard version), per game
  ``rating:GAME`` = ``mu|sigma|races``, per game and step ``stats:GAME:STEP`` =
  ``races|wins|streak|best_streak|best_ms|median_ms`` (-1: none; kept up to date by
  ``apply.lua``, so that a profile is one ``HGETALL``); an anonymous player not kept yet
  (see :mod:`.base`): ``expires`` (unix ms) and ``claim`` (the skeleton its name is
  claimed under), and the hash, its sessions and that claim expire then (``PEXPIRE``,
  moved on by ``touch.lua`` and ``claim_ttl.lua``; ``PERSIST`` once kept, by ``apply.lua``
  or ``register.lua`` and then ``claim_ttl.lua``).
* ``P{player:ID}:sessions`` hash: SHA-256 of a session token -> its expiry (unix ms).
* ``P{player:ID}:recovery`` hash: an account's unused recovery codes, a code's name (its
  first group) -> its argon2id hash (:mod:`stalactites.players.recovery`).
* ``P{player:ID}:reports`` sorted set: the reports the player made (JSON) by when (unix ms),
  the newest ``REPORTS_MADE_KEPT``; it expires with an expiring player.
* ``P{player:ID}:races`` sorted set, all scored 0: the history's marks
  ``FINISHED_AT(13 digits):ROOM_ID``, so that lexical order is time order and a cursor is exact.
* ``P{player:ID}:history`` hash: room id -> the entry ``GAME|PLACE|PLAYERS|STATUS|
  ELAPSED_MS|CARDS|STEP|ORDINAL_BEFORE|ORDINAL_AFTER|DEAL`` (ordinals μ - 3σ to 6 digits,
  empty unrated; see :func:`stalactites.players.races.history_entry`): under 64 bytes, so
  that Redis keeps the hash of a player of up to 128 races in its compact encoding.
* ``P{player:ID}:wins:GAME:STEP`` sorted set: room id scored by the winning time (the median).
* ``P{username:KEY}`` string: the owner of a casefolded username.
* ``P{name:KEY}`` string: a name given, by its skeleton, generated or chosen (never given
  twice): the player id that claimed it (``1``: claimed before claims named their owner).
* ``P{room:ROOM_ID}:outcome`` string: ``0`` (``1`` once recorded everywhere) then the
  outcome JSON, the first writer's (a string, not a hash of the two: it takes less of Redis's
  memory; a hash ``outcome``, ``done`` stored before is still read and kept by the same
  scripts); in the room's own slot, beside the rooms store's
  keys of that room (no name of theirs), but kept for good: histories point at it.
* ``P{races}:pending`` hash: room id -> result JSON, for races being recorded.
* ``P{board:GAME}:board`` sorted set: each player's line ``PLAYER_ID|RATING|RACES|NAME``
  (the player id, then what a page shows of them: :func:`~.base.board_shown`)
  scored by μ - 3σ, so that a page is one ``ZREVRANGE`` (a member of a line stored before
  lines showed anything is the player id alone: read as a line of unknown name);
  ``P{board:GAME}:lines`` hash: player id -> what its line shows now (its member without
  the player id), so that a change finds the member to take off; ``P{board:GAME}:versions``
  hash: player id -> the version of the change that set its line (see
  :mod:`stalactites.players.recording` for how the boards are kept right).

Everything goes through the small client of :mod:`..redis.resp` (on a cluster, its
:class:`~..redis.cluster.ClusterPipe`); each change is one command or one Lua script of
``lua/players/*.lua`` on one slot.  Nothing here expires but sessions (by their stored expiry)
and anonymous players not kept yet (with the claims of their names), and nothing is deleted
but by :meth:`RedisPlayerStore.delete_player`.  Keeping a player is two steps on two slots
(the player's, then its name's claim): a process dying between them leaves the claim to
expire, after which the name may be given again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from ..redis.cluster import ClusterPipe
from ..redis.resp import Address, Pipe, Script
from ..redis.scripts import lua
from .base import (
    REPORTS_MADE_KEPT,
    Applied,
    BoardLine,
    Claim,
    PlayerRace,
    PlayerRecord,
    Rating,
    Stats,
    board_lines,
    history_mark,
)

__all__ = ["PlayerKeys", "RedisPlayerStore"]

_SCRIPTS = (
    "add_report",
    "add_session",
    "apply",
    "board",
    "board_rank",
    "claim_name",
    "claim_outcome",
    "claim_ttl",
    "claim_username",
    "refund",
    "create",
    "delete",
    "finish",
    "history",
    "outcome",
    "register",
    "release_claim",
    "recovery_codes",
    "rename",
    "replace_outcome",
    "touch",
    "use_recovery",
)


class PlayerKeys:
    """The names of one player's keys."""

    __slots__ = ("history", "player", "races", "recovery", "reports", "sessions", "tag")

    def __init__(self, prefix: str, player_id: str) -> None:
        self.tag = f"{prefix}{{player:{player_id}}}"
        self.player = f"{self.tag}:player"
        self.sessions = f"{self.tag}:sessions"
        self.races = f"{self.tag}:races"
        self.history = f"{self.tag}:history"
        self.recovery = f"{self.tag}:recovery"
        self.reports = f"{self.tag}:reports"

    def wins(self, stats_key: str) -> str:
        return f"{self.tag}:wins:{stats_key}"


class RedisPlayerStore:
    def __init__(self, url: str, prefix: str = "sr:", cluster: bool = False) -> None:
        address = Address.parse(url).named("stalactites-players")
        self._pipe: Pipe | ClusterPipe = ClusterPipe(address) if cluster else Pipe(address)
        self._cluster = cluster
        self._prefix = prefix
        self._run = {name: Script(self._pipe, lua(f"players/{name}")) for name in _SCRIPTS}
        self._pending = f"{prefix}{{races}}:pending"

    def keys(self, player_id: str) -> PlayerKeys:
        return PlayerKeys(self._prefix, player_id)

    def _call(self, key: str, *args: Any) -> Any:
        return self._pipe.call_at(key, *args)

    def _outcome_key(self, room_id: str) -> str:
        return f"{self._prefix}{{room:{room_id}}}:outcome"  # in the room's own slot

    def _board_keys(self, game: str) -> list[str]:
        tag = f"{self._prefix}{{board:{game}}}"
        return [f"{tag}:board", f"{tag}:versions", f"{tag}:lines"]

    # identity

    async def create_player(self, record: PlayerRecord, name_key: str = "") -> None:
        expires = record.expires_ms
        ttl = "" if expires is None else max(1, expires - record.created_ms)
        await self._run["create"](
            [self.keys(record.player_id).player],
            [record.name, record.created_ms, "" if expires is None else expires, ttl, name_key],
        )

    async def touch_player(self, player_id: str, now_ms: int, idle_ms: int) -> None:
        keys = self.keys(player_id)
        claim = await self._run["touch"](
            [keys.player, keys.sessions, keys.reports], [now_ms + idle_ms, idle_ms]
        )
        if claim:
            await self._claim_ttl(str(claim), player_id, idle_ms)

    async def keep_name(self, key: str, player_id: str) -> None:
        await self._claim_ttl(key, player_id, None)

    async def _claim_ttl(self, key: str, player_id: str, idle_ms: int | None) -> None:
        """The player's claim of the name: kept for good (None), or expiring later."""
        name = f"{self._prefix}{{name:{key}}}"
        await self._run["claim_ttl"]([name], [player_id, "" if idle_ms is None else idle_ms])

    async def players_exist(self, player_ids: list[str]) -> list[bool]:
        keys = [f"{self._prefix}{{player:{pid}}}:player" for pid in player_ids]  # (a page's)
        if keys and not self._cluster:  # one command when all exist (the keys span slots)
            if int(await self._call(keys[0], "EXISTS", *keys)) == len(keys):
                return [True] * len(keys)
        found = await asyncio.gather(*(self._call(key, "EXISTS", key) for key in keys))
        return [bool(one) for one in found]

    async def load_player(self, player_id: str) -> PlayerRecord | None:
        keys = self.keys(player_id)
        flat = await self._call(keys.player, "HGETALL", keys.player)
        if not flat:
            return None
        data = dict(zip(flat[::2], flat[1::2], strict=True))
        return PlayerRecord(
            player_id=player_id,
            name=data["name"],
            created_ms=int(data["created"]),
            renamed_ms=int(data["renamed"]) if "renamed" in data else None,
            username=data.get("username"),
            password_hash=data.get("password"),
            board_version=int(data.get("board", 0)),
            ratings={f[7:]: _rating(value) for f, value in data.items() if f.startswith("rating:")},
            stats={f[6:]: _stats(value) for f, value in data.items() if f.startswith("stats:")},
            expires_ms=int(data["expires"]) if "expires" in data else None,
        )

    async def claim_name(self, key: str, player_id: str, idle_ms: int | None = None) -> Claim:
        ttl = "" if idle_ms is None else idle_ms
        answer = await self._run["claim_name"]([f"{self._prefix}{{name:{key}}}"], [player_id, ttl])
        return (Claim.TAKEN, Claim.THEIRS, Claim.NEW)[int(answer)]

    async def release_name(self, key: str, player_id: str) -> None:
        await self._run["release_claim"]([f"{self._prefix}{{name:{key}}}"], [player_id])

    async def rename(
        self, player_id: str, name: str, now_ms: int, every_ms: int, name_key: str = ""
    ) -> int | None:
        answer = await self._run["rename"](
            [self.keys(player_id).player], [name, now_ms, every_ms, name_key]
        )
        if answer == "no_player":
            raise KeyError(player_id)
        return None if answer == "renamed" else int(answer)

    def _username(self, key: str) -> str:
        return f"{self._prefix}{{username:{key}}}"

    async def find_username(self, key: str) -> str | None:
        owner: str | None = await self._call(self._username(key), "GET", self._username(key))
        return owner

    async def claim_username(self, key: str, player_id: str, stale: str | None) -> str:
        owner = await self._run["claim_username"]([self._username(key)], [player_id, stale or ""])
        return str(owner)

    async def release_username(self, key: str, player_id: str) -> None:
        await self._run["release_claim"]([self._username(key)], [player_id])

    async def register(
        self,
        player_id: str,
        username: str,
        password_hash: str,
        codes: Mapping[str, str] | None = None,
    ) -> str:
        keys = self.keys(player_id)
        answer, claim = await self._run["register"](
            [keys.player, keys.sessions, keys.recovery, keys.reports],
            [username, password_hash, *_pairs(codes or {})],
        )
        if claim:  # kept for good: its name's claim too
            await self.keep_name(str(claim), player_id)
        return str(answer)

    async def set_password_hash(self, player_id: str, password_hash: str) -> None:
        key = self.keys(player_id).player
        if await self._call(key, "EXISTS", key):
            await self._call(key, "HSET", key, "password", password_hash)

    async def set_recovery_codes(self, player_id: str, codes: Mapping[str, str]) -> bool:
        keys = self.keys(player_id)
        done = await self._run["recovery_codes"]([keys.player, keys.recovery], _pairs(codes))
        return bool(done)

    async def recovery_code(self, player_id: str, name: str) -> str | None:
        key = self.keys(player_id).recovery
        found: str | None = await self._call(key, "HGET", key, name)
        return found

    async def use_recovery_code(
        self, player_id: str, name: str, code_hash: str, password_hash: str
    ) -> bool:
        keys = self.keys(player_id)
        used = await self._run["use_recovery"](
            [keys.player, keys.sessions, keys.recovery], [name, code_hash, password_hash]
        )
        return bool(used)

    async def recovery_codes_left(self, player_id: str) -> int:
        key = self.keys(player_id).recovery
        return int(await self._call(key, "HLEN", key))

    async def add_report_made(self, player_id: str, report: str, at_ms: int) -> None:
        keys = self.keys(player_id)
        await self._run["add_report"](
            [keys.player, keys.reports], [report, at_ms, REPORTS_MADE_KEPT]
        )

    async def reports_made(self, player_id: str) -> list[str]:
        key = self.keys(player_id).reports
        return list(await self._call(key, "ZRANGE", key, 0, -1))

    async def delete_player(self, player_id: str) -> PlayerRecord | None:
        record = await self.load_player(player_id)
        if record is None:
            return None
        keys = self.keys(player_id)
        wins = [keys.wins(key) for key in record.stats]
        mine = [keys.sessions, keys.races, keys.history, keys.recovery, keys.reports]
        every = [keys.player, *mine, *wins]
        flat = await self._run["delete"](every, [])
        return record if flat else None

    # sessions

    async def add_session(self, player_id: str, digest: str, expires_ms: int, now_ms: int) -> bool:
        keys = self.keys(player_id)
        added = await self._run["add_session"](
            [keys.player, keys.sessions], [digest, expires_ms, now_ms]
        )
        return bool(added)

    async def session_alive(self, player_id: str, digest: str, now_ms: int) -> bool:
        key = self.keys(player_id).sessions
        expires = await self._call(key, "HGET", key, digest)
        return expires is not None and int(expires) > now_ms

    async def revoke_session(self, player_id: str, digest: str) -> None:
        key = self.keys(player_id).sessions
        await self._call(key, "HDEL", key, digest)

    async def revoke_sessions(self, player_id: str) -> None:
        key = self.keys(player_id).sessions
        await self._call(key, "DEL", key)

    async def session_count(self, player_id: str) -> int:
        key = self.keys(player_id).sessions
        return int(await self._call(key, "HLEN", key))

    # races

    async def add_pending(self, room_id: str, result_json: str) -> None:
        await self._call(self._pending, "HSETNX", self._pending, room_id, result_json)

    async def pending(self, limit: int) -> list[tuple[str, str]]:
        _, flat = await self._call(self._pending, "HSCAN", self._pending, 0, "COUNT", limit)
        return list(zip(flat[::2], flat[1::2], strict=True))[:limit]

    async def claim_outcome(self, room_id: str, outcome_json: str) -> tuple[str, bool]:
        stored, done = await self._run["claim_outcome"](
            [self._outcome_key(room_id)], [outcome_json]
        )
        return str(stored), bool(done)

    async def outcome(self, room_id: str) -> tuple[str, bool] | None:
        found = await self._run["outcome"]([self._outcome_key(room_id)], [])
        return None if found is None else (str(found[0]), bool(found[1]))

    async def replace_outcome(self, room_id: str, old: str, new: str) -> bool:
        key = self._outcome_key(room_id)
        return bool(await self._run["replace_outcome"]([key], [old, new]))

    async def finish_race(self, room_id: str) -> None:
        await self._run["finish"]([self._outcome_key(room_id)], [])
        await self._call(self._pending, "HDEL", self._pending, room_id)

    async def refund(
        self, player_id: str, game: str, room_id: str, old: str, new: str, mu: float
    ) -> bool:
        keys = self.keys(player_id)
        args = [room_id, old, new, game, repr(mu)]
        return bool(await self._run["refund"]([keys.player, keys.history], args))

    async def apply_race(self, player_id: str, race: PlayerRace) -> Applied:
        keys = self.keys(player_id)
        stats_key = f"{race.game}:{race.step}"
        rated = race.before is not None and race.after is not None
        before, after = race.before or Rating(), race.after or Rating()
        answer, claim = await self._run["apply"](
            [
                keys.player,
                keys.races,
                keys.history,
                keys.wins(stats_key),
                keys.sessions,
                keys.reports,
            ],
            [
                race.room_id,
                history_mark(race.finished_at, race.room_id),
                race.entry,
                race.game,
                stats_key,
                int(race.won),
                race.elapsed_ms,
                int(rated),
                repr(before.mu),
                repr(before.sigma),
                repr(after.mu),
                repr(after.sigma),
                race.deal,
            ],
        )
        if claim:  # the player kept for good from its first race: its name's claim too
            await self.keep_name(str(claim), player_id)
        return Applied(answer)

    async def history(
        self, player_id: str, before: str | None, limit: int
    ) -> tuple[list[tuple[str, str]], bool] | None:
        keys = self.keys(player_id)
        answer = await self._run["history"](
            [keys.races, keys.history, keys.player], [before or "", limit]
        )
        if answer == "no_player":
            return None
        *page, more = answer
        return [
            (mark, entry or "") for mark, entry in zip(page[::2], page[1::2], strict=True)
        ], bool(more)

    # leaderboards

    async def sync_board(
        self, player_id: str, game: str, version: int, ordinal: float | None, shown: str = ""
    ) -> None:
        score = "" if ordinal is None else repr(ordinal)
        await self._run["board"](self._board_keys(game), [player_id, version, score, shown])

    async def board_page(self, game: str, offset: int, limit: int) -> list[BoardLine]:
        key = self._board_keys(game)[0]
        members = await self._call(key, "ZREVRANGE", key, offset, offset + limit - 1)
        return board_lines(members, offset)

    async def board_rank(self, game: str, player_id: str) -> int | None:
        keys = self._board_keys(game)
        rank = await self._run["board_rank"]([keys[0], keys[2]], [player_id])
        return None if rank is None else int(rank)

    async def board_size(self, game: str) -> int:
        key = self._board_keys(game)[0]
        return int(await self._call(key, "ZCARD", key))

    async def close(self) -> None:
        await self._pipe.close()


def _pairs(codes: Mapping[str, str]) -> list[str]:
    """A mapping as a script's arguments: key, value, key, value..."""
    return [part for pair in codes.items() for part in pair]


def _rating(value: str) -> Rating:
    mu, sigma, races = value.split("|")
    return Rating(float(mu), float(sigma), int(races))


def _stats(value: str) -> Stats:
    races, wins, streak, best_streak, best, *median = (int(part) for part in value.split("|"))
    middle = median[0] if median else -1  # (none kept by records of before medians were)
    return Stats(races, wins, streak, best_streak, _time(best), _time(middle))


def _time(ms: int) -> int | None:
    return None if ms < 0 else ms
