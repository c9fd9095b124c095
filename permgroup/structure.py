"""What a puzzle's group is: orbits of pieces, their permutations and
orientations, the constraints tying them, each proven from the generators.

The pieces are found from the moves (:mod:`permgroup.pieces`), so any puzzle
works, a GAP file as well as a puzzle module.  An element moves each piece of
an orbit to a slot and turns it; the group ``G`` maps onto its permutation part
``P`` (a group of permutations of the pieces), and the kernel ``K`` is the
group of pure turns (an abelian group of orientation vectors).  So
``|G| = |K| · |P|``, and the one-line description reads ``K ⋊ P``.

How each part is proven, with no search over the group:

* ``P`` on one orbit of ``n`` pieces contains ``A_n`` when some element has a
  cycle of prime length ``p``, ``n/2 < p < n-2`` (Jordan's theorem; the group
  is transitive on the orbit); orbits of at most 7 pieces are listed whole.
  It is ``S_n`` when a move is odd on the orbit.
* ``P`` contains the product of those ``A_n`` when, for each orbit, a power of
  some element moves pieces of that orbit only (its normal closure then holds
  ``A_n``); ``P`` is then that product extended by the parities the moves
  reach (a subspace of ``GF(2)^r``): a *parity constraint* (two orbits' parities
  equal) has index 2.
* ``K`` holds the pure turns ``g^e`` (``e`` the order of ``g``'s permutation
  part) of elements ``g``, and their images under the moves; every homomorphism
  ``G -> Z_p`` made of orientation sums and parities that vanishes on the
  moves vanishes on ``K`` (an *orientation constraint*, index ``p``).  When
  the turns found fill the space those constraints leave, ``K`` is proven.
* A part whose structure is not found shows as ``[order N]``, or
  ``[index i in S6 × S7]`` for permutations tied across orbits in a way other
  than parities.
* The description writes ``K ⋊ P`` when each move's own turns lie in ``K``
  (then the moves' permutations without their turns are in ``G``: a
  complement), else ``K · P`` (an extension, not shown to split).

Anything left unproven comes from the group's stabilizer chain
(:mod:`permgroup.orbit_chain`, said so in the text): the order of the pieces'
permutations, or the whole order (``K``'s is then the quotient); with more
than :data:`MANY_ORBITS` orbits (a big cube), the orbits' alternating groups
are read off the chain's local subgroups.  Whenever the chain was built, the
two orders must agree.

>>> from permgroup.puzzle import Puzzle
>>> pair = Puzzle("pair", 6, {"T": (1, 2, 0, 3, 4, 5), "S": (3, 4, 5, 0, 1, 2)})
>>> s = structure(pair)
>>> str(s), s.order
('C3^2 ⋊ C2', 18)
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from math import factorial, gcd, lcm, prod

from permgroup.elements import cycles_of
from permgroup.perm import parity, repeated
from permgroup.pieces import find_pieces, piece_kinds
from permgroup.puzzle import Puzzle

#: random elements tried for each proof before falling back to the stabilizer chain
TRIES = 400
#: orbits of at most this many pieces have their permutation group listed whole
LISTED = 7
#: random elements' points the Jordan search may go through (tries = this / points)
WORK = 4_000_000
#: with more orbits than this, random powers rarely isolate one: the stabilizer
#: chain's local subgroups prove what they can instead
MANY_ORBITS = 16


# --- piece-level elements: (where each piece goes, how much it turns) --------------
Element = tuple[tuple[int, ...], tuple[int, ...]]


def _compose(a: Element, b: Element, moduli: Sequence[int]) -> Element:
    wa, ta = a
    wb, tb = b
    return (tuple(wb[j] for j in wa),
            tuple((t + tb[j]) % m for t, j, m in zip(ta, wa, moduli)))


def _power(a: Element, e: int, moduli: Sequence[int]) -> Element:
    n = len(a[0])
    return repeated(a, e, lambda x, y: _compose(x, y, moduli), (tuple(range(n)), (0,) * n))


def _compose_arrays(a, b, moduli):
    """:func:`_compose` on numpy arrays (the analysis' hot path); ``moduli``
    ``None`` when no piece turns."""
    import numpy as np

    if moduli is None:
        return np.take(b[0], a[0]), a[1]
    return np.take(b[0], a[0]), (a[1] + np.take(b[1], a[0])) % moduli


def _power_arrays(a, e: int, moduli):
    import numpy as np

    one = (np.arange(len(a[0])), np.zeros(len(a[0]), dtype=np.intp))
    return repeated(a, e, lambda x, y: _compose_arrays(x, y, moduli), one)


def _lengths_by_orbit(where, ranges: list[range]) -> list[list[int]]:
    """The cycle lengths (fixed points included) of a piece permutation (a
    numpy array) on each orbit, listed as :func:`_cycle_lengths` lists them."""
    import numpy as np

    from permgroup.perm_arrays import cycle_labels

    labels = cycle_labels(where)
    roots = np.nonzero(labels == np.arange(len(where)))[0]
    sizes = np.bincount(labels, minlength=len(where))[roots]
    out = [[] for _ in ranges]
    starts = [r.start for r in ranges]
    for i, size in zip(np.searchsorted(starts, roots, side="right") - 1, sizes.tolist()):
        out[i].append(size)
    return out


def _cycle_lengths(where: Sequence[int], points: range) -> list[int]:
    """Cycle lengths of a permutation of all pieces, on one orbit's ``points``."""
    local = [where[x] - points.start for x in points]
    return [len(c) for c in cycles_of(local, singletons=True)]


def _parity(where: Sequence[int], points: range) -> int:
    return parity([where[x] - points.start for x in points])


def _primes(n: int) -> list[int]:
    from permgroup.perm_arrays import primes

    return primes(n)


def _factorial(n: int) -> int:
    from permgroup.perm_arrays import factorial as cached

    return cached(n)


def _factor(n: int) -> dict[int, int]:
    out: dict[int, int] = {}
    p = 2
    while p * p <= n:
        while n % p == 0:
            out[p] = out.get(p, 0) + 1
            n //= p
        p += 1
    if n > 1:
        out[n] = out.get(n, 0) + 1
    return out


# --- GF(p) linear algebra -----------------------------------------------------------
class _Span:
    """A subspace of GF(p)^d kept in echelon form."""

    def __init__(self, p: int, d: int) -> None:
        self.p, self.d = p, d
        self.rows: dict[int, list[int]] = {}  # pivot -> row with 1 at the pivot

    def reduce(self, v: list[int]) -> list[int]:
        v = [x % self.p for x in v]
        for pivot, row in self.rows.items():
            if v[pivot]:
                c = v[pivot]
                v = [(x - c * y) % self.p for x, y in zip(v, row)]
        return v

    def add(self, v: list[int]) -> bool:
        v = self.reduce(v)
        pivot = next((i for i, x in enumerate(v) if x), None)
        if pivot is None:
            return False
        inv = pow(v[pivot], -1, self.p)
        v = [x * inv % self.p for x in v]
        for q, row in self.rows.items():
            if row[pivot]:
                c = row[pivot]
                self.rows[q] = [(x - c * y) % self.p for x, y in zip(row, v)]
        self.rows[pivot] = v
        return True

    @property
    def dim(self) -> int:
        return len(self.rows)


def _nullspace(rows: list[list[int]], width: int, p: int) -> list[list[int]]:
    """A basis of the vectors ``x`` with ``row · x = 0 (mod p)`` for every row."""
    span = _Span(p, width)
    for r in dict.fromkeys(tuple(int(x) % p for x in r) for r in rows):  # each row once
        span.add(list(r))
    pivots = set(span.rows)
    basis = []
    for free in range(width):
        if free in pivots:
            continue
        x = [0] * width
        x[free] = 1
        for pivot, row in span.rows.items():
            x[pivot] = -row[free] % p
        basis.append(x)
    return basis


# --- the result ---------------------------------------------------------------------
@dataclass(frozen=True)
class OrbitPart:
    """One orbit of pieces: how many, stickers and orientations each, its
    permutation group and its part of the orientation group."""

    name: str
    pieces: int
    stickers: int
    orientations: int
    permutation: str
    permutation_proof: str
    orientation: str
    orientation_order: int


@dataclass(frozen=True)
class Constraint:
    """A law every element obeys, proven from the generators; ``index``: how
    many times larger the group would be without it."""

    text: str
    index: int
    proof: str


@dataclass(frozen=True)
class Laws:
    """What decides membership, for :mod:`permgroup.reachability`: the orbits
    of pieces (sticker tuples), how far a move can turn a piece of each orbit
    (``steps``: twists are multiples of it; ``turns``: how many turns), the
    kind of each orbit's permutations (``"S"``, ``"A"`` or ``"?"``), the orbits
    whose parity varies, the parity relations (vectors over them, mod 2), the
    orientation laws ``(p, orbits, c, d)``: ``sum c_o·(twist sum of o) + sum
    d_j·(parity j) ≡ 0 (mod p)``, and whether these laws (with the orbits'
    permutation groups) are proven to be all there is: then an element obeying
    them is in the group."""

    kinds: dict
    steps: tuple[int, ...]
    turns: tuple[int, ...]
    kind: tuple[str, ...]
    parity_orbits: tuple[int, ...]
    relations: tuple[tuple[int, ...], ...]
    orientation_laws: tuple[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]
    proven: bool


@dataclass(frozen=True)
class Structure:
    """A puzzle group's structure; ``str()`` is the one-line description (``×``
    and ``⋊``; :meth:`ascii` uses ``x`` and ``:``), ``.order`` the order it
    implies, :meth:`text` the whole account, and an HTML view for notebooks."""

    puzzle: str
    orbits: tuple[OrbitPart, ...]
    constraints: tuple[Constraint, ...]
    description: str
    order: int
    orientation_order: int
    permutation_order: int
    proof: str
    notes: tuple[str, ...] = field(default=())
    laws: Laws | None = field(default=None, repr=False, compare=False)

    @property
    def proven(self) -> bool:
        """Whether the order is proven from the generators (by the structure's
        own proofs, with the stabilizer chain's where those fall short)."""
        return self.proof.startswith("proven")

    def __str__(self) -> str:
        return self.description

    def ascii(self) -> str:
        """The description for terminals without ``×`` and ``⋊``."""
        return self.description.replace("×", "x").replace("⋊", ":").replace("·", ".")

    def text(self) -> str:
        """Every part of the account, one line each."""
        lines = [f"{self.puzzle}: {self.description}", f"order {self.order:,}",
                 "orbits of pieces (found from the moves):"]
        for o in self.orbits:
            turn = (f"{o.orientations} orientations, {o.orientation}" if o.orientations > 1
                    else "no orientation")
            lines.append(f"  {o.name}: {o.pieces} pieces of {o.stickers} sticker"
                         f"{'s' if o.stickers > 1 else ''}; permutations {o.permutation} "
                         f"({o.permutation_proof}); {turn}")
        if self.constraints:
            lines.append("constraints (each proven from the generators):")
            lines += [f"  {c.text} (index {c.index}: {c.proof})" for c in self.constraints]
        lines.append(f"order = {self.orientation_order:,} (orientations) x "
                     f"{self.permutation_order:,} (permutations) = {self.order:,}; {self.proof}")
        lines += self.notes
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{escape(o.name)}</td><td>{o.pieces}</td><td>{o.stickers}</td>"
            f"<td>{escape(o.permutation)}</td><td>{escape(o.orientation)}</td></tr>"
            for o in self.orbits)
        laws = "".join(f"<li>{escape(c.text)} (index {c.index}: {escape(c.proof)})</li>"
                       for c in self.constraints)
        notes = "".join(f"<div>{escape(n)}</div>" for n in self.notes)
        return (f"<div><b>{escape(self.puzzle)}</b>: <code>{escape(self.description)}</code>, "
                f"order {self.order:,}<table><tr><th>orbit</th><th>pieces</th><th>stickers"
                f"</th><th>permutations</th><th>orientations</th></tr>{rows}</table>"
                f"<div>constraints:</div><ul>{laws}</ul><div>{escape(self.proof)}</div>"
                f"{notes}</div>")


# --- the analysis ----------------------------------------------------------------------
def _group_name(kind: str, n: int) -> str:
    """``S_n``/``A_n`` with the small ones by their usual names."""
    if kind == "S":
        return {1: "1", 2: "C2"}.get(n, f"S{n}")
    return {1: "1", 2: "1", 3: "C3"}.get(n, f"A{n}")


def _power_text(base: str, e: int) -> str:
    return "1" if e == 0 else base if e == 1 else f"{base}^{e}"


def _product(parts: list[str]) -> str:
    parts = [p for p in parts if p != "1"]
    if not parts:
        return "1"
    return parts[0] if len(parts) == 1 else " × ".join(
        f"({p})" if "⋊" in p or "·" in p else p for p in parts)


def _wrap(text: str) -> str:
    return f"({text})" if " " in text and not text.startswith("[") else text


def _piece_forms(kinds: dict, offsets: list[int], moves: list, degree: int):
    """:func:`permgroup.elements.piece_form` of every move on every orbit at
    once (numpy, a row a move): where each piece goes (numbered across the
    orbits) and how far it turns; ``ValueError`` as there when a move breaks a
    piece."""
    import numpy as np

    from permgroup.perm_arrays import as_perms

    gens = as_perms(moves, degree)
    where, twist = [], []
    for (kind, pieces), base in zip(kinds.items(), offsets):
        table = np.array(pieces, dtype=np.intp).reshape(len(pieces), -1)
        m, k = table.shape
        slot = np.full(degree, -1, dtype=np.intp)
        place = np.zeros(degree, dtype=np.intp)
        slot[table] = np.arange(m)[:, None]
        place[table] = np.arange(k)[None, :]
        first = gens[:, table[:, 0]]
        to = slot[first]
        # one-sticker pieces never turn (no gather: a big family's moves are 8M entries)
        turn = place[first] if k > 1 else np.zeros(to.shape, dtype=np.int8)
        bad = to < 0
        if k > 1:  # a one-sticker piece cannot be broken
            expected = table[np.maximum(to, 0)[..., None], (np.arange(k) + turn[..., None]) % k]
            bad |= (gens[:, table] != expected).any(axis=2)
        if bad.any():
            g, j = map(int, np.argwhere(bad)[0])
            raise ValueError(f"the permutation does not carry {kind} {tuple(pieces[j])} onto a "
                             f"{kind} with its stickers in the same cyclic order")
        to += base
        where.append(to)
        twist.append(turn)
    if len(where) == 1:
        return where[0], twist[0].astype(np.intp, copy=False)
    where = np.concatenate(where, axis=1) if where else np.empty((len(gens), 0), np.intp)
    twist = np.concatenate(twist, axis=1) if twist else np.empty((len(gens), 0), np.intp)
    return where, twist


class _Analysis:
    def __init__(self, puzzle: Puzzle, seed: int) -> None:
        self.puzzle = puzzle
        self.rng = random.Random(seed)
        self._chain = None
        self.isolated_from_chain = False
        from permgroup.perm_arrays import moves_of

        moves = moves_of(puzzle)
        found = find_pieces(puzzle.degree, moves)
        self.kinds = piece_kinds(found, puzzle.pieces)
        self.names = list(self.kinds)
        self.sizes = [len(v) for v in self.kinds.values()]
        self.stickers = [len(v[0]) for v in self.kinds.values()]
        self.offsets = [sum(self.sizes[:i]) for i in range(len(self.sizes))]
        self.ranges = [range(o, o + n) for o, n in zip(self.offsets, self.sizes)]
        self.n = sum(self.sizes)
        where, twists = _piece_forms(self.kinds, self.offsets, moves, puzzle.degree)
        # the orientations the moves can reach: twists are multiples of k/m
        self.moduli_full = [k for k, n in zip(self.stickers, self.sizes) for _ in range(n)]
        self.moduli = []
        self.turns = []
        import numpy as np

        for i, r in enumerate(self.ranges):
            k = self.stickers[i]
            step = int(np.gcd.reduce(np.append(twists[:, r.start:r.stop].ravel(), k)))
            m = k // step if step else 1
            self.turns.append(m)
            self.moduli += [m] * len(r)
        self.steps = [k // m for k, m in zip(self.stickers, self.turns)]
        step_of = np.array([self.steps[i] for i, r in enumerate(self.ranges) for _ in r],
                           dtype=np.intp)
        reduced = (twists // np.maximum(step_of, 1) % np.array(self.moduli, dtype=np.intp)
                   if twists.any() else twists)
        # the moves on the pieces: numpy rows (where, twist); tuples when asked
        self.where, self.twists = where, reduced
        self.arrays = list(zip(where, reduced))
        self._gens = None
        self.moduli_array = np.array(self.moduli, dtype=np.intp)
        if (self.moduli_array == 1).all():
            self.moduli_array = None  # nothing turns: twists stay 0

    @property
    def gens(self) -> list[Element]:
        """The moves on the pieces as tuples (where, twist)."""
        if self._gens is None:
            self._gens = [(tuple(w), tuple(t)) for w, t in
                          zip(self.where.tolist(), self.twists.tolist())]
        return self._gens

    def random_arrays(self):
        """A random product of 9 to 40 moves, as numpy arrays (where, twist)."""
        element = self.arrays[self.rng.randrange(len(self.arrays))]
        for _ in range(self.rng.randrange(8, 40)):
            element = _compose_arrays(element, self.arrays[self.rng.randrange(len(self.arrays))],
                                      self.moduli_array)
        return element

    def random_element(self) -> Element:
        w, t = self.random_arrays()
        return tuple(w.tolist()), tuple(t.tolist())

    # permutations ----------------------------------------------------------------------
    def permutations(self) -> None:
        count = len(self.ranges)
        self.kind, self.proofs, self.orders = ["?"] * count, ["not proven"] * count, [0] * count
        import numpy as np

        from permgroup.perm_arrays import parity as parities

        where = self.where
        pending = {}
        for i, r in enumerate(self.ranges):
            n = len(r)
            odd = bool(parities(where[:, r.start:r.stop] - r.start).any())
            if n == 1:
                self.kind[i], self.proofs[i], self.orders[i] = "S", "one piece", 1
            elif n <= LISTED:
                local = [tuple(w[x] - r.start for x in r) for w, _ in self.gens]
                from permgroup.perm import closure

                size = len(closure(local, n))
                kind = "S" if size == _factorial(n) else "A" if 2 * size == _factorial(n) else "?"
                self.kind[i], self.orders[i], self.proofs[i] = kind, size, f"all {size:,} listed"
            else:
                pending[i] = ([p for p in _primes(n) if n / 2 < p < n - 2], odd)
        # random elements on many points cost more: at most about WORK points' worth
        tries = max(16, min(TRIES, WORK // max(1, self.n)))
        if count <= MANY_ORBITS:  # one orbit after another
            for i, (primes, odd) in list(pending.items()):
                r = self.ranges[i]
                for _ in range(tries):
                    w, _ = self.random_arrays()
                    lengths = _lengths_by_orbit(w[r.start:r.stop] - r.start, [range(len(r))])[0]
                    if self._jordan(i, primes, odd, lengths):
                        del pending[i]
                        break
        else:  # many orbits: each random element is tried on every orbit still open
            for _ in range(tries):
                if not pending:
                    break
                w, _ = self.random_arrays()
                lengths = _lengths_by_orbit(w, self.ranges)
                for i in [i for i, (primes, odd) in pending.items()
                          if self._jordan(i, primes, odd, lengths[i])]:
                    del pending[i]
        if pending:  # products of a few moves may never show a long cycle: ask the chain
            self._giants_by_chain(pending)

    def _giants_by_chain(self, pending: dict) -> None:
        """Orbits of one-sticker pieces the stabilizer chain proves giants
        (its random elements are products of many moves; it also links
        transpositions and 3-cycles)."""
        chain = self.chain()
        if not chain.proven:
            return
        by_points = {frozenset(f.points.tolist()): f for f in chain.factors
                     if f.giant is not None and f.shadows is None}
        for i, (_, odd) in pending.items():
            pieces = self.kinds[self.names[i]]
            f = by_points.get(frozenset(x for piece in pieces for x in piece))
            if f is None or len(pieces[0]) != 1:
                continue
            n = len(pieces)
            self.kind[i] = f.giant
            self.orders[i] = _factorial(n) // (1 if f.giant == "S" else 2)
            self.proofs[i] = f"{f.giant_proof} (the stabilizer chain)"

    def _jordan(self, i: int, primes: list[int], odd: bool, lengths: list[int]) -> bool:
        """Whether these cycle lengths on orbit ``i`` prove it (Jordan)."""
        hit = [p for p in primes if p in lengths]
        if not hit:
            return False
        n = len(self.ranges[i])
        self.kind[i] = "S" if odd else "A"
        self.orders[i] = _factorial(n) // (1 if odd else 2)
        self.proofs[i] = (f"an element with a {hit[0]}-cycle, Jordan's theorem"
                          + ("; an odd move" if odd else "; every move even"))
        return True

    def isolated(self) -> bool:
        """Whether P contains the product of its orbits' alternating groups."""
        if any(k == "?" for k in self.kind):
            return False
        busy = [i for i, r in enumerate(self.ranges) if len(r) >= 3]
        if len([r for r in self.ranges if len(r) > 1]) <= 1:
            return True  # at most one orbit moves: P is that orbit's group
        if len(busy) == 1 and all(len(r) <= 2 for i, r in enumerate(self.ranges) if i not in busy):
            # the commutators of P lie in the orbit's part and fill A_n there
            return self.kind[busy[0]] == "S" or len(self.ranges[busy[0]]) >= 5
        todo = set(busy)
        for _ in range(TRIES if len(self.ranges) <= MANY_ORBITS else 0):
            if not todo:
                return True
            w, _ = self.random_arrays()
            lengths = _lengths_by_orbit(w, self.ranges)
            for i in list(todo):
                others = [x for j, ls in enumerate(lengths) if j != i for x in ls]
                for p in set(_factor(lcm(*lengths[i])) if lengths[i] else {}):
                    mine = max(_valuation(x, p) for x in lengths[i])
                    theirs = max((_valuation(x, p) for x in others), default=0)
                    if mine > theirs:
                        e = lcm(*lengths[i], *others) // p
                        image = _cycle_lengths_power(lengths[i], e)
                        n = len(self.ranges[i])
                        # a pure element on orbit i: its normal closure holds A_n
                        # (for 3 and 4 pieces, only a 3-cycle or a transposition)
                        if n >= 5 or image.count(3) == 1 or (image.count(2) == 1):
                            todo.discard(i)
                            break
        if todo:
            by_chain = self.isolated_by_chain(todo)
            self.isolated_from_chain = bool(by_chain)
            todo -= by_chain
        return not todo

    def chain(self):
        """The stabilizer chain of the group (:mod:`permgroup.orbit_chain`),
        built the first time it is asked for."""
        from permgroup.orbit_chain import puzzle_chain

        if self._chain is None:
            self._chain = puzzle_chain(self.puzzle)
        return self._chain

    def isolated_by_chain(self, orbits: set[int]) -> set[int]:
        """The orbits whose alternating group lies among the elements that
        move that orbit alone, read off the chain's local subgroups: a giant
        on the pieces, or a chain whose action on the pieces has order at
        least ``n!/2``."""
        import numpy as np

        from permgroup.stabilizer_chain import schreier_sims

        chain = self.chain()
        if not chain.proven:
            return set()
        by_points = {}
        for f in chain.factors:
            points = f.points if f.shadows is None else np.concatenate([f.points,
                                                                       f.shadows.ravel()])
            by_points[frozenset(points.tolist())] = f
        done = set()
        for i in orbits:
            pieces = self.kinds[self.names[i]]
            f = by_points.get(frozenset(x for piece in pieces for x in piece))
            if f is None:
                continue
            n = len(pieces)
            if f.local.kind in ("A", "S") and (f.piece_size == 1 or f.shadows is not None):
                done.add(i)
            elif f.local.kind == "chain" and f.local.chain is not None:
                piece_of = np.full(self.puzzle.degree, -1, dtype=np.intp)
                for j, piece in enumerate(pieces):
                    piece_of[list(piece)] = j
                mine = set(f.points.tolist())
                firsts = np.searchsorted(f.points, [next(x for x in piece if x in mine)
                                                    for piece in pieces])
                moves = piece_of[f.points[f.local.chain.strong_generators[:, firsts]]]
                if schreier_sims(moves, n, bound=factorial(n)).order * 2 >= factorial(n):
                    done.add(i)
        return done

    def parity_space(self) -> tuple[list[int], list[list[int]]]:
        import numpy as np

        from permgroup.perm_arrays import parity as parities

        odd_orbits = [i for i, r in enumerate(self.ranges) if self.kind[i] == "S" and len(r) > 1]
        where = self.where
        columns = [parities(where[:, r.start:r.stop] - r.start)
                   for r in (self.ranges[i] for i in odd_orbits)]
        rows = np.zeros((len(self.arrays), len(odd_orbits)), dtype=int)
        for j, column in enumerate(columns):
            rows[:, j] = column
        return odd_orbits, rows.tolist()

    # orientations ------------------------------------------------------------------------
    def orientations(self, parity_orbits: list[int], parity_rows: list[list[int]],
                     tries: int = TRIES):
        """Per prime: the span of pure turns found (from ``tries`` random
        elements), the constraints, proven or not."""
        results = {}
        primes = sorted({p for m in self.turns if m > 1 for p in _factor(m)})
        self.squarefree = all(e == 1 for m in self.turns for e in _factor(m).values())
        for p in primes:
            coords = [x for x in range(self.n) if self.moduli[x] % p == 0]
            index = {x: i for i, x in enumerate(coords)}
            orbits = [i for i, m in enumerate(self.turns) if m % p == 0]
            # constraints: orbit sums (and parities, for p = 2) vanishing on the moves
            width = len(orbits) + (len(parity_orbits) if p == 2 else 0)
            sums = [self.twists[:, self.ranges[o].start:self.ranges[o].stop].sum(axis=1) % p
                    for o in orbits]
            rows = [[int(s[g]) for s in sums] + (parity_rows[g] if p == 2 else [])
                    for g in range(len(self.arrays))]
            solutions = _nullspace(rows, width, p)
            # laws of parities alone are the parity constraints: reduce by them
            parity_laws = _Span(p, width - len(orbits))
            for v in solutions:
                if not any(v[:len(orbits)]):
                    parity_laws.add(v[len(orbits):])
            laws = [v[:len(orbits)] + parity_laws.reduce(v[len(orbits):])
                    for v in solutions if any(v[:len(orbits)])]
            law_span = _Span(p, len(orbits))
            for v in laws:
                law_span.add(v[:len(orbits)])
            upper = len(coords) - law_span.dim
            span = _Span(p, len(coords))
            for _ in range(tries):
                if span.dim >= upper:
                    break
                g = self.random_arrays()
                e = lcm(*_lengths_by_orbit(g[0], [range(self.n)])[0])
                pure = _power_arrays(g, e, self.moduli_array)[1]
                v = [int(pure[x]) for x in coords]
                if span.add(v):
                    self._close(span, coords, index)
            results[p] = (orbits, coords, span, laws, span.dim >= upper)
        return results

    def _close(self, span: _Span, coords: list[int], index: dict[int, int]) -> None:
        """Add the images of the span under the moves' permutations until stable."""
        todo = list(span.rows.values())
        while todo:
            v = todo.pop()
            for w, _ in self.gens:
                image = [0] * len(coords)
                for x, c in zip(coords, v):
                    image[index[w[x]]] = c
                if span.add(image):
                    todo.append(image)


def _valuation(x: int, p: int) -> int:
    e = 0
    while x % p == 0:
        x //= p
        e += 1
    return e


def _cycle_lengths_power(lengths: list[int], e: int) -> list[int]:
    """Cycle lengths of the e-th power of a permutation with these cycle lengths."""
    out = []
    for n in lengths:
        d = gcd(n, e)
        out += [n // d] * d
    return [x for x in out if x > 1]


def laws(puzzle: Puzzle, *, quick: bool = False, seed: int = 0) -> Laws:
    """The laws :func:`structure` finds (its ``laws``), without the group's
    order (no sympy).  ``quick``: only the laws read off the moves themselves
    (orbits of pieces, how far a move turns a piece, parities that every move
    keeps even or tied, orientation sums), no random elements to prove them
    complete: necessary laws (``proven`` false) found in about a second even on
    a 19x19x19 cube, which is what refusing an impossible target needs.
    Kept per moves and pieces.

    >>> from permgroup.puzzle import Puzzle
    >>> pair = Puzzle("pair", 6, {"T": (1, 2, 0, 3, 4, 5), "S": (3, 4, 5, 0, 1, 2)})
    >>> found, necessary = laws(pair), laws(pair, quick=True)
    >>> found.turns, found.proven, necessary.orientation_laws == found.orientation_laws
    ((3,), True, True)
    >>> necessary.proven
    False
    """
    key = (puzzle.degree, tuple(puzzle.generators.values()),
           tuple(sorted(puzzle.pieces.items())), quick, seed)
    if key not in _LAWS:
        a = _Analysis(puzzle, seed)
        if quick:  # every move even on an orbit keeps it even: no proof needed
            from permgroup.perm_arrays import parity as parities

            a.kind = ["A" if len(r) > 1 and not parities(a.where[:, r.start:r.stop] - r.start)
                      .any() else "S" for r in a.ranges]
        else:
            a.permutations()
        parity_orbits, parity_rows = a.parity_space()
        isolated = not quick and a.isolated()
        relations = _nullspace(parity_rows, len(parity_orbits), 2)
        by_prime = a.orientations(parity_orbits, parity_rows, 0 if quick else TRIES)
        if len(_LAWS) > 16:  # a few puzzles at a time
            _LAWS.clear()
        _LAWS[key] = _laws(a, parity_orbits, relations, by_prime, isolated)
    return _LAWS[key]


_LAWS: dict[tuple, Laws] = {}


def _laws(a: _Analysis, parity_orbits: list[int], relations: list[list[int]],
          laws_by_prime: dict, isolated: bool) -> Laws:
    by_laws = a.squarefree and all(ok for *_, ok in laws_by_prime.values())
    orientation_laws = tuple(
        (p, tuple(orbits), tuple(v[:len(orbits)]), tuple(v[len(orbits):]))
        for p, (orbits, _, _, found, _) in laws_by_prime.items() for v in found)
    return Laws(a.kinds, tuple(a.steps), tuple(a.turns), tuple(a.kind), tuple(parity_orbits),
                tuple(tuple(d) for d in relations), orientation_laws, bool(by_laws and isolated))


def structure(puzzle: Puzzle, *, seed: int = 0) -> Structure:
    """The structure of the group the puzzle's moves generate (see the module
    docstring).

    >>> from permgroup.puzzle import Puzzle
    >>> structure(Puzzle("swap", 3, {"A": (1, 0, 2), "B": (0, 2, 1)})).description
    'S3'
    """
    # kept per moves, pieces, symmetries and name (reachable() asks once a state)
    key = (puzzle.name, puzzle.degree, tuple(puzzle.generators.values()),
           tuple(sorted(puzzle.pieces.items())), tuple(sorted(puzzle.symmetries.items())), seed)
    if key not in _STRUCTURES:
        if len(_STRUCTURES) > 8:
            _STRUCTURES.pop(next(iter(_STRUCTURES)))
        _STRUCTURES[key] = _structure(puzzle, seed)
    return _STRUCTURES[key]


_STRUCTURES: dict[tuple, Structure] = {}


def _structure(puzzle: Puzzle, seed: int) -> Structure:
    a = _Analysis(puzzle, seed)
    a.permutations()
    proofs = []
    exact = True  # every chain used is proven
    chained = False  # a chain's order stands in for a proof of the structure's own
    parity_orbits, parity_rows = a.parity_space()
    isolated = a.isolated()
    relations = _nullspace(parity_rows, len(parity_orbits), 2)
    span = _Span(2, len(parity_orbits))
    for row in dict.fromkeys(map(tuple, parity_rows)):  # each parity vector once
        span.add(list(row))
    constraints = []
    for d in relations:
        members = [a.names[parity_orbits[i]] for i, x in enumerate(d) if x]
        text = (f"{members[0]} parity = {members[1]} parity" if len(members) == 2 else
                "the parities of " + ", ".join(members) + " add up to even")
        constraints.append(Constraint(text, 2, "every move keeps it"))
    if isolated:
        alternating = prod(_factorial(n) // 2 if n > 1 else 1 for n in a.sizes)
        permutation_order = alternating * 2 ** span.dim
        proofs.append("permutations: the product of the orbits' alternating groups, each "
                      + ("isolated by a power of an element or found among the elements that "
                         "move that orbit alone (the stabilizer chain's)"
                         if a.isolated_from_chain else "isolated by a power of an element")
                      + ", and the parities the moves reach")
    else:
        pieces = _piece_chain(a)
        exact &= pieces.proven
        chained = True
        permutation_order = pieces.order
        proofs.append("permutations: the stabilizer chain's order (the orbits could not be "
                      "separated)")
    # orientations
    # with many orbits the chain gives the order anyway: fewer tries for K
    laws_by_prime = a.orientations(parity_orbits, parity_rows,
                                   TRIES if len(a.ranges) <= MANY_ORBITS else TRIES // 8)
    orientation_order = 1
    proven_k = a.squarefree
    per_orbit: dict[int, list[str]] = {i: [] for i in range(len(a.sizes))}
    orbit_order = [1] * len(a.sizes)
    cross: list[str] = []
    for p, (orbits, coords, kspan, found, ok) in sorted(laws_by_prime.items(),
                                                        key=lambda kv: -kv[0]):
        proven_k &= ok
        orientation_order *= p ** kspan.dim
        for v in found:
            c, d = v[:len(orbits)], v[len(orbits):]
            terms = [(coef, a.names[o]) for coef, o in zip(c, orbits) if coef]
            what = "flip" if p == 2 else "twist"
            left = " + ".join(f"{name} {what} sum" if coef == 1 else f"{coef}·{name} {what} sum"
                              for coef, name in terms)
            odd = [a.names[parity_orbits[i]] for i, x in enumerate(d) if x]
            right = " + ".join(f"{name} parity" for name in odd) if odd else "0"
            constraints.append(Constraint(f"{left} ≡ {right} (mod {p})", p,
                                          "every move keeps it"))
        # per orbit, when no law ties orbits together
        tied = any(sum(1 for x in v[:len(orbits)] if x) > 1 for v in found)
        if tied:
            cross.append(_power_text(f"C{p}", kspan.dim))
            continue
        for o in orbits:
            lost = sum(1 for v in found if v[orbits.index(o)])
            dim = len(a.ranges[o]) - min(lost, 1) if ok else None
            if dim is None:
                continue
            per_orbit[o].append(_power_text(f"C{p}", dim))
            orbit_order[o] *= p ** dim
    if not proven_k:
        exact &= a.chain().proven
        chained = True
        total = a.chain().order
        found = orientation_order
        orientation_order = total // permutation_order
        if found == orientation_order and a.squarefree:
            # the turns found are all of K: the chain's order proves it
            proven_k = True
            cross = _merge(cross + [_power_text(f"C{p}", kspan.dim)
                                    for p, (_, _, kspan, _, ok) in sorted(
                                        laws_by_prime.items(), key=lambda kv: -kv[0])
                                    if not ok])
        proofs.append("orientations: the stabilizer chain's order over the permutations' "
                      "order")
    else:
        proofs.append("orientations: the pure turns found fill what the constraints allow")
    # the one-line description
    k_parts = _merge([x for i in range(len(a.sizes)) for x in per_orbit[i]] + cross)
    if not proven_k:
        k_text = f"[order {orientation_order:,}]" if orientation_order > 1 else "1"
    else:
        k_text = _product(k_parts)
    p_text = _permutation_text(a, parity_orbits, span.dim, isolated, permutation_order)
    split = all(_in_kernel(t, laws_by_prime, a) for t in a.twists) if proven_k else True
    join = " ⋊ " if split else " · "
    if k_text == "1":
        description = p_text
    elif p_text == "1":
        description = k_text
    else:
        description = _wrap(k_text) + join + _wrap(p_text)
    order = orientation_order * permutation_order
    parts = []
    for i, name in enumerate(a.names):
        m = a.turns[i]
        text = (_product(per_orbit[i]) if per_orbit[i] else ("tied to other orbits"
                if m > 1 else "none"))
        parts.append(OrbitPart(name, a.sizes[i], a.stickers[i], m,
                               _group_name(a.kind[i], a.sizes[i]) if a.kind[i] != "?"
                               else f"a group of order {a.orders[i] or '?'}",
                               a.proofs[i], text, orbit_order[i]))
    if a._chain is not None and a._chain.proven and a._chain.order != order:
        raise RuntimeError(f"{puzzle.name}: the structure's order {order} is not the "
                           f"stabilizer chain's {a._chain.order}")
    proof = ("proven: " + "; ".join(proofs) if exact and (proven_k and isolated or chained)
             else "; ".join(proofs))
    notes = _rotation_notes(puzzle, order)
    return Structure(puzzle.name, tuple(parts), tuple(constraints), description, order,
                     orientation_order, permutation_order, proof, notes,
                     _laws(a, parity_orbits, relations, laws_by_prime, isolated))


def _merge(parts: list[str]) -> list[str]:
    """``C3^4 × C3^3`` as ``C3^7``, keeping the order of first appearance."""
    total: dict[str, int] = {}
    for part in parts:
        base, _, e = part.partition("^")
        if base != "1":
            total[base] = total.get(base, 0) + int(e or 1)
    return [_power_text(b, e) for b, e in total.items()]


def _permutation_text(a: _Analysis, parity_orbits: list[int], rank: int, isolated: bool,
                      order: int) -> str:
    if not isolated:
        if "?" in a.kind:
            return f"[order {order:,}]"
        whole = _product([_group_name(k, n) for k, n in zip(a.kind, a.sizes)])
        return f"[index {prod(a.orders) // order:,} in {whole}]"
    fixed_alt = [_group_name("A", n) for i, n in enumerate(a.sizes) if i not in parity_orbits]
    odd = [a.sizes[i] for i in parity_orbits]
    if rank == len(odd):
        return _product(fixed_alt + [_group_name("S", n) for n in odd])
    inner = _product([_group_name("A", n) for n in odd])
    extended = inner if rank == 0 else (_power_text("C2", rank) if inner == "1"
                                        else f"{_wrap(inner)} ⋊ {_power_text('C2', rank)}")
    return _product(fixed_alt + [extended])


def _in_kernel(twist: Sequence[int], laws_by_prime: dict, a: _Analysis) -> bool:
    """Whether a generator's turns, alone, are an element of K."""
    for p, (orbits, coords, kspan, laws, ok) in laws_by_prime.items():
        v = kspan.reduce([twist[x] for x in coords])
        if any(v):
            return False
    return True


def _piece_chain(a: _Analysis):
    """The chain of the permutations the moves make of the pieces (the
    puzzle's own chain when every piece is one sticker)."""
    import numpy as np

    from permgroup.orbit_chain import orbit_chain

    if all(k == 1 for k in a.stickers) and a.n == a.puzzle.degree:
        return a.chain()
    return orbit_chain(a.where, a.n)


def _rotation_notes(puzzle: Puzzle, order: int) -> tuple[str, ...]:
    if not puzzle.symmetries:
        return ()
    from permgroup.tables.registry import symmetries_inside

    inside = symmetries_inside(puzzle)
    whole = len(puzzle.symmetry_elements())
    if inside == 1:
        return (f"whole-puzzle rotations: none of the {whole} lies in the group; each state "
                "is one element",)
    return (f"whole-puzzle rotations: {inside} of the {whole} lie in the group (a product of "
            f"moves turns the whole puzzle); states are counted up to rotation: "
            f"{order:,} / {inside} = {order // inside:,}, each class named by its element "
            "that keeps one reference sticker in place",)
