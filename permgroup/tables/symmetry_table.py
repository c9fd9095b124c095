"""Depth tables over symmetry classes, with class sizes so the distribution stays exact.

A *symmetry* of a ranked state space is a permutation ``sigma`` of its ranks
that fixes the source and carries moves to moves: ``sigma(step(r, m)) ==
step(sigma(r), pi[m])`` for a relabelling ``pi`` of the moves.  Conjugating a
puzzle's states by a whole-puzzle symmetry (a rotation of the cube, a mirror
image with mirrored moves, a shift of the torus's board) is one; it keeps
depths.  So does *inversion* ``g -> g⁻¹`` in a group whose moves are closed
under inverses (Rokicki's and twsearch's "antisymmetry").

No closed formula for ``sigma`` on ranks is needed: since the space is
reached from the source by moves, ``sigma`` follows from ``pi`` alone by one
BFS (:func:`symmetry_map`); it is checked on every edge it crosses.  Classes
are the orbits of the group the maps generate (:func:`symmetry_classes`),
labelled by their least rank; the table (:func:`class_depths`) holds one depth
per class, and each class's size weights it in the distribution.

The class map (rank to class) is one 4-byte entry per rank at build time; the
table itself is one entry per class.  What each reduction buys, on each
puzzle, is measured by ``benchmarks/bench_scale.py``.

>>> from permgroup.spaces.product import FactorSpace
>>> from permgroup.spaces.space import Factor
>>> ring = FactorSpace([Factor("cell", 6, np.array([[1, 2, 3, 4, 5, 0], [5, 0, 1, 2, 3, 4]]))])
>>> mirror = symmetry_map(ring, 0, [1, 0])          # r -> -r swaps the two turns
>>> mirror.tolist()
[0, 5, 4, 3, 2, 1]
>>> classes = symmetry_classes([mirror])
>>> classes.representatives.tolist(), classes.sizes.tolist()
([0, 1, 2, 3], [1, 2, 2, 1])
>>> t = class_depths(ring, [0], classes)
>>> t.distribution(), t.depth(5)
([1, 2, 2, 1], 1)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from permgroup.spaces.space import rank_dtype
from permgroup.tables.packed import distinct
from permgroup.perm import Perm, compose, inverse
from permgroup.tables.store import UNSEEN


def move_relabelling(moves: Sequence[Perm], symmetry: Perm, normalize=None) -> list[int]:
    """``pi[m]``: the index of the move ``symmetry⁻¹ · moves[m] · symmetry``
    (normalized first when ``normalize`` is given, for tables of classes of
    elements); ``ValueError`` if it is not a move.

    >>> moves = [(1, 2, 0), (2, 0, 1)]                 # a turn and its inverse
    >>> move_relabelling(moves, (0, 2, 1))             # a mirror exchanges them
    [1, 0]
    """
    index = {tuple(m): k for k, m in enumerate(moves)}
    s_inv = inverse(symmetry)
    out = []
    for k, m in enumerate(moves):
        image = compose(compose(s_inv, m), symmetry)
        if normalize is not None:
            image = normalize(image)
        if tuple(image) not in index:
            raise ValueError(f"the symmetry takes move {k} to a permutation that is no move")
        out.append(index[tuple(image)])
    return out


def symmetry_map(space, source: int, relabelling: Sequence[int], check: int = 4096,
                 seed: int = 0) -> np.ndarray:
    """The rank permutation ``sigma`` with ``sigma(source) == source`` and
    ``sigma(step(r, m)) == step(sigma(r), relabelling[m])``, by BFS from the
    source; ``-1`` on ranks not reached.  ``ValueError`` if the relabelling is
    no symmetry (checked on ``check`` random edges, and on being a permutation).

    >>> from permgroup.spaces.product import FactorSpace
    >>> from permgroup.spaces.space import Factor
    >>> line = FactorSpace([Factor("cell", 3, np.array([[1, 2, 0], [2, 0, 1]]))])
    >>> symmetry_map(line, 0, [0, 1]).tolist()
    [0, 1, 2]
    >>> symmetry_map(line, 1, [1, 1])
    Traceback (most recent call last):
    ...
    ValueError: the move relabelling [1, 1] is not a symmetry of the space
    """
    size = space.size
    dtype = rank_dtype(size)
    sigma = np.full(size, -1, dtype=dtype)
    sigma[source] = source
    frontier = np.array([source], dtype=dtype)
    while len(frontier):
        fresh = []
        for m in range(space.n_moves):
            nxt = np.asarray(space.step(frontier, m)).astype(dtype, copy=False)
            new = sigma[nxt] == -1
            if new.any():
                sigma[nxt[new]] = space.step(sigma[frontier[new]], relabelling[m])
                fresh.append(nxt[new])
        frontier = distinct(np.concatenate(fresh)) if fresh else frontier[:0]
    reached = np.flatnonzero(sigma >= 0)
    rng = np.random.default_rng(seed)
    sample = reached[rng.integers(0, len(reached), min(check, len(reached)))].astype(dtype)
    ok = len(distinct(sigma[reached])) == len(reached)
    for m in range(space.n_moves):
        ok = ok and np.array_equal(sigma[space.step(sample, m)],
                                   space.step(sigma[sample], relabelling[m]))
    if not ok:
        raise ValueError(f"the move relabelling {list(relabelling)} is not a symmetry "
                         "of the space")
    return sigma


@dataclass
class SymmetryClasses:
    """``class_of[r]``: the class of rank ``r`` (``-1`` if unreached);
    ``representatives[c]``: its least rank; ``sizes[c]``: how many ranks it holds."""

    class_of: np.ndarray
    representatives: np.ndarray
    sizes: np.ndarray

    def __len__(self) -> int:
        return len(self.representatives)


def symmetry_classes(maps: Sequence[np.ndarray]) -> SymmetryClasses:
    """The orbits of the group generated by the rank permutations ``maps``
    (from :func:`symmetry_map`, or any other, e.g. inversion); ranks a map
    sends to ``-1`` are left out.

    >>> swap, turn = np.array([1, 0, 2, 3]), np.array([0, 1, 3, 2])
    >>> c = symmetry_classes([swap, turn])
    >>> c.class_of.tolist(), c.sizes.tolist()
    ([0, 0, 1, 1], [2, 2])
    """
    size = len(maps[0])
    dtype = maps[0].dtype
    reached = np.ones(size, dtype=bool)
    for sigma in maps:
        reached &= sigma >= 0
    labels = np.where(reached, np.arange(size, dtype=dtype), dtype.type(-1))
    safe = [np.where(reached, sigma, 0).astype(dtype) for sigma in maps]
    big = np.iinfo(dtype).max
    keyed = np.where(reached, labels, big)
    changed = True
    while changed:  # least label over each orbit, one generator step at a time
        changed = False
        for sigma in safe:
            lower = np.minimum(keyed, keyed[sigma])
            if not np.array_equal(lower, keyed):
                keyed, changed = lower, True
    representatives = distinct(keyed[reached])
    class_of = np.full(size, -1, dtype=dtype)
    class_of[reached] = np.searchsorted(representatives, keyed[reached]).astype(dtype)
    sizes = np.bincount(class_of[reached], minlength=len(representatives))
    return SymmetryClasses(class_of, representatives, sizes)


class ClassTable:
    """BFS depths of symmetry classes (one byte per class) and their sizes.

    >>> from permgroup.spaces.product import FactorSpace
    >>> from permgroup.spaces.space import Factor
    >>> ring = FactorSpace([Factor("cell", 4, np.array([[1, 2, 3, 0], [3, 0, 1, 2]]))])
    >>> classes = symmetry_classes([symmetry_map(ring, 0, [1, 0])])
    >>> t = class_depths(ring, [0], classes)
    >>> t.entries, t.distribution(), t.depths_of(np.array([0, 1, 2, 3])).tolist()
    (3, [1, 2, 1], [0, 1, 2, 1])
    """

    def __init__(self, classes: SymmetryClasses, depths: np.ndarray):
        self.classes = classes
        self.depths = depths

    @property
    def entries(self) -> int:
        return len(self.depths)

    def distribution(self) -> list[int]:
        """States (not classes) at each depth: class sizes summed."""
        reached = self.depths != UNSEEN
        counts = np.bincount(self.depths[reached], weights=self.classes.sizes[reached])
        return [int(c) for c in counts]

    def class_distribution(self) -> list[int]:
        """Classes at each depth."""
        return np.bincount(self.depths[self.depths != UNSEEN]).tolist()

    def depths_of(self, ranks: np.ndarray) -> np.ndarray:
        """Depths of ranks (``-1`` where unreached)."""
        c = self.classes.class_of[np.asarray(ranks)]
        d = self.depths[np.maximum(c, 0)].astype(np.int64)
        d[(c < 0) | (d == UNSEEN)] = -1
        return d

    def depth(self, rank: int) -> int:
        return int(self.depths_of(np.array([rank]))[0])


def class_depths(space, sources: Sequence[int], classes: SymmetryClasses,
                 also_from: np.ndarray | None = None) -> ClassTable:
    """BFS over classes: a class's neighbours are the classes one move from
    its representative.  When the classes merge elements with their inverses,
    a member's neighbours are not all one move from the representative (only
    its right neighbours are); pass the inversion map as ``also_from`` and the
    representative's inverse is stepped too, which covers the rest.

    >>> from permgroup.spaces.product import FactorSpace
    >>> from permgroup.spaces.space import Factor
    >>> ring = FactorSpace([Factor("cell", 5, np.array([[1, 2, 3, 4, 0], [4, 0, 1, 2, 3]]))])
    >>> classes = symmetry_classes([np.arange(5)])      # no symmetry: one rank per class
    >>> class_depths(ring, [0], classes).distribution()
    [1, 2, 2]
    """
    n = len(classes)
    depths = np.full(n, UNSEEN, dtype=np.uint8)
    frontier = distinct(classes.class_of[np.asarray(sources)])
    depths[frontier] = 0
    depth = 0
    while len(frontier):
        ranks = classes.representatives[frontier]
        starts = [ranks] if also_from is None else [ranks, also_from[ranks]]
        fresh = []
        for start in starts:
            for m in range(space.n_moves):
                nxt = classes.class_of[space.step(start, m)]
                nxt = nxt[depths[nxt] == UNSEEN]
                depths[nxt] = depth + 1
                fresh.append(nxt)
        frontier = distinct(np.concatenate(fresh))
        depth += 1
    return ClassTable(classes, depths)


def conjugation_map(space, symmetry: Perm, block: int = 1 << 18) -> np.ndarray:
    """Rank of the class of ``symmetry⁻¹ · g · symmetry`` for every rank ``g``
    of an :class:`permgroup.spaces.element.ElementSpace`, normalized again: unlike
    :func:`symmetry_map` this serves symmetries that move the normalization's
    anchor (whose relabelling of the moves depends on the state), such as all
    48 symmetries of a cube held by one corner.

    >>> from permgroup.perm import from_cycles
    >>> from permgroup.puzzle import Puzzle
    >>> from permgroup.spaces.element import ElementSpace
    >>> a, b = from_cycles([(0, 1, 2)], 4), from_cycles([(1, 2, 3)], 4)
    >>> space = ElementSpace(Puzzle("p", 4, {"a": a, "b": b},
    ...                             pieces={"dot": tuple((i,) for i in range(4))}))
    >>> swap = from_cycles([(0, 3)], 4)                # exchanges a and b by conjugation
    >>> sigma = conjugation_map(space, swap)
    >>> int(sigma[space.rank(a)]) == space.rank(b)
    True
    """
    ranking, normalizer = space.ranking, space.normalizer
    degree = space.puzzle.degree
    s = np.asarray(symmetry, dtype=np.int16)
    s_inv = np.asarray(inverse(symmetry), dtype=np.int64)
    identity = tuple(range(degree))
    rotation = np.array([r if r is not None else identity for r in normalizer.rotation_at],
                        dtype=np.int16)
    size = ranking.size
    out = np.empty(size, dtype=rank_dtype(size))
    for lo in range(0, size, block):
        g = ranking.elements(np.arange(lo, min(size, lo + block)), degree)
        image = s[g[:, s_inv]]                        # s⁻¹ g s, "g[s⁻¹[i]] then s"
        turn = rotation[image[:, normalizer.anchor]]  # back to the anchor: then rotate
        image = np.take_along_axis(turn, image.astype(np.int64), axis=1)
        out[lo:lo + len(g)] = ranking.ranks_of(image)
    return out


def colouring_symmetry_map(space, cells: Perm, block: int = 1 << 20) -> np.ndarray:
    """:func:`symmetry_map` computed directly for a space of colourings
    (:class:`permgroup.spaces.colouring.ColouringSpace`): the cells are permuted by
    ``cells`` and the colours renamed so that the solved colouring stays
    solved; ``ValueError`` if no renaming does that.  One pass over the ranks,
    no BFS.

    >>> from permgroup.spaces.colouring import ColouringSpace
    >>> s = ColouringSpace("aabb", {"rot": (1, 2, 3, 0), "rot'": (3, 0, 1, 2)})
    >>> sigma = colouring_symmetry_map(s, (2, 3, 0, 1))   # half a turn, then a <-> b
    >>> [s.decode(w) for w in s.unrank(sigma[s.rank(np.array([s.encode("abab")]))])]
    [('b', 'a', 'b', 'a')]
    """
    ranking = space.ranking
    solved = ranking.unpack(np.array([space.solved], dtype=space.dtype))[0]
    where = np.asarray(inverse(cells))
    moved = solved[where]
    rename = np.full(len(space.counts), -1, dtype=np.int64)
    for old, new in zip(moved.tolist(), solved.tolist()):
        if rename[old] not in (-1, new):
            raise ValueError("the cell permutation does not keep the solved colouring, "
                             "up to renaming colours")
        rename[old] = new
    rename = rename.astype(np.uint8)
    size = space.size
    out = np.empty(size, dtype=rank_dtype(size))
    for lo in range(0, size, block):
        hi = min(size, lo + block)
        words = space.states_of(lo, hi, np.arange(hi - lo))
        colours = rename[ranking.unpack(words)[:, where]]
        out[lo:hi] = space.rank(ranking.pack(colours))
    return out


def inversion_map(ranking, identity: int, block: int = 1 << 20) -> np.ndarray:
    """Rank of ``g⁻¹`` for every rank ``g`` of an element ranking
    (:class:`permgroup.spaces.element.ElementRanking`), by its ``p⁻¹ q`` ranks.

    >>> from permgroup.spaces.element import ElementSpace
    >>> from permgroup.puzzle import Puzzle
    >>> from permgroup.perm import from_cycles
    >>> p = Puzzle("tri", 3, {"T": from_cycles([(0, 1, 2)], 3)},
    ...            pieces={"dot": ((0,), (1,), (2,))})
    >>> r = ElementSpace(p).ranking
    >>> inv = inversion_map(r, r.rank((0, 1, 2)))
    >>> int(inv[r.rank((1, 2, 0))]) == r.rank((2, 0, 1))
    True
    """
    size = ranking.size
    dtype = rank_dtype(size)
    out = np.empty(size, dtype=dtype)
    for lo in range(0, size, block):
        p = np.arange(lo, min(size, lo + block), dtype=np.int64)
        out[lo:lo + len(p)] = ranking.quotient_ranks(p, np.full(len(p), identity))
    return out
