"""The part of ``docs/protocol.md`` on rematches, private rooms and the daily deal (written
by :mod:`stalactites.protocol.doc`)."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["render"]

Table = Callable[[tuple[str, str], list[tuple[str, str]]], str]

TEXT = """\
## Rematches and private rooms

A room made with `"private": true` (the web client's "Play a friend") is never in the room
lists, waiting or racing: it is joined by its link (its id) only.  A room leaves the waiting
list as soon as its last seat is taken, and as soon as its countdown begins.

After the results any seated player may propose a **rematch**: `POST
/api/rooms/{room_id}/rematch` with `{"token"}` (their seat token in the finished room).  The
server makes a private room with the same settings (game, step, seats, time limit, undo,
countdown, spectator delay, rated) on a new deal it picks and certifies (a deal the creator
chose is not repeated), with the finished room's players already seated in it, each under
the seat id and token they hold (a ghost is not: a ghost race's rematch is its racer's
alone), none ready.  It seats no one else (`POST /api/rooms/{new}/players` is 409
`seats_reserved`), so whoever reads its id can watch it but not play in it.  Every socket of
the finished room gets the room event [`rematch`](#rematchevent) `{"room_id", "by"}`; the
room view's `rematch` names it from then on.  However many propose at once, the store keeps
one rematch per room (its first), and every proposer is answered with that one.  Players
accept by going to it with the token they hold and saying `ready`: it starts when all have.
A player who declines simply does not come; the others wait, and no one takes the seat.

## The daily deal

Each UTC day each game has one deal for everyone: Stalactites (step policy `choice`) and
Squadron.  It is the solver's certified pick from a seed derived by HMAC-SHA256 from the
server's secret (`STALACTITES_DAILY_SECRET`) and `game|date`, so every process with the
secret deals the same, and nobody can work it out in advance.  The deal's id is never in an
answer during its day; the archive reveals it once the day is over.  So do the attempts'
rooms: until their day is over (UTC) their view and their player's `welcome` show no
`deal`, `salt` or `solution`, nor does the `results` event of an attempt that ends during
the day (they are null; the commitment is there), their record and analysis are 409
`not_finished`, a spectator's `hello` is refused (`unauthorized`, close 1008), and a hint
is 403 `hints_off` in every attempt, practice too.  So no attempt, finished or not, gives
the day's deal or a line of it away while the day lasts.

Each attempt is a private solo room on the day's deal, without a countdown: open its
websocket with the token, say `ready`, race.  A player's first attempt of a day **to start**
(any player with a session, anonymous or registered) is their **official** one: it is
decided as the attempt's `ready` starts it, atomically in the store (two attempts started at
once from two tabs, on any processes: one is official); attempts that start later are
practice, and an attempt made but not started is not official yet.  A day's attempts are
played during that day only: a `ready` once the attempt's day is over is refused with the
error `day_over` (the attempt never starts: make a new one, at the new day's deal), and a
race started before midnight ends at midnight (UTC) at the latest (its `ends_at` says so).
When an official attempt's race ends it goes on the day's
leaderboard (a registered player's; an anonymous player's goes on the guests' board, apart),
ranked: won before not won, then less time, then more foundation cards, then
who finished first.  The player's **streak** (days in a row, up to today or yesterday, with
an official attempt in any game) is `daily_streak` in their profile.

Each leaderboard entry names its run (`room_id`, `player_id`) and its replay (`replay`): once
the day is over, the run's replay opens and the run can be raced as a ghost on that day's
deal ("race this run": `POST /api/rooms/{room_id}/ghost` with `{"player_id"}`, see
[ghost races](#ghost-races)); during its day that is 409 `not_finished`, so that nobody
sees the day's deal before their own official attempt.  A ghost race of a daily run is
unrated and no attempt of any day.

{routes}

A leaderboard entry is `{"player_id", "name", "room_id", "won", "elapsed_ms",
"foundation_cards", "finished_ms", "replay"}`: `replay` is the web client's address of the
attempt's replay (its record: `GET /api/rooms/{room_id}/record`).
"""

ROUTES = [
    (
        "`GET /api/daily/{game}` (`stalactites` or `squadron`)",
        '200 `{"date", "game", "step", "room_id", "token"}`: today (UTC), the step policy '
        "(null for squadron) and, with a session, the player's official attempt today (the "
        "first of theirs that started; else null) with their seat's token in it (else null), "
        "so that the player gets back to their attempt from any tab or device where they are "
        "signed in; 404 `no_daily` for another game",
    ),
    (
        "`POST /api/daily/{game}/attempts` with a session (body ignored)",
        '201 `{"room_id", "player_id", "token", "official", "date", "game"}`: a solo room on '
        "today's deal, the player seated, not started; `official`: none of the player's "
        "attempts has started today, so this one is official if it is the first to start "
        "(false: practice); 401 `unauthorized` without a session; 404 `no_daily`; 429 "
        "`rate_limited` with `Retry-After`, counted with the address's new rooms",
    ),
    (
        "`GET /api/daily/{game}/{date}/leaderboard[?limit=N][&offset=K][&board=B]`",
        '200 `{"date", "game", "board", "total", "entries"}`: the day\'s official attempts '
        "in rank order, `limit` 1-100 (50); `board` `ranked` (the default: registered "
        "players) or `guests` (anonymous players' attempts, listed apart, unranked); a run "
        "held by fair play, or of a marked player, is on neither; 422 `bad_message` naming "
        "`date` (YYYY-MM-DD), `limit`, `offset` or `board`; 404 `no_daily`",
    ),
    (
        "`GET /api/daily/{game}/archive[?before=DATE][&limit=N]`",
        '200 `{"game", "days": [{"date", "deal", "attempts", "winner"}]}`: past days with an '
        "attempt, newest first (`limit` 1-100, 30), each with its deal revealed, its number "
        "of official attempts and its winner (the best entry if it won, else null); 422 "
        "naming `before` or `limit`; 404 `no_daily`",
    ),
]


def render(table: Table) -> str:
    return TEXT.replace("{routes}", table(("Request", "Answer"), ROUTES))
