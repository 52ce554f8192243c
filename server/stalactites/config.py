"""The server's settings, all from environment variables (see :meth:`ServerConfig.from_env`)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import ClassVar

__all__ = ["ServerConfig", "default_client_dir"]


def default_client_dir() -> Path:
    """The repository's ``client_web/`` folder (next to ``server/``)."""
    return Path(__file__).resolve().parents[2] / "client_web"


@dataclass(frozen=True, slots=True)
class ServerConfig:
    store_url: str = "memory://"
    redis_prefix: str = "sr:"
    redis_cluster: bool = False  # REDIS_URL is any node of a Redis Cluster (store/redis/cluster.py)
    client_dir: Path | None = None  # None: the repository's client_web/
    hello_timeout_s: float = 10.0
    max_frame_bytes: int = 4096
    max_bad_frames: int = 5
    send_queue: int = 256
    send_timeout_s: float = 10.0  # a send blocked, or events held back, this long: too slow
    move_rate: float = 20.0  # moves per second per connection; 0 turns the limit off
    move_burst: int = 20
    max_events: int = 10_000
    room_ttl_s: int = 86_400
    presence_ttl_s: float = 30.0
    max_body_bytes: int = 16_384
    # Per client address, in this process (see web/limits.py); a rate of 0 turns a limit off.
    address_move_rate: float = 100.0  # moves per second from all of an address's connections
    address_move_burst: int = 200
    create_rate: float = 0.2  # rooms and tournaments created per second over HTTP
    create_burst: int = 10
    join_rate: float = 5.0  # room seats and tournament entries taken per second over HTTP
    join_burst: int = 50
    flood_refusals: int = 50  # this many rate_limited refusals within flood_window_s: close 1008
    flood_window_s: float = 10.0
    frame_rate: float = 100.0  # frames of any kind per second per connection; beyond: close 1008
    frame_burst: int = 200
    allowed_origins: str = ""  # websocket Origins allowed, comma-separated; "": same origin only
    # Sign-in attempts (POST /api/session with a username), in this process (web/players/).
    signin_address_rate: float = 0.2  # per client address, per second; 0 turns it off
    signin_address_burst: int = 10
    signin_username_rate: float = 0.05  # per username from one address, per second; 0: off
    signin_username_burst: int = 5
    signin_username_total_rate: float = 0.2  # per username from every address together
    signin_username_total_burst: int = 20
    # New players and accounts per client address, in this process (web/players/); 0: off.
    session_address_rate: float = 0.1  # new anonymous players (POST /api/session {})
    session_address_burst: int = 30
    register_address_rate: float = 0.05  # registrations (POST /api/accounts)
    register_address_burst: int = 10
    players_resume_s: float = 5.0  # how often races left half-recorded are finished here
    # Finished races' results and rooms' deadlines, from the store (stalactites.results).
    results_poll_s: float = 1.0  # how often each process looks for due rooms and unread results
    fairplay_holds: bool = True  # a run beyond human reach is held off the boards (tests: off)
    friends_lease_s: float = 45.0  # a web client tab's presence lasts this long unless renewed
    arena_schedule: str = "stalactites/choice@60/50,squadron@1440/60"  # arenas made by the
    # server itself: GAME[/STEP]@EVERY/DURATION in minutes (stalactites.arenas.schedule)
    results_claim_s: float = 15.0  # results taken by a process this long ago and not recorded:
    # another process takes them (its process died, or its recording keeps failing)
    durable_finish: bool = True  # a race's finish waits for Redis's append-only file (WAITAOF,
    # Redis 7.2 and later; store/results/durable.py); older Redis: not waited for
    # Per client address, in this process (web/transport.py, web/rooms/room_socket.py); 0: off.
    address_connections: int = 256  # open connections (HTTP and websockets) from one address
    address_spectators: int = 64  # open spectator sockets from one address
    head_timeout_s: float = 10.0  # an HTTP request's head must be complete this soon
    spectator_idle_s: float = 60.0  # a spectator sending nothing (not even ping) this long: closed
    # Quick races (stalactites.matchmaking, store/queue/base.py).
    match_room_size: int = 2  # players a quick race pairs (2 to 4)
    match_lease_s: float = 5.0  # a waiting socket's lease on its queue entry, renewed each second
    match_window_base: int = 100  # rating points two players may differ by at once...
    match_window_per_s: int = 25  # ...and this many more per second the longer waiter waited...
    match_anyone_after_s: float = 20.0  # ...and anyone at all after this long
    match_ghost_after_s: float = 15.0  # no partner this long: a ghost race (where there are)
    match_deal_pool: int = 64  # certified deals kept ready per queue, in the store
    match_deal_share_s: float = 3.0  # stock empty: a deal dealt this recently deals more rooms
    # `stalactites serve` (see cli/serve.py and logs.py)
    log_format: str = "json"  # json (one object per line) or text
    log_level: str = "info"
    shutdown_grace_s: float = 10.0  # on SIGTERM: how long in-flight frames may take to finish
    forwarded_allow_ips: str = "127.0.0.1,::1"  # proxies whose X-Forwarded-For/Proto are trusted
    solver_workers: int = 1  # worker processes for the solver (dealing rooms, analyses)
    # Hints in solo practice (rooms/hints.py), per seat, in this process; a rate of 0: no rate.
    hint_rate: float = 0.5  # hints a seat may ask per second...
    hint_burst: int = 5  # ...after a burst of this many
    # The daily deal's secret (daily/deal.py): the same on every process; "": a random one
    # per process (one process only), never shown.
    daily_secret: str = field(default="", repr=False)

    # Environment variable -> field.  REDIS_URL, when set, selects the Redis store.
    ENV: ClassVar[dict[str, str]] = {
        "REDIS_URL": "store_url",
        "STALACTITES_REDIS_PREFIX": "redis_prefix",
        "STALACTITES_REDIS_CLUSTER": "redis_cluster",
        "STALACTITES_CLIENT_DIR": "client_dir",
        "STALACTITES_HELLO_TIMEOUT_S": "hello_timeout_s",
        "STALACTITES_MAX_FRAME_BYTES": "max_frame_bytes",
        "STALACTITES_MAX_BAD_FRAMES": "max_bad_frames",
        "STALACTITES_SEND_QUEUE": "send_queue",
        "STALACTITES_SEND_TIMEOUT_S": "send_timeout_s",
        "STALACTITES_MOVE_RATE": "move_rate",
        "STALACTITES_MOVE_BURST": "move_burst",
        "STALACTITES_MAX_EVENTS": "max_events",
        "STALACTITES_ROOM_TTL_S": "room_ttl_s",
        "STALACTITES_PRESENCE_TTL_S": "presence_ttl_s",
        "STALACTITES_MAX_BODY_BYTES": "max_body_bytes",
        "STALACTITES_ADDRESS_MOVE_RATE": "address_move_rate",
        "STALACTITES_ADDRESS_MOVE_BURST": "address_move_burst",
        "STALACTITES_CREATE_RATE": "create_rate",
        "STALACTITES_CREATE_BURST": "create_burst",
        "STALACTITES_JOIN_RATE": "join_rate",
        "STALACTITES_JOIN_BURST": "join_burst",
        "STALACTITES_FLOOD_REFUSALS": "flood_refusals",
        "STALACTITES_FLOOD_WINDOW_S": "flood_window_s",
        "STALACTITES_FRAME_RATE": "frame_rate",
        "STALACTITES_FRAME_BURST": "frame_burst",
        "STALACTITES_ALLOWED_ORIGINS": "allowed_origins",
        "STALACTITES_SIGNIN_ADDRESS_RATE": "signin_address_rate",
        "STALACTITES_SIGNIN_ADDRESS_BURST": "signin_address_burst",
        "STALACTITES_SIGNIN_USERNAME_RATE": "signin_username_rate",
        "STALACTITES_SIGNIN_USERNAME_BURST": "signin_username_burst",
        "STALACTITES_SIGNIN_USERNAME_TOTAL_RATE": "signin_username_total_rate",
        "STALACTITES_SIGNIN_USERNAME_TOTAL_BURST": "signin_username_total_burst",
        "STALACTITES_SESSION_ADDRESS_RATE": "session_address_rate",
        "STALACTITES_SESSION_ADDRESS_BURST": "session_address_burst",
        "STALACTITES_REGISTER_ADDRESS_RATE": "register_address_rate",
        "STALACTITES_REGISTER_ADDRESS_BURST": "register_address_burst",
        "STALACTITES_PLAYERS_RESUME_S": "players_resume_s",
        "STALACTITES_RESULTS_POLL_S": "results_poll_s",
        "STALACTITES_FAIRPLAY_HOLDS": "fairplay_holds",
        "STALACTITES_FRIENDS_LEASE_S": "friends_lease_s",
        "STALACTITES_ARENA_SCHEDULE": "arena_schedule",
        "STALACTITES_RESULTS_CLAIM_S": "results_claim_s",
        "STALACTITES_DURABLE_FINISH": "durable_finish",
        "STALACTITES_ADDRESS_CONNECTIONS": "address_connections",
        "STALACTITES_ADDRESS_SPECTATORS": "address_spectators",
        "STALACTITES_HEAD_TIMEOUT_S": "head_timeout_s",
        "STALACTITES_SPECTATOR_IDLE_S": "spectator_idle_s",
        "STALACTITES_MATCH_ROOM_SIZE": "match_room_size",
        "STALACTITES_MATCH_LEASE_S": "match_lease_s",
        "STALACTITES_MATCH_WINDOW_BASE": "match_window_base",
        "STALACTITES_MATCH_WINDOW_PER_S": "match_window_per_s",
        "STALACTITES_MATCH_ANYONE_AFTER_S": "match_anyone_after_s",
        "STALACTITES_MATCH_GHOST_AFTER_S": "match_ghost_after_s",
        "STALACTITES_MATCH_DEAL_POOL": "match_deal_pool",
        "STALACTITES_MATCH_DEAL_SHARE_S": "match_deal_share_s",
        "STALACTITES_LOG_FORMAT": "log_format",
        "STALACTITES_LOG_LEVEL": "log_level",
        "STALACTITES_SHUTDOWN_GRACE_S": "shutdown_grace_s",
        "FORWARDED_ALLOW_IPS": "forwarded_allow_ips",
        "STALACTITES_SOLVER_WORKERS": "solver_workers",
        "STALACTITES_HINT_RATE": "hint_rate",
        "STALACTITES_HINT_BURST": "hint_burst",
        "STALACTITES_DAILY_SECRET": "daily_secret",
    }

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ServerConfig:
        """Settings from the environment; a bad value raises ValueError naming the variable."""
        environ = os.environ if environ is None else environ
        types = {field.name: field.type for field in fields(cls)}
        values: dict[str, object] = {}
        for variable, name in cls.ENV.items():
            text = environ.get(variable)
            if text is None or text == "":
                continue
            values[name] = _convert(variable, text, str(types[name]))
        return cls(**values)  # type: ignore[arg-type]

    def __post_init__(self) -> None:
        from .web.origin import origins  # the Origin rules live with the websockets

        origins(self.allowed_origins)  # a bad entry raises ValueError naming the variable
        if self.solver_workers < 1:
            raise ValueError("STALACTITES_SOLVER_WORKERS: at least 1 worker process")
        if not 2 <= self.match_room_size <= 4:
            raise ValueError("STALACTITES_MATCH_ROOM_SIZE: 2 to 4 players")

    @property
    def client_path(self) -> Path:
        return default_client_dir() if self.client_dir is None else self.client_dir


SWITCHES = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False}


def _convert(variable: str, text: str, kind: str) -> object:
    if kind == "bool":
        if text.lower() not in SWITCHES:
            raise ValueError(f"{variable}={text!r}: not a switch (1, true, yes or 0, false, no)")
        return SWITCHES[text.lower()]
    try:
        if kind == "int":
            value: object = int(text)
        elif kind == "float":
            value = float(text)
        elif kind.startswith("Path"):
            return Path(text)
        else:
            return text
    except ValueError:
        raise ValueError(f"{variable}={text!r}: not a number") from None
    if isinstance(value, int | float) and value < 0:
        raise ValueError(f"{variable}={text!r}: must not be negative")
    return value
