"""bench/scale.py, at a small scale, end to end: two server processes on the real Redis, racers,
spectators and players waiting, every socket opened and still open after every phase, every
move answered; and it leaves no key behind.  (Its figures are the benchmark's business; this
checks only that it runs and counts right, so that it does not rot as the server changes.)"""

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
PHASE_ROW = re.compile(
    r"^(?P<phase>paced 1/s|flat out|paced 1/s, racers only)\s+(?P<moves>\d+)\s+\d+"
    r"(?:\s+[\d.]+){3}\s+(?P<rejected>\d+)\s+(?P<open>\d+)\s+\d+$",
    re.MULTILINE,
)


def bench_keys() -> set[bytes]:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        return set(client.scan_iter(match="bench-scale:*", count=1000))
    finally:
        client.close()


def test_scale_bench_opens_every_socket_keeps_them_open_and_answers_every_move() -> None:
    keys_before = bench_keys()
    command = [sys.executable, "bench/scale.py", "--connections", "24", "--racers", "4"]
    command += ["--spectators", "8", "--seconds", "2", "--flat-seconds", "1"]
    command += ["--settle", "0.3", "--rest", "0.3"]
    run = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    out = run.stdout
    assert "24 planned, 24 opened (12 on server 1, 12 on server 2), 0 failed" in out, out
    assert "4 racers racing" in out, out
    rows = {match["phase"]: match for match in PHASE_ROW.finditer(out)}
    assert set(rows) == {"paced 1/s", "flat out", "paced 1/s, racers only"}, out
    assert int(rows["paced 1/s"]["moves"]) >= 4  # each racer at least once in 2 s at 1/s
    assert int(rows["flat out"]["moves"]) >= 4
    assert all(int(row["rejected"]) == 0 for row in rows.values()), out
    assert int(rows["paced 1/s"]["open"]) == 24
    assert int(rows["flat out"]["open"]) == 24
    assert int(rows["paced 1/s, racers only"]["open"]) == 4
    assert "10,000 connections held: 24 opened, 24 open after the paced phase: NOT met" in out
    assert bench_keys() == keys_before
