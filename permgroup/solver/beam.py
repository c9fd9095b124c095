"""The solver's one beam search: over moves or macros given as gather arrays
(``after = state[perm]``), each level keeping the ``width`` distinct states of
least cost so far plus ``weight`` times their score.

Its callers differ only in what they score and when they stop: the rings'
opening (:mod:`permgroup.solver.rings`: wrong cells, only children that score
less than their parent, until none does) and the stages of a big cube
(:mod:`permgroup.solver.staged`: the centres' distances or the unpaired
positions, until one state scores little enough or the best score stalls).

A ring of four cells two turns from home, turned either way (the second way
reaches the same state, kept once):

>>> ring = np.array([1, 2, 3, 0])
>>> perms, goal = np.array([ring, np.argsort(ring)]), np.arange(4)
>>> start = goal[ring][ring]
>>> wrong = lambda states: (states != goal).sum(axis=1)
>>> found, best = beam(start, perms, np.ones(2), wrong, width=2, enough=0)
>>> [(r.path, r.cost, r.score) for r in found], best.score
([([0, 0], 2.0, 0.0)], 0.0)
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from permgroup.budget import Budget

#: the bytes of children one slice of a level holds at once (small: they are
#: made, compared and summed while they are in the cache)
LEVEL_BYTES = 4_000_000


@dataclass
class Reached:
    """A state the beam reached: the indices of the arrays applied, the state,
    their cost and its score."""

    path: list[int]
    state: np.ndarray
    cost: float
    score: float


def beam(start: np.ndarray, perms: np.ndarray, costs: np.ndarray,
         score: Callable[[np.ndarray], np.ndarray], *, width: int, weight: float = 1.0,
         improving: bool = False, enough: float | None = None, levels: int | None = None,
         stall: int | None = None, cheaper_first: bool = True, budget: Budget | None = None
         ) -> tuple[list[Reached], Reached]:
    """A beam search from ``start`` over ``perms`` (costing ``costs``), each
    state scored by ``score`` (one value per row of a 2-d array of states).

    Each level, every child of every kept state is valued by its cost plus
    ``weight`` times its score (only those scoring less than their parent where
    ``improving``); the ``width`` least, of states never kept before, are kept
    (ties: the cheaper where ``cheaper_first``, then the earlier parent and
    array).  It ends at
    ``budget``'s end, after ``levels`` levels, when the best score of a level
    has not fallen for ``stall`` levels, when no child is left, or at the first
    level where some state scores at most ``enough``.  Returns those states
    (cheapest first; none if it ended otherwise) and the best state seen (least
    score, then cost; ``start`` itself if nothing was better).

    >>> ring = np.array([1, 2, 0])
    >>> goal = np.arange(3)
    >>> found, best = beam(goal[ring], np.array([ring, np.argsort(ring)]), np.ones(2),
    ...                    lambda s: (s != goal).sum(axis=1), width=1, improving=True)
    >>> found, best.path, best.score
    ([], [1], 0.0)
    """
    n, m = len(start), len(perms)
    # the gathers read their indices for every state: the narrowest type that holds them
    perms = perms.astype(np.int16 if n < 1 << 15 else np.int32, copy=False)
    states = start[None, :]
    paths: list[list[int]] = [[]]
    spent = np.zeros(1)
    scores = np.asarray(score(states), dtype=np.float64)
    best = Reached([], start, 0.0, float(scores[0]))
    seen = {start.tobytes()}
    least, since, level = np.inf, 0, 0
    per_parent = min(width, m)
    chunk = max(1, LEVEL_BYTES // max(1, m * n * start.itemsize))
    while budget is None or not budget.expired:
        if (levels is not None and level >= levels) or (stall is not None and since > stall):
            break
        level += 1
        value_parts, cost_parts, parent_parts, move_parts, score_parts, kid_parts = \
            [], [], [], [], [], []
        for lo in range(0, len(states), chunk):
            block = states[lo:lo + chunk]
            after = block[:, perms]
            h = np.asarray(score(after.reshape(-1, n)), dtype=np.float64).reshape(len(block), m)
            cost = spent[lo:lo + chunk, None] + costs[None, :]
            value = cost + weight * h
            if improving:
                value = np.where(h < scores[lo:lo + chunk, None], value, np.inf)
            # a parent's children past its `width` least are never kept
            top = np.argpartition(value, per_parent - 1, axis=1)[:, :per_parent] \
                if per_parent < m else np.broadcast_to(np.arange(m), (len(block), m))
            rows = np.broadcast_to(np.arange(len(block))[:, None], top.shape)
            ok = np.isfinite(value[rows, top])
            value_parts.append(value[rows, top][ok])
            cost_parts.append(cost[rows, top][ok])
            parent_parts.append(lo + rows[ok])
            move_parts.append(top[ok])
            score_parts.append(h[rows, top][ok])
            kid_parts.append(after[rows[ok], top[ok]])
        values = np.concatenate(value_parts)
        if not len(values):
            break
        cost, parent, move = (np.concatenate(cost_parts), np.concatenate(parent_parts),
                              np.concatenate(move_parts))
        child_scores, kids = np.concatenate(score_parts), np.concatenate(kid_parts)
        keep: list[int] = []
        order = np.lexsort((move, parent, cost, values) if cheaper_first else
                           (move, parent, values))
        for i in order:
            key = kids[i].tobytes()
            if key not in seen:
                seen.add(key)
                keep.append(int(i))
                if len(keep) == width:
                    break
        if not keep:
            break
        states, spent, scores = kids[keep], cost[keep], child_scores[keep]
        paths = [paths[parent[i]] + [int(move[i])] for i in keep]
        top_one = int(np.lexsort((spent, scores))[0])
        if (scores[top_one], spent[top_one]) < (best.score, best.cost):
            best = Reached(paths[top_one], states[top_one], float(spent[top_one]),
                           float(scores[top_one]))
        level_best = float(scores.min())
        least, since = min(least, level_best), (0 if level_best < least else since + 1)
        if enough is not None:
            done = [j for j in np.argsort(spent, kind="stable") if scores[j] <= enough]
            if done:
                return ([Reached(paths[j], states[j], float(spent[j]), float(scores[j]))
                         for j in done], best)
    return [], best
