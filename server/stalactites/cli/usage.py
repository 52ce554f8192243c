"""What every subcommand shares: wrong arguments (:class:`UsageError`, raised by the
:class:`Parser`), JSON on standard output (:func:`emit`), the games' and steps' names."""

from __future__ import annotations

import argparse
import json
from typing import Any, NoReturn

from ..engine import GameName

__all__ = ["GAME_NAMES", "STEPS", "Parser", "UsageError", "emit"]

GAME_NAMES = tuple(game.value for game in GameName)  # plain strings: argparse shows them
STEPS = ("ones", "twos")


class UsageError(Exception):
    """Wrong arguments: reported on one line with exit status 2."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def emit(data: Any) -> None:
    print(json.dumps(data, separators=(", ", ": ")), flush=True)
