"""Distance between two sets of states by growing balls from both ends.

No table: a forward ball around the sources (``step``) and a backward ball
around the targets (``back_step``) grow one level at a time, the one with the
smaller frontier first.  While the balls of radii ``f`` and ``b`` are disjoint
the distance exceeds ``f + b``; so the first level that makes them meet gives
the distance exactly.  Sets are sorted numpy arrays of ranks.

It is a second, independent way to get the answers a depth table gives, and
needs memory only for the two balls.

>>> from permgroup.holespace import _demo_space
>>> s = _demo_space()
>>> distance(s, [s.rank("xo..xo")], [s.rank("..oxxo")], max_depth=10)
1
>>> distance(s, [s.rank("xo..xo")], [s.rank("ox..ox")], max_depth=10)
-1
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def distance(space, sources: Sequence[int], targets: Sequence[int], max_depth: int) -> int:
    """Least number of moves from a source to a target; ``-1`` if more than
    ``max_depth`` (or none).  ``space`` has ``n_moves``, ``step`` and ``back_step``."""
    ahead = np.unique(np.asarray(sources, dtype=np.int64))
    behind = np.unique(np.asarray(targets, dtype=np.int64))
    if np.intersect1d(ahead, behind, assume_unique=True).size:
        return 0
    sides = [[ahead, ahead, space.step], [behind, behind, space.back_step]]
    radius = 0
    while radius < max_depth:
        grow = 0 if len(sides[0][1]) <= len(sides[1][1]) else 1
        ball, frontier, move = sides[grow]
        reached = np.unique(np.concatenate(
            [move(frontier, m) for m in range(space.n_moves)] or [np.empty(0, np.int64)]))
        reached = reached[reached >= 0]
        fresh = np.setdiff1d(reached, ball, assume_unique=True)
        if not len(fresh):
            return -1  # this side's whole component is known and misses the other
        radius += 1
        if np.isin(fresh, sides[1 - grow][0], assume_unique=True).any():
            return radius
        sides[grow][0] = np.union1d(ball, fresh)
        sides[grow][1] = fresh
    return -1
