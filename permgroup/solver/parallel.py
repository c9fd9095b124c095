"""Many 3-cycles for the price of a few: commutators of products of commuting moves.

When the moves ``a`` and ``b`` meet (after the setup ``x``) in one piece, the
commutator ``[a, x b x⁻¹]`` is a 3-cycle.  When ``a1, a2, ...`` commute with one
another and so do ``b1, b2, ...``, the commutator of the products,
``[a1 a2 ..., x b1 b2 ... x⁻¹]``, does the 3-cycle of every pair ``(ai, bj)``
at once, at a cost that grows with the number of moves, not of pairs: on a big
cube, the slices of one axis and a face turn cycle centre pieces in dozens of
rings at a time.

A *shape* fixes the setup ``x``, the two exponents and the two families of
commuting classes; its *pairs* are the ``(a, b)`` of the families that meet in
exactly one piece, each with its 3-cycle's effect.  Every step,
:meth:`Shapes.best` scores every pair's effect on the state, and for each kind
of shapes (a setup and two families, the exponents free) picks rows ``S`` and
columns ``T``, each at its best exponent, greedily (the best pair, then
whichever row or column raises the gain per move most) among pairs that are all
valid.  The
chosen word's effect is computed again from its permutation before it is used.

>>> import numpy as np
>>> from permgroup.moves import MoveSet
>>> from permgroup.solver.pieces import Pieces
>>> from permgroup.perm import from_cycles
>>> cycles = {"a1": [(0, 1, 2)], "a2": [(3, 4, 5)], "b1": [(2, 6, 7)], "b2": [(5, 8, 9)]}
>>> ms = MoveSet.from_moves({k: np.array(from_cycles(v, 10)) for k, v in cycles.items()})
>>> commuting_families(ms)
[[0, 1], [2, 3]]
>>> shapes = Shapes.find(ms, Pieces.of(ms))
>>> word = shapes.word((0, 0), [(0, 1), (1, 1)], [(0, 1), (1, 1)])   # [a1 a2, b1 b2]
>>> ms.names(word)
['a1', 'a2', 'b1', 'b2', 'a2', 'a2', 'a1', 'a1', 'b2', 'b2', 'b1', 'b1']
>>> np.flatnonzero(ms.perm(word) != np.arange(10)).tolist()
[0, 2, 3, 5, 6, 8]
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from permgroup.solver.commutators import (_block_incidence, block_position_table, cheap_letters,
                                          commutator_effects, meeting_blocks)
from permgroup.solver.effects import GainCache
from permgroup.moves import Letter, MoveSet
from permgroup.solver.pieces import Pieces


#: the letters a parallel commutator may be conjugated by: the widest few
OUTER_LETTERS = 12
#: setups are added (the widest first) while the pairs found are fewer
MAX_PAIRS = 250_000
#: the kinds whose greedy rows and columns are grown side by side (their grids
#: padded to the largest of them)
BICLIQUE_BATCH = 64


def commuting_families(ms: MoveSet) -> list[list[int]]:
    """The classes split into families of classes that all commute with one
    another (greedily, in class order).

    >>> import numpy as np
    >>> ms = MoveSet.from_moves({"a": np.array([1, 0, 2, 3]), "b": np.array([0, 1, 3, 2]),
    ...                          "c": np.array([0, 2, 1, 3])})
    >>> commuting_families(ms)
    [[0, 1], [2]]
    """
    out: list[list[int]] = []
    for c in range(len(ms.classes)):
        for family in out:
            if all(ms.commute[c, d] for d in family):
                family.append(c)
                break
        else:
            out.append([c])
    return out


@dataclass
class Shapes:
    """Every pair of every shape, as rows of padded effect arrays."""

    ms: MoveSet
    # per pair
    shape: np.ndarray
    row: np.ndarray
    col: np.ndarray
    pos: np.ndarray
    src: np.ndarray
    # per shape: setup letter (or None), exponents, and the two families (class lists)
    setups: list[Letter | None]
    exponents: list[tuple[int, int]]
    families: list[tuple[list[int], list[int]]]

    @property
    def size(self) -> int:
        return len(self.shape)

    @classmethod
    def find(cls, ms: MoveSet, pieces: Pieces, *, width: int = 12, max_setup_cost: int = 1,
             min_family: int = 2, frozen: np.ndarray | None = None,
             max_meet: int = 1, max_pairs: int = MAX_PAIRS) -> "Shapes":
        """The shapes of ``ms``: families with at least ``min_family`` classes (a
        family of one is a plain commutator, already among the tools), setups of
        at most ``max_setup_cost`` moves (and none; the widest first, while
        fewer than ``max_pairs`` pairs are found).  With ``max_meet=2``, pairs
        without a setup that meet in two pieces count too (two 3-cycles each);
        pairs moving a position of ``frozen`` (a boolean mask) are left out."""
        n = ms.degree
        k = len(ms.classes)
        families = [f for f in commuting_families(ms) if len(f) >= min_family]
        family_of = np.full(k, -1, dtype=np.int64)
        index_in = np.zeros(k, dtype=np.int64)
        for f, members in enumerate(families):
            family_of[members] = f
            index_in[members] = np.arange(len(members))
        nblocks = len(pieces.blocks)
        incidence = _block_incidence(ms, pieces)
        first = np.array([b[0] for b in pieces.blocks], dtype=np.int64)
        block_positions = block_position_table(pieces)
        member = np.zeros((k, len(families)), dtype=np.int64)
        for f, members in enumerate(families):
            member[members, f] = 1
        # the widest setups first (a face turn before a slice): on a big puzzle
        # they are taken while the pairs found stay within ``max_pairs``
        letters = cheap_letters(ms, max_setup_cost)
        widths = [len(ms.support[c]) for c, _ in letters]
        order = sorted(range(len(letters)), key=lambda i: (-widths[i], i))
        setups: list[Letter | None] = [None, *(letters[i] for i in order)]
        found = 0
        exps = {c: [e for e in range(1, ms.orders[c]) if ms.letter_cost((c, e)) <= 2]
                for c in range(k)}
        out_shape, out_row, out_col, out_pos, out_src = [], [], [], [], []
        shape_setups, shape_exps, shape_families = [], [], []
        for x in setups:
            if found >= max_pairs:
                break
            if x is None:
                image = np.arange(nblocks)
                px = np.arange(n, dtype=np.int32)
            else:
                px = ms.powers[x[0]][x[1]]
                image = pieces.block_of[px[first]]
            meet, meeting, second = meeting_blocks(incidence, image, k, both=True)
            # a pair meeting in two pieces does two 3-cycles (two slices of a
            # big cube: [r_i, d_j] in four moves), without a setup only
            meeting = np.where((meet == 1) | ((meet == 2) & (x is None) & (max_meet >= 2)),
                               meeting, -1)
            # how many valid pairs each two families have: only those with two or
            # more are looked at (a puzzle of many small families has thousands)
            valid_count = member.T @ (meeting >= 0).astype(np.int64) @ member
            for fa, fy in zip(*np.nonzero(valid_count >= 2)):
                fam_a, fam_y = families[fa], families[fy]
                if x is not None and (family_of[x[0]] in (fa, fy)):
                    continue
                if x is None and fa == fy:
                    continue
                block = meeting[np.ix_(fam_a, fam_y)]
                block2 = second[np.ix_(fam_a, fam_y)]
                valid = block >= 0
                if valid.sum() < 2:
                    continue
                rows_, cols_ = np.nonzero(valid)
                a_classes = np.array(fam_a)[rows_]
                y_classes = np.array(fam_y)[cols_]
                if x is not None:
                    keep = ~ms.commute[x[0], y_classes] & (a_classes != y_classes)
                    rows_, cols_ = rows_[keep], cols_[keep]
                    a_classes, y_classes = a_classes[keep], y_classes[keep]
                if len(rows_) < 2:
                    continue
                # every pair at every pair of exponents, in one evaluation
                combos = [(ea, ey) for ea in sorted(set().union(*(exps[c] for c in fam_a)))
                          for ey in sorted(set().union(*(exps[c] for c in fam_y)))]
                which, ea_of, ey_of = [], [], []
                for ea, ey in combos:
                    ok = np.flatnonzero([ea in exps[a] and ey in exps[y]
                                         for a, y in zip(a_classes, y_classes)])
                    which.append(ok)
                    ea_of.append(np.full(len(ok), ea))
                    ey_of.append(np.full(len(ok), ey))
                sizes = [len(w) for w in which]
                at = np.concatenate(which)
                meet_at = block_positions[block[rows_[at], cols_[at]]]
                if x is None and max_meet >= 2:  # the second meeting piece too
                    meet_at = np.concatenate(
                        [meet_at, block_positions[block2[rows_[at], cols_[at]]]], axis=1)
                okay, pos, src = commutator_effects(ms, px, a_classes[at], y_classes[at],
                                               np.concatenate(ea_of), np.concatenate(ey_of),
                                               meet_at, width)
                good_all = okay >= 0
                if frozen is not None:
                    good_all &= ~np.append(frozen, False)[pos].any(1)
                offset = 0
                for (ea, ey), ok, size in zip(combos, which, sizes):
                    part = slice(offset, offset + size)
                    offset += size
                    good = good_all[part]
                    if good.sum() < 2:
                        continue
                    s = len(shape_setups)
                    shape_setups.append(x)
                    shape_exps.append((ea, ey))
                    shape_families.append((fam_a, fam_y))
                    count = int(good.sum())
                    found += count
                    out_shape.append(np.full(count, s, dtype=np.int64))
                    out_row.append(rows_[ok][good])
                    out_col.append(cols_[ok][good])
                    out_pos.append(pos[part][good])
                    out_src.append(src[part][good])
        if not out_shape:
            empty = np.zeros((0, width), dtype=np.int32)
            return cls(ms, np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64),
                       empty, empty, [], [], [])
        return cls(ms, np.concatenate(out_shape), np.concatenate(out_row),
                   np.concatenate(out_col), np.concatenate(out_pos), np.concatenate(out_src),
                   shape_setups, shape_exps, shape_families)

    def __post_init__(self):
        # the columns no pair uses are dropped; the gains are kept up to date
        used = int((self.pos < self.ms.degree).sum(1).max()) if self.size else 1
        self.pos, self.src = self.pos[:, :used], self.src[:, :used]
        self._setup_cost = [0 if x is None else 2 * self.ms.letter_cost(x) for x in self.setups]
        self._starts = np.searchsorted(self.shape, np.arange(len(self.setups) + 1))
        # the shapes alike but for their exponents, scored as one: each row and
        # each column of a commutator takes the exponent that suits it best
        kinds: dict[tuple, list[int]] = {}
        for s, (x, (fam_a, fam_y)) in enumerate(zip(self.setups, self.families)):
            kinds.setdefault((x, tuple(fam_a), tuple(fam_y)), []).append(s)
        self._kinds = list(kinds.values())
        self._kind_of = np.zeros(len(self.setups), dtype=np.int64)
        for k, members in enumerate(self._kinds):
            self._kind_of[members] = k
        # each pair's kind: the kinds' bounds are added up over the gaining pairs
        # alone (few of a big cube's 265,680 at a point of a word)
        self._pair_kind = self._kind_of[self.shape]
        self._layouts = [self._layout(members) for members in self._kinds]
        # every kind's grid padded to the largest, its pairs' cells read as one row
        self._grid_shape = (max((len(lay.row_cost) for lay in self._layouts), default=1),
                            max((len(lay.col_cost) for lay in self._layouts), default=1))
        for lay in self._layouts:
            lay.cells = lay.grid_row * self._grid_shape[1] + lay.grid_col
        # every commutator may be conjugated by one letter too: it then works on
        # the pieces that letter brings to its places (scored on the state and
        # the goal seen through the letter, one cache each)
        self.outer: list[Letter | None] = [None, *_widest(self.ms, OUTER_LETTERS)]
        self._caches = [GainCache(self.pos, self.src, self.ms.degree)]
        for _ in self.outer[1:]:
            self._caches.append(self._caches[0].fork())

    def gains(self, state: np.ndarray, goal: np.ndarray, outer: int = 0) -> np.ndarray:
        """How many more positions match ``goal`` after each pair's 3-cycle
        (conjugated by the letter ``self.outer[outer]``)."""
        x = self.outer[outer]
        if x is not None:
            p = self.ms.powers[x[0]][x[1]]
            state, goal = state[p], goal[p]
        return self._caches[outer].gains(state, goal)

    def word(self, key: tuple[int, int], rows: Sequence[tuple[int, int]],
             cols: Sequence[tuple[int, int]]) -> list[Letter]:
        """The commutator of the chosen rows' and columns' products, each
        ``(index in its family, exponent)``, of a kind of shapes (one setup and
        two families), conjugated by an outer letter: ``key = (outer, kind)``."""
        ms = self.ms
        outer, kind = key
        s = self._kinds[kind][0]
        fam_a, fam_y = self.families[s]
        a = [(fam_a[r], e) for r, e in rows]
        b = [(fam_y[c], e) for c, e in cols]
        x = self.setups[s]
        inner = b if x is None else [x, *b, (x[0], ms.orders[x[0]] - x[1])]
        word = ms.join(a, inner, ms.inverse(a), ms.inverse(inner))
        y = self.outer[outer]
        return word if y is None else ms.join([y], word, ms.inverse([y]))

    def cache(self) -> GainCache:
        """The pairs' gain cache with no outer letter (its index of rows by
        position serves any state)."""
        return self._caches[0]

    def pair_word(self, p: int) -> list[Letter]:
        """The commutator of pair ``p`` alone (no outer letter)."""
        s = int(self.shape[p])
        ea, ey = self.exponents[s]
        return self.word((0, int(self._kind_of[s])), [(int(self.row[p]), ea)],
                         [(int(self.col[p]), ey)])

    def two_pair_words(self) -> list[list[Letter]]:
        """The commutators of two pairs of one shape sharing their row or their
        column, ``[a1 a2, x b x⁻¹]`` or ``[a, x b1 b2 x⁻¹]`` (no outer letter):
        two 3-cycles for two moves more than one.

        >>> from permgroup.perm import from_cycles
        >>> cycles = {"a1": [(0, 1, 2)], "a2": [(3, 4, 5)], "b1": [(2, 6, 7)], "b2": [(5, 8, 9)]}
        >>> ms = MoveSet.from_moves({k: np.array(from_cycles(v, 10)) for k, v in cycles.items()})
        >>> Shapes.find(ms, Pieces.of(ms)).two_pair_words()   # each row meets one column
        []
        """
        words = []
        for s in range(len(self.setups)):
            part = slice(self._starts[s], self._starts[s + 1])
            ea, ey = self.exponents[s]
            key = (0, int(self._kind_of[s]))
            by_col: dict[int, list[int]] = {}
            by_row: dict[int, list[int]] = {}
            for r, c in zip(self.row[part].tolist(), self.col[part].tolist()):
                by_col.setdefault(c, []).append(r)
                by_row.setdefault(r, []).append(c)
            for c, rows in by_col.items():
                words += [self.word(key, [(r1, ea), (r2, ea)], [(c, ey)])
                          for i, r1 in enumerate(rows) for r2 in rows[i + 1:]]
            for r, cols in by_row.items():
                words += [self.word(key, [(r, ea)], [(c1, ey), (c2, ey)])
                          for i, c1 in enumerate(cols) for c2 in cols[i + 1:]]
        return words

    def pair_costs(self) -> np.ndarray:
        """The moves of each pair's commutator alone (before any cancelling)."""
        ms = self.ms
        out = np.array(self._setup_cost, dtype=np.float64)[self.shape]
        cost: dict[tuple, np.ndarray] = {}
        for s, ((fam_a, fam_y), (ea, ey)) in enumerate(zip(self.families, self.exponents)):
            part = slice(self._starts[s], self._starts[s + 1])
            for fam, e, index in ((fam_a, ea, self.row[part]), (fam_y, ey, self.col[part])):
                key = (tuple(fam), e)
                if key not in cost:
                    cost[key] = np.array([2 * ms.letter_cost((c, e)) for c in fam],
                                         dtype=np.float64)
                out[part] += cost[key][index]
        return out

    def best(self, state: np.ndarray, goal: np.ndarray, *, min_pairs: int = 1,
             max_kinds: int = 48) -> tuple[float, tuple[int, int], list[tuple[int, int]],
                                          list[tuple[int, int]]] | None:
        """The best (gain per move, (outer, kind), rows, columns) with at least
        ``min_pairs`` pairs, by the pairs' gains added up, among the
        ``max_kinds`` kinds (under any outer letter) whose gaining pairs add up
        to most; ``None`` when none gains."""
        found = self.ranked(state, goal, min_pairs=min_pairs, max_kinds=max_kinds)
        return found[0] if found else None

    def ranked(self, state: np.ndarray, goal: np.ndarray, *, min_pairs: int = 1,
               max_kinds: int = 48, outers: int | None = None
               ) -> list[tuple[float, tuple[int, int], list[tuple[int, int]],
                               list[tuple[int, int]]]]:
        """What :meth:`best` chooses from: the best commutator of each of the
        ``max_kinds`` most promising kinds (under an outer letter: the first
        ``outers`` of them only, when given), the best first."""
        if not self.size:
            return []
        count = len(self.outer) if outers is None else min(outers, len(self.outer))
        return self.chosen({o: self.gains(state, goal, o) for o in range(count)},
                           min_pairs=min_pairs, max_kinds=max_kinds)

    def chosen(self, all_gains: dict[int, np.ndarray], *, min_pairs: int = 1,
               max_kinds: int = 48
               ) -> list[tuple[float, tuple[int, int], list[tuple[int, int]],
                               list[tuple[int, int]]]]:
        """:meth:`ranked` from the pairs' gains given under each outer letter
        (``{outer: gains}``, e.g. the gains of the pairs inserted at a point of
        a word, :mod:`~permgroup.solver.insertion`, with outer 0)."""
        candidates = []
        for o, gains in all_gains.items():
            # a kind's bound: all its gaining pairs at once (a kind with none is
            # not looked at)
            up = np.flatnonzero(gains > 0)
            potential = np.bincount(self._pair_kind[up], gains[up].astype(np.float64),
                                    minlength=len(self._kinds))
            candidates += [(potential[k], o, int(k)) for k in np.flatnonzero(potential > 0)]
        candidates.sort(key=lambda c: -c[0])
        chosen = candidates[:max_kinds]
        out = []
        # the kinds' greedy bicliques side by side, a batch at a time (one
        # numpy call a step for all of them rather than one a kind)
        for at in range(0, len(chosen), BICLIQUE_BATCH):
            batch = [(o, k) for _, o, k in chosen[at:at + BICLIQUE_BATCH]]
            for (o, k), found in zip(batch, self._bicliques(all_gains, batch)):
                if found is None:
                    continue
                value, rows, cols = found
                if len(rows) * len(cols) < min_pairs:
                    continue
                lay = self._layouts[k]
                out.append((value, (o, k),
                            [(r % lay.n_rows, lay.row_exps[r // lay.n_rows]) for r in rows],
                            [(c % lay.n_cols, lay.col_exps[c // lay.n_cols]) for c in cols]))
        # the first best kept first among equals, as a plain maximum would
        return sorted(out, key=lambda f: -f[0])

    def _bicliques(self, all_gains: dict[int, np.ndarray], batch: list[tuple[int, int]]
                   ) -> list[tuple[float, list[int], list[int]] | None]:
        """:func:`_bicliques` of each ``(outer, kind)`` of ``batch`` on its
        pairs' gains, the grids padded to the batch's largest."""
        ms = self.ms
        lays = [self._layouts[k] for _, k in batch]
        height, width = self._grid_shape
        size = height * width
        grid = np.full(len(batch) * size, -np.inf)
        grid[np.concatenate([b * size + lay.cells for b, lay in enumerate(lays)])] = \
            np.concatenate([all_gains[o][lay.pairs] for (o, _), lay in zip(batch, lays)])
        # padding costs one move (their cells are invalid: never chosen)
        row_cost, col_cost = np.ones((len(batch), height)), np.ones((len(batch), width))
        for b, lay in enumerate(lays):
            row_cost[b, :len(lay.row_cost)] = lay.row_cost
            col_cost[b, :len(lay.col_cost)] = lay.col_cost
        fixed = np.array([lay.setup_cost + (0 if self.outer[o] is None
                                             else 2 * ms.letter_cost(self.outer[o]))
                          for (o, _), lay in zip(batch, lays)], dtype=np.float64)
        return _bicliques(grid.reshape(len(batch), height, width), row_cost, col_cost, fixed,
                          np.array([lay.n_rows for lay in lays]),
                          np.array([lay.n_cols for lay in lays]),
                          np.array([len(lay.row_cost) for lay in lays]),
                          np.array([len(lay.col_cost) for lay in lays]))

    def _layout(self, members: list[int]) -> "_Layout":
        """Where the pairs of a kind's shapes sit in its grid: option ``i*n + r``
        is row ``r`` at the i-th exponent (and so for columns)."""
        ms = self.ms
        fam_a, fam_y = self.families[members[0]]
        row_exps = sorted({self.exponents[s][0] for s in members})
        col_exps = sorted({self.exponents[s][1] for s in members})
        n_rows, n_cols = len(fam_a), len(fam_y)
        pairs, grid_row, grid_col = [], [], []
        for s in members:
            ea, ey = self.exponents[s]
            part = slice(self._starts[s], self._starts[s + 1])
            pairs.append(np.arange(part.start, part.stop))
            grid_row.append(row_exps.index(ea) * n_rows + self.row[part])
            grid_col.append(col_exps.index(ey) * n_cols + self.col[part])
        row_cost = np.array([2 * ms.letter_cost((c, e)) for e in row_exps for c in fam_a],
                            dtype=np.float64)
        col_cost = np.array([2 * ms.letter_cost((c, e)) for e in col_exps for c in fam_y],
                            dtype=np.float64)
        return _Layout(row_exps, col_exps, n_rows, n_cols, np.concatenate(pairs),
                       np.concatenate(grid_row), np.concatenate(grid_col), row_cost, col_cost,
                       self._setup_cost[members[0]])


@dataclass
class _Layout:
    """A kind of shapes laid out as one grid of (row, exponent) by (column, exponent)."""

    row_exps: list[int]
    col_exps: list[int]
    n_rows: int
    n_cols: int
    pairs: np.ndarray       # the kind's pairs, in the order of grid_row and grid_col
    grid_row: np.ndarray
    grid_col: np.ndarray
    row_cost: np.ndarray
    col_cost: np.ndarray
    setup_cost: float
    cells: np.ndarray | None = None  # in the grid padded to the largest kind's, read as a row


def _bicliques(grid: np.ndarray, row_cost: np.ndarray, col_cost: np.ndarray,
               fixed: np.ndarray, n_rows: np.ndarray, n_cols: np.ndarray,
               heights: np.ndarray, widths: np.ndarray
               ) -> list[tuple[float, list[int], list[int]] | None]:
    """For each grid ``b`` of ``grid`` (a batch: ``grid[b]``, its rows
    ``row_cost[b]``, columns ``col_cost[b]``, ``fixed[b]``), rows and columns
    whose cells are all valid (finite), grown greedily from the best cell while
    the gain per move rises: (gain per move, rows, columns), or ``None`` when
    no cell gains.  Rows ``r`` and ``r + n_rows[b]`` (and so on) are one row at
    two exponents, of which at most one is chosen (columns alike); the rows
    from ``heights[b]`` on (columns from ``widths[b]``) are padding.  Each grid
    is grown as it would be alone (the same operations, element by element):
    the batch shares each step's numpy calls.

    >>> grid = np.array([[[4.0, 1.0, -np.inf], [3.0, 2.0, 0.0]]])
    >>> _bicliques(grid, np.array([[2.0, 2.0]]), np.array([[2.0, 2.0, 2.0]]),
    ...            np.array([0.0]), np.array([2]), np.array([3]), np.array([2]), np.array([3]))
    [(1.25, [0, 1], [0, 1])]
    """
    count, height, width = grid.shape
    every = np.arange(count)
    cell_cost = row_cost[:, :, None] + col_cost[:, None, :] + fixed[:, None, None]
    ratio = (grid / cell_cost).reshape(count, -1)  # (an invalid cell stays -inf)
    flat = np.argmax(ratio, axis=1)
    r, c = flat // width, flat % width
    alive = ratio[every, flat] > 0
    out: list = [([int(r[b])], [int(c[b])]) if alive[b] else None for b in range(count)]
    gain, cost = grid[every, r, c].copy(), cell_cost[every, r, c].copy()
    # each row's gain with the chosen columns, and each column's with the chosen
    # rows, -inf once it (at any exponent) is taken: a new row must be valid
    # against every chosen column, and so on
    row_index = np.where(np.arange(height) < heights[:, None],
                         np.arange(height) % n_rows[:, None], -1)
    col_index = np.where(np.arange(width) < widths[:, None],
                         np.arange(width) % n_cols[:, None], -1)
    row_gain = grid[every, :, c].copy()
    col_gain = grid[every, r, :].copy()
    row_gain[row_index == (r % n_rows)[:, None]] = -np.inf
    col_gain[col_index == (c % n_cols)[:, None]] = -np.inf
    while alive.any():
        row_ratio = (gain[:, None] + row_gain) / (cost[:, None] + row_cost)
        col_ratio = (gain[:, None] + col_gain) / (cost[:, None] + col_cost)
        br, bc = np.argmax(row_ratio, axis=1), np.argmax(col_ratio, axis=1)
        best_row, best_col = row_ratio[every, br], col_ratio[every, bc]
        current = gain / cost
        take_row = alive & (best_row >= best_col) & (best_row > current)
        take_col = alive & ~take_row & (best_col > current)
        alive = take_row | take_col
        for b in np.flatnonzero(take_row).tolist():
            out[b][0].append(int(br[b]))
        for b in np.flatnonzero(take_col).tolist():
            out[b][1].append(int(bc[b]))
        gain = np.where(take_row, gain + row_gain[every, br],
                        np.where(take_col, gain + col_gain[every, bc], gain))
        cost = np.where(take_row, cost + row_cost[every, br],
                        np.where(take_col, cost + col_cost[every, bc], cost))
        rows, cols = np.flatnonzero(take_row), np.flatnonzero(take_col)
        col_gain[rows] += grid[rows, br[rows], :]
        row_gain[cols] += grid[cols, :, bc[cols]]
        row_gain[take_row[:, None] & (row_index == (br % n_rows)[:, None])] = -np.inf
        col_gain[take_col[:, None] & (col_index == (bc % n_cols)[:, None])] = -np.inf
    return [None if found is None else (float(gain[b] / cost[b]), *found)
            for b, found in enumerate(out)]


def _widest(ms: MoveSet, count: int) -> list[Letter]:
    """The ``count`` letters of one move that move the most positions (a face
    turn rather than a slice: it brings pieces of many rings at once)."""
    letters = cheap_letters(ms, 1)
    support = [int(np.count_nonzero(ms.powers[c][e] != np.arange(ms.degree))) for c, e in letters]
    order = sorted(range(len(letters)), key=lambda i: -support[i])
    return [letters[i] for i in order[:count]]
