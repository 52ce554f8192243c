"""Every module of the server has a row in docs/architecture.md's module table."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "server" / "stalactites"
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def package_modules() -> list[str]:
    """Each module's path relative to the package, as the table writes it."""
    return sorted(
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if path.name != "__init__.py"
    )


def test_package_has_modules() -> None:
    assert "web/app.py" in package_modules()


def test_every_module_is_in_the_architecture_table() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    missing = [module for module in package_modules() if f"`{module}`" not in text]
    assert missing == [], f"modules without a row in docs/architecture.md: {missing}"
