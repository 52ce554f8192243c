"""Arenas: a tournament to drop into for a fixed time, paired again the moment a race ends
(see ``docs/tournaments.md``, "Arenas").

An arena is stored in parts changed by compare and set (:mod:`.state` computes every change
over the entrants it touches), so any process may pair, seat and score.  A pairing step
(:meth:`Arenas.pair_now`) runs whenever an entrant becomes free here (entered, back from a
pause, their race over) and once a second for every running arena; the rooms of its pairings
are made by the process that made them (a pairing whose room is not made within
:data:`PENDING_MS` is undone).  A race's end frees its racers at once, and pairs them again,
on the process that ended it (:meth:`Arenas.race_over`); its points come as an effect of the
results log (:meth:`Arenas.record_room`: once however often it runs, after fair play has
looked at its runs), which frees its racers too if its end did not.  An entrant's arena
sockets hold a lease on their presence: one with none is not paired, and is paused when
their race ends.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import secrets
from collections.abc import Awaitable, Callable

from ..clock import Clock
from ..ghosts import GhostService
from ..matchmaking import Matchmaker
from ..matchmaking.service import rating_of
from ..protocol.room import RoomStatus, Standing
from ..rooms import RoomError, RoomService
from ..store.arenas.base import ArenaChange, ArenaParts, ArenaStore
from ..store.players.base import PlayerRecord
from . import state
from .state import Arena, ArenaOutcome, ArenaSettings, Entrant, Pending

__all__ = ["ARENA_PREFIX", "ArenaError", "Arenas", "PENDING_MS"]

log = logging.getLogger(__name__)

ARENA_PREFIX = "a-"  # an arena's rooms' settings name it; its ids start so
PENDING_MS = 15_000  # a pairing whose room is not made by then is undone
KEPT_MS = 7 * 86_400_000  # an arena is kept a week after its end
RUNNING_MS = (180 + 30 + 1) * 60_000  # an arena started longer ago than this is over
WRITE_ATTEMPTS = 50
PASSES = 20  # pairing passes one call runs at most
LOCK_MS = 2_000  # the pairing lock's lease
LOCK_TRIES, LOCK_WAIT_S = 4, 0.05  # a call finding the lock taken tries again this often

Publish = Callable[[str, str], Awaitable[None]]  # (player_id, frame): to their arena sockets
Hidden = Callable[[str, str], Awaitable[bool]]  # (player_id, room_id): fair play holds the run


class ArenaError(Exception):
    """A refused request: ``code`` and ``message`` (web/errors.py answers it)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Arenas:
    def __init__(
        self,
        store: ArenaStore,
        rooms: RoomService,
        matchmaker: Matchmaker,
        clock: Clock,
        publish: Publish,
        held: Hidden,
        ghosts: GhostService,
    ) -> None:
        self.store, self.rooms, self.matchmaker, self.clock = store, rooms, matchmaker, clock
        self.publish, self.held, self.ghosts = publish, held, ghosts
        self._owner = secrets.token_hex(6)  # this process, as the pairing lock names it
        self._pairing: set[str] = set()  # arenas a pass is pairing here now
        self._again: set[str] = set()  # ...and asked for once more meanwhile

    def now(self) -> int:
        return self.clock.now_ms()

    # Reading and changing.

    async def load(self, arena_id: str, entrants: list[str] | None = None) -> Arena:
        """The arena with the entrants asked for (None: every one)."""
        return (await self._view(arena_id, entrants))[0]

    async def _view(
        self, arena_id: str, entrants: list[str] | None, room_id: str | None = None
    ) -> tuple[Arena, ArenaParts]:
        parts = await self.store.read(arena_id, entrants, room_id)
        if parts is None:
            raise ArenaError("not_found", f"no arena {arena_id!r}")
        arena = Arena(
            arena_id=arena_id,
            settings=ArenaSettings.model_validate_json(parts.header),
            entrants={p: Entrant.model_validate_json(d) for p, d in parts.entrants.items()},
            pending={m: Pending.model_validate_json(d) for m, d in parts.pending.items()},
            scored=[room_id] if parts.scored and room_id is not None else [],
            rooms=parts.rooms,
            version=parts.version,
            count=parts.count,
            complete=entrants is None,
        )
        return arena, parts

    async def change(
        self,
        arena_id: str,
        entrants: Callable[[], Awaitable[list[str]]],
        compute: Callable[[Arena], Arena | None],
        room_id: str | None = None,
    ) -> tuple[Arena, Arena | None]:
        """Apply a change by compare and set on what it was computed from: the entrants
        ``entrants()`` names (read again at each attempt), the pending pairings, whether
        ``room_id`` is scored.  The arena read, and what it became (None: nothing changed)."""
        for _ in range(WRITE_ATTEMPTS):
            arena, parts = await self._view(arena_id, await entrants(), room_id)
            after = compute(arena)
            if after is None:
                return arena, None
            if await self.store.apply(arena_id, _diff(parts, arena, after)):
                return arena, after
        raise ArenaError("busy", "the arena is busy; try again")

    # Organisers.

    async def create(
        self, settings: ArenaSettings, arena_id: str | None = None
    ) -> tuple[Arena, str] | None:
        """A new arena and its admin token; with ``arena_id`` (a schedule's), None if it was
        made already."""
        arena = Arena(
            arena_id=arena_id or ARENA_PREFIX + secrets.token_urlsafe(8), settings=settings
        )
        token = secrets.token_urlsafe(24)
        ttl = settings.ends_ms + KEPT_MS - self.now()
        made = await self.store.create(
            arena.arena_id, settings.model_dump_json(), _hash(token), settings.starts_ms, ttl
        )
        return (arena, token) if made else None

    async def check_admin(self, arena_id: str, token: str) -> None:
        found = await self.store.admin_hash(arena_id)
        if found is None or not hmac.compare_digest(found, _hash(token)):
            raise ArenaError("unauthorized", "this is not the arena's admin token")

    async def listed(self, status: str, limit: int = 50) -> list[Arena]:
        """Arenas ``scheduled`` (the soonest first), ``running`` or ``finished`` (the
        latest first)."""
        now = self.now()
        if status == "scheduled":
            ids = await self.store.starting(now + 1, now + KEPT_MS, limit)
        elif status == "running":  # (the longest arena, and its last race's time after)
            ids = await self.store.starting(now - RUNNING_MS, now + 1, 500)
        else:
            ids = await self.store.starting(now - KEPT_MS, now + 1, 500)
            ids.reverse()
        found = []
        for arena_id in ids:
            try:
                arena = await self.load(arena_id, [])  # (its header and counts only)
            except ArenaError:
                continue
            ended = now >= arena.settings.ends_ms
            if status == "scheduled" or (status == "finished") == ended:
                found.append(arena)
            if len(found) >= limit:
                break
        return found

    # Entrants.

    async def enter(self, arena_id: str, player: PlayerRecord) -> Arena:
        """Enter the player (or bring them back from a pause)."""
        arena = await self.load(arena_id, [player.player_id])
        settings, now = arena.settings, self.now()
        if now >= settings.closes_ms:
            raise ArenaError("closed", "the arena takes no more entrants")
        rating = rating_of(player, settings.game)
        if player.player_id not in arena.entrants:
            low, high = settings.min_rating, settings.max_rating
            if (low is not None and rating < low) or (high is not None and rating > high):
                raise ArenaError("rating_band", f"the arena is for ratings {low}-{high}")
        _, after = await self.change(
            arena_id,
            _only(player.player_id),
            lambda a: state.join(a, player.player_id, player.name, rating, now),
        )
        await self.pair_now(arena_id)
        return after or arena

    async def pause(self, arena_id: str, player_id: str, paused: bool) -> Arena:
        arena = await self.load(arena_id, [player_id])
        if player_id not in arena.entrants:
            raise ArenaError("not_entered", "you are not in this arena")
        now = self.now()
        before, after = await self.change(
            arena_id, _only(player_id), lambda a: state.set_paused(a, player_id, paused, now)
        )
        if not paused:
            await self.pair_now(arena_id)
        return after or before

    async def berserk(self, arena_id: str, player_id: str) -> Arena:
        """The entrant races their race now berserk: refused once it has started (or
        within :data:`~.state.BERSERK_CUTOFF_MS` of its start)."""
        arena = await self.load(arena_id, [player_id])
        entrant = arena.entrants.get(player_id)
        if entrant is None:
            raise ArenaError("not_entered", "you are not in this arena")
        room_id = entrant.room_id
        if room_id is None or room_id.startswith("pending:"):
            raise ArenaError("not_racing", "you have no race to go berserk in")
        row = await self.rooms.load(room_id)
        start = row.starts_at
        if row.status not in (RoomStatus.WAITING, RoomStatus.COUNTDOWN) or (
            start is not None and self.now() >= start - state.BERSERK_CUTOFF_MS
        ):
            raise ArenaError("too_late", "berserk is chosen before the race starts")
        before, after = await self.change(
            arena_id, _only(player_id), lambda a: state.go_berserk(a, player_id, room_id)
        )
        return after or before

    async def berserk_of(self, arena_id: str, room_id: str) -> frozenset[str]:
        """The racers of ``room_id`` who went berserk (:mod:`stalactites.rooms.berserk`)."""
        row = await self.rooms.load(room_id)
        arena = await self.load(arena_id, [seat.player_id for seat in row.players])
        return frozenset(e.player_id for e in arena.entrants.values() if room_id in e.berserk)

    # Pairing.

    async def pair_now(self, arena_id: str) -> None:
        """Pair the arena's free entrants now, one pass at a time here and across processes
        (the arena's pairing lock): a call while a pass runs here asks for one more; a pass
        that made pairings is followed by another (more may have come free meanwhile)."""
        if arena_id in self._pairing:
            self._again.add(arena_id)
            return
        self._pairing.add(arena_id)
        try:
            for attempt in range(PASSES):
                self._again.discard(arena_id)
                if not await self.store.lock(arena_id, self._owner, LOCK_MS):
                    if attempt >= LOCK_TRIES:
                        return  # (the process pairing it will see these entrants, or the
                    await asyncio.sleep(LOCK_WAIT_S)  # next second's pass here will)
                    continue
                try:
                    after, made, lone = await self._pair_pass(arena_id)
                finally:
                    await self.store.unlock(arena_id, self._owner)
                # (the pairings are stored: their rooms are made without the lock)
                await asyncio.gather(*(self._make_room(after, m, ps) for m, ps in made))
                for player_id in lone:
                    await self._race_ghost(arena_id, player_id)
                if not made and arena_id not in self._again:
                    return
        finally:
            self._pairing.discard(arena_id)

    async def _pair_pass(
        self, arena_id: str
    ) -> tuple[Arena, list[tuple[str, list[str]]], list[str]]:
        """Pair the arena's free entrants with an arena socket open (anywhere); pairings
        whose rooms were never made are undone first.  The arena, the pairings made (their
        rooms to make), and the entrants left alone long enough to race a ghost."""
        now = self.now()
        present = await self.store.present(arena_id, now)
        ids = [secrets.token_hex(4) for _ in range(64)]
        read: dict[str, set[str]] = {}

        async def entrants() -> list[str]:
            free = await self.store.free(arena_id)
            read["free"] = set(free)
            pending = (await self.store.read(arena_id, []) or _NO_PARTS).pending
            stale = [
                player
                for document in pending.values()
                for player in Pending.model_validate_json(document).players
            ]
            return [*free, *stale]

        def compute(arena: Arena) -> Arena | None:
            changed = arena
            for match_id, pending in arena.pending.items():
                if pending.made_ms < now - PENDING_MS and all(
                    p in arena.entrants for p in pending.players
                ):
                    changed = state.unseat(changed, match_id, now) or changed
            racing = bool(present - read.get("free", set()))  # (present, not free: racing)
            paired = state.pair(changed, now, ids, present, racing)
            if paired is None:
                return None if changed is arena else changed
            return paired[0]

        before, after = await self.change(arena_id, entrants, compute)
        lone = state.lone(after or before, now, present)
        if after is None:
            return before, [], lone
        made = [
            (match_id, pending.players)
            for match_id, pending in after.pending.items()
            if match_id not in before.pending
        ]
        return after, made, lone

    async def _make_room(self, arena: Arena, match_id: str, players: list[str]) -> None:
        settings = arena.settings
        seated = [(player_id, arena.entrants[player_id].name) for player_id in players]
        try:
            room_id, tokens, _ = await self.matchmaker.open_race(
                settings.game,
                settings.step,
                seated,
                settings.rated,
                "",
                settings.time_limit_s,
                arena=arena.arena_id,
            )
        except Exception:
            log.exception("arena %s: a room was not made; its pairing is undone", arena.arena_id)
            await self.change(
                arena.arena_id, _some(players), lambda a: state.unseat(a, match_id, self.now())
            )
            return
        await self._seat(arena.arena_id, match_id, room_id, tokens)

    async def _seat(
        self, arena_id: str, match_id: str, room_id: str, tokens: dict[str, str]
    ) -> None:
        """A pending pairing's room is made: its racers are seated there, and told."""
        players = list(tokens)
        await self.change(
            arena_id, _some(players), lambda a: state.seat(a, match_id, room_id, tokens)
        )
        for player_id, token in tokens.items():
            frame = {"type": "paired", "arena_id": arena_id, "room_id": room_id, "token": token}
            await self.publish(player_id, f"arena:{arena_id}|{json.dumps(frame)}")

    async def _race_ghost(self, arena_id: str, player_id: str) -> None:
        """A lone entrant races a ghost of another entrant's run in this arena (none yet:
        they wait :data:`~.state.GHOST_AFTER_MS` more)."""
        match_id = secrets.token_hex(4)
        now = self.now()
        _, pended = await self.change(
            arena_id, _only(player_id), lambda a: state.pend(a, player_id, match_id, now)
        )
        if pended is None:  # (no longer free)
            return
        made = None
        try:
            made = await self._ghost_room(arena_id, player_id)
        except Exception:
            log.exception("arena %s: a ghost race was not made", arena_id)
        if made is None:
            await self.change(
                arena_id, _only(player_id), lambda a: state.unseat(a, match_id, self.now())
            )
            return
        await self._seat(arena_id, match_id, made[0], {player_id: made[1]})

    async def _ghost_room(self, arena_id: str, player_id: str) -> tuple[str, str] | None:
        """A ghost race's room and the racer's token: the latest run of the entrant nearest
        them (by score, then rating) on a deal they have not raced; None if there is none."""
        arena = await self.load(arena_id)  # (every entrant: whose runs to race)
        me = arena.entrants[player_id]
        others = sorted(
            (e for e in arena.entrants.values() if e.player_id != player_id and e.runs),
            key=lambda e: (abs(e.score - me.score), abs(e.rating - me.rating)),
        )
        for other in others:
            for room_id in reversed(other.runs):
                try:
                    row = await self.rooms.load(room_id)
                    if any(seat.player_id == player_id for seat in row.players):
                        continue  # (a deal they know)
                    matched = await self.ghosts.race_this_run(
                        room_id, other.player_id, player_id, raced_only=True, arena=arena.arena_id
                    )
                except RoomError:
                    continue  # (gone, held, or not a run that raced)
                await self.rooms.ready(matched.room_id, player_id)  # (starts without a click)
                return matched.room_id, matched.token
        return None

    # Races ending.

    async def _arena_of(self, room_id: str) -> str | None:
        """The arena whose race ``room_id`` is (None: no arena's, or no room)."""
        try:
            return (await self.rooms.settings(room_id)).arena
        except RoomError:
            return None

    async def race_over(self, room_id: str) -> None:
        """An arena race has ended here (the rooms' finish listener): its racers are free
        and paired again at once, their points to follow (:meth:`record_room`)."""
        arena_id = await self._arena_of(room_id)
        if arena_id is None:
            return
        players = [seat.player_id for seat in (await self.rooms.load(room_id)).players]
        now = self.now()
        present = await self.store.present(arena_id, now)
        await self.change(
            arena_id, _some(players), lambda a: state.race_over(a, room_id, players, now, present)
        )
        await self.pair_now(arena_id)

    # Scoring.

    async def record_room(self, room_id: str) -> None:
        """Score a finished arena race, once (an effect of the results log), then pair its
        racers again."""
        try:
            settings = await self.rooms.settings(room_id)
        except RoomError:
            return
        if settings.arena is None:
            return
        row = await self.rooms.load(room_id)
        if row.results_json is None:
            return
        lines = [Standing.model_validate(data) for data in json.loads(row.results_json)]
        racers = [line.player_id for line in lines]
        ghost = settings.ghost
        sources = {} if ghost is None else {ghost.seat_id: ghost.source_player_id}
        arena = await self.load(settings.arena, [*racers, *sources.values()])
        ratings = {
            line.player_id: arena.entrants[entrant].rating
            for line in lines
            if (entrant := sources.get(line.player_id, line.player_id)) in arena.entrants
        }
        outcomes = []
        for line in lines:
            others = [
                ratings[o.player_id]
                for o in lines
                if o.player_id != line.player_id and o.player_id in ratings
            ]
            outcomes.append(
                ArenaOutcome(
                    player_id=line.player_id,
                    place=line.place,
                    won=line.place == 1 and line.status != "resigned",
                    cleared=line.status == "won",
                    resigned_early=line.status == "resigned"
                    and line.elapsed_ms < state.QUICK_LOSS_MS,
                    held=await self.held(line.player_id, room_id),
                    ghost=ghost is not None,
                    opponents_rating=sum(others),
                    opponents=len(others),
                )
            )
        now = self.now()
        present = await self.store.present(settings.arena, now)
        await self.change(
            settings.arena,
            _some(racers),
            lambda a: state.score(a, room_id, outcomes, now, present),
            room_id,
        )
        await self.pair_now(settings.arena)

    async def cleared(self, player_id: str, room_id: str) -> None:
        """Fair play cleared the player's held run in ``room_id``: if it was an arena's race,
        the points it earned count now (once)."""
        arena_id = await self._arena_of(room_id)
        if arena_id is None:
            return
        try:
            await self.change(
                arena_id, _only(player_id), lambda a: state.release(a, player_id, room_id)
            )
        except ArenaError as error:
            if error.code != "not_found":  # (the arena is gone: nothing to count)
                raise


_NO_PARTS = ArenaParts("", 0, 0, {}, {}, False)


def _some(player_ids: list[str]) -> Callable[[], Awaitable[list[str]]]:
    async def named() -> list[str]:
        return player_ids

    return named


def _only(player_id: str) -> Callable[[], Awaitable[list[str]]]:
    return _some([player_id])


def _diff(parts: ArenaParts, before: Arena, after: Arena) -> ArenaChange:
    """What ``after`` changed of ``before`` (read as ``parts``), for the store to apply."""
    change = ArenaChange()
    for player_id, entrant in after.entrants.items():
        old = before.entrants.get(player_id)
        if old == entrant:
            continue
        change.entrants[player_id] = (parts.entrants.get(player_id), entrant.model_dump_json())
        if entrant.free_since is not None and (old is None or old.free_since != entrant.free_since):
            change.free[player_id] = entrant.free_since
        elif entrant.free_since is None and old is not None and old.free_since is not None:
            change.busy.append(player_id)
    change.pending = {
        match: pending.model_dump_json()
        for match, pending in after.pending.items()
        if match not in before.pending
    }
    change.settled = [match for match in before.pending if match not in after.pending]
    new_scored = [room for room in after.scored if room not in before.scored]
    change.scored = new_scored[0] if new_scored else None
    change.rooms = after.rooms - before.rooms
    return change
