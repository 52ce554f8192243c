"""What every subcommand shares: wrong arguments (:class:`UsageError`, raised by the
:class:`Parser`), JSON on standard output (:func:`emit`), the games' and steps' names, the
kind of store ``REDIS_URL`` names (:func:`store_of`)."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any, NoReturn

from ..engine import GameName

if TYPE_CHECKING:
    from ..config import ServerConfig
    from ..store import StoreKind

__all__ = ["GAME_NAMES", "STEPS", "Parser", "UsageError", "emit", "store_of"]

GAME_NAMES = tuple(game.value for game in GameName)  # plain strings: argparse shows them
STEPS = ("ones", "twos")


class UsageError(Exception):
    """Wrong arguments: reported on one line with exit status 2."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def emit(data: Any) -> None:
    print(json.dumps(data, separators=(", ", ": ")), flush=True)


def store_of(config: ServerConfig) -> StoreKind:
    """The kind of store the settings name; a URL that names none is a UsageError."""
    from ..store import store_kind  # (here: the other subcommands start without the stores)

    try:
        return store_kind(config.store_url)
    except ValueError as error:
        raise UsageError(str(error)) from None
