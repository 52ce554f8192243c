"""Reading a server's ``GET /metrics``: the Prometheus text exposition, parsed strictly."""

from __future__ import annotations

import asyncio
import re
import time
import urllib.request

LABEL = r'[a-z_]+="(?:[^"\\]|\\.)*"'
SAMPLE = re.compile(rf"^([a-z_]+)(?:\{{({LABEL}(?:,{LABEL})*)\}})? (-?[0-9.e+-]+|\+Inf)$")
ONE_LABEL = re.compile(r'^[a-z_]+="((?:[^"\\]|\\.)*)"$')

Samples = dict[tuple[str, str | None], float]


def parse(text: str) -> Samples:
    """Every sample as ``{(name, label value or None): value}`` (with several labels, their
    text as written: ``a="x",b="y"``); each line must be a comment
    or one sample (the exposition's format), and every sample's family declared by TYPE."""
    samples: Samples = {}
    families: set[str] = set()
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            families.add(line.split()[2])
            continue
        if line.startswith("# HELP "):
            continue
        match = SAMPLE.match(line)
        assert match is not None, f"not a sample: {line!r}"
        name, labels, value = match.groups()
        one = ONE_LABEL.match(labels or "")
        label = one.group(1) if one else labels
        family = re.sub(r"_(bucket|sum|count)$", "", name)
        assert name in families or family in families, f"undeclared: {line!r}"
        samples[(name, label)] = float(value)
    return samples


async def scrape(base: str) -> Samples:
    """The server's metrics now (the content type checked too)."""
    status, headers, body = await _get(f"{base}/metrics")
    assert status == 200, body
    assert headers.startswith("text/plain; version=0.0.4"), headers
    return parse(body)


async def counted(base: str, key: tuple[str, str | None], seconds: float = 20.0) -> float:
    """The counter ``key`` once it is at least 1, read again until then (work that moves it may
    still be under way when the test has seen its effect), failing after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        value = (await scrape(base)).get(key, 0.0)
        if value >= 1 or time.monotonic() > deadline:
            assert value >= 1, f"{key} was not counted in {seconds} s"
            return value
        await asyncio.sleep(0.05)


async def _get(url: str) -> tuple[int, str, str]:
    def fetch() -> tuple[int, str, str]:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, answer.headers["Content-Type"], answer.read().decode()

    return await asyncio.to_thread(fetch)
