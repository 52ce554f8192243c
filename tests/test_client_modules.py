"""``docs/client.md``'s table of files names every module of the web client, and no other:
a module added under ``client_web/js/`` without a row, or removed with its row left, fails here."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
JS = REPO / "client_web" / "js"
DOC = REPO / "docs" / "client.md"


def files_table() -> str:
    """The rows of the table under "## The files", up to the next heading."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("\n## The files\n", 1)[1].split("\n#", 1)[0]
    return "\n".join(line for line in section.splitlines() if line.startswith("|"))


def modules() -> list[str]:
    """Every module as the table names it: ``js/main.js``, ``js/FOLDER/NAME.js``."""
    return sorted(f"js/{path.relative_to(JS).as_posix()}" for path in JS.rglob("*.js"))


def test_the_client_has_modules_to_list() -> None:
    assert "js/main.js" in modules()
    assert "js/lang/en.js" in modules()


def test_every_client_module_has_a_row_in_the_files_table() -> None:
    table = files_table()
    missing = [
        name
        for name in modules()
        if f"`{name}`" not in table
        and not (name.startswith("js/lang/") and "`js/lang/*.js`" in table)
    ]
    assert not missing, f"docs/client.md, 'The files': add a row for {missing}"


def test_every_module_the_files_table_names_exists() -> None:
    named = re.findall(r"`(js/[\w/]+\.js)`", files_table())
    gone = [name for name in named if not (REPO / "client_web" / name).is_file()]
    assert not gone, f"docs/client.md, 'The files': no such module {gone}"
