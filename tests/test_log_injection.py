"""No client can write a line of the server's log: what a client sends (a path, a room id)
may carry line breaks and other control characters, and the text format escapes them (the
JSON format's encoding already does), so every line the log has is one the server wrote."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from server_kit import ProcessServer
from stalactites.logs import TextFormatter

FORGED = "2026-12-01 10:00:00,000 INFO stalactites.web: forged"


@pytest.mark.slow  # a server process
async def test_a_room_id_with_a_line_break_cannot_forge_a_text_log_line(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = ProcessServer(
        None, log=log, env={"STALACTITES_LOG_FORMAT": "text", "STALACTITES_LOG_LEVEL": "info"}
    )
    try:
        url = server.ws_url("abc%0D%0A" + FORGED.replace(" ", "%20"))
        with pytest.raises(InvalidStatus) as refused:
            await connect(url, origin="http://elsewhere.example")  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403
    finally:
        assert server.stop() == 0
    lines = log.read_text().splitlines()
    assert [line for line in lines if line.startswith(FORGED)] == []
    refusals = [line for line in lines if "handshake refused" in line]
    assert len(refusals) == 1 and "abc\\r\\n" + FORGED in refusals[0]


def test_the_text_format_escapes_control_characters_in_every_message() -> None:
    record = logging.makeLogRecord(
        {"msg": "room %s: %s", "args": ("a\nb", "c\rd\te\x1b[31m\u2028f\\g"), "levelname": "INFO"}
    )
    line = TextFormatter("%(levelname)s %(message)s").format(record)
    assert line == "INFO room a\\nb: c\\rd\\te\\x1b[31m\\u2028f\\g"
