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
    import numpy as np

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
    """What every depth table answers from its ``depths`` array alone.

    >>> import numpy as np
    >>> t = DepthTable()
    >>> t.depths = np.array([0, 1, 2, UNSEEN, 1], dtype=np.uint8)
    >>> t.distribution(), t.diameter, t.reachable
    ([1, 2, 1], 2, 4)
    """

    depths: np.ndarray

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
