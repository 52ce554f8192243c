"""Logging for ``stalactites serve``: one JSON object per line (or plain text), with context.

Every line has ``time`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger`` and
``message``, plus whichever of ``room_id``, ``player_id``, ``connection_id`` and
``tournament_id`` are known where it was logged: :func:`bind` sets them for the
running task (and the tasks it starts afterwards), and a call's ``extra`` may
name them too.  uvicorn's access lines also get ``client``, ``method``, ``path``
and ``status``.  An exception's traceback goes in ``exception``.

In the text format every message is escaped (:class:`TextFormatter`): a value from a
client, such as a path or a room id, may carry a line break, and must not start a line of
its own that a reader would take for the server's.

Tokens are never logged: they travel in hello frames and HTTP bodies, which are
not logged, and never in a URL (the access log has paths and query strings).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Coroutine
from contextvars import Context, ContextVar
from datetime import UTC, datetime
from typing import Any, TypeVar

__all__ = ["FIELDS", "JsonFormatter", "TextFormatter", "bind", "logging_config", "task"]

FIELDS = ("room_id", "player_id", "connection_id", "tournament_id")

T = TypeVar("T")

_context: ContextVar[dict[str, str] | None] = ContextVar("stalactites_log_context", default=None)


def bind(**fields: str | None) -> None:
    """Add fields (from :data:`FIELDS`) to every line logged by this task from now on."""
    current = dict(_context.get() or {})
    current.update({name: value for name, value in fields.items() if value is not None})
    _context.set(current)


def task(work: Coroutine[Any, Any, T], name: str, **fields: str) -> asyncio.Task[T]:
    """A background task whose lines carry these fields only (not those of the connection
    that happened to start it)."""
    context = Context()
    context.run(bind, **fields)
    return asyncio.create_task(work, name=name, context=context)


class JsonFormatter(logging.Formatter):
    """A record as one line of JSON."""

    def format(self, record: logging.LogRecord) -> str:
        when = datetime.fromtimestamp(record.created, UTC)
        line: dict[str, Any] = {
            "time": when.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(_context.get() or {})
        for name in FIELDS:
            value = record.__dict__.get(name)
            if value is not None:
                line[name] = value
        if record.name == "uvicorn.access":
            line.update(_access(record))
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


# Control characters (C0, DEL, C1) and Unicode's line and paragraph separators, as escapes.
_ESCAPES = {
    code: {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(chr(code), f"\\x{code:02x}")
    for code in (*range(0x20), *range(0x7F, 0xA0))
} | {0x2028: "\\u2028", 0x2029: "\\u2029"}


class TextFormatter(logging.Formatter):
    """A record as plain text, its message escaped so that it stays on its line (a traceback,
    written by the server, keeps its lines)."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        escaped = logging.makeLogRecord(record.__dict__)
        escaped.message = record.message.translate(_ESCAPES)
        return super().formatMessage(escaped)


def _access(record: logging.LogRecord) -> dict[str, Any]:
    """uvicorn's access line (client, method, path with query, HTTP version, status) as
    fields."""
    args = record.args
    if not isinstance(args, tuple) or len(args) != 5:
        return {}
    client, method, path, _, status = args
    return {"client": client, "method": method, "path": path, "status": status}


def logging_config(kind: str, level: str) -> dict[str, Any]:
    """The ``logging.config.dictConfig`` settings for the server and uvicorn: ``kind`` is
    ``json`` or ``text``; ``level`` a level name (``info``, ``warning``, ...)."""
    if kind not in ("json", "text"):
        raise ValueError(f"STALACTITES_LOG_FORMAT={kind!r}: json or text")
    name = level.upper()
    if not isinstance(logging.getLevelName(name), int):
        raise ValueError(f"STALACTITES_LOG_LEVEL={level!r}: not a level")
    if kind == "json":
        formatter: dict[str, Any] = {"()": JsonFormatter}
    else:
        formatter = {
            "()": TextFormatter,
            "fmt": "%(asctime)s %(levelname)s %(name)s: %(message)s",
        }
    handler = {
        "class": "logging.StreamHandler",
        "formatter": "default",
        "stream": "ext://sys.stderr",
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        # uvicorn sets use_colors on these two when it is told to: both are kept
        "formatters": {"default": formatter, "access": dict(formatter)},
        "handlers": {"default": handler},
        "root": {"handlers": ["default"], "level": name},
        "loggers": {
            "uvicorn": {"handlers": [], "level": name, "propagate": True},
            "uvicorn.error": {"handlers": [], "level": name, "propagate": True},
            "uvicorn.access": {"handlers": [], "level": name, "propagate": True},
        },
    }
