"""``stalactites mod grant|revoke USERNAME``: an operator gives a registered player the
moderator's role, or takes it back, on the configured store (``REDIS_URL``; the in-memory
store lives inside its server process, out of this command's reach).  The change goes in
the moderators' audit log."""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

from ..config import ServerConfig
from ..fairplay.service import set_moderator
from ..players.names import username_key
from ..store import open_fairplay_store, open_player_store
from .usage import UsageError, emit, store_of

__all__ = ["add_mod"]


def add_mod(commands: Any) -> None:
    mod = commands.add_parser("mod", help="grant or revoke the moderator's role (REDIS_URL)")
    mod.add_argument("action", choices=("grant", "revoke"))
    mod.add_argument("username", metavar="USERNAME")
    mod.set_defaults(run=cmd_mod)


def cmd_mod(args: argparse.Namespace) -> int:
    config = ServerConfig.from_env()
    if store_of(config) == "memory":
        raise UsageError("mod works on a Redis store: set REDIS_URL to the server's")
    return asyncio.run(_mod(config, args.action == "grant", args.username))


async def _mod(config: ServerConfig, granted: bool, username: str) -> int:
    url, prefix, cluster = config.store_url, config.redis_prefix, config.redis_cluster
    players = open_player_store(url, prefix, cluster)
    fair = open_fairplay_store(url, prefix, cluster)
    try:
        player_id = await players.find_username(username_key(username))
        record = None if player_id is None else await players.load_player(player_id)
        if player_id is None or record is None:
            raise UsageError(f"no registered player {username!r}")
        await set_moderator(fair, player_id, granted, int(time.time() * 1000))
    finally:
        await players.close()
        await fair.close()
    emit({"player_id": player_id, "username": record.username, "moderator": granted})
    return 0
