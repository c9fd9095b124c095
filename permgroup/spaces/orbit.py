"""The ranked state space of a puzzle defined piece by piece (:mod:`permgroup.formats.definition`).

A position splits into *factors*: for each orbit, the arrangement of its pieces
and the vector of their orientations.  A move acts on each factor on its own,
so every factor gets a move table and the rank is mixed radix over the factors.
Ranks are *tight*: every rank below :attr:`OrbitSpace.size` is a reachable
position as far as the factors can tell.

* A factor of at most :data:`LIST_LIMIT` raw values is listed by a
  breadth-first search of its own values, so parity and orientation-sum laws
  drop out by themselves, whatever they are.
* Two such factors whose joint reachable set is smaller than the product of
  their own (orbits that move together, orientation sums or parities tied) are
  merged into one factor listing the reachable pairs.
* A permutation too large to list (twelve pieces: 479,001,600 values) is two
  digits: the *placement* of pieces ``0..h-1`` (an ordered choice of ``h``
  slots) and the order of the other ``r`` pieces in the other slots (Lehmer
  code, halved when every move is even on the orbit).  A move sends the
  placement through a table, the remainder through a permutation of its ``r``
  places that depends on the placement only.

The rank is ``outer * inner_size + inner``: the *inner* digit (one small factor,
or the remainder of a split permutation) varies fastest, so a move maps a row
onto one row, its entries permuted by a small table (:meth:`OrbitSpace.row_pull`):
a level of the breadth-first search runs row by row in bounded memory.

Moves are named as twsearch writes them (:func:`permgroup.metric.power_name`);
``"htm"`` counts each power as one move, ``"qtm"`` the generator and its inverse.

>>> from permgroup.formats.definition import Definition, Orbit, OrbitState
>>> swap = Definition(
...     "swap2", (Orbit("P", 2, 3),),
...     {"P": OrbitState((0, 1), (0, 0))},
...     {"A": {"P": OrbitState((1, 0), (1, 0))}})
>>> space = OrbitSpace(swap, "htm")
>>> space.size, space.move_names
(6, ['A', 'A2', 'A3', "A2'", "A'"])
>>> space.rank(space.position_of(["A", "A"])) == int(space.step(space.step([0], 0), 0)[0])
True
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from math import factorial, prod

import numpy as np

from permgroup.levels import DenseKeys, by_moves, levels
from permgroup.spaces.product import FactorSpace
from permgroup.spaces.ranking import (lehmer_ranks, lehmer_unranks, multinomial, parities,
                                      placement_ranks, placement_unranks, sorted_positions)
from permgroup.spaces.space import ROW_PULL, Factor, rank_dtype
from permgroup.errors import InputError
from permgroup.formats.definition import (
    Definition,
    OrbitState,
    Position,
    apply_alg,
    move_order,
    power,
)
from permgroup.formats.alg import power_name
from permgroup.metric import htm_powers

#: a factor with at most this many raw values is listed by its own BFS
LIST_LIMIT = 1 << 21
#: two factors are tried together when the product of their sizes is at most this
MERGE_LIMIT = 1 << 22
#: the inner digit's size is kept at most this (rows fit the processor's cache)
INNER_LIMIT = 1 << 16
#: largest move tables of the outer digits built (refused past it, not run out of memory)
MAX_ROW_BYTES = 2 << 30
#: pieces left in the remainder of a split permutation (6! = 720 orders)
REMAINDER = 6
#: placements of a split permutation unranked at once while its tables are built
SPLIT_CHUNK = 1 << 16

METRICS = ("qtm", "htm", "gens")


def metric_moves(definition: Definition, metric: str = "qtm") -> dict[str, tuple[str, int]]:
    """The moves that count as one in ``metric``: name -> (generator, power);
    ``"gens"`` counts the generators alone (a directed graph: its table is a
    growth function, not a way back to solved).

    >>> from permgroup.formats.definition import Definition, Orbit, OrbitState
    >>> d = Definition("c4", (Orbit("P", 4),), {"P": OrbitState((0, 1, 2, 3), (0,) * 4)},
    ...                {"T": {"P": OrbitState((1, 2, 3, 0), (0,) * 4)}})
    >>> metric_moves(d, "htm"), metric_moves(d, "qtm")
    ({'T': ('T', 1), 'T2': ('T', 2), "T'": ('T', 3)}, {'T': ('T', 1), "T'": ('T', 3)})
    >>> metric_moves(d, "gens")
    {'T': ('T', 1)}
    """
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}: use 'qtm', 'htm' or 'gens'")
    moves = {}
    for name in definition.moves:
        n = move_order(definition, name)
        powers = (htm_powers(name, n) if metric == "htm" else [1] if metric == "gens" and n > 1
                  else sorted({1, n - 1} - {0}))
        for j in powers:
            moves[power_name(name, j, n)] = (name, j)
    return moves


# --- factors: a move table over tight indices, and positions <-> indices ------------
class ListedFactor:
    """One orbit's arrangement (``part == "pieces"``) or orientations: raw
    value ``values[i]`` for every reachable ``i`` (in order of raw keys),
    ``table[m, i]`` the index after move ``m``."""

    def __init__(self, orbit: str, part: str, values: np.ndarray, radix: int,
                 table_of) -> None:
        self.orbit, self.part = orbit, part
        self.name = f"{orbit} {part}"
        self.weights = radix ** np.arange(values.shape[1] - 1, -1, -1, dtype=np.int64)
        keys = values.astype(np.int64) @ self.weights
        order = np.argsort(keys)
        self.values, self.keys = values[order], keys[order]
        self.size = len(keys)
        self.table = np.stack([self.index(table_of(m, self.values)) for m in range(table_of.n)])

    def index(self, raw: np.ndarray) -> np.ndarray:
        """Indices of raw rows, ``-1`` for a row that is not listed."""
        return sorted_positions(self.keys, raw.astype(np.int64) @ self.weights)

    def encode(self, raws: dict) -> np.ndarray:
        return self.index(raws[self.orbit, self.part])

    def decode(self, index: np.ndarray, raws: dict) -> None:
        raws[self.orbit, self.part] = self.values[index]


class MergedFactor:
    """The reachable pairs of two factors whose values are tied, listed by
    ``first * second.size + second``."""

    def __init__(self, first, second, members: np.ndarray) -> None:
        self.first, self.second = first, second
        self.name = f"{first.name} & {second.name}"
        self.members = members  # sorted
        self.size = len(members)
        s2 = second.size
        self.table = np.stack([
            np.searchsorted(self.members, first.table[m][self.members // s2] * s2
                            + second.table[m][self.members % s2])
            for m in range(first.table.shape[0])])

    def encode(self, raws: dict) -> np.ndarray:
        a, b = self.first.encode(raws), self.second.encode(raws)
        found = sorted_positions(self.members, a * self.second.size + b)
        return np.where((a >= 0) & (b >= 0), found, -1)

    def decode(self, index: np.ndarray, raws: dict) -> None:
        a, b = np.divmod(self.members[index], self.second.size)
        self.first.decode(a, raws)
        self.second.decode(b, raws)


class SplitPermutation:
    """A permutation of ``n`` distinct pieces too large to list (see the
    module docstring): ``placement_table[m, a]`` is the placement after move
    ``m``, ``remainder_table[select[m, a], b]`` the remainder after move ``m``
    from placement ``a``; ``even``: only even arrangements (the remainder halved).
    """

    def __init__(self, orbit: str, n: int, move_slots: list[np.ndarray], even: bool) -> None:
        self.orbit, self.part, self.name = orbit, "pieces", f"{orbit} pieces"
        self.n, self.r = n, min(REMAINDER, n - 1)
        self.h = n - self.r
        self.even, self.move_slots = even, move_slots
        self.size_a = prod(range(n, self.r, -1))  # choices for pieces 0..h-1
        # the remainder's orders: by parity when only even arrangements occur (Lehmer
        # ranks 2q and 2q + 1 differ by a swap, so rank // 2 numbers each parity's orders)
        orders = lehmer_unranks(np.arange(factorial(self.r)), self.r)
        self.orders = (np.stack([orders[parities(orders) == p] for p in (0, 1)]) if even
                       else orders[None])
        groups, self.size_b = self.orders.shape[:2]
        self.size = self.size_a * self.size_b
        # row sigma * groups + p: order b of group p followed by sigma
        moved = self.orders[:, :, orders].transpose(2, 0, 1, 3).reshape(-1, self.r)
        self.remainder_table = (lehmer_ranks(moved) // groups).reshape(
            -1, self.size_b).astype(np.int32)

    @property
    def nbytes(self) -> int:
        """Bytes of the tables :meth:`build` makes (a table and a selector per
        move, a parity per placement), known before they are built."""
        return self.size_a * (8 * len(self.move_slots) + 1) + self.remainder_table.nbytes

    def build(self) -> None:
        """The placement and selector tables, :data:`SPLIT_CHUNK` placements at a
        time: the memory is that of the tables (:attr:`nbytes`), not tens of
        times more for the placements unranked all at once."""
        moves, groups = len(self.move_slots), self.orders.shape[0]
        self.placement_table = np.empty((moves, self.size_a), dtype=np.int32)
        self.select = np.empty((moves, self.size_a), dtype=np.int32)
        self.parity = np.empty(self.size_a, dtype=np.int8)
        backs = [np.argsort(mp).astype(np.int8) for mp in self.move_slots]
        for lo in range(0, self.size_a, SPLIT_CHUNK):
            hi = min(self.size_a, lo + SPLIT_CHUNK)
            # the slot of each piece 0..h-1, per placement
            slots = placement_unranks(np.arange(lo, hi), self.n, self.h).astype(np.int8)
            # the parity of each placement's arrangement with the remainder in order 0..r-1
            parity = parities(self._arrangements(slots, np.arange(self.r)[None, :]))
            self.parity[lo:hi] = parity
            rest = self._rest(slots)
            for m, back in enumerate(backs):  # the piece in slot j goes to slot back[j]
                self.placement_table[m, lo:hi] = placement_ranks(back[slots], self.n)
                # the remainder's places, moved, in increasing order: place j of the new
                # remainder holds what was in place sigma[j] of the old one
                sigma = np.argsort(back[rest], axis=1)
                self.select[m, lo:hi] = lehmer_ranks(sigma) * groups + (parity if self.even
                                                                         else 0)

    def _rest(self, slots: np.ndarray) -> np.ndarray:
        """The free slots of each placement, in increasing order."""
        free = np.ones((len(slots), self.n), dtype=bool)
        np.put_along_axis(free, slots, False, axis=1)
        return np.nonzero(free)[1].reshape(len(slots), self.r)

    def _arrangements(self, slots: np.ndarray, orders: np.ndarray) -> np.ndarray:
        labels = np.empty((len(slots), self.n), dtype=np.int64)
        np.put_along_axis(labels, slots, np.arange(self.h)[None, :].repeat(len(slots), 0), axis=1)
        np.put_along_axis(labels, self._rest(slots), orders + self.h, axis=1)
        return labels

    def encode(self, raws: dict) -> np.ndarray:
        labels = raws[self.orbit, "pieces"]
        slots = np.argsort(labels, axis=1)[:, :self.h]
        a = placement_ranks(slots, self.n)
        rest = np.take_along_axis(labels, self._rest(slots), axis=1) - self.h
        b = lehmer_ranks(rest)
        if self.even:
            b = np.where(parities(rest) == self.parity[a], b // 2, -1)
        return np.where(b < 0, -1, a * self.size_b + b)

    def decode(self, index: np.ndarray, raws: dict) -> None:
        a, b = np.divmod(index, self.size_b)
        slots = placement_unranks(a, self.n, self.h)
        rows = self.orders[self.parity[a] if self.even else 0, b]
        raws[self.orbit, "pieces"] = self._arrangements(slots, rows)


class RawAction:
    """How the metric's moves act on one raw part (arrangement or orientation)."""

    def __init__(self, slots: list[np.ndarray], twists: list[np.ndarray] | None, k: int):
        self.slots, self.twists, self.k, self.n = slots, twists, k, len(slots)

    def __call__(self, m: int, values: np.ndarray) -> np.ndarray:
        out = values[:, self.slots[m]]
        if self.twists is not None:
            out = (out + self.twists[m]) % self.k
        return out.astype(values.dtype)


def _listed(orbit: str, part: str, start: np.ndarray, act: RawAction, radix: int
            ) -> ListedFactor:
    """The factor of every value reachable from ``start`` under the moves, by
    BFS over their keys in base ``radix``.

    >>> turn = RawAction([np.array([1, 2, 0]), np.array([1, 0, 2])], None, 1)
    >>> _listed("P", "pieces", np.arange(3), turn, 3).size
    6
    >>> _listed("P", "pieces", np.array([0, 0, 1]), turn, 2).values.tolist()
    [[0, 0, 1], [0, 1, 0], [1, 0, 0]]
    """
    weights = radix ** np.arange(len(start) - 1, -1, -1, dtype=np.int64)
    found = [start[None, :]]
    grow = by_moves(lambda values, m: act(m, values), act.n)
    found += [level.states
              for level in levels(found[0], grow, lambda v: v.astype(np.int64) @ weights)]
    return ListedFactor(orbit, part, np.concatenate(found), radix, act)


def implied_twists(slot_moves: Sequence[tuple[Sequence[int], Sequence[int]]], modulus: int
                   ) -> tuple[np.ndarray, np.ndarray] | None:
    """Whether the moves fix each piece's twist by its slot: a move
    ``(target, shift)`` sends the piece in slot ``j`` to slot ``target[j]``,
    adding ``shift[j]`` to its twist.  ``(first, twist)``: ``first[j]`` the
    least slot of slot ``j``'s orbit, ``twist[j]`` the twist in slot ``j`` of a
    piece leaving slot ``first[j]`` untwisted; ``None`` when the moves turn some
    piece in place.

    >>> swap = [1, 0, 2]  # slots 0 and 1 trade pieces; slot 2 stays
    >>> [a.tolist() for a in implied_twists([(swap, [1, 1, 0])], 2)]
    [[0, 0, 2], [0, 1, 0]]
    >>> implied_twists([(swap, [1, 0, 0])], 2) is None  # back in slot 0 turned
    True
    """
    moves = [(np.asarray(target), np.asarray(shift)) for target, shift in slot_moves]
    n = len(moves[0][0])
    first = np.full(n, -1, dtype=np.int64)
    twist = np.zeros(n, dtype=np.int64)

    def images(keys: np.ndarray):  # keys: slot * modulus + twist
        slot, t = np.divmod(keys, modulus)
        return (target[slot] * modulus + (t + shift[slot]) % modulus for target, shift in moves)

    for start in range(n):
        if first[start] < 0:
            slot, t = np.divmod(_reachable(start * modulus, images, n * modulus), modulus)
            if len(np.unique(slot)) < len(slot):
                return None
            first[slot], twist[slot] = start, t
    return first, twist


def _label_twists(solved: OrbitState, slots: list[np.ndarray], twists: list[np.ndarray],
                  k: int) -> np.ndarray | None:
    """``twist[l, s]``: the one orientation a piece labelled ``l`` can have in
    slot ``s`` (the Dino cube's edges), or ``None``."""
    goes_to = [np.argsort(perm) for perm in slots]  # the piece in slot j goes to goes_to[j]
    implied = implied_twists([(to, add[to]) for to, add in zip(goes_to, twists)], k)
    if implied is None:
        return None
    first, twist = implied
    labels, start = np.array(solved.pieces), np.array(solved.orientation)
    # the piece leaving slot s twisted start[s] has start[s] + twist[j] - twist[s] in slot j
    s, j = np.nonzero(first[:, None] == first[None, :])
    t = (start[s] + twist[j] - twist[s]) % k
    out = np.zeros((labels.max() + 1, len(labels)), dtype=np.int8)
    out[labels[s], j] = t
    return out if (out[labels[s], j] == t).all() else None  # equal labels, equal twists


def _joint_members(a, b, sa: int, sb: int) -> np.ndarray:
    """Pair keys ``i * b.size + j`` reachable from the solved pair ``(sa, sb)``."""
    def images(keys: np.ndarray):
        i, j = np.divmod(keys, b.size)
        return (a_m[i].astype(np.int64) * b.size + b_m[j] for a_m, b_m in zip(a.table, b.table))

    return _reachable(sa * b.size + sb, images, a.size * b.size)


def _reachable(start: int, images, size: int) -> np.ndarray:
    """The keys below ``size`` reached from ``start`` by ``images(keys)``, the
    keys each move leads to, in order."""
    def grow(keys: np.ndarray):
        reached = np.concatenate(list(images(keys)))
        return reached, None, None

    seen = DenseKeys(size, np.array([start]))
    # a batch at a time: a whole level's images (moves x frontier keys, 8 bytes
    # each) took the Skewb's 3,149,280 pairs to a 340 MB peak
    for _ in levels(np.array([start], dtype=np.int64), grow, seen=seen, batch=1 << 16):
        pass
    return np.flatnonzero(seen.seen)


# --- the space ---------------------------------------------------------------------
class OrbitSpace:
    """Tight ranks of the positions of ``definition`` under ``metric``'s moves.

    A gear: two wheels of three teeth turned together, so the pair of
    arrangements has 3 values, not 9:

    >>> from permgroup.formats.definition import Definition, Orbit, OrbitState
    >>> turn = OrbitState((1, 2, 0), (0, 0, 0))
    >>> gear = Definition("gear", (Orbit("A", 3), Orbit("B", 3)),
    ...     {"A": OrbitState((0, 1, 2), (0,) * 3), "B": OrbitState((0, 1, 2), (0,) * 3)},
    ...     {"G": {"A": turn, "B": turn}})
    >>> space = OrbitSpace(gear, "qtm")
    >>> space.size, space.move_names, [f.name for f in space.factors]
    (3, ['G', "G'"], ['A pieces & B pieces'])
    >>> [space.rank(space.unrank(r)) for r in range(space.size)]
    [0, 1, 2]

    With ``tables=False`` the space knows its size and what its move tables
    will take (:attr:`nbytes`), and :meth:`build_tables` builds them.
    """

    capabilities = frozenset({ROW_PULL})

    def __init__(self, definition: Definition, metric: str = "qtm", *, tables: bool = True
                 ) -> None:
        self.definition, self.metric = definition, metric
        moves = metric_moves(definition, metric)
        self.move_names = list(moves)
        self.moves = [power(definition, definition.moves[g], j) for g, j in moves.values()]
        self.n_moves = len(self.moves)
        if not self.n_moves:
            raise InputError(f"{definition.name}: no moves")
        index = {name: i for i, name in enumerate(self.move_names)}
        self.inverse = []
        for g, j in moves.values():
            n = move_order(definition, g)
            name = power_name(g, n - j, n)
            if name not in index:  # a directed metric: the inverse steps back only
                index[name] = len(self.moves)
                self.moves.append(power(definition, definition.moves[g], n - j))
            self.inverse.append(index[name])
        self._build_factors()
        self._plan_rows()
        self.built = False
        if tables:
            self.build_tables()

    # --- construction ------------------------------------------------------------
    def _build_factors(self) -> None:
        d = self.definition
        factors: list = []
        self.split: SplitPermutation | None = None
        self.fixed: dict = {}  # parts no move changes: their solved values
        self.implied: dict = {}  # orbit -> twist of piece label l in slot s, [l, s]
        for orbit in d.orbits:
            solved = d.solved[orbit.name]
            slots = [np.array(m[orbit.name].pieces) for m in self.moves]
            twists = [np.array(m[orbit.name].orientation) for m in self.moves]
            # a byte a label, but for an orbit of more than 127 pieces (refused below
            # when its moves move it: too many arrangements)
            labels = np.array(solved.pieces,
                              dtype=np.int8 if max(solved.pieces, default=0) < 128 else np.int16)
            moved = any((s != np.arange(orbit.size)).any() for s in slots)
            if moved:
                distinct = len(set(solved.pieces)) == orbit.size
                size = (factorial(orbit.size) if distinct else
                        multinomial([solved.pieces.count(x) for x in set(solved.pieces)]))
                if size <= LIST_LIMIT:
                    factors.append(_listed(orbit.name, "pieces", labels, RawAction(slots, None, 1),
                                           int(labels.max()) + 1))
                elif (distinct and self.split is None  # a placement table fits MAX_ROW_BYTES
                      and 4 * size // factorial(REMAINDER) <= MAX_ROW_BYTES):
                    even = all(parities(s[None, :])[0] == 0 for s in slots)
                    if list(solved.pieces) != list(range(orbit.size)):
                        raise InputError(f"{d.name}: orbit {orbit.name}: solved pieces must be "
                                         "numbered in order for a table")
                    self.split = SplitPermutation(orbit.name, orbit.size, slots, even)
                else:
                    raise InputError(f"{d.name}: orbit {orbit.name} has too many arrangements "
                                     f"({size:,}) for a table")
            else:
                self.fixed[orbit.name, "pieces"] = labels
            k = orbit.orientations
            start = np.array(solved.orientation, dtype=np.int8)
            varies = k > 1 and any(t.any() for t in twists)
            implied = _label_twists(solved, slots, twists, k) if varies else None
            if implied is not None:  # each piece's twist is fixed by its slot: no digit
                self.implied[orbit.name] = implied
            elif varies:
                if k ** orbit.size > LIST_LIMIT:
                    raise InputError(f"{d.name}: orbit {orbit.name} has too many orientations "
                                     f"({k ** orbit.size:,}) for a table")
                factors.append(_listed(orbit.name, "orientation", start,
                                       RawAction(slots, twists, k), k))
            else:
                self.fixed[orbit.name, "orientation"] = start
        for f in factors:
            if f.size == 1:  # moved, but always back to the same value
                self.fixed[f.orbit, f.part] = f.values[0]
        factors = [f for f in factors if f.size > 1]
        solved = self._raws([d.solved])
        self.factors = _merge_tied(factors, lambda f: int(f.encode(solved)[0]))

    def _plan_rows(self) -> None:
        """Choose the inner digit; the sizes, without the row tables."""
        factors = self.factors
        if self.split is not None:
            inner, outer = [], factors
            # the rows: the outer factors and the split permutation's placement
            self._rows = outer + [self.split]
            self.inner_size = self.split.size_b
        else:
            inner = _best_inner(factors)
            outer = self._rows = [f for f in factors if f not in inner]
            self.inner_size = prod(f.size for f in inner)
        self._inner = inner
        # in rank order: a split permutation's two digits sit between outer and inner
        self.digit_factors = outer + ([self.split] if self.split else []) + inner
        self.outer_size = prod(f.size_a if f is self.split else f.size for f in self._rows)
        self.size = self.outer_size * self.inner_size
        if self.size > 2**40:
            raise InputError(f"{self.definition.name}: {self.size:,} states are too many "
                             "for a table")
        tables = len(self.moves)  # the moves that count, then inverses used for steps back
        row_bytes = tables * self.outer_size * 4
        if row_bytes > MAX_ROW_BYTES:
            raise InputError(
                f"{self.definition.name}: its ranks are not tight enough here (factors "
                f"{', '.join(f'{f.name} {f.size:,}' for f in factors)}; {self.size:,} ranks), "
                f"and their move tables would take {row_bytes / 2**30:.1f} GiB")
        self.dtype = rank_dtype(self.size)

    @property
    def nbytes(self) -> int:
        """Bytes the move tables take at the peak of their building, known before
        they are built (``OrbitSpace(definition, tables=False)``): a table's
        build asks its budget for them first.

        >>> from permgroup.formats import resolve
        >>> space = OrbitSpace(resolve("lrx-13"), tables=False)   # nothing large built yet
        >>> space.size, space.nbytes > 6 * 8_648_640   # 13!/6! placements, 3 moves
        (6227020800, True)
        """
        moves = len(self.moves)
        total = moves * self.outer_size * 4 + 24 * self.outer_size  # and _product_table's ranks
        if self.split is None:
            return total + moves * self.inner_size * 8
        if self.outer_size != self.split.size_a:
            total += moves * self.outer_size * 4  # the selector of every row
        return total + self.split.nbytes + self.split.remainder_table.nbytes * 2

    def build_tables(self) -> None:
        """Build the row tables (done by the constructor unless ``tables=False``)."""
        if self.built:
            return
        tables = len(self.moves)
        if self.split is not None:
            self.split.build()
        rows = [Factor(f.name, f.size_a, f.placement_table) if f is self.split else f
                for f in self._rows]
        # row indices fit 32 bits (see MAX_ROW_BYTES): half the memory of intp
        self.row_next = _product_table(rows, tables, np.int32)
        self.row_select = None
        if self.split:
            if self.outer_size == self.split.size_a:  # the placement is the whole row index
                self.row_select = self.split.select
            else:
                self.row_select = self.split.select[:, np.arange(self.outer_size)
                                                    % self.split.size_a]
            self.inner_table = self.split.remainder_table.astype(np.intp)
        else:
            self.inner_table = _product_table(self._inner, tables, np.intp)
        self.built = True

    # --- stepping ---------------------------------------------------------------------
    def step(self, ranks: np.ndarray | Sequence[int], m: int) -> np.ndarray:
        ranks = np.asarray(ranks).astype(self.dtype, copy=False)
        outer, inner = np.divmod(ranks, self.dtype(self.inner_size))
        row = m if self.row_select is None else self.row_select[m][outer]
        return (self.row_next[m][outer].astype(self.dtype) * self.dtype(self.inner_size)
                + self.inner_table[row, inner].astype(self.dtype))

    def back_step(self, ranks: np.ndarray | Sequence[int], m: int) -> np.ndarray:
        return self.step(ranks, self.inverse[m])

    def row_pull(self, values: np.ndarray, first: int, last: int, m: int) -> np.ndarray:
        """``values`` (shape ``(outer_size, inner_size)``) read at the
        predecessors by move ``m`` of every state in rows ``first..last-1``."""
        back = self.inverse[m]
        rows = values[self.row_next[back][first:last]]
        if self.row_select is None:
            return np.take(rows, self.inner_table[back], axis=1)
        # one flat take: twice as fast as take_along_axis's pair of index arrays
        cells = self.inner_table[self.row_select[back][first:last]]
        cells += (np.arange(last - first, dtype=cells.dtype) * self.inner_size)[:, None]
        return rows.reshape(-1).take(cells)

    # --- positions -------------------------------------------------------------------
    def _raws(self, positions: Sequence[Position]) -> dict:
        return {(o.name, part): np.array([getattr(p[o.name], part) for p in positions],
                                         dtype=np.int64).reshape(len(positions), -1)
                for o in self.definition.orbits for part in ("pieces", "orientation")}

    def ranks(self, positions: Sequence[Position]) -> np.ndarray:
        """Ranks of many positions; ``-1`` for a position outside the space
        (one no sequence of moves reaches)."""
        raws = self._raws(positions)
        rank = np.zeros(len(positions), dtype=np.int64)
        bad = np.zeros(len(positions), dtype=bool)
        for key, value in self.fixed.items():
            bad |= (raws[key] != value[None, :]).any(axis=1)
        for name, twist in self.implied.items():
            pieces = raws[name, "pieces"]
            bad |= (pieces < 0).any(axis=1) | (pieces >= twist.shape[0]).any(axis=1)
            expected = twist[np.clip(pieces, 0, twist.shape[0] - 1), np.arange(pieces.shape[1])]
            bad |= (raws[name, "orientation"] != expected).any(axis=1)
        for f in self.digit_factors:
            i = f.encode(raws)
            bad |= i < 0
            rank = rank * f.size + i
        return np.where(bad, -1, rank)

    def rank(self, position: Position) -> int:
        """The rank of one position.

        >>> from permgroup.formats.definition import Definition, Orbit, OrbitState
        >>> d = Definition("flip", (Orbit("E", 2, 2),), {"E": OrbitState((0, 1), (0, 0))},
        ...                {"F": {"E": OrbitState((1, 0), (1, 0))}})
        >>> space = OrbitSpace(d)
        >>> space.size, space.rank(space.position_of(["F", "F"]))
        (4, 1)
        """
        r = int(self.ranks([position])[0])
        if r < 0:
            raise InputError(f"{self.definition.name}: the position is not reachable "
                             "with these moves")
        return r

    def unranks(self, ranks: np.ndarray | Sequence[int]) -> list[Position]:
        """The positions of many ranks."""
        rest = np.asarray(ranks, dtype=np.int64)
        raws = {key: np.repeat(value[None, :], len(rest), 0) for key, value in self.fixed.items()}
        for f in reversed(self.digit_factors):
            rest, i = np.divmod(rest, f.size)
            f.decode(i, raws)
        for name, twist in self.implied.items():
            pieces = raws[name, "pieces"]
            raws[name, "orientation"] = twist[pieces, np.arange(pieces.shape[1])]
        return [{o.name: OrbitState(tuple(int(x) for x in raws[o.name, "pieces"][j]),
                                    tuple(int(x) for x in raws[o.name, "orientation"][j]))
                 for o in self.definition.orbits} for j in range(len(rest))]

    def unrank(self, rank: int) -> Position:
        """The position of one rank."""
        return self.unranks([rank])[0]

    def position_of(self, moves: Sequence[str]) -> Position:
        """The position a sequence of moves (any powers, ``X2'`` style) makes from solved."""
        return apply_alg(self.definition, " ".join(moves))

    def fingerprint(self) -> str:
        return f"{self.definition.fingerprint()}-{self.metric}"


def _merge_tied(factors: list, solved_index) -> list:
    """Merge tied pairs of factors, smallest products first, until none is tied."""
    factors = list(factors)
    tried: set = set()
    while True:
        pairs = sorted(((a.size * b.size, i, j) for (i, a), (j, b)
                        in combinations(enumerate(factors), 2)
                        if a.size * b.size <= MERGE_LIMIT and (a.name, b.name) not in tried))
        for _, i, j in pairs:
            a, b = factors[i], factors[j]
            tried.add((a.name, b.name))
            members = _joint_members(a, b, solved_index(a), solved_index(b))
            if len(members) < a.size * b.size:
                factors = [f for k, f in enumerate(factors) if k not in (i, j)]
                factors.append(MergedFactor(a, b, members))
                break
        else:
            return factors


def _product_table(factors: list, moves: int, dtype: type) -> np.ndarray:
    """``table[m, r]``: the rank after move ``m`` from rank ``r`` of the factors' product."""
    out = np.zeros((moves, prod(f.size for f in factors)), dtype=dtype)
    if factors:
        space, ranks = FactorSpace(factors), np.arange(out.shape[1])
        for m in range(moves):
            out[m] = space.step(ranks, m)
    return out


def _best_inner(factors: list) -> list:
    """The inner digit's factors: the largest product of at most two within
    :data:`INNER_LIMIT`."""
    fitting = [list(g) for count in (1, 2) for g in combinations(factors, count)
               if prod(f.size for f in g) <= INNER_LIMIT]
    return max(fitting, key=lambda g: prod(f.size for f in g), default=[])
