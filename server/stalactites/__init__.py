"""Stalactites Race: race each other at patience on the identical deal.

The packages, by job: ``engine`` (the rules, no I/O) and ``cli`` (the
``stalactites`` command).
"""

__version__ = "0.1.0"
