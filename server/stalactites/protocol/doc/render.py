"""Write ``docs/protocol.md`` from the protocol's pydantic models.

    python -m stalactites.protocol.doc docs/protocol.md

The prose around the tables is here too, so that the one file stays the one
source; ``tests/test_protocol_docs.py`` fails when the document is out of date.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, get_args

from pydantic import BaseModel

from ...analysis import models as analysis
from ...ghosts.runs import RaceRun
from ...rooms.rematch import ProposeRematch
from ...rooms.settings import AskHint, CreateRoom, TakeSeat
from .. import codes
from .. import room as p
from . import arenas as arenas_protocol_doc
from . import daily as daily_protocol_doc
from . import friends as friends_protocol_doc
from . import match as match_protocol_doc
from . import tournament as tournament_protocol_doc

__all__ = ["main", "render"]

BODY_MODELS: list[type[BaseModel]] = [CreateRoom, TakeSeat, AskHint, RaceRun, ProposeRematch]
CLIENT_MODELS: list[type[BaseModel]] = [
    p.Hello,
    p.Ready,
    p.MoveFrame,
    p.DeclareStep,
    p.Undo,
    p.Resign,
    p.Ping,
]
SERVER_MODELS: list[type[BaseModel]] = [
    p.Welcome,
    p.PlayerEvent,
    p.Presence,
    p.Spectators,
    p.Countdown,
    p.Started,
    p.Accepted,
    p.Rejected,
    p.Synced,
    p.Progress,
    p.ProgressBatch,
    p.Finished,
    p.Results,
    p.RematchEvent,
    p.BoardEvent,
    p.BoardVerdict,
    p.ErrorFrame,
    p.Pong,
]
OBJECT_MODELS: list[type[BaseModel]] = [
    p.RoomView,
    p.RoundOfView,
    p.PlayerView,
    p.Standing,
    p.StalactitesBoard,
    p.SquadronBoard,
]

ANALYSIS_MODELS: list[type[BaseModel]] = [
    analysis.TimedAction,
    analysis.Analysis,
    analysis.PlayerAnalysis,
    analysis.TurningPoint,
    analysis.FewestMoves,
    analysis.Timeline,
    analysis.RacerTimeline,
]

INTRO = """\
# The race protocol

Generated from `server/stalactites/protocol/` by
`python -m stalactites.protocol.doc docs/protocol.md`; do not edit by hand.

A client creates or finds a room over HTTP, takes a seat (a secret token), then opens the
room's websocket, says `hello` with its token and races.  Every frame is one JSON object with
a `"type"`.  Frames are parsed strictly: unknown fields, missing fields and wrong JSON types
(`"5"` for `5`) are `bad_message`.  Moves, cards and deal ids use the notation of the rules
(`t3-f1`, `s-w`, `t2-t7:3`; `TD`; `ms:1`, `sr:` and 16 hex digits).

All times are unix milliseconds from the server's clock, which rules: a move stored at or
after `ends_at` is refused.

## Running the server

`stalactites serve [--host H] [--port P]` (default 127.0.0.1:8000) prints the URL to open.  It
keeps rooms in memory unless `REDIS_URL` is set (then any number of processes may share one
Redis).  The web client is served at `/` when the repository's `client_web/` folder exists.
"""

HTTP = """\
## HTTP

Errors are JSON `{"code", "message"}` with one of the error codes below; a bad body is 422
`{"code": "bad_message", "message", "field"}` naming the first field at fault.

{routes}

The token is shown once, at joining: keep it.  It is 256 random bits; the server stores only
its SHA-256 hash, and it moves only its own board.

Creating rooms and tournaments (together: a burst of 10, then one every 5 seconds) and taking
seats and tournament entries (a burst of 50, then 5 a second) are limited per client address
and server process; beyond that the answer is 429 `{"code": "rate_limited", "message"}` with
`Retry-After` (seconds).  A body over 16 KiB is 413.  Error messages name the field and the
problem, never the input.
"""

SOCKET = """\
## The websocket `/ws/rooms/{room_id}`

1. The client's first frame is `hello` with its token (and, when reconnecting, `last_seq`:
   the seq of the last room event it has seen).  A bad token, an unknown room, anything but
   `hello` first, or no `hello` within 10 seconds gets an `error` frame, then close 1008.
2. The server answers `welcome`: who you are, the room, your board (null before the start)
   and your legal moves.  Then room events follow, in seq order, each exactly once per
   connection.
3. Everyone sends `ready`.  When every seat is taken and every player is ready, the room
   counts down (`countdown`), then the race starts (`started`, with the initial board, the
   same for everyone).  One seat makes a solo time trial.
4. The client sends `move`, `undo`, `declare_step`; each gets `accepted` or `rejected`, to
   that client only.  `accepted` is sent once the action is durably stored.  Everyone gets
   `progress` after each accepted action, `finished` as each player finishes, and `results`
   at the end.  In a room of up to 8 seats the mover's socket gets its answer first: room
   events that come while its action is in hand (its own `progress` among them) follow it.
5. One token may be used on several sockets at once (two tabs, on any processes): all of
   them work and none is closed.  They stay in step: a player's other sockets get `synced`,
   the player's board after an action accepted on another socket.

### Room events and `seq`

`player`, `spectators`, `countdown`, `started`, `progress`, `finished` and `results` are room
events: each carries `seq`, which goes up by one per event in the room, so a client can tell
if it missed one.  Every room event sets absolute values (a player's card count, not a change
to it), so applying one twice is harmless.

### Spectating

Anyone may watch a room: `{"type": "hello", "spectator": true}` (no token; `last_seq` as for
a player).  The `welcome` has `you` and `state` null and `boards`: every player's board by
player id (empty before the start).  Then the spectator gets every room event, and a `board`
frame (no `seq`) for each action a player has had accepted: the move, undo or step
declaration and the board after it.  `move`, `undo`, `declare_step` from a spectator are
`rejected` with `unauthorized`, `ready` and `resign` get an `error` with `unauthorized`; the
socket stays open.

The deal is the same for everyone, so a live view of the leader's board would let a trailing
racer copy the line.  During the race spectators therefore see each board as it was
`spectator_delay_s` seconds ago (a room setting, 0-300; 30 by default with two or more
seats, 0 for a solo room): a `board` frame is sent that long after its action was accepted
(`at`), and the welcome's boards are those frames' boards so far.  Progress is never delayed
(`progress`, `finished` and the room view's counts are live).  Once the race is over
spectators see everything: the frames not yet sent follow at once, and a later welcome shows
the final boards.  Board frames come from the room's stored actions and their commit times,
so every server process sends the same frames at the same times.

The room view counts the spectators connected (`spectators`).  Players and spectators are
told of a change by the `spectators` room event, at most once a second per room however many
come and go, and not after the race has finished.

### Large rooms

A room with more than 8 seats (only tournaments make them: a round is one room with every
entrant seated) fans out more cheaply, as hundreds of racers each sending every move to
hundreds of sockets would flood them all:

- Instead of `progress`, each connection gets `progress_batch` at most four times a second:
  each player's newest `progress` event since the last batch (latest value wins; the events
  it superseded are never sent).  Its `seq` is the last event it holds, and any other room
  event comes after a batch of the progress before it, so seq order still holds.
- When time runs out, the players still racing get no `finished` each: `results` finishes
  them (their status `timeout` and their place are in its standings).  Players who finish
  before the end still get `finished`.

Rooms of 1-8 seats, the only ones `POST /api/rooms` makes, are as described above.

### Reconnecting

Reconnect and say `hello` with `last_seq`.  If the room's event log still reaches back that
far, the `welcome` has `"resumed": true` and `seq` equal to `last_seq`, and every room event
after it follows.  Otherwise (`"resumed": false`) the `welcome` is fresh: its `seq` is the
room's latest and its `room` the whole picture.  Either way `room`, `state` and `legal` are
current.

A move whose answer was lost can be sent again with the same `id`: if it was accepted, the
answer is the original `accepted` (the board as it was right after that move) and the move is
not applied again.  Ids of rejected moves are not remembered.

### Places and the end

A winner's place is fixed when they win: winners are placed in the order they win (by elapsed
time).  When everyone is done, or time runs out, the others are placed by cards on the
foundations, then by when their foundation count last changed (earlier is better); exact ties
share a place.  Anyone still playing when time runs out finishes with status `timeout`.  A
player who loses (stuck, in a room without undo) or resigns before the end gets `finished`
with place null; every place is in `results`.  In a room with undo, a stuck board is not
finished: undo, or resign.

The deal id and the solver's winning lines are never shown before the race is over: not in
the room view, not in any board (boards carry no deal id); `results` and the room view reveal
them at the end.  From its creation the room publishes a commitment to its deal
(`commitment` in the room view, and so in the creation answer and every `welcome`): the
SHA-256, in lowercase hex, of the UTF-8 text `{deal}|{salt}`, where `salt` is 16 random bytes
from the server (32 lowercase hex digits) kept with the room's settings.  `results`, the room
view once finished and the record reveal `deal` and `salt`, so anyone can check that the deal
was fixed before the race (`stalactites verify`; see `docs/fairness.md`).  A tournament round
publishes its room's commitment in `round_started` and reveals the salt in `round_finished`.

### Limits

These are the server's defaults (see the server's configuration variables).

- Frames over 4096 bytes, binary frames, malformed JSON, unknown types and wrong fields get
  `bad_message`; the sixth bad frame on a connection closes it with 1008.
- Moves, undos and step declarations: a burst of 20, then 20 a second per connection, and a
  burst of 200, then 100 a second from all of one client address's connections to one server
  process; beyond that, `rejected` with `rate_limited`.  A connection that keeps on (50
  refusals within 10 seconds) gets a last `error` with `rate_limited`, then close 1008.
- Frames of any kind: a burst of 200, then 100 a second per connection; beyond that, a last
  `error` with `rate_limited`, then close 1008 (on the tournament socket too).
- A handshake from a web page of another origin than the server's own (or one the server
  lists) is refused with HTTP 403; clients that are not browsers send no `Origin` and are
  not checked.  Frames over 1 MiB close the connection with 1009.
- Each connection has a bounded send queue.  A client that does not read fast enough is
  disconnected (close 1013) and may reconnect with `last_seq`; it never slows anyone else.

### Close codes

{close_codes}
"""

RECORD = """\
### The record

`GET /api/rooms/{room_id}/record` after the end: `{"room_id", "game", "deal", "salt",
"commitment", "step", "undo", "certified", "deal_chosen", "solution", "initial_state",
"players"}`, each
player a [Standing](#standing) plus `"record"`: a game record `{"game", "deal", "step",
"moves"}` that `stalactites replay` checks, and `"actions"`: every action the player played,
undos and step declarations included, each a [TimedAction](#timedaction) with its race-clock
time (records made before actions were timed have none); `stalactites verify` checks the
whole record (the commitment, every record replayed to its standing, the actions replayed to
the record with their times in order, the places).  `initial_state` is
the deal's starting layout, whole: the engine's state (with the deal id) and, for Squadron,
`"stock"`: the stock's cards in order, the last one dealt first.
With it a client can draw every board along every record.

### The analysis

`GET /api/rooms/{room_id}/analysis` after the end: an [Analysis](#analysis), every
player's run (their actions, undos included) judged by the solver.  During the race (and
before it) the answer is 409 `not_finished`: an analysis would be a hint.  It is made once,
in the server's solver worker processes, from the record, and kept beside the record as
long as the room is kept, so every process serves the same one; `stalactites analyse`
prints the same from the record on one's own machine.  A position is `won` when a win can
still be reached from it, `lost` when none can (exact for Stalactites; Squadron's searches
have a budget, and a position they could not decide is `unknown`, never a guess).

{analysis}
### The room lists

`GET /api/rooms?status=waiting` lists the rooms waiting for players (newest first);
`status=racing` the rooms counting down or racing (latest start first).  The answer is
`{"rooms": [RoomView, ...], "next"}`: up to `limit` rooms (1-100, default 20), and `next`, a
cursor to pass as `after` for the next page, or null at the end (a page may hold fewer rooms
than `limit` while `next` is not null).

### Ghost races

A ghost is a recorded run of another player (a seat of a finished room on a certified deal),
replayed by the server (whichever processes live, whether anyone is connected or not) as a live
opponent in a new room on the same deal: each of its actions
is stored at the new race's start plus the action's original race-clock time (the record's
`at_ms`), never before it and within 500 ms after (the tolerance the tests hold it to; on
a quiet machine a few tens of ms, see `bench/ghosts.py`), and a
resigned run resigns at its original time.  To the other racers it is a seat like any: its
[PlayerView](#playerview) and its [Standing](#standing) carry `ghost_of` (the original
player's name: the client shows "ghost of NAME"), it is always `connected` and ready from the
start, its board is never sent during the race (only `progress`, whose `at_ms` is the race
clock's reading), and spectators see its board `spectator_delay_s` behind like anyone's.
Ghost races are never rated; the racer's history entry has `"ghost": {"name", "room_id",
"player_id", "status", "elapsed_ms"}` (whose ghost, its run's room and seat, how and in what
time the original run ended).  `POST /api/rooms/{room_id}/ghost` makes one for a chosen run
("race this run"); the quick-race queue asks the server for one near the player's rating.
"""


ROUTES = [
    ("`GET /healthz`", '200 `{"status": "ok"}`'),
    (
        "`GET /readyz`",
        '200 `{"status": "ok"}` when the store answers, else 503 `{"status": "unavailable"}`',
    ),
    (
        "`POST /api/rooms` with a [CreateRoom](#createroom) body (may be empty)",
        "201 [RoomView](#roomview)",
    ),
    (
        "`POST /api/rooms/{room_id}/players` with a [TakeSeat](#takeseat) body",
        '201 `{"player_id", "token"}`; 404 `room_not_found`; 409 `room_full` (every seat '
        "taken, or the countdown has begun); 409 `seats_reserved` in a tournament round's or "
        "a rematch's room (its seats are its players', seated as it opens); with a "
        "[session](#players): the seat is the player's (its `player_id`), 409 "
        "`already_seated` for a second one; 409 `name_confusable`; 401 `session_required` (a "
        "guest in a rated room)",
    ),
    (
        "`GET /api/rooms?status=waiting\\|racing[&limit=N][&after=CURSOR]`",
        '200 `{"rooms": [RoomView, ...], "next"}` (see [the room lists](#the-room-lists)); '
        "422 naming a bad parameter",
    ),
    ("`GET /api/rooms/{room_id}`", "200 [RoomView](#roomview); 404 `room_not_found`"),
    (
        "`POST /api/rooms/{room_id}/rematch` with a [ProposeRematch](#proposerematch) body",
        '200 `{"room_id"}`, the room\'s one rematch: its players (those of the finished room, '
        "not a ghost) seated in it under the seat ids and tokens they hold, none ready, and no one "
        "else ever (see [rematches](#rematches-and-private-rooms)); 401 `unauthorized` (not a "
        "seat's token); 409 `not_finished`; 404",
    ),
    (
        "`GET /api/rooms/{room_id}/record`",
        "200 the [record](#the-record) once the race has finished; 409 `not_started` before; "
        "404 `room_not_found`",
    ),
    (
        "`GET /api/rooms/{room_id}/analysis`",
        "200 the [analysis](#the-analysis) once the race has finished; 409 `not_finished` "
        "before; 404 `room_not_found`",
    ),
    (
        "`POST /api/rooms/{room_id}/hint` with an [AskHint](#askhint) body (the seat's token)",
        '200 `{"move"}`: the solver\'s next move for that board (notation), null when no line '
        "brings more cards home; searched in a solver worker process with a budget, after any "
        "other solver work waiting (hints run on at most half the workers, and at most 4 per "
        'worker wait).  403 `{"code": "hints_off", "message"}` in a race that counts (rated, a '
        "daily deal's attempt, a tournament round), whatever its seats; 403 "
        "`hint_solo_only` in a room of more than one seat; 401 `unauthorized`; 409 "
        "`not_started` outside the race, `already_finished` for a finished player; 429 "
        "`rate_limited` with `Retry-After` while this seat's last hint is still being searched, "
        "beyond 5 hints at once then one every 2 s per seat (`STALACTITES_HINT_RATE`, "
        "`STALACTITES_HINT_BURST`; per server process), or when the hints' queue is full",
    ),
    (
        "`POST /api/rooms/{room_id}/ghost` with a [RaceRun](#racerun) body and a "
        "[session](#players)",
        '201 `{"room_id", "player_id", "token", "room"}`: a new room on the run\'s deal with '
        "its [ghost](#ghost-races) seated and ready, the caller seated (`token`), `room` its "
        "[RoomView](#roomview); 404 `room_not_found`, `run_not_found` (no such seat, a ghost's "
        "seat, or a record without times); 409 `not_finished`, `own_run`, `not_certified`; 401 "
        "`session_required`; 422 `bad_message`",
    ),
]

PLAYER_ROUTES = [
    (
        "`POST /api/session` with `{}`",
        '201 a new anonymous player and its session `{"player_id", "name", "token"}`, the '
        "token also as the cookie; 429 `rate_limited` with `Retry-After` (new players per "
        "address); 422 `bad_message`",
    ),
    (
        '`POST /api/session` with `{"username", "password"}`',
        "200 a session of the account, the same shape; 401 `bad_credentials` (a wrong "
        "password and an unknown username alike); 429 `rate_limited` with `Retry-After`",
    ),
    (
        "`GET /api/session`",
        '200 `{"player"}`: the signed-in player\'s profile (as `GET /api/me`), or null without '
        "a live session (a stale cookie is cleared): who am I, with no failed request before "
        "a session exists (the web client asks this)",
    ),
    (
        "`DELETE /api/session` (`?everywhere=1`: every session of the player)",
        "204 (also without a session); the cookie is cleared",
    ),
    (
        '`POST /api/accounts` with `{"username", "password"}`, signed in',
        '201 the player\'s profile, now registered, with `"recovery_codes"`: its ten '
        "one-time recovery codes, shown this once; 409 `username_taken`, "
        "`already_registered`; 422 `bad_username` / `bad_password` naming the `field`, "
        "`bad_message`; 429 `rate_limited` with `Retry-After` (registrations per address); 401",
    ),
    (
        '`POST /api/recover` with `{"username", "code", "password"}`',
        "200 a new session, as a sign-in's: the recovery code used up, the password the new "
        "one, every other session of the account ended; 401 `wrong_recovery_code` (a wrong "
        "code, one used already and an unknown username alike); 422 `bad_recovery_code` "
        "(`field` `code`: not the form of a code), `bad_password`, `bad_message`; 429 "
        "`rate_limited` with `Retry-After` (the sign-in limits)",
    ),
    (
        '`GET /api/me/recovery-codes`; `POST` it with `{"password"}` (the current one)',
        '200 `{"left"}`: the account\'s unused codes; a new set of ten in place of the old, '
        '201 `{"recovery_codes"}`, shown this once: 401 `bad_credentials` for a wrong '
        "password, 409 `not_registered` for an anonymous player, 429 `rate_limited` (the "
        "sign-in limits); 401 without a session",
    ),
    ("`GET /api/me`", "200 the signed-in player's profile; 401 `unauthorized`"),
    (
        "`GET /api/me/export`",
        "200 the signed-in player's own data, a JSON file (`Content-Disposition: attachment`): "
        '`{"schema": "stalactites-export/1", "exported_at", "profile", "account", "ratings", '
        '"races", "reports_made", "fair_play"}`, every field in docs/players.md; 429 '
        "`rate_limited` (10 at once, then one a minute per address); 401",
    ),
    (
        "`DELETE /api/me`",
        "204: the account deleted with its sessions, recovery codes and the reports it made "
        "(its races stay on others' histories); 401",
    ),
    (
        '`PATCH /api/me` with `{"name"}`',
        "200 the profile with its new display name (1-20 visible characters), once a day: "
        '429 `rename_too_soon` with `Retry-After` and `"retry_at_ms"` (when, unix ms); 409 '
        "`name_taken`: a name is given once, generated or chosen, and none confusable with one "
        "given before (the same Unicode skeleton; a player may respell their own); 422 "
        "`bad_name` (`field` `name`); 401",
    ),
    (
        '`PATCH /api/me` with `{"bot": true}`',
        '200 the profile, `"bot": true`: the account is a bot for good (docs/bots.md); 409 '
        "`rated_before` once it has raced rated, 409 `not_registered` for an anonymous "
        "player; 422 `bad_message` (`field` `bot`) for anything but true",
    ),
    (
        "`GET /api/players/{player_id or username}`",
        '200 the profile `{"player_id", "name", "registered", "username", "member_since", '
        '"ratings": {GAME: {"rating", "races", "provisional"}}, "stats": {"GAME:STEP": '
        '{"races", "wins", "win_rate", "streak", "best_streak", "best_ms", "median_ms"}}, '
        '"daily_streak", "marked", "bot"}` (`daily_streak`: see [the daily deal](#the-daily-deal); '
        "`marked`: marked by fair play's moderators, docs/fair-play.md; `bot`: a bot, "
        "docs/bots.md); "
        "404 `player_not_found`",
    ),
    (
        "`GET /api/players/{player_id}/races[?limit=N][&before=CURSOR]`",
        '200 `{"races": [{"room_id", "game", "deal", "finished_at", "place", "players", '
        '"status", "elapsed_ms", "foundation_cards", "step", "rated", "rating_before", '
        '"rating_after", "tournament", "ghost", "hints", "refund", "arena"}], "next"}`, '
        'newest first (`tournament`: `{"tournament_id", "name", "round"}` for a tournament '
        "round, else null; `ghost` null unless a [ghost race](#ghost-races); `hints`: the "
        "hints a solo practice run took, else null; `refund`: rating points given "
        "back because the race was against a player marked since (docs/fair-play.md), else "
        "null; `arena`: the arena's id for an arena's race, else null; to the player's own "
        "session only, `under_review`: fair play holds their run "
        "of it), `limit` 1-100 (20); `next` is the next page's "
        "`before` (null at the end); 422 `bad_limit`, `bad_cursor`; 404",
    ),
    (
        "`POST /api/reports` with a session, "
        '`{"player_id", "room_id"?, "reason": "cheating"|"abuse"|"other", "text"?}`',
        '201 `{"report_id"}`; 200 with the same id for the same reporter\'s report of the '
        "same player within 24 h (counted once); 409 `own_report`; 401; 422 `bad_message` "
        "naming the field (`text` up to 500 characters); 404 `player_not_found`; 429 "
        "`rate_limited` (per reporter and per address, a day's worth)",
    ),
    (
        '`GET /api/me/fairplay` with a session; `POST /api/me/appeal` `{"text"}`',
        '200 `{"under_review": [ROOM_ID], "marked", "appeal", "may_appeal"}`: the player\'s '
        "runs held by fair play, shown on no public board until a moderator decides; a marked "
        'player\'s one appeal (up to 1,000 characters): 200 `{"appealed": true}`, 409 '
        "`no_appeal` when not marked or appealed already",
    ),
    (
        "`GET /api/mod/cases`, `POST /api/mod/players/{player_id}` "
        '`{"action": "mark"|"clear", "reason"}`, `GET /api/mod/audit`',
        "moderators only (granted by `stalactites mod grant USERNAME`; anyone else 403 "
        "`forbidden`, 401 without a session): the open cases with their evidence; a decision, "
        '200 `{"player_id", "marked"}` (the same again changes nothing; 404 for no such '
        "player); the decisions, newest first. See docs/fair-play.md",
    ),
    (
        "`GET /api/leaderboards/{game}[?limit=N][&offset=K]` (or `&around=me`; `&bots=1`: "
        "the bots' own board, docs/bots.md)",
        '200 `{"players": [{"rank", "player_id", "name", "rating", "races"}]}`: registered, '
        "non-provisional players by rating, `limit` 1-100 (50); `around=me` a page with the "
        "signed-in player in its middle (empty when not on the board; 401 without a "
        "session); 422 `bad_game`, `bad_limit` (`field` `limit` or `offset`)",
    ),
]

OTHER_CODES = """\
### Other codes over HTTP

The players', friends', arenas' and fair play's HTTP answers carry these codes too (with the
tournament, match, notification and arena sockets' own codes below, they are every code a
client can receive: `stalactites.protocol.codes.error_codes()`)."""

PLAYERS = """### Players

A player who persists (docs/players.md) has a **session**: API clients send
`Authorization: Bearer <token>`; the web client keeps it in the HttpOnly cookie
`stalactites_session` (Path=/, SameSite=Lax, Secure over https), which its scripts cannot
read.  A state-changing request carrying the cookie must have an `Origin` of the server's
own (or one of `STALACTITES_ALLOWED_ORIGINS`): else 403 `bad_origin`; so must any request
with an `Origin` header that is not allowed.  A token is never put in a URL.  Every refusal
is `{"code", "message"}` (422: and `"field"`) and changes nothing.

{routes}

A signed-in player's seat has the player's id as its `player_id`; its room `token` works as
before, and a `hello` may also carry the session (`"token"`: the session token, or
`"session": true` to use the handshake's cookie).  A rated room (`"rated": true`) seats
players with a session only; when its results are final, each player's
[Standing](#standing) has `rated`, `rating_before` and `rating_after` (the shown rating),
the same as their history entries.  Every finished race with a player in it, rated or not,
is in their history, and its room is kept for good.
"""

CLOSE_CODES = [
    ("1000", "normal closure"),
    (
        "1008",
        "refused: a bad hello (token, room, order, timeout), too many bad frames, moves "
        "flooding on after `rate_limited`, or too many frames; do not retry with the same hello",
    ),
    ("1009", "a frame over 1 MiB"),
    ("1011", "the server failed (after an `internal` error frame); reconnect"),
    ("1012", "the server process is restarting; reconnect (another process may answer)"),
    ("1013", "too slow to keep up; reconnect with `last_seq`"),
    ("4408", "a spectator sent nothing, not even `ping`, for too long (`idle`); reconnect"),
]


def _table(head: tuple[str, str], rows: list[tuple[str, str]]) -> str:
    lines = [f"| {head[0]} | {head[1]} |", "| --- | --- |"]
    lines += [f"| {left} | {right} |" for left, right in rows]
    return "\n".join(lines)


def _anchor(name: str) -> str:
    return name.lower()


def _type(schema: dict[str, Any]) -> str:
    """A schema's type in words."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{_anchor(name)})"
    if "const" in schema:
        return f"`{json.dumps(schema['const'])}`"
    if "enum" in schema:
        return " or ".join(f"`{json.dumps(value)}`" for value in schema["enum"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " or ".join(_type(option) for option in schema[key])
    kind = schema.get("type")
    if kind == "array":
        items = _type(schema.get("items", {}))
        return f"list of ({items})" if " or " in items else f"list of {items}"
    if kind == "object":
        values = schema.get("additionalProperties")
        if not isinstance(values, dict):
            return "object"
        return f"(object: string to {_type(values)})"
    names = {"string": "string", "integer": "int", "boolean": "bool", "null": "null"}
    return names.get(str(kind), "any")


def _limits(schema: dict[str, Any]) -> str:
    parts = []
    for option in [schema, *schema.get("anyOf", [])]:
        if "minLength" in option or "maxLength" in option:
            parts.append(f"{option.get('minLength', 0)}-{option.get('maxLength', '')} chars")
        if "minimum" in option:
            parts.append(f">= {option['minimum']}")
        if "maximum" in option:
            parts.append(f"<= {option['maximum']}")
    return ", ".join(parts)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _inline_enums(schema: Any, defs: dict[str, Any]) -> Any:
    """``schema`` with each reference to an enum (a ``StrEnum`` field) replaced by its values,
    written like a ``Literal``'s."""
    if isinstance(schema, list):
        return [_inline_enums(item, defs) for item in schema]
    if not isinstance(schema, dict):
        return schema
    found = defs.get(str(schema.get("$ref", "")).rsplit("/", 1)[-1], {})
    if "enum" in found:
        rest = {key: value for key, value in schema.items() if key != "$ref"}
        return {"enum": found["enum"], "type": found.get("type"), **rest}
    return {key: _inline_enums(value, defs) for key, value in schema.items()}


def _fields(model: type[BaseModel]) -> list[str]:
    schema = model.model_json_schema(ref_template="#/$defs/{model}")
    schema = _inline_enums(schema, schema.get("$defs", {}))
    required = set(schema.get("required", []))
    rows = ["| Field | Type | Required | Notes |", "| --- | --- | --- | --- |"]
    for name, field in schema.get("properties", {}).items():
        notes = [_limits(field), field.get("description", "")]
        if name not in required and "default" in field:
            notes.append(f"default `{json.dumps(field['default'])}`")
        note = "; ".join(part for part in notes if part)
        flag = "yes" if name in required else "no"
        rows.append(f"| `{name}` | {_cell(_type(field))} | {flag} | {_cell(note)} |")
    return rows


def _section(model: type[BaseModel], level: str = "####") -> list[str]:
    field = model.model_fields.get("type")
    tag = get_args(field.annotation)[0] if field is not None else None
    doc = " ".join((model.__doc__ or "").split()).replace("``", "`")
    title = f'<a id="{_anchor(model.__name__)}"></a>`{tag}`' if tag else model.__name__
    lines = [f"{level} {title}", ""]
    if doc:
        lines += [doc, ""]
    return [*lines, *_fields(model), ""]


def _errors() -> list[str]:
    rows = ["## Error codes", "", "| Code | When |", "| --- | --- |"]
    rows += [f"| `{code}` | {_cell(text)} |" for code, text in p.ERROR_CODES.items()]
    rows += ["", OTHER_CODES, "", "| Code | When |", "| --- | --- |"]
    others = codes.HTTP_ERROR_CODES | codes.player_error_codes()
    rows += [f"| `{code}` | {_cell(text)} |" for code, text in others.items()]
    return [*rows, ""]


def render() -> str:
    """The whole document."""
    lines = [INTRO, HTTP.replace("{routes}", _table(("Request", "Answer"), ROUTES))]
    for model in BODY_MODELS:
        lines += _section(model, "###")
    lines.append(PLAYERS.replace("{routes}", _table(("Request", "Answer"), PLAYER_ROUTES)))
    lines.append(SOCKET.replace("{close_codes}", _table(("Code", "Meaning"), CLOSE_CODES)))
    lines += ["### Client frames", ""]
    for model in CLIENT_MODELS:
        lines += _section(model)
    lines += ["### Server frames", ""]
    for model in SERVER_MODELS:
        lines += _section(model)
    lines += ["## Objects", ""]
    for model in OBJECT_MODELS:
        lines += _section(model, "###")
    analysis_sections: list[str] = []
    for model in ANALYSIS_MODELS:
        analysis_sections += _section(model, "####")
    lines.append(RECORD.replace("{analysis}", "\n".join(analysis_sections)))
    lines.append(daily_protocol_doc.render(_table))
    lines += _errors()
    lines.append(tournament_protocol_doc.render(_section, _table))
    lines.append(match_protocol_doc.render(_section, _table))
    lines.append(friends_protocol_doc.render(_section, _table))
    lines.append(arenas_protocol_doc.render(_section, _table))
    return "\n".join(lines).rstrip() + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    text = render()
    if args:
        Path(args[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0
