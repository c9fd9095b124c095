"""The owner-computes scheme of a 2-bit BFS over shards of ranks, whatever
carries the images between owners: files (:mod:`permgroup.tables.outofcore`)
or Dask workers (:mod:`permgroup.tables.dask_bfs`).

One driver (:func:`run`) runs the levels over a transport: its ``start()``
gives the levels already complete (more than one for a resumed build), its
``level(depth)`` expands the last level, marks the next and says its size.
The ranks are cut into shards of ``shard_ranks`` consecutive ranks (a
multiple of 4: a shard's 2-bit table ends on a whole byte), each owned by one
writer.  A level is two phases:

1. *expand* (:func:`expand`): a piece of an owner's frontier moved by each
   move, the images cut by the shard that owns them (``rank // shard_ranks``);
2. *mark* (:func:`mark`): each owner gives the images routed to it that it
   has not seen the code ``(d + 1) mod 3``, its part of the next frontier.

>>> from permgroup.spaces.product import FactorSpace
>>> from permgroup.spaces.space import Factor
>>> ring = FactorSpace([Factor("cell", 8, np.array([[*range(1, 8), 0], [7, *range(7)]]))])
>>> shard, bounds = layout(8, shard_ranks=4)
>>> tables = [start(lo, lo + shard, np.array([0]))[0] for lo in (0, 4)]
>>> routed = expand(ring, np.array([0]), range(2), bounds)
>>> [mark(tables[o], 4 * o, 1, routed[o]).tolist() for o in (0, 1)]
[[1], [7]]
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from permgroup.tables.packed import distinct, empty_packed, read_codes, write_codes
from permgroup.tables.store import UNSEEN_CODE


def layout(size: int, shards: int | None = None, shard_ranks: int | None = None
           ) -> tuple[int, np.ndarray]:
    """Ranks per shard (``shard_ranks``, or enough for ``shards`` shards,
    rounded up to a multiple of 4) and the first rank of every shard but the
    first.

    >>> shard, bounds = layout(10, shards=2); shard, bounds.tolist()
    (8, [8])
    """
    shard = shard_ranks or -(-size // shards)
    shard += (-shard) % 4
    return shard, np.arange(1, -(-size // shard), dtype=np.int64) * shard


def start(lo: int, hi: int, sources: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 2-bit table of ranks ``lo..hi-1`` with its sources at depth 0, and
    those sources (its first frontier)."""
    table = empty_packed(hi - lo)
    mine = sources[(sources >= lo) & (sources < hi)]
    write_codes(table, mine - mine.dtype.type(lo), 0)
    return table, mine


def expand(space, ranks: np.ndarray, moves: Iterable[int], bounds: np.ndarray
           ) -> list[np.ndarray]:
    """The distinct images of ``ranks`` under ``moves`` (illegal moves left
    out), sorted and cut by owner."""
    images = np.concatenate([np.asarray(space.step(ranks, m)) for m in moves])
    if len(images) and images.min() < 0:
        images = images[images >= 0]
    images = distinct(images.astype(ranks.dtype, copy=False), overwrite=True)
    return np.split(images, np.searchsorted(images, bounds))


def mark(table: np.ndarray, lo: int, code: int, *parts: np.ndarray) -> np.ndarray:
    """Give the ranks among ``parts`` that the owner of ranks ``lo...`` has
    not seen (``table`` its 2-bit shard, written in place) the ``code``; those
    ranks, sorted within each part."""
    fresh = []
    for part in parts:
        local = distinct(part - part.dtype.type(lo))
        local = local[read_codes(table, local) == UNSEEN_CODE]
        write_codes(table, local, code)
        fresh.append(local + local.dtype.type(lo))
    return np.concatenate(fresh) if fresh else np.zeros(0, dtype=np.int64)


def run(transport, progress=None) -> list[int]:
    """The states at each depth of a BFS level by level over ``transport``
    (see the module docstring), ``progress(depth, count)`` after each level.

    >>> class Counting:      # a transport of three levels of sizes 1, 2, 1
    ...     def start(self): return [1]
    ...     def level(self, depth): return [2, 1, 0][depth]
    >>> run(Counting())
    [1, 2, 1]
    """
    levels = list(transport.start())
    if progress:
        for depth, count in enumerate(levels):
            progress(depth, count)
    while count := transport.level(len(levels) - 1):
        levels.append(count)
        if progress:
            progress(len(levels) - 1, count)
    return levels
