"""The web client's files: served as they are in ``client_web/`` (no build step), compressed
and revalidated.

- Compressed: gzip (Starlette's ``GZipMiddleware``) for every answer of 500 bytes or more
  when the browser accepts it; ``Vary: Accept-Encoding`` tells caches the two forms apart.
- Revalidated: ``Cache-Control: no-cache`` with the file's ``ETag`` (and ``Last-Modified``).
  The ES modules import each other by plain path (``../board/board.js``), so a versioned,
  immutable address would need the imports rewritten at build time.  Instead a browser keeps
  every file and asks again on each load: an unchanged file costs a ``304`` with no body, a
  changed one (a deploy) is fetched at once, and no mix of old and new modules is ever run.
"""

from __future__ import annotations

import os
from pathlib import Path

from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import Response
from starlette.staticfiles import PathLike, StaticFiles
from starlette.types import ASGIApp, Scope

__all__ = ["CLIENT_CACHE_CONTROL", "client_files"]

CLIENT_CACHE_CONTROL = "no-cache"
MINIMUM_COMPRESSED_BYTES = 500


class _RevalidatedFiles(StaticFiles):
    """Starlette's static files, each answer (``200`` or ``304``) marked for revalidation."""

    def file_response(
        self,
        full_path: PathLike,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["cache-control"] = CLIENT_CACHE_CONTROL
        return response


def client_files(directory: Path) -> ASGIApp:
    """The client's files under ``directory`` (``index.html`` for ``/``), gzip-compressed."""
    files = _RevalidatedFiles(directory=directory, html=True)
    return GZipMiddleware(files, minimum_size=MINIMUM_COMPRESSED_BYTES)
