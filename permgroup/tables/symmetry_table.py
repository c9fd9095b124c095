"""Depth tables over symmetry classes: classes of ranks weighted by their sizes, so
the distribution stays exact, and a subgroup chain's stage in rows of classes.

A *symmetry* of a ranked state space is a permutation ``sigma`` of its ranks
that fixes the source and carries moves to moves: ``sigma(step(r, m)) ==
step(sigma(r), pi[m])`` for a relabelling ``pi`` of the moves.  Conjugating a
puzzle's states by a whole-puzzle symmetry (a rotation of the cube, a mirror
image with mirrored moves, a shift of the torus's board) is one; it keeps
depths.  So does *inversion* ``g -> g⁻¹`` in a group whose moves are closed
under inverses (Rokicki's and twsearch's "antisymmetry").

Since the space is reached from the source by moves, ``sigma`` follows from
``pi`` alone by one BFS (:func:`symmetry_maps`).  Classes are the orbits of the
maps (:func:`symmetry_classes`); the table (:func:`class_depths`) holds a depth
a class, weighted by its size in the distribution (``benchmarks/bench_scale.py``
measures what each reduction buys).

*Rows of classes* (:func:`load_symmetric_table`, Kociemba's phase-1 table,
generically): a whole-puzzle symmetry ``r`` with every ``r⁻¹ m r`` a move of a
subgroup chain's stage and ``r⁻¹ H r = H`` for its target subgroup ``H``
conjugates a coset ``H g`` to ``H r⁻¹ g r``, as far from ``H``, so the stage's
exact table need only hold one *row* per class.  The stage's digits split into
an *inner* digit (the 3x3x3's corner twist) and the *row* digits (edge flip
and middle-layer placement, 1,013,760 values).  A digit group's conjugation
table ``C[s, v]`` comes from :func:`symmetry_maps` with every edge checked: a
conflict means the group's conjugate is not a function of its own digits, and
the split is refused.  A state is stored as ``(class of its rows, inner digit
conjugated like the rows)``: 140,908,410 entries for the cube (64,430 classes
under the 16 symmetries keeping the U-D axis) instead of 2,217,093,120.

When a symmetry besides the identity fixes a class's representative (a
symmetric class), several of the class's entries are conjugate positions:
every look-up, and the BFS, reads the least of them (the *canonical* cell),
and the others are given its depth at the end.  Without that, a position
reached through one of them would be found a level late.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod

import numpy as np

from permgroup.cache import cached_arrays, table_file
from permgroup.levels import DenseKeys, levels
from permgroup.perm import Perm, closure, compose, inverse
from permgroup.spaces.digits import DigitSpace
from permgroup.spaces.product import FactorSpace
from permgroup.spaces.space import ROW_PULL, GraphSpace, rank_dtype
from permgroup.tables.bfs import bfs
from permgroup.tables.colouring_table import renamed
from permgroup.tables.packed import distinct
from permgroup.tables.store import UNSEEN, depth_distribution

#: the row digits together may have at most this many values
ROW_LIMIT = 1 << 22
#: a table of more entries than this (classes times inner values) is not built
ENTRY_LIMIT = 1 << 28


def conjugate_moves(moves: Sequence[Sequence[int]], symmetries: Sequence[Perm]
                    ) -> list[list[int]] | None:
    """For each symmetry ``r``, the index of the move ``r⁻¹ m r`` for each move
    ``m``; ``None`` if some conjugate is not a move.

    >>> conjugate_moves([(1, 2, 0), (2, 0, 1)], [(0, 2, 1)])   # a mirror swaps them
    [[1, 0]]
    """
    out = [_move_indices(moves, [compose(compose(inverse(tuple(r)), m), tuple(r))
                                 for m in moves]) for r in symmetries]
    return None if None in out else out


def _move_indices(moves: Sequence[Sequence[int]], perms: Sequence[Sequence[int]]
                  ) -> list[int] | None:
    """The index among ``moves`` of each of ``perms``; ``None`` if one is no move."""
    index = {tuple(int(x) for x in m): j for j, m in enumerate(moves)}
    found = [index.get(tuple(int(x) for x in p)) for p in perms]
    return None if None in found else found


def inverse_moves(moves: Sequence[Sequence[int]]) -> list[int] | None:
    """The index of each move's inverse among ``moves``; ``None`` if one has none.

    >>> inverse_moves([(1, 2, 0), (2, 0, 1), (1, 0, 2)]), inverse_moves([(1, 2, 0)])
    ([1, 0, 2], None)
    """
    return _move_indices(moves, [inverse(m) for m in moves])


def symmetry_maps(space, source: int, relabellings: Sequence[Sequence[int]]) -> np.ndarray:
    """For each relabelling ``pi`` (a permutation of the moves), the rank map
    ``sigma`` of the module docstring (``-1`` on ranks not reached).
    ``ValueError`` if a relabelling is no symmetry, checked on every edge.

    The maps of relabellings that generate the others are found by one BFS
    (:func:`_checked_maps`); the rest are their products (a symmetry is
    known by its relabelling, and products of symmetries are symmetries), a
    gather each: the 16 symmetries of the 3x3x3's phase 1 from 3.

    >>> from permgroup.spaces.product import FactorSpace
    >>> from permgroup.spaces.space import Factor
    >>> line = FactorSpace([Factor("cell", 3, np.array([[1, 2, 0], [2, 0, 1]]))])
    >>> symmetry_maps(line, 0, [[0, 1], [1, 0]]).tolist()
    [[0, 1, 2], [0, 2, 1]]
    >>> symmetry_maps(line, 1, [[1, 1]])
    Traceback (most recent call last):
    ...
    ValueError: the move relabelling [1, 1] is not a symmetry of the space
    """
    wanted = [tuple(int(m) for m in pi) for pi in relabellings]
    moves = range(space.n_moves)
    products = _relabelling_products(wanted, space.n_moves)
    if products is None:  # (not permutations, or too large a group: each one checked)
        return _checked_maps(space, source, wanted)
    generators, made = products
    maps = dict(zip(generators, _checked_maps(space, source, generators)))
    reached = maps[generators[0]] >= 0
    maps[tuple(moves)] = np.where(reached, np.arange(space.size), -1)
    for pi, (g, x) in made.items():  # pi = g after x: sigma_pi = sigma_g(sigma_x)
        if pi not in maps:
            inner = maps[x]
            maps[pi] = np.where(reached, maps[g][np.maximum(inner, 0)], -1)
    return np.stack([maps[pi] for pi in wanted])


def _relabelling_products(wanted: list[tuple[int, ...]], n_moves: int, most: int = 1024
                          ) -> tuple[list[tuple[int, ...]], dict] | None:
    """Generators among ``wanted`` (the first not yet a product of those before
    it, in order) and, for every product of them, how it was made: ``pi ->
    (g, x)`` with ``pi[m] = g[x[m]]``, ``x`` made before; ``None`` when one is
    no permutation or the products are more than ``most``.

    >>> gens, made = _relabelling_products([(0, 1, 2), (1, 2, 0), (2, 0, 1)], 3)
    >>> gens, made
    ([(1, 2, 0)], {(1, 2, 0): ((1, 2, 0), (0, 1, 2)), (2, 0, 1): ((1, 2, 0), (1, 2, 0))})
    """
    identity = tuple(range(n_moves))
    if any(sorted(pi) != list(identity) for pi in wanted):
        return None
    generators: list[tuple[int, ...]] = []
    made: dict[tuple[int, ...], tuple] = {identity: (identity, identity)}
    for pi in wanted:
        if pi in made:
            continue
        generators.append(pi)
        todo = list(made)
        while todo:  # close the products under every generator so far
            x = todo.pop()
            for g in generators:
                product = tuple(g[i] for i in x)
                if product not in made:
                    made[product] = (g, x)
                    todo.append(product)
                    if len(made) > most:
                        return None
    if not generators:
        generators = [identity]
    del made[identity]
    return generators, made


def _checked_maps(space, source: int, relabellings: Sequence[Sequence[int]]) -> np.ndarray:
    """:func:`symmetry_maps` of every relabelling by one BFS from the source
    (the levels generator, :func:`permgroup.levels.levels`), every edge checked."""
    sigma = np.full((len(relabellings), space.size), -1, dtype=np.int64)
    sigma[:, source] = source
    frontier = np.array([source], dtype=np.int64)
    grown: list[np.ndarray] = []  # the images of the frontier, one array a move

    def children(states: np.ndarray):
        grown[:] = [np.asarray(space.step(states, m)).astype(np.int64, copy=False)
                    for m in range(space.n_moves)]
        n = len(states)
        return (np.concatenate(grown), np.tile(np.arange(n), space.n_moves),
                np.repeat(np.arange(space.n_moves), n))

    def settle(frontier: np.ndarray, level) -> None:
        """The maps on the level's new ranks, then every edge from the frontier checked."""
        for m, nxt in enumerate(grown):
            images = np.stack([space.step(sigma[s, frontier], pi[m])
                               for s, pi in enumerate(relabellings)])
            if level is not None:
                reached = level.move == m
                sigma[:, level.states[reached]] = images[:, level.parent[reached]]
            bad = np.flatnonzero((sigma[:, nxt] != images).any(axis=1))
            if len(bad):
                raise ValueError(f"the move relabelling {list(relabellings[bad[0]])} is not a "
                                 "symmetry of the space")

    for level in levels(frontier, children, seen=DenseKeys(space.size, frontier)):
        settle(frontier, level)
        frontier = level.states
    settle(frontier, None)  # the last frontier's edges, which found nothing new
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
    (from :func:`symmetry_maps`, or any other, e.g. inversion); ranks a map
    sends to ``-1`` are left out.

    >>> swap, turn = np.array([1, 0, 2, 3]), np.array([0, 1, 3, 2])
    >>> c = symmetry_classes([swap, turn])
    >>> c.class_of.tolist(), c.sizes.tolist()
    ([0, 0, 1, 1], [2, 2])
    """
    size, dtype = len(maps[0]), maps[0].dtype
    reached = maps[0] >= 0
    for sigma in maps[1:]:
        reached &= sigma >= 0
    safe = [np.where(reached, sigma, 0).astype(dtype) for sigma in maps]
    keyed = np.where(reached, np.arange(size, dtype=dtype), np.iinfo(dtype).max)
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
    """BFS depths of symmetry classes (a byte each) and their sizes (see
    :func:`class_depths`'s example)."""

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
        return depth_distribution(self.depths)

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
    """BFS over classes: a class's neighbours are the classes one move from its
    representative.  When the classes merge elements with their inverses, pass
    the inversion map as ``also_from``: the representative's inverse is stepped
    too, which reaches the members' left neighbours.

    >>> from permgroup.spaces.product import FactorSpace
    >>> from permgroup.spaces.space import Factor
    >>> ring = FactorSpace([Factor("cell", 6, np.array([[1, 2, 3, 4, 5, 0], [5, 0, 1, 2, 3, 4]]))])
    >>> classes = symmetry_classes(symmetry_maps(ring, 0, [[1, 0]]))  # r -> -r swaps the turns
    >>> classes.representatives.tolist(), classes.sizes.tolist()
    ([0, 1, 2, 3], [1, 2, 2, 1])
    >>> t = class_depths(ring, [0], classes)
    >>> t.entries, t.distribution(), t.depth(5), t.depths_of(np.array([2, 4])).tolist()
    (4, [1, 2, 2, 1], 1, [2, 2])
    """
    moves = space.n_moves

    def step(ranks: np.ndarray, m: int) -> np.ndarray:
        start = classes.representatives[ranks]
        if m >= moves:
            start = also_from[start]
        return classes.class_of[space.step(start, m % moves)]

    over = GraphSpace(len(classes), moves * (1 if also_from is None else 2), step)
    sources = distinct(classes.class_of[np.asarray(sources)])
    return ClassTable(classes, bfs(over, sources, top_down_only=True).depths)


def conjugation_map(space, symmetry: Perm, by_pieces: bool = True) -> np.ndarray:
    """Rank of the class of ``symmetry⁻¹ · g · symmetry`` for every rank ``g`` of an
    :class:`~permgroup.spaces.element.ElementSpace`, normalized again: this serves
    symmetries that move the anchor (whose relabelling of the moves depends on
    the state, so :func:`symmetry_maps` cannot), such as all 48 of a cube.

    The work is done on pieces (a corner a column, not three stickers) when the
    symmetry and the rotations carry each kind's pieces onto its own
    (:func:`_piece_images`); else, or with ``by_pieces=False``, on stickers.

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
    >>> np.array_equal(sigma, conjugation_map(space, swap, by_pieces=False))
    True
    """
    images = _piece_images(space, symmetry) if by_pieces else None
    if images is None:
        images = _sticker_images(space, symmetry)
    return _rank_map(space.ranking.size, 1 << 18, images)


def _sticker_images(space, symmetry: Perm) -> Callable[[int, int], np.ndarray]:
    """:func:`conjugation_map`'s block function on whole elements (rows of stickers)."""
    ranking, normalizer = space.ranking, space.normalizer
    degree = space.puzzle.degree
    s = np.asarray(symmetry, dtype=np.int16)
    s_inv = np.asarray(inverse(symmetry), dtype=np.int64)
    rotation = np.array([r or tuple(range(degree)) for r in normalizer.rotation_at],
                        dtype=np.int16)

    def images(lo: int, hi: int) -> np.ndarray:
        image = s[ranking.elements(np.arange(lo, hi), degree)[:, s_inv]]  # "g[s⁻¹[i]] then s"
        turn = rotation[image[:, normalizer.anchor]]  # back to the anchor: then rotate
        return ranking.ranks_of(np.take_along_axis(turn, image.astype(np.int64), axis=1))

    return images


def _place_map(pieces: Sequence[Sequence[int]], perm: Perm) -> np.ndarray | None:
    """Where ``perm`` sends each place of ``pieces`` (place ``size * i + u``:
    sticker ``u`` of piece ``i``), as a place; ``None`` if it leaves them.

    >>> _place_map([(0, 1, 2), (3, 4, 5)], (4, 3, 5, 0, 1, 2)).tolist()
    [4, 3, 5, 0, 1, 2]
    >>> print(_place_map([(0, 1)], (2, 1, 0)))
    None
    """
    place = {x: len(piece) * i + u for i, piece in enumerate(pieces) for u, x in enumerate(piece)}
    if any(len(p) != len(pieces[0]) for p in pieces):
        return None
    out = [place.get(perm[x]) if x < len(perm) else None for p in pieces for x in p]
    return None if None in out else np.array(out, dtype=np.int32)


def _piece_images(space, symmetry: Perm) -> Callable[[int, int], np.ndarray] | None:
    """:func:`conjugation_map`'s block function on pieces, or ``None`` where the
    symmetry or a rotation does not map each kind's pieces onto its own
    (:func:`_place_map`).  As the rank reads only where each piece's first
    sticker goes, only those places are followed, each through small tables:
    back by the symmetry, moved by the element, forward by the symmetry, then
    by the rotation that brings the anchor's place home."""
    from permgroup.spaces.element import _permutations

    ranking, normalizer, puzzle = space.ranking, space.normalizer, space.puzzle
    pieces = {kind: [tuple(p) for p in ps] for kind, ps in (puzzle.pieces or {}).items()}
    anchor_kind = next((k for k, ps in pieces.items() for p in ps if normalizer.anchor in p),
                       None)
    if anchor_kind is None or any(c.count > 8 for c in ranking.coordinates):
        return None  # (all permutations of nine or more pieces are too many to tabulate)
    identity = tuple(range(puzzle.degree))
    anchor_stickers = [x for p in pieces[anchor_kind] for x in p]
    kinds = list(dict.fromkeys([c.kind for c in ranking.coordinates] + [anchor_kind]))
    tables = {}
    for kind in kinds:
        size, count = len(pieces[kind][0]), len(pieces[kind])
        places = size * count
        back, forward = _place_map(pieces[kind], inverse(symmetry)), _place_map(pieces[kind], symmetry)
        rotations = [_place_map(pieces[kind], normalizer.rotation_at[x] or identity)
                     for x in anchor_stickers]
        if back is None or forward is None or any(r is None for r in rotations):
            return None
        # turned[u, v]: the place ``u`` stickers on from place ``v`` in the same piece
        v = np.arange(places)
        turned = (v // size * size + (v % size + np.arange(size)[:, None]) % size).astype(np.int32)
        # first[i, v]: the element sends piece back[i]'s first sticker's piece's first
        # sticker to v; the symmetry's inverse took piece i's first sticker u on from it
        start = back[np.arange(count) * size]
        first = forward[turned[start % size]]  # (count, places)
        tables[kind] = (size, start // size, first.ravel(),
                        np.stack(rotations).ravel(), places, turned)
    anchor_place = anchor_stickers.index(normalizer.anchor)
    anchor_piece, anchor_turn = divmod(anchor_place, tables[anchor_kind][0])
    columns = {}  # each ranked coordinate's slots among its kind's pieces, and back
    for c in ranking.coordinates:
        index = np.array([pieces[c.kind].index(tuple(slot)) for slot in c.slots])
        home = np.full(len(pieces[c.kind]), -1)
        home[index] = np.arange(len(index))
        perms, inverse_rank, _ = _permutations(c.count)
        size = tables[c.kind][0]
        weights = c.modulus ** np.arange(c.count, dtype=np.int64)
        if c.twist_invariant:
            weights[-1] = 0
        # by permutation rank, each piece's slot; by twist rank, each slot's first place
        columns[c.kind] = (index, home, perms[inverse_rank].astype(np.intp),
                           (index * size + c.twist_unranks(np.arange(c.twist_size))
                            ).astype(np.int32), weights)

    def images(lo: int, hi: int) -> np.ndarray:
        n = hi - lo
        moved = {}  # each kind's element: the place each piece's first sticker goes
        for kind in kinds:
            size, count = tables[kind][0], len(pieces[kind])
            moved[kind] = np.tile(np.arange(0, size * count, size, dtype=np.int32), (n, 1))
        for c, part in zip(ranking.coordinates, ranking.split(np.arange(lo, hi))):
            index, _, wheres, places, _ = columns[c.kind]
            perm_rank, twist_rank = np.divmod(part, c.twist_size)
            # the place of each slot's piece's first sticker, read in each piece's slot
            moved[c.kind][:, index] = np.take_along_axis(places[twist_rank], wheres[perm_rank],
                                                         axis=1)
        conjugated = {}
        for kind in kinds:
            size, pick, first, _, places, _ = tables[kind]
            conjugated[kind] = first[moved[kind][:, pick] + (np.arange(len(pick)) * places)]
        anchor_size, _, _, _, anchor_places, turned = tables[anchor_kind]
        rotation = turned[anchor_turn][conjugated[anchor_kind][:, anchor_piece]]
        parts = []
        for coord in ranking.coordinates:
            index, home, _, _, weights = columns[coord.kind]
            size, _, _, rotations, places, _ = tables[coord.kind]
            final = rotations[rotation[:, None].astype(np.int64) * places
                              + conjugated[coord.kind][:, index]]
            where = home[final // size]
            if (where < 0).any():
                raise ValueError("the conjugate of an element is outside the ranked group")
            perm_rank = _permutations(coord.count)[1][coord._perm_ranks(where)]
            # each piece's turn weighed by its slot's twist digit (none for a dropped one)
            twist = (weights[where] * (final % size)).sum(axis=1)
            parts.append(perm_rank * coord.twist_size + twist)
        return ranking._join(parts)

    return images


def colouring_symmetry_map(space, cells: Perm) -> np.ndarray:
    """:func:`symmetry_maps` of a :class:`~permgroup.spaces.colouring.ColouringSpace`
    in one pass over the ranks: the cells permuted by ``cells``, the colours
    renamed so that solved stays solved (``ValueError`` if no renaming does).

    >>> from permgroup.spaces.colouring import ColouringSpace
    >>> s = ColouringSpace("aabb", {"rot": (1, 2, 3, 0), "rot'": (3, 0, 1, 2)})
    >>> sigma = colouring_symmetry_map(s, (2, 3, 0, 1))   # half a turn, then a <-> b
    >>> [s.decode(w) for w in s.unrank(sigma[s.rank(np.array([s.encode("abab")]))])]
    [('b', 'a', 'b', 'a')]
    """
    ranking = space.ranking
    solved = ranking.unpack(np.array([space.solved], dtype=space.dtype))[0]
    where = np.asarray(inverse(cells))
    rename = renamed(range(len(space.counts)), solved[where].tolist(), solved.tolist())
    if rename is None:
        raise ValueError("the cell permutation does not keep the solved colouring, "
                         "up to renaming colours")
    rename = np.array(rename, dtype=np.uint8)

    def images(lo: int, hi: int) -> np.ndarray:
        words = space.states_of(lo, hi, np.arange(hi - lo))
        return space.rank(ranking.pack(rename[ranking.unpack(words)[:, where]]))

    return _rank_map(space.size, 1 << 20, images)


def inversion_map(ranking, identity: int) -> np.ndarray:
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
    return _rank_map(ranking.size, 1 << 20, lambda lo, hi: ranking.quotient_ranks(
        np.arange(lo, hi, dtype=np.int64), np.full(hi - lo, identity)))


def _rank_map(size: int, block: int, images: Callable[[int, int], np.ndarray]) -> np.ndarray:
    """The ranks ``images(lo, hi)`` gives each block of ranks: a block at a
    time, so that only one block's states are unranked at once."""
    out = np.empty(size, dtype=rank_dtype(size))
    for lo in range(0, size, block):
        hi = min(size, lo + block)
        out[lo:hi] = images(lo, hi)
    return out


def stage_symmetries(symmetries: Sequence[Perm], moves: Sequence[Sequence[int]],
                     kept: Sequence[Sequence[int]], degree: int) -> list[Perm]:
    """The elements of the group ``symmetries`` generate that carry the stage's
    ``moves`` onto its moves and the target subgroup's generators ``kept`` onto
    its generators; identity first.

    >>> stage_symmetries([(0, 2, 1)], [(1, 2, 0), (2, 0, 1)], [], 3)
    [(0, 1, 2), (0, 2, 1)]
    """
    return [r for r in closure([tuple(r) for r in symmetries], degree)
            if conjugate_moves(moves, [r]) is not None and conjugate_moves(kept, [r]) is not None]


#: the arrays of a :class:`SymmetricTable`, in the order its cache files keep them
PARTS = ("depths", "class_of", "sym_of", "inner_conj", "layout", "symmetric", "canonical")


@dataclass(eq=False)
class SymmetricTable:
    """Exact depths of a stage's cosets over classes of its row digits (see the
    module docstring).  Calling it on a ``(k, N)`` batch of digit states gives
    their exact depths (a :class:`~permgroup.search.dfs.Bound`).  ``layout`` is
    the inner digit, then the row digits; ``inner_conj[s, t]`` is inner value
    ``t`` conjugated by symmetry ``s``; ``symmetric[c]`` is the row of
    ``canonical`` of a symmetric class (``-1`` for the others)."""

    depths: np.ndarray | None
    class_of: np.ndarray
    sym_of: np.ndarray
    inner_conj: np.ndarray
    layout: np.ndarray
    symmetric: np.ndarray
    canonical: np.ndarray
    sizes: Sequence[int]

    def __post_init__(self):
        self.inner, self.rows = int(self.layout[0]), [int(x) for x in self.layout[1:]]
        self.row_weights = [prod(self.sizes[j] for j in self.rows[i + 1:])
                            for i in range(len(self.rows))]
        self.inner_size = self.inner_conj.shape[1]
        self._conjugates = self.inner_conj.reshape(-1)  # [s * inner_size + t]

    @property
    def entries(self) -> int:
        return len(self.depths)

    def index(self, states: np.ndarray) -> np.ndarray:
        raw = np.zeros(states.shape[1], dtype=np.int64)
        for i, w in zip(self.rows, self.row_weights):
            raw += states[i].astype(np.int64) * w
        cls = self.class_of[raw].astype(np.int64)
        s = self.sym_of[raw].astype(np.int64)
        cell = self._conjugates[s * self.inner_size + states[self.inner]]
        return cls * self.inner_size + self.canonical_cells(cls, cell)

    def __call__(self, states: np.ndarray) -> np.ndarray:
        """The exact moves from each state to the stage's goal (``UNSEEN`` where
        none leads there)."""
        return self.depths[self.index(states)]

    def distribution(self) -> list[int]:
        """Entries per depth (classes, not positions)."""
        return depth_distribution(self.depths)

    def canonical_cells(self, classes: np.ndarray, cells: np.ndarray) -> np.ndarray:
        """The canonical cell of each class's ``cells`` (one or a row each): the
        least its representative's stabilizer conjugates it to."""
        which = self.symmetric[classes]
        fix = which >= 0
        if not fix.any():
            return cells
        cells = cells.copy()
        cells[fix] = self.canonical[which[fix].reshape((-1,) + (1,) * (cells.ndim - 1)),
                                    cells[fix]]
        return cells


class _ClassRows:
    """The table's states as rows (a class) of inner cells, for
    :func:`permgroup.tables.bfs.bfs`."""

    capabilities = frozenset({ROW_PULL})

    def __init__(self, table: SymmetricTable, row_step: Callable, inner_table: np.ndarray,
                 inverse_move: list[int], reps: np.ndarray):
        self.table = table
        self.n_moves = len(inverse_move)
        self.inverse = inverse_move
        self.outer_size, self.inner_size = len(reps), table.inner_size
        self.size = self.outer_size * self.inner_size
        images = np.stack([row_step(reps, m) for m in range(self.n_moves)])
        self.row_next = table.class_of[images].astype(np.int32)
        self.row_sym = table.sym_of[images].astype(np.int32)
        # cell t of a row, moved by m into a row reached with symmetry s: cell cells[m, s, t]
        self.cells = np.stack([table.inner_conj[:, inner_table[m]] for m in range(self.n_moves)]
                              ).astype(np.intp)

    def step(self, ranks: np.ndarray, m: int) -> np.ndarray:
        ranks = np.asarray(ranks, dtype=np.int64)
        row, cell = np.divmod(ranks, self.inner_size)
        nxt = self.row_next[m][row].astype(np.int64)
        return nxt * self.inner_size + self.table.canonical_cells(
            nxt, self.cells[m, self.row_sym[m][row], cell])

    def back_step(self, ranks: np.ndarray, m: int) -> np.ndarray:
        return self.step(ranks, self.inverse[m])

    def row_pull(self, values: np.ndarray, first: int, last: int, m: int) -> np.ndarray:
        back = self.inverse[m]
        nxt = self.row_next[back][first:last]
        sym = self.row_sym[back][first:last]
        out = np.empty((len(nxt), self.inner_size), dtype=values.dtype)
        # rows reached with the same symmetry share one permutation of cells:
        # a column gather per symmetry instead of an index matrix per row
        special = self.table.symmetric[nxt] >= 0
        for s in np.unique(sym):
            rows = np.flatnonzero((sym == s) & ~special)
            if len(rows):
                out[rows] = values[nxt[rows]][:, self.cells[back, s]]
        rows = np.flatnonzero(special)  # classes a symmetry fixes: canonical cells
        if len(rows):
            cells = self.table.canonical_cells(nxt[rows], self.cells[back][sym[rows]])
            out[rows] = np.take_along_axis(values[nxt[rows]], cells, axis=1)
        return out


def build_symmetric_table(space: DigitSpace, goal: Sequence[int],
                          move_arrays: Sequence[np.ndarray], symmetries: Sequence[Perm],
                          progress: Callable[[int, int], None] | None = None
                          ) -> SymmetricTable | None:
    """The exact table of a stage (digits ``space``, moves ``move_arrays``, goal
    digits ``goal``) over classes under the group ``symmetries`` (see
    :func:`stage_symmetries`), the inner digit the largest that works; ``None``
    when no split works (:func:`load_symmetric_table` shows one)."""
    degree = len(move_arrays[0])
    symmetries = list(dict.fromkeys([tuple(range(degree))] + [tuple(r) for r in symmetries]))
    renames = conjugate_moves(move_arrays, symmetries)
    inverse_move = inverse_moves(move_arrays)
    if renames is None or inverse_move is None:
        return None
    sizes = space.sizes
    for inner in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
        rows = [i for i in range(len(sizes)) if i != inner]
        row_values = prod(sizes[i] for i in rows)
        # too many entries even if every class were as large as can be
        entries = row_values // len(symmetries) * sizes[inner]
        if not rows or row_values > ROW_LIMIT or entries > ENTRY_LIMIT:
            continue
        inner_conj = _conjugation_table(space, [inner], goal, renames)
        if inner_conj is None or (inner_conj < 0).any():
            continue
        row_conj = _conjugation_table(space, rows, goal, renames)
        if row_conj is not None:
            return _build(space, goal, inner, rows, row_conj, inner_conj, inverse_move, progress)
    return None


def _conjugation_table(space: DigitSpace, which: list[int], goal: Sequence[int],
                       renames: list[list[int]]) -> np.ndarray | None:
    """The conjugation table ``C[s, v]`` of the digits ``which`` (module
    docstring); ``None`` when the conjugates are no function of these digits."""
    digits = FactorSpace([space.factors[i] for i in which])
    start = sum(int(goal[i]) * w for i, w in zip(which, digits.strides))
    try:
        return symmetry_maps(digits, start, renames)
    except ValueError:
        return None


def _build(space, goal, inner, rows, row_conj, inner_conj, inverse_move,
           progress) -> SymmetricTable:
    reached = row_conj[0] >= 0
    # the least conjugate stands for the class; unreached values are their own class
    least = np.where(reached, row_conj.min(axis=0), np.arange(row_conj.shape[1]))
    reps = np.unique(least)
    class_of = np.searchsorted(reps, least).astype(np.int32)
    sym_of = np.where(reached, np.argmax(row_conj == least[None, :], axis=0), 0).astype(np.uint8)
    # classes whose representative some symmetry besides the identity fixes
    fixed_by = row_conj[:, reps] == reps[None, :]
    many = np.flatnonzero(fixed_by.sum(axis=0) > 1)
    symmetric = np.full(len(reps), -1, dtype=np.int32)
    symmetric[many] = np.arange(len(many))
    canonical = np.stack([inner_conj[fixed_by[:, c]].min(axis=0) for c in many]) if len(many) \
        else np.zeros((0, inner_conj.shape[1]), dtype=np.int64)
    table = SymmetricTable(None, class_of, sym_of, inner_conj, np.array([inner, *rows]),
                           symmetric, canonical, list(space.sizes))
    row_digits = FactorSpace([space.factors[i] for i in rows])
    space_rows = _ClassRows(table, row_digits.step, space.factors[inner].table.astype(np.int64),
                            inverse_move, reps)
    start = int(table.index(np.asarray(goal)[:, None])[0])  # the goal's own entry
    table.depths = bfs(space_rows, [start], progress=progress).depths
    # the other cells of a symmetric class are the same positions: same depths
    by_row = table.depths.reshape(len(reps), -1)
    for k, c in enumerate(many):
        by_row[c] = by_row[c][canonical[k]]
    return table


def load_symmetric_table(space: DigitSpace, goal: Sequence[int],
                         move_arrays: Sequence[np.ndarray], symmetries: Sequence[Perm],
                         key: dict, name: str, progress: Callable[[int, int], None] | None = None,
                         cache: bool = True, build: bool = True) -> SymmetricTable | None:
    """:func:`build_symmetric_table` from the cache when its files check out,
    else built and cached in the files ``{name}-symmetric-{digest}.{part}``;
    ``None`` when no split works, or (``build=False``) when it is not cached.

    ``key`` must identify the space and goal (a puzzle fingerprint, the stage);
    the digits and the symmetries are added here.  The second call below reads
    the cache, so no level is searched:

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> from permgroup.perm import from_cycles
    >>> from permgroup.spaces.digits import DigitSpace, piece_digits
    >>> from permgroup.spaces.element import PieceCoordinate
    >>> moves = {"t": from_cycles([(0, 1, 2, 3)], 4), "t'": from_cycles([(0, 3, 2, 1)], 4)}
    >>> c = PieceCoordinate.from_moves("cell", ((0,), (1,), (2,), (3,)), moves)
    >>> space = DigitSpace(piece_digits(c), list(moves))
    >>> goal = space.of_elements([tuple(range(4))])[:, 0]
    >>> arrays, levels = [np.array(m) for m in moves.values()], []
    >>> def load():       # a mirror, r⁻¹ t r = t': t and t' make one class
    ...     return load_symmetric_table(space, goal, arrays, [(0, 3, 2, 1)], {"puzzle": "ring"},
    ...                                 "ring", lambda depth, count: levels.append(count))
    >>> load().distribution(), load().entries, levels
    ([1, 1, 1], 23, [1, 1, 1])
    """
    key = dict(key, kind="symmetric table", digits=[f.name for f in space.factors],
               sizes=space.sizes,
               symmetries=hashlib.sha256(repr(sorted(symmetries)).encode()).hexdigest()[:16])

    def make(report) -> list[np.ndarray] | None:
        table = build_symmetric_table(space, goal, move_arrays, symmetries, progress=report)
        return None if table is None else [getattr(table, part) for part in PARTS]

    arrays = cached_arrays(table_file(f"{name}-symmetric", key, ""), key, PARTS,
                           make if build else None,
                           title=f"{name}: exact table over symmetry classes",
                           progress=progress, cache=cache)
    return None if arrays is None else SymmetricTable(*arrays, space.sizes)
