"""Fair play: every finished run assessed from its action times and the solver's verdicts
(:mod:`.signals`, :mod:`.assess`), held when beyond human reach and, over a player's runs,
opening a case for a moderator (:mod:`.bounds`); each player's record and every change to
it (:mod:`.record`); the server's side: the results log's effect, reports, moderators and
their decisions (:mod:`.service`).  See docs/fair-play.md."""

from .assess import assess, assess_json
from .bounds import Standing, add, case_reasons, hold_reasons
from .record import AssessedRun, FairRecord
from .service import FairPlay, FairPlayError
from .signals import Signals

__all__ = [
    "AssessedRun",
    "FairPlay",
    "FairPlayError",
    "FairRecord",
    "Signals",
    "Standing",
    "add",
    "assess",
    "assess_json",
    "case_reasons",
    "hold_reasons",
]
