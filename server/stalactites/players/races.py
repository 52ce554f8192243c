"""A finished race as the players' service takes it, its stored outcome, and history entries.

:class:`RaceResult` is what a room hands over when its results are final: every seat, with
the persistent player behind it (``player_id`` None for a guest seat, which gets no history).
A **win** is first place with the deal cleared (status ``won``); its elapsed time is a winning
time.  A history page's cursor is opaque: base64url of the last entry's mark
``FINISHED_AT(13 digits):ROOM_ID``.  A history entry is stored short, its fields between
``|`` (no field names, no room id or time: the mark has them), the ordinals μ - 3σ before
and after put in by the store (:func:`player_race`, :func:`history_entry`).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import asdict, dataclass
from typing import Any

from ..engine.variants import GAMES
from ..store.players.base import PlayerRace, Rating
from .errors import BadCursor, BadRace
from .ratings import displayed, shown_ordinal

__all__ = [
    "HistoryEntry",
    "RaceOutcome",
    "RacePlayer",
    "RaceResult",
    "RoundOf",
    "decode_cursor",
    "encode_cursor",
    "history_entry",
    "player_race",
    "with_refund",
]

ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
_MARK = re.compile(r"\d{13}:[A-Za-z0-9_-]{1,32}")
STEPS = ("ones", "twos", "none")


@dataclass(frozen=True, slots=True)
class RacePlayer:
    player_id: str | None  # None: a guest seat
    name: str
    place: int  # 1 first; equal places are ties
    status: str  # "won", "timeout", ...
    elapsed_ms: int
    foundation_cards: int
    step: str = "none"  # the foundation step played: "ones", "twos", "none"


@dataclass(frozen=True, slots=True)
class RoundOf:
    """The tournament round a race was: kept in its room's settings (``round_of``) and said
    by its players' history entries."""

    tournament_id: str
    name: str  # the tournament's
    round: int


@dataclass(frozen=True, slots=True)
class RaceResult:
    room_id: str
    game: str
    deal: str
    finished_at: int  # unix ms
    rated: bool
    players: tuple[RacePlayer, ...]
    tournament: RoundOf | None = None  # a tournament round's race
    ghost: dict[str, Any] | None = None  # a ghost race: whose ghost (name, original time...)
    hints: int = 0  # hints taken (solo practice: its one player's)
    arena: str | None = None  # an arena's race: the arena's id

    def check(self) -> RaceResult:
        """Itself, or :class:`BadRace` saying what is wrong."""
        if ROOM_ID.fullmatch(self.room_id) is None:
            raise BadRace(f"not a room id: {self.room_id!r}")
        if self.game not in GAMES:
            raise BadRace(f"not a game: {self.game!r}")
        if not self.players or not 0 <= self.finished_at < 10**13:
            raise BadRace("a race has players and a time it finished")
        ids = [p.player_id for p in self.players if p.player_id is not None]
        if len(ids) != len(set(ids)):
            raise BadRace("a player has one seat in a race")
        for p in self.players:
            if not 1 <= p.place <= len(self.players) or p.step not in STEPS:
                raise BadRace(f"{p.name!r}: a place 1-{len(self.players)} and a step {STEPS}")
            if p.elapsed_ms < 0 or p.foundation_cards < 0:
                raise BadRace(f"{p.name!r}: no negative times or counts")
        if self.rated and (len(self.players) < 2 or len(ids) != len(self.players)):
            raise BadRace("a rated race has two players or more, each with a session")
        return self

    def extras(self) -> dict[str, Any]:
        """What a tournament round's or a ghost race's entries say besides the race."""
        extras: dict[str, Any] = {}
        if self.tournament is not None:
            extras["tournament"] = asdict(self.tournament)
        if self.ghost is not None:
            extras["ghost"] = self.ghost
        if self.hints:
            extras["hints"] = self.hints
        if self.arena is not None:
            extras["arena"] = self.arena
        return extras

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> RaceResult:
        data = json.loads(text)
        players = tuple(RacePlayer(**p) for p in data.pop("players"))
        of = data.pop("tournament", None)
        return cls(players=players, tournament=None if of is None else RoundOf(**of), **data)


@dataclass(frozen=True, slots=True)
class RaceOutcome:
    """A race's result with each player's rating before and after (rated races): computed
    once, stored under the race's own key, the same for every process that records it."""

    result: RaceResult
    before: dict[str, Rating]  # by player id; empty unless rated
    after: dict[str, Rating]

    def change(self, player_id: str) -> tuple[int, int] | None:
        """The player's rating before and after, as shown (None: not rated here)."""
        if player_id not in self.after:
            return None
        return displayed(self.before[player_id]), displayed(self.after[player_id])

    def to_json(self) -> str:
        """Compact, as it is kept for as long as histories point at it: ``[room_id, game,
        deal, finished_at, rated, [[player_id, name, place, status, elapsed_ms,
        foundation_cards, step, before, after], ...]]``, each rating ``[mu, sigma, races]``
        or null (exact: the recording rates from them)."""
        r = self.result

        def rating(table: dict[str, Rating], pid: str | None) -> list[float] | None:
            found = table.get(pid) if pid is not None else None
            return None if found is None else [found.mu, found.sigma, found.races]

        seats: list[list[Any]] = [
            [p.player_id, p.name, p.place, p.status, p.elapsed_ms, p.foundation_cards, p.step]
            + [rating(self.before, p.player_id), rating(self.after, p.player_id)]
            for p in r.players
        ]
        data: list[Any] = [r.room_id, r.game, r.deal, r.finished_at, int(r.rated), seats]
        if r.extras():  # a tournament round's or a ghost race's: [..., seats, extras]
            data.append(r.extras())
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> RaceOutcome:
        """From :meth:`to_json` (or the object with field names stored before it)."""
        data = json.loads(text)
        if isinstance(data, dict):
            return cls._from_fields(data)
        room_id, game, deal, finished_at, rated, seats, *extras = data
        players, before, after = [], {}, {}
        for *fields, was, now in seats:
            players.append(RacePlayer(*fields))
            if was is not None and now is not None:
                before[fields[0]], after[fields[0]] = _rating(was), _rating(now)
        more = extras[0] if extras else {}
        of = more.get("tournament")
        result = RaceResult(
            room_id,
            game,
            deal,
            finished_at,
            bool(rated),
            tuple(players),
            None if of is None else RoundOf(**of),
            more.get("ghost"),
            int(more.get("hints", 0)),
            more.get("arena"),
        )
        return cls(result, before, after)

    @classmethod
    def _from_fields(cls, data: dict[str, Any]) -> RaceOutcome:
        result = RaceResult.from_json(json.dumps(data["result"]))

        def rows(raw: dict[str, list[float]]) -> dict[str, Rating]:
            return {pid: _rating(row) for pid, row in raw.items()}

        return cls(result, rows(data["before"]), rows(data["after"]))


def _rating(row: list[float]) -> Rating:
    mu, sigma, races = row
    return Rating(mu, sigma, int(races))


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    room_id: str
    game: str
    deal: str
    finished_at: int
    place: int
    players: int  # how many raced
    status: str
    elapsed_ms: int
    foundation_cards: int
    step: str
    rated: bool
    rating_before: int | None
    rating_after: int | None
    tournament: dict[str, Any] | None = None  # a round: {"tournament_id", "name", "round"}
    ghost: dict[str, Any] | None = None  # a ghost race: name, room_id, player_id, status,
    # elapsed_ms (the original run's time)
    hints: int | None = None  # hints taken in a solo practice (None: none)
    refund: int | None = None  # rating points given back: the race was against a player
    # fair play's moderators marked since (stalactites.players.refunds)
    arena: str | None = None  # an arena's race: the arena's id


def player_race(outcome: RaceOutcome, seat: RacePlayer) -> PlayerRace:
    """What :meth:`PlayerStore.apply_race` applies for one seat of the race."""
    result = outcome.result
    assert seat.player_id is not None
    fields = (result.game, seat.place, len(result.players), seat.status, seat.elapsed_ms)
    entry = "|".join(str(field) for field in (*fields, seat.foundation_cards, seat.step))
    extras = result.extras()
    if extras:  # after the step: history_entry reads it from both ends
        entry += "|" + json.dumps(extras, separators=(",", ":"), ensure_ascii=False)
    return PlayerRace(
        room_id=result.room_id,
        game=result.game,
        step=seat.step,
        finished_at=result.finished_at,
        won=seat.place == 1 and seat.status == "won",
        elapsed_ms=seat.elapsed_ms,
        entry=entry,  # the order of history_entry's, the ratings and the deal put in after
        deal=result.deal,
        before=outcome.before.get(seat.player_id),
        after=outcome.after.get(seat.player_id),
    )


def history_entry(mark: str, stored: str) -> HistoryEntry:
    """An entry of a history page from its mark and its stored text, the ratings as shown."""
    if stored.startswith("["):  # stored before entries were compact: [entry, before, after]
        data, *change = json.loads(stored)
        shown = [None if r is None else displayed(Rating(r[0], r[1])) for r in change]
        return HistoryEntry(**{**data, "rating_before": shown[0], "rating_after": shown[1]})
    finished_at, room_id = mark.split(":", 1)
    (game, place, players, status, elapsed_ms, cards, step), more, (before, after, deal) = (
        _entry_parts(stored)
    )
    return HistoryEntry(
        room_id,
        game,
        deal,
        int(finished_at),
        int(place),
        int(players),
        status,
        int(elapsed_ms),
        int(cards),
        step,
        before != "",
        _shown(before) if before else None,
        _shown(after) if after else None,
        more.get("tournament"),
        more.get("ghost"),
        more.get("hints"),
        more.get("refund"),
        more.get("arena"),
    )


def with_refund(stored: str, points: int) -> str:
    """A compact history entry (as :func:`history_entry` reads it) saying that ``points``
    of its rating loss were given back."""
    head, more, tail = _entry_parts(stored)
    text = json.dumps({**more, "refund": points}, separators=(",", ":"), ensure_ascii=False)
    return "|".join([*head, text, *tail])


def _entry_parts(stored: str) -> tuple[list[str], dict[str, Any], list[str]]:
    """A compact entry's parts: ``GAME|PLACE|PLAYERS|STATUS|ELAPSED_MS|CARDS|STEP``, its
    extras (a JSON object after the step, if any) and ``ORDINAL_BEFORE|ORDINAL_AFTER|DEAL``
    (read from the end: the extras may hold any character)."""
    *head, rest = stored.split("|", 6)
    middle, before, after, deal = rest.rsplit("|", 3)
    step, *extras = middle.split("|", 1)
    return [*head, step], json.loads(extras[0]) if extras else {}, [before, after, deal]


def _shown(ordinal: str) -> int:
    return shown_ordinal(float(ordinal))


def encode_cursor(mark: str) -> str:
    return base64.urlsafe_b64encode(mark.encode()).decode().rstrip("=")


def decode_cursor(cursor: object) -> str:
    """The mark in a cursor this service gave, else :class:`BadCursor`."""
    if not isinstance(cursor, str) or not 0 < len(cursor) <= 80:
        raise BadCursor(f"not a cursor: {cursor!r}")
    try:
        mark = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise BadCursor(f"not a cursor: {cursor!r}") from None
    if _MARK.fullmatch(mark) is None:
        raise BadCursor(f"not a cursor: {cursor!r}")
    return mark
