"""The in-memory store gives back what it forgets: rooms made and abandoned, then their TTL.

``python bench/memory_expiry.py [--rooms N]`` makes N rooms on a :class:`MemoryStore` whose
clock the benchmark moves (each room as ``POST /api/rooms`` leaves it: a server-dealt deal
with its solver lines, two players seated and ready, their events), measures the memory
traced (tracemalloc) while they are held, moves the clock past ``STALACTITES_ROOM_TTL_S``'s
default, and measures again once one more call has swept them.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import tracemalloc

from stalactites.config import ServerConfig
from stalactites.rooms.deals import pick_deal
from stalactites.rooms.settings import CreateRoom, RoomSettings, new_salt
from stalactites.store import MemoryStore, NewPlayer, NewRoom, ProgressRow

HOUR_MS = 3600_000


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000_000

    def now_ms(self) -> int:
        return self.now


async def fill(store: MemoryStore, settings_json: str, rooms: int, ttl_ms: int) -> None:
    for index in range(rooms):
        room_id = f"room-{index:07d}"
        own = "".join(settings_json)  # each room's settings are a string of its own
        await store.create_room(NewRoom(room_id, own, 2, 0), ttl_ms)
        for seat in (1, 2):
            event = f'{{"type":"player","player":{{"player_id":"p{seat}-{index}","name":"N"}}}}'
            player = NewPlayer(f"p{seat}", "Name", "h" * 64, 0, ProgressRow(4, 0), event)
            await store.join(room_id, player)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=5_000)
    rooms = parser.parse_args().rooms
    chosen = await pick_deal("stalactites", "choice")
    settings = RoomSettings.resolve(
        CreateRoom(), chosen.deal, chosen.certified, chosen.solution, new_salt()
    )
    ttl_ms = ServerConfig().room_ttl_s * 1000
    clock = Clock()
    store = MemoryStore(now_ms=clock.now_ms)
    gc.collect()
    tracemalloc.start()
    base, _ = tracemalloc.get_traced_memory()
    await fill(store, settings.model_dump_json(), rooms, ttl_ms)
    gc.collect()
    held, _ = tracemalloc.get_traced_memory()
    clock.now += ttl_ms + HOUR_MS
    await store.count_rooms(clock.now)  # any call sweeps what is past its time
    gc.collect()
    after, _ = tracemalloc.get_traced_memory()
    per_room = (held - base) / rooms
    print(f"rooms made: {rooms}; TTL {ttl_ms // 1000} s")
    print(f"held while live: {(held - base) / 2**20:.1f} MiB ({per_room / 1024:.1f} KiB a room)")
    print(f"after the TTL:   {(after - base) / 2**20:.2f} MiB ({(after - base) / 1024:.0f} KiB)")
    print(f"given back:      {100 * (held - after) / max(held - base, 1):.1f} %")


if __name__ == "__main__":
    asyncio.run(main())
