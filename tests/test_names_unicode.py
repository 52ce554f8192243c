"""Names that render blank, or that hide an invisible character, are refused wherever a name
is chosen, and an invisible character never parts a name from its look-alike.

The invisible characters are Unicode's Default_Ignorable_Code_Point, walked code point by
code point from the ``regex`` module's Unicode data (``unicodedata`` has no such property);
the fillers U+3164 HANGUL FILLER, U+115F HANGUL CHOSEONG FILLER (both default-ignorable) and
U+2800 BRAILLE PATTERN BLANK (a visible-blank symbol, not default-ignorable) too."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
import regex
from pydantic import ValidationError

from players_kit import anonymous, api
from stalactites.engine import GameName
from stalactites.players import BadName, names, skeleton
from stalactites.players.names import check_display_name
from stalactites.protocol.arenas import CreateArena
from stalactites.protocol.room import RoomStatus
from stalactites.rooms.errors import RoomError
from stalactites.rooms.seats import check_seat
from stalactites.rooms.settings import RoomSettings, TakeSeat
from stalactites.store import PlayerRow, ProgressRow, RoomRow
from stalactites.tournaments.settings import CreateTournament
from tournament_kit import new_tournament


def _having(prop: str) -> list[str]:
    pattern = regex.compile(rf"\p{{{prop}}}")
    return [chr(c) for c in range(0x110000) if pattern.match(chr(c))]


IGNORABLE = _having("Default_Ignorable_Code_Point")
FILLERS = ["\u3164", "\u115f", "\u2800"]
BLANK = ["\u2800", "\U00016fe4", "\U0001d159"]  # drawn with no ink, not default-ignorable
TAKEN = "ann"


def _seat_name(name: str) -> str | None:
    """The name a seat would be taken under, or None if the seat's body is refused."""
    try:
        return TakeSeat.model_validate({"name": name}).name
    except ValidationError:
        return None


def _display_name(name: str) -> str | None:
    """The name a rename would store, or None if it is refused."""
    try:
        return check_display_name(name)
    except BadName:
        return None


def _room_with(name: str) -> tuple[RoomRow, RoomSettings]:
    settings = RoomSettings(
        game=GameName.STALACTITES,
        step="ones",
        deal="ms:4",
        seats=4,
        time_limit_s=600,
        undo=True,
        countdown_s=0,
        certified=False,
        solution=None,
    )
    seated = PlayerRow(
        "p.0000000000000001", name, 0, "", False, False, ProgressRow(0, 0), *[None] * 3
    )
    row = RoomRow(
        "r", settings.model_dump_json(), 4, RoomStatus.WAITING, None, None, 0, 0, [seated], None
    )
    return row, settings


@pytest.mark.slow
def test_the_unicode_data_is_the_definition_of_default_ignorable() -> None:
    """DerivedCoreProperties.txt: Other_Default_Ignorable_Code_Point + Cf + Variation_Selector
    - White_Space - FFF9..FFFB - 13430..13440 - Prepended_Concatenation_Mark."""
    derived = (
        set(_having("Other_Default_Ignorable_Code_Point"))
        | set(_having("Cf"))
        | set(_having("Variation_Selector"))
    )
    derived -= set(_having("White_Space")) | set(_having("Prepended_Concatenation_Mark"))
    derived -= {chr(c) for c in [*range(0xFFF9, 0xFFFC), *range(0x13430, 0x13441)]}
    assert derived == set(IGNORABLE) and len(IGNORABLE) > 4000
    assert {"\u3164", "\u115f", "\u034f", "\ufe0f", "\u200b"} <= derived
    assert "\u2800" not in derived and unicodedata.category("\u2800") == "So"


def test_a_name_of_one_default_ignorable_code_point_alone_is_refused() -> None:
    accepted = [
        f"U+{ord(char):04X}"
        for char in IGNORABLE
        for name in (char, char * 3, f"{char} {char}")
        if _display_name(name) is not None or _seat_name(name) is not None
    ]
    assert accepted == []


@pytest.mark.slow
def test_a_taken_name_plus_a_default_ignorable_code_point_is_confusable_with_it() -> None:
    row, settings = _room_with(TAKEN)
    passed = []
    for char in IGNORABLE:
        for name in (TAKEN + char, "a" + char + "nn", char + TAKEN):
            if skeleton(name) != skeleton(TAKEN):
                passed.append(f"skeleton {name!r}")
            try:
                check_seat(row, settings, None, name)
                passed.append(f"seat {name!r}")
            except RoomError as error:
                assert error.code == "name_confusable"
            for chosen in (_display_name(name), _seat_name(name)):  # refused, or the taken one
                if chosen is not None and skeleton(chosen) != skeleton(TAKEN):
                    passed.append(f"chosen {name!r}")
    assert passed == []


@pytest.mark.slow
def test_a_taken_name_with_white_space_around_it_or_doubled_is_confusable_with_it() -> None:
    row, settings = _room_with("ann bob")
    passed = []
    for space in _having("White_Space"):
        for name in (f"ann bob{space}", f"{space}ann bob", f"ann{space}bob", f"ann {space}bob"):
            if skeleton(name) != skeleton("ann bob"):
                passed.append(f"skeleton {name!r}")
            chosen = _seat_name(name)
            if chosen is not None and skeleton(chosen) != skeleton("ann bob"):
                passed.append(f"seat {name!r}")
            with pytest.raises(RoomError):
                check_seat(row, settings, None, name)
    assert passed == []
    assert skeleton("annbob") != skeleton("ann bob")


@pytest.mark.parametrize("filler", sorted({*FILLERS, *BLANK}))
def test_a_name_of_fillers_renders_blank_and_is_refused(filler: str) -> None:
    for name in (filler, filler * 5, f"{filler} {filler}", f" {filler} "):
        assert _display_name(name) is None and _seat_name(name) is None


@pytest.mark.parametrize("filler", sorted({*FILLERS, *BLANK}))
def test_a_filler_beside_a_taken_name_is_refused_or_confusable(filler: str) -> None:
    for name in (TAKEN + filler, filler + TAKEN, f"{TAKEN} {filler}"):
        for chosen in (_display_name(name), _seat_name(name)):
            assert chosen is None or skeleton(chosen) == skeleton(TAKEN), (name, chosen)


def test_the_blank_rendering_letters_are_not_default_ignorable_nor_spaces() -> None:
    """The names' blank letters are only what the two other rules miss: drawn with no ink."""
    assert set(names.BLANK) == set(BLANK) and not set(BLANK) & set(IGNORABLE)
    assert all(not char.isspace() and unicodedata.category(char)[0] in "LMNPS" for char in BLANK)


def test_a_variation_selector_is_dropped_from_a_chosen_name() -> None:
    assert check_display_name("Ann \u2764\ufe0f") == "Ann \u2764"
    assert _seat_name("Ann \u2764\ufe0f") == "Ann \u2764"


@pytest.mark.parametrize("model", [CreateTournament, CreateArena])
def test_a_tournament_or_arena_is_named_as_a_seat_is(
    model: type[CreateTournament] | type[CreateArena],
) -> None:
    assert model.model_validate({"name": "Friday \u2764\ufe0f"}).name == "Friday \u2764"
    for bad in ["\u3164\u3164", "Cup\u200b", "\u2800", "Cup\x07"]:
        with pytest.raises(ValidationError):
            model.model_validate({"name": bad})


def test_visible_names_are_still_accepted() -> None:
    for name in ["Ann", "\u00e9va la rapide", "\ud55c\uae00", "\u2801\u281d\u281d", "Bob \u2764"]:
        assert check_display_name(name) == unicodedata.normalize("NFC", name)
        assert _seat_name(name) == name


@pytest.mark.slow
@pytest.mark.parametrize("filler", ["\u3164", "\u115f", "\u2800", "\u034f", "\ufe0f"])
async def test_every_way_of_choosing_a_name_refuses_a_blank_one(
    any_server: Any, filler: str
) -> None:
    base = any_server.url
    status, room, _ = await api("POST", f"{base}/api/rooms", {"countdown_s": 0})
    assert status == 201, room
    seats = f"{base}/api/rooms/{room['room_id']}/players"
    someone = await anonymous(base)
    for token in (None, someone["token"]):
        status, answer, _ = await api("POST", seats, {"name": filler * 2}, token)
        assert status == 422 and answer["field"] == "name", answer
    tournament_id, _ = await new_tournament(base)
    entries = f"{base}/api/tournaments/{tournament_id}/players"
    status, answer, _ = await api("POST", entries, {"name": filler * 2})
    assert status == 422, answer
    status, answer, _ = await api("PATCH", f"{base}/api/me", {"name": filler}, someone["token"])
    assert status == 422 and answer["code"] == "bad_name", answer
    status, view, _ = await api("GET", f"{base}/api/rooms/{room['room_id']}")
    assert view["players"] == []


@pytest.mark.parametrize("invisible", ["\u034f", "\ufe0f", "\u3164", "\U000e0101"])
async def test_a_taken_name_plus_an_invisible_character_is_refused_everywhere(
    any_server: Any, invisible: str
) -> None:
    base = any_server.url
    ann, other = await anonymous(base), await anonymous(base)
    status, room, _ = await api("POST", f"{base}/api/rooms", {"countdown_s": 0})
    seats = f"{base}/api/rooms/{room['room_id']}/players"
    assert (await api("POST", seats, {}, ann["token"]))[0] == 201
    status, answer, _ = await api("POST", seats, {"name": ann["name"] + invisible})
    assert (status, answer.get("code")) in [(409, "name_confusable"), (422, "bad_message")]
    wanted = {"name": ann["name"] + invisible}
    status, answer, _ = await api("PATCH", f"{base}/api/me", wanted, other["token"])
    assert (status, answer["code"]) in [(409, "name_taken"), (422, "bad_name")], answer
    status, view, _ = await api("GET", f"{base}/api/rooms/{room['room_id']}")
    assert [p["name"] for p in view["players"]] == [ann["name"]]
