"""The web client has words for every error code the server can send, and for no other.

Every code of :func:`stalactites.protocol.codes.error_codes` has an ``error.<code>`` text in
each catalogue (``client_web/js/lang/*.js``, read as text), no catalogue has one for a code
the server never sends (api.js's own codes aside), and that list names every code the
server's source refuses with.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from stalactites.protocol.codes import error_codes
from stalactites.web import errors as web_errors

REPO = Path(__file__).resolve().parents[1]
LANG = REPO / "client_web" / "js" / "lang"
PACKAGE = REPO / "server" / "stalactites"
LANGUAGES = ["en", "pl", "kk"]

# api.js's own codes: no answer at all, a 409 without a code, and anything unknown.
CLIENT_ONLY = {"network", "conflict", "other"}

# What refuses with a code as its first argument (or ``code=``): the domain errors, the
# HTTP refusal, a socket's rejected frame, and a connection's ``self.error``/``self.refuse``.
REFUSERS = {
    "RoomError",
    "TournamentError",
    "FriendsError",
    "ArenaError",
    "FairPlayError",
    "HintRefused",
    "Refused",
    "Rejected",
}
CONNECTION_REFUSERS = {"error", "refuse"}


def error_keys(lang: str) -> set[str]:
    """The codes a catalogue has an ``error.<code>`` text for (``error.field.*`` aside)."""
    text = (LANG / f"{lang}.js").read_text(encoding="utf-8")
    return set(re.findall(r'^  "error\.(\w+)":', text, re.MULTILINE))


def refused_with() -> list[ast.expr]:
    """The code argument of every refusal in the server's source."""
    found: list[ast.expr] = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _refuser(node.func):
                found += node.args[:1] + [k.value for k in node.keywords if k.arg == "code"]
    return found


def refused_codes() -> set[str]:
    """Every code the server's source refuses with as a literal."""
    found = refused_with()
    return {a.value for a in found if isinstance(a, ast.Constant) and isinstance(a.value, str)}


def _refuser(func: ast.expr) -> bool:
    if isinstance(func, ast.Name):
        return func.id in REFUSERS
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id == "self"
        and func.attr in CONNECTION_REFUSERS
    )


@pytest.mark.slow
def test_the_scan_finds_the_codes_the_server_refuses_with() -> None:
    found = refused_codes()
    assert {"bad_origin", "forbidden", "no_daily", "already_queued", "too_late"} <= found


@pytest.mark.slow
def test_no_code_is_made_up_at_run_time() -> None:
    """A code built by an f-string would hide from the scan and from the list."""
    made = [ast.unparse(a) for a in refused_with() if isinstance(a, ast.JoinedStr)]
    assert made == []


@pytest.mark.slow
def test_every_code_the_server_refuses_with_is_listed() -> None:
    assert sorted(refused_codes() - error_codes().keys()) == []


def test_every_code_with_an_http_status_is_listed() -> None:
    tables = [
        web_errors.ROOM_STATUS,
        web_errors.TOURNAMENT_STATUS,
        web_errors.PLAYER_STATUS,
        web_errors.FRIENDS_STATUS,
        web_errors.ARENA_STATUS,
        web_errors.FAIRPLAY_STATUS,
    ]
    assert sorted({code for table in tables for code in table} - error_codes().keys()) == []


def test_every_listed_code_has_a_meaning() -> None:
    assert [code for code, meaning in error_codes().items() if not meaning.strip()] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalogue_has_words_for_every_server_code(lang: str) -> None:
    missing = sorted(error_codes().keys() - error_keys(lang))
    assert missing == [], f"client_web/js/lang/{lang}.js: add error.<code> for {missing}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_catalogue_has_words_for_a_code_the_server_never_sends(lang: str) -> None:
    unknown = sorted(error_keys(lang) - error_codes().keys() - CLIENT_ONLY)
    assert unknown == [], f"client_web/js/lang/{lang}.js: no server sends {unknown}"
