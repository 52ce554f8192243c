"""The games by name, as the command line, records and the server find them."""

from __future__ import annotations

from .deals import DealId
from .errors import NotationError
from .game import Game, GameName
from .squadron import Squadron
from .stalactites import Stalactites, StepPolicy

__all__ = ["GAMES", "new_game"]

GAMES: dict[str, type[Game]] = {GameName.STALACTITES: Stalactites, GameName.SQUADRON: Squadron}


def new_game(name: str, deal: DealId | str, step: StepPolicy | str | None = None) -> Game:
    """A new game by name. ``step`` is Stalactites' step policy (default ``choice``)."""
    if name == GameName.STALACTITES:
        return Stalactites(deal, StepPolicy.CHOICE if step is None else step)
    if name == GameName.SQUADRON:
        if step is not None:
            raise NotationError(f"Squadron has no step: {str(step)!r}")
        return Squadron(deal)
    raise NotationError(f"not a game: {name!r} (stalactites or squadron)")
