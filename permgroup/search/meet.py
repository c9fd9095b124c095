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

The levels are kept, sorted, with the parent and move of each state, for the
walk back from the meeting state.  States may be integers or rows viewed as
bytes (``np.void``, :func:`as_rows`).  The work is about twice the ball of radius ``D/2`` (a few hundred thousand states
for a 12-move position among 63 million) instead of the whole space.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

import numpy as np

from permgroup.budget import Budget
from permgroup.errors import Stopped, UnreachableError
from permgroup.levels import SortedKeys, by_moves, levels
from permgroup.spaces.ranking import sorted_positions
from permgroup.tables.packed import distinct

Step = Callable[[np.ndarray, int], np.ndarray]


class _Side:
    """The levels grown from one end by the one levels generator
    (:func:`permgroup.levels.levels`), all its states seen in one sorted array."""

    def __init__(self, origins: np.ndarray, dtype: np.dtype, step: Step, n_moves: int,
                 budget: Budget | None):
        first = distinct(origins.astype(dtype))
        self.levels = [first]
        # for each level after the first: the index of each state's parent on the
        # level before, and the move
        self.parents: list[tuple[np.ndarray, np.ndarray]] = []
        self.seen = SortedKeys(first)

        def stepping(states: np.ndarray, m: int) -> np.ndarray:
            if budget is not None:
                budget.check()
            return step(states, m).astype(dtype, copy=False)

        # -1 marks a move that is not legal there
        self.grow = levels(first, by_moves(stepping, n_moves, legal=dtype.kind == "i"),
                           seen=self.seen)

    @property
    def visited(self) -> int:
        return len(self.seen.keys)

    def add(self, states: np.ndarray, parent: np.ndarray, move: np.ndarray) -> None:
        self.levels.append(states)
        self.parents.append((parent.astype(np.int32), move.astype(np.int16)))

    def walk(self, depth: int, index: int) -> list[int]:
        """The moves from the side's origin to state ``index`` of level ``depth``."""
        word = []
        for parent, move in reversed(self.parents[:depth]):
            word.append(int(move[index]))
            index = int(parent[index])
        return word[::-1]


def search(start: int | Sequence[int], goal: int | Sequence[int], n_moves: int, step: Step,
           back_step: Step, max_depth: int | None = None, dtype: np.dtype | type = np.int64,
           *, budget: Budget | None = None, state_bytes: int | None = None,
           accept: Callable[[np.ndarray], np.ndarray] | None = None) -> list[int] | None:
    """A shortest word (move indices) from ``start`` to ``goal`` (each a state or a
    set of states, such as every goal matching a pattern), ``None`` if none
    within ``max_depth`` moves (or at all).

    The ``budget`` (:class:`~permgroup.budget.Budget`) is checked before each
    move of a level: its running out ends the search with :class:`Stopped` (a
    slow ``step`` may raise it too); so does a next level whose states, at
    ``state_bytes`` each (the dtype's size by default), would take the search
    past the budget's memory.

    With ``accept`` (a test of a batch of states), the start's side also ends
    at the first state it passes: the word is then the shortest of those
    found, not always the shortest overall (Santa's wildcards).

    >>> ring = lambda s, m: (s + (1 if m == 0 else -1)) % 10  # a 10-cycle, two moves
    >>> search(0, 4, 2, ring, lambda s, m: ring(s, 1 - m))
    [0, 0, 0, 0]
    >>> search([0, 5], [3, 8], 2, ring, lambda s, m: ring(s, 1 - m))
    [1, 1]
    >>> big = lambda s, m: s * 2 + m  # a tree: levels double
    >>> search(1, 10 ** 9, 2, big, big, budget=Budget(memory=2_000), state_bytes=8)
    Traceback (most recent call last):
    ...
    permgroup.errors.Stopped: the memory budget of 2,000 bytes (no word of 8 moves or fewer)
    """
    memory = None if budget is None else budget.memory
    dtype = np.dtype(dtype)
    forward = _Side(np.atleast_1d(np.asarray(start)), dtype, step, n_moves, budget)
    backward = _Side(np.atleast_1d(np.asarray(goal)), dtype, back_step, n_moves, budget)
    if (sorted_positions(backward.levels[0], forward.levels[0]) >= 0).any():
        return []
    if accept is not None and accept(forward.levels[0]).any():
        return []
    while max_depth is None or len(forward.levels) + len(backward.levels) - 2 < max_depth:
        side, other = ((forward, backward)
                       if len(forward.levels[-1]) <= len(backward.levels[-1])
                       else (backward, forward))
        ruled_out = len(forward.levels) + len(backward.levels) - 2
        # the next level's candidates and everything kept so far, each with the
        # two index-sized copies that sorting and merging make
        needed = (n_moves * len(side.levels[-1]) + forward.visited
                  + backward.visited) * ((state_bytes or dtype.itemsize) + 16)
        if memory is not None and needed > memory:
            raise Stopped(f"the memory budget of {memory:,} bytes", ruled_out)
        try:
            level = next(side.grow, None)
        except Stopped as exc:  # from the budget or a slow step: the bound is known here
            raise Stopped(exc.reason, ruled_out) from None
        if level is None:  # every state on this side's end is seen: none joins
            return None
        # a reached state already seen on this side cannot be on the other's last
        # level (the balls are disjoint), so the new states are the ones to test
        met = sorted_positions(other.levels[-1], level.states)
        side.add(level.states, level.parent, level.move)
        hits = np.flatnonzero(met >= 0)
        if not len(hits) and accept is not None and side is forward:
            passed = np.flatnonzero(accept(level.states))
            if len(passed):
                return forward.walk(len(forward.levels) - 1, int(passed[0]))
        if len(hits):
            here, there = int(hits[0]), int(met[hits[0]])
            if side is backward:
                here, there = there, here
            ahead = forward.walk(len(forward.levels) - 1, here)
            behind = backward.walk(len(backward.levels) - 1, there)
            # the backward side grew by back_step: its moves, read from the
            # meeting state back to the goal, are forward moves
            return ahead + behind[::-1]
    return None


def _colouring_search(space, a: Sequence[Hashable], b: Sequence[Hashable],
                      max_depth: int | None, budget: Budget | None = None) -> list[int]:
    word = search(space.encode(a), space.encode(b), space.n_moves, space.apply, space.unapply,
                  max_depth=max_depth, dtype=space.dtype, budget=budget)
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
                max_depth: int | None = None, table=None, budget: Budget | None = None
                ) -> list[str]:
    """An optimal list of move names from colouring ``a`` to colouring ``b``
    (from ``table`` or by search, as :func:`search_distance`; within
    ``budget``, else :class:`~permgroup.errors.Stopped`).

    >>> from permgroup.spaces.colouring import ColouringSpace
    >>> s = ColouringSpace("aabb", {"rot": (1, 2, 3, 0)})
    >>> search_path(s, "aabb", "bbaa")
    ['rot', 'rot']
    """
    renamed = None if table is None else table.as_source(a, b)
    if renamed is not None:
        return table.path(renamed)
    return [space.move_names[m] for m in _colouring_search(space, a, b, max_depth, budget)]


#: elements a search moves between two looks at its budget
CHUNK = 50_000


def element_path(space, g: Sequence[int], max_depth: int | None = None,
                 budget: Budget | None = None) -> list[str] | None:
    """An optimal word (move names of ``space``, an
    :class:`~permgroup.spaces.element.ElementSpace`) for the element ``g`` up
    to whole-puzzle symmetry, by :func:`search` over elements, each packed into
    one Python integer; ``None`` when no word of at most ``max_depth`` moves
    (or none at all) makes it; :class:`~permgroup.errors.Stopped` when the
    ``budget`` runs out (it is asked between chunks of a level).

    >>> from permgroup.puzzle import Puzzle
    >>> from permgroup.spaces.element import ElementSpace
    >>> p = Puzzle("p", 4, {"A": (1, 2, 3, 0)}, pieces={"dot": ((0,), (1,), (2,), (3,))})
    >>> element_path(ElementSpace(p, "qtm"), (2, 3, 0, 1))
    ['A', 'A']
    """
    from permgroup.perm import compose, inverse

    n = space.puzzle.degree
    if n > 255:
        raise ValueError(f"{space.puzzle.name}: search packs elements of at most 255 stickers")
    moves = [tuple(x) for x in space.moves]
    backs = [inverse(x) for x in moves]

    def pack(perm) -> int:
        return int.from_bytes(bytes(perm), "big")

    def stepper(table):
        def step(states, k):
            mv = table[k]
            out = []
            states = states.tolist()
            for at in range(0, len(states), CHUNK):  # a level may take minutes
                if budget is not None and at:
                    budget.check()
                out += [pack(compose(tuple(s.to_bytes(n, "big")), mv))
                        for s in states[at:at + CHUNK]]
            return _objects(out)
        return step

    # a Python integer of n bytes and its place in an object array
    result = search(_objects([pack(range(n))]), _objects([pack(space.normalize(tuple(g)))]),
                    len(moves), stepper(moves), stepper(backs), max_depth, dtype=object,
                    state_bytes=36 + n + 8, budget=budget)
    return None if result is None else [space.move_names[k] for k in result]


def _objects(values: list) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out
