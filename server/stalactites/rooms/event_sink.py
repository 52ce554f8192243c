"""How the rooms service tells this process's fan-out of its own commits.

:class:`~.service.RoomService` commits every change inside its sink's
``committing(room_id)``: the sink (``live/fanout.py``'s ``Fanout``) then knows that a commit of
this process is under way, fetches nothing newer meanwhile, and is handed the events the commit
stored (:meth:`FollowedCommit.stored`), saving a read of the store, and the action it stored
(for the spectators' boards).  Until a sink is set,
:class:`Unfollowed` follows nothing.
"""

from __future__ import annotations

from types import TracebackType
from typing import Protocol

from ..store.rooms.base import ActionRow

__all__ = ["EventSink", "FollowedCommit", "Unfollowed"]


class FollowedCommit(Protocol):
    """One commit of this process's as an :class:`EventSink` follows it: a context manager
    entered before the store is called and left after it answered (or failed)."""

    def __enter__(self) -> FollowedCommit: ...

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None: ...

    def stored(
        self, events: list[tuple[int, str]], action: tuple[int, ActionRow] | None = None
    ) -> None:
        """The room events the commit stored, [(seq, event)], and its action: the ``count``-th
        of the room's action stream and its row (None for none)."""


class EventSink(Protocol):
    """Follows this process's commits to rooms (the process's fan-out of room events)."""

    def committing(self, room_id: str) -> FollowedCommit:
        """Follow one commit to the room."""
        ...


class Unfollowed:
    """A commit nobody follows (no sink yet)."""

    def committing(self, room_id: str) -> Unfollowed:
        return self

    def __enter__(self) -> Unfollowed:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def stored(
        self, events: list[tuple[int, str]], action: tuple[int, ActionRow] | None = None
    ) -> None:
        pass
