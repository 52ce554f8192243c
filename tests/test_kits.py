"""The tests' own layout: what several test modules use lives in ``conftest.py`` (fixtures) or a
kit (``tests/*_kit.py``: helpers, constants, clients, servers); no module in ``tests/`` imports
a test module.  (A test module imported by another has its tests collected twice, or carries
fixtures into a module they were not written for.)"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def imported_test_modules(source: str) -> set[str]:
    """The test modules (``test_*``) that this Python source imports, however it says so."""
    roots: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return {root for root in roots if root.startswith("test_")}


@pytest.mark.slow
def test_no_module_of_the_tests_imports_a_test_module() -> None:
    offenders = {
        path.name: imported
        for path in sorted(TESTS.glob("*.py"))
        if (imported := imported_test_modules(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}


def test_the_check_sees_each_way_of_importing_a_test_module() -> None:
    source = """
import test_a
import test_b.part as part
from test_c import fixture as fixture
from test_d.part import helper
def later() -> None:
    import test_e
from . import test_f  # relative: not how pytest's rootdir imports run here
import server_kit, testing_kit
from stalactites.test_like import name
"""
    assert imported_test_modules(source) == {"test_a", "test_b", "test_c", "test_d", "test_e"}
