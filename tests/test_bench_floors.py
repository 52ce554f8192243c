"""bench/floors.py, with tiny numbers, end to end: the real server on the real Redis and its three
floors, every one answering actions in both phases, a CPU figure and a ratio for each, and no
key left behind.  (Its figures are the benchmark's business; this checks only that it runs, so
that it does not rot as the server changes.)"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from conftest import REDIS_URL

pytestmark = pytest.mark.slow  # a benchmark's server processes

REPO = Path(__file__).resolve().parents[1]
ROW = re.compile(
    r"^(?P<server>server|3 frames|1 frame|echo)\s+(?P<phase>flat out|paced 20/s)\s+"
    r"(?P<actions>\d+)\s+\d+\s+(?P<cpu>[\d.]+)\s+[\d.]+\s+[\d.]+\s+(?P<ratio>[\d.]+)x$",
    re.MULTILINE,
)


def bench_keys() -> set[bytes]:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        return set(client.scan_iter(match="bench-floors:*", count=1000))
    finally:
        client.close()


def test_floors_bench_measures_the_server_and_each_floor_in_both_phases() -> None:
    keys_before = bench_keys()
    command = [sys.executable, "bench/floors.py", "--racers", "4", "--seconds", "0.5"]
    command += ["--pace", "20"]
    run = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    rows = {(match["server"], match["phase"]): match for match in ROW.finditer(run.stdout)}
    servers = ("server", "3 frames", "1 frame", "echo")
    assert set(rows) == {(s, p) for s in servers for p in ("flat out", "paced 20/s")}, run.stdout
    assert all(int(row["actions"]) >= 4 for row in rows.values()), run.stdout
    assert float(rows["3 frames", "flat out"]["ratio"]) == 1.0
    assert "server / 3-frame floor, CPU per action, flat out:" in run.stdout
    assert bench_keys() == keys_before
