"""Bidirectional breadth-first search that returns a shortest word, in numpy.

States are integers of any encoding (ranks, packed words); the graph is given
by ``step(states, m)`` (the states move ``m`` leads to, ``-1`` where it is not
legal) and ``back_step(states, m)`` (the states it leads from).  One side grows
levels around the start with ``step``, the other around the goal with
``back_step``; each round grows the side whose last level is smaller by a
whole level, and the search stops at the first level that meets the other
side's last level.

That first meeting is optimal: before a round that grows the start side to
level ``k`` while the goal side has levels ``0..j``, the two balls (start up
to ``k-1``, goal up to ``j``) are disjoint, so the distance ``D`` is at least
``k + j``; a state of the new level in the goal ball at level ``j' <= j``
shows ``D <= k + j'``, hence ``j' = j`` and ``D = k + j``.

The levels are kept, sorted, for the walk back from the meeting state; the
work is about twice the ball of radius ``D/2`` (a few hundred thousand states
for a 12-move position among 63 million) instead of the whole space.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

import numpy as np

from permgroup.errors import Stopped, UnreachableError
from permgroup.spaces.ranking import sorted_positions
from permgroup.tables.packed import distinct
from permgroup.tables.store import descend

Step = Callable[[np.ndarray, int], np.ndarray]


class _Side:
    """The levels grown from one end, and all their states in one sorted array."""

    def __init__(self, origins: np.ndarray, dtype: np.dtype, step: Step):
        self.levels = [distinct(origins.astype(dtype))]
        self.visited = self.levels[0]
        self.step = step

    def reach(self, n_moves: int, stop: Callable[[], str | None] | None = None) -> np.ndarray:
        """The states one move from the last level, sorted, without repeats
        (:class:`Stopped` when ``stop`` gives a reason before a move)."""
        last = self.levels[-1]
        images = []
        for m in range(n_moves):
            reason = stop() if stop is not None else None
            if reason:
                raise Stopped(reason, 0)
            images.append(self.step(last, m))
        reached = distinct(np.concatenate(images))
        if reached.dtype.kind == "i":  # -1 marks a move that is not legal there
            reached = reached[np.searchsorted(reached, 0):]
        return reached.astype(last.dtype, copy=False)

    def add_level(self, reached: np.ndarray) -> np.ndarray:
        """Keep the reached states not seen before as the next level."""
        fresh = reached[sorted_positions(self.visited, reached) < 0]
        self.levels.append(fresh)
        self.visited = np.sort(np.concatenate([self.visited, fresh]), kind="stable")
        return fresh


def search(start: int | Sequence[int], goal: int | Sequence[int], n_moves: int, step: Step,
           back_step: Step, max_depth: int | None = None, dtype: np.dtype | type = np.int64,
           *, stop: Callable[[], str | None] | None = None, memory: int | None = None,
           state_bytes: int | None = None) -> list[int] | None:
    """A shortest word (move indices) from ``start`` to ``goal`` (each a state or a
    set of states, such as every goal matching a pattern), ``None`` if none
    within ``max_depth`` moves (or at all).

    ``stop()`` is asked before each move of a level: a reason (``"the time
    limit"``) ends the search with :class:`Stopped` (a slow ``step`` may raise
    it too); so does a next level whose states, at ``state_bytes`` each (the
    dtype's size by default), would take the search past ``memory`` bytes.

    >>> ring = lambda s, m: (s + (1 if m == 0 else -1)) % 10  # a 10-cycle, two moves
    >>> search(0, 4, 2, ring, lambda s, m: ring(s, 1 - m))
    [0, 0, 0, 0]
    >>> search([0, 5], [3, 8], 2, ring, lambda s, m: ring(s, 1 - m))
    [1, 1]
    >>> big = lambda s, m: s * 2 + m  # a tree: levels double
    >>> search(1, 10 ** 9, 2, big, big, memory=2_000, state_bytes=8)
    Traceback (most recent call last):
    ...
    permgroup.errors.Stopped: the memory budget of 2,000 bytes (no word of 8 moves or fewer)
    """
    dtype = np.dtype(dtype)
    forward = _Side(np.atleast_1d(np.asarray(start)), dtype, step)
    backward = _Side(np.atleast_1d(np.asarray(goal)), dtype, back_step)
    if (sorted_positions(backward.levels[0], forward.levels[0]) >= 0).any():
        return []
    while max_depth is None or len(forward.levels) + len(backward.levels) - 2 < max_depth:
        side, other = ((forward, backward)
                       if len(forward.levels[-1]) <= len(backward.levels[-1])
                       else (backward, forward))
        ruled_out = len(forward.levels) + len(backward.levels) - 2
        # the next level's candidates and everything kept so far, each with the
        # two index-sized copies that sorting and merging make
        needed = (n_moves * len(side.levels[-1]) + len(forward.visited)
                  + len(backward.visited)) * ((state_bytes or dtype.itemsize) + 16)
        if memory is not None and needed > memory:
            raise Stopped(f"the memory budget of {memory:,} bytes", ruled_out)
        try:
            reached = side.reach(n_moves, stop)
        except Stopped as exc:  # from stop() or a slow step: the bound is known here
            raise Stopped(exc.reason, ruled_out) from None
        # a reached state already seen on this side cannot be on the other's last
        # level (the balls are disjoint), so the meeting test needs no filtering
        meet = reached[sorted_positions(other.levels[-1], reached) >= 0]
        if len(meet):
            side.levels.append(meet)
            middle = int(meet[0])
            return (_walk(forward, middle, n_moves, back_step)[::-1]
                    + _walk(backward, middle, n_moves, step))
        if not len(side.add_level(reached)):
            return None
    return None


def _walk(side: _Side, state: int, n_moves: int, undo: Step) -> list[int]:
    """Moves from ``state`` (on the side's last level) down to the side's origin,
    found with ``undo`` (the opposite of the step the side grew by)."""
    def level(states: np.ndarray) -> np.ndarray:
        out = np.full(len(states), len(side.levels), dtype=np.int64)
        for depth, states_at in enumerate(side.levels):  # the levels are disjoint
            out[sorted_positions(states_at, states) >= 0] = depth
        return out

    return descend(np.array([state], dtype=side.levels[0].dtype), n_moves, undo, level)[0]


def _colouring_search(space, a: Sequence[Hashable], b: Sequence[Hashable],
                      max_depth: int | None) -> list[int]:
    word = search(space.encode(a), space.encode(b), space.n_moves, space.apply, space.unapply,
                  max_depth=max_depth, dtype=space.dtype)
    if word is None:
        raise UnreachableError("no sequence of moves joins the two colourings"
                               + (f" within {max_depth} moves" if max_depth is not None else ""))
    return word


def search_distance(space, a: Sequence[Hashable], b: Sequence[Hashable],
                    max_depth: int | None = None, table=None) -> int:
    """Least number of moves from colouring ``a`` to colouring ``b`` of a
    :class:`~permgroup.spaces.colouring.ColouringSpace`: a lookup in ``table``
    (a :class:`~permgroup.tables.colouring_table.ColouringTable`) when ``b`` is
    its source up to renaming colours, else by bidirectional search;
    :class:`UnreachableError` if none (within ``max_depth``).

    >>> from permgroup.spaces.colouring import ColouringSpace
    >>> s = ColouringSpace("aabb", {"rot": (1, 2, 3, 0)})
    >>> search_distance(s, "aabb", "baab")
    1
    """
    renamed = None if table is None else table.as_source(a, b)
    if renamed is not None:
        d = table.depth(renamed)
        if d < 0:
            raise UnreachableError("no sequence of moves joins the two colourings")
        return d
    return len(_colouring_search(space, a, b, max_depth))


def search_path(space, a: Sequence[Hashable], b: Sequence[Hashable],
                max_depth: int | None = None, table=None) -> list[str]:
    """An optimal list of move names from colouring ``a`` to colouring ``b``
    (from ``table`` or by search, as :func:`search_distance`).

    >>> from permgroup.spaces.colouring import ColouringSpace
    >>> s = ColouringSpace("aabb", {"rot": (1, 2, 3, 0)})
    >>> search_path(s, "aabb", "bbaa")
    ['rot', 'rot']
    """
    renamed = None if table is None else table.as_source(a, b)
    if renamed is not None:
        return table.path(renamed)
    return [space.move_names[m] for m in _colouring_search(space, a, b, max_depth)]
