"""``docs/protocol.md`` is generated from the protocol's models and must be up to date."""

from __future__ import annotations

from pathlib import Path

from stalactites.protocol import room as protocol
from stalactites.protocol.doc.render import main, render

DOC = Path(__file__).resolve().parents[1] / "docs" / "protocol.md"


def test_protocol_doc_is_up_to_date() -> None:
    assert DOC.read_text(encoding="utf-8") == render(), (
        "regenerate: .venv/bin/python -m stalactites.protocol.doc docs/protocol.md"
    )


def test_protocol_doc_names_every_frame_and_error_code() -> None:
    text = render()
    for code in protocol.ERROR_CODES:
        assert f"| `{code}` |" in text
    for kind in ("hello", "ready", "move", "declare_step", "undo", "resign", "ping"):
        assert f"`{kind}`\n" in text
    for kind in ("welcome", "countdown", "started", "accepted", "rejected", "progress"):
        assert f"`{kind}`\n" in text
    for kind in ("finished", "results", "error", "pong", "player"):
        assert f"`{kind}`\n" in text


def test_protocol_doc_writes_the_file_it_is_given(tmp_path: Path) -> None:
    target = tmp_path / "protocol.md"
    assert main([str(target)]) == 0
    assert target.read_text(encoding="utf-8") == render()
