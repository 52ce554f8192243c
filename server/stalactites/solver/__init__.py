"""The solver: exact verdicts for Stalactites, best-effort ones for Squadron, hints, and
certified deals.

>>> from stalactites.engine import Stalactites
>>> solution = solve(Stalactites("ms:1"), step="ones")
>>> solution.verdict.value, len(solution.moves) >= 48
('won', True)
"""

from .certify import certify, pick
from .result import Certificate, Solution, Verdict
from .search import hint, solve

__all__ = ["Certificate", "Solution", "Verdict", "certify", "hint", "pick", "solve"]
