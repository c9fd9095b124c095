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

Anything left unproven falls back to sympy's order (said so in the text).

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

from permgroup.elements import cycles_of, piece_form
from permgroup.perm import parity
from permgroup.pieces import find_pieces, piece_kinds
from permgroup.puzzle import Puzzle

#: random elements tried for each proof before falling back to sympy
TRIES = 400
#: orbits of at most this many pieces have their permutation group listed whole
LISTED = 7


# --- piece-level elements: (where each piece goes, how much it turns) --------------
Element = tuple[tuple[int, ...], tuple[int, ...]]


def _compose(a: Element, b: Element, moduli: Sequence[int]) -> Element:
    wa, ta = a
    wb, tb = b
    return (tuple(wb[j] for j in wa),
            tuple((t + tb[j]) % m for t, j, m in zip(ta, wa, moduli)))


def _power(a: Element, e: int, moduli: Sequence[int]) -> Element:
    n = len(a[0])
    result: Element = (tuple(range(n)), (0,) * n)
    while e:
        if e & 1:
            result = _compose(result, a, moduli)
        a = _compose(a, a, moduli)
        e >>= 1
    return result


def _cycle_lengths(where: Sequence[int], points: range) -> list[int]:
    """Cycle lengths of a permutation of all pieces, on one orbit's ``points``."""
    local = [where[x] - points.start for x in points]
    return [len(c) for c in cycles_of(local, singletons=True)]


def _parity(where: Sequence[int], points: range) -> int:
    return parity([where[x] - points.start for x in points])


def _primes(n: int) -> list[int]:
    return [p for p in range(2, n + 1) if all(p % q for q in range(2, int(p ** 0.5) + 1))]


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
    for r in rows:
        span.add(r)
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
        """Whether the order is proven from the generators alone (else sympy's
        order was used for part of it)."""
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


class _Analysis:
    def __init__(self, puzzle: Puzzle, seed: int) -> None:
        self.puzzle = puzzle
        self.rng = random.Random(seed)
        moves = list(puzzle.generators.values())
        found = find_pieces(puzzle.degree, moves)
        self.kinds = piece_kinds(found, puzzle.pieces)
        self.names = list(self.kinds)
        self.sizes = [len(v) for v in self.kinds.values()]
        self.stickers = [len(v[0]) for v in self.kinds.values()]
        self.offsets = [sum(self.sizes[:i]) for i in range(len(self.sizes))]
        self.ranges = [range(o, o + n) for o, n in zip(self.offsets, self.sizes)]
        self.n = sum(self.sizes)
        gens = []
        for g in moves:
            where, twist = [], []
            for kind, pieces in self.kinds.items():
                form = piece_form(pieces, g, kind)
                base = self.offsets[self.names.index(kind)]
                where += [base + w for w in form.where]
                twist += list(form.twist)
            gens.append((tuple(where), tuple(twist)))
        # the orientations the moves can reach: twists are multiples of k/m
        self.moduli_full = [k for k, n in zip(self.stickers, self.sizes) for _ in range(n)]
        self.moduli = []
        self.turns = []
        for i, r in enumerate(self.ranges):
            k = self.stickers[i]
            step = k
            for w, t in gens:
                for x in r:
                    step = gcd(step, t[x])
            m = k // step if step else 1
            self.turns.append(m)
            self.moduli += [m] * len(r)
        self.steps = [k // m for k, m in zip(self.stickers, self.turns)]
        step_of = [self.steps[i] for i, r in enumerate(self.ranges) for _ in r]
        self.gens = [(w, tuple(t[x] // step_of[x] % self.moduli[x] for x in range(self.n)))
                     for w, t in gens]

    def random_element(self) -> Element:
        element = self.gens[self.rng.randrange(len(self.gens))]
        for _ in range(self.rng.randrange(8, 40)):
            element = _compose(element, self.gens[self.rng.randrange(len(self.gens))],
                               self.moduli)
        return element

    # permutations ----------------------------------------------------------------------
    def permutations(self) -> None:
        self.kind, self.proofs, self.orders = [], [], []
        for i, r in enumerate(self.ranges):
            n = len(r)
            odd = any(_parity(w, r) for w, _ in self.gens)
            if n == 1:
                self.kind.append("S"), self.proofs.append("one piece"), self.orders.append(1)
                continue
            if n <= LISTED:
                local = [tuple(w[x] - r.start for x in r) for w, _ in self.gens]
                from permgroup.perm import closure

                size = len(closure(local, n))
                kind = "S" if size == factorial(n) else "A" if 2 * size == factorial(n) else "?"
                self.kind.append(kind), self.orders.append(size)
                self.proofs.append(f"all {size:,} listed")
                continue
            primes = [p for p in _primes(n) if n / 2 < p < n - 2]
            proof = None
            for _ in range(TRIES):
                w, _ = self.random_element()
                lengths = _cycle_lengths(w, r)
                hit = [p for p in primes if p in lengths]
                if hit:
                    proof = (f"an element with a {hit[0]}-cycle, Jordan's theorem"
                             + ("; an odd move" if odd else "; every move even"))
                    break
            if proof is None:
                self.kind.append("?"), self.orders.append(0), self.proofs.append("not proven")
            else:
                kind = "S" if odd else "A"
                self.kind.append(kind)
                self.orders.append(factorial(n) // (1 if odd else 2))
                self.proofs.append(proof)

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
        for _ in range(TRIES):
            if not todo:
                return True
            w, _ = self.random_element()
            lengths = [_cycle_lengths(w, r) for r in self.ranges]
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
        return not todo

    def parity_space(self) -> tuple[list[int], list[list[int]]]:
        odd_orbits = [i for i, r in enumerate(self.ranges) if self.kind[i] == "S" and len(r) > 1]
        rows = [[_parity(w, self.ranges[i]) for i in odd_orbits] for w, _ in self.gens]
        return odd_orbits, rows

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
            rows = []
            for g, (w, t) in enumerate(self.gens):
                row = [sum(t[x] for x in self.ranges[o]) % p for o in orbits]
                if p == 2:
                    row += parity_rows[g]
                rows.append(row)
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
                g = self.random_element()
                e = lcm(*_cycle_lengths(g[0], range(self.n)))
                pure = _power(g, e, self.moduli)[1]
                v = [pure[x] for x in coords]
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
            a.kind = ["A" if len(r) > 1 and not any(_parity(w, r) for w, _ in a.gens) else "S"
                      for r in a.ranges]
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
    a = _Analysis(puzzle, seed)
    a.permutations()
    proofs = []
    parity_orbits, parity_rows = a.parity_space()
    isolated = a.isolated()
    relations = _nullspace(parity_rows, len(parity_orbits), 2)
    span = _Span(2, len(parity_orbits))
    for row in parity_rows:
        span.add(row)
    constraints = []
    for d in relations:
        members = [a.names[parity_orbits[i]] for i, x in enumerate(d) if x]
        text = (f"{members[0]} parity = {members[1]} parity" if len(members) == 2 else
                "the parities of " + ", ".join(members) + " add up to even")
        constraints.append(Constraint(text, 2, "every move keeps it"))
    if isolated:
        alternating = prod(factorial(n) // 2 if n > 1 else 1 for n in a.sizes)
        permutation_order = alternating * 2 ** span.dim
        proofs.append("permutations: the product of the orbits' alternating groups, each "
                      "isolated by a power of an element, and the parities the moves reach")
    else:
        permutation_order = _sympy_permutation_order(a)
        proofs.append("permutations: sympy's order (the orbits could not be separated)")
    # orientations
    laws_by_prime = a.orientations(parity_orbits, parity_rows)
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
        total = _sympy_order(puzzle)
        found = orientation_order
        orientation_order = total // permutation_order
        if found == orientation_order and a.squarefree:
            # the turns found are all of K: sympy's order proves it
            proven_k = True
            cross = _merge(cross + [_power_text(f"C{p}", kspan.dim)
                                    for p, (_, _, kspan, _, ok) in sorted(
                                        laws_by_prime.items(), key=lambda kv: -kv[0])
                                    if not ok])
        proofs.append("orientations: sympy's order over the permutations' order")
    else:
        proofs.append("orientations: the pure turns found fill what the constraints allow")
    # the one-line description
    k_parts = _merge([x for i in range(len(a.sizes)) for x in per_orbit[i]] + cross)
    if not proven_k:
        k_text = f"[order {orientation_order:,}]" if orientation_order > 1 else "1"
    else:
        k_text = _product(k_parts)
    p_text = _permutation_text(a, parity_orbits, span.dim, isolated, permutation_order)
    split = all(_in_kernel(g[1], laws_by_prime, a) for g in a.gens) if proven_k else True
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
    proof = "proven: " + "; ".join(proofs) if proven_k and isolated else "; ".join(proofs)
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


def _sympy_permutation_order(a: _Analysis) -> int:
    from sympy.combinatorics import Permutation, PermutationGroup

    return int(PermutationGroup([Permutation(list(w)) for w, _ in a.gens]).order())


def _sympy_order(puzzle: Puzzle) -> int:
    return int(puzzle.group().order())


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
