"""The browser the web tests drive: Debian's chromium, started by Playwright with these flags
(no sandbox, as root in a container; nothing fetched in the background)."""

from __future__ import annotations

__all__ = ["CHROMIUM", "CHROMIUM_ARGS"]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
