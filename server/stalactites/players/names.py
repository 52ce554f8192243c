"""Names: usernames, display names, generated names, and skeletons of confusable names.

* A **username** is 3-20 of ``a-z A-Z 0-9 _ -``; two usernames that differ only in case are
  one: :func:`username_key` (casefolded) is what must be unique.
* A **display name** is what a room shows: 1-20 characters once NFC-normalised, with runs of
  spaces made one and variation selectors dropped (they only pick a glyph: "\\u2764\\ufe0f"
  is "\\u2764"), of letters, marks, digits, punctuation, symbols and single spaces, and not
  the reserved :data:`DELETED_NAME`.  :func:`name_fault`, which a room's seat names pass
  too, refuses a name that renders blank (every character a space, default-ignorable or one
  of the :data:`BLANK` letters) and any control, format, default-ignorable (:func:`ignorable`)
  or blank character in one.
* A **generated name** is an adjective, an animal and a number, e.g. ``BraveOtter42``.
* A **skeleton** (:func:`skeleton`) is equal for names a reader could take for each other:
  ``skeleton("ann") == skeleton("\\u0430nn")`` (Cyrillic a).  It follows the skeleton of
  Unicode TS #39 (NFD, each character mapped to its confusable class, NFD again), casefolded
  after the mapping and mapped again until nothing changes, so that "Ann" and "ann" are one
  too (and "Il" and "ll", which casefolding first would part).  As TS #39 says, the
  default-ignorable characters are dropped (so a name and the name with an invisible
  character are one), and here runs of white space are one space, the ends trimmed (so
  "ann" and "ann" with a no-break space after it are one).  The classes come from the
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
from itertools import chain
from typing import Annotated, Any, TypeGuard

from confusable_homoglyphs import confusables as _confusables
from pydantic import AfterValidator

from .errors import BadName, BadUsername
from .words import ADJECTIVES, ANIMALS

__all__ = [
    "BLANK",
    "DELETED_NAME",
    "NAME_MAX",
    "PrintableName",
    "check_display_name",
    "check_username",
    "generated_name",
    "ignorable",
    "is_username",
    "name_fault",
    "printable_name",
    "renders_blank",
    "skeleton",
    "username_key",
    "without_variation_selectors",
]

DELETED_NAME = "deleted player"
NAME_MAX = 20
_USERNAME = re.compile(r"[A-Za-z0-9_-]{3,20}")
_NAME_CATEGORIES = ("L", "M", "N", "P", "S")

# Default_Ignorable_Code_Point (DerivedCoreProperties.txt) is Other_Default_Ignorable_Code_Point
# + Cf + Variation_Selector (PropList.txt) - White_Space - FFF9..FFFB - 13430..13440 -
# Prepended_Concatenation_Mark.  unicodedata has the categories but not the lists: these are
# their code points that are not Cf (tests/test_names_unicode.py checks them, code point by
# code point, against the regex module's Unicode data).  :func:`ignorable` takes every Cf as
# well: the few that are not default-ignorable are format characters, refused in a name all
# the same.
_IGNORABLE = frozenset(
    chain.from_iterable(
        range(first, last + 1)
        for first, last in (
            (0x034F, 0x034F),  # COMBINING GRAPHEME JOINER
            (0x115F, 0x1160),  # HANGUL CHOSEONG FILLER, HANGUL JUNGSEONG FILLER
            (0x17B4, 0x17B5),  # KHMER VOWEL INHERENT AQ, AA
            (0x180B, 0x180F),  # MONGOLIAN FREE VARIATION SELECTORS (and 180E, a Cf)
            (0x2065, 0x2065),  # (unassigned)
            (0x3164, 0x3164),  # HANGUL FILLER
            (0xFE00, 0xFE0F),  # VARIATION SELECTOR-1 to -16
            (0xFFA0, 0xFFA0),  # HALFWIDTH HANGUL FILLER
            (0xFFF0, 0xFFF8),  # (unassigned)
            (0xE0000, 0xE0FFF),  # tags, VARIATION SELECTOR-17 to -256, unassigned
        )
    )
)
_VARIATION_SELECTORS = re.compile("[\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]")

BLANK = frozenset("\u2800\U00016fe4\U0001d159")
"""Letters and symbols drawn with no ink that are neither white space nor default-ignorable:
BRAILLE PATTERN BLANK (the cell with no dots), KHITAN SMALL SCRIPT FILLER, MUSICAL SYMBOL
NULL NOTEHEAD.  (The other fillers, the Hangul ones, are default-ignorable.)  A name of them
alone would render blank; one of them beside a name would pass for a space."""


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


def ignorable(char: str) -> bool:
    """Whether ``char`` is default-ignorable (drawn as nothing when not supported) or a format
    character: what a name may not hold and a skeleton drops."""
    return ord(char) in _IGNORABLE or unicodedata.category(char) == "Cf"


def without_variation_selectors(text: str) -> str:
    """``text`` without its variation selectors (which only pick one glyph of a character)."""
    return _VARIATION_SELECTORS.sub("", text)


def renders_blank(text: str) -> bool:
    """Whether ``text`` shows nothing: each character white space, default-ignorable or
    :data:`BLANK` (so also the empty text)."""
    return all(char.isspace() or ignorable(char) or char in BLANK for char in text)


def name_fault(name: str) -> str | None:
    """Why ``name`` may not be shown as a name, or None: it renders blank, or it holds a
    control, format, default-ignorable or :data:`BLANK` character."""
    if renders_blank(name):
        return "a name needs a visible character"
    for char in name:
        if unicodedata.category(char).startswith("C") or ignorable(char) or char in BLANK:
            return f"a name may not hold {char!r} (U+{ord(char):04X})"
    return None


def check_display_name(name: object) -> str:
    """The display name as it will be stored (NFC, single spaces, trimmed, no variation
    selectors), or :class:`BadName`."""
    if not isinstance(name, str):
        raise BadName(f"a name is text, not {name!r}")
    plain = unicodedata.normalize("NFC", without_variation_selectors(name))
    clean = re.sub(" +", " ", plain).strip(" ")
    if not 1 <= len(clean) <= NAME_MAX:
        raise BadName(f"a name is 1-{NAME_MAX} characters, not {name!r}")
    fault = name_fault(clean)
    if fault is not None:
        raise BadName(f"{fault}: {name!r}")
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
            if not ignorable(char)
        )
        mapped = unicodedata.normalize("NFD", " ".join(mapped.casefold().split()))
        if mapped == text:
            break
        text = mapped
    return text


def _visible(text: str) -> str:
    return "".join(char for char in text if not ignorable(char))


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


def printable_name(value: str) -> str:
    """A name as chosen (a seat's, a tournament's, an arena's), its variation selectors
    dropped; one that renders blank or holds an invisible character is refused
    (:func:`name_fault`)."""
    name = without_variation_selectors(value)
    fault = name_fault(name)
    if fault is not None:
        raise ValueError(fault)
    return name


PrintableName = Annotated[str, AfterValidator(printable_name)]
"""A name a player or an organiser chose (a seat's, a tournament's, an arena's)."""
