"""One batched walker from states of a depth table down to its sources.

Some move leads from a state to one a level lower, and so on down to a
source: :func:`descend` takes every state one level down per round, each by
the first move that lowers it, one array operation per move.  A level is
what the store keeps: the depth itself (one byte, four bits, a ball's
depths), or the depth mod 3 of a 2-bit table, whose walk ends at a source.

>>> import numpy as np
>>> depths = np.array([0, 1, 2, 1])                            # a 4-cycle from state 0
>>> back = lambda r, m: (r - 1) % 4 if m == 0 else (r + 1) % 4  # predecessors
>>> descend(np.array([2, 3, 0]), 2, back, lambda r: depths[r])
[[0, 0], [1], []]
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np


def descend(states: np.ndarray, n_moves: int, move: Callable[[np.ndarray, int], np.ndarray],
            level: Callable[[np.ndarray], np.ndarray],
            lower: Callable[[np.ndarray], np.ndarray] | None = None,
            arrived: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
            lengths: bool = False) -> list[list[int]] | np.ndarray:
    """For each state (an array of ranks, or the columns of a ``(k, N)`` array of
    digits), the moves (indices, in the order taken) that ``move`` takes from it
    down to a source.

    ``level(states)`` reads the states' levels; the one wanted below a level
    is ``lower(level)`` (``level - 1`` by default: exact depths); a state has
    ``arrived`` when ``arrived(states, levels)`` says so (level 0 by default).
    ``move(states, m)`` is ``-1`` where ``m`` is not legal (ranks only).
    Every state must lie in the table; a state with no way down is an error.
    With ``lengths``, only how many moves each path has (the exact depths).

    >>> codes = np.array([0, 1, 2, 1])                  # the same cycle, depths mod 3
    >>> back = lambda r, m: (r - 1) % 4 if m == 0 else (r + 1) % 4
    >>> descend(np.array([2]), 2, back, lambda r: codes[r], lambda c: (c + 2) % 3,
    ...         lambda r, c: r == 0, lengths=True).tolist()
    [2]
    """
    here = np.array(states, copy=True)
    at = level(here).astype(np.int64)
    paths: list[list[int]] = [[] for _ in range(here.shape[-1])]
    steps = np.zeros(here.shape[-1], dtype=np.int64)
    done = (at == 0) if arrived is None else arrived(here, at)
    active = np.flatnonzero(~done)
    while len(active):
        want = at[active] - 1 if lower is None else lower(at[active])
        chosen = np.full(len(active), -1, dtype=np.int64)
        for m in range(n_moves):
            todo = np.flatnonzero(chosen < 0)
            if not len(todo):
                break
            before = move(here[..., active[todo]], m)
            ok = np.ones(len(todo), dtype=bool) if before.ndim > 1 else before >= 0
            ok[ok] = level(before[..., ok]) == want[todo[ok]]
            chosen[todo[ok]] = m
            here[..., active[todo[ok]]] = before[..., ok]
        if (chosen < 0).any():  # pragma: no cover - a consistent table always has a way down
            raise RuntimeError("depth table is inconsistent (no move leads a level down)")
        steps[active] += 1
        if not lengths:
            for i, m in zip(active.tolist(), chosen.tolist()):
                paths[i].append(m)
        at[active] = want
        active = active[~(arrived(here[..., active], want) if arrived else want == 0)]
    return steps if lengths else paths
