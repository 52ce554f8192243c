"""Names: usernames, display names, generated names, and skeletons of confusable names.

* A **username** is 3-20 of ``a-z A-Z 0-9 _ -``; two usernames that differ only in case are
  one: :func:`username_key` (casefolded) is what must be unique.
* A **display name** is what a room shows: 1-20 characters once NFC-normalised and with runs of
  spaces made one, of letters, marks, digits, punctuation, symbols and single spaces (no
  control, format or invisible characters), and not the reserved :data:`DELETED_NAME`.
* A **generated name** is an adjective, an animal and a number, e.g. ``BraveOtter42``.
* A **skeleton** (:func:`skeleton`) is equal for names a reader could take for each other:
  ``skeleton("ann") == skeleton("\\u0430nn")`` (Cyrillic a).  It follows the skeleton of
  Unicode TS #39 (NFD, each character mapped to its confusable class, NFD again), casefolded
  after the mapping and mapped again until nothing changes, so that "Ann" and "ann" are one
  too (and "Il" and "ll", which casefolding first would part).  The classes come from the
  data of the ``confusable-homoglyphs`` package (Unicode's ``confusables.txt``, which it
  ships as pairs of characters and their homoglyphs): every character joined by a pair is in
  one class, and a class maps to its prototype: its member of more than one code point if
  it has one (as "rn" for "m"), else its smallest ASCII member, else its smallest member.
"""

from __future__ import annotations

import re
import secrets
import string
import unicodedata
from functools import cache
from typing import Any, TypeGuard

from confusable_homoglyphs import confusables as _confusables

from .errors import BadName, BadUsername
from .words import ADJECTIVES, ANIMALS

__all__ = [
    "DELETED_NAME",
    "NAME_MAX",
    "check_display_name",
    "check_username",
    "generated_name",
    "is_username",
    "skeleton",
    "username_key",
]

DELETED_NAME = "deleted player"
NAME_MAX = 20
_USERNAME = re.compile(r"[A-Za-z0-9_-]{3,20}")
_NAME_CATEGORIES = ("L", "M", "N", "P", "S")


def is_username(text: object) -> TypeGuard[str]:
    """Whether ``text`` has a username's shape: 3-20 of a-z A-Z 0-9 _ -."""
    return isinstance(text, str) and _USERNAME.fullmatch(text) is not None


def check_username(username: object) -> str:
    """``username`` if it is one (3-20 of a-z A-Z 0-9 _ -), else :class:`BadUsername`."""
    if not is_username(username):
        raise BadUsername(f"a username is 3-20 of a-z A-Z 0-9 _ -, not {username!r}")
    return username


def username_key(username: str) -> str:
    """What must be unique among usernames: the username without regard to case."""
    return username.casefold()


def check_display_name(name: object) -> str:
    """The display name as it will be stored (NFC, single spaces, trimmed), or :class:`BadName`."""
    if not isinstance(name, str):
        raise BadName(f"a name is text, not {name!r}")
    clean = " ".join(unicodedata.normalize("NFC", name).split(" ")).strip(" ")
    clean = re.sub(" +", " ", clean)
    if not 1 <= len(clean) <= NAME_MAX:
        raise BadName(f"a name is 1-{NAME_MAX} characters, not {name!r}")
    for char in clean:
        if char != " " and not unicodedata.category(char).startswith(_NAME_CATEGORIES):
            raise BadName(f"a name may not hold {char!r} (U+{ord(char):04X}): {name!r}")
    if skeleton(clean) == skeleton(DELETED_NAME):
        raise BadName(f"{name!r} is reserved")
    return clean


def generated_name(choose: Any = None) -> str:
    """A friendly name, an adjective, an animal and a number from 10 to 9999: ``BraveOtter42``.

    ``choose`` (a ``random.Random``, for tests) picks; by default :mod:`secrets` does."""
    pick = choose.choice if choose is not None else secrets.choice
    number = choose.randrange(10, 10_000) if choose is not None else 10 + secrets.randbelow(9990)
    return f"{pick(ADJECTIVES).capitalize()}{pick(ANIMALS).capitalize()}{number}"


def skeleton(name: str) -> str:
    """The name's confusable skeleton: equal for names confusable with each other.

    >>> skeleton("ann") == skeleton("\\u0430nn"), skeleton("Bob") == skeleton("bob")
    (True, True)
    >>> skeleton("BILL") == skeleton("bill")
    True
    >>> skeleton("ann") == skeleton("anne")
    False
    """
    text = unicodedata.normalize("NFKC", name)
    prototypes = _prototypes()
    for _ in range(4):  # casefolding or a prototype's own letters may map on: to a fixed point
        mapped = "".join(
            prototypes.get(char, char)
            for char in unicodedata.normalize("NFD", text)
            if unicodedata.category(char) != "Cf"
        )
        mapped = unicodedata.normalize("NFD", mapped.casefold())
        if mapped == text:
            break
        text = mapped
    return text


def _visible(text: str) -> str:
    return "".join(char for char in text if unicodedata.category(char) != "Cf")


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's class prototype (from the package's data)."""
    parent: dict[str, str] = {}

    def find(node: str) -> str:
        while parent.setdefault(node, node) != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    data: dict[str, list[dict[str, str]]] = _confusables.confusables_data
    for char, homoglyphs in data.items():
        for homoglyph in homoglyphs:
            ends = _visible(char), _visible(homoglyph["c"])
            if all(ends):  # (the data writes some right-to-left letters between marks)
                parent[find(ends[1])] = find(ends[0])
    for upper in string.ascii_uppercase:  # a Latin capital is its small letter's ("I": "l", "i")
        parent[find(upper.lower())] = find(upper)
    classes: dict[str, list[str]] = {}
    for node in list(parent):
        classes.setdefault(find(node), []).append(node)
    table: dict[str, str] = {}
    for members in classes.values():
        longer = sorted(m for m in members if len(m) > 1)
        plain = sorted(m for m in members if m.isascii())
        prototype = longer[0] if longer else plain[0] if plain else min(members)
        table.update({m: prototype for m in members if len(m) == 1 and m != prototype})
    return table
