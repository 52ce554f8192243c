"""``stalactites verify URL_OR_FILE``: check a finished room's record on one's own machine.

The record (``GET /api/rooms/{id}/record``, fetched from a URL or read from a file) is
checked in three ways:

* the commitment the room published from its creation is the SHA-256 of the revealed
  ``"{deal}|{salt}"``, so the deal was fixed before anyone played;
* the record's starting layout is the revealed deal's, and every player's moves replay
  legally through the engine from it to the cards and moves the standings report, and to
  the reported outcome (a win is a won board, a loss a lost one);
* where the record has every player's timed actions (undos included), they replay to the
  player's moves, their race-clock times in order;
* the places agree with the standings' rules: winners first in order of time, then the
  rest by foundation cards, exact ties sharing a place.

Exit status 0 when everything checks, 1 when something does not (each failure is named),
2 for wrong arguments or input that cannot be read as a record.  Only the standard
library fetches (``urllib``).
"""

from __future__ import annotations

import argparse
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from ..analysis.runs import actions_problem
from ..engine import EngineError, GameName, GameRecord, Squadron, Status, new_game, replay
from ..engine.records import deal_commitment
from .usage import UsageError

__all__ = ["Unreadable", "Verdict", "add_verify", "load_record", "record_url", "verify"]

TIMEOUT_S = 30
MAX_BYTES = 16 << 20  # a record larger than this is not one the server made
MIN_SALT_BYTES = 16
ROOM_ID = r"([A-Za-z0-9_-]{1,32})"
API_PATH = re.compile(rf"(.*)/api/rooms/{ROOM_ID}(?:/record)?/?")
PAGE_FRAGMENT = re.compile(rf"/(?:room|watch|replay)/{ROOM_ID}/?")
HEX = re.compile(r"[0-9a-f]+")


class Unreadable(Exception):
    """Input that is not a room record one can check: exit status 2."""


@dataclass
class Verdict:
    """What was checked: a line per check that held, and a line per one that failed."""

    passed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failed

    def check(self, holds: bool, passed: str, failed: str) -> bool:
        if holds:
            self.passed.append(passed)
        else:
            self.failed.append(failed)
        return holds


# Reading the record.


def record_url(text: str) -> str | None:
    """The record's URL for an http(s) address: the record itself, a room's view
    (``/api/rooms/ID``) or a page of the web client (``/#/room/ID``, ``#/watch/ID``,
    ``#/replay/ID``).  None for anything else that is http(s); a ValueError names it."""
    parts = urllib.parse.urlsplit(text)
    if parts.scheme not in ("http", "https"):
        return None
    if not parts.netloc:
        raise ValueError(f"no host in {text!r}")
    api = API_PATH.fullmatch(parts.path)
    if api is not None:
        base, room_id = api.group(1), api.group(2)
    else:
        page = PAGE_FRAGMENT.fullmatch(parts.fragment)
        if page is None:
            raise ValueError(
                f"not a room's address: {text!r} (expected .../api/rooms/ID/record "
                "or a room page such as .../#/room/ID)"
            )
        base, room_id = "", page.group(1)
    return urllib.parse.urlunsplit(
        (parts.scheme, parts.netloc, f"{base}/api/rooms/{room_id}/record", "", "")
    )


def _fetch(url: str) -> str:
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as answer:
            return str(answer.read(MAX_BYTES).decode("utf-8"))
    except urllib.error.HTTPError as error:
        raise Unreadable(f"{url}: HTTP {error.code}: {_server_message(error)}") from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise Unreadable(f"{url}: cannot fetch: {reason}") from None
    except UnicodeDecodeError:
        raise Unreadable(f"{url}: the answer is not UTF-8 text") from None


def _server_message(error: urllib.error.HTTPError) -> str:
    """The server's own words for a refusal (``{"code", "message"}``), else the reason."""
    try:
        body = json.loads(error.read(65536))
        return f"{body['message']} ({body['code']})"
    except (ValueError, KeyError, TypeError):
        return str(error.reason)


def _read_file(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read(MAX_BYTES)
    except OSError as error:
        raise Unreadable(f"cannot read {path!r}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise Unreadable(f"cannot read {path!r}: not UTF-8 text") from None


def load_record(source: str) -> tuple[str, dict[str, Any]]:
    """(where it came from, the record) for a URL or a file path; Unreadable if it is none."""
    try:
        url = record_url(source)
    except ValueError as error:
        raise Unreadable(str(error)) from None
    where = source if url is None else url
    text = _read_file(source) if url is None else _fetch(url)
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise Unreadable(f"{where}: not JSON") from None
    problem = _shape_problem(data)
    if problem is not None:
        raise Unreadable(f"{where}: not a room record: {problem}")
    return where, data


def _shape_problem(data: Any) -> str | None:
    if not isinstance(data, dict):
        return "a record is a JSON object"
    for name in ("game", "deal"):
        if not isinstance(data.get(name), str):
            return f"{name!r} is missing or not text"
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        return "'players' is missing or not a list of objects"
    for index, line in enumerate(players):
        for name in ("place", "foundation_cards", "moves", "elapsed_ms"):
            if type(line.get(name)) is not int:
                return f"player {index + 1}: {name!r} is missing or not a whole number"
        if not isinstance(line.get("status"), str) or "record" not in line:
            return f"player {index + 1}: 'status' or 'record' is missing"
    return None


# Checking it.


def verify(record: dict[str, Any]) -> Verdict:
    """Every check of a record already known to have the right shape."""
    verdict = Verdict()
    _check_commitment(record, verdict)
    if _check_layout(record, verdict):
        for line in record["players"]:
            _check_player(record, line, verdict)
    _check_places(record["players"], verdict)
    return verdict


def _check_commitment(record: dict[str, Any], verdict: Verdict) -> None:
    deal, salt, commitment = record["deal"], record.get("salt"), record.get("commitment")
    if not isinstance(salt, str) or not isinstance(commitment, str):
        verdict.failed.append(
            "commitment: the record has no salt and commitment (a room made before "
            "commitments?), so nothing shows the deal was fixed before the race"
        )
        return
    if not (HEX.fullmatch(salt) and len(salt) >= 2 * MIN_SALT_BYTES):
        verdict.failed.append(
            f"commitment: the salt is not {MIN_SALT_BYTES}+ bytes of lowercase hex: {salt!r}"
        )
    actual = deal_commitment(deal, salt)
    verdict.check(
        actual == commitment,
        f"commitment: SHA-256 of {deal}|{salt} is {commitment}, as published",
        f"commitment: SHA-256 of {deal}|{salt} is {actual}, but the room published "
        f"{commitment}: the deal or the salt is not the one the room committed to",
    )


def _room_step(record: dict[str, Any]) -> str | None:
    step = record.get("step")
    return step if record["game"] == GameName.STALACTITES and isinstance(step, str) else None


def _check_layout(record: dict[str, Any], verdict: Verdict) -> bool:
    """The deal is a deal, and the record's starting layout (when given) is that deal's."""
    try:
        game = new_game(record["game"], record["deal"], _room_step(record))
    except EngineError as error:
        verdict.failed.append(f"deal: {error}")
        return False
    if "initial_state" not in record:
        return True
    layout = game.state()
    if isinstance(game, Squadron):
        layout["stock"] = [str(card) for card in game.stock]
    return verdict.check(
        record["initial_state"] == layout,
        f"layout: the starting layout is deal {record['deal']}'s",
        f"layout: the record's starting layout is not deal {record['deal']}'s",
    )


def _count(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def _who(line: dict[str, Any]) -> str:
    return f"{line.get('name', '?')} ({line.get('player_id', '?')})"


def _check_player(record: dict[str, Any], line: dict[str, Any], verdict: Verdict) -> None:
    problem, replayed = _replay_problem(record, line)
    if problem is None and "actions" in line:  # timed actions: older records have none
        problem = actions_problem(record, line)
    if problem is None and replayed is not None:
        moves, status = replayed
        verdict.passed.append(
            f"{_who(line)}: {_count(moves, 'move')}, all legal, to {line['status']} "
            f"({status} board) with {line['foundation_cards']} foundation cards, as reported"
        )
    else:
        verdict.failed.append(f"{_who(line)}: {problem}")


def _replay_problem(
    record: dict[str, Any], line: dict[str, Any]
) -> tuple[str | None, tuple[int, str] | None]:
    """Why the player's line does not follow from their moves, or None and (moves, board)."""
    try:
        game_record = GameRecord.from_json(line["record"])
        if (game_record.game, game_record.deal) != (record["game"], record["deal"]):
            raise EngineError(f"it is of {game_record.game} {game_record.deal}, not the room's")
        step = _room_step(record)
        if step in ("ones", "twos") and game_record.step != step:
            raise EngineError(f"it is played by {game_record.step}, the room by {step}")
        result = replay(game_record)
    except EngineError as error:
        return f"the game record is wrong: {error}", None
    if result.error is not None:
        bad = result.error
        return f"move {bad.index + 1}, {bad.move!r}, is refused ({bad.code}): {bad.message}", None
    reported = (line["foundation_cards"], line["moves"])
    if reported != (result.foundation_cards, result.moves_applied):
        return (
            f"reported {reported[0]} foundation cards in {reported[1]} moves, the replay "
            f"gives {result.foundation_cards} in {result.moves_applied}"
        ), None
    outcome = _outcome_problem(line["status"], result.status, record.get("undo"))
    if outcome is not None:
        return outcome, None
    return None, (len(game_record.moves), result.status.value)


def _outcome_problem(reported: str, board: Status, undo: Any) -> str | None:
    """Why the reported status cannot follow from the replayed board (None if it can)."""
    if reported == "won" and board is not Status.WON:
        return f"reported won, but the replayed board is {board.value}"
    if reported != "won" and board is Status.WON:
        return f"reported {reported}, but the replayed board is won"
    if reported == "lost" and board is not Status.LOST:
        return f"reported lost, but the replayed board is {board.value}"
    if reported not in ("won", "lost", "resigned", "timeout"):
        return f"reported {reported!r}, which is no final status"
    if undo is False and board is Status.LOST and reported != "lost":
        return f"reported {reported}, but the board was lost with no undo (it ends the race)"
    return None


def _check_places(lines: list[dict[str, Any]], verdict: Verdict) -> None:
    """Winners take places 1..w in order of time; the rest follow by foundation cards, an
    exact tie sharing a place (competition ranking: 1, 2, 2, 4)."""
    winners = sorted((ln for ln in lines if ln["status"] == "won"), key=lambda ln: ln["place"])
    rest = sorted((ln for ln in lines if ln["status"] != "won"), key=lambda ln: ln["place"])
    problems = []
    for index, line in enumerate(winners):
        if line["place"] != index + 1:
            problems.append(f"{_who(line)} won but has place {line['place']}, not {index + 1}")
        if index and line["elapsed_ms"] < winners[index - 1]["elapsed_ms"]:
            problems.append(f"{_who(line)} won faster than the winner placed before them")
    for index, line in enumerate(rest):
        ahead = [other for other in rest if other["place"] < line["place"]]
        if line["place"] != len(winners) + len(ahead) + 1:
            problems.append(f"{_who(line)} has place {line['place']}, which no ranking gives")
        if index and line["foundation_cards"] > rest[index - 1]["foundation_cards"]:
            problems.append(f"{_who(line)} has more foundation cards than a player placed above")
        tied = [o for o in rest if o["place"] == line["place"]]
        if any(o["foundation_cards"] != line["foundation_cards"] for o in tied):
            problems.append(f"{_who(line)} shares place {line['place']} with fewer or more cards")
    verdict.check(
        not problems,
        f"places: {_count(len(lines), 'player')} placed as the rules place them",
        "places: " + "; ".join(dict.fromkeys(problems)),
    )


# The command.


def cmd_verify(args: argparse.Namespace) -> int:
    try:
        where, record = load_record(args.source)
    except Unreadable as error:
        raise UsageError(str(error)) from None
    steps = f", {record['step']}" if _room_step(record) else ""
    print(f"record of room {record.get('room_id', '?')} from {where}")
    players = _count(len(record["players"]), "player")
    print(f"{record['game']}{steps}, deal {record['deal']}, {players}")
    verdict = verify(record)
    for line in verdict.passed:
        print(f"  ok      {line}")
    for line in verdict.failed:
        print(f"  FAILED  {line}")
    if verdict.ok:
        print("verified: the deal was committed to before the race and every result replays")
        return 0
    print(f"NOT verified: {len(verdict.failed)} check(s) failed")
    return 1


def add_verify(commands: Any) -> None:
    verify_ = commands.add_parser(
        "verify",
        help="check a finished room's record: its deal commitment, and every player's moves "
        "replayed to the reported results",
    )
    verify_.add_argument(
        "source",
        metavar="URL_OR_FILE",
        help="http(s) address of /api/rooms/ID/record or of a room page (#/room/ID), "
        "or a record saved as a JSON file",
    )
    verify_.set_defaults(run=cmd_verify)
