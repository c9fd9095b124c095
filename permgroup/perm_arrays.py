"""Permutations as numpy arrays, many at a time: the arithmetic of the group
algorithms (:mod:`permgroup.stabilizer_chain`, :mod:`permgroup.orbit_chain`).

The convention is :mod:`permgroup.perm`'s: ``p[i]`` is the image of ``i`` and
``compose(p, q)`` is "``p`` first, then ``q``" (``q[p]``).  A *batch* is a 2-D
array whose rows are permutations of the same points; every function here
takes a single permutation or a batch, and does its work in whole-array
operations (no loop over points).

>>> import numpy as np
>>> p, q = np.array([1, 2, 0, 3]), np.array([0, 1, 3, 2])
>>> compose(p, q).tolist(), invert(p).tolist(), parity(np.stack([p, q])).tolist()
([1, 3, 0, 2], [2, 0, 1, 3], [0, 1])
>>> cycle_lengths(compose(p, q)).tolist(), order(compose(p, q))
([4, 4, 4, 4], 4)
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import factorial as math_factorial
from math import lcm

import numpy as np

from permgroup.perm import repeated

#: the index type every array here uses (numpy gathers with it without a copy)
INDEX = np.intp


def as_perms(perms: Sequence[Sequence[int]] | np.ndarray, degree: int | None = None
             ) -> np.ndarray:
    """A batch of permutations (rows), each padded to ``degree`` points with
    fixed points.

    >>> as_perms([(1, 0)], 3).tolist()
    [[1, 0, 2]]
    """
    if isinstance(perms, np.ndarray) and perms.ndim == 2 and (
            degree is None or perms.shape[1] == degree):
        return perms.astype(INDEX, copy=False)
    if not isinstance(perms, np.ndarray) and perms and len({len(p) for p in perms}) == 1 \
            and (degree is None or len(perms[0]) == degree):
        # one flat conversion (np.array of many tuples inspects each one)
        from itertools import chain

        n = len(perms[0])
        return np.fromiter(chain.from_iterable(perms), dtype=INDEX,
                           count=len(perms) * n).reshape(len(perms), n)
    rows = [np.asarray(p, dtype=INDEX) for p in perms]
    n = degree if degree is not None else max((len(r) for r in rows), default=0)
    out = np.tile(np.arange(n, dtype=INDEX), (len(rows), 1))
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out


def unique_rows(rows: np.ndarray, *, return_index: bool = False,
                return_inverse: bool = False):
    """``np.unique(rows, axis=0)`` (with ``return_index`` and
    ``return_inverse`` as there), in the same order, quickly for long rows:
    each row compared as one string of big-endian bytes (which sorts
    non-negative numbers as numbers); numpy's own takes a field a column, 5 s
    for a few rows of 100,000 points.

    >>> unique_rows(np.array([[2, 0, 1], [0, 1, 2], [2, 0, 1]]), return_inverse=True)
    (array([[0, 1, 2],
           [2, 0, 1]]), array([1, 0, 1]))
    """
    rows = np.asarray(rows)
    if rows.ndim != 2 or not rows.size or rows.min() < 0:
        return np.unique(rows, axis=0, return_index=return_index,
                         return_inverse=return_inverse)
    big = np.ascontiguousarray(rows, dtype=">i8")
    keys = big.view(np.dtype((np.void, big.dtype.itemsize * rows.shape[1]))).reshape(-1)
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    out = (rows[first],)
    if return_index:
        out += (first,)
    if return_inverse:
        out += (inverse.reshape(-1),)
    return out if len(out) > 1 else out[0]


_MOVES: dict[int, tuple[object, np.ndarray]] = {}


def moves_of(puzzle) -> np.ndarray:
    """A puzzle's moves as one batch (kept for the last few puzzles: a big
    family's 32,640 moves take a second to convert).

    >>> from permgroup.puzzle import Puzzle
    >>> moves_of(Puzzle("p", 3, {"A": (1, 0, 2)})).tolist()
    [[1, 0, 2]]
    """
    generators = puzzle.generators
    found = _MOVES.get(id(generators))
    if found is None or found[0] is not generators:
        if len(_MOVES) >= 4:
            _MOVES.pop(next(iter(_MOVES)))
        found = (generators, as_perms(list(generators.values()), puzzle.degree))
        _MOVES[id(generators)] = found
    return found[1]


def identity(n: int) -> np.ndarray:
    """The identity on ``n`` points."""
    return np.arange(n, dtype=INDEX)


def compose(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``p`` first, then ``q`` (``q[p]``), row by row when either is a batch.

    >>> compose(np.array([[1, 0, 2], [0, 2, 1]]), np.array([1, 2, 0])).tolist()
    [[2, 1, 0], [1, 0, 2]]
    """
    if q.ndim == 1:
        return q[p]
    if p.ndim == 1:
        return q[:, p]
    return np.take_along_axis(q, p, axis=-1)


def invert(p: np.ndarray) -> np.ndarray:
    """The inverse of each permutation.

    >>> invert(np.array([[1, 2, 0], [0, 2, 1]])).tolist()
    [[2, 0, 1], [0, 2, 1]]
    """
    out = np.empty_like(p)
    if p.ndim == 1:
        out[p] = np.arange(p.shape[-1], dtype=p.dtype)
    else:
        np.put_along_axis(out, p, np.broadcast_to(np.arange(p.shape[-1], dtype=p.dtype),
                                                  p.shape), axis=-1)
    return out


def conjugate(p: np.ndarray, by: np.ndarray) -> np.ndarray:
    """``by⁻¹ p by``: ``p`` with its points renamed by ``by``.

    >>> conjugate(np.array([1, 0, 2]), np.array([1, 2, 0])).tolist()
    [0, 2, 1]
    """
    return compose(compose(invert(by), p), by)


def commutator(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``p⁻¹ q⁻¹ p q``.

    >>> commutator(np.array([1, 0, 2]), np.array([0, 2, 1])).tolist()
    [1, 2, 0]
    """
    return compose(compose(compose(invert(p), invert(q)), p), q)


def power(p: np.ndarray, e: int) -> np.ndarray:
    """``p`` composed with itself ``e`` times (``e`` may be negative or huge),
    by repeated squaring.

    >>> power(np.array([1, 2, 3, 0]), 10**20 + 1).tolist()
    [1, 2, 3, 0]
    """
    base = invert(p) if e < 0 else p
    return repeated(base, abs(e), compose,
                    np.broadcast_to(identity(p.shape[-1]), p.shape).copy())


def cycle_labels(p: np.ndarray) -> np.ndarray:
    """For each point, the least point of its cycle, by pointer jumping
    (``log2`` of the longest cycle rounds).

    >>> cycle_labels(np.array([2, 3, 0, 4, 1])).tolist()
    [0, 1, 0, 1, 1]
    """
    label = np.minimum(p, np.broadcast_to(identity(p.shape[-1]), p.shape))
    jump = p
    while True:
        # label[x]: the least of x's next 2^k points; jump: p^(2^k)
        nxt = np.minimum(label, compose(jump, label))
        if np.array_equal(nxt, label):
            return label
        label = nxt
        jump = compose(jump, jump)


def cycle_lengths(p: np.ndarray) -> np.ndarray:
    """For each point, the length of its cycle.

    >>> cycle_lengths(np.array([[1, 0, 2], [1, 2, 0]])).tolist()
    [[2, 2, 1], [3, 3, 3]]
    """
    labels = cycle_labels(p)
    if p.ndim == 1:
        return np.bincount(labels, minlength=p.shape[-1])[labels]
    n = p.shape[-1]
    rows = np.arange(p.shape[0])[:, None] * n
    counts = np.bincount((labels + rows).ravel(), minlength=p.size).reshape(p.shape)
    return np.take_along_axis(counts, labels, axis=-1)


def cycle_counts(p: np.ndarray) -> np.ndarray | int:
    """The number of cycles (fixed points included) of each permutation."""
    labels = cycle_labels(p)
    return (labels == identity(p.shape[-1])).sum(axis=-1)


def parity(p: np.ndarray) -> np.ndarray | int:
    """0 for an even permutation, 1 for an odd one (row by row); a batch
    whose rows move few points is worked out on the moved points alone.

    >>> int(parity(np.array([1, 2, 0]))), int(parity(np.array([1, 0, 2])))
    (0, 1)
    >>> parity(np.array([[1, 0, 2, 3], [1, 2, 3, 0], [0, 1, 2, 3]])).tolist()
    [1, 1, 0]
    """
    if p.ndim == 2 and p.size > 4096:
        movers = p != identity(p.shape[1])
        if movers.sum() * 4 < p.size:
            rows, points = np.nonzero(movers)
            n = p.shape[1]
            keys = rows * n + points  # sorted: nonzero walks row by row
            nxt = np.searchsorted(keys, rows * n + p[rows, points])
            labels = cycle_labels(nxt)
            cycles = np.bincount(rows, weights=labels == np.arange(len(nxt)),
                                 minlength=len(p))
            return ((movers.sum(axis=1) - cycles.astype(INDEX)) % 2).astype(INDEX)
    return (p.shape[-1] - cycle_counts(p)) % 2


def order(p: np.ndarray) -> int:
    """The order of one permutation (the lcm of its cycle lengths; any size).

    >>> order(np.array([1, 0, 3, 4, 2]))
    6
    """
    return lcm(*(int(x) for x in np.unique(cycle_lengths(p)))) if p.size else 1


def orders(batch: np.ndarray) -> list[int]:
    """The order of each permutation of a batch (Python integers, any size).

    >>> orders(np.array([[1, 0, 3, 4, 2], [0, 1, 2, 3, 4]]))
    [6, 1]
    """
    lengths = cycle_lengths(batch)
    return [lcm(*(int(x) for x in np.unique(row))) for row in lengths]


def primes(n: int) -> list[int]:
    """The primes up to ``n`` (a sieve).

    >>> primes(20)
    [2, 3, 5, 7, 11, 13, 17, 19]
    """
    sieve = np.ones(max(n + 1, 2), dtype=bool)
    sieve[:2] = False
    for p in range(2, int(n ** 0.5) + 1):
        if sieve[p]:
            sieve[p * p::p] = False
    return np.nonzero(sieve)[0].tolist()


@lru_cache(maxsize=64)
def factorial(n: int) -> int:
    """``n!``, kept: a giant's order is asked for often (100000! takes a second).

    >>> factorial(5)
    120
    """
    return math_factorial(n)


def moved(p: np.ndarray) -> np.ndarray:
    """Whether each point moves (row by row)."""
    return p != identity(p.shape[-1])


class RandomElements:
    """Random elements of the group the generators span, by product
    replacement (Celler, Leedham-Green, Murray, Niemeyer and O'Brien): a few
    slots, each step multiplying one slot by another (or, with many
    generators, by a generator) into an accumulator.  Close to uniform after
    the warm-up; nothing here relies on uniformity for correctness.

    >>> gens = np.array([[1, 2, 3, 0], [1, 0, 2, 3]])
    >>> batch = RandomElements(gens, np.random.default_rng(1)).take(5)
    >>> batch.shape, sorted(batch[0].tolist())
    ((5, 4), [0, 1, 2, 3])
    """

    SLOTS = 10
    WARM_UP = 50

    def __init__(self, generators: np.ndarray, rng: np.random.Generator,
                 slots: int | None = None):
        self.gens = np.asarray(generators, dtype=INDEX)
        self.rng = rng
        k, n = self.gens.shape
        count = slots or self.SLOTS
        if k == 0:
            self.slots = np.tile(identity(n), (count, 1))
        else:
            self.slots = self.gens[[i % k for i in range(count)]].copy()
        self.accumulator = identity(n)
        for _ in range(self.WARM_UP):
            self._step()

    def _step(self) -> np.ndarray:
        r = len(self.slots)
        i = int(self.rng.integers(r))
        if len(self.gens) > r and self.rng.random() < 0.5:
            other = self.gens[int(self.rng.integers(len(self.gens)))]
        else:
            j = int(self.rng.integers(r - 1))
            other = self.slots[j + (j >= i)]
        if self.rng.random() < 0.5:
            other = invert(other)
        self.slots[i] = compose(self.slots[i], other) if self.rng.random() < 0.5 \
            else compose(other, self.slots[i])
        self.accumulator = compose(self.accumulator, self.slots[i])
        return self.accumulator

    def take(self, count: int) -> np.ndarray:
        """``count`` random elements, one a row."""
        return np.stack([self._step().copy() for _ in range(count)]) if count else \
            np.empty((0, self.gens.shape[1]), dtype=INDEX)


def components(n: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """For each of ``n`` points, the least point of its connected component in
    the graph with edges ``a[i] -- b[i]`` (hooking roots onto smaller roots,
    then pointer jumping, until no edge joins two roots).

    >>> components(6, np.array([0, 4, 2]), np.array([3, 5, 3])).tolist()
    [0, 1, 0, 0, 4, 4]
    """
    parent = identity(n)
    a, b = np.asarray(a, dtype=INDEX), np.asarray(b, dtype=INDEX)
    while True:
        pa, pb = parent[a], parent[b]
        differ = pa != pb
        if not differ.any():
            return parent
        # each root hooked onto a smaller one (which one, when several, does not matter)
        parent[np.maximum(pa[differ], pb[differ])] = np.minimum(pa[differ], pb[differ])
        while True:
            up = parent[parent]
            if np.array_equal(up, parent):
                break
            parent = up


def orbit_labels(generators: np.ndarray, n: int | None = None) -> np.ndarray:
    """For each point, the least point of its orbit under the generators.

    >>> orbit_labels(np.array([[1, 0, 2, 4, 3], [0, 1, 2, 3, 4]])).tolist()
    [0, 0, 2, 3, 3]
    """
    gens = np.asarray(generators, dtype=INDEX).reshape(-1, n or np.shape(generators)[-1])
    n = gens.shape[1]
    moves = gens != identity(n)
    g, x = np.nonzero(moves)
    return components(n, x, gens[g, x])
