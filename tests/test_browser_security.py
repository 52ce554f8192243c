"""Security headers (issue 18, item 9): every kind of answer carries them, and the web client
satisfies its Content-Security-Policy: every page loads in a real browser with no violation
(``securitypolicyviolation`` events) and no console error."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from browser_kit import browser as browser  # the fixture
from server_kit import ProcessServer, _request
from stalactites.web.headers import CONTENT_SECURITY_POLICY

HEADERS = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


@pytest.fixture(scope="module")
def served() -> Iterator[ProcessServer]:
    server = ProcessServer(None)
    yield server
    server.stop()


def headers_of(url: str, method: str = "GET", body: Any = None) -> tuple[int, dict[str, str]]:
    import urllib.error
    import urllib.request

    data = None if body is None else body.encode()
    request = urllib.request.Request(url, data=data, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, {k.lower(): v for k, v in answer.headers.items()}
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("GET", "/", None, 200),
        ("GET", "/js/main.js", None, 200),
        ("GET", "/css/style.css", None, 200),
        ("GET", "/api/rooms?status=waiting", None, 200),
        ("GET", "/api/rooms?status=nope", None, 422),
        ("GET", "/api/rooms/nosuchroom", None, 404),
        ("GET", "/nothing-here.js", None, 404),
        ("POST", "/api/rooms", "[" * 100, 422),
        ("POST", "/api/rooms", "x" * 20_000, 413),
        ("GET", "/healthz", None, 200),
        ("GET", "/metrics", None, 200),
    ],
)
def test_every_kind_of_answer_carries_the_security_headers(
    served: ProcessServer, method: str, path: str, body: str | None, status: int
) -> None:
    got, headers = headers_of(served.url + path, method, body)
    assert got == status
    for name, value in HEADERS.items():
        assert headers.get(name) == value, (path, name, headers)


def visit(browser: Browser, url: str, ready: str) -> tuple[Page, list[str]]:
    """Open ``url`` in a fresh context once ``ready`` shows; the page and its console errors."""
    context = browser.new_context()
    context.add_init_script(WATCH)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
    page.goto(url)
    page.wait_for_selector(ready)
    return page, errors


def test_every_page_loads_with_no_policy_violation(browser: Browser, served: ProcessServer) -> None:
    status, room = _request(
        "POST",
        f"{served.url}/api/rooms",
        {"deal": "ms:1", "step": "ones", "seats": 1, "countdown_s": 0},
    )
    assert status == 201
    status, tournament = _request("POST", f"{served.url}/api/tournaments", {"name": "Cup"})
    assert status == 201
    room_id, tournament_id = room["room_id"], tournament["tournament_id"]
    pages = [
        ("/", "body[data-page='lobby'] #app *"),
        ("/#/help", "body[data-page='help'] #app *"),
        (f"/#/room/{room_id}", "#app form"),
        (f"/#/watch/{room_id}", "body[data-page='watch'] #app *"),
        (f"/#/tournament/{tournament_id}", "body[data-page='tournament'] #app *"),
        (f"/#/replay/{room_id}", "body[data-page='replay'] #app *"),
    ]
    for path, ready in pages:
        page, errors = visit(browser, served.url + path, ready)
        page.wait_for_load_state("networkidle")
        violations = page.evaluate("window.__violations")
        assert violations == [], (path, violations)
        assert [e for e in errors if "Content Security Policy" in e] == [], (path, errors)
        page.context.close()
    # The race page: take the seat through the join form, then the board (cards styled
    # through the CSSOM) shows.
    page, errors = visit(browser, f"{served.url}/#/room/{room_id}", "#app form")
    page.fill("#app form input", "Ada")
    page.press("#app form input", "Enter")
    page.get_by_role("button", name=re.compile("ready", re.I)).click()
    page.wait_for_selector("body[data-page='room'] .card")
    page.keyboard.press("1")
    page.keyboard.press("c")  # a move: the board is redrawn (styles patched in place)
    page.wait_for_selector(".racer.you .racer-moves:has-text('1 move')")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.__violations") == []
    assert [e for e in errors if "Content Security Policy" in e] == [], errors
    page.context.close()
