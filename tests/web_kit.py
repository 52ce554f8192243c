"""The browser tests' kit: a real server in its own process (``stalactites serve``), the
browser (Debian's chromium through Playwright), the console watcher, pages in their own
contexts, screenshots, and a JSON POST.  The fixtures here are imported by the browser test
modules (``tests/test_web*.py``), each module its own server and browser.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from browser_kit import CHROMIUM, CHROMIUM_ARGS
from server_kit import end_process, free_port

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "test-output"
REDIS_URL = "redis://127.0.0.1:6379/0"


def _wait_healthy(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not become healthy in 20 s")


class ServerProcess:
    """``stalactites serve`` in its own process on a fixed free port; stop and start it again."""

    def __init__(self, env: dict[str, str]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
        # Every test's rooms come from 127.0.0.1: creating and joining are not limited here
        # (tests/test_abuse.py tests those limits).  Moves and frames keep the default limits,
        # which the web client, played at a test's speed, must stay within.
        self.env.update(STALACTITES_CREATE_RATE="0", STALACTITES_JOIN_RATE="0")
        self.env.update(env)
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [str(Path(sys.executable).parent / "stalactites"), "serve"]
        self.process = subprocess.Popen(
            [*command, "--port", str(self.port)],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=ROOT,
        )
        _wait_healthy(self.url, self.process)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is None:
            return
        end_process(self.process, sig)
        self.process = None


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    """A real server (in-memory store) in its own process, on a free loopback port."""
    server = ServerProcess({})
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def redis_server() -> Iterator[ServerProcess]:
    """A server on the real Redis, under a key prefix of this test's own (deleted afterwards)."""
    prefix = f"test:web:{uuid.uuid4().hex[:12]}:"
    server = ServerProcess({"REDIS_URL": REDIS_URL, "STALACTITES_REDIS_PREFIX": prefix})
    server.start()
    try:
        yield server
    finally:
        server.stop()
        client = redis.Redis.from_url(REDIS_URL)
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            client.delete(*keys)
        client.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


class Console:
    """Every console error and uncaught exception of the pages it watches."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.allowed: list[re.Pattern[str]] = []

    def allow(self, pattern: str) -> None:
        """Errors matching ``pattern`` are expected in this test (and only in this one)."""
        self.allowed.append(re.compile(pattern))

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p in self.allowed)]

    def watch(self, page: Page) -> Page:
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        return page


@pytest.fixture
def console() -> Iterator[Console]:
    watcher = Console()
    yield watcher
    assert watcher.unexpected() == [], f"console errors: {watcher.unexpected()}"


@pytest.fixture
def new_page(browser: Browser, server_url: str, console: Console) -> Iterator[Callable[..., Page]]:
    """Open pages, each in its own browser context (its own storage) unless one is given."""
    contexts: list[BrowserContext] = []

    def make(path: str = "/", context: BrowserContext | None = None, width: int = 1200) -> Page:
        if context is None:
            context = browser.new_context(viewport={"width": width, "height": 900})
            contexts.append(context)
        page = console.watch(context.new_page())
        page.goto(path if path.startswith("http") else f"{server_url}{path}")
        return page

    yield make
    for context in contexts:
        context.close()


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        data: dict[str, Any] = json.loads(answer.read())
        return data


# The catalogue check: the texts a page shows (text nodes, and the labels, titles and
# placeholders of its elements) against the English catalogue.  A text that is the same in
# both catalogues (a number, notation such as "10/52", a symbol) is language-neutral.
UNTRANSLATED = r"""async (lang) => {
    const en = (await import('./js/lang/en.js')).default;
    const mine = (await import(`./js/lang/${lang}.js`)).default;
    const forms = (v) => (typeof v === 'object' ? Object.values(v) : [v]);
    const escape = (s) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
    const exact = new Set();
    const patterns = [];
    for (const [key, value] of Object.entries(en)) {
        if (JSON.stringify(mine[key]) === JSON.stringify(value)) continue;
        for (const form of forms(value)) {
            if (!/\p{L}{2,}/u.test(form.replace(/\{\w+\}/g, ''))) continue;
            if (form.includes('{')) {
                const parts = form.split(/\{\w+\}/).map(escape);
                patterns.push([key, new RegExp('^' + parts.join('.+') + '$', 's')]);
            } else exact.add(form);
        }
    }
    const shown = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const node = walker.currentNode;
        // The language switch names each language in its own words, on every page.
        if (node.parentElement?.closest('script, style, noscript, #lang')) continue;
        shown.push(node.nodeValue.trim());
    }
    for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder]')) {
        for (const name of ['aria-label', 'title', 'placeholder']) {
            if (el.hasAttribute(name)) shown.push(el.getAttribute(name).trim());
        }
    }
    shown.push(document.title);
    const bad = [];
    for (const item of shown) {
        if (!item) continue;
        if (exact.has(item)) bad.push(item);
        else {
            const hit = patterns.find(([, re]) => re.test(item));
            if (hit) bad.push(`${item} (like en.${hit[0]})`);
        }
    }
    return bad;
}"""

# Every control has a name a screen reader can say, and the page says its language.
UNNAMED = r"""() => {
    const named = (el) => (el.getAttribute('aria-label') || el.textContent || el.title
        || el.closest('label')?.textContent || el.getAttribute('placeholder') || '').trim();
    const controls = [...document.querySelectorAll('button, a[href], select, input')];
    const shown = controls.filter((el) => el.offsetParent !== null);
    return shown.filter((el) => !named(el)).map((el) => el.outerHTML);
}"""


def check_page(page: Page, lang: str) -> None:
    """No English left on a Polish or Kazakh page, every control named, the language said."""
    expect(page.locator("html")).to_have_attribute("lang", lang)
    if lang != "en":
        assert page.evaluate(UNTRANSLATED, lang) == [], f"English on a {lang} page {page.url}"
    assert page.evaluate(UNNAMED) == [], f"unnamed controls on {page.url}"
