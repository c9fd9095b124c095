"""The small orbits first: the pieces no cheap 3-cycle serves, solved by a
search on the puzzle they make alone.

On a big cube the corners, the middle edges and the fixed centres are few,
their pieces turn in place (or, the fixed centres, have no 3-cycle at all: the
cube's rotations are all they do), and a commutator of two moves that cycles
three of them costs eight moves or more.  Together they are a small puzzle of
their own (a 3x3x3 or a 2x2x2), which the chain of subgroups
(:mod:`~permgroup.solver.chain`) solves in about twenty moves.  Afterwards the
other orbits are solved by 3-cycles and commutators, which leave these alone,
and by moves that do not touch them (a big cube's inner slices).

An orbit is *small* when its pieces may turn in place or it has no 3-cycle of
the cheapest commutators (:class:`~permgroup.solver.cycles.OrbitCycles`).  Its
positions are closed under every move, so each move restricted to them is a
permutation of them: the *projection* (the moves that do not act there are left
out; the chain names moves by their order, so the 3x3x3 of every odd cube and
the 3x3x3 itself share its tables).

>>> import numpy as np
>>> t = np.array([1, 0, 2, 3]); u = np.array([0, 1, 3, 2])
>>> projection({"t": t, "u": u, "-u": u}, np.array([0, 1]))
{'t': array([1, 0])}
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from permgroup.budget import Budget
from permgroup.errors import InputError, Stopped
from permgroup.moves import MoveSet
from permgroup.solver.cycles import OrbitCycles
from permgroup.solver.pieces import Pieces


#: a solver of a projection (moves, start, goal, budget) -> move names
Solver = Callable[[Mapping[str, np.ndarray], np.ndarray, np.ndarray, Budget], list[str]]

#: states the search of a projection with no chain may hold ...
EXACT_STATES = 1_000_000
#: ... and the share of the time left it may take
EXACT_SHARE = 0.5


def small_orbits(pieces: Pieces, cycles: OrbitCycles) -> list[int]:
    """The orbits solved first: those whose pieces may turn in place, or that
    have no 3-cycle in ``cycles`` (see the module docstring)."""
    return [k for k in range(len(pieces.orbits))
            if k not in cycles.orbits or k in cycles.turning]


def orbit_positions(pieces: Pieces, orbits: Sequence[int]) -> np.ndarray:
    """The positions of the pieces of ``orbits``, in order.

    >>> from permgroup.moves import MoveSet
    >>> ms = MoveSet.from_moves({"t": np.array([1, 0, 2, 3]), "u": np.array([0, 1, 3, 2])})
    >>> orbit_positions(Pieces.of(ms), [1]).tolist()
    [2, 3]
    """
    found = [p for k in orbits for b in pieces.orbits[k] for p in pieces.blocks[b]]
    return np.array(sorted(found), dtype=np.int64)


def projection(moves: Mapping[str, np.ndarray], positions: np.ndarray) -> dict[str, np.ndarray]:
    """The moves restricted to ``positions`` (closed under every move) and
    renumbered in their order; the moves that do nothing there, and those doing
    what an earlier one did, are left out."""
    where = np.full(len(next(iter(moves.values()))), -1, dtype=np.int64)
    where[positions] = np.arange(len(positions))
    identity = np.arange(len(positions))
    out: dict[str, np.ndarray] = {}
    seen: set[bytes] = set()
    for name, g in moves.items():
        image = where[np.asarray(g)[positions]]
        if (image < 0).any():
            raise ValueError("the positions are not closed under the moves")
        key = image.tobytes()
        if (image == identity).all() or key in seen:
            continue
        seen.add(key)
        out[name] = image
    return out


def keeping_classes(ms: MoveSet, positions: np.ndarray) -> list[int]:
    """The classes of ``ms`` whose moves leave every one of ``positions`` in place.

    >>> ms = MoveSet.from_moves({"t": np.array([1, 0, 2, 3]), "u": np.array([0, 1, 3, 2])})
    >>> keeping_classes(ms, np.array([0, 1]))
    [1]
    """
    mask = np.zeros(ms.degree, dtype=bool)
    mask[positions] = True
    return [c for c in range(len(ms.classes)) if not mask[ms.support[c]].any()]


def solve_small_orbits(moves: Mapping[str, np.ndarray], start: np.ndarray, goal: np.ndarray,
                       positions: np.ndarray, *, budget: Budget,
                       improve: float | None = None, fallback: Solver | None = None
                       ) -> list[str] | None:
    """Move names bringing every piece at ``positions`` home (the rest goes
    where it goes), by the chain of subgroups on the projection (``improve``:
    its seconds for a shorter word than its first, see
    :func:`~permgroup.solver.chain.chain_word`), or a
    bidirectional search where the chain does not apply and the projection is
    small (within :data:`EXACT_SHARE` of the time left); checked.  When
    neither finds one within ``budget`` (the chain's tables not built in time:
    an empty cache, a short limit), ``fallback``'s word on the projection
    (``fallback(moves, start, goal, budget)``: the generic solver, whose word
    is owed past the budget, and longer); ``None`` without one, or when it
    finds none."""
    from permgroup.solver.chain import chain_word

    a, b = start[positions], goal[positions]
    if (a == b).all():
        return []
    projected = projection(moves, positions)
    word = None
    if not budget.expired:
        try:
            word = chain_word(projected, a, b, budget=budget, improve=improve)
        except Stopped:
            pass  # the budget ran out while the chain's tables were built
    if word is None and not budget.expired:
        # no chain (alike pieces, too small a puzzle for one, its tables not
        # built in time): a bidirectional search of the projection, while its
        # states stay few (on a 19x19x19's 3x3x3 it took 4 s to give up)
        from permgroup.solver.exact import exact_word

        try:
            word = exact_word(projected, a, b, budget=budget.share(EXACT_SHARE),
                              max_states=EXACT_STATES)
        except (InputError, Stopped):
            pass
    if word is None and fallback is not None:
        # on a first line of a 19x19x19 at a 10 s limit the 3x3x3's chain would
        # need 24 s of tables; the generic solver took 1.5 s for 89 moves (the
        # caller's other way built a model of the whole cube and finished 28 s
        # past the limit)
        try:
            word = fallback(projected, a, b, budget)
        except InputError:
            return None
    if word is None:
        return None
    state = start
    for name in word:
        state = state[moves[name]]
    if (state[positions] != goal[positions]).any():
        raise AssertionError("the small orbits' word does not solve them")
    return word
