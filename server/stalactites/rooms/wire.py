"""Boards and legal moves as sent on the wire, fast: they go out with every accepted move.

:func:`wire_board` is the engine's ``state()`` without the deal id, built straight from
the game's piles with each card's text looked up once (the engine's cards and its
prebuilt moves are shared instances); :class:`BoardText` is that board as JSON, kept pile by
pile and written again only where an action moved cards; :func:`accepted_json` is the whole
``accepted`` frame as :class:`~stalactites.protocol.Accepted`'s ``model_dump_json`` would write
it, and :func:`board_event_json` a spectator's ``board`` frame as ``BoardEvent``'s, built as
text from each card's and move's JSON, looked up once, and each pile's text kept by its
contents (no model is made on the move path).
``tests/test_wire.py`` checks them against ``state()`` and the models along whole games of
both kinds, moves taken back and played again.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..engine import Card, Game, Move, Pile, PileKind, Squadron, Stalactites
from ..protocol.room import SquadronBoard, StalactitesBoard
from ..room_events import text_json

__all__ = [
    "AcceptedText",
    "BoardText",
    "accepted_json",
    "board_event_json",
    "board_json",
    "legal_texts",
    "move_text",
    "wire_board",
]

_CARD_TEXT: dict[int, tuple[Card, str]] = {}
_MOVE_TEXT: dict[int, tuple[Move, str, str]] = {}  # by id: the move, its text, as JSON
_CARD_JSON: dict[int, str] = {}  # a card's JSON by its id (cards are few and shared)
_KEPT: list[Card] = []
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


def _move_texts(move: Move) -> tuple[Move, str, str]:
    """The move (kept alive, so that its id stays its own), its notation and that as JSON."""
    known = _MOVE_TEXT.get(id(move))
    if known is not None and known[0] is move:
        return known
    if len(_MOVE_TEXT) >= _MOST:
        _MOVE_TEXT.clear()
    text = str(move)
    known = _MOVE_TEXT[id(move)] = (move, text, json.dumps(text))
    return known


def move_text(move: Move) -> str:
    return _move_texts(move)[1]


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


@dataclass(slots=True)
class AcceptedText:
    """An ``accepted`` answer, already encoded (``text``: the frame as JSON); not frozen,
    though never changed (see :class:`~stalactites.store.Commit`)."""

    id: str | None
    text: str
    type: Literal["accepted"] = "accepted"


def _card_json(card: Card) -> str:
    text = _CARD_JSON.get(id(card))
    if text is None:
        if len(_KEPT) >= _MOST:  # (the engine's 52 cards are shared: never, in practice)
            _CARD_JSON.clear()
            _KEPT.clear()
        text = _CARD_JSON[id(card)] = json.dumps(_card(card))
        _KEPT.append(card)  # alive for good, so that its id stays its own
    return text


def _slot_json(card: Card | None) -> str:
    return "null" if card is None else _card_json(card)


def _move_json(move: Move) -> str:
    return _move_texts(move)[2]


class _PileTexts:
    """Piles' (and the cells') JSON, written once per distinct pile (a move changes one or two)
    and kept by the ids of its cards: the entry holds the cards, so an id stays its card's
    while the entry lives.  At ``_PILES_MOST`` piles it starts again empty; one not kept is
    written from the cards' JSON by their ids, as any pile is the first time it is seen."""

    def __init__(self) -> None:
        self._known: dict[tuple[int, ...], tuple[tuple[Card | None, ...], str]] = {}

    def text(self, cards: Sequence[Card | None]) -> str:
        key = tuple(map(id, cards))
        known = self._known.get(key)
        if known is None:
            known = self._write(key, cards)
        return known[1]

    def _write(
        self, key: tuple[int, ...], cards: Sequence[Card | None]
    ) -> tuple[tuple[Card | None, ...], str]:
        if len(self._known) >= _PILES_MOST:
            self._known.clear()
        try:
            text = "[" + ",".join(map(_CARD_JSON.__getitem__, key)) + "]"
        except KeyError:  # an empty cell, or a card not written yet
            text = "[" + ",".join(map(_slot_json, cards)) + "]"
        known = self._known[key] = (tuple(cards), text)
        return known


_PILES_MOST = 10_000
_pile_json = _PileTexts().text


class BoardText:
    """A game's board as sent (``state``) in JSON, kept pile by pile: after a move, pushed or
    taken back, :meth:`moved` writes again only the two piles it moved cards between, so an
    action's board costs two piles' texts, not every pile's.  Every change of the game is to
    be told (:meth:`~stalactites.rooms.boards.CachedBoard.act` does; a step declaration moves no
    card, and the step and the stock's count are read afresh)."""

    __slots__ = ("_cells", "_foundations", "_squadron", "_tableau", "_waste", "game")

    def __init__(self, game: Game) -> None:
        if not isinstance(game, Stalactites | Squadron):
            raise TypeError(f"no wire board for {game!r}")
        self.game = game
        self._squadron = isinstance(game, Squadron)
        self._foundations = list(map(_pile_json, game.foundations))
        self._tableau = list(map(_pile_json, game.tableau))
        self._cells = _pile_json(game.cells)
        self._waste = _pile_json(game.waste) if isinstance(game, Squadron) else ""

    def moved(self, move: Move) -> None:
        """``move`` was pushed or taken back: its piles are written again."""
        self._write(move.src)
        self._write(move.dst)

    def _write(self, pile: Pile) -> None:
        game = self.game
        kind = pile.kind
        if kind is PileKind.TABLEAU:
            self._tableau[pile.index] = _pile_json(game.tableau[pile.index])
        elif kind is PileKind.FOUNDATION:
            self._foundations[pile.index] = _pile_json(game.foundations[pile.index])
        elif kind is PileKind.CELL:
            self._cells = _pile_json(game.cells)
        elif kind is PileKind.WASTE:
            assert isinstance(game, Squadron)
            self._waste = _pile_json(game.waste)
        # the stock is sent as its count, read afresh

    def json(self) -> str:
        """:func:`wire_board` as JSON (the model's field order, no spaces)."""
        piles = (
            f'"foundations":[{",".join(self._foundations)}],"cells":{self._cells},'
            f'"tableau":[{",".join(self._tableau)}]'
        )
        game = self.game
        if self._squadron:
            assert isinstance(game, Squadron)
            stock = len(game.stock)
            return f'{{"game":"squadron",{piles},"waste":{self._waste},"stock_count":{stock}}}'
        assert isinstance(game, Stalactites)
        step = "null" if game.step_name is None else text_json(game.step_name)
        return f'{{"game":"stalactites","step":{step},{piles}}}'


def board_json(game: Game) -> str:
    """:func:`wire_board` as JSON, every pile written."""
    return BoardText(game).json()


def accepted_json(
    client_id: str | None, move: str, board: str, legal: Sequence[Move], status: str
) -> str:
    """The ``accepted`` frame for ``move`` just played, as the model writes it: ``board`` is
    the board after it (:class:`BoardText`), ``legal`` its legal moves while the player races,
    else none (the caller has them, from judging the move)."""
    moves = ",".join(map(_move_json, legal))
    ident = "null" if client_id is None else text_json(client_id)
    return (
        f'{{"type":"accepted","id":{ident},"move":{text_json(move)},'
        f'"state":{board},"legal":[{moves}],"status":"{status}"}}'
    )


def board_event_json(player_id: str, move: str, board: str, at_ms: int, verdict: str) -> str:
    """The ``board`` frame spectators get after ``move``, as the model writes it (``board``:
    the board after it, :class:`BoardText`)."""
    return (
        f'{{"type":"board","player_id":{text_json(player_id)},"move":{text_json(move)},'
        f'"state":{board},"at":{at_ms},"verdict":"{verdict}"}}'
    )
