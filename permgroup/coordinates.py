"""Coordinates: a bijection between normalized elements and ``0..N-1``.

A *piece* is a tuple of sticker positions that every move carries onto another
piece, shifting the tuple cyclically (a corner's three stickers in clockwise
order).  For one kind of piece, an element is described in *slot form*:

* ``at[j]``: which piece sits in slot ``j`` (slot ``j`` is piece ``j``'s home);
* ``tw[j]``: its twist, the place within slot ``j``'s tuple where that piece's
  first sticker sits.

A move sends slot ``j`` to slot ``M[j]`` adding ``d[j]`` to the twist, whatever
piece is there, so the permutation part and the twist part each get a small
move table of their own, derived from the moves themselves.  The rank is the
Lehmer code of ``at`` times the twist digits (the last digit is dropped when
every move keeps the twist sum fixed, as face turns do for cube corners).

Pieces that no move displaces (the anchor corner, centres) carry no
information and are left out.

>>> from permgroup.perm import from_cycles
>>> turn = from_cycles([(0, 2, 4), (1, 3, 5)], 6)  # three 2-sticker pieces, cycled
>>> c = PieceCoordinate.from_moves("piece", ((0, 1), (2, 3), (4, 5)), {"t": turn})
>>> c.size, c.rank(turn), c.rank((0, 1, 2, 3, 4, 5))
(24, 16, 0)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import factorial

import numpy as np

from permgroup.perm import Perm


@dataclass(frozen=True)
class Factor:
    """One digit of a mixed-radix coordinate and its move table.

    ``table[m, v]`` is the digit after move ``m`` from digit value ``v``.
    """

    name: str
    size: int
    table: np.ndarray


def lehmer_ranks(perms: np.ndarray) -> np.ndarray:
    """Lehmer ranks of the rows of ``perms`` (each a permutation of ``0..n-1``).

    >>> lehmer_ranks(np.array([[0, 1, 2], [2, 1, 0]])).tolist()
    [0, 5]
    """
    k, n = perms.shape
    ranks = np.zeros(k, dtype=np.int64)
    for i in range(n - 1):
        smaller_after = (perms[:, i + 1 :] < perms[:, i : i + 1]).sum(axis=1)
        ranks += smaller_after * factorial(n - 1 - i)
    return ranks


def lehmer_unranks(ranks: np.ndarray, n: int) -> np.ndarray:
    """Inverse of :func:`lehmer_ranks`.

    >>> lehmer_unranks(np.array([0, 5]), 3).tolist()
    [[0, 1, 2], [2, 1, 0]]
    """
    ranks = np.asarray(ranks, dtype=np.int64)
    out = np.empty((len(ranks), n), dtype=np.int64)
    available = np.ones((len(ranks), n), dtype=bool)
    for i in range(n):
        digit = (ranks // factorial(n - 1 - i)) % (n - i)
        # the digit-th still-available value
        cumulative = np.cumsum(available, axis=1)
        chosen = np.argmax(cumulative > digit[:, None], axis=1)
        out[:, i] = chosen
        available[np.arange(len(ranks)), chosen] = False
    return out


def _lehmer_rank(perm: Sequence[int]) -> int:
    n = len(perm)
    rank = 0
    for i in range(n - 1):
        pi = perm[i]
        smaller = 0
        for j in range(i + 1, n):
            if perm[j] < pi:
                smaller += 1
        rank = rank * (n - i) + smaller
    return rank


class PieceCoordinate:
    """The coordinate of one kind of piece (see the module docstring).

    Build it with :meth:`from_moves`, which drops pieces no move displaces and
    finds whether the twist sum is invariant.
    """

    def __init__(self, kind: str, slots: tuple[tuple[int, ...], ...], moves: dict[str, Perm],
                 twist_invariant: bool):
        self.kind = kind
        self.slots = slots
        self.count = len(slots)
        self.modulus = len(slots[0])
        self.twist_invariant = twist_invariant
        self.perm_size = factorial(self.count)
        free_digits = self.count - 1 if twist_invariant else self.count
        self.twist_size = self.modulus**free_digits
        self.size = self.perm_size * self.twist_size
        degree = len(next(iter(moves.values())))
        self.slot_of = [-1] * degree
        self.place_of = [-1] * degree
        for j, slot in enumerate(slots):
            for u, pos in enumerate(slot):
                self.slot_of[pos] = j
                self.place_of[pos] = u
        self.reference = tuple(slot[0] for slot in slots)
        self.move_names = list(moves)
        self.slot_moves = [self._slot_move(name, m) for name, m in moves.items()]

    @classmethod
    def from_moves(cls, kind: str, pieces: Sequence[Sequence[int]], moves: dict[str, Perm]
                   ) -> PieceCoordinate:
        """The coordinate of ``pieces`` under ``moves``, fixed pieces left out."""
        moved = [
            tuple(p) for p in pieces
            if any(m[x] != x for m in moves.values() for x in p)
        ]
        if not moved:
            raise ValueError(f"no move displaces any {kind}")
        probe = cls(kind, tuple(moved), moves, twist_invariant=False)
        invariant = all(sum(d) % probe.modulus == 0 for _, d in probe.slot_moves)
        return cls(kind, tuple(moved), moves, twist_invariant=invariant) if invariant else probe

    def _slot_move(self, name: str, move: Perm) -> tuple[list[int], list[int]]:
        target, shift = [], []
        for j, slot in enumerate(self.slots):
            pos = move[slot[0]]
            k, t = self.slot_of[pos], self.place_of[pos]
            if k < 0 or any(
                move[slot[u]] != self.slots[k][(u + t) % self.modulus]
                for u in range(self.modulus)
            ):
                raise ValueError(
                    f"move {name!r} does not carry {self.kind} {slot} onto a {self.kind}"
                )
            target.append(k)
            shift.append(t)
        return target, shift

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

    def twist_defect(self, element: Sequence[int]) -> int:
        """The twist sum mod the modulus: 0 for every element of the group
        when the twist is invariant."""
        _, tw = self.slot_form(element)
        return sum(tw) % self.modulus if self.twist_invariant else 0

    def rank(self, element: Sequence[int]) -> int:
        """The rank of an element (array form) of the normalized group."""
        at, tw = self.slot_form(element)
        twist = 0
        digits = tw[:-1] if self.twist_invariant else tw
        for t in reversed(digits):
            twist = twist * self.modulus + t
        return _lehmer_rank(at) * self.twist_size + twist

    # --- many elements -----------------------------------------------------
    def twist_ranks(self, tw: np.ndarray) -> np.ndarray:
        digits = tw[:, :-1] if self.twist_invariant else tw
        weights = self.modulus ** np.arange(digits.shape[1], dtype=np.int64)
        return digits.astype(np.int64) @ weights

    def twist_unranks(self, ranks: np.ndarray) -> np.ndarray:
        free = self.count - 1 if self.twist_invariant else self.count
        ranks = np.asarray(ranks, dtype=np.int64)
        tw = np.empty((len(ranks), self.count), dtype=np.int64)
        for j in range(free):
            tw[:, j] = (ranks // self.modulus**j) % self.modulus
        if self.twist_invariant:
            tw[:, -1] = (-tw[:, :-1].sum(axis=1)) % self.modulus
        return tw

    def ranks(self, at: np.ndarray, tw: np.ndarray) -> np.ndarray:
        """Ranks of many slot forms (rows of ``at`` and ``tw``)."""
        return lehmer_ranks(at) * self.twist_size + self.twist_ranks(tw)

    def unranks(self, ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Slot forms ``(at, tw)`` of many ranks."""
        perm, twist = np.divmod(np.asarray(ranks, dtype=np.int64), self.twist_size)
        return lehmer_unranks(perm, self.count), self.twist_unranks(twist)

    def factors(self) -> list[Factor]:
        """The permutation and twist digits with their move tables."""
        perms = lehmer_unranks(np.arange(self.perm_size), self.count)
        twists = self.twist_unranks(np.arange(self.twist_size))
        perm_table = np.empty((len(self.slot_moves), self.perm_size), dtype=np.int32)
        twist_table = np.empty((len(self.slot_moves), self.twist_size), dtype=np.int32)
        for i, (target, shift) in enumerate(self.slot_moves):
            target_a = np.array(target)
            moved_perm = np.empty_like(perms)
            moved_perm[:, target_a] = perms
            perm_table[i] = lehmer_ranks(moved_perm)
            moved_twist = np.empty_like(twists)
            moved_twist[:, target_a] = (twists + np.array(shift)) % self.modulus
            twist_table[i] = self.twist_ranks(moved_twist)
        return [
            Factor(f"{self.kind} permutation", self.perm_size, perm_table),
            Factor(f"{self.kind} twist", self.twist_size, twist_table),
        ]

    def quotient_ranks(self, p: np.ndarray, q: np.ndarray) -> np.ndarray:
        """Ranks of ``p⁻¹ q`` for many pairs of ranks ``(p, q)``.

        In piece form an element sends piece ``k`` to slot ``where[k]`` with
        twist ``twist[k]``; ``where`` is the inverse of ``at``.  Then
        ``p⁻¹`` has ``where = at_p`` and ``twist[j] = -tw_p[j]``, and
        composing gives ``where_c[k] = where_q[at_p[k]]``,
        ``twist_c[k] = twist_q[at_p[k]] - tw_p[k]``.
        """
        p_at, p_tw = self.unranks(p)
        q_at, q_tw = self.unranks(q)
        q_where = np.argsort(q_at, axis=1)
        q_twist = np.take_along_axis(q_tw, q_where, axis=1)
        c_where = np.take_along_axis(q_where, p_at, axis=1)
        c_twist = (np.take_along_axis(q_twist, p_at, axis=1) - p_tw) % self.modulus
        c_at = np.argsort(c_where, axis=1)
        c_tw = np.take_along_axis(c_twist, c_at, axis=1)
        return self.ranks(c_at, c_tw)


class ElementRanking:
    """Ranks of elements over several kinds of piece (corners and edges...).

    The rank is mixed radix over each kind's permutation and twist digits, in
    the order the kinds are given.
    """

    def __init__(self, coordinates: Sequence[PieceCoordinate]):
        self.coordinates = list(coordinates)
        self.size = 1
        for c in self.coordinates:
            self.size *= c.size

    def rank(self, element: Sequence[int]) -> int:
        """The rank of one element in array form."""
        rank = 0
        for c in self.coordinates:
            rank = rank * c.size + c.rank(element)
        return rank

    def factors(self) -> list[Factor]:
        """All digits with their move tables, most significant first."""
        return [f for c in self.coordinates for f in c.factors()]

    def split(self, ranks: np.ndarray) -> list[np.ndarray]:
        """Each kind's part of many ranks."""
        parts = []
        rest = np.asarray(ranks, dtype=np.int64)
        for c in reversed(self.coordinates):
            rest, part = np.divmod(rest, c.size)
            parts.append(part)
        return parts[::-1]

    def quotient_ranks(self, p: np.ndarray, q: np.ndarray) -> np.ndarray:
        """Ranks of ``p⁻¹ q`` for arrays of ranks ``p`` and ``q``."""
        result = np.zeros(len(np.atleast_1d(p)), dtype=np.int64)
        for c, pp, qq in zip(self.coordinates, self.split(p), self.split(q)):
            result = result * c.size + c.quotient_ranks(pp, qq)
        return result

    def twist_defects(self, element: Sequence[int]) -> dict[str, int]:
        """For each kind with an invariant twist sum, the sum for ``element``."""
        return {c.kind: c.twist_defect(element) for c in self.coordinates if c.twist_invariant}
