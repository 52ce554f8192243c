"""Room events as stored: compact JSON objects without ``seq``, ``type`` first.

Every room event is built here and nowhere else; the stores store what these functions
build.  Two values are decided by a store inside an atomic step, so the store gets the
event in two halves and writes the value between them: a winner's place
(:func:`finished_halves`) and the number of spectators (:data:`SPECTATORS_HALVES`).

The seq is an event's position in the room's log; :func:`with_seq` puts it in
front when the event is sent.  The shapes are the room events of
:mod:`stalactites.protocol` (the tests check every frame against it).
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from .protocol.room import PlayerView, Standing

__all__ = [
    "SPECTATORS_HALVES",
    "Revealed",
    "countdown_event",
    "event_type",
    "finished_event",
    "finished_halves",
    "player_event",
    "presence_events",
    "progress_event",
    "rematch_event",
    "results_event",
    "spectators_event",
    "started_event",
    "text_json",
    "with_seq",
]


text_json = json.JSONEncoder(ensure_ascii=False).encode
"""A string as JSON, as ``json.dumps(text, ensure_ascii=False)`` writes it (the encoder made
once: ``dumps`` with an option makes one per call)."""


def _dump(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def with_seq(seq: int, event: str) -> str:
    """The frame for a stored event: the event with its seq."""
    return f'{{"seq":{seq},{event[1:]}'


def event_type(event: str) -> str | None:
    """The type of a stored event, read without parsing the whole of it."""
    if event.startswith('{"type":"'):
        end = event.find('"', 9)
        return event[9:end] if end > 0 else None
    value = json.loads(event).get("type")
    return value if isinstance(value, str) else None


def player_event(player: PlayerView) -> str:
    return _dump({"type": "player", "player": player.model_dump()})


def countdown_event(starts_at: int, ends_at: int) -> str:
    return _dump({"type": "countdown", "starts_at": starts_at, "ends_at": ends_at})


def started_event(state: dict[str, Any], legal: list[str], ends_at: int) -> str:
    return _dump({"type": "started", "state": state, "legal": legal, "ends_at": ends_at})


def progress_event(
    player_id: str, foundation_cards: int, moves: int, status: str, at_ms: int | None = None
) -> str:
    """A player's progress; ``at_ms``: the race clock when it was stored (ms since the start).
    Written as text (it goes out with every action): what :func:`_dump` of the event writes."""
    at = "" if at_ms is None else f',"at_ms":{at_ms:d}'
    return (
        f'{{"type":"progress","player_id":{text_json(player_id)},'
        f'"foundation_cards":{foundation_cards:d},"moves":{moves:d},'
        f'"status":{text_json(status)}{at}}}'
    )


def finished_event(player_id: str, place: int | None, elapsed_ms: int, status: str) -> str:
    before, after = finished_halves(player_id, elapsed_ms, status)
    return f"{before}{'null' if place is None else place}{after}"


def finished_halves(player_id: str, elapsed_ms: int, status: str) -> tuple[str, str]:
    """The ``finished`` event before and after its place (a winner's place is decided by the
    store, in the commit's atomic step)."""
    whole = _dump(
        {
            "type": "finished",
            "player_id": player_id,
            "place": None,
            "elapsed_ms": elapsed_ms,
            "status": status,
        }
    )
    before, after = whole.split(_NO_PLACE, 1)  # not in a string: its quotes would be escaped
    return before + '"place":', after


_NO_PLACE = '"place":null'

SPECTATORS_HALVES = ('{"type":"spectators","count":', "}")
"""The ``spectators`` event before and after its count (counted by the store)."""


def spectators_event(count: int) -> str:
    return f"{SPECTATORS_HALVES[0]}{count}{SPECTATORS_HALVES[1]}"


def presence_events(player_id: str) -> tuple[str, str]:
    """The ``presence`` event of the player connected, and of the player gone (the store picks
    the one that is true, in its atomic step)."""
    return tuple(  # type: ignore[return-value]
        _dump({"type": "presence", "player_id": player_id, "connected": connected})
        for connected in (True, False)
    )


class Revealed(Protocol):
    """What the results reveal of a room's settings (a :class:`~.rooms.settings.RoomSettings`:
    the stores below the rooms import this module, so it names no type of theirs)."""

    @property
    def deal(self) -> str: ...
    @property
    def salt(self) -> str | None: ...
    @property
    def commitment(self) -> str | None: ...
    @property
    def solution(self) -> dict[str, list[str]] | None: ...


def results_event(standings: list[Standing], settings: Revealed, withheld: bool = False) -> str:
    """The last event: the standings, and the deal revealed with its commitment's salt (not
    ``withheld``: a daily deal's, during its day, shows none of the deal, salt and lines)."""
    return _dump(
        {
            "type": "results",
            "standings": [line.model_dump() for line in standings],
            "deal": None if withheld else settings.deal,
            "salt": None if withheld else settings.salt,
            "commitment": settings.commitment,
            "solution": None if withheld else settings.solution,
        }
    )


def rematch_event(room_id: str, by: str) -> str:
    """After the results: ``by`` proposed a rematch in the room ``room_id``."""
    return _dump({"type": "rematch", "room_id": room_id, "by": by})
