"""A three-master Redis Cluster for the tests, made from ``redis-server`` on free local ports.

:class:`LocalCluster` starts three ``redis-server --cluster-enabled yes`` in a
temporary folder, joins them with ``redis-cli --cluster create`` (no replicas)
and waits until every node reports ``cluster_state:ok``; :meth:`LocalCluster.move_slot`
moves one slot, keys and all, from its owner to another master the way
``redis-cli --cluster reshard`` does (SETSLOT IMPORTING / MIGRATING, MIGRATE, SETSLOT NODE).
A missing ``redis-server`` or ``redis-cli`` is an error, not a skip.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any

import redis

from server_kit import end_process

__all__ = ["LocalCluster", "SlotMove", "key_slot_of"]

MASTERS = 3
WAIT_S = 30.0


def _free_port() -> int:
    """A free port whose cluster bus port (port + 10000) is free too."""
    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        if port + 10_000 > 65_535:
            continue
        with socket.socket() as bus:
            try:
                bus.bind(("127.0.0.1", port + 10_000))
            except OSError:
                continue
        return port


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise RuntimeError(f"{name} is not installed (tests/run.sh installs redis-server)")
    return path


class LocalCluster:
    """Three masters on local ports; ``url`` is the first node's (any node would do)."""

    def __init__(self) -> None:
        self.server = _tool("redis-server")
        self.cli = _tool("redis-cli")
        self.folder = Path(tempfile.mkdtemp(prefix="stalactites-cluster-"))
        self.ports: list[int] = []
        self.processes: list[subprocess.Popen[Any]] = []

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    def __enter__(self) -> LocalCluster:
        try:
            for _ in range(MASTERS):
                self._start_node()
            addresses = [f"127.0.0.1:{port}" for port in self.ports]
            subprocess.run(
                [self.cli, "--cluster", "create", *addresses, "--cluster-replicas", "0"]
                + ["--cluster-yes"],
                check=True,
                capture_output=True,
                timeout=60,
            )
            self.wait_ok()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def _start_node(self) -> None:
        """One more master on a free port (another port if someone took that one first)."""
        for _ in range(5):
            port = _free_port()
            process = self._spawn(port)
            deadline = time.monotonic() + WAIT_S
            while process.poll() is None and not self._answers(port):
                if time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            if process.poll() is None and self._answers(port):
                self.processes.append(process)
                self.ports.append(port)
                return
            end_process(process)
        raise RuntimeError("redis-server did not start on a free port in five tries")

    def _spawn(self, port: int) -> subprocess.Popen[Any]:
        folder = self.folder / str(port)
        folder.mkdir(exist_ok=True)
        return subprocess.Popen(
            [self.server, "--port", str(port), "--bind", "127.0.0.1"]
            + ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"]
            + ["--cluster-node-timeout", "5000", "--save", "", "--appendonly", "no"]
            + ["--dir", str(folder), "--logfile", "redis.log"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def _answers(self, port: int) -> bool:
        try:
            with self.node(port) as client:
                return bool(client.ping())
        except redis.ConnectionError:
            return False

    def node(self, port: int) -> redis.Redis:
        """A plain client of one node (no redirections followed)."""
        return redis.Redis(host="127.0.0.1", port=port, decode_responses=True)

    def wait_ok(self) -> None:
        """Until every node says ``cluster_state:ok`` and agrees on who owns every slot."""
        deadline = time.monotonic() + WAIT_S
        while True:
            states, maps = [], []
            for port in self.ports:
                with self.node(port) as client:
                    states.append(client.cluster("INFO")["cluster_state"])
                    maps.append(sorted(str(entry) for entry in client.cluster("SLOTS")))
            if all(state == "ok" for state in states) and all(m == maps[0] for m in maps):
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"the cluster did not settle: {states}")
            time.sleep(0.1)

    def owner(self, slot: int) -> int:
        """The port of the master that owns ``slot``."""
        with self.node(self.ports[0]) as client:
            for start, end, master, *_ in client.execute_command("CLUSTER SLOTS"):
                if start <= slot <= end:
                    return int(master[1])
        raise LookupError(f"no node owns slot {slot}")

    def move_slot(self, slot: int, to_port: int | None = None) -> int:
        """Move ``slot`` and its keys to another master (the next one by default); its port."""
        move = self.begin_move(slot, to_port)
        move.migrate_keys()
        move.finish()
        return move.target

    def begin_move(self, slot: int, to_port: int | None = None) -> SlotMove:
        """Mark ``slot`` IMPORTING on the target and MIGRATING on its owner (no key moved yet)."""
        source = self.owner(slot)
        target = to_port or self.ports[(self.ports.index(source) + 1) % MASTERS]
        move = SlotMove(self, slot, source, target)
        with self.node(source) as old, self.node(target) as new:
            new.execute_command("CLUSTER SETSLOT", slot, "IMPORTING", move.source_id)
            old.execute_command("CLUSTER SETSLOT", slot, "MIGRATING", move.target_id)
        return move

    def stop(self) -> None:
        for process in self.processes:
            end_process(process)
        self.processes.clear()
        shutil.rmtree(self.folder, ignore_errors=True)


class SlotMove:
    """One slot on its way from ``source`` to ``target`` (ports), as resharding does it."""

    def __init__(self, cluster: LocalCluster, slot: int, source: int, target: int) -> None:
        self.cluster, self.slot, self.source, self.target = cluster, slot, source, target
        with cluster.node(source) as old, cluster.node(target) as new:
            self.source_id, self.target_id = old.cluster("MYID"), new.cluster("MYID")

    def migrate_keys(self) -> int:
        """MIGRATE every key of the slot to the target (the owner then answers ASK); how many."""
        moved = 0
        with self.cluster.node(self.source) as old:
            while keys := old.execute_command("CLUSTER GETKEYSINSLOT", self.slot, 100):
                old.execute_command(
                    "MIGRATE", "127.0.0.1", self.target, "", 0, 5000, "REPLACE", "KEYS", *keys
                )
                moved += len(keys)
        return moved

    def finish(self) -> None:
        """Give the slot to the target on every node (target, then source, then the rest)."""
        others = [port for port in self.cluster.ports if port not in (self.source, self.target)]
        for port in [self.target, self.source, *others]:
            with self.cluster.node(port) as client:
                client.execute_command("CLUSTER SETSLOT", self.slot, "NODE", self.target_id)
        self.cluster.wait_ok()


def key_slot_of(cluster: LocalCluster, key: str) -> int:
    """The slot of ``key``, as the cluster computes it."""
    with cluster.node(cluster.ports[0]) as client:
        return int(client.cluster("KEYSLOT", key))
