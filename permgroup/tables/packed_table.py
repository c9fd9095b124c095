"""The Cayley-graph distance table of :mod:`permgroup.tables.table` in two bits per
element (:mod:`permgroup.tables.packed`): a quarter of the memory and of the cache
file, the same answers.  A lookup walks the table down, one vectorized step
per level, so single lookups cost more than a byte read; :meth:`distances`
answers a whole batch in one walk.

>>> from permgroup.perm import from_cycles
>>> from permgroup.puzzle import Puzzle
>>> cyc = from_cycles([(0, 1, 2), (3, 4, 5)], 6)
>>> gear = Puzzle("gear", 6, {"G": cyc}, pieces={"tooth": ((0, 3), (1, 4), (2, 5))})
>>> t = build_packed_table(gear)
>>> t.distribution(), t.distance(cyc, tuple(range(6))), t.solve(tuple(range(6)), cyc)
([1, 2], 1, ['G'])
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from permgroup.tables.bfs import FactorSpace
from permgroup.cache import save_array
from permgroup.metric import Metric
from permgroup.tables.packed import PackedTable, inverse_closed, packed_depths
from permgroup.perm import compose, inverse
from permgroup.puzzle import Puzzle
from permgroup.progress import Progress
from permgroup.tables.table import CayleyModel


class PackedCayleyTable:
    """A model and its 2-bit table; answers like :class:`permgroup.tables.table.CayleyTable`.

    >>> from permgroup.perm import from_cycles
    >>> cyc = from_cycles([(0, 1, 2), (3, 4, 5)], 6)
    >>> gear = Puzzle("gear", 6, {"G": cyc}, pieces={"tooth": ((0, 3), (1, 4), (2, 5))})
    >>> t = build_packed_table(gear)
    >>> t.depth(cyc), t.depths([cyc, tuple(range(6))]).tolist(), t.diameter
    (1, [1, 0], 1)
    """

    def __init__(self, model: CayleyModel, table: PackedTable):
        self.model = model
        self.table = table

    def distribution(self) -> list[int]:
        return self.table.distribution()

    @property
    def diameter(self) -> int:
        return self.table.diameter

    @property
    def reachable(self) -> int:
        return self.table.reachable

    def _rank(self, element: Sequence[int]) -> int:
        return self.model.ranking.rank(self.model.normalize(element))

    def depth(self, element: Sequence[int]) -> int:
        """Moves needed for ``element``; ``-1`` if unreachable."""
        return self.table.depth(self._rank(element))

    def depths(self, elements: Sequence[Sequence[int]]) -> np.ndarray:
        """:meth:`depth` of many elements, walked down together."""
        ranks = np.array([self._rank(e) for e in elements], dtype=np.int64)
        return self.table.depths_of(ranks)

    def distance(self, p: Sequence[int], q: Sequence[int]) -> int:
        """Moves from the state of ``p`` to the state of ``q``: the depth of ``p⁻¹ q``."""
        p, q = self.model.normalize(p), self.model.normalize(q)
        return self.table.depth(self.model.ranking.rank(compose(inverse(p), q)))

    def distances(self, p_ranks: np.ndarray, q_ranks: np.ndarray) -> np.ndarray:
        """Vectorized :meth:`distance` on arrays of ranks."""
        return self.table.depths_of(self.model.ranking.quotient_ranks(p_ranks, q_ranks))

    def word(self, element: Sequence[int]) -> list[str]:
        """An optimal word (move names) whose product is in ``element``'s class."""
        return [self.model.move_names[m] for m in self.table.path(self._rank(element))]

    def solve(self, p: Sequence[int], q: Sequence[int]) -> list[str]:
        """An optimal word taking the state of ``p`` to the state of ``q``."""
        p, q = self.model.normalize(p), self.model.normalize(q)
        return self.word(compose(inverse(p), q))


def build_packed_table(puzzle: Puzzle, metric: Metric = "qtm", *,
                       progress: Progress | None = None,
                       anchor: int | None = None) -> PackedCayleyTable:
    """Build the 2-bit table by BFS from the identity (no cache)."""
    model = CayleyModel.of(puzzle, metric, anchor)
    space = FactorSpace(model.ranking.factors())
    if not inverse_closed(space):
        raise ValueError(f"{puzzle.name} ({metric}): a 2-bit table needs moves closed "
                         "under inverses")
    identity = model.ranking.rank(tuple(range(puzzle.degree)))
    return PackedCayleyTable(model, packed_depths(space, [identity], progress=progress))


def load_packed_table(puzzle: Puzzle, metric: Metric = "qtm", *,
                      progress: Progress | None = None, anchor: int | None = None,
                      cache: bool = True) -> PackedCayleyTable:
    """The 2-bit table from the cache if a valid file is there, else built and
    cached (next to the one-byte table, with its distribution in the header).

    >>> import os, tempfile
    >>> from permgroup.perm import from_cycles
    >>> cyc = from_cycles([(0, 1, 2), (3, 4, 5)], 6)
    >>> gear = Puzzle("gear", 6, {"G": cyc}, pieces={"tooth": ((0, 3), (1, 4), (2, 5))})
    >>> os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> built = load_packed_table(gear)
    >>> read = load_packed_table(gear)                 # from the file
    >>> read.distribution(), read.table.packed.tolist() == built.table.packed.tolist()
    ([1, 2], True)
    """
    model = CayleyModel.of(puzzle, metric, anchor)
    space = FactorSpace(model.ranking.factors())
    identity = model.ranking.rank(tuple(range(puzzle.degree)))
    if cache:
        loaded = model.load_cached("packed2")
        if loaded is not None:
            header, data = loaded
            packed = np.frombuffer(data, dtype=np.uint8)
            return PackedCayleyTable(model, PackedTable(space, [identity], packed,
                                                        header["levels"]))
    table = build_packed_table(puzzle, metric, progress=progress, anchor=anchor)
    if cache:
        path, key = model.cache_file("packed2")
        save_array(path, dict(key, levels=table.distribution()), table.table.packed)
    return table
