"""docs/bots.md's minimal bot, run as written: two of them, each an account of its own,
declare themselves bots and race each other in a quick race on a real server."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path

import pytest

from players_kit import anonymous, api
from server_kit import REPO, InProcessServer

pytestmark = pytest.mark.slow  # two bots in processes of their own


def bot_script() -> str:
    text = (REPO / "docs" / "bots.md").read_text("utf-8")
    code: str
    [code] = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    return code


async def test_the_documented_bot_races_another_bot(
    server: InProcessServer, tmp_path: Path
) -> None:
    script = tmp_path / "bot.py"
    script.write_text(bot_script(), "utf-8")
    names = ("docbot-one", "docbot-two")
    for name in names:
        made = await anonymous(server.url)
        body = {"username": name, "password": "correct horse battery"}
        status, answer, _ = await api("POST", f"{server.url}/api/accounts", body, made["token"])
        assert status == 201, answer
    bots = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            str(script),
            server.url,
            name,
            "correct horse battery",
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for name in names
    ]
    outputs = await asyncio.wait_for(asyncio.gather(*(bot.communicate() for bot in bots)), 120)
    for bot, (_, err) in zip(bots, outputs, strict=True):
        assert bot.returncode == 0, err.decode()
    places = sorted(json.loads(out)["place"] for out, _ in outputs)
    assert places in ([1, 2], [1, 1])  # they raced each other
    for name in names:
        _, profile, _ = await api("GET", f"{server.url}/api/players/{name}")
        assert profile["bot"] is True
