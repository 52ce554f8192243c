"""What one server process holds for tournaments while it runs (made in the app's lifespan).

The tournament store (the rooms' store URL and key prefix), the service, this
process's scheduler and feeds; rooms that finish here are handed back to the
tournament whose round they are.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from ..config import ServerConfig
from ..tournaments import Scheduler, TournamentService, TournamentStore, open_tournament_store
from ..tournaments.rounds import tournament_of_room
from .runtime import Runtime
from .tournament_feed import Feeds

__all__ = ["TournamentHost", "tournaments_running"]


@dataclass
class TournamentHost:
    config: ServerConfig
    service: TournamentService
    scheduler: Scheduler
    feeds: Feeds
    store: TournamentStore

    def room_finished(self, room_id: str) -> None:
        """A room's race has ended here: if it is a round, its tournament is due now."""
        tournament_id = tournament_of_room(room_id)
        if tournament_id is not None:
            self.scheduler.spawn_now_due(tournament_id)


@asynccontextmanager
async def tournaments_running(runtime: Runtime) -> AsyncIterator[TournamentHost]:
    """Open the tournament store and start the scheduler; undo it all on the way out."""
    config = runtime.config
    store = open_tournament_store(config.store_url, config.redis_prefix, config.redis_cluster)
    service = TournamentService(store, runtime.rooms, config, runtime.clock)
    scheduler = Scheduler(service, runtime.clock)
    host = TournamentHost(config, service, scheduler, Feeds(store, service), store)
    service.add_sink(host.feeds.offer)
    runtime.rooms.add_finish_listener(host.room_finished)
    scheduler.start()
    try:
        yield host
    finally:
        await host.feeds.close()
        await scheduler.close()
        await store.close()
