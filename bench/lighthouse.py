"""Lighthouse's performance, accessibility and best-practices scores of the lobby and of a
room's page (the join form a shared link opens), one line each.

    nice .venv/bin/python bench/lighthouse.py [--url http://127.0.0.1:8000]

Without ``--url`` it starts ``stalactites serve`` (memory store) on a free port.  Lighthouse
(npm ``lighthouse@12.2.3``, Node 20) is installed on first use into ``bench/.node/`` from
the npm registry; it drives Debian's chromium (``CHROME_PATH=/usr/bin/chromium``, headless,
no sandbox).  The goal is 95 or more for each score; the test suite never runs this.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from benchkit import NO_LIMITS, post, stalactites_command, start_server

LIGHTHOUSE = "lighthouse@12.2.3"
NODE_DIR = Path(__file__).resolve().parent / ".node"
CHROME = "/usr/bin/chromium"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu"
CATEGORIES = ("performance", "accessibility", "best-practices")


def lighthouse_bin() -> Path:
    binary = NODE_DIR / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        NODE_DIR.mkdir(exist_ok=True)
        command = ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(NODE_DIR)]
        subprocess.run([*command, LIGHTHOUSE], check=True)
    return binary


def scores(binary: Path, url: str, preset: str) -> dict[str, int]:
    """One Lighthouse run of ``url`` (``preset``: desktop or mobile); each score out of 100."""
    command = [
        str(binary),
        url,
        "--output=json",
        "--output-path=stdout",
        "--quiet",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={CHROME_FLAGS}",
    ]
    if preset == "desktop":
        command.append("--preset=desktop")
    env = {**os.environ, "CHROME_PATH": CHROME}
    done = subprocess.run(command, check=True, capture_output=True, text=True, env=env)
    report = json.loads(done.stdout)
    return {name: round(report["categories"][name]["score"] * 100) for name in CATEGORIES}


def pages(base: str) -> dict[str, str]:
    """The pages measured: the lobby, and a room's page as its shared link opens it (the join
    form: a fresh browser has no seat, and the seated board needs one in localStorage)."""
    waiting = post(f"{base}/api/rooms", {"seats": 2})["room_id"]
    post(f"{base}/api/rooms/{waiting}/players", {"name": "Bench"})
    return {"lobby": f"{base}/#/", "room": f"{base}/#/room/{waiting}"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--preset", choices=("desktop", "mobile"), default="desktop")
    args = parser.parse_args()
    binary = lighthouse_bin()
    server = None
    if args.url is None:
        server = start_server("serve", stalactites_command(), NO_LIMITS)
    base = args.url if server is None else f"http://{server.url}"
    try:
        print(f"lighthouse {LIGHTHOUSE.split('@')[1]}, {args.preset}, {base}")
        for name, url in pages(base).items():
            got = scores(binary, url, args.preset)
            print(f"{name:16s} " + "  ".join(f"{k} {v}" for k, v in got.items()))
    finally:
        if server is not None:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
