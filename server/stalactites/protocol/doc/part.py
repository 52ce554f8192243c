"""One renderer for the parts of ``docs/protocol.md`` that have frames, objects and error
codes of their own (quick races, tournaments).

:mod:`stalactites.protocol.doc.render` writes the whole document and hands each part its table and
section renderers, so every part looks alike; a part gives its text and its models, in
groups under headings, and this module lays them out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pydantic import BaseModel

__all__ = ["Group", "Part", "Section", "Table", "cell"]

Section = Callable[[type[BaseModel], str], list[str]]
Table = Callable[[tuple[str, str], list[tuple[str, str]]], str]


def cell(text: str) -> str:
    """Text for one table cell: on one line, its bars escaped."""
    return " ".join(text.split()).replace("|", "\\|")


@dataclass(frozen=True, slots=True)
class Group:
    """Models under one heading: ``heading`` is the heading's line (with its ``#``s),
    ``level`` the ``#``s of each model's own heading."""

    heading: str
    level: str
    models: list[type[BaseModel]]


@dataclass(frozen=True, slots=True)
class Part:
    """A part of the document: its opening text, then its groups, then its error codes."""

    errors_heading: str  # with its #s
    codes: dict[str, str]
    groups: list[Group]

    def render(self, opening: list[str], section: Section) -> str:
        lines = list(opening)
        for group in self.groups:
            lines += [group.heading, ""]
            for model in group.models:
                lines += section(model, group.level)
        lines += [self.errors_heading, "", "| Code | When |", "| --- | --- |"]
        lines += [f"| `{code}` | {cell(text)} |" for code, text in self.codes.items()]
        return "\n".join(lines) + "\n"
