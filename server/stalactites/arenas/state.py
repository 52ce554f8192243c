"""An arena's state, one document, and the pure changes to it: joining, pausing, pairing,
seating, scoring (see ``docs/tournaments.md``, "Arenas").

Every change is a function of the state read, often a part of it (the entrants it touches):
the store writes what changed only if what it was computed from is unchanged (else it is
read and computed again), so a change made twice changes nothing more (a race is scored once:
the store keeps the rooms scored).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..protocol.room import GameField

__all__ = [
    "BERSERK_CUTOFF_MS",
    "BERSERK_POINTS",
    "GHOST_AFTER_MS",
    "PLACE_POINTS",
    "QUICK_LOSS_MS",
    "Arena",
    "ArenaSettings",
    "Entrant",
    "ArenaOutcome",
    "Pending",
    "ending",
    "free_entrants",
    "go_berserk",
    "join",
    "lone",
    "pair",
    "pend",
    "performance",
    "race_over",
    "release",
    "score",
    "seat",
    "set_paused",
    "standings",
    "unseat",
]

PLACE_POINTS = {2: (2, 1), 3: (3, 2, 1), 4: (4, 3, 2, 1)}  # by the race's seats, 1st place first
BERSERK_POINTS = 1  # a won berserk race earns this much more
BERSERK_CUTOFF_MS = 500  # berserk is taken until this long before the race's start
GHOST_AFTER_MS = 20_000  # a free entrant left alone this long races a ghost (half points)
RUNS_KEPT = 3  # an entrant's last races scored, kept: their runs are lone entrants' ghosts
QUICK_LOSS_MS = 10_000  # a race resigned within this much play scores 0 and breaks the streak
STREAK_FIRE = 2  # wins in a row after which each win counts double
PERFORMANCE_SPREAD = 400  # a linear performance rating: opponents' mean ± 400 × (W - L) / N
REMATCH_WAIT_MS = 3_000  # an entrant with only their last opponents free waits this long
# for another (while anyone races) before racing them again


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ArenaSettings(_Model):
    """What an organiser (or the schedule) chose; fixed once made."""

    name: str
    game: GameField
    step: Literal["choice", "ones", "twos"] | None = None
    duration_min: int = Field(ge=10, le=180)
    time_limit_s: int = Field(ge=60, le=1800)
    seats: int = Field(default=2, ge=2, le=4)
    rated: bool = True
    min_rating: int | None = None
    max_rating: int | None = None
    starts_ms: int
    recurring: str | None = None  # the schedule's line that made it

    @property
    def ends_ms(self) -> int:
        return self.starts_ms + self.duration_min * 60_000

    @property
    def closes_ms(self) -> int:
        """Entrants are taken until a minute before the end."""
        return self.ends_ms - 60_000


class Entrant(_Model):
    player_id: str
    name: str
    rating: int
    joined_ms: int
    score: int = 0
    races: int = 0
    wins: int = 0
    streak: int = 0  # wins in a row, up to the newest race
    fire: bool = False  # the streak doubles the next win
    opponents_rating: int = 0  # the sum of opponents' ratings over the races counted
    losses: int = 0
    paused: bool = False
    free_since: int | None = None  # waiting for a race (None: racing or paused)
    room_id: str | None = None  # the race now (or a pending pairing's "pending:ID")
    token: str | None = None  # the seat's token in it
    last: list[str] = Field(default_factory=list)  # the last race's opponents
    held: int = 0  # races not scored: fair play holds the run
    withheld: dict[str, int] = Field(default_factory=dict)  # held races: the points they
    # earned, counted once fair play clears the run
    unscored: list[str] = Field(default_factory=list)  # races over, their points to come
    berserk: list[str] = Field(default_factory=list)  # races gone berserk in, not scored yet
    berserks: int = 0  # races scored that were raced berserk
    runs: list[str] = Field(default_factory=list)  # the last races scored, the newest last


class Pending(_Model):
    """A pairing made, its room not made yet (its maker may die: it is undone after a while)."""

    players: list[str]
    made_ms: int


class Arena(_Model):
    arena_id: str
    settings: ArenaSettings
    entrants: dict[str, Entrant] = Field(default_factory=dict)
    pending: dict[str, Pending] = Field(default_factory=dict)
    scored: list[str] = Field(default_factory=list)  # rooms scored, for exactly once
    rooms: int = 0  # races made
    version: int = 0  # raised by every change the standings show
    count: int = 0  # entrants in all (``entrants`` may hold only some of them)
    complete: bool = True  # ``entrants`` holds every entrant


class ArenaOutcome(_Model):
    """One racer's part of a finished arena race, as scoring needs it."""

    player_id: str
    place: int
    won: bool  # first place, not resigned
    cleared: bool  # cleared the deal
    resigned_early: bool  # resigned within QUICK_LOSS_MS of play
    held: bool  # fair play holds the run: scores nothing
    ghost: bool = False  # a race against a ghost: half points (rounded down)
    opponents_rating: int  # the sum of the opponents' ratings
    opponents: int


def join(arena: Arena, player_id: str, name: str, rating: int, now: int) -> Arena | None:
    """The arena with the player entered (or back from a pause); None if nothing changes."""
    found = arena.entrants.get(player_id)
    if found is not None and not found.paused:
        return None
    entrant = found or Entrant(player_id=player_id, name=name, rating=rating, joined_ms=now)
    entrant = entrant.model_copy(
        update={"paused": False, "free_since": now if entrant.room_id is None else None}
    )
    return _with(arena, {player_id: entrant})


def set_paused(arena: Arena, player_id: str, paused: bool, now: int) -> Arena | None:
    found = arena.entrants.get(player_id)
    if found is None or found.paused == paused:
        return None
    free = None if paused or found.room_id is not None else now
    return _with(
        arena, {player_id: found.model_copy(update={"paused": paused, "free_since": free})}
    )


def free_entrants(arena: Arena) -> list[Entrant]:
    return [e for e in arena.entrants.values() if e.free_since is not None and not e.paused]


def pair(
    arena: Arena,
    now: int,
    match_ids: list[str],
    present: set[str],
    racing: bool | None = None,
) -> tuple[Arena, list[list[str]]] | None:
    """Pair the free entrants who are ``present`` (an arena socket open), a room of
    ``seats`` each: by score first, then rating; never with an opponent of their last race
    while anyone else is free, and not before :data:`REMATCH_WAIT_MS` while anyone else
    races (``racing``; None: looked for among ``arena``'s entrants), who may come free.
    Entrants are taken in order; each room's others are the nearest (by score, rating) not
    avoided.  None: nobody to pair (or the arena is not running)."""
    settings = arena.settings
    if not settings.starts_ms <= now < settings.ends_ms:
        return None
    free = sorted(
        (e for e in free_entrants(arena) if e.player_id in present),
        key=lambda e: (-e.score, -e.rating, e.joined_ms),
    )
    if racing is None:  # (``arena`` holds every entrant: look)
        racing = any(e.room_id is not None for e in arena.entrants.values())
    size = settings.seats
    rooms: list[list[str]] = []
    placed: set[str] = set()
    for first in free:
        if first.player_id in placed:
            continue
        others = [e for e in free if e.player_id not in placed and e.player_id != first.player_id]
        fresh = [
            e for e in others if e.player_id not in first.last and first.player_id not in e.last
        ]
        waited = now - (first.free_since or now)
        if len(fresh) < size - 1 and racing and waited < REMATCH_WAIT_MS:
            continue  # (someone racing may come free: wait a moment for a new opponent)
        chosen = (fresh if len(fresh) >= size - 1 else others)[: size - 1]
        if len(chosen) < size - 1:
            break
        room = [first.player_id, *(e.player_id for e in chosen)]
        placed.update(room)
        rooms.append(room)
    if not rooms:
        return None
    changed: dict[str, Entrant] = {}
    pending = dict(arena.pending)
    for room, match_id in zip(rooms, match_ids, strict=False):
        pending[match_id] = Pending(players=room, made_ms=now)
        for player_id in room:
            changed[player_id] = arena.entrants[player_id].model_copy(
                update={"free_since": None, "room_id": f"pending:{match_id}"}
            )
    made = [room for room, _ in zip(rooms, match_ids, strict=False)]
    return _with(arena, changed, pending=pending), made


def lone(arena: Arena, now: int, present: set[str]) -> list[str]:
    """The free entrants ``present`` left unpaired for :data:`GHOST_AFTER_MS` (while the
    arena runs): each races a ghost of another entrant's run."""
    if not arena.settings.starts_ms <= now < arena.settings.ends_ms:
        return []
    return [
        e.player_id
        for e in free_entrants(arena)
        if e.player_id in present and (e.free_since or now) <= now - GHOST_AFTER_MS
    ]


def pend(arena: Arena, player_id: str, match_id: str, now: int) -> Arena | None:
    """A ghost race for a free entrant, its room not made yet (as a pairing of one: seated
    by :func:`seat`, or undone by :func:`unseat`); None if they are not free now."""
    found = arena.entrants.get(player_id)
    if found is None or found.free_since is None or found.paused:
        return None
    pending = {**arena.pending, match_id: Pending(players=[player_id], made_ms=now)}
    changed = found.model_copy(update={"free_since": None, "room_id": f"pending:{match_id}"})
    return _with(arena, {player_id: changed}, pending=pending)


def seat(arena: Arena, match_id: str, room_id: str, tokens: dict[str, str]) -> Arena | None:
    """A pending pairing's room is made: its players race there."""
    found = arena.pending.get(match_id)
    if found is None:
        return None
    pending = {key: value for key, value in arena.pending.items() if key != match_id}
    changed = {
        player_id: arena.entrants[player_id].model_copy(
            update={"room_id": room_id, "token": tokens[player_id]}
        )
        for player_id in found.players
    }
    return _with(arena, changed, pending=pending, rooms=arena.rooms + 1)


def unseat(arena: Arena, match_id: str, now: int) -> Arena | None:
    """Undo a pending pairing (its room was not made): its players are free again."""
    found = arena.pending.get(match_id)
    if found is None:
        return None
    pending = {key: value for key, value in arena.pending.items() if key != match_id}
    changed = {
        player_id: arena.entrants[player_id].model_copy(
            update={
                "room_id": None,
                "free_since": None if arena.entrants[player_id].paused else now,
            }
        )
        for player_id in found.players
    }
    return _with(arena, changed, pending=pending)


def go_berserk(arena: Arena, player_id: str, room_id: str) -> Arena | None:
    """The entrant races ``room_id`` berserk (the caller checked that it has not started);
    None if they do already, or it is not their race now."""
    found = arena.entrants.get(player_id)
    if found is None or found.room_id != room_id or room_id in found.berserk:
        return None
    return _with(
        arena, {player_id: found.model_copy(update={"berserk": [*found.berserk, room_id]})}
    )


def race_over(
    arena: Arena, room_id: str, players: list[str], now: int, connected: set[str]
) -> Arena | None:
    """A race of the arena has ended: its racers (those in it still) are free again at once,
    but those not ``connected`` (paused: they left), each with its others as their last
    opponents; its points count once it is scored (:func:`score`).  None: done already."""
    changed: dict[str, Entrant] = {}
    for player_id in players:
        entrant = arena.entrants.get(player_id)
        if entrant is None or entrant.room_id != room_id:
            continue
        paused = entrant.paused or player_id not in connected
        changed[player_id] = entrant.model_copy(
            update={
                "paused": paused,
                "free_since": None if paused else now,
                "room_id": None,
                "token": None,
                "last": [other for other in players if other != player_id],
                "unscored": [*entrant.unscored, room_id],
            }
        )
    return _with(arena, changed) if changed else None


def score(
    arena: Arena, room_id: str, outcomes: list[ArenaOutcome], now: int, connected: set[str]
) -> Arena | None:
    """Score a finished race once: points by place (:data:`PLACE_POINTS`: first place always,
    another place only if its racer cleared the deal, else it is a loss, 0), a win doubled
    while the streak is on fire (after :data:`STREAK_FIRE` wins in a row), 0 for a race
    resigned within :data:`QUICK_LOSS_MS` of play (a loss: the streak broken) and for a run
    fair play holds; a won berserk race :data:`BERSERK_POINTS` more, after the doubling;
    half of all that (rounded down) for a race against a ghost.
    Its racers are freed first if its end did not free them (:func:`race_over`)."""
    if room_id in arena.scored:
        return None
    players = [outcome.player_id for outcome in outcomes]
    arena = race_over(arena, room_id, players, now, connected) or arena
    table = PLACE_POINTS[max(len(outcomes), 2)]
    changed: dict[str, Entrant] = {}
    for outcome in outcomes:
        entrant = arena.entrants.get(outcome.player_id)
        if entrant is None:
            continue
        points = 0 if outcome.place > len(table) else table[outcome.place - 1]
        if not outcome.won and not outcome.cleared:
            points = 0  # a loss
        won = outcome.won and not outcome.resigned_early
        if outcome.resigned_early:
            points = 0
        if won and entrant.fire:
            points *= 2
        berserk = room_id in entrant.berserk
        if won and berserk:
            points += BERSERK_POINTS
        if outcome.ghost:
            points //= 2
        withheld = dict(entrant.withheld)
        if outcome.held:
            withheld[room_id] = points
            points = 0
        streak = entrant.streak + 1 if won else 0
        changed[outcome.player_id] = entrant.model_copy(
            update={
                "score": entrant.score + points,
                "races": entrant.races + 1,
                "wins": entrant.wins + (1 if won else 0),
                "losses": entrant.losses + (0 if won else 1),
                "streak": streak,
                "fire": streak >= STREAK_FIRE,
                "opponents_rating": entrant.opponents_rating + outcome.opponents_rating,
                "held": entrant.held + (1 if outcome.held else 0),
                "withheld": withheld,
                "unscored": [room for room in entrant.unscored if room != room_id],
                "berserk": [room for room in entrant.berserk if room != room_id],
                "berserks": entrant.berserks + (1 if berserk else 0),
                "runs": [*entrant.runs, room_id][-RUNS_KEPT:],
            }
        )
    return _with(arena, changed, scored=[*arena.scored, room_id])


def release(arena: Arena, player_id: str, room_id: str) -> Arena | None:
    """Fair play cleared the entrant's held run in ``room_id``: the points it earned count
    now (once: None if there are none to count)."""
    found = arena.entrants.get(player_id)
    if found is None or room_id not in found.withheld:
        return None
    withheld = {room: points for room, points in found.withheld.items() if room != room_id}
    update = {
        "score": found.score + found.withheld[room_id],
        "held": found.held - 1,
        "withheld": withheld,
    }
    return _with(arena, {player_id: found.model_copy(update=update)})


def ending(arena: Arena, now: int) -> bool:
    """Whether the arena is over: its time is up and no race of it is under way (with only
    some of its entrants at hand: its time is up)."""
    if now < arena.settings.ends_ms:
        return False
    if not arena.complete:
        return True
    return not arena.pending and all(
        e.room_id is None and not e.unscored for e in arena.entrants.values()
    )


def performance(entrant: Entrant) -> int | None:
    """The linear performance rating over the races counted (None: none)."""
    if not entrant.races:
        return None
    mean = entrant.opponents_rating / entrant.races
    return round(mean + PERFORMANCE_SPREAD * (entrant.wins - entrant.losses) / entrant.races)


def standings(arena: Arena, hidden: set[str] | frozenset[str] = frozenset()) -> list[Entrant]:
    """Entrants by score, then wins, then who joined first; ``hidden`` (marked players:
    their points removed) left out."""
    shown = [e for e in arena.entrants.values() if e.player_id not in hidden]
    return sorted(shown, key=lambda e: (-e.score, -e.wins, e.joined_ms, e.player_id))


def _with(arena: Arena, entrants: dict[str, Entrant], **more: object) -> Arena:
    return arena.model_copy(
        update={"entrants": {**arena.entrants, **entrants}, "version": arena.version + 1, **more}
    )
