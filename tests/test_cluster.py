"""The Redis store, races and tournaments on a three-master Redis Cluster.

The module starts its own cluster (``tests/cluster_kit.py``: three ``redis-server
--cluster-enabled yes`` on free ports, joined by ``redis-cli --cluster create``) and
tears it down at the end.  The room store's and the tournament store's contract suites
run here again, unchanged, on cluster stores (their ``store`` and ``tstore`` fixtures are
redefined below); then what only a cluster has: commands routed to the slot's owner,
MOVED and ASK followed while a room's slot moves between masters, a race over real
websockets with two server processes, and a tournament to its final standings.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

import test_store_contract
import test_tournament_store
from cluster_kit import LocalCluster
from stalactites.store import Store
from stalactites.store.redis import RedisStore
from stalactites.tournaments.redis_store import RedisTournamentStore
from stalactites.tournaments.store import TournamentStore

# The two contract suites, collected again in this module: here they run on the cluster.
for _suite in (test_store_contract, test_tournament_store):
    for _name, _case in vars(_suite).items():
        if _name.startswith("test_") and callable(_case):
            globals()[_name] = _case


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    with LocalCluster() as running:
        yield running


@pytest.fixture
async def store(cluster: LocalCluster, redis_prefix: str) -> AsyncIterator[Store]:
    """The contract suite's store, on the cluster."""
    made = RedisStore(cluster.url, redis_prefix, max_events=50, cluster=True)
    yield made
    await made.close()


@pytest.fixture
async def tstore(cluster: LocalCluster, redis_prefix: str) -> AsyncIterator[TournamentStore]:
    """The tournament contract suite's store, on the cluster."""
    made = RedisTournamentStore(cluster.url, redis_prefix, cluster=True)
    yield made
    await made.close()
