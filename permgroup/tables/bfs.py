"""Breadth-first search over ranked states, level by level, in numpy.

The state graph is given by ``step(ranks, m)``: the ranks reached from
``ranks`` by move ``m`` (``-1`` where the move is not legal, for puzzles whose
moves depend on the state).  ``back_step(ranks, m)`` answers the reverse
question, the states that move ``m`` takes *to* ``ranks``; with it, the search
switches to bottom-up steps once the frontier is large (scan the unvisited
states and ask whether a predecessor is on the last level), which saves most
of the work near the end.  ``dense_step(mask, m)``, where a space offers it,
maps a boolean set of all states at once; for a frontier holding a good share
of the space it beats both (:class:`~permgroup.spaces.product.FactorSpace` does it with one gather per
factor).  A space whose ranks are rows of ``inner_size`` cells, each move
sending a row onto a row with its cells permuted (:class:`RowSpace`), offers
``rows``: a large level is then *pulled* row block by row block (each unseen
state asks whether a predecessor is on the last level, reading whole rows),
in working memory bounded by the block, not by the level.

Depths live in a dense ``uint8`` array indexed by rank; ``UNSEEN`` (255) marks
states not reached.

>>> from permgroup.spaces.product import FactorSpace
>>> from permgroup.spaces.space import Factor
>>> ring = FactorSpace([Factor("cell", 6, np.array([[1, 2, 3, 4, 5, 0]]))])
>>> bfs_depths(ring.size, [0], ring.n_moves, ring.step).tolist()
[0, 1, 2, 3, 4, 5]
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np

from permgroup.progress import Progress
from permgroup.spaces.space import rank_dtype
from permgroup.tables.store import UNSEEN

Step = Callable[[np.ndarray, int], np.ndarray]


#: rough cost per state and move, relative to one state of a dense step
#: (measured on the 2x2x2: a sparse step costs about 12 dense ones; a bottom-up
#: candidate usually stops after half the moves)
TOP_DOWN_COST = 12
BOTTOM_UP_COST = 6
#: a pulled level reads whole rows, about a dense step's cost per state and move
#: (measured on the Skewb and the Pyraminx: the row gather stays in cache)
PULL_COST = 1
#: states handled at once by the chunked steps (bounds their working memory)
BLOCK = 1 << 21


class RowSpace(Protocol):  # pragma: no cover - a description, not code
    """A space whose rank is ``row * inner_size + cell``, where move ``m`` maps
    rows ``first..last-1`` onto rows, their cells permuted
    (:class:`permgroup.spaces.orbit.OrbitSpace`)."""

    inner_size: int
    outer_size: int
    n_moves: int

    def row_pull(self, values: np.ndarray, first: int, last: int, m: int) -> np.ndarray:
        """``values`` (shape ``(outer_size, inner_size)``) at the predecessors by
        move ``m`` of the states in rows ``first..last-1``."""


def bfs_depths(size: int, sources: Sequence[int] | np.ndarray, n_moves: int, step: Step,
               back_step: Step | None = None, progress: Progress | None = None,
               max_depth: int = UNSEEN - 1,
               dense_step: Callable[[np.ndarray, int], np.ndarray] | None = None,
               rows: RowSpace | None = None,
               resume: tuple[np.ndarray, int] | None = None,
               level_done: Callable[[int, np.ndarray], None] | None = None) -> np.ndarray:
    """Depth of every rank from the sources; ``UNSEEN`` where unreachable.

    ``progress(depth, count)`` is called after each level that reaches new
    states, ``level_done(depth, depths)`` after each complete level (to keep a
    checkpoint); ``resume=(depths, depth)`` goes on from a table whose levels
    are complete up to ``depth`` (only that level and the unseen states are read).

    >>> from permgroup.spaces.product import FactorSpace
    >>> from permgroup.spaces.space import Factor
    >>> s = FactorSpace([Factor("ring", 3, np.array([[1, 2, 0], [0, 1, 2]])),
    ...                  Factor("flip", 2, np.array([[0, 1], [1, 0]]))])
    >>> bfs_depths(s.size, [0], s.n_moves, s.step, s.back_step,
    ...            dense_step=s.dense_step).tolist()
    [0, 1, 1, 2, 2, 3]
    >>> levels = []
    >>> bfs_depths(s.size, [0], s.n_moves, s.step, max_depth=1,
    ...            progress=lambda depth, count: levels.append((depth, count))).tolist(), levels
    ([0, 1, 1, 255, 255, 255], [(0, 1), (1, 2)])

    A step of ``-1`` is an illegal move (here: the last cell has no successor):

    >>> line = np.array([[1, 2, 3, -1]])
    >>> bfs_depths(4, [0], 1, lambda ranks, m: line[m][ranks]).tolist()
    [0, 1, 2, 3]
    >>> bfs_depths(4, [0], 1, lambda ranks, m: line[m][ranks],
    ...            resume=(np.array([0, 1, 255, 255], dtype=np.uint8), 1)).tolist()
    [0, 1, 2, 3]
    """
    frontier: np.ndarray | None
    if resume is None:
        depths = np.full(size, UNSEEN, dtype=np.uint8)
        frontier = np.unique(np.asarray(sources, dtype=np.int64))
        depths[frontier] = 0
        depth, count, seen = 0, len(frontier), len(frontier)
        if progress:
            progress(0, count)
    else:
        depths, depth = resume
        frontier = None
        count = seen = 0
        for s in range(0, size, BLOCK):  # counted a block at a time: no full-size temporary
            count += int(np.count_nonzero(depths[s:s + BLOCK] == depth))
            seen += int(np.count_nonzero(depths[s:s + BLOCK] != UNSEEN))
    while count and depth < max_depth:
        costs = {"top": TOP_DOWN_COST * count}
        if back_step is not None:
            costs["bottom"] = BOTTOM_UP_COST * (size - seen)
        if dense_step is not None:
            costs["dense"] = size
        if rows is not None:
            costs["pull"] = PULL_COST * size  # blocks with any unseen state are read whole
        method = min(costs, key=costs.get)
        if method == "pull":
            count = _pull(depths, depth, rows)
        elif method == "dense":
            count = _dense(depths, depth, n_moves, dense_step)
        elif method == "bottom":
            count = _bottom_up(depths, depth, n_moves, back_step)
        else:
            # without a frontier in hand, it is found a block at a time: a large
            # level's ranks, listed whole, would take eight bytes per state
            chunks = ([frontier] if frontier is not None else
                      (np.flatnonzero(depths[s:s + BLOCK] == depth) + s
                       for s in range(0, size, BLOCK)))
            chunks = (c.astype(rank_dtype(size), copy=False) for c in chunks)
            count = _top_down(depths, chunks, depth, n_moves, step)
        frontier = None
        depth += 1
        seen += count
        if count and progress:
            progress(depth, count)
        if count and level_done:
            level_done(depth, depths)
    return depths


def weighted_depths(size: int, sources: Sequence[int] | np.ndarray, costs: Sequence[int],
                    step: Step, progress: Progress | None = None) -> np.ndarray:
    """Least total cost of every rank from the sources when move ``m`` costs
    ``costs[m]`` (small positive integers; all ones is :func:`bfs_depths`);
    ``UNSEEN`` where unreachable or beyond 254.

    Levels are found in order of cost, top-down: level ``d`` is every unseen
    image of level ``d - costs[m]`` under move ``m``, so a state's first level
    is its least cost (Dijkstra with integer costs, one array per level).

    >>> from permgroup.spaces.product import FactorSpace
    >>> from permgroup.spaces.space import Factor
    >>> ring = FactorSpace([Factor("cell", 6, np.array([[1, 2, 3, 4, 5, 0],
    ...                                                  [2, 3, 4, 5, 0, 1]]))])
    >>> weighted_depths(ring.size, [0], [1, 3], ring.step).tolist()
    [0, 1, 2, 3, 4, 5]
    >>> weighted_depths(ring.size, [0], [1, 1], ring.step).tolist()
    [0, 1, 1, 2, 2, 3]
    """
    costs = [int(c) for c in costs]
    if min(costs) < 1:
        raise ValueError("move costs must be positive integers")
    depths = np.full(size, UNSEEN, dtype=np.uint8)
    levels = {0: np.unique(np.asarray(sources, dtype=rank_dtype(size)))}
    depths[levels[0]] = 0
    if progress:
        progress(0, len(levels[0]))
    depth = 0
    while any(len(levels.get(depth - k, ())) for k in range(max(costs))) and depth < UNSEEN - 1:
        depth += 1
        for m, cost in enumerate(costs):
            source = levels.get(depth - cost)
            if source is None:
                continue
            for start in range(0, len(source), BLOCK):
                nxt = step(source[start:start + BLOCK], m)
                if len(nxt) and nxt.min() < 0:  # some moves are illegal here
                    nxt = nxt[nxt >= 0]
                depths[nxt[depths[nxt] == UNSEEN]] = depth
        levels[depth] = np.flatnonzero(depths == depth).astype(rank_dtype(size))
        levels.pop(depth - max(costs), None)
        if progress and len(levels[depth]):
            progress(depth, len(levels[depth]))
    return depths


def _dense(depths: np.ndarray, depth: int, n_moves: int,
           dense_step: Callable[[np.ndarray, int], np.ndarray]) -> int:
    frontier = depths == depth
    reached = np.zeros_like(frontier)
    for m in range(n_moves):
        reached |= dense_step(frontier, m)
    reached &= depths == UNSEEN
    depths[reached] = depth + 1
    return int(np.count_nonzero(reached))


def _top_down(depths: np.ndarray, frontier_chunks, depth: int, n_moves: int,
              step: Step) -> int:
    for chunk in (c[s:s + BLOCK] for c in frontier_chunks for s in range(0, len(c), BLOCK)):
        for m in range(n_moves):
            nxt = step(chunk, m)
            if len(nxt) and nxt.min() < 0:  # some moves are illegal here
                nxt = nxt[nxt >= 0]
            fresh = nxt[depths[nxt] == UNSEEN]
            if len(fresh):
                depths[fresh] = depth + 1
    return sum(int(np.count_nonzero(depths[start:start + BLOCK] == depth + 1))
               for start in range(0, len(depths), BLOCK))


def _pull(depths: np.ndarray, depth: int, rows: RowSpace) -> int:
    """One level by rows: every unseen state with a predecessor at ``depth`` gets
    ``depth + 1``.  A block's moves stop once all its unseen states are found."""
    table = depths.reshape(rows.outer_size, rows.inner_size)
    per_block = max(1, BLOCK // rows.inner_size)
    found = 0
    for first in range(0, rows.outer_size, per_block):
        last = min(rows.outer_size, first + per_block)
        block = table[first:last]
        todo = block == UNSEEN
        if not todo.any():
            continue
        hit = np.zeros_like(todo)
        for m in range(rows.n_moves):
            hit |= rows.row_pull(table, first, last, m) == depth
            if m % 4 == 3 and not (todo & ~hit).any():
                break
        hit &= todo
        block[hit] = depth + 1
        found += int(np.count_nonzero(hit))
    return found


def _bottom_up(depths: np.ndarray, depth: int, n_moves: int, back_step: Step) -> int:
    # a slice of the table at a time: the unseen ranks of a whole table, and the
    # temporaries of stepping them, cost more memory than the table itself
    span = BLOCK * 8
    found = 0
    for start in range(0, len(depths), span):
        unseen = np.flatnonzero(depths[start:start + span] == UNSEEN) + start
        unseen = unseen.astype(rank_dtype(len(depths)), copy=False)
        found += _bottom_up_ranks(depths, depth, n_moves, back_step, unseen)
    return found


def _bottom_up_ranks(depths: np.ndarray, depth: int, n_moves: int, back_step: Step,
                     candidates: np.ndarray) -> int:
    found = 0
    for m in range(n_moves):
        if not len(candidates):
            break
        prev = back_step(candidates, m)
        if prev.min() >= 0:
            hit = depths[prev] == depth
        else:  # some moves are illegal here
            hit = prev >= 0
            hit[hit] = depths[prev[hit]] == depth
        reached = candidates[hit]
        depths[reached] = depth + 1
        found += len(reached)
        candidates = candidates[~hit]
    return found
