"""Certified deals: deal ids proven winnable, each stored with a winning line.

Under the ``choice`` step policy a Stalactites deal is certified only when it is winnable by
both steps, so that choosing the step is never a coin toss; under ``ones`` or ``twos`` only
that step counts.  A Squadron deal is certified when the search wins it within the budget.
"""

from __future__ import annotations

import secrets

from ..engine import DealId, GameName, NotationError, new_game
from ..engine.deals import splitmix64
from ..engine.stalactites import StepPolicy
from .result import Certificate, Verdict
from .search import solve

__all__ = ["MAX_TRIES_PER_DEAL", "PICK_SQUADRON_STATES", "certify", "pick"]

MAX_TRIES_PER_DEAL = 100  # pick gives up after this many deals tried per deal wanted
# pick's Squadron budget per deal when none is given: most deals that come out at all come
# out within it, and a deal that does not is simply passed over.
PICK_SQUADRON_STATES = 30_000


def certify(
    game: str,
    deal: DealId | str,
    step: str = "choice",
    max_states: int | None = None,
) -> Certificate | None:
    """A certificate for ``deal`` if the solver proves it winnable (see the module), else None."""
    deal_id = deal if isinstance(deal, DealId) else DealId.parse(deal)
    lines: dict[str, list[str]] = {}
    for name, policy in _searches(game, step):
        solution = solve(new_game(game, deal_id, policy), max_states=max_states)
        if solution.verdict is not Verdict.WON:
            return None
        lines[name] = [str(move) for move in solution.moves]
    return Certificate(deal_id, lines)


def _searches(game: str, step: str) -> list[tuple[str, str | None]]:
    """The (line name, step policy) pairs a deal must be won under."""
    if game == GameName.SQUADRON:
        if step != "choice":
            raise NotationError(f"Squadron has no step: {step!r}")
        return [("play", None)]
    if game != GameName.STALACTITES:
        new_game(game, "ms:1")  # raises the engine's error for an unknown game
    policy = StepPolicy.parse(step)
    if policy is StepPolicy.CHOICE:
        return [("ones", "ones"), ("twos", "twos")]
    return [(policy.value, policy.value)]


def pick(
    game: str,
    count: int,
    seed: int | None = None,
    step: str = "choice",
    max_states: int | None = None,
) -> list[Certificate]:
    """``count`` certified deals with ``sr:`` ids drawn from the SplitMix64 stream of ``seed``
    (a random seed when None), in stream order: the same seed always picks the same deals.
    Squadron deals get ``PICK_SQUADRON_STATES`` each unless ``max_states`` says otherwise."""
    if count < 0:
        raise ValueError(f"count must be 0 or more, not {count!r}")
    _searches(game, step)  # bad arguments fail before any search
    if max_states is None and game == GameName.SQUADRON:
        max_states = PICK_SQUADRON_STATES
    words = splitmix64(secrets.randbits(64) if seed is None else seed)
    picked: list[Certificate] = []
    for _ in range(MAX_TRIES_PER_DEAL * count):
        if len(picked) == count:
            break
        certificate = certify(game, DealId("sr", next(words)), step, max_states)
        if certificate is not None:
            picked.append(certificate)
    if len(picked) < count:
        raise ValueError(
            f"only {len(picked)} of {count} deals tried could be certified; "
            "a larger state budget may help"
        )
    return picked
