"""The players' store in this process's memory (see :class:`.base.PlayerStore`).

Every method runs without awaiting, so each is atomic among the process's coroutines.
Expiring players and name claims are forgotten as the Redis store's keys expire, by the
times the callers pass (the store reads no clock): at the first call that tells a time past
theirs (a session's use, a new session, a rename, a new player).
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from ..expiry import Expiry
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
    median_of_middle,
    moved_rating,
)

__all__ = ["MemoryPlayerStore"]


@dataclass
class _Player:
    record: PlayerRecord
    sessions: dict[str, int] = field(default_factory=dict)  # token hash -> expiry
    marks: list[str] = field(default_factory=list)  # history order, oldest first
    history: dict[str, str] = field(default_factory=dict)  # room id -> stored entry
    wins: dict[str, list[int]] = field(default_factory=dict)  # "GAME:STEP" -> winning times
    claim: str = ""  # an expiring player's: the skeleton of its name, claimed as it expires
    codes: dict[str, str] = field(default_factory=dict)  # recovery code's name -> its hash
    reports: list[str] = field(default_factory=list)  # reports made, oldest first


class MemoryPlayerStore:
    def __init__(self) -> None:
        self._players: dict[str, _Player] = {}
        self._names: dict[str, str] = {}  # a name's skeleton -> who claimed it
        self._usernames: dict[str, str] = {}
        self._pending: dict[str, str] = {}
        self._outcomes: dict[str, tuple[str, bool]] = {}
        self._boards: dict[str, dict[str, tuple[float, str]]] = {}  # game -> player id ->
        # (ordinal, its line's member PLAYER_ID|SHOWN, as the Redis store keeps them)
        self._versions: dict[str, dict[str, int]] = {}
        self._now = 0  # the latest time a caller passed
        self._players_due = Expiry(self._told)  # expiring players, by id
        self._names_due = Expiry(self._told)  # expiring name claims, by skeleton

    def _told(self) -> int:
        return self._now

    def _tell(self, now_ms: int) -> None:
        """A caller's time: what expired by then is forgotten."""
        self._now = max(self._now, now_ms)
        for player_id in self._players_due.expired():
            self._players.pop(player_id, None)
        for key in self._names_due.expired():
            self._names.pop(key, None)

    async def create_player(self, record: PlayerRecord, name_key: str = "") -> None:
        self._tell(record.created_ms)
        player = self._players[record.player_id] = _Player(record)
        if record.expires_ms is not None:
            self._expire(player, record.expires_ms - record.created_ms, name_key)

    def _expire(self, player: _Player, idle_ms: int, name_key: str) -> None:
        """The player, and its name's claim ``name_key``, expire ``idle_ms`` from now."""
        self._players_due.refresh(player.record.player_id, idle_ms)
        player.claim = name_key
        if name_key and self._names.get(name_key) == player.record.player_id:
            self._names_due.refresh(name_key, idle_ms)

    def _keep(self, player: _Player) -> None:
        """An expiring player kept for good, and its name's claim now."""
        if player.record.expires_ms is None:
            return
        player.record = replace(player.record, expires_ms=None)
        self._players_due.forget(player.record.player_id)
        if player.claim and self._names.get(player.claim) == player.record.player_id:
            self._names_due.forget(player.claim)
        player.claim = ""

    async def touch_player(self, player_id: str, now_ms: int, idle_ms: int) -> None:
        self._tell(now_ms)
        player = self._players.get(player_id)
        if player is not None and player.record.expires_ms is not None:
            player.record = replace(player.record, expires_ms=now_ms + idle_ms)
            self._expire(player, idle_ms, player.claim)

    async def keep_name(self, key: str, player_id: str) -> None:
        if self._names.get(key) == player_id:
            self._names_due.forget(key)

    async def players_exist(self, player_ids: list[str]) -> list[bool]:
        return [pid in self._players for pid in player_ids]

    async def load_player(self, player_id: str) -> PlayerRecord | None:
        player = self._players.get(player_id)
        return None if player is None else player.record

    async def claim_name(self, key: str, player_id: str, idle_ms: int | None = None) -> Claim:
        owner = self._names.get(key)
        if owner is None:  # (an expiring claim's time is set by the player's creation or
            self._names[key] = player_id  # rename that follows, which tell the time)
            return Claim.NEW
        return Claim.THEIRS if owner == player_id else Claim.TAKEN

    async def release_name(self, key: str, player_id: str) -> None:
        if self._names.get(key) == player_id:
            del self._names[key]
            self._names_due.forget(key)

    async def rename(
        self, player_id: str, name: str, now_ms: int, every_ms: int, name_key: str = ""
    ) -> int | None:
        self._tell(now_ms)
        player = self._players[player_id]
        last = player.record.renamed_ms
        if last is not None and now_ms < last + every_ms:
            return last + every_ms
        version = player.record.board_version + 1  # its board lines show the name
        player.record = replace(player.record, name=name, renamed_ms=now_ms, board_version=version)
        expires = player.record.expires_ms
        if expires is not None and name_key:
            self._expire(player, expires - now_ms, name_key)
        return None

    async def find_username(self, key: str) -> str | None:
        return self._usernames.get(key)

    async def claim_username(self, key: str, player_id: str, stale: str | None) -> str:
        if stale is not None and self._usernames.get(key) == stale:
            self._usernames[key] = player_id
        return self._usernames.setdefault(key, player_id)

    async def release_username(self, key: str, player_id: str) -> None:
        if self._usernames.get(key) == player_id:
            del self._usernames[key]

    async def register(
        self,
        player_id: str,
        username: str,
        password_hash: str,
        codes: Mapping[str, str] | None = None,
    ) -> str:
        player = self._players.get(player_id)
        if player is None:
            return "no_player"
        if player.record.username is not None:
            return "already_registered"
        version = player.record.board_version + 1
        player.record = replace(
            player.record, username=username, password_hash=password_hash, board_version=version
        )
        player.codes = dict(codes or {})
        self._keep(player)
        return "registered"

    async def set_password_hash(self, player_id: str, password_hash: str) -> None:
        if (player := self._players.get(player_id)) is not None:
            player.record = replace(player.record, password_hash=password_hash)

    async def set_recovery_codes(self, player_id: str, codes: Mapping[str, str]) -> bool:
        player = self._players.get(player_id)
        if player is None or player.record.username is None:
            return False
        player.codes = dict(codes)
        return True

    async def recovery_code(self, player_id: str, name: str) -> str | None:
        player = self._players.get(player_id)
        return None if player is None else player.codes.get(name)

    async def use_recovery_code(
        self, player_id: str, name: str, code_hash: str, password_hash: str
    ) -> bool:
        player = self._players.get(player_id)
        if player is None or player.codes.get(name) != code_hash:
            return False
        del player.codes[name]
        player.record = replace(player.record, password_hash=password_hash)
        player.sessions.clear()
        return True

    async def recovery_codes_left(self, player_id: str) -> int:
        player = self._players.get(player_id)
        return 0 if player is None else len(player.codes)

    async def add_report_made(self, player_id: str, report: str, at_ms: int) -> None:
        if (player := self._players.get(player_id)) is not None:
            player.reports = [*player.reports, report][-REPORTS_MADE_KEPT:]

    async def reports_made(self, player_id: str) -> list[str]:
        player = self._players.get(player_id)
        return [] if player is None else list(player.reports)

    async def delete_player(self, player_id: str) -> PlayerRecord | None:
        player = self._players.pop(player_id, None)
        self._players_due.forget(player_id)
        return None if player is None else player.record

    async def add_session(self, player_id: str, digest: str, expires_ms: int, now_ms: int) -> bool:
        self._tell(now_ms)
        player = self._players.get(player_id)
        if player is not None:
            alive = {d: at for d, at in player.sessions.items() if at > now_ms}
            player.sessions = {**alive, digest: expires_ms}
        return player is not None

    async def session_alive(self, player_id: str, digest: str, now_ms: int) -> bool:
        self._tell(now_ms)
        player = self._players.get(player_id)
        return player is not None and player.sessions.get(digest, 0) > now_ms

    async def revoke_session(self, player_id: str, digest: str) -> None:
        if (player := self._players.get(player_id)) is not None:
            player.sessions.pop(digest, None)

    async def revoke_sessions(self, player_id: str) -> None:
        if (player := self._players.get(player_id)) is not None:
            player.sessions.clear()

    async def session_count(self, player_id: str) -> int:
        player = self._players.get(player_id)
        return 0 if player is None else len(player.sessions)

    async def add_pending(self, room_id: str, result_json: str) -> None:
        self._pending.setdefault(room_id, result_json)

    async def pending(self, limit: int) -> list[tuple[str, str]]:
        return list(self._pending.items())[:limit]

    async def claim_outcome(self, room_id: str, outcome_json: str) -> tuple[str, bool]:
        return self._outcomes.setdefault(room_id, (outcome_json, False))

    async def outcome(self, room_id: str) -> tuple[str, bool] | None:
        return self._outcomes.get(room_id)

    async def replace_outcome(self, room_id: str, old: str, new: str) -> bool:
        stored = self._outcomes.get(room_id)
        if stored is None or stored[0] != old:
            return False
        self._outcomes[room_id] = (new, stored[1])
        return True

    async def finish_race(self, room_id: str) -> None:
        if room_id in self._outcomes:
            self._outcomes[room_id] = (self._outcomes[room_id][0], True)
        self._pending.pop(room_id, None)

    async def refund(
        self, player_id: str, game: str, room_id: str, old: str, new: str, mu: float
    ) -> bool:
        player = self._players.get(player_id)
        if player is None or player.history.get(room_id) != old:
            return False
        record = player.record
        rating = record.ratings.get(game)
        if rating is None:
            return False
        ratings = {**record.ratings, game: replace(rating, mu=rating.mu + mu)}
        player.record = replace(record, ratings=ratings, board_version=record.board_version + 1)
        player.history[room_id] = new
        return True

    async def apply_race(self, player_id: str, race: PlayerRace) -> Applied:
        player = self._players.get(player_id)
        if player is None:
            return Applied.NO_PLAYER
        if race.room_id in player.history:
            return Applied.ALREADY
        record = player.record
        change = "|"
        if race.before is not None and race.after is not None:
            current = record.ratings.get(race.game, Rating())
            moved = moved_rating(current, race.before, race.after)
            change = f"{current.ordinal:.6g}|{moved.ordinal:.6g}"  # as apply.lua keeps them
            ratings = {**record.ratings, race.game: moved}
            record = replace(record, ratings=ratings, board_version=record.board_version + 1)
        key = f"{race.game}:{race.step}"
        times = player.wins.setdefault(key, [])
        if race.won:
            bisect.insort(times, race.elapsed_ms)
        stats = _counted(record.stats.get(key, Stats()), race, times)
        player.record = replace(record, stats={**record.stats, key: stats})
        bisect.insort(player.marks, history_mark(race.finished_at, race.room_id))
        player.history[race.room_id] = f"{race.entry}|{change}|{race.deal}"
        self._keep(player)
        return Applied.APPLIED

    async def history(
        self, player_id: str, before: str | None, limit: int
    ) -> tuple[list[tuple[str, str]], bool] | None:
        player = self._players.get(player_id)
        if player is None:
            return None
        end = len(player.marks) if before is None else bisect.bisect_left(player.marks, before)
        marks = player.marks[max(0, end - limit) : end][::-1]
        return [(mark, player.history[mark.split(":", 1)[1]]) for mark in marks], end > limit

    async def sync_board(
        self, player_id: str, game: str, version: int, ordinal: float | None, shown: str = ""
    ) -> None:
        versions = self._versions.setdefault(game, {})
        if versions.get(player_id, -1) > version:
            return
        versions[player_id] = version
        board = self._boards.setdefault(game, {})
        if ordinal is None:
            board.pop(player_id, None)
        else:
            board[player_id] = (ordinal, f"{player_id}|{shown}")

    async def board_page(self, game: str, offset: int, limit: int) -> list[BoardLine]:
        return board_lines(self._ranked(game)[offset : offset + limit], offset)

    async def board_rank(self, game: str, player_id: str) -> int | None:
        line = self._boards.get(game, {}).get(player_id)
        return None if line is None else self._ranked(game).index(line[1])

    async def board_size(self, game: str) -> int:
        return len(self._boards.get(game, {}))

    def _ranked(self, game: str) -> list[str]:
        """The members as a Redis sorted set reads them highest first: by ordinal, then by
        member, both descending."""
        return [member for _, member in sorted(self._boards.get(game, {}).values(), reverse=True)]

    async def close(self) -> None:
        return None


def _counted(stats: Stats, race: PlayerRace, times: list[int]) -> Stats:
    """The statistics with the race counted (``times``: the winning times, the race's in)."""
    streak = stats.streak + 1 if race.won else 0
    best = stats.best_ms
    if race.won and (best is None or race.elapsed_ms < best):
        best = race.elapsed_ms
    return Stats(
        races=stats.races + 1,
        wins=stats.wins + race.won,
        streak=streak,
        best_streak=max(stats.best_streak, streak),
        best_ms=best,
        median_ms=median_of_middle(times[(len(times) - 1) // 2 : len(times) // 2 + 1]),
    )
