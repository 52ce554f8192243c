"""Doorbells: Redis pub/sub channels, each ringing one bell (``bell(seq, ring)``), on one
subscriber connection (:class:`~.listener.Listener`).  A bell says "there is something new up to
``seq``" and why (a :class:`~..rooms.base.Ring`); the truth is in the store.  After a lost
subscription has been made again, every bell rings with 0 and ``Ring.RESUBSCRIBED`` so that
whoever holds it looks in the store for what it may have missed.
The room store and the tournament store each keep one :class:`Doorbells`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from ..rooms.base import Bell, Carried, Ring
from .listener import Listener
from .resp import Address

__all__ = ["Doorbells"]

log = logging.getLogger(__name__)


Decode = Callable[[str], tuple[int, Ring, Carried | None]]


class Doorbells:
    """``decode(data)`` turns a message into what a bell is rung with: the seq, the ring and
    what it carries (by default: the message is the seq, ``Ring.NEWS``, carrying nothing);
    ``others()`` names more addresses to subscribe at when a connection fails (the other
    masters of a cluster); ``what`` names the bells' owners in the log; ``resubscribed()`` is
    called when a lost subscription has been made again, before the bells ring."""

    def __init__(
        self,
        address: Address,
        others: Callable[[], Sequence[Address]] | None,
        decode: Decode = lambda data: (int(data), Ring.NEWS, None),
        what: str = "rooms",
        resubscribed: Callable[[], None] = lambda: None,
    ) -> None:
        self._bells: dict[str, Bell] = {}
        self._decode = decode
        self._what = what
        self._resubscribed = resubscribed
        self._listener = Listener(address, self._message, self._ring_all, others)
        self.reconnects = 0  # subscriptions lost and made again (for /metrics)

    async def subscribe(self, channel: str, bell: Bell) -> None:
        self._bells[channel] = bell
        await self._listener.subscribe(channel)

    async def unsubscribe(self, channel: str, bell: Bell) -> None:
        """Stop ringing ``bell`` (a later subscription's bell is left alone)."""
        if self._bells.get(channel) == bell:
            del self._bells[channel]
            await self._listener.unsubscribe(channel)

    def rings(self, channel: str, bell: Bell) -> bool:
        """Whether ``bell`` is the one ``channel`` rings."""
        return self._bells.get(channel) == bell

    def missed(self, channel: str) -> None:
        """Ring the channel's bell for bells that may have been missed (``Ring.RESUBSCRIBED``):
        whoever holds it looks in the store."""
        bell = self._bells.get(channel)
        if bell is not None:
            bell(0, Ring.RESUBSCRIBED)

    async def close(self) -> None:
        await self._listener.close()

    def _message(self, channel: str, data: str) -> None:
        bell = self._bells.get(channel)
        if bell is not None:
            bell(*self._decode(data))

    def _ring_all(self) -> None:
        log.warning("%s' doorbells subscribed again; each resyncs from the store", self._what)
        self.reconnects += 1
        self._resubscribed()
        for bell in list(self._bells.values()):
            bell(0, Ring.RESUBSCRIBED)
