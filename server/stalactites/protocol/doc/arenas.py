"""The arenas part of ``docs/protocol.md``: the HTTP routes and the arena socket
``/ws/arenas/{arena_id}`` (written by :mod:`stalactites.protocol.doc`)."""

from __future__ import annotations

from .. import arenas as a
from .part import Group, Part, Section, Table

__all__ = ["render"]

INTRO = """\
## Arenas: `/api/arenas` and the websocket `/ws/arenas/{arena_id}`

An arena runs for a fixed time; players enter at any moment and are paired again as soon as
their race ends (`docs/tournaments.md`, "Arenas", has the rules and the points table).  Its
races are private quick rooms on certified deals, rated unless the organiser said otherwise.
Refusals are `{"code", "message"}` (`"field"` too for bad input, 422) and change nothing.

{routes}

### The arena socket

The first frame is [`hello`](#arenahello): an entrant's session (`"session": true` for the
cookie, or `token`), or neither to watch.  The answer is `welcome` (the arena, the entrant's
line and their race now, if any).  Then the server sends `standings` at most once a second
while they change, `paired` with each next race (say `hello` on `/ws/rooms/{room_id}` with its
`token`: the web client goes there at once), and `ended` with the podium once the arena's time
is up and its last race is scored.  The client sends `ping` (answered `pong`).

While an entrant has an arena socket open (on any process) they are present: only present
entrants are paired, and one who is not present when their race ends is paused (they
`resume` to be paired again).  A spectator's `standings` name the **top race**: the race of
the best placed entrant racing now, watched as every counted race is (live progress, and
each board once its racer has finished).
"""

ROUTES = [
    (
        "`POST /api/arenas` with [`CreateArena`](#createarena), a session",
        '201 `{"arena", "admin_token"}` ([`ArenaSummary`](#arenasummary)); 422 `bad_message`; '
        "401 without a session",
    ),
    (
        "`GET /api/arenas?status=scheduled|running|finished`",
        '200 `{"arenas"}`: scheduled the soonest first, the others the latest first (50); '
        "422 `bad_message` naming `status`",
    ),
    (
        "`GET /api/arenas/{id}[?offset=K]`",
        '200 `{"arena", "standings", "total", "you", "room_id", "podium"}`: 50 lines of the '
        "standings from `offset` ([`ArenaLine`](#arenaline)); with a session, your own line "
        "and your race now; `podium` (the top three) once it is over; 404 `not_found`",
    ),
    (
        "`POST /api/arenas/{id}/players`, a session",
        '200 `{"entered", "you"}`: entered (or back from a pause); 409 `closed` (a minute '
        "before its end, or later), `rating_band` (your shown rating outside its band); 404",
    ),
    (
        "`POST /api/arenas/{id}/pause`, `/resume`, a session",
        '200 `{"paused"}`: out of the pairing, or back in; 404 `not_entered`',
    ),
    (
        "`POST /api/arenas/{id}/berserk`, a session",
        '200 `{"berserk", "room_id"}`: your race now is raced berserk (half the time, no undo, '
        "a point more for a win); 409 `not_racing` (no race made for you), `too_late` (it has "
        "started, or starts within 0.5 s); 404 `not_entered`",
    ),
]

PART = Part(
    "### Arena error codes",
    a.ARENA_ERROR_CODES,
    [
        Group("### Arena bodies", "####", [a.CreateArena]),
        Group("### Arena client frames", "####", [a.ArenaHello, a.ArenaPing]),
        Group(
            "### Arena server frames",
            "####",
            [
                a.ArenaWelcome,
                a.ArenaStandings,
                a.Paired,
                a.ArenaEnded,
                a.ArenaErrorFrame,
                a.ArenaPong,
            ],
        ),
        Group("### Arena objects", "####", [a.ArenaSummary, a.ArenaLine]),
    ],
)


def render(section: Section, table: Table) -> str:
    return PART.render([INTRO.replace("{routes}", table(("Request", "Answer"), ROUTES))], section)
