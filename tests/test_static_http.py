"""The web client's files over real HTTP: gzip-compressed when the browser takes it, and
revalidated on every load (``Cache-Control: no-cache`` with an ``ETag``), so that a deploy's
new modules are fetched at once and unchanged ones cost a body-less ``304``."""

from __future__ import annotations

import gzip
import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from server_kit import InProcessServer, ManualClock, make_config

SCRIPT = "export const names = [\n" + "  'card',\n" * 200 + "];\n"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A server whose client folder is ``tmp_path``, with an index page and one module."""
    (tmp_path / "index.html").write_text("<!doctype html><title>race</title>")
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "board.js").write_text(SCRIPT)
    with InProcessServer(make_config("memory://", client_dir=tmp_path), ManualClock()) as server:
        yield server.url, tmp_path


def get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def test_a_module_is_sent_gzipped_to_a_browser_that_accepts_gzip(
    client: tuple[str, Path],
) -> None:
    url, _ = client
    status, headers, body = get(f"{url}/js/board.js", **{"Accept-Encoding": "gzip, br"})
    assert (status, headers["content-encoding"]) == (200, "gzip")
    assert "accept-encoding" in headers["vary"].lower()
    assert gzip.decompress(body).decode() == SCRIPT
    assert len(body) < len(SCRIPT) / 4


def test_a_module_is_sent_plain_to_a_client_that_takes_no_compression(
    client: tuple[str, Path],
) -> None:
    url, _ = client
    status, headers, body = get(f"{url}/js/board.js")
    assert (status, "content-encoding" in headers, body.decode()) == (200, False, SCRIPT)


@pytest.mark.parametrize("path", ["/", "/js/board.js"])
def test_every_client_file_is_revalidated_by_its_etag(client: tuple[str, Path], path: str) -> None:
    url, _ = client
    status, headers, _ = get(f"{url}{path}")
    assert (status, headers["cache-control"]) == (200, "no-cache")
    status, again, body = get(f"{url}{path}", **{"If-None-Match": headers["etag"]})
    assert (status, body, again["cache-control"]) == (304, b"", "no-cache")


def test_a_changed_module_is_sent_again_to_a_browser_holding_the_old_one(
    client: tuple[str, Path],
) -> None:
    url, folder = client
    _, headers, _ = get(f"{url}/js/board.js")
    module = folder / "js" / "board.js"
    module.write_text("export const board = 'new';\n")
    stat = module.stat()
    os.utime(module, (stat.st_atime, stat.st_mtime + 60))  # a deploy, a minute later
    status, _, body = get(f"{url}/js/board.js", **{"If-None-Match": headers["etag"]})
    assert (status, body) == (200, b"export const board = 'new';\n")
