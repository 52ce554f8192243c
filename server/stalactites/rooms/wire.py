"""Boards and legal moves as sent on the wire, fast: they go out with every accepted move.

:func:`wire_board` is the engine's ``state()`` without the deal id, built straight from
the game's piles with each card's text looked up once (the engine's cards and its
prebuilt moves are shared instances); ``tests/test_wire.py`` checks it against
``state()`` along whole games of both kinds.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..engine import Card, Game, Move, Squadron, Stalactites
from ..protocol import SquadronBoard, StalactitesBoard

__all__ = ["legal_texts", "move_text", "wire_board"]

_CARD_TEXT: dict[int, tuple[Card, str]] = {}
_MOVE_TEXT: dict[int, tuple[Move, str]] = {}
_MOST = 50_000  # distinct moves remembered (Squadron makes new ones as it goes)


def _card(card: Card) -> str:
    known = _CARD_TEXT.get(id(card))
    if known is not None and known[0] is card:
        return known[1]
    text = str(card)
    _CARD_TEXT[id(card)] = (card, text)  # the pair keeps the card alive, so the id stays its
    return text


def _cards(cards: Iterable[Card]) -> list[str]:
    return [_card(card) for card in cards]


def move_text(move: Move) -> str:
    known = _MOVE_TEXT.get(id(move))
    if known is not None and known[0] is move:
        return known[1]
    if len(_MOVE_TEXT) >= _MOST:
        _MOVE_TEXT.clear()
    text = str(move)
    _MOVE_TEXT[id(move)] = (move, text)
    return text


def legal_texts(game: Game) -> list[str]:
    """The game's legal moves in notation, in the engine's order."""
    return [move_text(move) for move in game.generate_legal_moves()]


def wire_board(game: Game) -> StalactitesBoard | SquadronBoard:
    """The player's board as sent: the engine's state without the deal id."""
    if isinstance(game, Stalactites):
        return StalactitesBoard.model_construct(
            game="stalactites",
            step=game.step_name,
            foundations=[_cards(pile) for pile in game.foundations],
            cells=[None if card is None else _card(card) for card in game.cells],
            tableau=[_cards(column) for column in game.tableau],
        )
    if isinstance(game, Squadron):
        return SquadronBoard.model_construct(
            game="squadron",
            foundations=[_cards(pile) for pile in game.foundations],
            cells=[None if card is None else _card(card) for card in game.cells],
            tableau=[_cards(column) for column in game.tableau],
            waste=_cards(game.waste),
            stock_count=len(game.stock),
        )
    raise TypeError(f"no wire board for {game!r}")
