"""Level-synchronous BFS of a 2-bit table on a Dask cluster.

The owner-computes scheme of :mod:`permgroup.tables.sharded` over Dask
workers: each shard's 2-bit table and frontier live in its owner's memory as
futures and never travel; a level is a round of *expand* tasks and a round of
*mark* tasks, Dask moving each image piece to its owner (the shuffle).  The
client only gathers counts and shuffle sizes, so it stays small.

Dask is an optional dependency (``pip install 'permgroup[distributed]'``),
imported only when a build starts.

>>> from permgroup.spaces.product import FactorSpace
>>> from permgroup.spaces.space import Factor
>>> ring = FactorSpace([Factor("cell", 12, np.array([[*range(1, 12), 0], [11, *range(11)]]))])
>>> t = dask_depths(ring, [0], workers=2)                    # doctest: +SKIP
>>> t.distribution()                                         # doctest: +SKIP
[1, 2, 2, 2, 2, 2, 1]
"""
from __future__ import annotations

import os
import time
import warnings
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from operator import getitem, itemgetter
from typing import IO

import numpy as np

from permgroup.errors import InputError, counted
from permgroup.spaces.space import rank_dtype
from permgroup.tables import sharded
from permgroup.tables.packed import PackedTable
from permgroup.progress import Progress


@dataclass
class LevelStats:
    """What one level cost: its depth, new states, wall time, bytes of images
    sent from one worker to another.

    >>> LevelStats(3, 120, 0.5, 4096).shuffled
    4096
    """

    depth: int
    count: int
    seconds: float
    shuffled: int


def _mark(table: np.ndarray, lo: int, code: int, *parts: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """:func:`sharded.mark` on a copy (futures are immutable: the old table may
    still be read); the new ranks' count and the bytes of each part received
    go back to the client."""
    table = table.copy()
    fresh = sharded.mark(table, lo, code, *parts)
    return table, fresh, [len(fresh), *(int(p.nbytes) for p in parts)]


#: seconds given to reaching a Dask scheduler before giving up
CONNECT_SECONDS = 5


def connect(workers: int = 2, scheduler: str | None = None, processes: bool = True):
    """A Dask client: on the cluster at ``scheduler`` if given (reached within
    :data:`CONNECT_SECONDS`), else on a new local cluster of ``workers``
    one-thread workers, at most one a core (more only cost memory: a warning
    says so), which the client closes with itself."""
    cores = os.cpu_count() or 1
    if not scheduler and workers > cores:
        warnings.warn(f"--workers {workers}: this machine has {counted(cores, 'core')}; "
                      f"using {cores}")
        workers = cores
    try:
        from dask import distributed
    except ImportError:  # pragma: no cover - depends on the installation
        raise InputError("--dask needs Dask: pip install 'permgroup[distributed]' "
                         "(dask[distributed])") from None
    if scheduler:
        try:
            return distributed.Client(scheduler, timeout=CONNECT_SECONDS)
        except (OSError, ValueError, TypeError) as exc:  # a timeout is an OSError
            reason = (f"no answer within {CONNECT_SECONDS} s" if isinstance(exc, OSError)
                      else str(exc))
            raise InputError(f"cannot reach the Dask scheduler at {scheduler} ({reason})"
                             ) from None
    return distributed.Client(n_workers=workers, threads_per_worker=1, processes=processes,
                              dashboard_address=":0")


def dask_depths(space, sources: Sequence[int], *, client=None, workers: int = 2,
                scheduler: str | None = None, shards_per_worker: int = 1,
                progress: Progress | None = None,
                level_report: Callable[[LevelStats], None] | None = None,
                stream: IO | None = None) -> PackedTable:
    """The 2-bit table of ``space`` from ``sources`` built on Dask workers
    (see the module docstring).  Without ``client`` one is made by
    :func:`connect` (``workers``, ``scheduler``) and closed after.
    ``level_report`` is called after each level; ``stream`` gets a line
    naming the workers and the dashboard, then a line per level.
    """
    with connect(workers, scheduler) if client is None else nullcontext(client) as client:
        addresses = sorted(client.scheduler_info()["workers"])
        if not addresses:
            raise InputError("the Dask cluster has no workers")
        if stream:
            print(f"  dask: {len(addresses)} workers, dashboard {client.dashboard_link}",
                  file=stream, flush=True)
        owners = _WorkerTransport(client, space, sources, addresses, shards_per_worker,
                                  level_report, stream)
        levels = sharded.run(owners, progress)
        packed = np.concatenate(client.gather(owners.tables))
        return PackedTable(space, owners.sources.tolist(), packed, levels)


class _WorkerTransport:
    """Each shard's table and frontier held as futures by its owner."""

    def __init__(self, client, space, sources, addresses, shards_per_worker, level_report, stream):
        self.client, self.space = client, space
        self.level_report, self.stream = level_report, stream
        self.shard, self.bounds = sharded.layout(space.size,
                                                 shards=len(addresses) * shards_per_worker)
        self.n_shards = len(self.bounds) + 1
        self.owner_of = [addresses[i % len(addresses)] for i in range(self.n_shards)]
        self.sources = np.unique(np.asarray(sources, dtype=rank_dtype(space.size)))

    def _on(self, owner: int, *task, pure: bool = True):
        return self.client.submit(*task, workers=[self.owner_of[owner]], pure=pure)

    def start(self) -> list[int]:
        [self.space_f] = self.client.scatter([self.space], broadcast=True)
        self.tables, self.frontiers = [], []
        for i in range(self.n_shards):
            lo, hi = i * self.shard, min(self.space.size, (i + 1) * self.shard)
            pair = self._on(i, sharded.start, lo, hi, self.sources, pure=False)
            self.tables.append(self._on(i, itemgetter(0), pair))
            self.frontiers.append(self._on(i, itemgetter(1), pair))
        return [len(self.sources)]

    def level(self, depth: int) -> int:
        start, n = time.perf_counter(), self.n_shards
        routed = [self._on(s, sharded.expand, self.space_f, self.frontiers[s],
                           range(self.space.n_moves), self.bounds, pure=False) for s in range(n)]
        tables, frontiers, sizes = [], [], []
        for o in range(n):
            parts = [self._on(s, getitem, routed[s], o) for s in range(n)]
            marked = self._on(o, _mark, self.tables[o], o * self.shard, (depth + 1) % 3, *parts,
                              pure=False)
            tables.append(self._on(o, itemgetter(0), marked))
            frontiers.append(self._on(o, itemgetter(1), marked))
            sizes.append(self._on(o, itemgetter(2), marked))
        sizes = self.client.gather(sizes)
        self.tables, self.frontiers = tables, frontiers
        count = sum(size[0] for size in sizes)
        shuffled = sum(sizes[o][1 + s] for s in range(n) for o in range(n)
                       if self.owner_of[s] != self.owner_of[o])
        stats = LevelStats(depth + 1, count, time.perf_counter() - start, shuffled)
        if count and self.stream:
            print(f"  level {stats.depth:2d}: {stats.seconds:7.2f} s, "
                  f"{stats.shuffled:>14,} bytes shuffled", file=self.stream, flush=True)
        if count and self.level_report:
            self.level_report(stats)
        return count
