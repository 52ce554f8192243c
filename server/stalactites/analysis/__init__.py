"""The analysis of a finished room: every position of every run judged by the solver, the
turning points, accuracy, fewest moves, times and the race timeline (see :mod:`.report`)."""

from .models import Analysis
from .report import analyse, analyse_json
from .runs import BadRecord

__all__ = ["Analysis", "BadRecord", "analyse", "analyse_json"]
