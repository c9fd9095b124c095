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

import time
from collections.abc import Mapping

import numpy as np

from permgroup.budget import Budget
from permgroup.errors import InputError, Stopped
from permgroup.levels import row_keys, rows_of


def exact_word(moves: Mapping[str, np.ndarray], start: np.ndarray, goal: np.ndarray, *,
               mismatches: int = 0, time_limit: float = 60.0,
               max_states: int = 4_000_000, memory: int = 1 << 30,
               budget: Budget | None = None, max_depth: int | None = None
               ) -> list[str] | None:
    """A shortest list of move names taking ``start`` to ``goal`` (see the module
    docstring); :class:`InputError` when none is found within ``time_limit``
    seconds, ``max_states`` states or about ``memory`` bytes of seen states, or
    when the two cannot be joined.  With a ``budget`` (its time and memory
    instead), running out is :class:`~permgroup.errors.Stopped` as every
    budgeted search reports it, and ``None`` says that no word of at most
    ``max_depth`` moves exists."""
    from permgroup.search.meet import search

    if budget is not None:
        time_limit, memory = budget.left(), budget.memory
    deadline = time.monotonic() + time_limit
    start, goal = _compact(np.asarray(start), np.asarray(goal))
    if np.count_nonzero(start != goal) <= mismatches:
        return []
    names = list(moves)
    forward = [np.asarray(moves[n]) for n in names]
    backward = [np.argsort(g) for g in forward]  # each move's inverse
    dtype = start.dtype
    # a state costs its row, an index and a parent's index and move (see search)
    state_bytes = start.nbytes + 16
    memory = min(memory, max_states * state_bytes * 3)

    def mover(tables):
        def step(states: np.ndarray, m: int) -> np.ndarray:
            return row_keys(rows_of(states, dtype)[:, tables[m]])
        return step

    def stop() -> str | None:
        if budget is not None:
            return budget.stop_reason()
        return "the time limit" if time.monotonic() > deadline else None

    def near_goal(states: np.ndarray) -> np.ndarray:
        return np.count_nonzero(rows_of(states, dtype) != goal, axis=1) <= mismatches

    try:
        word = search(row_keys(start[None, :]), row_keys(goal[None, :]), len(names),
                      mover(forward), mover(backward), max_depth,
                      dtype=row_keys(start[None, :]).dtype, stop=stop, memory=memory,
                      state_bytes=state_bytes, accept=near_goal if mismatches else None)
    except Stopped as exc:
        if budget is not None:
            raise
        raise InputError(f"no word found: {exc}") from None
    if word is None and budget is not None and max_depth is not None:
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
