"""The players' store: identities, sessions, ratings, histories and leaderboards.

One interface (:class:`PlayerStore`), two implementations: :mod:`.memory` and
:mod:`.redis` (one Redis or a Redis Cluster).  Each method is one atomic step on one
player's keys (or one race's, or one leaderboard's); what spans several is put together by
:mod:`stalactites.players.recording`.  The store reads no clock: callers pass the time.

A player's race is applied by :meth:`PlayerStore.apply_race` at most once (its room id is
remembered in the player's history in the same atomic step).  Its rating change: when the
player's rating is still the ``before`` the race was rated from, it becomes ``after``; when
another race changed it meanwhile, the race's change is added to it (μ moves by
``after.mu - before.mu``, σ is scaled by ``after.sigma / before.sigma``), so neither is lost.

**Anonymous players expire.**  A player created with ``expires_ms`` (an anonymous one) is
forgotten, with its sessions and the claim of its name, unless it is used again: each
:meth:`PlayerStore.touch_player` moves the time on.  Once the player is kept (its first race
applied, or its registration) nothing of it expires any more: it and the claim of its name
now are kept for good.  A name it held before a rename keeps the expiry it had.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

__all__ = [
    "DELETED_VERSION",
    "REPORTS_MADE_KEPT",
    "Applied",
    "BoardLine",
    "Claim",
    "PlayerRace",
    "PlayerRecord",
    "PlayerStore",
    "Rating",
    "Stats",
    "board_lines",
    "board_shown",
    "history_mark",
    "median_of_middle",
    "moved_rating",
]

DELETED_VERSION = 1 << 50  # a deleted player's leaderboard version: nothing may put it back
REPORTS_MADE_KEPT = 1000  # reports a player made, kept for their export (the newest)


@dataclass(frozen=True, slots=True)
class Rating:
    """One game's OpenSkill rating (see :mod:`stalactites.players.ratings`)."""

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    races: int = 0  # rated races in this game

    @property
    def ordinal(self) -> float:
        """μ - 3σ: the conservative estimate, the leaderboards' order."""
        return self.mu - 3.0 * self.sigma


def moved_rating(current: Rating, before: Rating, after: Rating) -> Rating:
    """``current`` after a race rated from ``before`` to ``after`` (see the module's text)."""
    if (current.mu, current.sigma) == (before.mu, before.sigma):
        return Rating(after.mu, after.sigma, current.races + 1)
    mu = current.mu + (after.mu - before.mu)
    return Rating(mu, current.sigma * (after.sigma / before.sigma), current.races + 1)


def median_of_middle(middle: list[int]) -> int | None:
    """The median winning time from the middle one or two of them (the lower ms of a half)."""
    return sum(middle) // len(middle) if middle else None


def history_mark(finished_at: int, room_id: str) -> str:
    """A history entry's place in the order: newest first is the marks' reverse order."""
    return f"{finished_at:013d}:{room_id}"


@dataclass(frozen=True, slots=True)
class Stats:
    """One game and step's statistics (winning times in ms)."""

    races: int = 0
    wins: int = 0
    streak: int = 0  # wins in a row, up to the newest race
    best_streak: int = 0
    best_ms: int | None = None
    median_ms: int | None = None  # kept up to date by :meth:`PlayerStore.apply_race`


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    player_id: str
    name: str
    created_ms: int
    renamed_ms: int | None = None
    username: str | None = None
    password_hash: str | None = None
    board_version: int = 0  # raised by every change to what a leaderboard shows of them
    ratings: dict[str, Rating] = field(default_factory=dict)  # by game
    stats: dict[str, Stats] = field(default_factory=dict)  # by "GAME:STEP"
    expires_ms: int | None = None  # an anonymous player not kept yet: forgotten then (unix ms)

    @property
    def registered(self) -> bool:
        return self.username is not None


@dataclass(frozen=True, slots=True)
class PlayerRace:
    """One player's part of a finished race, as :meth:`PlayerStore.apply_race` applies it."""

    room_id: str
    game: str
    step: str  # "ones", "twos", or "none" (never fixed)
    finished_at: int
    won: bool  # first place, the deal cleared
    elapsed_ms: int
    entry: str  # the history entry ``GAME|PLACE|PLAYERS|STATUS|ELAPSED_MS|CARDS|STEP``
    # (:func:`stalactites.players.races.player_race`): the store keeps
    # ``ENTRY|ORDINAL_BEFORE|ORDINAL_AFTER|DEAL`` (μ - 3σ to 6 digits, empty unrated), a value
    # short enough (under 64 bytes) for Redis's compact encoding of a player's history
    deal: str
    before: Rating | None = None  # rated races: what it was rated from, and to
    after: Rating | None = None


class Claim(enum.Enum):
    NEW = "new"  # claimed by this call
    THEIRS = "theirs"  # the player's already
    TAKEN = "taken"  # someone else's (or claimed before claims named their owner)


class Applied(enum.Enum):
    APPLIED = "applied"
    ALREADY = "already"  # applied before (by this process or another)
    NO_PLAYER = "no_player"  # deleted, or never was


class BoardLine(NamedTuple):
    """A line of a leaderboard page, as the page shows it (a named tuple: a page makes fifty,
    and a tuple is made in half the time of a frozen dataclass)."""

    rank: int  # 1 for the first place
    player_id: str
    name: str | None  # None: a line stored before lines showed anything (then no rating
    # or races either: its player's record tells them)
    rating: int  # the one number shown (:func:`stalactites.players.ratings.displayed`)
    races: int


def board_shown(name: str, rating: int, races: int) -> str:
    """What a leaderboard line shows of a player, as the stores keep it: ``RATING|RACES|NAME``
    (the name last: it may hold any character but a control one)."""
    return f"{rating}|{races}|{name}"


def board_lines(members: list[str], offset: int) -> list[BoardLine]:
    """The lines of a page from its board members ``PLAYER_ID|RATING|RACES|NAME`` (the
    player id, then :func:`board_shown`'s text), the first at place ``offset + 1``."""
    new = tuple.__new__  # (a named tuple's own constructor is a Python call: slower)
    try:
        return [
            new(BoardLine, (rank, pid, name, int(rating), int(races)))
            for rank, (pid, rating, races, name) in enumerate(
                [member.split("|", 3) for member in members], offset + 1
            )
        ]
    except ValueError:  # a member stored before members showed anything: the player id
        return [_board_line(rank, member) for rank, member in enumerate(members, offset + 1)]


def _board_line(rank: int, member: str) -> BoardLine:
    pid, *shown = member.split("|", 3)
    if len(shown) == 3 and shown[0].lstrip("-").isdigit() and shown[1].isdigit():
        return BoardLine(rank, pid, shown[2], int(shown[0]), int(shown[1]))
    return BoardLine(rank, pid, None, 0, 0)


class PlayerStore(Protocol):
    # identity
    async def create_player(self, record: PlayerRecord, name_key: str = "") -> None:
        """A new player; with ``record.expires_ms``, one that expires then (see the module's
        text), and with it the claim of its name, ``name_key`` (its skeleton)."""
        ...

    async def load_player(self, player_id: str) -> PlayerRecord | None: ...

    async def touch_player(self, player_id: str, now_ms: int, idle_ms: int) -> None:
        """An expiring player (and its sessions, and the claim of its name now) expires
        ``idle_ms`` after ``now_ms`` instead; a kept player, or none, is left alone."""
        ...

    async def keep_name(self, key: str, player_id: str) -> None:
        """The claim of a name (by its skeleton), if the player's, kept for good."""
        ...

    async def players_exist(self, player_ids: list[str]) -> list[bool]:
        """Whether each player has a record (one pipelined batch on Redis)."""
        ...

    async def claim_name(self, key: str, player_id: str, idle_ms: int | None = None) -> Claim:
        """Take a name (by its skeleton) for the player: for good, or (an expiring player's)
        for ``idle_ms`` unless kept or touched meanwhile."""
        ...

    async def release_name(self, key: str, player_id: str) -> None:
        """Give a name claimed by the player up (one a refused rename claimed, never used)."""
        ...

    async def rename(
        self, player_id: str, name: str, now_ms: int, every_ms: int, name_key: str = ""
    ) -> int | None:
        """None once renamed; else when it may be (unix ms): the last rename was too recent.
        An expiring player's claim of its name is ``name_key`` (the new name's skeleton) from
        then on.  Raises KeyError for no such player."""
        ...

    async def find_username(self, key: str) -> str | None: ...
    async def claim_username(self, key: str, player_id: str, stale: str | None) -> str:
        """Take the username key (or, with ``stale``, take it from that gone owner); its owner
        afterwards."""
        ...

    async def release_username(self, key: str, player_id: str) -> None: ...
    async def register(
        self,
        player_id: str,
        username: str,
        password_hash: str,
        codes: Mapping[str, str] | None = None,
    ) -> str:
        """``registered`` (and the player kept for good, with the hashes of its recovery
        ``codes`` by name, in the same step), ``already_registered`` or ``no_player``."""
        ...

    async def set_password_hash(self, player_id: str, password_hash: str) -> None: ...

    # recovery codes (see stalactites.players.recovery), an account's, by name
    async def set_recovery_codes(self, player_id: str, codes: Mapping[str, str]) -> bool:
        """The account's codes' hashes are these, the old set gone; False for no account."""
        ...

    async def recovery_code(self, player_id: str, name: str) -> str | None:
        """The hash of the account's unused code of that name."""
        ...

    async def use_recovery_code(
        self, player_id: str, name: str, code_hash: str, password_hash: str
    ) -> bool:
        """If the code's hash is still ``code_hash``: the code gone, the password's hash
        ``password_hash``, every session ended, all at once; whether it was."""
        ...

    async def recovery_codes_left(self, player_id: str) -> int: ...

    # reports a player made (fair play keeps them on the reported player's record)
    async def add_report_made(self, player_id: str, report: str, at_ms: int) -> None:
        """Remember a report the player made (JSON), the newest ``REPORTS_MADE_KEPT``; it
        expires with an expiring player."""
        ...

    async def reports_made(self, player_id: str) -> list[str]:
        """The reports the player made, oldest first."""
        ...

    async def delete_player(self, player_id: str) -> PlayerRecord | None:
        """Its record, sessions, history, statistics, recovery codes and reports made gone
        at once; the record it had."""
        ...

    # sessions (by the token's hash)
    async def add_session(self, player_id: str, digest: str, expires_ms: int, now_ms: int) -> bool:
        """Add a session (its expired ones dropped; an expiring player's sessions expire with
        it); False for no such player."""
        ...

    async def session_alive(self, player_id: str, digest: str, now_ms: int) -> bool: ...
    async def revoke_session(self, player_id: str, digest: str) -> None: ...
    async def revoke_sessions(self, player_id: str) -> None: ...
    async def session_count(self, player_id: str) -> int: ...

    # races
    async def add_pending(self, room_id: str, result_json: str) -> None:
        """Remember a race to record (kept until :meth:`finish_race`)."""
        ...

    async def pending(self, limit: int) -> list[tuple[str, str]]:
        """Races being recorded: (room id, result JSON)."""
        ...

    async def claim_outcome(self, room_id: str, outcome_json: str) -> tuple[str, bool]:
        """Store a race's outcome unless one is stored (the first writer wins): the stored one,
        and whether the race is recorded everywhere already."""
        ...

    async def outcome(self, room_id: str) -> tuple[str, bool] | None:
        """The stored outcome and whether the race is recorded everywhere."""
        ...

    async def replace_outcome(self, room_id: str, old: str, new: str) -> bool:
        """Put ``new`` in place of the stored outcome if that is still ``old``."""
        ...

    async def finish_race(self, room_id: str) -> None:
        """The race is recorded everywhere: its outcome says so, it is no longer pending."""
        ...

    async def apply_race(self, player_id: str, race: PlayerRace) -> Applied:
        """Apply it once: rating, statistics (the median winning time too), history entry; an
        expiring player is kept for good from then on."""
        ...

    async def refund(
        self, player_id: str, game: str, room_id: str, old: str, new: str, mu: float
    ) -> bool:
        """Give the player back ``mu`` of their rating in ``game`` and store the race's
        history entry as ``new``, if it is still ``old`` (once: a repeat finds it changed);
        whether it was given now (one script on Redis)."""
        ...

    async def history(
        self, player_id: str, before: str | None, limit: int
    ) -> tuple[list[tuple[str, str]], bool] | None:
        """Up to ``limit`` history entries older than the mark ``before``, newest first, each
        ``(mark, stored entry)``, and whether there may be more; None for no such player
        (one script on Redis)."""
        ...

    # leaderboards
    async def sync_board(
        self, player_id: str, game: str, version: int, ordinal: float | None, shown: str = ""
    ) -> None:
        """Put the player on the game's board at ``ordinal`` (None: off it), its line showing
        ``shown`` (:func:`board_shown`'s text, in the board's member itself so that a page is
        one plain read), in place of the line it had, unless a change with a higher
        ``version`` is there already."""
        ...

    async def board_page(self, game: str, offset: int, limit: int) -> list[BoardLine]:
        """A page of the board, highest first (equal ordinals: the higher player id first),
        each line with what it shows: one command on Redis (``ZREVRANGE``)."""
        ...

    async def board_rank(self, game: str, player_id: str) -> int | None:
        """The player's place on the board, 0 for the first; None when not on it."""
        ...

    async def board_size(self, game: str) -> int: ...
    async def close(self) -> None: ...
