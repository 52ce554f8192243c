"""The players' service: accounts, sessions, names, profiles, histories and leaderboards.

No HTTP here: the web layer turns each method's answer into a response and each
:class:`~.errors.PlayerError` into its code.  Password hashing runs in worker threads, a few
at a time (:mod:`.hashing`), so a sign-in never holds the event loop.  An anonymous player
expires ``anonymous_idle_ms`` after its last session's use (touched at most once an hour),
until its first race or its registration keeps it for good.  See :mod:`.recording` for
:meth:`record_race`, :mod:`.recovery` for recovery codes.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..clock import Clock
from ..engine.variants import GAMES
from ..store.players.base import (
    BoardLine,
    Claim,
    PlayerRecord,
    PlayerStore,
    Rating,
    Stats,
)
from . import deletion, recording, refunds
from .errors import (
    AlreadyRegistered,
    BadCredentials,
    BadGame,
    BadLimit,
    NameTaken,
    PlayerNotFound,
    RenameTooSoon,
    UsernameTaken,
)
from .hashing import HASHING_AT_ONCE, Hashing
from .names import (
    DELETED_NAME,
    check_display_name,
    check_username,
    generated_name,
    is_username,
    skeleton,
    username_key,
)
from .pages import BOARD_PAGE_TTL_MS, RecentPages
from .passwords import PASSWORD_MAX, Passwords, check_password
from .races import (
    HistoryEntry,
    RaceOutcome,
    RaceResult,
    decode_cursor,
    encode_cursor,
    history_entry,
)
from .ratings import displayed, provisional
from .recovery import Recovery
from .sessions import ANONYMOUS_IDLE_DAYS, SESSION_DAYS, new_token, parse_token, token_hash

__all__ = [
    "DAY_MS",
    "BoardEntry",
    "HistoryPage",
    "NewSession",
    "PlayerService",
    "Profile",
    "RatingView",
]

DAY_MS = 86_400_000
TOUCH_EVERY_MS = 3_600_000  # an anonymous player's expiry is moved on at most this often
PAGE_MAX = 100  # entries on a history or leaderboard page
OFFSET_MAX = 100_000
PLAYER_ID = re.compile(r"p\.[0-9a-f]{16}")
NOBODY = "p.none"  # a player id that is never given


@dataclass(frozen=True, slots=True)
class NewSession:
    player_id: str
    name: str
    token: str  # the only time it is seen: the store keeps its hash


@dataclass(frozen=True, slots=True)
class RatingView:
    rating: int
    races: int
    provisional: bool


@dataclass(frozen=True, slots=True)
class Profile:
    player_id: str
    name: str
    registered: bool
    username: str | None
    member_since: int  # unix ms
    ratings: dict[str, RatingView]  # every game
    stats: dict[str, Stats]  # by "GAME:STEP"


@dataclass(frozen=True, slots=True)
class HistoryPage:
    races: list[HistoryEntry]
    next: str | None  # the cursor of the next page (``before``), None at the end


BoardEntry = BoardLine  # a leaderboard page's line: rank, player id, name, rating, races


class PlayerService:
    def __init__(
        self,
        store: PlayerStore,
        clock: Clock,
        passwords: Passwords | None = None,
        rename_every_ms: int = DAY_MS,
        session_ms: int = SESSION_DAYS * DAY_MS,
        board_page_ttl_ms: int = BOARD_PAGE_TTL_MS,
        anonymous_idle_ms: int = ANONYMOUS_IDLE_DAYS * DAY_MS,
        hashing_at_once: int = HASHING_AT_ONCE,
    ) -> None:
        self.store = store
        self._clock = clock
        self._passwords = passwords or Passwords()
        self.hashing = Hashing(hashing_at_once)  # this process's password work, queued
        self.recovery = Recovery(store, self.hashing, self._passwords)
        self._idle_ms = anonymous_idle_ms
        self._rename_every_ms = rename_every_ms
        self._session_ms = session_ms
        self._pages: RecentPages[BoardEntry] = RecentPages(clock, board_page_ttl_ms)
        self.deletions: list[Callable[[str], None]] = []  # told of each player deleted here
        self.board_of: recording.BoardOf = recording.humans_board  # fair play's (set later)

    # identity and sessions

    async def create_anonymous(self) -> NewSession:
        """A new player with a generated name, and its first session; it expires (its name
        claimed as long) unless used again, until it races or registers."""
        player_id, idle = "p." + secrets.token_hex(8), self._idle_ms
        for _ in range(20):
            name = generated_name()
            if await self.store.claim_name(skeleton(name), player_id, idle) is not Claim.TAKEN:
                break
        else:  # twenty names in use: the space is 10^8, so this is a broken store
            raise RuntimeError("no generated name was free")
        now = self._clock.now_ms()
        record = PlayerRecord(player_id, name, now, expires_ms=now + idle)
        await self.store.create_player(record, skeleton(name))
        return await self._new_session(player_id, name)

    async def register(
        self, player_id: str, username: object, password: object, codes: Sequence[str] = ()
    ) -> PlayerRecord:
        """Make the (anonymous) player an account, keeping its ratings and history, with
        these recovery ``codes`` (:func:`.recovery.new_codes`), in one step."""
        name, secret = check_username(username), check_password(password)
        record = await self._player(player_id)
        if record.registered:
            raise AlreadyRegistered("this player has an account already")
        key = username_key(name)
        owner = await self.store.claim_username(key, player_id, None)
        if owner != player_id and await self.store.load_player(owner) is None:
            owner = await self.store.claim_username(key, player_id, owner)  # a deleted owner's
        if owner != player_id:
            raise UsernameTaken(f"{name!r} is taken")
        hashed = await self.hashing.run(self._passwords.hash, secret)
        answer = await self.store.register(
            player_id, name, hashed, await self.recovery.hashed(codes) if codes else None
        )
        if answer != "registered":
            await self.store.release_username(key, player_id)
            if answer == "already_registered":
                raise AlreadyRegistered("this player has an account already")
            raise PlayerNotFound(player_id)
        await self.sync_boards(player_id, tuple(record.ratings))
        self._pages.changed()
        return await self._player(player_id)

    async def sign_in(self, username: object, password: object) -> NewSession:
        """A new session of the account; :class:`BadCredentials` (after the same work) for a
        wrong password, an unknown username or one that is not even well-formed."""
        record = await self._account(username)
        secret = password[:PASSWORD_MAX] if isinstance(password, str) else ""
        stored = record.password_hash if record else None
        verdict = await self.hashing.run(self._passwords.verify, stored, secret)
        if record is None or not verdict.right:
            raise BadCredentials("wrong username or password")
        if verdict.rehashed is not None:
            await self.store.set_password_hash(record.player_id, verdict.rehashed)
        return await self._new_session(record.player_id, record.name)

    async def recover(self, username: object, code: object, password: object) -> NewSession:
        """A recovery code of the account used (:mod:`.recovery`): its password is
        ``password`` now, every session of it ended, and a new session is its only one."""
        record = await self._account(username)
        await self.recovery.use(record, code, password)
        assert record is not None  # (else refused)
        return await self._new_session(record.player_id, record.name)

    async def resolve(self, token: object) -> PlayerRecord | None:
        """The player whose live session ``token`` is, or None; an anonymous player's expiry
        moves on (at most once an hour)."""
        player_id = parse_token(token)
        if player_id is None or not isinstance(token, str):
            return None
        now = self._clock.now_ms()
        if not await self.store.session_alive(player_id, token_hash(token), now):
            return None
        record = await self.store.load_player(player_id)
        expires = None if record is None else record.expires_ms
        if expires is not None and expires - now < self._idle_ms - TOUCH_EVERY_MS:
            await self.store.touch_player(player_id, now, self._idle_ms)
        return record

    async def sign_out(self, token: object, everywhere: bool = False) -> None:
        """End this session (or, with ``everywhere``, every session of its player)."""
        player = await self.resolve(token)
        if player is None or not isinstance(token, str):
            return
        if everywhere:
            await self.store.revoke_sessions(player.player_id)
        else:
            await self.store.revoke_session(player.player_id, token_hash(token))

    async def rename(self, player_id: str, name: object) -> PlayerRecord:
        """A new display name, at most once a day (:class:`RenameTooSoon` says when).

        As generated names are, a name is given once: its skeleton (so "ann", "Ann" and
        Cyrillic "аnn" alike) is claimed for good, and a name whose skeleton was ever given,
        generated or chosen, is :class:`NameTaken` (but a player may respell their own).
        The day is checked before the claim (a refused rename claims nothing) and again,
        atomically, with the rename itself; a rename refused there (another rename of the
        player's won the day meanwhile) gives up the name it claimed, unless it is the name
        the player has now."""
        clean = check_display_name(name)
        record = await self._player(player_id)
        now, every = self._clock.now_ms(), self._rename_every_ms
        if record.renamed_ms is not None and now < record.renamed_ms + every:
            raise RenameTooSoon(record.renamed_ms + every)
        key = skeleton(clean)
        expiring = record.expires_ms is not None  # (an anonymous player's claim expires too)
        claim = Claim.THEIRS
        if key != skeleton(record.name):  # "braveotter12" for "BraveOtter12": theirs
            claim = await self.store.claim_name(key, player_id, self._idle_ms if expiring else None)
        if claim is Claim.TAKEN:
            raise NameTaken(f"{clean!r} is taken (or confusable with a name given before)")
        now = self._clock.now_ms()
        try:
            retry_at = await self.store.rename(player_id, clean, now, every, key)
        except KeyError:
            raise PlayerNotFound(player_id) from None
        renamed = await self._player(player_id)
        if retry_at is not None:
            if claim is Claim.NEW and skeleton(renamed.name) != key:
                await self.store.release_name(key, player_id)
            raise RenameTooSoon(retry_at)
        if expiring and renamed.expires_ms is None:  # kept (it raced) meanwhile: the name too
            await self.store.keep_name(key, player_id)
        elif expiring:  # the new name's claim expires with the player, from now
            await self.store.touch_player(player_id, now, self._idle_ms)
        await self.sync_boards(player_id, tuple(renamed.ratings))
        self._pages.changed()
        return renamed

    async def delete(self, player_id: str) -> None:
        """Delete the account (see :func:`.deletion.delete_player`)."""
        deleted = await deletion.delete_player(self.store, player_id)
        self._pages.changed()
        for told in self.deletions:  # (the rooms' views: web/process.py)
            told(player_id)
        if not deleted:
            raise PlayerNotFound(player_id)

    # reading

    async def profile(self, who: str) -> Profile:
        """By player id or by username; :class:`PlayerNotFound`."""
        record = await self._find(who)
        ratings = {game: _view(record.ratings.get(game, Rating())) for game in sorted(GAMES)}
        stats = {key: record.stats[key] for key in sorted(record.stats)}
        return Profile(
            record.player_id,
            record.name,
            record.registered,
            record.username,
            record.created_ms,
            ratings,
            stats,
        )

    async def history(self, player_id: str, limit: int = 20, before: object = None) -> HistoryPage:
        """The player's finished races, newest first, ``limit`` a page."""
        _check_limit(limit)
        mark = None if before is None else decode_cursor(before)
        if PLAYER_ID.fullmatch(player_id) is None:
            raise PlayerNotFound(player_id)
        found = await self.store.history(player_id, mark, limit)  # one script on Redis
        if found is None:
            raise PlayerNotFound(player_id)
        page, more = found
        races = [history_entry(mark, stored) for mark, stored in page if stored]
        return HistoryPage(races, encode_cursor(page[-1][0]) if more and page else None)

    async def leaderboard(
        self, game: str, limit: int = 50, offset: int = 0, board: str = ""
    ) -> list[BoardEntry]:
        """The game's registered, non-provisional players by rating, from place ``offset + 1``
        (``board`` "bots": the bots' own board)."""
        if game not in GAMES:
            raise BadGame(f"not a game: {game!r}")
        _check_limit(limit)
        if not isinstance(offset, int) or not 0 <= offset <= OFFSET_MAX:
            raise BadLimit(f"an offset is 0-{OFFSET_MAX}, not {offset!r}")
        key, generation = (recording.board_key(game, board), offset, limit), self._pages.generation
        kept = self._pages.get(key)  # read here less than a second ago (.pages)
        if kept is not None:
            return kept
        lines = await self.store.board_page(key[0], offset, limit)  # (no deleted player's:
        if any(line.name is None for line in lines):  # a deletion takes its lines off first,
            lines = await self._filled(game, lines)  # see .deletion)
        self._pages.put(key, lines, generation)
        return lines

    async def _filled(self, game: str, lines: list[BoardLine]) -> list[BoardLine]:
        """The page with each line stored before lines showed anything told by its player's
        record (and left out if its player is gone)."""
        filled = []
        for line in lines:
            if line.name is None:
                record = await self.store.load_player(line.player_id)
                if record is None:
                    continue
                rating = record.ratings.get(game, Rating())
                shown = (record.name, displayed(rating), rating.races)
                line = BoardLine(line.rank, line.player_id, *shown)
            filled.append(line)
        return filled

    async def leaderboard_around(
        self, game: str, player_id: str, limit: int = 11, board: str = ""
    ) -> list[BoardEntry]:
        """A page of the board with the player in its middle (empty if not on the board)."""
        if game not in GAMES:
            raise BadGame(f"not a game: {game!r}")
        _check_limit(limit)
        rank = await self.store.board_rank(recording.board_key(game, board), player_id)
        if rank is None:
            return []
        return await self.leaderboard(game, limit, max(0, rank - limit // 2), board)

    async def names_of(self, player_ids: list[str]) -> dict[str, str]:
        """Each player's name now, "deleted player" for one deleted."""
        records = await asyncio.gather(*(self.store.load_player(pid) for pid in player_ids))
        return {
            pid: record.name if record else DELETED_NAME
            for pid, record in zip(player_ids, records, strict=True)
        }

    # races

    async def record_race(self, result: RaceResult) -> RaceOutcome:
        """Apply a finished race to its players, exactly once (see :mod:`.recording`)."""
        try:
            return await recording.record_race(self.store, result, self.board_of)
        finally:
            self._pages.changed()

    async def sync_boards(self, player_id: str, games: tuple[str, ...] = tuple(GAMES)) -> None:
        """Set the player's leaderboard lines from their record and fair play's say now."""
        await recording.sync_boards(self.store, player_id, games, self.board_of)
        self._pages.changed()

    async def refund_opponents(self, marked_id: str) -> dict[str, int]:
        """Give back rating the marked player's opponents lost to them (:mod:`.refunds`);
        the points given now, by player."""
        given = await refunds.refund_opponents(self.store, marked_id, self._clock.now_ms())
        for player_id in given:
            await self.sync_boards(player_id)
        return given

    async def claim_race(self, result: RaceResult) -> RaceOutcome:
        """The race pending, its outcome fixed, not applied yet (:func:`.recording.claim`)."""
        return await recording.claim(self.store, result)

    async def resume_pending(self) -> int:
        try:
            return await recording.resume_pending(self.store, board_of=self.board_of)
        finally:
            self._pages.changed()

    # helpers

    async def _new_session(self, player_id: str, name: str) -> NewSession:
        token = new_token(player_id)
        now = self._clock.now_ms()
        if not await self.store.add_session(
            player_id, token_hash(token), now + self._session_ms, now
        ):
            raise PlayerNotFound(player_id)
        return NewSession(player_id, name, token)

    async def _account(self, username: object) -> PlayerRecord | None:
        """The account of the username (None: none), after the same reads either way."""
        if not is_username(username):
            return None
        key = username_key(username)
        owner = await self.store.find_username(key)
        record = await self.store.load_player(owner or NOBODY)
        if record is not None and username_key(record.username or "") != key:
            return None
        return record

    async def _player(self, player_id: str) -> PlayerRecord:
        if PLAYER_ID.fullmatch(player_id) is None:  # (from a URL: not even looked up)
            raise PlayerNotFound(player_id)
        record = await self.store.load_player(player_id)
        if record is None:
            raise PlayerNotFound(player_id)
        return record

    async def _find(self, who: str) -> PlayerRecord:
        if PLAYER_ID.fullmatch(who):
            return await self._player(who)
        if not is_username(who):
            raise PlayerNotFound(who)
        owner = await self.store.find_username(username_key(who))
        if owner is None:
            raise PlayerNotFound(who)
        return await self._player(owner)


def _view(rating: Rating) -> RatingView:
    return RatingView(displayed(rating), rating.races, provisional(rating))


def _check_limit(limit: object) -> None:
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= PAGE_MAX:
        raise BadLimit(f"a limit is 1-{PAGE_MAX}, not {limit!r}")
