"""Many sparse effects scored against one state, kept up to date as the state changes.

An effect moves the positions ``pos[i]`` taking stickers from ``src[i]`` (rows
padded with the degree, a position that stays put).  Its *gain* on a state is
how many more positions match the goal after it.  :class:`GainCache` scores
every row once, then after each change of the state rescores only the rows
touching a position that changed: on a big puzzle a step changes a few hundred
of its thousands of positions.

>>> import numpy as np
>>> pos = np.array([[0, 1, 3], [1, 2, 3]]); src = np.array([[1, 0, 3], [2, 1, 3]])
>>> cache = GainCache(pos, src, 3)
>>> goal = np.array([0, 1, 2])
>>> cache.gains(np.array([1, 0, 2]), goal).tolist()
[2, -1]
>>> cache.gains(np.array([0, 1, 2]), goal).tolist()
[-2, -2]
"""
from __future__ import annotations

import copy

import numpy as np


def gains_of(pos: np.ndarray, src: np.ndarray, state: np.ndarray, goal: np.ndarray
             ) -> np.ndarray:
    """Each row's gain (see the module docstring), all rows at once."""
    s = np.append(state, -1)
    g = np.append(goal, -2)
    want = g[pos]
    return (s[src] == want).sum(1, dtype=np.int64) - (s[pos] == want).sum(1, dtype=np.int64)


def _column_gains(pos_t: np.ndarray, src_t: np.ndarray, state: np.ndarray, goal: np.ndarray
                  ) -> np.ndarray:
    """:func:`gains_of` of the rows given by column (``pos.T``, ``src.T``, each
    contiguous): a column at a time over the smallest integers that hold the
    labels and the gains, into buffers made once (on Santa's cube_19/19/19's
    251,028 pairs about 11 ms against 25 for int16 arrays made each column;
    the gathers of whole rows took twice that)."""
    s, g = np.append(state, -1), np.append(goal, -2)
    low, high = min(s.min(), g.min()), max(s.max(), g.max())
    for small in (np.int8, np.int16):
        if low >= np.iinfo(small).min and high <= np.iinfo(small).max:
            s, g = s.astype(small), g.astype(small)
            break
    right = (s == g).view(np.int8)
    n = pos_t.shape[1]
    # a row's gain lies within plus or minus its width
    out = np.zeros(n, dtype=np.int8 if len(pos_t) < 2 ** 7 else
                   np.int16 if len(pos_t) < 2 ** 15 else np.int64)
    taken, wanted, was = np.empty(n, dtype=s.dtype), np.empty(n, dtype=g.dtype), \
        np.empty(n, dtype=np.int8)
    same = np.empty(n, dtype=bool)
    for p, q in zip(pos_t, src_t):
        np.take(s, q, out=taken)
        np.take(g, p, out=wanted)
        np.equal(taken, wanted, out=same)
        out += same.view(np.int8)
        np.take(right, p, out=was)
        out -= was
    return out.astype(np.int64)


class GainCache:
    """The gains of fixed rows of effects, rescored where the state changed."""

    def __init__(self, pos: np.ndarray, src: np.ndarray, degree: int):
        self.pos, self.src, self.degree = pos, src, degree
        # by column too, for scoring every row at once
        self._pos_t, self._src_t = np.ascontiguousarray(pos.T), np.ascontiguousarray(src.T)
        flat = pos.ravel()
        rows = np.repeat(np.arange(len(pos)), pos.shape[1] if pos.ndim == 2 else 0)
        keep = flat < degree
        flat, rows = flat[keep], rows[keep]
        order = np.argsort(flat, kind="stable")
        self.rows = rows[order]
        self.bounds = np.searchsorted(flat[order], np.arange(degree + 1))
        self.state: np.ndarray | None = None
        self.goal: np.ndarray | None = None
        self.values = np.zeros(len(pos), dtype=np.int64)

    def fork(self) -> "GainCache":
        """A cache of the same rows (sharing their index) for another state."""
        other = copy.copy(self)
        other.state = other.goal = None
        other.values = np.zeros(len(self.pos), dtype=np.int64)
        return other

    def touching(self, positions: np.ndarray) -> np.ndarray:
        """The rows moving any of ``positions``, each once, in order."""
        positions = np.asarray(positions, dtype=np.int64)
        lo, hi = self.bounds[positions], self.bounds[positions + 1]
        count = hi - lo
        # each position's run of rows, end to end
        index = np.repeat(lo - np.cumsum(count) + count, count) + np.arange(int(count.sum()))
        # the repeats dropped by a mask: cheaper than sorting them away
        mark = np.zeros(len(self.pos), dtype=bool)
        mark[self.rows[index]] = True
        return np.flatnonzero(mark)

    def gains(self, state: np.ndarray, goal: np.ndarray) -> np.ndarray:
        """Every row's gain on ``state`` (the array returned is the cache's own)."""
        if self.state is None or self.goal is None or len(self.state) != len(state):
            self.values = _column_gains(self._pos_t, self._src_t, state, goal)
        else:
            # a row moves the stickers of its own positions only: it is rescored
            # when the state or the goal changed at one of them
            changed = np.flatnonzero((state != self.state) | (goal != self.goal))
            if len(changed) > self.degree // 4:
                self.values = _column_gains(self._pos_t, self._src_t, state, goal)
            elif len(changed):
                rows = self.touching(changed)
                # by column too (on a 19x19x19's pairs, a tenth of them rescored
                # took 10 ms by whole rows, 3 by column), all of them from half on
                if 2 * len(rows) > len(self.pos):
                    self.values = _column_gains(self._pos_t, self._src_t, state, goal)
                else:
                    self.values[rows] = _column_gains(self._pos_t.take(rows, axis=1),
                                                      self._src_t.take(rows, axis=1),
                                                      state, goal)
        self.state, self.goal = state.copy(), goal.copy()
        return self.values
