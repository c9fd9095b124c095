"""Exact depths of a stage's cosets, one row per symmetry class (Kociemba's
phase-1 table, generically).

A whole-puzzle symmetry ``r`` (a sticker permutation with every ``r⁻¹ m r`` a
move of the stage, and ``r⁻¹ H r = H`` for the stage's target subgroup ``H``)
conjugates a coset ``H g`` to ``H r⁻¹ g r``, which is as far from ``H`` as
``H g`` is.  So a stage's exact table need only hold one *row* per class.

The stage's digits split into an *inner* digit (the corner twist of the
3x3x3's first stage) and the *row* digits (edge flip and middle-layer
placement together, 1,013,760 values).  A digit group's conjugation table
``C[s, v]`` is found by breadth-first search from the identity, whose
conjugate is itself: ``C[s, step(v, m)] = step(C[s, v], m_s)`` with ``m_s``
the move ``r⁻¹ m r``.  A conflict means the group's conjugate is not a
function of its own digits, and the split is refused.  The row values fall
into classes (the least conjugate stands for its class: 64,430 for the
cube under the 16 symmetries keeping the U-D axis), and a state is stored as
``(class, inner digit conjugated like the rows)``: 140,908,410 entries for
the cube instead of 2,217,093,120.

When a symmetry besides the identity fixes a class's representative (a
symmetric class), several of the class's entries are conjugate positions:
every look-up, and the BFS, reads the least of them (the *canonical* cell),
and the others are given its depth at the end.  Without that, a position
reached through one of them would be found a level late.

>>> from permgroup.perm import from_cycles
>>> from permgroup.spaces.digits import DigitSpace, piece_digits
>>> from permgroup.spaces.element import PieceCoordinate
>>> turn = from_cycles([(0, 1, 2, 3)], 4)           # a 4-cycle and its inverse
>>> moves = {"t": turn, "t'": from_cycles([(0, 3, 2, 1)], 4)}
>>> c = PieceCoordinate.from_moves("cell", ((0,), (1,), (2,), (3,)), moves)
>>> space = DigitSpace([d for d in piece_digits(c)], list(moves))
>>> mirror = (0, 3, 2, 1)                            # r⁻¹ t r = t'
>>> goal = space.of_elements([tuple(range(4))])[:, 0]
>>> table = build_symmetric_table(space, goal, [np.array(m) for m in moves.values()],
...                               [mirror], inner=None)
>>> table.entries, table.distribution()        # t and t' make one class
(23, [1, 1, 1])
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from math import prod

import numpy as np

from permgroup.perm import Perm, closure, compose, inverse
from permgroup.spaces.digits import DigitSpace
from permgroup.spaces.product import FactorSpace
from permgroup.tables.bfs import bfs
from permgroup.spaces.space import ROW_PULL, Factor
from permgroup.tables.store import UNSEEN, depth_distribution

#: the row digits together may have at most this many values
ROW_LIMIT = 1 << 22
#: a table of more entries than this (classes times inner values) is not built
ENTRY_LIMIT = 1 << 28


def conjugate_moves(move_arrays: Sequence[Sequence[int]], symmetries: Sequence[Perm]
                    ) -> list[list[int]] | None:
    """For each symmetry ``r``, the index of ``r⁻¹ m r`` for each move ``m``;
    ``None`` if some conjugate is not a move.

    >>> conjugate_moves([(1, 2, 0), (2, 0, 1)], [(0, 2, 1)])   # a mirror swaps them
    [[1, 0]]
    """
    index = {tuple(int(x) for x in m): j for j, m in enumerate(move_arrays)}
    out = []
    for r in symmetries:
        images = [index.get(compose(compose(inverse(r), tuple(int(x) for x in m)), r))
                  for m in move_arrays]
        if None in images:
            return None
        out.append(images)
    return out


def stage_symmetries(symmetries: Sequence[Perm], moves: Sequence[Sequence[int]],
                     kept: Sequence[Sequence[int]], degree: int) -> list[Perm]:
    """The group the ``symmetries`` generate, cut down to the elements carrying
    the stage's ``moves`` onto its moves and the target subgroup's generators
    ``kept`` onto its generators (so they fix the subgroup); identity first.

    >>> stage_symmetries([(0, 2, 1)], [(1, 2, 0), (2, 0, 1)], [], 3)
    [(0, 1, 2), (0, 2, 1)]
    """
    group = closure([tuple(r) for r in symmetries], degree)
    out = []
    for r in group:
        if conjugate_moves(moves, [r]) is None:
            continue
        if kept and conjugate_moves(kept, [r]) is None:
            continue
        out.append(r)
    return out


def conjugation_table(tables: Sequence[np.ndarray], goal: Sequence[int],
                      renames: np.ndarray) -> np.ndarray | None:
    """``C[s, v]``: the value of the digits ``tables`` (move tables, one per
    digit, their values mixed radix) at the ``s``-th conjugate of a position
    of value ``v``, by BFS from ``goal``; ``-1`` where unreached, ``None`` when
    the conjugate is not a function of these digits.

    >>> conjugation_table([np.array([[1, 2, 0], [2, 0, 1]])], [0],
    ...                   np.array([[0, 1], [1, 0]])).tolist()
    [[0, 1, 2], [0, 2, 1]]
    """
    digits = FactorSpace([Factor(str(i), t.shape[1], t) for i, t in enumerate(tables)])
    step = digits.step
    start = sum(int(g) * w for g, w in zip(goal, digits.strides))
    count = renames.shape[0]
    conj = np.full((count, digits.size), -1, dtype=np.int64)
    conj[:, start] = start
    frontier = np.array([start], dtype=np.int64)
    while len(frontier):
        found = []
        for m in range(renames.shape[1]):
            images = step(frontier, m)
            conjugates = np.stack([step(conj[s, frontier], int(renames[s, m]))
                                   for s in range(count)])
            fresh = conj[0, images] < 0
            conj[:, images[fresh]] = conjugates[:, fresh]
            if (conj[:, images] != conjugates).any():
                return None
            found.append(images[fresh])
        frontier = np.unique(np.concatenate(found))
    return conj


class SymmetricTable:
    """Exact depths of a stage's cosets over classes of its row digits (see the
    module docstring).  Calling it on a ``(k, N)`` batch of digit states gives
    their exact depths (a :class:`~permgroup.search.dfs.Bound`)."""

    def __init__(self, inner: int | None, rows: list[int], sizes: list[int],
                 class_of: np.ndarray, sym_of: np.ndarray, inner_conj: np.ndarray,
                 depths: np.ndarray, symmetric: np.ndarray, canonical: np.ndarray):
        self.inner, self.rows = inner, rows
        self.symmetric, self.canonical = symmetric, canonical
        self.row_weights = [prod(sizes[j] for j in rows[i + 1:]) for i in range(len(rows))]
        self.inner_size = sizes[inner] if inner is not None else 1
        self.class_of, self.sym_of = class_of, sym_of
        self.inner_conj = inner_conj.reshape(-1)  # [s * inner_size + t]
        self.depths = depths
        self.entries = len(depths)

    def index(self, states: np.ndarray) -> np.ndarray:
        raw = np.zeros(states.shape[1], dtype=np.int64)
        for i, w in zip(self.rows, self.row_weights):
            raw += states[i].astype(np.int64) * w
        cls = self.class_of[raw].astype(np.int64)
        if self.inner is None:
            return cls
        s = self.sym_of[raw].astype(np.int64)
        cell = self.inner_conj[s * self.inner_size + states[self.inner]]
        return cls * self.inner_size + canonical_cells(self.symmetric, self.canonical, cls, cell)

    def __call__(self, states: np.ndarray) -> np.ndarray:
        """The exact moves from each state to the stage's goal (``UNSEEN`` where
        none leads there)."""
        return self.depths[self.index(states)]

    def distribution(self) -> list[int]:
        """Entries per depth (classes, not positions)."""
        return depth_distribution(self.depths)


def canonical_cells(symmetric: np.ndarray, canonical: np.ndarray, classes: np.ndarray,
                    cells: np.ndarray) -> np.ndarray:
    """The canonical inner value of each ``(class, cell)``: unchanged in a class
    whose representative no symmetry but the identity fixes; else the least
    value the representative's stabilizer conjugates ``cell`` to
    (``canonical[symmetric[class], cell]``), so that conjugate positions share
    one entry."""
    which = symmetric[classes]
    fix = which >= 0
    if not fix.any():
        return cells
    cells = cells.copy()
    cells[fix] = canonical[which[fix], cells[fix]]
    return cells


class _ClassRows:
    """The table's states as rows (a class) of inner cells, for
    :func:`permgroup.tables.bfs.bfs`."""

    capabilities = frozenset({ROW_PULL})

    def __init__(self, row_step: Callable, inner_table: np.ndarray, inverse_move: list[int],
                 reps: np.ndarray, class_of: np.ndarray, sym_of: np.ndarray,
                 inner_conj: np.ndarray, symmetric: np.ndarray, canonical: np.ndarray):
        self.symmetric, self.canonical = symmetric, canonical
        self.n_moves = len(inverse_move)
        self.inverse = inverse_move
        self.outer_size, self.inner_size = len(reps), inner_conj.shape[1]
        self.size = self.outer_size * self.inner_size
        self.row_next = np.empty((self.n_moves, self.outer_size), dtype=np.int32)
        self.row_sym = np.empty((self.n_moves, self.outer_size), dtype=np.int32)
        for m in range(self.n_moves):
            images = row_step(reps, m)
            self.row_next[m] = class_of[images]
            self.row_sym[m] = sym_of[images]
        # cell t of a row, moved by m into a row reached with symmetry s: cell cells[m, s, t]
        self.cells = np.stack([inner_conj[:, inner_table[m]] for m in range(self.n_moves)]
                              ).astype(np.intp)

    def step(self, ranks: np.ndarray, m: int) -> np.ndarray:
        ranks = np.asarray(ranks, dtype=np.int64)
        row, cell = np.divmod(ranks, self.inner_size)
        nxt = self.row_next[m][row].astype(np.int64)
        cell = canonical_cells(self.symmetric, self.canonical, nxt,
                               self.cells[m, self.row_sym[m][row], cell])
        return nxt * self.inner_size + cell

    def back_step(self, ranks: np.ndarray, m: int) -> np.ndarray:
        return self.step(ranks, self.inverse[m])

    def row_pull(self, values: np.ndarray, first: int, last: int, m: int) -> np.ndarray:
        back = self.inverse[m]
        nxt = self.row_next[back][first:last]
        rows = values[nxt]
        cells = self.cells[back][self.row_sym[back][first:last]]
        which = self.symmetric[nxt]
        fix = which >= 0
        if fix.any():  # rows of symmetric classes: read the canonical cells
            cells = cells.copy()
            cells[fix] = np.take_along_axis(self.canonical[which[fix]], cells[fix], axis=1)
        return np.take_along_axis(rows, cells, axis=1)


def build_symmetric_table(space: DigitSpace, goal: Sequence[int],
                          move_arrays: Sequence[np.ndarray], symmetries: Sequence[Perm],
                          inner: int | None | str = "auto",
                          progress: Callable[[int, int], None] | None = None
                          ) -> SymmetricTable | None:
    """The exact table of a stage whose digits are ``space`` (moves
    ``move_arrays``, goal digits ``goal``) over classes under ``symmetries``
    (a group that keeps the stage, see :func:`stage_symmetries`; the identity
    is added if missing).
    ``inner`` picks the inner digit (``"auto"``: the largest that works,
    ``None``: all digits are rows).  ``None`` when no split works."""
    degree = len(move_arrays[0])
    symmetries = list(dict.fromkeys([tuple(range(degree))] + [tuple(r) for r in symmetries]))
    renames = conjugate_moves(move_arrays, symmetries)
    if renames is None:
        return None
    renames = np.array(renames, dtype=np.int64)
    index = {tuple(int(x) for x in m): j for j, m in enumerate(move_arrays)}
    inverse_move = [index.get(inverse(tuple(int(x) for x in m))) for m in move_arrays]
    if None in inverse_move:
        return None
    sizes = space.sizes
    k = len(sizes)
    choices = ([None] if inner is None else
               sorted(range(k), key=lambda i: -sizes[i]) if inner == "auto" else [inner])
    for chosen in choices:
        rows = [i for i in range(k) if i != chosen]
        row_values = prod(sizes[i] for i in rows)
        inner_values = sizes[chosen] if chosen is not None else 1
        if not rows or row_values > ROW_LIMIT:
            continue
        if row_values // len(symmetries) * inner_values > ENTRY_LIMIT:
            continue  # too many entries even if every class were as large as can be
        if chosen is not None:
            inner_conj = conjugation_table([space.factors[chosen].table], [goal[chosen]],
                                           renames)
            if inner_conj is None or (inner_conj < 0).any():
                continue
        else:
            inner_conj = np.zeros((len(symmetries), 1), dtype=np.int64)
        row_tables = [space.factors[i].table for i in rows]
        row_conj = conjugation_table(row_tables, [goal[i] for i in rows], renames)
        if row_conj is None:
            continue
        return _build(space, goal, chosen, rows, row_tables, row_conj, inner_conj,
                      inverse_move, progress)
    return None


def _build(space, goal, chosen, rows, row_tables, row_conj, inner_conj, inverse_move,
           progress) -> SymmetricTable:
    sizes = space.sizes
    reached = row_conj[0] >= 0
    # the least conjugate stands for the class; unreached values are their own class
    least = np.where(reached, row_conj.min(axis=0), np.arange(row_conj.shape[1]))
    reps = np.unique(least)
    class_of = np.searchsorted(reps, least).astype(np.int32)
    sym_of = np.where(reached, np.argmax(row_conj == least[None, :], axis=0), 0).astype(np.uint8)
    row_digits = FactorSpace([Factor(str(i), t.shape[1], t) for i, t in zip(rows, row_tables)])
    row_step, weights = row_digits.step, row_digits.strides

    inner_table = (space.factors[chosen].table.astype(np.int64) if chosen is not None else
                   np.zeros((len(inverse_move), 1), dtype=np.int64))
    inner_conj = np.where(inner_conj < 0, 0, inner_conj)
    # classes whose representative some symmetry besides the identity fixes
    fixed_by = row_conj[:, reps] == reps[None, :]
    many = np.flatnonzero(fixed_by.sum(axis=0) > 1)
    symmetric = np.full(len(reps), -1, dtype=np.int32)
    symmetric[many] = np.arange(len(many))
    canonical = np.stack([inner_conj[fixed_by[:, c]].min(axis=0) for c in many]) if len(many) \
        else np.zeros((0, inner_conj.shape[1]), dtype=np.int64)
    space_rows = _ClassRows(row_step, inner_table, inverse_move, reps, class_of, sym_of,
                            inner_conj, symmetric, canonical)
    start_raw = sum(int(goal[i]) * w for i, w in zip(rows, weights))
    start_class = np.array([class_of[start_raw]], dtype=np.int64)
    start_cell = np.array([inner_conj[sym_of[start_raw], goal[chosen]] if chosen is not None
                           else 0])
    start = int(start_class[0]) * space_rows.inner_size + int(
        canonical_cells(symmetric, canonical, start_class, start_cell)[0])
    depths = bfs(space_rows, [start], progress=progress).depths
    # the other cells of a symmetric class are the same positions: same depths
    table = depths.reshape(len(reps), -1)
    for k, c in enumerate(many):
        table[c] = table[c][canonical[k]]
    return SymmetricTable(chosen, rows, list(sizes), class_of, sym_of, inner_conj, depths,
                          symmetric, canonical)


def table_key(space: DigitSpace, key: dict, symmetries: Sequence[Perm]) -> dict:
    """The cache key of a stage's symmetric table."""
    return dict(key, kind="symmetric table", digits=[f.name for f in space.factors],
                sizes=space.sizes,
                symmetries=hashlib.sha256(repr(sorted(symmetries)).encode()).hexdigest()[:16])


__all__ = ["SymmetricTable", "build_symmetric_table", "conjugate_moves", "conjugation_table",
           "stage_symmetries", "table_key", "UNSEEN"]
