"""Breadth-first search over ranked states, level by level, in numpy.

The state graph is given by ``step(ranks, m)``: the ranks reached from
``ranks`` by move ``m`` (``-1`` where the move is not legal, for puzzles whose
moves depend on the state).  ``back_step(ranks, m)`` answers the reverse
question, the states that move ``m`` takes *to* ``ranks``; with it, the search
switches to bottom-up steps once the frontier is large (scan the unvisited
states and ask whether a predecessor is on the last level), which saves most
of the work near the end.

Depths live in a dense ``uint8`` array indexed by rank; ``UNSEEN`` (255) marks
states not reached.

>>> ring = FactorSpace([Factor("cell", 6, np.array([[1, 2, 3, 4, 5, 0]]))])
>>> bfs_depths(ring.size, [0], ring.n_moves, ring.step).tolist()
[0, 1, 2, 3, 4, 5]
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from permgroup.coordinates import Factor

UNSEEN = 255
Step = Callable[[np.ndarray, int], np.ndarray]
Progress = Callable[[int, int], None]


class FactorSpace:
    """The product of mixed-radix factors, each with its own move table.

    The rank is ``sum(digit_i * stride_i)`` with the last factor varying
    fastest; a move acts on each digit through that factor's table.
    """

    def __init__(self, factors: Sequence[Factor]):
        self.factors = list(factors)
        self.n_moves = self.factors[0].table.shape[0]
        self.sizes = [f.size for f in self.factors]
        strides = []
        stride = 1
        for size in reversed(self.sizes):
            strides.append(stride)
            stride *= size
        self.strides = list(reversed(strides))
        self.size = stride
        dtype = np.int32 if self.size < 2**31 else np.int64
        self.dtype = dtype
        self.tables = [f.table.astype(dtype) for f in self.factors]
        self._inverse_tables: list[np.ndarray] | None = None

    def digits(self, ranks: np.ndarray) -> list[np.ndarray]:
        out = []
        rest = ranks
        for stride in self.strides[:-1]:
            digit, rest = np.divmod(rest, stride)
            out.append(digit)
        out.append(rest)
        return out

    def _apply(self, tables: list[np.ndarray], ranks: np.ndarray, m: int) -> np.ndarray:
        ranks = np.asarray(ranks, dtype=self.dtype)
        if len(self.factors) == 1:
            return tables[0][m][ranks]
        digits = self.digits(ranks)
        result = tables[-1][m][digits[-1]]
        for table, digit, stride in zip(tables[:-1], digits[:-1], self.strides[:-1]):
            result += table[m][digit] * self.dtype(stride)
        return result

    def step(self, ranks: np.ndarray, m: int) -> np.ndarray:
        """Ranks after move ``m``."""
        return self._apply(self.tables, ranks, m)

    def back_step(self, ranks: np.ndarray, m: int) -> np.ndarray:
        """Ranks from which move ``m`` leads to ``ranks``."""
        if self._inverse_tables is None:
            self._inverse_tables = [_inverse_rows(t) for t in self.tables]
        return self._apply(self._inverse_tables, ranks, m)


def _inverse_rows(table: np.ndarray) -> np.ndarray:
    inverse = np.empty_like(table)
    columns = np.arange(table.shape[1], dtype=table.dtype)
    for m in range(table.shape[0]):
        inverse[m][table[m]] = columns
    return inverse


def bfs_depths(size: int, sources: Sequence[int] | np.ndarray, n_moves: int, step: Step,
               back_step: Step | None = None, progress: Progress | None = None,
               max_depth: int = UNSEEN - 1) -> np.ndarray:
    """Depth of every rank from the sources; ``UNSEEN`` where unreachable.

    ``progress(depth, count)`` is called after each level.
    """
    depths = np.full(size, UNSEEN, dtype=np.uint8)
    frontier = np.unique(np.asarray(sources, dtype=np.int64))
    depths[frontier] = 0
    seen = len(frontier)
    if progress:
        progress(0, len(frontier))
    depth = 0
    while len(frontier) and depth < max_depth:
        unseen = size - seen
        if back_step is not None and len(frontier) * n_moves > unseen:
            count = _bottom_up(depths, depth, n_moves, back_step)
        else:
            count = _top_down(depths, frontier, depth, n_moves, step)
        depth += 1
        seen += count
        if progress:
            progress(depth, count)
        if count == 0:
            break
        frontier = np.flatnonzero(depths == depth)
    return depths


def _top_down(depths: np.ndarray, frontier: np.ndarray, depth: int, n_moves: int,
              step: Step) -> int:
    count = 0
    for m in range(n_moves):
        nxt = step(frontier, m)
        nxt = nxt[nxt >= 0]
        fresh = nxt[depths[nxt] == UNSEEN]
        if len(fresh):
            depths[fresh] = depth + 1
    count = int(np.count_nonzero(depths == depth + 1))
    return count


def _bottom_up(depths: np.ndarray, depth: int, n_moves: int, back_step: Step) -> int:
    candidates = np.flatnonzero(depths == UNSEEN)
    found = 0
    for m in range(n_moves):
        if not len(candidates):
            break
        prev = back_step(candidates, m)
        hit = prev >= 0
        hit[hit] = depths[prev[hit]] == depth
        reached = candidates[hit]
        depths[reached] = depth + 1
        found += len(reached)
        candidates = candidates[~hit]
    return found
