"""Depth stores: what every depth table keeps per state, the constants they
share, and :class:`DepthTable`, what every table answers.

* one byte a state: the depth, :data:`UNSEEN` where not reached;
* four bits a state (:data:`NIBBLE_UNSEEN` unreached), for diameters up to 14;
* two bits a state: the depth mod 3, :data:`UNSEEN_CODE` unreached
  (:mod:`permgroup.tables.packed`).

numpy is imported by the functions that use it: a process that reads one
entry of a cached table never loads it.

>>> import numpy as np
>>> depth_distribution(np.array([0, 1, 1, UNSEEN, 2], dtype=np.uint8)), UNSEEN
([1, 2, 1], 255)
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence

    import numpy as np

    from permgroup.spaces.space import StateSpace

#: a one-byte table's entry for a state not reached
UNSEEN = 255
#: a 4-bit table's entry for a state not reached (depths 0..14 fit beside it)
NIBBLE_UNSEEN = 15
#: a 2-bit table's code for a state not reached (codes 0..2 are depths mod 3)
UNSEEN_CODE = 3
#: threads sharing the blocks of a level (numpy releases the GIL in its loops)
THREADS = min(2, os.cpu_count() or 1)
#: ranks counted per ``bincount`` call (it widens its input to 64 bits)
COUNT_BLOCK = 1 << 22


def depth_distribution(depths: np.ndarray) -> list[int]:
    """Number of states at each depth of a one-byte table, from 0 to the deepest.

    >>> import numpy as np
    >>> depth_distribution(np.array([3, UNSEEN, 0], dtype=np.uint8))
    [1, 0, 0, 1]
    """
    import numpy as np

    counts = np.zeros(256, dtype=np.int64)
    for lo in range(0, len(depths), COUNT_BLOCK):
        counts += np.bincount(depths[lo:lo + COUNT_BLOCK], minlength=256)
    counts = counts[:UNSEEN]
    return counts[: int(np.flatnonzero(counts).max()) + 1].tolist()


class DepthTable:
    """BFS depths of every rank of ``space`` from ``sources`` (``UNSEEN`` where
    not reached), and what every depth table answers from them.

    >>> import numpy as np
    >>> from permgroup.spaces.hole import _demo_space
    >>> space = _demo_space()
    >>> depths = np.full(space.size, UNSEEN, dtype=np.uint8)
    >>> depths[[4, 1, 10]] = [0, 1, 1]   # the BFS result from rank 4, by hand
    >>> t = DepthTable(space, [4], depths)
    >>> t.depth(10), t.depth(0), [space.move_names[m] for m in t.path(10)]
    (1, -1, ['21'])
    >>> t.distribution(), t.diameter, t.reachable
    ([1, 2], 1, 3)
    """

    def __init__(self, space: StateSpace, sources: Sequence[int], depths: np.ndarray):
        self.space = space
        self.sources = sorted(int(s) for s in sources)
        self.depths = depths

    def depth(self, rank: int) -> int:
        """The depth of one rank, ``-1`` if unreachable."""
        d = int(self.depths[rank])
        return -1 if d == UNSEEN else d

    def distribution(self) -> list[int]:
        """Number of states at each depth, from 0 to the deepest."""
        return depth_distribution(self.depths)

    @property
    def diameter(self) -> int:
        """The largest depth (God's number, for a table of a group)."""
        return len(self.distribution()) - 1

    @property
    def reachable(self) -> int:
        """How many states were reached."""
        return sum(self.distribution())

    def path(self, rank: int) -> list[int]:
        """Move indices of a shortest path from a source to ``rank`` (walked back
        with the space's ``back_step``)."""
        import numpy as np

        from permgroup.tables.walk import descend

        if self.depths[rank] == UNSEEN:
            raise ValueError(f"rank {rank} is not reachable from the sources")
        back = descend(np.array([rank], dtype=np.int64), self.space.n_moves,
                       self.space.back_step, lambda ranks: self.depths[ranks])[0]
        return back[::-1]
