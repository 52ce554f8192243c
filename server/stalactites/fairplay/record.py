"""A player's fair-play record, and every change to it as a pure function.

The store keeps the record as one document (:mod:`stalactites.store.fairplay.base`); the
service reads it, applies one of these functions and writes the result if nobody wrote in
between.  Each function returns the record unchanged when its change is made already, so
a change made again (a retried effect, a repeated decision) changes nothing more.

A run is **held** when its assessment is beyond human reach (:func:`.bounds.hold_reasons`):
it is hidden from every public board until a moderator decides.  A **case** is open while
a held run waits for a decision, a pattern over runs (:func:`.bounds.case_reasons`) has not
been looked at, or a report has come in since the last decision.  A **mark** hides every run
of the player's from the boards for good (until cleared); a **clear** puts held runs back.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from .bounds import Standing, add, case_reasons
from .signals import Signals

__all__ = [
    "APPEAL_MAX",
    "AssessedRun",
    "Case",
    "Decision",
    "FairRecord",
    "REPORT_WINDOW_MS",
    "RUNS_KEPT",
    "Report",
    "ReportReason",
    "appealed",
    "assessed",
    "decided",
    "reported",
]

RUNS_KEPT = 50  # assessed runs kept per player besides held ones (the standing keeps the rest)
REPORT_WINDOW_MS = 24 * 3_600_000  # a second report of the same player by the same reporter
REPORTS_KEPT = 100  # reports kept per player (the newest)
APPEAL_MAX = 1000  # characters of an appeal

ReportReason = Literal["cheating", "abuse", "other"]


class AssessedRun(BaseModel):
    """One finished run's assessment."""

    room_id: str
    game: str
    at_ms: int = Field(description="when it was assessed (unix ms)")
    counts: bool = Field(description="a race that counts: rated, a daily attempt, a round")
    signals: Signals
    held: list[str] = Field(description="why it is held (empty: not held)")
    decision: Literal["marked", "cleared"] | None = Field(
        default=None, description="a moderator's decision on a held run (null: none yet)"
    )

    @property
    def under_review(self) -> bool:
        return bool(self.held) and self.decision is None


class Report(BaseModel):
    report_id: str
    reporter_id: str
    reason: ReportReason
    text: str | None
    room_id: str | None
    at_ms: int


class Decision(BaseModel):
    action: Literal["mark", "clear"]
    reason: str
    moderator_id: str
    at_ms: int


class Case(BaseModel):
    opened_ms: int
    reasons: list[str] = Field(description="held:ROOM_ID, a pattern's code, or reported")


class FairRecord(BaseModel):
    standing: Standing = Field(default_factory=Standing)
    runs: list[AssessedRun] = Field(default_factory=list, description="oldest first")
    reports: list[Report] = Field(default_factory=list, description="oldest first")
    case: Case | None = None
    looked_at: list[str] = Field(
        default_factory=list, description="pattern codes a moderator has decided on already"
    )
    marked: bool = False
    decisions: list[Decision] = Field(default_factory=list)
    appeal: str | None = None
    appealed_ms: int | None = None

    def run(self, room_id: str) -> AssessedRun | None:
        return next((run for run in self.runs if run.room_id == room_id), None)

    def under_review(self) -> list[str]:
        """The rooms of the player's held runs that wait for a decision."""
        return [run.room_id for run in self.runs if run.under_review]

    def hidden(self, room_id: str) -> bool:
        """Whether the player's run in this room is kept off every public board."""
        if self.marked:
            return True
        run = self.run(room_id)
        return run is not None and run.under_review


def _opened(record: FairRecord, reasons: list[str], now_ms: int) -> Case | None:
    """The case with these reasons added (opened now if none was open)."""
    if not reasons:
        return record.case
    if record.case is None:
        return Case(opened_ms=now_ms, reasons=reasons)
    more = [reason for reason in reasons if reason not in record.case.reasons]
    return record.case.model_copy(update={"reasons": record.case.reasons + more})


def assessed(record: FairRecord, run: AssessedRun) -> FairRecord:
    """The record with a newly assessed run (unchanged if that room's run is in it)."""
    if record.run(run.room_id) is not None:
        return record
    standing = add(record.standing, run.signals)
    runs = [*record.runs, run]
    plain = [one.room_id for one in runs if not one.held]
    dropped = set(plain[: max(len(plain) - RUNS_KEPT, 0)])  # the oldest, beyond those kept
    runs = [one for one in runs if one.room_id not in dropped]
    reasons = [f"held:{run.room_id}"] if run.held else []
    reasons += [code for code in case_reasons(standing) if code not in record.looked_at]
    update = {"standing": standing, "runs": runs, "case": _opened(record, reasons, run.at_ms)}
    return record.model_copy(update=update)


def reported(record: FairRecord, report: Report) -> tuple[FairRecord, str]:
    """The record with a report, and the report's id: the same reporter's report within
    :data:`REPORT_WINDOW_MS` of their last one is that one (counted once)."""
    for earlier in reversed(record.reports):
        if (
            earlier.reporter_id == report.reporter_id
            and report.at_ms - earlier.at_ms < REPORT_WINDOW_MS
        ):
            return record, earlier.report_id
    reports = [*record.reports, report][-REPORTS_KEPT:]
    case = _opened(record, ["reported"], report.at_ms)
    return record.model_copy(update={"reports": reports, "case": case}), report.report_id


def decided(record: FairRecord, decision: Decision) -> FairRecord:
    """The record after a moderator's decision: the case closed, its held runs decided, the
    patterns in it looked at; a mark hides every run, a clear shows the held ones again.
    The same decision again (the last one, repeated) changes nothing."""
    last = record.decisions[-1] if record.decisions else None
    same = last is not None and last.model_copy(update={"at_ms": decision.at_ms}) == decision
    if same and record.case is None:
        return record
    outcome: Literal["marked", "cleared"] = "marked" if decision.action == "mark" else "cleared"
    runs = [
        run.model_copy(update={"decision": outcome}) if run.under_review else run
        for run in record.runs
    ]
    patterns = [r for r in (record.case.reasons if record.case else []) if ":" not in r]
    looked_at = sorted({*record.looked_at, *patterns} - {"reported", "appeal"})
    return record.model_copy(
        update={
            "runs": runs,
            "case": None,
            "looked_at": looked_at,
            "marked": decision.action == "mark",
            "decisions": [*record.decisions, decision],
            "appeal": None if decision.action == "clear" else record.appeal,
        }
    )


def appealed(record: FairRecord, text: str, now_ms: int) -> FairRecord | None:
    """The record with the marked player's one appeal, which reopens the case; None if the
    player is not marked or has appealed already (the same text again: unchanged)."""
    if record.appeal is not None:
        return record if record.appeal == text else None
    if not record.marked:
        return None
    case = _opened(record, ["appeal"], now_ms)
    return record.model_copy(update={"appeal": text, "appealed_ms": now_ms, "case": case})
