"""The Redis stores' Lua scripts, read from ``store/lua/`` when a store starts.

``lua/rooms/*.lua`` change rooms, ``lua/tournaments/*.lua`` tournaments,
``lua/players/*.lua`` players, ``lua/create.lua`` makes a room or a tournament; each names its
KEYS and ARGV in a comment at its top.  A line ``--#include NAME`` stands for the file
``lua/include/NAME.lua`` (a piece several scripts share, such as the rooms' ``append``), put
in its place when the script is read: the text Redis runs is the file with its includes
written out, nothing more.

>>> "local function append" in lua("rooms/join")
True
"""

from __future__ import annotations

from functools import cache
from importlib import resources

__all__ = ["INCLUDE", "lua"]

INCLUDE = "--#include "


@cache
def lua(name: str) -> str:
    """The script ``lua/NAME.lua`` (``rooms/commit``, ``create``...), its includes written out."""
    text = resources.files("stalactites.store").joinpath("lua", f"{name}.lua").read_text("utf-8")
    lines = []
    for line in text.splitlines(keepends=True):
        if line.startswith(INCLUDE):
            lines.append(lua(f"include/{line[len(INCLUDE) :].strip()}"))
        else:
            lines.append(line)
    return "".join(lines)
