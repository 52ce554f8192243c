"""Lighthouse's performance, accessibility and best-practices scores of the lobby, of a
room's page as a shared link opens it (the join form) and of a seated race page (a race in
play, seen by one of its racers), one line each.

    nice .venv/bin/python bench/lighthouse.py [--url http://127.0.0.1:8000] [--preset mobile]

Without ``--url`` it starts ``stalactites serve`` (memory store) on a free port.  Lighthouse
(npm ``lighthouse@12.2.3``, Node 20) is installed on first use into ``bench/.node/`` from
the npm registry; it drives Debian's chromium (``CHROME_PATH=/usr/bin/chromium``, headless,
no sandbox).  The goal is 95 or more for each score; the test suite never runs this.

The race page needs a seat, which the web client keeps in localStorage (``sr.room.ID``):
the bench seats two racers through the HTTP API, starts the race over their sockets, and
writes the first racer's seat into a chromium profile of its own with Playwright (on a
same-origin JSON answer, so no file of the client is cached), removes the profile's caches,
and has Lighthouse run that profile with its storage reset turned off (the load is as cold
as any other: nothing of the client is in the profile, only the seat).

With ``--main-thread SECONDS`` it runs no Lighthouse but measures the seated race page's
main-thread time during a race: the page open and idle in chromium while the rival, on a
socket of the bench's, plays (a random legal move, then its undo, ``--pace`` a second);
chromium's counters (CDP ``Performance.getMetrics``: task, script, layout and style time)
over those seconds, in ms per second, the CPU slowed ``--cpu-slowdown`` times.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.async_api import CDPSession, async_playwright
from playwright.sync_api import sync_playwright
from websockets.asyncio.client import connect

from benchkit import NO_LIMITS, Racer, post, race, stalactites_command, start_server

LIGHTHOUSE = "lighthouse@12.2.3"
NODE_DIR = Path(__file__).resolve().parent / ".node"
CHROME = "/usr/bin/chromium"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu"
CATEGORIES = ("performance", "accessibility", "best-practices")
BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def lighthouse_bin() -> Path:
    binary = NODE_DIR / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        NODE_DIR.mkdir(exist_ok=True)
        command = ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(NODE_DIR)]
        subprocess.run([*command, LIGHTHOUSE], check=True)
    return binary


def scores(binary: Path, url: str, preset: str, profile: Path | None = None) -> dict[str, int]:
    """One Lighthouse run of ``url`` (``preset``: desktop or mobile; ``profile``: a chromium
    profile to run, its storage kept); each score out of 100."""
    flags = CHROME_FLAGS if profile is None else f"{CHROME_FLAGS} --user-data-dir={profile}"
    command = [
        str(binary),
        url,
        "--output=json",
        "--output-path=stdout",
        "--quiet",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={flags}",
    ]
    if profile is not None:
        command.append("--disable-storage-reset")  # the seat is the profile's localStorage
    if preset == "desktop":
        command.append("--preset=desktop")
    env = {**os.environ, "CHROME_PATH": CHROME}
    done = subprocess.run(command, check=True, capture_output=True, text=True, env=env)
    report = json.loads(done.stdout)
    return {name: round(report["categories"][name]["score"] * 100) for name in CATEGORIES}


async def _started_race(base: str) -> tuple[dict[str, str], dict[str, str]]:
    """A race in play between two seats, started over their sockets: the two seats."""
    room = post(f"{base}/api/rooms", {"seats": 2, "countdown_s": 0})["room_id"]
    seats = [post(f"{base}/api/rooms/{room}/players", {"name": n}) for n in ("Bench", "Rival")]
    sockets = [await connect(f"ws://{base[7:]}/ws/rooms/{room}") for _ in seats]
    try:
        for ws, seat in zip(sockets, seats, strict=True):
            await ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
            await ws.send(json.dumps({"type": "ready"}))
        while json.loads(await sockets[0].recv())["type"] != "started":
            pass
    finally:
        for ws in sockets:
            await ws.close()
    bench, rival = (
        {"room_id": room, "player_id": s["player_id"], "token": s["token"]} for s in seats
    )
    return bench, rival


def seated_profile(base: str, seat: dict[str, str], profile: Path) -> None:
    """A chromium profile whose localStorage holds the seat, and nothing of the client."""
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=CHROME, headless=True, args=["--no-sandbox"]
        )
        page = context.new_page()
        page.goto(f"{base}/api/rooms/{seat['room_id']}")  # same origin, no client file
        kept = {"player_id": seat["player_id"], "token": seat["token"]}
        page.evaluate(
            "([key, value]) => localStorage.setItem(key, value)",
            [f"sr.room.{seat['room_id']}", json.dumps(kept)],
        )
        context.close()
    for cache in ("Cache", "Code Cache", "GPUCache", "Service Worker"):
        shutil.rmtree(profile / "Default" / cache, ignore_errors=True)


METRICS = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")


async def main_thread(base: str, seconds: float, pace: float, slowdown: float) -> dict[str, float]:
    """The seated race page's main-thread time while its opponent plays: the racer's page
    open in chromium (1366x768) and idle, the rival acting ``pace`` times a second (a random
    legal move, then its undo) for ``seconds``; chromium's own counters (CDP
    ``Performance.getMetrics``) over that time, in ms per second, with the CPU slowed down
    ``slowdown`` times (Lighthouse's mobile preset slows it 4 times)."""
    seat, rival = await _started_race(base)
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROME, args=BROWSER_ARGS)
        page = await browser.new_page(viewport={"width": 1366, "height": 768})
        await page.goto(f"{base}/api/rooms/{seat['room_id']}")  # same origin: its storage
        kept = {"player_id": seat["player_id"], "token": seat["token"]}
        await page.evaluate(
            "([key, value]) => localStorage.setItem(key, value)",
            [f"sr.room.{seat['room_id']}", json.dumps(kept)],
        )
        await page.goto(f"{base}/#/room/{seat['room_id']}")
        await page.wait_for_selector(".board .card")
        cdp = await page.context.new_cdp_session(page)
        await cdp.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
        await cdp.send("Performance.enable")
        ws = await connect(f"ws://{base[7:]}/ws/rooms/{seat['room_id']}")
        try:
            await ws.send(json.dumps({"type": "hello", "token": rival["token"]}))
            racer = Racer(ws)
            while not racer.legal:
                frame = json.loads(await ws.recv())
                if frame["type"] == "welcome":
                    racer.legal = frame["legal"]
            await asyncio.sleep(1)  # the page has drawn the rival's reconnection
            before = await _metrics(cdp)
            began = time.perf_counter()
            await race(racer, seconds, pace, random.Random(16))
            after = await _metrics(cdp)
            elapsed = time.perf_counter() - began
        finally:
            await ws.close()
            await browser.close()
    figures = {name: 1000 * (after[name] - before[name]) / elapsed for name in METRICS}
    return figures | {"actions": racer.sent, "seconds": elapsed}


async def _metrics(cdp: CDPSession) -> dict[str, float]:
    got = await cdp.send("Performance.getMetrics")
    return {m["name"]: m["value"] for m in got["metrics"]}


def pages(base: str, profile: Path) -> dict[str, tuple[str, Path | None]]:
    """The pages measured: the lobby, a room's page as its shared link opens it (the join
    form: a fresh browser has no seat), and a seated race page (the seat in ``profile``)."""
    waiting = post(f"{base}/api/rooms", {"seats": 2})["room_id"]
    post(f"{base}/api/rooms/{waiting}/players", {"name": "Bench"})
    seat, _ = asyncio.run(_started_race(base))
    seated_profile(base, seat, profile)
    return {
        "lobby": (f"{base}/#/", None),
        "room (join)": (f"{base}/#/room/{waiting}", None),
        "race (seated)": (f"{base}/#/room/{seat['room_id']}", profile),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--preset", choices=("desktop", "mobile"), default="desktop")
    parser.add_argument(
        "--main-thread",
        type=float,
        metavar="SECONDS",
        help="instead of Lighthouse: the race page's main-thread time over SECONDS of a race",
    )
    parser.add_argument("--pace", type=float, default=2.0, help="the rival's actions a second")
    parser.add_argument("--cpu-slowdown", type=float, default=1.0, help="chromium's CPU slowed")
    args = parser.parse_args()
    binary = None if args.main_thread else lighthouse_bin()
    server = None
    if args.url is None:
        server = start_server("serve", stalactites_command(), NO_LIMITS)
    base = args.url if server is None else f"http://{server.url}"
    profile = Path(tempfile.mkdtemp(prefix="lighthouse-seat-"))
    try:
        if args.main_thread:
            got = asyncio.run(main_thread(base, args.main_thread, args.pace, args.cpu_slowdown))
            print(
                f"race page, the rival {got['actions']} actions in {got['seconds']:.1f} s, "
                f"CPU slowed {args.cpu_slowdown:g}x; main thread, ms per second:"
            )
            print("  ".join(f"{name} {got[name]:.1f}" for name in METRICS))
            return 0
        assert binary is not None
        print(f"lighthouse {LIGHTHOUSE.split('@')[1]}, {args.preset}, {base}")
        for name, (url, seated) in pages(base, profile).items():
            got = scores(binary, url, args.preset, seated)
            print(f"{name:16s} " + "  ".join(f"{k} {v}" for k, v in got.items()))
    finally:
        shutil.rmtree(profile, ignore_errors=True)
        if server is not None:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
