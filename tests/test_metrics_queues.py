"""``GET /metrics``'s build information and its queues: who waits in each quick-race queue, as
the store holds them, and the solver's calls by kind, read when scraped."""

from __future__ import annotations

import platform

import pytest

from match_kit import queued_player
from metrics_kit import scrape
from server_kit import InProcessServer
from stalactites.live.metrics import queue_names

pytestmark = pytest.mark.usefixtures("close_clients")


@pytest.mark.own_server  # it counts every waiting player of its server
async def test_a_queued_player_is_counted_in_their_queue_and_nowhere_else(
    any_server: InProcessServer,
) -> None:
    base = any_server.url
    before = await scrape(base)
    assert {name for name, _ in before if name == "stalactites_match_waiting"}
    assert all(before[("stalactites_match_waiting", queue)] == 0 for queue in queue_names())
    client = await queued_player(any_server, step="twos")
    now = await scrape(base)
    waiting = {queue: now[("stalactites_match_waiting", queue)] for queue in queue_names()}
    assert waiting == {queue: int(queue == "stalactites:twos") for queue in queue_names()}
    await client.close()


async def test_build_information_names_the_version_python_and_store(
    any_server: InProcessServer,
) -> None:
    samples = await scrape(any_server.url)
    store = "memory" if any_server.config.store_url.startswith("memory") else "redis"
    info = "stalactites_build_info"
    [(labels, value)] = [(label, value) for (name, label), value in samples.items() if name == info]
    assert value == 1
    assert f'python="{platform.python_version()}",store="{store}"' in str(labels)
    assert str(labels).startswith('version="')
    for kind in ("work", "analysis", "hint", "fairplay"):  # each kind, 0 or more
        assert samples[("stalactites_solver_waiting", kind)] >= 0
        assert samples[("stalactites_solver_running", kind)] >= 0
