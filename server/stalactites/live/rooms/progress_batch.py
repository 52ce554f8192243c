"""Progress in large rooms: one connection's ``progress`` events, batched, latest value wins.

A tournament round seats every entrant in one room, and every accepted move
is a ``progress`` event for every seat: with hundreds of racers that is
thousands of frames a second.  In rooms with more than
:data:`~stalactites.rooms.settings.LARGE_ROOM_SEATS` seats each connection
holds its progress events here instead and sends them as one
``progress_batch`` frame at most every :data:`INTERVAL_S`, keeping only each
player's newest.  Any other room event first sends what is held, so the
client still sees events in seq order.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable

__all__ = ["INTERVAL_S", "ProgressBatch", "event_player", "is_progress"]

INTERVAL_S = 0.25  # at most four batches a second per connection
PLAYER_KEY = '"player_id":"'


def is_progress(frame: str) -> bool:
    """Whether a room event frame (``{"seq":N,"type":...``) is a ``progress`` event."""
    start = frame.find('"type":"', 0, 32)
    return start > 0 and frame.startswith('progress"', start + 8)


def event_player(frame: str) -> str:
    """The ``player_id`` of a progress event frame."""
    start = frame.find(PLAYER_KEY)
    if start > 0:
        end = frame.find('"', start + len(PLAYER_KEY))
        if end > 0:
            return frame[start + len(PLAYER_KEY) : end]
    return str(json.loads(frame)["player_id"])  # not in the stored shape: read it properly


class ProgressBatch:
    """Holds progress frames for one connection and sends them batched through ``send``."""

    def __init__(
        self,
        send: Callable[[str], None],
        interval_s: float = INTERVAL_S,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._send = send
        self._interval_s = interval_s
        self._monotonic = monotonic
        self._held: dict[str, tuple[int, str]] = {}  # player id -> (seq, frame), newest
        self._last_sent = float("-inf")
        self._timer: asyncio.TimerHandle | None = None

    def hold(self, seq: int, frame: str) -> None:
        """Keep a progress frame (replacing the player's older one); send when it is time."""
        self._held[event_player(frame)] = (seq, frame)
        if self._timer is None:
            wait = self._last_sent + self._interval_s - self._monotonic()
            self._timer = asyncio.get_running_loop().call_later(max(wait, 0.0), self.flush)

    def flush(self) -> None:
        """Send what is held now, as one ``progress_batch`` (nothing held: nothing sent)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self._held:
            return
        held = sorted(self._held.values())
        self._held.clear()
        self._last_sent = self._monotonic()
        events = ",".join(frame for _, frame in held)
        self._send(f'{{"type":"progress_batch","seq":{held[-1][0]},"events":[{events}]}}')

    def close(self) -> None:
        """Drop what is held and the timer (the connection is closing)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._held.clear()
