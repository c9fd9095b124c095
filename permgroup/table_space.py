"""The ranked space and sources behind a puzzle's table, for the tighter,
out-of-core and distributed builders (:mod:`permgroup.packed`,
:mod:`permgroup.outofcore`, :mod:`permgroup.dask_bfs`).

* a puzzle without pieces whose solved colouring repeats colours is a space
  of colourings (:mod:`permgroup.multiset`) with the solved colouring as its
  source;
* otherwise the Cayley table's space: normalized elements ranked by the model
  of :func:`permgroup.explore.model`, from the identity.

>>> from permgroup.puzzle import Puzzle
>>> necklace = Puzzle("necklace", 6, {"turn": (1, 2, 3, 4, 5, 0)}, solved="aaabbb")
>>> space, sources, key = table_space(necklace)
>>> space.size, len(sources), key["kind"]
(20, 1, 'colourings')
"""
from __future__ import annotations

from permgroup.metric import Metric, metric_label
from permgroup.puzzle import Puzzle


def table_space(puzzle: Puzzle, metric: Metric = "qtm") -> tuple[object, list[int], dict]:
    """``(space, sources, key)``: the space has ``size``, ``n_moves``, ``step``,
    ``back_step``; ``key`` identifies the table (for build folders and caches).

    >>> from permgroup.perm import from_cycles
    >>> cyc = from_cycles([(0, 1, 2), (3, 4, 5)], 6)
    >>> gear = Puzzle("gear", 6, {"G": cyc}, pieces={"tooth": ((0, 3), (1, 4), (2, 5))})
    >>> space, sources, key = table_space(gear)
    >>> space.size, space.n_moves, key["kind"]
    (24, 2, 'elements')
    """
    import numpy as np

    key = {"puzzle": puzzle.fingerprint(), "metric": metric_label(metric)}
    if not puzzle.pieces and puzzle.solved and len(set(puzzle.solved)) < puzzle.degree:
        from permgroup.colouring_table import colouring_space

        space = colouring_space(puzzle, metric)
        sources = space.rank(np.array([space.solved], dtype=space.dtype)).tolist()
        return space, [int(s) for s in sources], dict(key, kind="colourings")
    from permgroup.bfs import FactorSpace
    from permgroup.explore import model

    m = model(puzzle, metric)
    space = FactorSpace(m.ranking.factors())
    identity = m.ranking.rank(tuple(range(puzzle.degree)))
    return space, [identity], dict(key, kind="elements", anchor=m.normalizer.anchor)
