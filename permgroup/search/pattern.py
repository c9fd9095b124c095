"""Pattern databases: distance tables of projections, lower bounds for search.

A *projection* keeps some digits of a :class:`~permgroup.spaces.digits.DigitSpace`
(one kind of piece alone, a few pieces...).  Every move acts on those digits by
itself, so the projection is a smaller puzzle whose distance to the projected
goal never exceeds the whole state's: an admissible bound.  Its table, filled
by :func:`permgroup.tables.bfs.bfs`, holds two entries per byte (:data:`CLIP`,
:data:`UNREACHED`), or with move costs (least total costs, often past ``CLIP``)
a byte per entry.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from math import prod

import numpy as np

from permgroup.spaces.product import FactorSpace
from permgroup.spaces.space import Factor, GraphSpace
from permgroup.tables.bfs import bfs, weighted_depths
from permgroup.tables.store import UNSEEN, depth_distribution
from permgroup.tables.packed import pack, read_codes, unpack
from permgroup.cache import cached_array, table_file
from permgroup.spaces.digits import DigitSpace

#: the largest depth stored; deeper entries are clipped to it (still a lower bound)
CLIP = 14
#: the stored value of a projection no move sequence reaches
UNREACHED = 15


class PatternDatabase:
    """The 4-bit distance table of the projection onto digits ``which``;
    calling it on states (columns of digits) gives their lower bounds.

    >>> from permgroup.spaces.digits import ring_space
    >>> space, t = ring_space(4)
    >>> from permgroup.perm import from_cycles
    >>> pdb = build_pattern_database(space, [0], space.of_elements([tuple(range(4))]))
    >>> pdb.name, pdb.size
    ('cell permutation', 24)
    >>> pdb(space.of_elements([t, from_cycles([(0, 2), (1, 3)], 4)])).tolist()
    [1, 2]
    """

    def __init__(self, space: DigitSpace, which: Sequence[int], packed: np.ndarray | None,
                 wide: bool = False):
        self.space = space
        self.which = list(which)
        self.size = prod(space.sizes[i] for i in self.which)
        self.packed = packed
        #: a byte per entry (``UNSEEN`` unreached), not two
        self.wide = wide

    def __call__(self, states: np.ndarray) -> np.ndarray:
        index = self.space.project(states, self.which)
        return self.packed[index] if self.wide else read_codes(self.packed, index, 4)

    @cached_property
    def depths(self) -> np.ndarray:
        """Every entry as a byte, ``UNSEEN`` (255) where the moves never reach."""
        if self.wide:
            return self.packed
        depths = unpack(self.packed, 4)[:self.size]
        depths[depths == UNREACHED] = UNSEEN
        return depths

    def distribution(self) -> list[int]:
        """Number of projected states at each stored depth (0 to the largest)."""
        return depth_distribution(self.depths)

    @property
    def name(self) -> str:
        return " + ".join(self.space.factors[i].name for i in self.which)


def weighted(costs: Sequence[int] | None) -> bool:
    """Whether ``costs`` (one per move, or ``None``) make some move cost other than one.

    >>> weighted(None), weighted([1, 1]), weighted([1, 2])
    (False, False, True)
    """
    return costs is not None and any(int(c) != 1 for c in costs)


def build_pattern_database(space: DigitSpace, which: Sequence[int], goals: np.ndarray,
                           progress: Callable[[int, int], None] | None = None,
                           costs: Sequence[int] | None = None,
                           moves: Sequence[int] | None = None) -> PatternDatabase:
    """BFS over the projection from the projected goals (columns of digits);
    over the moves ``moves`` only (indices) when given, such as without moves
    that add nothing to least costs (a half turn costing as much as the two
    quarter turns making it); with ``costs`` (one per move searched), least total
    costs instead of move counts (:func:`~permgroup.tables.bfs.weighted_depths`).

    >>> from permgroup.spaces.digits import ring_space
    >>> space, t = ring_space(4)
    >>> from permgroup.perm import from_cycles
    >>> half = from_cycles([(0, 2), (1, 3)], 4)
    >>> pdb = build_pattern_database(space, [0], space.of_elements([tuple(range(4)), half]))
    >>> pdb.distribution()  # two goals: every rotation is within one move
    [2, 2]
    >>> int((read_codes(pdb.packed, np.arange(pdb.size), 4) == UNREACHED).sum())
    20
    >>> build_pattern_database(space, [0], space.of_elements([tuple(range(4))]),
    ...                        costs=[2, 2]).distribution()  # each turn costs 2
    [1, 0, 2, 0, 1]
    """
    factors = [space.factors[i] for i in which]
    if moves is not None:
        factors = [Factor(f.name, f.size, f.table[list(moves)]) for f in factors]
    projection = FactorSpace(factors)
    # its steps alone (no dense steps): those cost more time and twice the memory here
    graph = GraphSpace(projection.size, projection.n_moves, projection.step,
                       projection.back_step)
    sources = np.unique(space.project(goals, which))
    if weighted(costs):
        return PatternDatabase(space, which, weighted_depths(graph, sources, costs, progress),
                               wide=True)
    depths = bfs(graph, sources, progress=progress).depths
    unreached = depths == UNSEEN
    np.minimum(depths, CLIP, out=depths)
    depths[unreached] = UNREACHED
    return PatternDatabase(space, which, pack(depths, 4))


def load_pattern_database(space: DigitSpace, which: Sequence[int], goals: np.ndarray,
                          key: dict, name: str,
                          progress: Callable[[int, int], None] | None = None,
                          cache: bool = True, costs: Sequence[int] | None = None,
                          build: bool = True, moves: Sequence[int] | None = None
                          ) -> PatternDatabase | None:
    """The pattern database from the cache when its file checks out, else built
    and cached (``None`` instead with ``build=False``).  ``key`` identifies the
    puzzle, metric and goal; ``costs`` and ``moves`` as in
    :func:`build_pattern_database`.

    >>> import os, tempfile
    >>> from permgroup.spaces.digits import ring_space
    >>> space, t = ring_space(4)
    >>> os.environ["PERMGROUP_CACHE"] = folder = tempfile.mkdtemp()
    >>> goal = space.of_elements([tuple(range(4))])
    >>> built = load_pattern_database(space, [0], goal, {"puzzle": "square"}, "square")
    >>> [name.split("-")[:2] for name in os.listdir(folder)]
    [['square', 'pattern']]
    >>> read = load_pattern_database(space, [0], goal, {"puzzle": "square"}, "square")
    >>> read.distribution(), read.packed.tolist() == built.packed.tolist()
    ([1, 2, 1], True)
    """
    used = costs if costs is None or moves is None else [costs[int(m)] for m in moves]
    pdb = PatternDatabase(space, which, None, weighted(used))
    key = dict(key, kind="pattern database", digits=[space.factors[i].name for i in pdb.which],
               sizes=[space.sizes[i] for i in pdb.which])
    if moves is not None:
        key["moves"] = [int(m) for m in moves]
    if weighted(costs):
        key["costs"] = [int(c) for c in costs]
    _, pdb.packed = cached_array(
        table_file(f"{name}-pattern", key, "bytes" if pdb.wide else "nibbles"), key,
        pdb.size if pdb.wide else (pdb.size + 1) // 2,
        (lambda report: build_pattern_database(space, pdb.which, goals, report, used, moves)
         .packed) if build else None,
        title=f"{name}: pattern database of {pdb.name}", size=pdb.size, progress=progress,
        cache=cache)
    return None if pdb.packed is None else pdb
