"""Fair play's HTTP API (see ``docs/fair-play.md``).

* ``POST /api/reports`` (a session): report a player; 201 ``{"report_id"}``, 200 with the
  same id for the same reporter's report of the same player within a day.
* ``GET /api/me/fairplay`` (a session): the player's own runs under review, and whether
  they are marked (and their appeal); ``POST /api/me/appeal`` ``{"text"}``: a marked
  player's one appeal.
* ``GET /api/mod/cases``, ``POST /api/mod/players/{player_id}`` ``{"action", "reason"}``,
  ``GET /api/mod/audit``: moderators only (403 ``forbidden`` for anyone else).

Every refusal is ``{"code", "message"}`` (``"field"`` too for bad input, 422) and changes
nothing.  Reports are limited per reporter and per address, a day's worth at a time, in
this process.
"""

from __future__ import annotations

import json
import weakref
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...fairplay.record import FairRecord, ReportReason
from ...players.export import remember_report
from ...rooms.seats import is_persistent
from ...store.players.base import PlayerRecord
from ..errors import Refused, rate_limited
from ..limits import AddressBuckets, within_limit
from ..players.session_http import signed_in
from ..process import Process, process_of

__all__ = ["REPORTS_PER_DAY", "fairplay_routes"]

REPORTS_PER_DAY = 20  # per reporter, and per address (times 3: players behind one address)
DAY_S = 86_400
CASES_PAGE = 50


Body = TypeVar("Body", bound=BaseModel)


class ReportBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    player_id: str = Field(min_length=1, max_length=64)
    room_id: str | None = Field(default=None, min_length=1, max_length=64)
    reason: ReportReason
    text: str | None = Field(default=None, max_length=500)


class DecisionBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    action: Literal["mark", "clear"]
    reason: str = Field(min_length=1, max_length=500)


class AppealBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    text: str = Field(min_length=1, max_length=1000)


def fairplay_routes() -> list[BaseRoute]:
    return [
        Route("/api/reports", report, methods=["POST"]),
        Route("/api/me/fairplay", my_standing, methods=["GET"]),
        Route("/api/me/appeal", appeal, methods=["POST"]),
        Route("/api/mod/cases", cases, methods=["GET"]),
        Route("/api/mod/players/{player_id}", decide, methods=["POST"]),
        Route("/api/mod/audit", audit, methods=["GET"]),
    ]


class _ReportLimits:
    def __init__(self) -> None:
        self.reporters = AddressBuckets(REPORTS_PER_DAY / DAY_S, REPORTS_PER_DAY)
        self.addresses = AddressBuckets(3 * REPORTS_PER_DAY / DAY_S, 3 * REPORTS_PER_DAY)


_LIMITS: weakref.WeakKeyDictionary[Process, _ReportLimits] = weakref.WeakKeyDictionary()


def _limits(request: Request) -> _ReportLimits:
    process = process_of(request)
    found = _LIMITS.get(process)
    if found is None:
        found = _LIMITS[process] = _ReportLimits()
    return found


async def _body(request: Request, model: type[Body]) -> Body:
    """The body as ``model``, or 422 naming the first bad field (pydantic's own message)."""
    try:
        data: Any = json.loads(await request.body() or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise Refused("bad_message", "the body is not JSON", 422) from None
    try:
        return model.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "body"
        raise Refused("bad_message", f"{field}: {first['msg']}", 422, field) from None


async def _moderator(request: Request, changing: bool) -> PlayerRecord:
    found = await signed_in(request, changing)
    if not await process_of(request).fairplay.is_moderator(found.player_id):
        raise Refused("forbidden", "for moderators only", 403)
    return found


async def _asked(
    request: Request, model: type[Body], moderator: bool = False
) -> tuple[PlayerRecord, Body]:
    """The signed-in player (a moderator) changing something, and the body."""
    who = await (_moderator if moderator else signed_in)(request, changing=True)
    return who, await _body(request, model)


async def _no_player(process: Process, player_id: str) -> None:
    """Refuse (404) a player id that is no player's."""
    if is_persistent(player_id) and (await process.player_store.players_exist([player_id]))[0]:
        return
    raise Refused("player_not_found", f"no player {player_id!r}", 404)


async def report(request: Request) -> Response:
    reporter, body = await _asked(request, ReportBody)
    process = process_of(request)
    if body.player_id == reporter.player_id:
        raise Refused("own_report", "you cannot report yourself", 409)
    await _no_player(process, body.player_id)
    limits = _limits(request)
    within_limit(request, limits.addresses, "reports")
    if not limits.reporters.take(reporter.player_id):
        wait = limits.reporters.retry_after(reporter.player_id)
        raise rate_limited("reports from you today", wait)
    report_id, new = await process.fairplay.report(
        reporter.player_id, body.player_id, body.reason, body.text, body.room_id
    )
    if new:  # the reporter's own copy, for their export
        filed = {"report_id": report_id, **body.model_dump()}
        await remember_report(
            process.player_store, reporter.player_id, filed, process.clock.now_ms()
        )
    return JSONResponse({"report_id": report_id}, status_code=201 if new else 200)


async def my_standing(request: Request) -> Response:
    player = await signed_in(request, changing=False)
    record = await process_of(request).fairplay.record_of(player.player_id)
    return JSONResponse(
        {
            "under_review": record.under_review(),
            "marked": record.marked,
            "appeal": record.appeal,
            "may_appeal": record.marked and record.appeal is None,
        }
    )


async def appeal(request: Request) -> Response:
    player, body = await _asked(request, AppealBody)
    await process_of(request).fairplay.appeal(player.player_id, body.text)
    return JSONResponse({"appealed": True})


async def cases(request: Request) -> Response:
    await _moderator(request, changing=False)
    process = process_of(request)
    found = await process.fairplay.cases(0, CASES_PAGE)
    names = await process.players.names_of([player_id for player_id, _ in found])
    return JSONResponse(
        {"cases": [case_view(pid, names.get(pid, ""), record) for pid, record in found]}
    )


def case_view(player_id: str, name: str, record: FairRecord) -> dict[str, Any]:
    """A case as moderators read it: the player, why it is open, the held runs and the
    latest others with their signals, the reports, the standing over runs, the appeal."""
    assert record.case is not None
    return {
        "player_id": player_id,
        "name": name,
        "marked": record.marked,
        "opened_ms": record.case.opened_ms,
        "reasons": record.case.reasons,
        "runs": [
            run.model_dump() | {"replay": f"#/replay/{run.room_id}"}
            for run in reversed(record.runs)
        ],
        "reports": [report.model_dump() for report in record.reports],
        "standing": record.standing.model_dump(),
        "appeal": record.appeal,
        "decisions": [decision.model_dump() for decision in record.decisions],
    }


async def decide(request: Request) -> Response:
    moderator, body = await _asked(request, DecisionBody, moderator=True)
    process = process_of(request)
    player_id = request.path_params["player_id"]
    await _no_player(process, player_id)
    record = await process.fairplay.decide(moderator.player_id, player_id, body.action, body.reason)
    return JSONResponse({"player_id": player_id, "marked": record.marked})


async def audit(request: Request) -> Response:
    await _moderator(request, changing=False)
    return JSONResponse({"decisions": await process_of(request).fairplay.audit_log(0, 100)})
