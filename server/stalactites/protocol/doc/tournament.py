"""The tournament part of ``docs/protocol.md``, rendered from the tournament protocol's models.

:mod:`stalactites.protocol.doc` writes the whole document and hands this
module its table and section renderers, so the two parts look alike.  The
points formula and how tournaments run are in ``docs/tournaments.md``.
"""

from __future__ import annotations

from ...tournaments.settings import CreateTournament
from .. import tournament as t
from .part import Group, Part, Section, Table

__all__ = ["render"]

INTRO = """\
## Tournaments

Every entrant plays the same deals, one round at a time; see `docs/tournaments.md` for the
points formula and how rounds run.  Errors are JSON `{"code", "message"}` with one of the
tournament error codes below; a bad body is 422 `{"code": "bad_message", "message", "field"}`.

{routes}

Each round is a room (see above) with every entrant seated and the race already begun: the
entrant says `hello` on `/ws/rooms/{room_id}` with the tournament token and plays.  The
entrant token, like a room token, is 256 random bits stored only as a hash; the admin token
too, compared in constant time.

An entrant who entered with a player's session (`Authorization: Bearer`, or the web
client's cookie) is that player in every round: the round room's seat has the player's id,
a `hello` may carry the session instead of the tournament token, and each finished round is
in the player's history (unrated, with `"tournament": {"tournament_id", "name", "round"}`)
and counts in their statistics.  An entrant without a session is a guest, as before.
"""

SOCKET = """\
### The websocket `/ws/tournaments/{tournament_id}`

The first frame is `hello` with an entrant's `token`, or with `"spectator": true`; a bad
token, an unknown tournament, anything but `hello` first, or no `hello` within 10 seconds
gets an `error` frame, then close 1008.  The answer is `welcome`, then the tournament events
(`round_started`, `round_finished`, `finished`), each with `seq` (one more per event; say
`hello` with `last_seq` to resume after a reconnect), and `standings` frames: at most one a
second, when the standings change (live during a round, the round counted as if it ended
then) and soon after each round.  Clients send only `ping` after `hello`.  The limits and
close codes are those of the room socket.
"""

ROUTES = [
    (
        "`POST /api/tournaments` with a [CreateTournament](#createtournament) body",
        '201 `{"tournament_id", "admin_token"}` (the admin token is shown only here)',
    ),
    (
        '`POST /api/tournaments/{id}/players` with `{"name"}` (1-24 characters; optional with '
        "a player's session, the player's own name by default)",
        '201 `{"player_id", "token"}` (with a session, `player_id` is the player\'s own); 404 '
        "`tournament_not_found`; 409 `tournament_full`, `already_started` or `already_entered` "
        "(a second entry of the same player); 401 `unauthorized` (a session not alive); 403 "
        "`bad_origin`; 422 `bad_message` (`field` `name`: a guest entry needs a name)",
    ),
    (
        "`POST /api/tournaments/{id}/start` with `Authorization: Bearer <admin_token>`",
        "200 [TournamentView](#tournamentview), the first round begun; 401 `unauthorized`; "
        "404; 409 `already_started`",
    ),
    (
        "`GET /api/tournaments?status=scheduled\\|running[&limit=N]`",
        '200 `{"tournaments": [TournamentListing, ...]}` (see '
        "[TournamentListing](#tournamentlisting)): the lobby's lists, tournaments starting "
        "soon (newest first) and running (the latest started first), `limit` 1-50 (10); 422 "
        "`bad_message` naming `status` or `limit`",
    ),
    ("`GET /api/tournaments/{id}`", "200 [TournamentView](#tournamentview); 404"),
]

PART = Part(
    "### Tournament error codes",
    t.TOURNAMENT_ERROR_CODES,
    [
        Group("#### Tournament client frames", "#####", [t.TournamentHello, t.TournamentPing]),
        Group(
            "#### Tournament server frames",
            "#####",
            [
                t.TournamentWelcome,
                t.RoundStarted,
                t.RoundFinished,
                t.StandingsFrame,
                t.TournamentFinished,
                t.TournamentErrorFrame,
                t.TournamentPong,
            ],
        ),
        Group(
            "### Tournament objects",
            "####",
            [
                t.TournamentView,
                t.TournamentListing,
                t.TournamentStanding,
                t.RoundRecord,
                t.RoundLine,
                t.CurrentRound,
            ],
        ),
    ],
)


def render(section: Section, table: Table) -> str:
    """The tournament part of the protocol document."""
    opening = [INTRO.replace("{routes}", table(("Request", "Answer"), ROUTES))]
    opening += section(CreateTournament, "###")
    return PART.render([*opening, SOCKET], section)
