"""The friends' store's interface: who follows and blocks whom, presence, challenges, each
player's notifications, and the channel that carries a player's live frames.

* **Lists**, one per player and name (:data:`ListName`): ``following``, ``followers``,
  ``blocked``, ``opponents`` (recent ones); member player ids scored by when (unix ms).  A
  follow is written on both players' lists, the follower's first: a process dying between
  the two leaves the followed player's ``followers`` behind until the follow is made again.
* **Presence**: each tab of the web client holds a lease (``tab_on``, renewed; ``tab_off``
  when it closes); a player is online while a lease lasts.  The set of players online says
  until when each one's newest lease lasts, so that any process can find who went away
  without closing (``expired``).  ``racing`` is the room a player races in, with its own lease.
* **Challenges**: one JSON document each, its ``status`` changed by compare and set (one
  acceptance wins, from any tab, on any process); the pair's lock keeps one open challenge
  from a player to a player.
* **Notifications**: each player's newest :data:`NOTES_KEPT`, by id (a note written twice is
  one note) and the time up to which the player has read them.
* **Channels**: ``publish`` a frame to a player; every process with a socket of theirs has
  ``listen``-ed and hands it to each.  What is published is not kept: what matters is also
  written (notes, challenges), and a socket that (re)connects reads it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, Protocol

__all__ = ["NOTES_KEPT", "FriendsStore", "ListName", "Listen"]

ListName = Literal["following", "followers", "blocked", "opponents"]
Listen = Callable[[str, str], None]  # (player_id, frame) for each frame published to a player

NOTES_KEPT = 100  # a player's newest notifications kept


class FriendsStore(Protocol):
    # Lists.
    async def add(self, player_id: str, name: ListName, member: str, ms: int) -> bool:
        """Put ``member`` on the list (its time kept if it is there); whether it is new."""
        ...

    async def remove(self, player_id: str, name: ListName, member: str) -> bool: ...

    async def members(
        self, player_id: str, name: ListName, offset: int, limit: int
    ) -> list[tuple[str, int]]:
        """Members and their times, newest first."""
        ...

    async def count(self, player_id: str, name: ListName) -> int: ...

    async def contains(self, player_id: str, name: ListName, members: list[str]) -> list[bool]: ...

    async def keep_newest(self, player_id: str, name: ListName, kept: int) -> None: ...

    async def forget(self, player_id: str) -> None:
        """Drop everything of the player's (their account is deleted)."""
        ...

    # Settings.
    async def hidden(self, player_id: str) -> bool:
        """Whether the player hides their presence."""
        ...

    async def set_hidden(self, player_id: str, hidden: bool) -> None: ...

    # Presence.
    async def tab_on(
        self, player_id: str, tab: str, until_ms: int, now_ms: int, renew: bool = False
    ) -> bool:
        """Hold a tab's lease (``renew``: only one held still, never a tab closed meanwhile);
        whether the player was offline before."""
        ...

    async def tab_off(self, player_id: str, tab: str, now_ms: int) -> bool:
        """Drop a tab's lease; whether the player has no tab left (is offline now)."""
        ...

    async def set_racing(self, player_id: str, room_id: str | None, until_ms: int) -> None:
        """The room the player races in (None: none), until ``until_ms`` at most."""
        ...

    async def presence(self, player_ids: list[str], now_ms: int) -> list[str | None]:
        """For each player: None offline, ``""`` online, else the room they race in."""
        ...

    async def expired(self, now_ms: int, limit: int) -> list[str]:
        """Players whose every lease ran out, taken off the online set by this call (one
        caller anywhere gets each)."""
        ...

    async def online_count(self, now_ms: int) -> int: ...

    # Challenges.
    async def open_challenge(
        self,
        challenge_id: str,
        from_id: str,
        to_id: str,
        document: str,
        now_ms: int,
        expires_ms: int,
    ) -> str | None:
        """Store a new open challenge, unless one from ``from_id`` to ``to_id`` is open: its
        id then (nothing stored)."""
        ...

    async def challenge(self, challenge_id: str) -> str | None: ...

    async def settle(self, challenge_id: str, status: str, document: str) -> bool:
        """Replace the document if its status is ``status`` still; whether it was replaced."""
        ...

    async def closed(self, from_id: str, to_id: str, challenge_id: str) -> None:
        """The challenge is no longer open: off both players' lists, and the pair's lock
        freed if it holds it."""
        ...

    async def challenges_of(self, player_id: str, now_ms: int) -> list[str]:
        """The documents of the challenges from or to the player that have not expired."""
        ...

    async def sent_count(self, player_id: str, now_ms: int) -> int:
        """Challenges the player sent that have not expired."""
        ...

    # Notifications.
    async def note(self, player_id: str, note_id: str, document: str, ms: int) -> bool:
        """Keep a notification (newest :data:`NOTES_KEPT`); whether it is new."""
        ...

    async def notes(self, player_id: str, limit: int) -> list[str]:
        """The newest notifications' documents, newest first."""
        ...

    async def read_ms(self, player_id: str) -> int: ...

    async def mark_read(self, player_id: str, ms: int) -> None:
        """Notifications up to ``ms`` are read (the mark never goes back)."""
        ...

    # Channels.
    async def publish(self, player_id: str, frame: str) -> None: ...

    async def listen(self, player_id: str) -> None:
        """Hand the frames published to the player to this store's listener from now on."""
        ...

    async def unlisten(self, player_id: str) -> None: ...

    def on_frame(self, listener: Listen, resubscribed: Callable[[], None]) -> None:
        """Who gets the frames (one per process), and who is told that frames may have been
        lost (the subscription was made again)."""
        ...

    async def close(self) -> None: ...
