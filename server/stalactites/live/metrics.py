"""This process's figures in the Prometheus text format (version 0.0.4), served by
``GET /metrics`` (:mod:`..web.metrics_http`).

Counters and histograms are kept by :class:`Metrics` (one per process, made in
the app's lifespan); gauges (connections, rooms) and the pub/sub reconnect
counts are read from the process's state when scraped (:mod:`..web.metrics_http`).  The
exposition is written here: a few counters and two histograms do not need a client library.

Names (per process, but for the room lists):

* ``stalactites_connections{role}``: open websockets; ``role`` is ``player``,
  ``spectator``, ``tournament``, ``match`` (a quick race's queue socket), or ``pending`` (no
  hello yet).
* ``stalactites_rooms{status}``: rooms this process serves (it has a stream of their events:
  connections now or a few seconds ago) by ``waiting``, ``countdown``, ``racing``,
  ``finished``.
* ``stalactites_rooms_listed{list}``: rooms in the store's lists, ``waiting`` and
  ``racing`` (which holds those counting down too): the whole service's, so every
  process shows the same figure (aggregate with ``max``, not ``sum``).
* ``stalactites_moves_accepted_total``, ``stalactites_moves_rejected_total{code}``:
  players' actions (moves, undos, step declarations) by outcome.
* ``stalactites_move_commit_seconds``: histogram, an accepted action from its frame
  being handled to its answer (the engine, the store's commit, the answer built).
* ``stalactites_fanout_lag_seconds``: histogram, a room event from when this process
  knew of it (its own commit returned, or the doorbell rang) to its frame queued for
  one local connection.
* ``stalactites_pubsub_reconnects_total{channel}``: lost doorbell subscriptions made
  again (``rooms``, ``tournaments``); each one resyncs every room or tournament served.
* ``stalactites_build_info{version,python,store}``: 1, labelled with what runs.
* ``stalactites_match_waiting{queue}``: players waiting in each quick-race queue (the
  service's, as the store holds them: aggregate with ``max``).
* ``stalactites_arena_free{arena}``, ``stalactites_arena_pending{arena}``: each running
  arena's entrants waiting for a race and pairings whose rooms are being made (the
  service's); ``stalactites_players_online``: players with a tab of the web client open;
* ``stalactites_solver_waiting{kind}``, ``stalactites_solver_running{kind}``: this process's
  solver calls waiting for a worker and running, by kind (fair play's assessments are
  ``fairplay``).
"""

from __future__ import annotations

import bisect
import functools
import importlib.metadata
import platform
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import get_args

from ..engine import GameName
from ..fairplay.service import Pool
from ..protocol.match import QueueFrame
from ..protocol.room import RoomStatus
from ..store import Backlog
from ..store.queue.base import queue_name

__all__ = [
    "FanoutLag",
    "Histogram",
    "Metrics",
    "Queues",
    "ResultsFigures",
    "build_info",
    "queue_names",
]

COMMIT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
FANOUT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
ROLES = ("player", "spectator", "tournament", "match", "pending")
STATUSES = tuple(RoomStatus)


class Histogram:
    """Observations counted into cumulative buckets (upper bounds in seconds), plus sum."""

    def __init__(self, bounds: Sequence[float]) -> None:
        self.bounds = tuple(bounds)
        self.counts = [0] * (len(self.bounds) + 1)  # the last one: above every bound
        self.total = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, value)] += 1
        self.total += value

    @property
    def count(self) -> int:
        return sum(self.counts)

    def lines(self, name: str) -> list[str]:
        out, running = [], 0
        for bound, count in zip(self.bounds, self.counts, strict=False):
            running += count
            out.append(f'{name}_bucket{{le="{_number(bound)}"}} {running}')
        out.append(f'{name}_bucket{{le="+Inf"}} {self.count}')
        out.append(f"{name}_sum {_number(self.total)}")
        out.append(f"{name}_count {self.count}")
        return out


class FanoutLag:
    """One stream's fan-out lag: when each of its newest seqs became known here, observed
    into ``histogram`` as each frame is handed to a connection."""

    KNOWN = 64  # newest seqs whose arrival time is kept

    def __init__(self, histogram: Histogram) -> None:
        self._histogram = histogram
        self._known: dict[int, float] = {}  # seq -> when this process learned of it (monotonic)

    def learned(self, latest: int, seq: int) -> None:
        """The events after ``latest`` up to ``seq`` have become known now."""
        now, known = time.monotonic(), self._known
        if seq == latest + 1:  # (one event, nearly always)
            known.setdefault(seq, now)
        else:
            for each in range(max(latest + 1, seq - 8), seq + 1):
                known.setdefault(each, now)
        if len(known) > 2 * self.KNOWN:
            floor = seq - self.KNOWN
            self._known = {key: at for key, at in self._known.items() if key > floor}

    def delivered(self, seq: int) -> None:
        """The frame of ``seq`` has been handed to one connection."""
        known = self._known.get(seq)
        if known is not None:
            self._histogram.observe(time.monotonic() - known)


class Metrics:
    """What this process counts as it runs."""

    def __init__(self) -> None:
        self.accepted = 0
        self.rejected: dict[str, int] = {}
        self.commit_seconds = Histogram(COMMIT_BUCKETS)
        self.fanout_seconds = Histogram(FANOUT_BUCKETS)

    def answered(self, kind: str, code: str | None, seconds: float) -> None:
        """A player's action was answered: ``accepted`` (after ``seconds``) or ``rejected``."""
        if kind == "accepted":
            self.accepted += 1
            self.commit_seconds.observe(seconds)
        else:
            self.refused(code or "internal")

    def refused(self, code: str) -> None:
        self.rejected[code] = self.rejected.get(code, 0) + 1

    def render(
        self,
        connections: Mapping[str, int],
        rooms: Mapping[str, int],
        reconnects: Mapping[str, int],
        listed: Mapping[str, int],
        results: ResultsFigures,
        more: Sequence[str] = (),
    ) -> str:
        """The exposition, with the gauges and reconnect counts read at scrape time (and
        ``more`` lines: :func:`build_info`, :class:`Queues`)."""
        out: list[str] = []
        _family(out, "stalactites_connections", "gauge", "open websockets by role")
        out += _labelled("stalactites_connections", "role", _with_zeros(connections, ROLES))
        _family(out, "stalactites_rooms", "gauge", "rooms served by this process by status")
        out += _labelled("stalactites_rooms", "status", _with_zeros(rooms, STATUSES))
        name = "stalactites_rooms_listed"
        _family(out, name, "gauge", "rooms in the store's room lists (the whole service)")
        out += _labelled(name, "list", listed)
        _family(out, "stalactites_moves_accepted_total", "counter", "actions accepted")
        out.append(f"stalactites_moves_accepted_total {self.accepted}")
        _family(out, "stalactites_moves_rejected_total", "counter", "actions rejected by code")
        out += _labelled("stalactites_moves_rejected_total", "code", self.rejected)
        name = "stalactites_move_commit_seconds"
        _family(out, name, "histogram", "accepted action: frame handled to answer")
        out += self.commit_seconds.lines(name)
        name = "stalactites_fanout_lag_seconds"
        _family(out, name, "histogram", "room event known to frame queued, per connection")
        out += self.fanout_seconds.lines(name)
        out += results.lines()
        name = "stalactites_pubsub_reconnects_total"
        _family(out, name, "counter", "doorbell subscriptions lost and made again")
        out += _labelled(name, "channel", reconnects)
        out += more
        return "\n".join(out) + "\n"


@dataclass(frozen=True, slots=True)
class ResultsFigures:
    """The results log (:mod:`stalactites.results`): the whole service's backlog, read from
    the store at each scrape, and what this process recorded and advanced."""

    backlog: Backlog
    recorded: int
    failures: int
    advanced: int

    def lines(self) -> list[str]:
        oldest_s = _number((self.backlog.oldest_ms or 0) / 1000)
        figures = (
            ("results_backlog", "gauge", "finished races in the results log not recorded yet "
             "(service)", self.backlog.entries),
            ("results_oldest_age_seconds", "gauge", "how long the oldest race not recorded "
             "yet has waited", oldest_s),
            ("results_recorded_total", "counter", "finished races recorded by this process",
             self.recorded),
            ("results_failures_total", "counter", "recordings that failed here (each tried "
             "again later)", self.failures),
            ("deadlines_advanced_total", "counter", "due rooms this process took from the "
             "store's deadlines", self.advanced),
        )  # fmt: skip
        out: list[str] = []
        for name, kind, text, value in figures:
            _family(out, f"stalactites_{name}", kind, text)
            out.append(f"stalactites_{name} {value}")
        return out


@functools.cache
def build_info(store: str) -> list[str]:
    """``stalactites_build_info``: this package's version, Python's, and the store's kind
    (``memory``, ``redis``, ``cluster``), as labels of a constant 1."""
    try:
        version = importlib.metadata.version("stalactites-race")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout not installed
        version = "unknown"
    out: list[str] = []
    name = "stalactites_build_info"
    _family(out, name, "gauge", "what runs: version, python, store (always 1)")
    labels = {"version": version, "python": platform.python_version(), "store": store}
    text = ",".join(f'{key}="{_escape(value)}"' for key, value in labels.items())
    out.append(f"{name}{{{text}}} 1")
    return out


def queue_names() -> list[str]:
    """Every quick-race queue: each game and step a ``queue`` frame may ask, each pool."""
    games = list(GameName)
    steps = get_args(get_args(QueueFrame.model_fields["step"].annotation)[0])
    by_game = {game: steps if game == GameName.STALACTITES else (None,) for game in games}
    return [
        queue_name(game, step, pool)
        for game, game_steps in by_game.items()
        for step in game_steps
        for pool in get_args(Pool)
    ]


@dataclass(frozen=True, slots=True)
class Queues:
    """The queues and backlogs read at each scrape besides the results log's: who waits in
    each quick-race queue (the service's), and this process's solver calls by kind."""

    waiting: Mapping[str, int]
    solver_waiting: Mapping[str, int]
    solver_running: Mapping[str, int]
    arena_free: Mapping[str, int]  # by running arena: entrants waiting for a race
    arena_pending: Mapping[str, int]  # by running arena: pairings whose rooms are being made
    online: int  # players with a tab of the web client open (the service's)

    def lines(self) -> list[str]:
        out: list[str] = []
        families = (
            ("match_waiting", "queue", "players waiting in each quick-race queue (service)",
             self.waiting),
            ("solver_waiting", "kind", "solver calls waiting for a worker here, by kind",
             self.solver_waiting),
            ("solver_running", "kind", "solver calls running in this process's workers",
             self.solver_running),
            ("arena_free", "arena", "entrants free and waiting for a race, by running arena",
             self.arena_free),
            ("arena_pending", "arena", "arena pairings whose rooms are being made",
             self.arena_pending),
        )  # fmt: skip
        for name, label, text, values in families:
            _family(out, f"stalactites_{name}", "gauge", text)
            out += _labelled(f"stalactites_{name}", label, values)
        _family(out, "stalactites_players_online", "gauge", "players with a tab open (service)")
        out.append(f"stalactites_players_online {self.online}")
        return out


def _family(out: list[str], name: str, kind: str, text: str) -> None:
    out.append(f"# HELP {name} {text}")
    out.append(f"# TYPE {name} {kind}")


def _labelled(name: str, label: str, values: Mapping[str, int]) -> list[str]:
    return [f'{name}{{{label}="{_escape(key)}"}} {values[key]}' for key in sorted(values)]


def _with_zeros(values: Mapping[str, int], keys: Iterable[str]) -> dict[str, int]:
    return {**dict.fromkeys(keys, 0), **values}


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _number(value: float) -> str:
    return repr(float(value)) if value != int(value) else f"{value:.1f}"
