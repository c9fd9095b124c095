"""States of groups too large for one rank: columns of digits with small move tables.

A batch of ``N`` states is a ``(k, N)`` array, one row per digit, and a move
is one gather per digit.  The digits of one kind of piece are its
:class:`~permgroup.spaces.element.PieceCoordinate`'s permutation and twist
digits or, where the permutation's table would be too large (12! entries for
twelve pieces), one *placement* digit per group of pieces: the slots those
pieces occupy (12·11·10·9 = 11,880 values for four pieces out of twelve).
Together the groups determine the permutation.

States are compared through *packed keys*: the digits' bits laid side by side
in as few 64-bit words as needed (:meth:`DigitSpace.keys`), exact, never hashed.
"""
from __future__ import annotations

from collections.abc import Sequence
from math import prod

import numpy as np

from permgroup.cache import cached_array, table_file
from permgroup.spaces.colouring import bits_per_cell
from permgroup.spaces.element import Digit, PieceCoordinate
from permgroup.spaces.space import Factor, rank_dtype
from permgroup.perm import Perm, from_cycles, inverse


def piece_digits(coordinate: PieceCoordinate,
                 placements: Sequence[Sequence[int]] | None = None) -> list[Digit]:
    """The digits of one kind of piece.

    Without ``placements``: the permutation digit and the twist digit.  With
    them: one placement digit per group of pieces (indices into
    ``coordinate.slots``; the groups must be disjoint and cover every piece but
    possibly one, which goes where the others are not), then the twist digit.

    >>> t, f = from_cycles([(0, 2, 4), (1, 3, 5)], 6), from_cycles([(0, 1), (2, 3)], 6)
    >>> c = PieceCoordinate.from_moves("bar", ((0, 1), (2, 3), (4, 5)), {"t": t, "f": f})
    >>> [d.name for d in piece_digits(c)]
    ['bar permutation', 'bar twist']
    >>> [d.name for d in piece_digits(c, [[0], [1]])]  # bar 2 goes to the slot left
    ['bar placement 0', 'bar placement 1', 'bar twist']
    >>> piece_digits(c, [[0]])
    Traceback (most recent call last):
    ...
    ValueError: bar: placement groups must be disjoint and cover the pieces
    """
    twist = Digit(coordinate, "twist")
    if placements is None:
        return [Digit(coordinate), twist]
    covered = [p for group in placements for p in group]
    if len(set(covered)) != len(covered) or len(covered) < coordinate.count - 1:
        raise ValueError(f"{coordinate.kind}: placement groups must be disjoint and cover "
                         "the pieces")
    return [Digit(coordinate, "placement", tuple(g)) for g in placements] + [twist]


class DigitSpace:
    """States as columns of digits, ``digits`` in key order: the first word
    of a packed key holds the first digits, so the most varied go first (a
    search compares first words and looks at the rest only on a tie).

    >>> t, f = from_cycles([(0, 2, 4), (1, 3, 5)], 6), from_cycles([(0, 1), (2, 3)], 6)
    >>> c = PieceCoordinate.from_moves("bar", ((0, 1), (2, 3), (4, 5)), {"t": t, "f": f})
    >>> s = DigitSpace(piece_digits(c), ["t", "f"])
    >>> s.sizes, s.bits, s.word_bits  # 3 + 2 bits: one 64-bit word
    ([6, 4], [3, 2], [5])
    >>> states = s.of_elements([tuple(range(6)), t])
    >>> states.tolist(), s.step(states, 1).tolist()
    ([[0, 4], [0, 0]], [[0, 4], [3, 3]])
    >>> s.keys(states).tolist(), s.project(states, [0, 1]).tolist()
    ([[0, 4]], [0, 16])
    """

    def __init__(self, digits: Sequence[Digit], move_names: Sequence[str],
                 tables: Sequence[np.ndarray] | None = None):
        self.digits = list(digits)
        self.move_names = list(move_names)
        self.n_moves = len(self.move_names)
        if tables is None:
            tables = [d.table() for d in self.digits]
        self.factors = [Factor(d.name, d.size, t) for d, t in zip(self.digits, tables)]
        self.sizes = [f.size for f in self.factors]
        if any(f.table.shape != (self.n_moves, f.size) for f in self.factors):
            raise ValueError("every factor needs one table row per move")
        self.dtype = np.uint16 if max(self.sizes) <= 2**16 else np.int32
        self.tables = [f.table.astype(self.dtype) for f in self.factors]
        self.bits = [bits_per_cell(size) for size in self.sizes]
        self.layout = _pack_layout(self.bits)
        self.word_bits = [sum(self.bits[i] for i, _ in word) for word in self.layout]
        self._coordinates = list(dict.fromkeys(d.coordinate for d in self.digits))

    @property
    def n_words(self) -> int:
        return len(self.layout)

    def of_elements(self, elements: Sequence[Sequence[int]]) -> np.ndarray:
        """The ``(k, N)`` digits of elements given in array form."""
        elements = np.asarray(elements, dtype=np.int64)
        return self.of_slot_forms({c.kind: c.slot_forms(elements) for c in self._coordinates})

    def of_slot_forms(self, forms: dict[str, tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
        """The ``(k, N)`` digits from each kind's slot forms ``(at, tw)``, rows
        of ``N`` elements (see :mod:`permgroup.spaces.element`)."""
        n = len(next(iter(forms.values()))[0])
        out = np.empty((len(self.digits), n), dtype=self.dtype)
        for i, d in enumerate(self.digits):
            out[i] = d.values(*forms[d.coordinate.kind])
        return out

    def step(self, states: np.ndarray, m: int) -> np.ndarray:
        """The states after move ``m`` (index into ``move_names``)."""
        out = np.empty_like(states)
        for i, table in enumerate(self.tables):
            np.take(table[m], states[i], out=out[i])
        return out

    def keys(self, states: np.ndarray) -> np.ndarray:
        """Packed keys, shape ``(n_words, N)``, ``uint64``: exact and injective."""
        out = np.zeros((self.n_words, states.shape[1]), dtype=np.uint64)
        for w, word in enumerate(self.layout):
            for i, shift in word:
                out[w] |= states[i].astype(np.uint64) << np.uint64(shift)
        return out

    def project(self, states: np.ndarray | dict[int, np.ndarray], which: Sequence[int]
                ) -> np.ndarray:
        """Mixed-radix ranks of the states' digits ``which`` (the last varying
        fastest; ``states`` may hold only those, by digit)."""
        dtype = rank_dtype(prod(self.sizes[i] for i in which))
        rank = states[which[0]].astype(dtype, copy=len(which) > 1)
        for i in which[1:]:
            rank *= self.sizes[i]
            rank += states[i]
        return rank


def _pack_layout(bits: Sequence[int]) -> list[list[tuple[int, int]]]:
    """Digits to words, in order, each word at most 64 bits: ``[(digit, shift)]``."""
    layout: list[list[tuple[int, int]]] = [[]]
    used = 0
    for i, b in enumerate(bits):
        if used + b > 64:
            layout.append([])
            used = 0
        layout[-1].append((i, used))
        used += b
    return layout


def ring_space(n: int) -> tuple[DigitSpace, Perm]:
    """The space of ``n`` cells on a ring turned forward (``t``) or back
    (``t'``), and the turn ``t``: the search modules' examples use it.

    >>> space, t = ring_space(4)
    >>> space.move_names, t
    (['t', "t'"], (1, 2, 3, 0))
    """
    turn = from_cycles([tuple(range(n))], n)
    moves = {"t": turn, "t'": inverse(turn)}
    cells = PieceCoordinate.from_moves("cell", tuple((i,) for i in range(n)), moves)
    return DigitSpace(piece_digits(cells), list(moves)), turn


def load_digit_space(digits: Sequence[Digit], move_names: Sequence[str], key: dict,
                     name: str) -> DigitSpace:
    """The space of ``digits`` with its move tables read from the cache, or
    built and saved there; ``key`` identifies the puzzle and metric.

    >>> import os, tempfile
    >>> os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> space, t = ring_space(4)
    >>> built = load_digit_space(space.digits, space.move_names, {"puzzle": "ring"}, "ring")
    >>> from permgroup.cache import cache_dir
    >>> [f.name.split("-")[1] for f in cache_dir().iterdir()]
    ['digits']
    >>> read = load_digit_space(space.digits, space.move_names, {"puzzle": "ring"}, "ring")
    >>> all((a == b).all() for a, b in zip(built.tables, read.tables))
    True
    """
    key = dict(key, kind="digit tables", digits=[d.name for d in digits],
               moves=list(move_names))
    sizes = [d.size for d in digits]
    _, blob = cached_array(
        table_file(f"{name}-digits", key, "tables"), key, len(move_names) * sum(sizes),
        lambda report: np.concatenate(DigitSpace(digits, move_names).tables, axis=1).ravel(),
        title=f"{name}: move tables of {len(sizes)} digits")
    tables = np.split(blob.reshape(len(move_names), -1), np.cumsum(sizes)[:-1], axis=1)
    return DigitSpace(digits, move_names, tables)
