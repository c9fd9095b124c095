"""A shortest word between two colourings by bidirectional breadth-first search.

States are arrays of colour labels, moves gather arrays (``new = old[g]``),
every entry of ``moves`` one move.  Each side keeps, for every state it has
seen, the move that reached it and the state before; the side with the smaller
frontier grows by one level until the two meet.  With ``mismatches``, the
forward side also stops at a state within that many positions of the goal (the
word is then the shortest among those met, not always the shortest overall).
Fit for puzzles whose answers are short (up to a few million states seen).

>>> import numpy as np
>>> moves = {"t": np.array([1, 2, 3, 0]), "-t": np.array([3, 0, 1, 2])}
>>> exact_word(moves, np.array([0, 0, 1, 2]), np.array([1, 2, 0, 0]))
['t', 't']
"""
from __future__ import annotations

import time
from collections.abc import Mapping

import numpy as np

from permgroup.errors import InputError


def _inverse(g: np.ndarray) -> np.ndarray:
    return np.argsort(g)


def exact_word(moves: Mapping[str, np.ndarray], start: np.ndarray, goal: np.ndarray, *,
               mismatches: int = 0, time_limit: float = 60.0,
               max_states: int = 4_000_000, memory: int = 1 << 30) -> list[str]:
    """A shortest list of move names taking ``start`` to ``goal`` (see the module
    docstring); :class:`InputError` when none is found within ``time_limit``
    seconds, ``max_states`` states or about ``memory`` bytes of seen states, or
    when the two cannot be joined."""
    deadline = time.monotonic() + time_limit
    start, goal = _compact(np.asarray(start), np.asarray(goal))
    # a seen state costs its bytes three times (its key, its parent's key, its row
    # in a frontier) and a dict entry, a tuple and two bytes headers (about 200 bytes)
    max_states = min(max_states, memory // (3 * start.nbytes + 200))
    names = list(moves)
    forward = [np.asarray(moves[n]) for n in names]
    backward = [_inverse(g) for g in forward]
    if np.count_nonzero(start != goal) <= mismatches:
        return []
    # state bytes -> (previous state bytes, move index) on each side
    seen = [{start.tobytes(): None}, {goal.tobytes(): None}]
    frontier = [start[None, :], goal[None, :]]
    while len(seen[0]) + len(seen[1]) < max_states:
        side = 0 if len(frontier[0]) <= len(frontier[1]) else 1
        if len(frontier[side]) == 0:
            raise InputError("no sequence of moves joins the two states "
                             f"(all {len(seen[side]):,} states reachable from one were seen)")
        tables = forward if side == 0 else backward
        mine, other = seen[side], seen[1 - side]
        grown = []
        for k, g in enumerate(tables):
            if time.monotonic() > deadline:
                raise InputError(f"no word found in {time_limit:g} s "
                                 f"({len(seen[0]) + len(seen[1]):,} states seen)")
            states = frontier[side][:, g]
            parents = frontier[side]
            fresh = []
            for row, state in enumerate(states):
                key = state.tobytes()
                if key in mine:
                    continue
                mine[key] = (parents[row].tobytes(), k)
                if key in other:
                    return _join(key, seen, names)
                if side == 0 and mismatches and np.count_nonzero(state != goal) <= mismatches:
                    return _join(key, [seen[0], {key: None}], names)
                fresh.append(row)
            grown.append(states[fresh])
        frontier[side] = np.concatenate(grown) if grown else frontier[side][:0]
    raise InputError(f"no word found within {max_states:,} states")


def _compact(start: np.ndarray, goal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The two colourings as the smallest integers that tell their colours apart."""
    _, labels = np.unique(np.concatenate([start.ravel(), goal.ravel()]), return_inverse=True)
    dtype = np.uint8 if labels.max(initial=0) < 256 else np.int32
    labels = labels.astype(dtype)
    return labels[:start.size], labels[start.size:]


def _join(key: bytes, seen: list[dict], names: list[str]) -> list[str]:
    """The word through ``key``: the forward path to it, then the backward path."""
    head, at = [], key
    while seen[0][at] is not None:
        at, k = seen[0][at]
        head.append(names[k])
    tail, at = [], key
    while seen[1][at] is not None:
        at, k = seen[1][at]
        tail.append(names[k])
    return head[::-1] + tail
