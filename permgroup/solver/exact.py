"""A shortest word between two colourings: the one bidirectional search
(:func:`permgroup.search.meet.search`) over colourings kept as rows of bytes.

States are arrays of colour labels, moves gather arrays (``new = old[g]``),
every entry of ``moves`` one move.  With ``mismatches``, the start's side also
stops at a state within that many positions of the goal (the word is then
the shortest among those met, not always the shortest overall).  Fit for
puzzles whose answers are short (up to a few million states seen).

>>> import numpy as np
>>> moves = {"t": np.array([1, 2, 3, 0]), "-t": np.array([3, 0, 1, 2])}
>>> exact_word(moves, np.array([0, 0, 1, 2]), np.array([1, 2, 0, 0]))
['t', 't']
>>> exact_word(moves, np.array([0, 0, 1, 2]), np.array([0, 1, 0, 2]))
Traceback (most recent call last):
...
permgroup.errors.InputError: no sequence of moves joins the two states (every state reachable from one of them was seen)
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from permgroup.budget import Budget
from permgroup.errors import InputError
from permgroup.levels import row_keys, rows_of

#: seconds a search may take when no budget is given
TIME_LIMIT = 60.0


def exact_word(moves: Mapping[str, np.ndarray], start: np.ndarray, goal: np.ndarray, *,
               budget: Budget | None = None, mismatches: int = 0,
               max_states: int = 4_000_000, max_depth: int | None = None
               ) -> list[str] | None:
    """A shortest list of move names taking ``start`` to ``goal`` (see the module
    docstring), found within the ``budget`` (:data:`TIME_LIMIT` seconds without
    one) and ``max_states`` states: :class:`~permgroup.errors.Stopped` when either
    runs out, as every budgeted search reports it; :class:`InputError` when the
    two cannot be joined; ``None`` when ``max_depth`` is given and no word of at
    most that many moves exists."""
    from permgroup.search.meet import search

    budget = budget if budget is not None else Budget.of(TIME_LIMIT)
    start, goal = _compact(np.asarray(start), np.asarray(goal))
    if np.count_nonzero(start != goal) <= mismatches:
        return []
    names = list(moves)
    forward = [np.asarray(moves[n]) for n in names]
    backward = [np.argsort(g) for g in forward]  # each move's inverse
    dtype = start.dtype
    # a state costs its row, an index and a parent's index and move (see search)
    state_bytes = start.nbytes + 16
    budget = budget.with_memory(min(budget.memory, max_states * state_bytes * 3))

    def mover(tables):
        def step(states: np.ndarray, m: int) -> np.ndarray:
            return row_keys(rows_of(states, dtype)[:, tables[m]])
        return step

    def near_goal(states: np.ndarray) -> np.ndarray:
        return np.count_nonzero(rows_of(states, dtype) != goal, axis=1) <= mismatches

    word = search(row_keys(start[None, :]), row_keys(goal[None, :]), len(names),
                  mover(forward), mover(backward), max_depth,
                  dtype=row_keys(start[None, :]).dtype, budget=budget,
                  state_bytes=state_bytes, accept=near_goal if mismatches else None)
    if word is None and max_depth is not None:
        return None
    if word is None:
        raise InputError("no sequence of moves joins the two states (every state "
                         "reachable from one of them was seen)")
    return [names[m] for m in word]


def _compact(start: np.ndarray, goal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The two colourings as the smallest integers that tell their colours apart."""
    _, labels = np.unique(np.concatenate([start.ravel(), goal.ravel()]), return_inverse=True)
    dtype = np.uint8 if labels.max(initial=0) < 256 else np.int32
    labels = labels.astype(dtype)
    return labels[:start.size], labels[start.size:]
