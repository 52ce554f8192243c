"""The friends part of ``docs/protocol.md``: the HTTP routes of following, blocking,
presence, challenges and notifications, and the notification socket ``/ws/notify``
(written by :mod:`stalactites.protocol.doc`, which hands over its renderers)."""

from __future__ import annotations

from ...config import ServerConfig
from ...friends.challenges import CHALLENGE_S, OPEN_MAX
from ...friends.follows import BLOCKED_MAX, FOLLOWING_MAX, OPPONENTS_KEPT
from .. import friends as f
from .part import Group, Part, Section, Table

__all__ = ["render"]

_LEASE_S = ServerConfig().friends_lease_s

INTRO = f"""\
## Friends: following, presence, challenges, notifications

Registered players follow each other, see who of those they follow is online, challenge them
to a race, and block players they want nothing from (`docs/friends.md` says what each does).
Every route needs a session; one of an anonymous player is 409 `not_registered` where an
account is needed (following, blocking, challenging) and a player who is not a registered
account is 404 `player_not_found`.  Refusals are `{{"code", "message"}}` and change nothing.

Limits: {FOLLOWING_MAX:,} players followed and {BLOCKED_MAX:,} blocked per player (409
`too_many`); {OPEN_MAX} open challenges sent per player (409 `too_many`), one open from a
player to a player (409 `already_open`), 60 challenges an hour (429 `rate_limited`).  The
newest {OPPONENTS_KEPT} opponents are kept.

{{routes}}

### The notification socket `/ws/notify`

One per tab of the web client, open as long as the tab.  The first frame is `hello`, as on
`/ws/match` (`"session": true` for the cookie, or `token`); the answer is `welcome`: the
players you follow who are online now and show it to you, your unread notifications' count
and your open challenges.  Then the server sends, as things happen on any process:

Its client frames are `/ws/match`'s [`hello`](#matchhello) and [`ping`](#matchping), and
`ping` is answered with [`pong`](#matchpong).

* `presence`: a player you follow came online, began or ended a race, or went offline
  (`room_id` to watch them, only for a listed room);
* `challenge`: a challenge from you or to you was made or changed; once accepted, its
  `room_id` and your seat's `token` (say `hello` on `/ws/rooms/{{room_id}}` with it).  An open
  challenge not answered by its `expires_ms` ({CHALLENGE_S} s) has expired: no frame says so;
* `notification`: a new entry of your inbox.

While a tab's socket is open its player is online:
its lease ({_LEASE_S:g} s, `STALACTITES_FRIENDS_LEASE_S`) is renewed by its process; a player
whose last tab closes is offline at once, and one whose process died within a lease and the
5 s sweep.
"""

ROUTES = [
    (
        "`PUT /api/me/following/{player_id}`, `DELETE` it",
        '200 `{"following": true|false}`: follow (again: no change) or unfollow; 409 '
        "`own_follow`, `too_many`, `not_registered`; 404 `player_not_found`",
    ),
    (
        "`GET /api/me/following/{player_id}`",
        '200 `{"following", "blocked"}`: whether you follow the player, and block them',
    ),
    (
        "`GET /api/me/following[?offset=K]`, `GET /api/me/followers`, `GET /api/me/blocked`",
        '200 `{"players": [{"player_id", "name", "since_ms"}], "total"}`, newest first, 50 a '
        "page; followers are your own to read (nobody else's lists are shown)",
    ),
    (
        "`PUT /api/me/blocked/{player_id}`, `DELETE` it",
        '200 `{"blocked": true|false}`: block (silently: they are told nothing) or unblock; '
        "409 `own_block`, `too_many`; 404 `player_not_found`",
    ),
    (
        "`GET /api/me/opponents`",
        '200 `{"players": [{"player_id", "name", "since_ms", "following"}]}`: who you raced '
        "lately, newest first",
    ),
    (
        "`GET /api/me/presence`, `PUT` it with [`HiddenBody`](#hiddenbody)",
        '200 `{"hidden"}`: hidden, your followers see you offline',
    ),
    (
        "`POST /api/challenges` with [`ChallengeBody`](#challengebody)",
        '201 `{"challenge"}` ([`ChallengeView`](#challengeview)); 409 `own_challenge`, '
        "`already_open`, `too_many`, `rated_pools` (a rated race between a bot and a human), "
        "`not_registered`; 404 `player_not_found`; 422 `bad_message`; 429 `rate_limited`",
    ),
    (
        "`GET /api/challenges`",
        '200 `{"challenges"}`: your open challenges, sent and received, newest first',
    ),
    (
        "`POST /api/challenges/{id}/accept`",
        '200 `{"challenge", "room_id", "token"}`: the race\'s private room, both players '
        "seated; your seat's token.  However many accept at once, on any process, one room is "
        "made: the others are 409 `not_open`.  404 `not_found` (not yours to accept); 409 "
        "`not_open` (declined, cancelled, accepted or expired: the message says which); 503 "
        "`no_room` (the race could not be made: the challenge is cancelled, both told)",
    ),
    (
        "`POST /api/challenges/{id}/decline` (the one challenged), `/cancel` (the challenger)",
        '200 `{"challenge"}`; 404 `not_found`; 409 `not_open`',
    ),
    (
        "`GET /api/me/notifications`",
        '200 `{"notifications": [Note], "unread", "read_ms"}`: the newest 50 of the 100 kept',
    ),
    (
        "`POST /api/me/notifications/read` with [`ReadBody`](#readbody)",
        '200 `{"unread"}`: every notification up to `up_to_ms` is read',
    ),
]

PART = Part(
    "### Notification error codes",
    f.NOTIFY_ERROR_CODES,
    [
        Group(
            "### Friends' bodies",
            "####",
            [f.ChallengeBody, f.HiddenBody, f.ReadBody],
        ),
        Group(
            "### Notification server frames",
            "####",
            [
                f.NotifyWelcome,
                f.PresenceFrame,
                f.ChallengeFrame,
                f.NoteFrame,
                f.NotifyErrorFrame,
            ],
        ),
        Group("### Friends' objects", "####", [f.Friend, f.ChallengeView, f.Note]),
    ],
)


def render(section: Section, table: Table) -> str:
    return PART.render([INTRO.replace("{routes}", table(("Request", "Answer"), ROUTES))], section)
