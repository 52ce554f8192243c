"""A finished race as the players' service takes it, its stored outcome, and history entries.

:class:`RaceResult` is what a room hands over when its results are final: every seat, with
the persistent player behind it (``player_id`` None for a guest seat, which gets no history).
A **win** is first place with the deal cleared (status ``won``); its elapsed time is a winning
time.  A history page's cursor is opaque: base64url of the last entry's mark
``FINISHED_AT(13 digits):ROOM_ID``.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import asdict, dataclass
from typing import Any

from ..engine.variants import GAMES
from ..store.players_base import PlayerRace, Rating
from .errors import BadCursor, BadRace
from .ratings import displayed

__all__ = [
    "HistoryEntry",
    "Outcome",
    "RacePlayer",
    "RaceResult",
    "decode_cursor",
    "encode_cursor",
    "history_entry",
    "player_race",
    "race_mark",
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
class RaceResult:
    room_id: str
    game: str
    deal: str
    finished_at: int  # unix ms
    rated: bool
    players: tuple[RacePlayer, ...]
    ghost: dict[str, Any] | None = None  # a ghost race: whose ghost (name, original time...)

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

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> RaceResult:
        data = json.loads(text)
        players = tuple(RacePlayer(**p) for p in data.pop("players"))
        return cls(players=players, **data)


@dataclass(frozen=True, slots=True)
class Outcome:
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
        def rows(ratings: dict[str, Rating]) -> dict[str, list[float]]:
            return {pid: [r.mu, r.sigma, r.races] for pid, r in ratings.items()}

        data = {"result": asdict(self.result), "before": rows(self.before)}
        data["after"] = rows(self.after)
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Outcome:
        data = json.loads(text)
        result = RaceResult.from_json(json.dumps(data["result"]))

        def rows(raw: dict[str, list[float]]) -> dict[str, Rating]:
            return {pid: Rating(mu, sigma, int(races)) for pid, (mu, sigma, races) in raw.items()}

        return cls(result, rows(data["before"]), rows(data["after"]))


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
    ghost: dict[str, Any] | None = None  # a ghost race: name, room_id, player_id, status,
    # elapsed_ms (the original run's time)


def player_race(outcome: Outcome, seat: RacePlayer) -> PlayerRace:
    """What :meth:`PlayerStore.apply_race` applies for one seat of the race."""
    result = outcome.result
    assert seat.player_id is not None
    entry: dict[str, Any] = {
        "room_id": result.room_id,
        "game": result.game,
        "deal": result.deal,
        "finished_at": result.finished_at,
        "place": seat.place,
        "players": len(result.players),
        "status": seat.status,
        "elapsed_ms": seat.elapsed_ms,
        "foundation_cards": seat.foundation_cards,
        "step": seat.step,
        "rated": result.rated,
        "rating_before": None,
        "rating_after": None,
    }
    if result.ghost is not None:
        entry["ghost"] = result.ghost
    return PlayerRace(
        room_id=result.room_id,
        game=result.game,
        step=seat.step,
        finished_at=result.finished_at,
        won=seat.place == 1 and seat.status == "won",
        elapsed_ms=seat.elapsed_ms,
        entry_json=json.dumps(entry, separators=(",", ":")),
        before=outcome.before.get(seat.player_id),
        after=outcome.after.get(seat.player_id),
    )


def history_entry(stored: str) -> HistoryEntry:
    """A stored entry, ``[entry, before, after]`` (ratings as ``[mu, sigma]`` or null), with the
    ratings as shown."""
    data, *change = json.loads(stored)
    for side, rating in zip(("rating_before", "rating_after"), change, strict=True):
        if rating is not None:
            data[side] = displayed(Rating(float(rating[0]), float(rating[1])))
    return HistoryEntry(**data)


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


def race_mark(finished_at: int, room_id: str) -> str:
    """A history entry's place in the order: newest first is the marks' reverse order."""
    return f"{finished_at:013d}:{room_id}"
