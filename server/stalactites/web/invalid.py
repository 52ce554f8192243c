"""What a ``bad_message`` says about invalid input: the field at fault and the problem, never
the client's input.

pydantic's messages sometimes quote the input (a discriminator's unknown tag,
a validator's message such as the engine's ``not a deal id: 'x'``) and its
locations name the client's own keys (an extra field).  Echoing input back
invites reflected markup in a careless client and log injection, so
:func:`describe` drops quoted input from the message, names a location part
only if it is a plain identifier or an index (an unknown key that is not one
is left out), and says ``an unknown field`` for a key that is not part of the
protocol.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import islice
from typing import Any

from pydantic import ValidationError

__all__ = ["describe"]

PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,31}")
MAX_QUOTED = 10_000  # input strings looked for in a message, at most (inputs are capped)


def describe(error: ValidationError) -> tuple[str | None, str]:
    """(field, message) of the first error: the dotted location (None: the whole body or
    frame), and ``"field: problem"``."""
    first = error.errors()[0]
    kind = first["type"]
    parts = [_part(part) for part in first["loc"]]
    if kind == "extra_forbidden":
        parts = parts if parts and parts[-1] != "?" else parts[:-1]
        problem = "an unknown field"
    elif kind == "union_tag_invalid":
        context = first.get("ctx", {})
        expected = context.get("expected_tags", "")
        parts.append(str(context.get("discriminator", "'type'")).strip("'\""))
        problem = f"not a known type (one of {expected})"
    else:
        problem = _scrub(_plain(first["msg"], kind), first.get("input"))
    field = ".".join(parts) or None
    return field, f"{field}: {problem}" if field else problem


def _part(part: str | int) -> str:
    if isinstance(part, int) or PLAIN_NAME.fullmatch(part):
        return str(part)
    return "?"


def _plain(message: str, kind: str) -> str:
    if kind in ("value_error", "assertion_error"):
        return message.split(", ", 1)[1] if ", " in message else message
    return message


def _scrub(message: str, value: Any) -> str:
    """The message without any quoted string of the input in it."""
    for text in islice(_strings(value), MAX_QUOTED):
        quoted = repr(text)
        message = message.replace(f": {quoted}", "").replace(quoted, "the value")
    return message


def _strings(value: Any) -> Iterator[str]:
    """The non-empty strings in ``value``, in nested lists and dicts (keys too)."""
    if isinstance(value, str):
        if value:
            yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
