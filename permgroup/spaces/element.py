"""Coordinates: a bijection between normalized elements and ``0..N-1``.

A *piece* is a tuple of sticker positions that every move carries onto another
piece, shifting the tuple cyclically (a corner's three stickers in clockwise
order).  For one kind of piece, an element's *slot form* is ``at[j]``, the
piece in slot ``j`` (piece ``j``'s home), and ``tw[j]``, its twist: the place
within slot ``j``'s tuple of that piece's first sticker.  A move sends slot
``j`` to slot ``M[j]`` adding ``d[j]`` to the twist, whatever piece is there,
so the permutation and the twist each get a small move table.  The rank is the
Lehmer code of ``at`` times the twist digits (the last dropped when every move
keeps the twist sum).  Pieces no move displaces are left out.

numpy is imported inside the vectorized functions only: a process that ranks a
few elements to read a cached table never loads it.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import permutations
from math import factorial, perm, prod
from typing import TYPE_CHECKING

from permgroup.perm import Perm, inverse
from permgroup.spaces.ranking import (digits_rank, lehmer_rank, lehmer_ranks, lehmer_unranks,
                                      orientation_ranks, orientation_unranks, placement_ranks,
                                      placement_unranks)
from permgroup.spaces.space import DENSE_STEP, Factor

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np


class PieceCoordinate:
    """The coordinate of one kind of piece (see the module docstring); build
    it with :meth:`from_moves`.

    Three two-sticker bars: ``t`` cycles them, ``f`` flips the first two
    together, so the flip sum stays even and one flip digit is dropped;
    flipping one bar alone is outside the group:

    >>> from permgroup.perm import from_cycles
    >>> t, f = from_cycles([(0, 2, 4), (1, 3, 5)], 6), from_cycles([(0, 1), (2, 3)], 6)
    >>> c = PieceCoordinate.from_moves("bar", ((0, 1), (2, 3), (4, 5)), {"t": t, "f": f})
    >>> c.twist_invariant, c.perm_size, c.twist_size, c.slot_form(t)
    (True, 6, 4, ([2, 0, 1], [0, 0, 0]))
    >>> c.size, c.rank(t), c.rank(tuple(range(6)))  # (2, 0, 1) is permutation 4
    (24, 16, 0)
    >>> import numpy as np
    >>> [a.tolist() for a in c.slot_forms(np.array([t]))]
    [[[2, 0, 1]], [[0, 0, 0]]]
    >>> c.slot_form(from_cycles([(0, 1)], 6))  # an odd flip sum
    ([0, 1, 2], [1, 0, 0])
    >>> [(d.name, d.table.shape) for d in c.factors()]
    [('bar permutation', (2, 6)), ('bar twist', (2, 4))]
    """

    def __init__(self, kind: str, slots: tuple[tuple[int, ...], ...], moves: dict[str, Perm],
                 twist_invariant: bool | None = None):
        self.kind = kind
        self.slots = slots
        self.count = len(slots)
        self.modulus = len(slots[0])
        degree = len(next(iter(moves.values())))
        self.slot_of = [-1] * degree
        self.place_of = [-1] * degree
        for j, slot in enumerate(slots):
            for u, pos in enumerate(slot):
                self.slot_of[pos] = j
                self.place_of[pos] = u
        self.reference = tuple(slot[0] for slot in slots)
        self.move_names = list(moves)
        self.slot_moves = self._slot_moves(moves)
        if twist_invariant is None:
            twist_invariant = all(sum(d) % self.modulus == 0 for _, d in self.slot_moves)
        self.twist_invariant = twist_invariant
        self.perm_size = factorial(self.count)
        free_digits = self.count - 1 if twist_invariant else self.count
        self.twist_size = self.modulus**free_digits
        self.size = self.perm_size * self.twist_size

    @classmethod
    def from_moves(cls, kind: str, pieces: Sequence[Sequence[int]], moves: dict[str, Perm]
                   ) -> PieceCoordinate:
        """The coordinate of ``pieces`` under ``moves``, fixed pieces left out,
        the twist sum found invariant or not."""
        moved = [tuple(p) for p in pieces if any(m[x] != x for m in moves.values() for x in p)]
        if not moved:
            raise ValueError(f"no move displaces any {kind}")
        return cls(kind, tuple(moved), moves)

    def _slot_moves(self, moves: dict[str, Perm]) -> list[tuple[list[int], list[int]]]:
        """Each move as ``(target, shift)``: the slot each slot's piece goes to and
        the turn it takes; :class:`ValueError` for a move that breaks a piece.
        Plain loops, no generator a slot and none for one-point pieces
        (transpositions-200's 19,900 moves: a second or two, not 20)."""
        # elements.piece_form checks the same, but the solving path must not import
        # elements (nor numpy: a cached table's lookup runs without it)
        slots, slot_of, place_of, modulus = self.slots, self.slot_of, self.place_of, self.modulus
        out = []
        if modulus == 1:  # one-point pieces: a comprehension a move (S_200's: 0.5 s, not 3)
            refs = [slot[0] for slot in slots]
            for name, move in moves.items():
                target = [slot_of[move[r]] for r in refs]
                if -1 in target:
                    slot = slots[target.index(-1)]
                    raise ValueError(
                        f"move {name!r} does not carry {self.kind} {slot} onto a {self.kind}")
                out.append((target, [0] * len(refs)))
            return out
        for name, move in moves.items():
            target, shift = [], []
            for slot in slots:
                pos = move[slot[0]]
                k, t = slot_of[pos], place_of[pos]
                if k >= 0 and modulus > 1:
                    onto = slots[k]
                    for u in range(1, modulus):
                        if move[slot[u]] != onto[(u + t) % modulus]:
                            k = -1
                            break
                if k < 0:
                    raise ValueError(
                        f"move {name!r} does not carry {self.kind} {slot} onto a {self.kind}")
                target.append(k)
                shift.append(t)
            out.append((target, shift))
        return out

    # --- one element -------------------------------------------------------
    def slot_form(self, element: Sequence[int]) -> tuple[list[int], list[int]]:
        """``(at, tw)`` for an element given in array form."""
        at = [0] * self.count
        tw = [0] * self.count
        slot_of, place_of = self.slot_of, self.place_of
        for piece, ref in enumerate(self.reference):
            pos = element[ref]
            j = slot_of[pos]
            at[j] = piece
            tw[j] = place_of[pos]
        return at, tw

    def slot_forms(self, elements: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(at, tw)`` of many elements (rows of array forms) at once."""
        import numpy as np

        pos = np.asarray(elements).reshape(-1, len(self.slot_of))[:, list(self.reference)]
        slot = np.asarray(self.slot_of)[pos]
        rows = np.arange(len(pos))[:, None]
        at = np.empty((len(pos), self.count), dtype=np.int64)
        tw = np.empty((len(pos), self.count), dtype=np.int64)
        at[rows, slot] = np.arange(self.count)
        tw[rows, slot] = np.asarray(self.place_of)[pos]
        return at, tw

    def rank(self, element: Sequence[int]) -> int:
        """The rank of an element (array form) of the normalized group."""
        at, tw = self.slot_form(element)
        twist = digits_rank(tw[:-1] if self.twist_invariant else tw, self.modulus)
        at_rank = _rank_table(self.count)[tuple(at)] if self.count <= 8 else lehmer_rank(at)
        return at_rank * self.twist_size + twist

    # --- many elements -----------------------------------------------------
    def twist_ranks(self, tw: np.ndarray) -> np.ndarray:
        return orientation_ranks(tw, self.modulus, self.twist_invariant)

    def twist_unranks(self, ranks: np.ndarray) -> np.ndarray:
        return orientation_unranks(ranks, self.modulus, self.count, self.twist_invariant)

    def ranks(self, at: np.ndarray, tw: np.ndarray) -> np.ndarray:
        """Ranks of many slot forms (rows of ``at`` and ``tw``)."""
        return self._perm_ranks(at) * self.twist_size + self.twist_ranks(tw)

    def factors(self) -> list[Factor]:
        """The permutation and twist digits with their move tables."""
        return [Factor(d.name, d.size, d.table()) for d in (Digit(self), Digit(self, "twist"))]

    def quotient_ranks(self, p: np.ndarray, q: np.ndarray) -> np.ndarray:
        """Ranks of ``p⁻¹ q`` for many pairs of ranks ``(p, q)``.

        With ``where`` the inverse of ``at`` (the slot of each piece), the slot
        form of ``c = p⁻¹ q`` is ``at_c[j] = where_p[at_q[j]]`` and
        ``tw_c[j] = tw_q[j] - tw_p[at_c[j]]``, rows read from lookup tables.
        """
        import numpy as np

        perms, inverse_rank, _ = _permutations(self.count)
        twists = self.twist_unranks(np.arange(self.twist_size)).astype(np.int8)
        p_perm, p_twist = np.divmod(np.asarray(p), self.twist_size)
        q_perm, q_twist = np.divmod(np.asarray(q), self.twist_size)
        n = self.count
        # flat indices into (pairs x count) arrays; 32 bits keep the gathers cheap
        index = np.int64 if len(p_perm) * n >= 2**31 else np.int32
        offsets = (np.arange(len(p_perm), dtype=index) * index(n))[:, None]
        p_where = (perms[inverse_rank[p_perm]] + offsets).ravel()
        c_at_flat = p_where[perms[q_perm] + offsets]
        c_tw = twists[q_twist] - twists[p_twist].ravel()[c_at_flat]
        c_tw += self.modulus
        c_tw %= self.modulus
        return self.ranks(c_at_flat - offsets, c_tw)

    def _perm_ranks(self, perms: np.ndarray) -> np.ndarray:
        import numpy as np

        if self.count > 7:
            return lehmer_ranks(perms)
        return _permutations(self.count)[2][_perm_codes(perms)].astype(np.int64)


# lookup tables shared by the coordinates of as many pieces (cached properties
# would slow every attribute read of a coordinate, the scalar rank's hot path)
@lru_cache(maxsize=None)
def _rank_table(count: int) -> dict[tuple[int, ...], int]:
    # permutations() yields Lehmer order, so a dictionary of them is a rank table
    return {p: r for r, p in enumerate(permutations(range(count)))}


@lru_cache(maxsize=None)
def _permutations(count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Every permutation of ``count`` pieces in rank order, the rank of each one's
    inverse and, up to seven pieces (8**count entries), each 3-bit code's rank."""
    import numpy as np

    perms = lehmer_unranks(np.arange(factorial(count)), count)
    code_rank = None
    if count <= 7:
        code_rank = np.zeros(8**count, dtype=np.int32)
        code_rank[_perm_codes(perms)] = np.arange(len(perms))
    return perms.astype(np.int8), lehmer_ranks(np.argsort(perms, axis=1)), code_rank


def _perm_codes(perms: np.ndarray) -> np.ndarray:
    import numpy as np

    codes = np.zeros(len(perms), dtype=np.int64)
    for i in range(perms.shape[1]):
        codes |= perms[:, i].astype(np.int64) << (3 * i)
    return codes


@dataclass(frozen=True, eq=False)
class Digit:
    """One digit of a state: the ``"permutation"`` (Lehmer rank of ``at``),
    ``"twist"`` or ``"placement"`` (the slots of the pieces listed in
    ``placement``) of one kind of piece's coordinate.

    Three two-sticker bars, cycled by ``t``, the first two flipped by ``f``:

    >>> import numpy as np
    >>> from permgroup.perm import from_cycles
    >>> t, f = from_cycles([(0, 2, 4), (1, 3, 5)], 6), from_cycles([(0, 1), (2, 3)], 6)
    >>> c = PieceCoordinate.from_moves("bar", ((0, 1), (2, 3), (4, 5)), {"t": t, "f": f})
    >>> where = Digit(c, "placement", (0,))  # the slot of bar 0
    >>> where.name, where.size, where.table().tolist()
    ('bar placement 0', 3, [[1, 2, 0], [0, 1, 2]])
    >>> twist = Digit(c, "twist")
    >>> twist.name, twist.size, twist.table().tolist()
    ('bar twist', 4, [[0, 3, 1, 2], [3, 2, 1, 0]])
    >>> at, tw = c.slot_form(t)
    >>> Digit(c).values(np.array([at]), np.array([tw])).tolist()  # Lehmer rank of at
    [4]
    """

    coordinate: PieceCoordinate
    part: str = "permutation"
    placement: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        c = self.coordinate
        if self.part == "twist":
            return c.twist_size
        return perm(c.count, len(self.placement) or c.count)

    @property
    def name(self) -> str:
        extra = f" {','.join(map(str, self.placement))}" if self.placement else ""
        return f"{self.coordinate.kind} {self.part}{extra}"

    def values(self, at: np.ndarray, tw: np.ndarray) -> np.ndarray:
        """The digit of many elements from their slot forms (rows of ``at``, ``tw``)."""
        import numpy as np

        c = self.coordinate
        if self.part == "twist":
            return c.twist_ranks(tw)
        if self.part == "permutation":
            return lehmer_ranks(at)
        where = np.argsort(at, axis=1)[:, list(self.placement)]
        return placement_ranks(where, c.count)

    def table(self) -> np.ndarray:
        """The move table: ``table[m, v]`` is the digit after move ``m`` from ``v``."""
        import numpy as np

        c = self.coordinate
        out = np.empty((len(c.slot_moves), self.size), dtype=np.int32)
        # slot j goes to target[j]: slot j then holds what slot inverse(target)[j] held
        if self.part == "twist":
            twists = c.twist_unranks(np.arange(self.size))
            for i, (target, shift) in enumerate(c.slot_moves):
                out[i] = c.twist_ranks(((twists + shift) % c.modulus)[:, list(inverse(target))])
        elif self.part == "permutation":
            perms = lehmer_unranks(np.arange(self.size), c.count)
            for i, (target, _) in enumerate(c.slot_moves):
                out[i] = lehmer_ranks(perms[:, list(inverse(target))])
        else:
            slots = placement_unranks(np.arange(self.size), c.count, len(self.placement))
            for i, (target, _) in enumerate(c.slot_moves):
                out[i] = placement_ranks(np.array(target)[slots], c.count)
        return out


class ElementRanking:
    """Ranks of elements over several kinds of piece (corners and edges...):
    mixed radix over each kind's permutation and twist digits, in order.

    Three points turned by ``a`` and one bar flipped by ``b``:

    >>> import numpy as np
    >>> from permgroup.perm import compose, from_cycles
    >>> a, b = from_cycles([(0, 1, 2)], 5), from_cycles([(3, 4)], 5)
    >>> points = PieceCoordinate.from_moves("point", ((0,), (1,), (2,)), {"a": a, "b": b})
    >>> bar = PieceCoordinate.from_moves("bar", ((3, 4),), {"a": a, "b": b})
    >>> r = ElementRanking([points, bar])
    >>> r.size, r.rank(a), r.rank(b), r.rank(compose(a, b))
    (12, 8, 1, 9)
    >>> [part.tolist() for part in r.split(np.array([9]))]
    [[4], [1]]
    >>> r.quotient_ranks(np.array([8]), np.array([9])).tolist()  # a⁻¹ (a b) = b
    [1]
    >>> ab = [list(compose(a, b))]
    >>> r.ranks_of(np.array(ab)).tolist(), r.elements(np.array([9]), 5).tolist() == ab
    ([9], True)
    """

    def __init__(self, coordinates: Sequence[PieceCoordinate]):
        self.coordinates = list(coordinates)
        self.size = prod(c.size for c in self.coordinates)

    def rank(self, element: Sequence[int]) -> int:
        """The rank of one element in array form."""
        rank = 0
        for c in self.coordinates:  # not _join: one element's rank is a hot path
            rank = rank * c.size + c.rank(element)
        return rank

    def _join(self, parts: Sequence) -> int | np.ndarray:
        """The rank of each kind's ``parts`` (integers or arrays; inverse of :meth:`split`)."""
        rank = 0
        for c, part in zip(self.coordinates, parts):
            rank = rank * c.size + part
        return rank

    def split(self, ranks: np.ndarray) -> list[np.ndarray]:
        """Each kind's part of many ranks."""
        import numpy as np

        return list(np.unravel_index(np.asarray(ranks, dtype=np.int64),
                                     [c.size for c in self.coordinates]))

    def elements(self, ranks: np.ndarray, degree: int) -> np.ndarray:
        """The elements (rows in array form) of many ranks; positions of no
        ranked piece stay in place."""
        import numpy as np

        out = np.tile(np.arange(degree, dtype=np.int16), (len(np.atleast_1d(ranks)), 1))
        for c, part in zip(self.coordinates, self.split(ranks)):
            perms = _permutations(c.count)[0]
            twists = c.twist_unranks(np.arange(c.twist_size)).astype(np.int8)
            perm_rank, twist_rank = np.divmod(part, c.twist_size)
            at, tw = perms[perm_rank].astype(np.intp), twists[twist_rank].astype(np.intp)
            slots = np.array(c.slots, dtype=np.int16)
            columns = np.arange(c.count)
            for u in range(c.modulus):
                # piece at[:, j] sends its sticker u to place (u + tw) of slot j
                home = slots[at, u]
                place = slots[columns, (u + tw) % c.modulus]
                np.put_along_axis(out, home.astype(np.intp), place, axis=1)
        return out

    def ranks_of(self, elements: np.ndarray) -> np.ndarray:
        """Ranks of many elements in array form (inverse of :meth:`elements`)."""
        return self._join([c.ranks(*c.slot_forms(elements)) for c in self.coordinates])

    def quotient_ranks(self, p: np.ndarray, q: np.ndarray) -> np.ndarray:
        """Ranks of ``p⁻¹ q`` for arrays of ranks ``p`` and ``q``."""
        return self._join([c.quotient_ranks(pp, qq)
                           for c, pp, qq in zip(self.coordinates, self.split(p), self.split(q))])

    def twist_defects(self, element: Sequence[int]) -> dict[str, int]:
        """For each kind with an invariant twist sum, the sum for ``element``
        (mod the modulus: 0 in the group)."""
        return {c.kind: sum(c.slot_form(element)[1]) % c.modulus
                for c in self.coordinates if c.twist_invariant}


class ElementSpace:
    """The elements of a puzzle's group up to whole-puzzle symmetry, ranked:
    the space of a Cayley table (:class:`permgroup.tables.table.CayleyTable`).

    An element is normalized first (:class:`permgroup.normalize.Normalizer`:
    the one element of its symmetry class fixing the anchor sticker); ``moves``
    are the metric's moves normalized (moves that coincide keep one name).

    >>> from permgroup.perm import from_cycles
    >>> from permgroup.puzzle import Puzzle
    >>> cyc = from_cycles([(0, 1, 2), (3, 4, 5)], 6)
    >>> gear = Puzzle("gear", 6, {"G": cyc}, pieces={"tooth": ((0, 3), (1, 4), (2, 5))})
    >>> space = ElementSpace(gear, "htm")  # G2 is G', so one name goes
    >>> space.move_names, space.moves, space.size
    (['G', "G'"], [(1, 2, 0, 4, 5, 3), (2, 0, 1, 5, 3, 4)], 24)
    >>> space.step([space.identity], 0).tolist() == [space.rank(cyc)]
    True
    """

    capabilities = frozenset({DENSE_STEP})

    def __init__(self, puzzle, metric="qtm", anchor: int | None = None):
        from permgroup.metric import metric_moves
        from permgroup.normalize import Normalizer

        if not puzzle.pieces:
            raise ValueError(f"{puzzle.name}: a table needs the puzzle's pieces")
        self.puzzle, self.metric = puzzle, metric
        self.normalizer = Normalizer.from_puzzle(puzzle, anchor)
        moves = self.normalizer.normalize_moves(metric_moves(puzzle, metric))
        self.move_names, self.moves = list(moves), list(moves.values())
        self.n_moves = len(self.moves)
        self.ranking = ElementRanking(
            [PieceCoordinate.from_moves(kind, pieces, moves)
             for kind, pieces in puzzle.pieces.items()
             if any(m[x] != x for m in moves.values() for p in pieces for x in p)])
        self.size = self.ranking.size
        self.identity = self.ranking.rank(tuple(range(puzzle.degree)))

    def normalize(self, element: Sequence[int]) -> Perm:
        """The canonical element of ``element``'s symmetry class."""
        return self.normalizer.normalize(element)

    def rank(self, element: Sequence[int]) -> int:
        """The rank of any element (normalized first)."""
        return self.ranking.rank(self.normalize(element))

    def quotient_ranks(self, p: np.ndarray, q: np.ndarray) -> np.ndarray:
        """Ranks of ``p⁻¹ q`` for arrays of ranks ``p`` and ``q``."""
        return self.ranking.quotient_ranks(p, q)

    def fingerprint(self) -> str:
        from permgroup.metric import metric_label

        return f"{self.puzzle.fingerprint()}-{metric_label(self.metric)}-a{self.normalizer.anchor}"

    @cached_property
    def digits(self):
        """The ranking's digits with their move tables, as one product space
        (built the first time many ranks are moved)."""
        from permgroup.spaces.product import FactorSpace

        return FactorSpace([f for c in self.ranking.coordinates for f in c.factors()])

    def step(self, ranks, m: int) -> np.ndarray:
        return self.digits.step(ranks, m)

    def back_step(self, ranks, m: int) -> np.ndarray:
        return self.digits.back_step(ranks, m)

    def dense_step(self, mask: np.ndarray, m: int) -> np.ndarray:
        return self.digits.dense_step(mask, m)
