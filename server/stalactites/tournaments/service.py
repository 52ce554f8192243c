"""Tournaments from creation to final standings: entering, starting, rounds, standings.

Every change is one atomic store step.  The round transitions are made by
:meth:`TournamentService.advance`, which any process may call at any time:
it looks at the stored tournament and the round's room, does what is due
(begin a round, end one), and says when the tournament is next due.  The
store's compare-and-set lets one caller make each transition; the
scheduler (:mod:`.scheduler`) makes sure someone calls it on time.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Awaitable, Callable

from ..clock import Clock
from ..config import ServerConfig
from ..players.races import RoundOf
from ..protocol.room import RoomStatus, Standing
from ..protocol.tournament import (
    StandingsFrame,
    TournamentCreated,
    TournamentEntry,
    TournamentListing,
    TournamentView,
    TournamentWelcome,
)
from ..rooms import RoomService
from ..rooms.deals import ChosenDeal
from ..store.tournaments.base import (
    EnterResult,
    NewEntrant,
    NewTournament,
    StartResult,
    TournamentRow,
    TournamentStore,
    Transition,
)
from .errors import TournamentError
from .points import Total, score, totals
from .rounds import (
    live_lines,
    open_round_room,
    room_results,
    round_room_id,
    round_settings,
)
from .settings import CreateTournament, TournamentSettings
from .steps import begins_now, empty_end, finished_lines, names, next_due, round_begun, round_ended
from .views import (
    line_json,
    standing_rows,
    standings_of,
    tournament_listing,
    tournament_view,
)

__all__ = ["DealPicker", "EventSink", "TournamentService", "token_hash"]

TOURNAMENT_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
MAX_AHEAD_MS = 30 * 86_400_000  # starts_at at most 30 days ahead
OVERDUE_MS = 5_000  # a deadline this far past is surely not in the due index

DealPicker = Callable[[str, str | None], Awaitable[ChosenDeal]]
EventSink = Callable[[str, list[tuple[int, str]]], None]
"""Told of tournament events this process just stored (tournament id, [(seq, event)])."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class TournamentService:
    def __init__(
        self,
        store: TournamentStore,
        rooms: RoomService,
        config: ServerConfig,
        clock: Clock,
        pick: DealPicker | None = None,
    ) -> None:
        self.store = store
        self.rooms = rooms
        self.config = config
        self.clock = clock
        self._pick = rooms.pick_deal if pick is None else pick
        self._sinks: list[EventSink] = []

    def add_sink(self, sink: EventSink) -> None:
        self._sinks.append(sink)

    def now(self) -> int:
        return self.clock.now_ms()

    def ttl_ms(self, starts_at: int | None = None) -> int:
        """Keys live this long after the last change (longer while waiting for ``starts_at``)."""
        wait = 0 if starts_at is None else max(starts_at - self.now(), 0)
        return self.config.room_ttl_s * 1000 + wait

    # Creating, entering, starting.

    async def create(self, body: CreateTournament) -> TournamentCreated:
        now = self.now()
        if body.starts_at is not None and not now <= body.starts_at <= now + MAX_AHEAD_MS:
            raise TournamentError(
                "bad_message", "starts_at: must be from now to 30 days ahead", "starts_at"
            )
        settings = TournamentSettings.resolve(body)
        tournament_id, admin_token = secrets.token_urlsafe(9), secrets.token_urlsafe(32)
        new = NewTournament(
            tournament_id, settings.model_dump_json(), token_hash(admin_token), body.starts_at, now
        )
        await self.store.create(new, self.ttl_ms(body.starts_at))
        return TournamentCreated(tournament_id=tournament_id, admin_token=admin_token)

    async def enter(
        self, tournament_id: str, name: str, owner: str | None = None
    ) -> TournamentEntry:
        """A new entrant: a guest (a random id), or the player ``owner`` (a player id, from a
        session), whose every round is then their own seat and in their history."""
        row = await self.load(tournament_id)
        settings = TournamentSettings.model_validate_json(row.settings_json)
        player_id = secrets.token_hex(8) if owner is None else owner
        token = secrets.token_urlsafe(32)
        zero = Total(player_id, name)
        entrant = NewEntrant(player_id, name, token_hash(token), line_json(zero), score(zero))
        result = await self.store.enter(
            tournament_id, entrant, settings.max_players, self.ttl_ms(row.starts_at)
        )
        if result is EnterResult.NOT_FOUND:
            raise TournamentError("tournament_not_found", f"no tournament {tournament_id!r}")
        if result is EnterResult.FULL:
            raise TournamentError("tournament_full", "the tournament has all the players it takes")
        if result is EnterResult.STARTED:
            raise TournamentError("already_started", "the tournament has started: no more entries")
        if result is EnterResult.ALREADY_ENTERED:
            raise TournamentError("already_entered", "you have entered this tournament already")
        return TournamentEntry(player_id=player_id, token=token)

    async def start(self, tournament_id: str, admin_token: str) -> None:
        """The organiser starts the tournament now (its first round begins at once)."""
        row = await self.load(tournament_id)
        if not hmac.compare_digest(row.admin_hash, token_hash(admin_token)):
            raise TournamentError("unauthorized", "this is not the tournament's admin token")
        result = await self.store.request_start(tournament_id, self.now(), self.ttl_ms())
        if result is StartResult.STARTED:
            raise TournamentError("already_started", "the tournament has already started")
        if result is StartResult.NOT_FOUND:
            raise TournamentError("tournament_not_found", f"no tournament {tournament_id!r}")

    # Reading.

    async def load(self, tournament_id: str) -> TournamentRow:
        row = None
        well_formed = TOURNAMENT_ID.fullmatch(tournament_id) is not None
        if well_formed:
            row = await self.store.load(tournament_id)
        if row is None:  # an id that is no tournament id at all is not echoed back
            shown = f" {tournament_id!r}" if well_formed else ""
            raise TournamentError("tournament_not_found", f"no tournament{shown}")
        return row

    async def view(self, tournament_id: str) -> TournamentView:
        row = await self.load(tournament_id)
        await self._overdue(row)
        return tournament_view(row, await self.store.standings(tournament_id))

    async def listing(self, name: str, limit: int) -> list[TournamentListing]:
        """A list of the lobby's (``scheduled``: starting soon; ``running``), newest first."""
        rows = await self.store.list_tournaments(name, limit, self.now())
        for row in rows:
            await self._overdue(row)
        return [tournament_listing(row) for row in rows]

    async def _overdue(self, row: TournamentRow) -> None:
        """A deadline long past that no scheduler has acted on (its process died between
        storing a change and indexing it) is made due now."""
        now = self.now()
        due = next_due(row, now)
        if due is not None and due < now - OVERDUE_MS:
            await self.store.poke(row.tournament_id, now)

    async def authenticate(self, tournament_id: str, token: str) -> str:
        """The entrant whose token this is; every entrant is compared, in constant time."""
        row = await self.load(tournament_id)
        digest, found = token_hash(token), None
        for entrant in row.entrants:
            if hmac.compare_digest(entrant.token_hash, digest):
                found = entrant.player_id
        if found is None:
            raise TournamentError(
                "unauthorized", "this token is not an entrant's in this tournament"
            )
        return found

    async def welcome(
        self, tournament_id: str, you: str | None, last_seq: int | None
    ) -> TournamentWelcome:
        row = await self.load(tournament_id)
        resumed = last_seq is not None and last_seq <= row.seq
        view = tournament_view(row, await self.store.standings(tournament_id))
        seq = last_seq if resumed and last_seq is not None else row.seq
        return TournamentWelcome(type="welcome", you=you, seq=seq, resumed=resumed, tournament=view)

    async def standings_frame(self, tournament_id: str) -> StandingsFrame:
        """The standings now: during a round, live (the round counted as if it ended now)."""
        row = await self.load(tournament_id)
        stored = await self.store.standings(tournament_id)
        frame = StandingsFrame(
            type="standings", round=row.round or None, live=False, standings=standings_of(stored)
        )
        if row.status != "running" or row.room_id is None:
            return frame
        room = await self.rooms.store.load_room(row.room_id, self.now())
        if room is None:
            return frame
        settings = TournamentSettings.model_validate_json(row.settings_json)
        round_ms = settings.round_time_s * 1000
        rounds = [*finished_lines(row, round_ms), live_lines(room, round_ms, self.now())]
        rows = standing_rows(totals(names(row), rounds))
        return frame.model_copy(update={"live": True, "standings": standings_of(rows)})

    # The rounds.

    async def advance(self, tournament_id: str) -> int | None:
        """Do whatever is due now; when the tournament is next due (None: finished or gone)."""
        row = await self.store.load(tournament_id)
        if row is None:
            return None
        now = self.now()
        settings = TournamentSettings.model_validate_json(row.settings_json)
        if row.status == "running":
            await self._settle_round(row, settings)
        elif begins_now(row, now):
            await self._begin_round(row, settings)
        fresh = await self.store.load(tournament_id)
        return None if fresh is None else next_due(fresh, self.now())

    async def _begin_round(self, row: TournamentRow, settings: TournamentSettings) -> None:
        number = row.round + 1
        if not row.entrants:
            await self._transition(row, empty_end(row))  # no one entered
            return
        chosen = await self._deal(settings, number)
        room_id = round_room_id(row.tournament_id, number)
        of = RoundOf(tournament_id=row.tournament_id, name=settings.name, round=number)
        room = round_settings(settings, chosen.deal, chosen.certified, chosen.solution, of)
        starts_at, ends_at = await open_round_room(
            self.rooms.store, self.clock, room_id, room, row.entrants, self.config.room_ttl_s * 1000
        )
        if await self._transition(row, round_begun(row, room_id, room, starts_at, ends_at)):
            # Its start in the store's deadlines only now: a room of a process that lost the
            # transition is never raced (nor recorded), whatever sweeps the deadlines.
            await self.rooms.store.results.due(room_id, starts_at)
            await self.rooms.current(room_id)  # the race is on

    async def _deal(self, settings: TournamentSettings, number: int) -> ChosenDeal:
        if settings.deals is not None:
            return ChosenDeal(settings.deals[number - 1], False, None)
        return await self._pick(settings.game, settings.step)

    async def _transition(self, row: TournamentRow, step: Transition) -> bool:
        """Make the step; when it is made, tell the sinks its events (every transition that
        stores events changes the status, so they follow the snapshot's last one)."""
        if not await self.store.transition(step, self.ttl_ms()):
            return False
        stored = [(row.seq + 1 + index, event) for index, event in enumerate(step.events)]
        for sink in self._sinks:
            sink(row.tournament_id, stored)
        return True

    async def _round_results(self, room_id: str) -> list[Standing] | None:
        """The round room's final standings, its race ended if everyone is done or time is up
        (None while it races).  Few store calls: the end of a big race sends many room events,
        and this process shares the event loop with their sending."""
        room = await self.rooms.load(room_id)
        if room.status == RoomStatus.COUNTDOWN:
            room = await self.rooms.current(room_id)  # the race is due to start
        if room.status != RoomStatus.RACING:
            return room_results(room)
        time_up = room.ends_at is not None and self.now() >= room.ends_at
        if not time_up and any(player.finish is None for player in room.players):
            return None
        standings = await self.rooms.finalize(room_id)
        if standings is None:  # someone else ended it
            standings = room_results(await self.rooms.load(room_id))
        return standings

    async def _settle_round(self, row: TournamentRow, settings: TournamentSettings) -> None:
        """End the round once its room has finished (everyone done, or time up)."""
        assert row.room_id is not None
        room_standings = await self._round_results(row.room_id)
        if room_standings is not None:
            await self._transition(row, round_ended(row, settings, room_standings, self.now()))
