"""The ``stalactites`` command: deals, moves, replays and a terminal game."""

from .main import main

__all__ = ["main"]
