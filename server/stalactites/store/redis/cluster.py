"""The small client of :mod:`.resp` on a Redis Cluster: each command to the master that owns
its key's slot.

A key's slot is CRC16 of the key (of its hash tag ``{...}`` if it has one) modulo 16384.
:class:`ClusterPipe` keeps the cluster's slot map (``CLUSTER SLOTS``, asked of any node it
knows) and one :class:`~.resp.Pipe` per master, and sends each command to the owner of its
key's slot.  Redirections are followed as the cluster specification says:

* ``MOVED slot host:port``: the slot has a new owner for good; the command goes there and
  the whole map is read again (a slot seldom moves alone);
* ``ASK slot host:port``: the slot is being moved and this key is already at the target;
  the command goes there once, preceded by ``ASKING``, and the map is left as it is;
* ``TRYAGAIN`` (a multi-key command whose keys are split by a move under way) and
  ``CLUSTERDOWN``: the command is sent again after a short wait.

A command is redirected at most :data:`REDIRECTS` times.  A redirected command has not run,
so sending it again is safe; a command whose connection was lost may have run, so that is
the caller's to judge (and the map is read again, in case the node has gone).
"""

from __future__ import annotations

import asyncio
import logging
from binascii import crc_hqx
from dataclasses import replace
from typing import Any

from .resp import STALL_S, Address, Pipe, ReplyError

__all__ = ["REDIRECTS", "SLOTS", "ClusterPipe", "check_seed", "key_slot"]

log = logging.getLogger(__name__)

SLOTS = 16384
REDIRECTS = 10  # with TRYAGAIN waits of 0.05, 0.1, ... s: about 2.7 s in all
RETRY_S = 0.05  # the first wait after TRYAGAIN or CLUSTERDOWN (then twice, three times...)


def check_seed(address: Address) -> None:
    """A cluster node's address, or ValueError (a unix socket, or a database other than 0)."""
    if address.path is not None or address.db:
        raise ValueError("a Redis Cluster is reached over TCP and has database 0 only")


def key_slot(key: str) -> int:
    """The cluster slot of ``key``: of its hash tag, the first ``{...}`` with something in it.

    >>> key_slot("foo"), key_slot("{room:r1}:room") == key_slot("{room:r1}:events")
    (12182, True)
    """
    data = key.encode()
    start = data.find(b"{")
    if start >= 0:
        end = data.find(b"}", start + 1)
        if end > start + 1:
            data = data[start + 1 : end]
    return crc_hqx(data, 0) % SLOTS


class ClusterPipe:
    """``await pipe.call_at(key, *command)`` from anywhere: the command goes to the master that
    owns ``key``'s slot, over that master's one shared connection."""

    def __init__(self, seed: Address) -> None:
        check_seed(seed)
        self._seed = seed
        self._owners: list[Pipe | None] = []  # by slot: the connection to its master
        self._pipes: dict[Address, Pipe] = {}
        self._reading: asyncio.Task[bool] | None = None

    def nodes(self) -> list[Address]:
        """The masters in the slot map (the seed first if the map is not read yet)."""
        known = dict.fromkeys(owner for owner in self._owners if owner is not None)
        return [pipe.address for pipe in known] or [self._seed]

    async def call_at(self, key: str, *args: Any) -> Any:
        """Send the command to the owner of ``key``'s slot; its reply (an error reply raises
        :class:`~.resp.ReplyError`, a lost connection :class:`ConnectionError`)."""
        slot = key_slot(key)
        asking: Pipe | None = None
        for attempt in range(REDIRECTS + 1):
            pipe = asking or (self._owners[slot] if self._owners else None)
            if pipe is None:
                pipe = await self._owner(slot)
            try:
                if asking is not None:
                    return await pipe.call_asking(*args)
                return await pipe.call(*args)
            except ReplyError as error:
                kind, _, rest = str(error).partition(" ")
                if attempt == REDIRECTS or kind not in ("MOVED", "ASK", "TRYAGAIN", "CLUSTERDOWN"):
                    raise
                asking = None
                if kind == "MOVED":
                    self._owners[slot] = self._pipe(self._address(rest))
                    self._read_map_soon()
                elif kind == "ASK":
                    asking = self._pipe(self._address(rest))
                else:
                    await asyncio.sleep(RETRY_S * (attempt + 1))
            except OSError:
                self._read_map_soon()  # the node may be gone: whom the map names now
                raise
        raise AssertionError("unreachable")

    async def ping(self) -> bool:
        """Whether every master in the slot map answers a ping (read again, once, after one
        did not: a replica may have taken over)."""
        for attempt in range(2):
            try:
                if attempt or not self._owners:
                    await asyncio.wait_for(self._read_map(), STALL_S)
            except (TimeoutError, OSError):
                return False
            masters = dict.fromkeys(owner for owner in self._owners if owner is not None)
            if masters and all(await asyncio.gather(*(pipe.ping() for pipe in masters))):
                return True
        return False

    async def close(self) -> None:
        if self._reading is not None:
            await asyncio.gather(self._reading, return_exceptions=True)
        for pipe in list(self._pipes.values()):
            await pipe.close()

    def _pipe(self, node: Address) -> Pipe:
        pipe = self._pipes.get(node)
        if pipe is None:
            pipe = self._pipes[node] = Pipe(node)
        return pipe

    def _address(self, redirection: str) -> Address:
        """The node of ``slot host:port`` (the tail of MOVED and ASK)."""
        endpoint = redirection.rsplit(" ", 1)[-1]
        host, _, port = endpoint.rpartition(":")
        host = host.strip("[]")
        return replace(self._seed, host=host or self._seed.host, port=int(port))

    async def _owner(self, slot: int) -> Pipe:
        if not self._owners:
            await self._read_map()
        owner = self._owners[slot] if self._owners else None
        if owner is None:
            raise ConnectionError(f"no Redis Cluster node is known to serve slot {slot}")
        return owner

    def _read_map_soon(self) -> None:
        if self._reading is None or self._reading.done():
            self._reading = asyncio.create_task(self._read_any(), name="redis-cluster-map")

    async def _read_map(self) -> None:
        self._read_map_soon()
        assert self._reading is not None
        if not await asyncio.shield(self._reading):
            seed = f"{self._seed.host}:{self._seed.port}"  # not the address: it holds the password
            raise ConnectionError(f"no Redis Cluster node answers (the first asked: {seed})")

    async def _read_any(self) -> bool:
        """The slot map from the first node that gives one; whether one did."""
        for node in dict.fromkeys([*self.nodes(), self._seed]):
            try:
                reply = await self._pipe(node).call("CLUSTER", "SLOTS")
            except (OSError, ReplyError) as error:
                log.warning(
                    "redis cluster node %s:%s gave no slot map: %s", node.host, node.port, error
                )
                continue
            self._owners = self._parse(node, reply)
            return True
        return False

    def _parse(self, asked: Address, reply: list[Any]) -> list[Pipe | None]:
        """``CLUSTER SLOTS``: ``[start, end, [host, port, id, ...], replicas...]`` per range
        (an empty host means the node asked)."""
        owners: list[Pipe | None] = [None] * SLOTS
        for start, end, master, *_ in reply:
            host = str(master[0]) or asked.host
            pipe = self._pipe(replace(self._seed, host=host, port=int(master[1])))
            owners[int(start) : int(end) + 1] = [pipe] * (int(end) - int(start) + 1)
        return owners
