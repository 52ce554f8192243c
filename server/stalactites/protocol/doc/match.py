"""The quick race part of ``docs/protocol.md``, rendered from the matchmaking protocol's models.

:mod:`stalactites.protocol.doc` writes the whole document and hands this module its table and
section renderers, so the parts look alike.
"""

from __future__ import annotations

from ...config import ServerConfig
from ...ghosts.runs import MIN_ELAPSED_MS, MIN_MOVES
from ...store.queue.base import RECENT_PAIR_MS
from .. import match as m
from .part import Group, Part, Section, Table

__all__ = ["render"]

_DEFAULTS = ServerConfig()

INTRO = f"""\
## Quick races: the websocket `/ws/match`

One button between a player and a race: the player waits in a queue for their game (and, for
Stalactites, step policy), and the server pairs players of close rating into a room of
{_DEFAULTS.match_room_size} (`STALACTITES_MATCH_ROOM_SIZE`, up to 4).  Every server process
shares the queue through the store (one atomic pairing step); a player who opens two tabs is
one entry in the queue, is never paired with themselves and never put in two rooms.

**One quick race at a time.**  A player waits in one queue at a time: `queue` for another game
or step while another socket of theirs waits is `already_queued` (leave there first).  And a
player in a quick race (or a ghost race from the queue) is queued nowhere until that race is
over for them (their seat finished, or it never began within 10 s of the match) or for
everyone: `queue` meanwhile is `in_quick_race`, its message naming the room, and no pairing
step, on any process, pairs them (the store marks them racing, with the room, as it hands out
the match, until the race ends or its time limit has passed).  A socket in the same queue
whose player's race is not over gets that race's `matched` frame again instead, for the
minute the frame is kept (then `in_quick_race` too).

**Who is paired with whom.**  The queue is rated, so it never pairs two players whose sockets
come from one client address (an IPv4 address, or an IPv6 /64 network; as the server sees it:
behind a proxy, its trusted `X-Forwarded-For`; loopback is not told apart), and two players
matched within the last {RECENT_PAIR_MS // 60_000} minutes are paired again only when nobody
else is free for the one who waited longer (anyone else waiting, however far in rating: the
window widens to them).

The first frame is `hello` with the player's session: `"session": true` takes it from the
handshake's cookie (the web client), or `token` gives it (as `Authorization: Bearer`).  No live
session, anything but `hello` first, or no `hello` within 10 seconds gets an `error` frame
(`unauthorized`), then close 1008.  The answer is `welcome`.  Then:

* `queue` (`game`, `step`) queues the socket's player and is answered with `queued` (how long
  they have waited, how many wait in that queue), then `queued` again at most once a second;
* `matched` (`room_id`, `token`, `players`) comes once a room is made: every socket of the
  player waiting in that queue gets it.  The player says `hello` on `/ws/rooms/{{room_id}}` with
  `token` (or with the session).  A quick race's room is rated, on a certified deal, with a
  seat per matched player (its view says `"quick": true`); a seat is ready as soon as it is
  connected, and the race begins after a 3 s countdown once every seat is.  A seat not
  connected within 10 s of the match is made ready anyway, and resigns when the race begins;
* `leave`, or closing the socket, leaves the queue (answered with `left`); a socket whose
  server process dies leaves it when its lease runs out
  (`STALACTITES_MATCH_LEASE_S`, {_DEFAULTS.match_lease_s:g} s).

**The rating window.**  Players are paired by their shown rating in the game (the conservative
μ - 3σ, as `docs/players.md` says).  Two players may be paired when their ratings differ by at
most the window of the one who has waited longer: {_DEFAULTS.match_window_base} points at once,
{_DEFAULTS.match_window_per_s} more for every second waited, and anyone at all after
{_DEFAULTS.match_anyone_after_s:g} s (`STALACTITES_MATCH_WINDOW_BASE`,
`STALACTITES_MATCH_WINDOW_PER_S`, `STALACTITES_MATCH_ANYONE_AFTER_S`).  The longest waiter
is placed first, with the players nearest in rating its window allows.

**Ghost races.**  `"ghost": true` asks for a recorded run of another player at once, and a
player without a partner after {_DEFAULTS.match_ghost_after_s:g} s
(`STALACTITES_MATCH_GHOST_AFTER_S`) races one.  A socket already queued may send its
`queue` frame again with `"ghost": true` (the same game and step; another queue is
`already_queued`): it gets a ghost race now, or, with no run near enough, a `queued` answer,
still queued with its place and time waited kept.  On a server without ghost races `"ghost":
true` gets `ghost_unavailable` and the player simply stays queued.  The run chosen is one that
raced (at least {MIN_MOVES} moves on its board at its finish and {MIN_ELAPSED_MS // 1000} s of
race time, so never a resignation with no move): a won run nearest the player's rating, in any
window up to the widest, before any run not won.
"""

PART = Part(
    "### Match error codes",
    m.MATCH_ERROR_CODES,
    [
        Group(
            "### Match client frames",
            "####",
            [m.MatchHello, m.QueueFrame, m.LeaveQueue, m.MatchPing],
        ),
        Group(
            "### Match server frames",
            "####",
            [m.MatchWelcome, m.Queued, m.Matched, m.Left, m.MatchErrorFrame, m.MatchPong],
        ),
        Group("### Match objects", "####", [m.MatchedPlayer]),
    ],
)


def render(section: Section, table: Table) -> str:
    """The quick race part of the protocol document (``table`` unused: it has no routes)."""
    return PART.render([INTRO], section)
