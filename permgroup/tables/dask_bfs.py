"""Level-synchronous BFS of a 2-bit table on a Dask cluster.

The rank range is cut into one shard per worker (or more); each shard's 2-bit
table (:mod:`permgroup.tables.packed`) and frontier live in its owner's memory as Dask
futures and never travel.  A level is two rounds of tasks:

1. *expand* on each owner: every move applied to its frontier, the images
   sorted and cut by owner (``rank // shard_ranks``);
2. *mark* on each owner: the pieces routed to it (Dask moves the ones made on
   other workers: that is the shuffle), unseen ranks get code ``(d + 1) mod 3``
   and become its next frontier.

The client only gathers counts and shuffle sizes, so it stays small.  This is
the owner-computes scheme of :mod:`permgroup.tables.sharded` with workers
carrying the images (:mod:`permgroup.tables.outofcore`: files).

Dask is an optional dependency (``pip install 'permgroup[distributed]'``),
imported only when a build starts.

>>> from permgroup.spaces.product import FactorSpace
>>> from permgroup.spaces.space import Factor
>>> ring = FactorSpace([Factor("cell", 12, np.array([[*range(1, 12), 0], [11, *range(11)]]))])
>>> t = dask_depths(ring, [0], workers=2, processes=False)   # doctest: +SKIP
>>> t.distribution()                                         # doctest: +SKIP
[1, 2, 2, 2, 2, 2, 1]
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from permgroup.errors import InputError
from permgroup.spaces.space import rank_dtype
from permgroup.tables import sharded
from permgroup.tables.packed import PackedTable, distinct
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


@dataclass
class DaskTable:
    """The gathered 2-bit table and the per-level figures of its build."""

    table: PackedTable
    stats: list[LevelStats] = field(default_factory=list)
    workers: int = 0

    def distribution(self) -> list[int]:
        return self.table.distribution()


def _dask():
    try:
        import dask  # noqa: F401
        from dask import distributed
    except ImportError:  # pragma: no cover - depends on the installation
        raise InputError("--dask needs Dask: pip install 'permgroup[distributed]' "
                         "(dask[distributed])") from None
    return distributed


def _expand(space, frontier: np.ndarray, bounds: np.ndarray) -> list[np.ndarray]:
    """The images of the frontier under every move, cut by owner."""
    routed = [sharded.expand(space, frontier, m, bounds) for m in range(space.n_moves)]
    return [distinct(np.concatenate([parts[o] for parts in routed]))
            for o in range(len(bounds) + 1)]


def _part(parts: list[np.ndarray], owner: int) -> np.ndarray:
    return parts[owner]


def _sizes(parts: list[np.ndarray]) -> list[int]:
    return [int(p.nbytes) for p in parts]


def _mark(table: np.ndarray, lo: int, code: int, *parts: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray]:
    """Give the unseen ranks among the parts the code; the new table and frontier."""
    table = table.copy()  # futures are immutable: the old table may still be read
    return table, sharded.mark(table, lo, code, *parts)


def _first(pair):
    return pair[0]


def _second(pair):
    return pair[1]


def _length(array) -> int:
    return len(array)


def connect(workers: int = 2, scheduler: str | None = None, processes: bool = True,
            threads_per_worker: int = 1):
    """A Dask client: on the cluster at ``scheduler`` if given, else on a new
    ``LocalCluster`` of ``workers`` workers (closed with the client)."""
    distributed = _dask()
    if scheduler:
        return distributed.Client(scheduler)
    cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=threads_per_worker,
                                       processes=processes, dashboard_address=":0")
    client = distributed.Client(cluster)
    client._permgroup_cluster = cluster  # closed by close()
    return client


def close(client) -> None:
    cluster = getattr(client, "_permgroup_cluster", None)
    client.close()
    if cluster is not None:
        cluster.close()


def dask_depths(space, sources: Sequence[int], *, client=None, workers: int = 2,
                scheduler: str | None = None, processes: bool = True,
                shards_per_worker: int = 1, progress: Progress | None = None,
                level_report: Callable[[LevelStats], None] | None = None,
                on_connect: Callable[[object], None] | None = None) -> DaskTable:
    """The 2-bit table of ``space`` from ``sources`` built on Dask workers
    (see the module docstring).  Without ``client`` one is made by
    :func:`connect` (``workers``, ``scheduler``, ``processes``) and closed after;
    ``on_connect(client)`` is called first (to show the dashboard's address).
    """
    own = client is None
    if own:
        client = connect(workers, scheduler, processes)
    if on_connect:
        on_connect(client)
    try:
        return _run(client, space, sources, shards_per_worker, progress, level_report)
    finally:
        if own:
            close(client)


def _run(client, space, sources, shards_per_worker, progress, level_report) -> DaskTable:
    addresses = sorted(client.scheduler_info()["workers"])
    if not addresses:
        raise InputError("the Dask cluster has no workers")
    size = space.size
    shard, bounds = sharded.layout(size, shards=len(addresses) * shards_per_worker)
    n_shards = len(bounds) + 1
    owner_of = [addresses[i % len(addresses)] for i in range(n_shards)]
    dtype = rank_dtype(size)
    src = np.unique(np.asarray(sources, dtype=dtype))
    [space_f] = client.scatter([space], broadcast=True)
    tables, frontiers = [], []
    for i in range(n_shards):
        lo, hi = i * shard, min(size, (i + 1) * shard)
        pair = client.submit(sharded.start, lo, hi, src, workers=[owner_of[i]], pure=False)
        tables.append(client.submit(_first, pair, workers=[owner_of[i]]))
        frontiers.append(client.submit(_second, pair, workers=[owner_of[i]]))
    levels = [len(src)]
    if progress:
        progress(0, len(src))
    stats = []
    depth, count = 0, len(src)
    while count:
        start = time.perf_counter()
        code = (depth + 1) % 3
        routed = [client.submit(_expand, space_f, frontiers[s], bounds, workers=[owner_of[s]],
                                pure=False) for s in range(n_shards)]
        sizes = [client.submit(_sizes, r, workers=[owner_of[s]]) for s, r in enumerate(routed)]
        new_tables, new_frontiers, counts = [], [], []
        for o in range(n_shards):
            parts = [client.submit(_part, routed[s], o, workers=[owner_of[s]])
                     for s in range(n_shards)]
            pair = client.submit(_mark, tables[o], o * shard, code, *parts,
                                 workers=[owner_of[o]], pure=False)
            new_tables.append(client.submit(_first, pair, workers=[owner_of[o]]))
            new_frontiers.append(client.submit(_second, pair, workers=[owner_of[o]]))
            counts.append(client.submit(_length, new_frontiers[-1], workers=[owner_of[o]]))
        counts, sizes = client.gather([counts, sizes])
        tables, frontiers = new_tables, new_frontiers
        count = int(sum(counts))
        depth += 1
        shuffled = sum(sizes[s][o] for s in range(n_shards) for o in range(n_shards)
                       if owner_of[s] != owner_of[o])
        level = LevelStats(depth, count, time.perf_counter() - start, int(shuffled))
        if count:
            levels.append(count)
            stats.append(level)
            if progress:
                progress(depth, count)
            if level_report:
                level_report(level)
    packed = np.concatenate(client.gather(tables))
    return DaskTable(PackedTable(space, src.tolist(), packed, levels), stats, len(addresses))
