"""The chain of a permutation group on many points, built orbit by orbit:
orders, membership and random elements of puzzles of thousands of stickers.

A puzzle's moves act on thousands of stickers, but in orbits of a few dozen,
and the stickers of one piece move together.  A *factor* is an orbit of
pieces (blocks found from the moves, :func:`permgroup.pieces.stable_blocks`:
the union of the orbits of their stickers).  For each factor ``F``:

* ``P_F``, the group the moves induce on ``F``'s points;
* ``D_F``, a subgroup of the elements of ``G`` that move ``F``'s points only,
  closed under conjugation by the moves (so ``D_F ⊴ P_F``): a *giant*
  (``A_n`` or ``S_n``) or a stabilizer chain (:mod:`permgroup.stabilizer_chain`)
  on ``F``'s points;
* the cosets of ``D_F`` in ``P_F`` (few: parities, the turns of a puzzle's
  frame), and how each move permutes them.

The map ``π: G → ∏_F P_F/D_F`` has kernel ``∏_F D_F``: an element whose
restriction to each factor lies in that factor's ``D_F`` is a product of
elements of ``G``, one a factor.  So

    ``|G| = ∏_F |D_F| · |π(G)|``,

and ``π(G)``, the *glue*, acts on the cosets: a small permutation group whose
stabilizer chain carries, for each representative, an element of ``G`` with
that image.  An element ``x`` is in ``G`` exactly when each restriction lies
in ``P_F`` (a union of known cosets of ``D_F``) and ``π(x)`` sifts through
the glue's chain.  Random elements are uniform: a uniform element of the glue,
lifted, times a uniform element of each ``D_F``.

How ``D_F`` is found.  An element ``x`` of ``G`` whose restriction to every
factor but ``F`` lies in that factor's ``D`` gives an element of ``D_F``:
``x`` times the inverse restrictions (each in ``G``) is ``x|F``.  Candidates
are the moves, commutators of pairs of moves (which touch few pieces on a
puzzle), random elements and their commutators; a candidate left in several
factors is cut to one by a power: ``x^e``, ``e`` the lcm of its cycle lengths
in those factors over a prime ``p``, keeps only cycles whose length has the
largest power of ``p``, when those lie in one factor.  Once a factor's ``D``
holds its commutators (``A_n`` in a giant), every commutator passes it, and
the search spreads from factor to factor.

A factor on one orbit of ``n ≥ 8`` single points is a giant when some element
has a cycle of prime length ``p``, ``n/2 < p < n - 2``: ``P_F`` is then
primitive and contains ``A_n`` (Jordan), and ``D_F``, a non-trivial normal
subgroup of ``A_n`` or ``S_n`` (``n ≥ 5``), is ``A_n`` or ``S_n``: no chain is
built.

Every step is proven, none relies on random elements being random (they only
make the search fast): giants by Jordan's theorem, each ``D_F``'s chain by
Sims' criterion and its normality by sifting conjugates, the cosets by
membership (canonical coset representatives), the glue's chain by Sims'
criterion.  A group whose factors find no small-index ``D`` gets one chain of
all its points (the same module), proven when Sims' criterion fits in its
budget.

>>> chain = orbit_chain([(1, 2, 0, 3, 4, 5), (0, 1, 2, 4, 5, 3), (1, 0, 2, 4, 3, 5)])
>>> chain.order, chain.proven, [f.describe() for f in chain.factors]
(18, True, ['C3 (index 2)', 'C3 (index 2)'])
>>> bool(chain.contains(np.array([1, 0, 2, 3, 4, 5])))
False
>>> print(chain.why_not(np.array([1, 0, 2, 3, 4, 5])))
each orbit's arrangement is one the moves make, but not together: outside the local subgroup on orbit 0, every other orbit in its local subgroup, is a combination no element makes
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from math import lcm, prod

import numpy as np

from permgroup.budget import Budget
from permgroup.perm_arrays import (INDEX, RandomElements, as_perms, commutator, compose,
                                   components, cycle_labels, cycle_lengths, factorial,
                                   identity, invert, moves_of, parity, power, primes,
                                   unique_rows)
from permgroup.stabilizer_chain import StabilizerChain, schreier_sims

#: where the bound on a factor's group comes from
WREATH = "the pieces' turns and parities set"
#: the largest index of a factor's local subgroup in its group (cosets enumerated)
MAX_INDEX = 5000
#: commutators of pairs of moves tried as candidates, at most
MAX_PAIRS = 6000
#: random elements tried for Jordan's cycles and as candidates, per round
RANDOM_BATCH = 32
#: rounds of random candidates before giving up on a factor's local subgroup
RANDOM_ROUNDS = 40
#: candidates left in more factors than this are not cut down by powers
MAX_ISOLATE = 12
#: conjugates tried at a time to cut a small candidate down to one factor
SHRINK_TRIES = 16


def _primes_between(low: float, high: float) -> list[int]:
    return [p for p in primes(int(high)) if low < p < high]


# --- the local subgroup of a factor ------------------------------------------------
@dataclass
class Local:
    """``D_F`` on a factor's ``m`` points: ``kind`` ``"S"``/``"A"`` (a giant),
    ``"1"`` (trivial) or ``"chain"`` (``chain``); its generators as found."""

    m: int
    kind: str = "1"
    chain: StabilizerChain | None = None
    gens: list[np.ndarray] = field(default_factory=list)

    @property
    def order(self) -> int:
        if self.kind == "S":
            return factorial(self.m)
        if self.kind == "A":
            return factorial(self.m) // 2
        return self.chain.order if self.chain is not None else 1

    def contains(self, x: np.ndarray) -> np.ndarray:
        """Row by row, whether local permutations lie in it."""
        x = np.asarray(x, dtype=INDEX).reshape(-1, self.m)
        if self.kind == "S":
            return np.ones(len(x), dtype=bool)
        if self.kind == "A":
            return parity(x) == 0
        if self.chain is not None:
            return np.asarray(self.chain.contains(x), dtype=bool).reshape(-1)
        return (x == identity(self.m)).all(axis=1)

    def canonical(self, x: np.ndarray) -> np.ndarray:
        """The canonical representative of each right coset ``D x`` (rows):
        the element of the coset whose images of the base points, in turn,
        are least; for a giant, the identity or a fixed odd permutation."""
        x = np.array(x, dtype=INDEX, ndmin=2)
        if self.kind == "S":
            return np.tile(identity(self.m), (len(x), 1))
        if self.kind == "A":
            out = np.tile(identity(self.m), (len(x), 1))
            odd = parity(x) == 1
            out[odd, :2] = [1, 0]
            return out
        if self.chain is None:
            return x
        for level in self.chain.levels:
            # D x = ⋃ D_b u_γ x: keep the γ that sends the base point least far
            pick = np.argmin(x[:, level.orbit], axis=1)
            x = compose(level.rep(pick), x)
        return x

    def random(self, count: int, rng: np.random.Generator) -> np.ndarray:
        if self.kind in ("S", "A"):
            out = np.argsort(rng.random((count, self.m)), axis=1)
            if self.kind == "A":
                odd = parity(out) == 1
                out[odd, :2] = out[odd, 1::-1]
            return out
        if self.chain is not None:
            return self.chain.random_elements(count, rng)
        return np.tile(identity(self.m), (count, 1))

    def describe(self) -> str:
        if self.kind in ("S", "A"):
            return f"{self.kind}{self.m}"
        return "1" if self.order == 1 else f"C{self.order}" if _cyclic(self) \
            else f"order {self.order:,}"


def _cyclic(local: Local) -> bool:
    """Whether a chain's group is cyclic of prime order (said so by name)."""
    n = local.order
    return n > 1 and all(n % q for q in range(2, int(n ** 0.5) + 1))


# --- a factor --------------------------------------------------------------------------
@dataclass
class Factor:
    """One orbit of pieces: its points (sorted), the orbits of points in it,
    its pieces (count and stickers each), the moves restricted to it (local
    coordinates, one row per move of the group), whether ``P_F`` is a giant,
    ``D_F``, and the cosets of ``D_F`` in ``P_F``: representatives, the
    canonical key of each, the table of their products and each move's
    action on them.

    When each piece has one point in each orbit (pieces that never turn),
    the pieces' other points follow the first orbit's: ``points`` is that
    orbit and ``shadows[j][i]`` the point of orbit ``j + 1`` in the piece of
    ``points[i]``.  When the pieces' points are in an order every move keeps
    cyclically (:func:`permgroup.pieces.find_pieces`), ``cyclic`` lists them
    (local coordinates, a piece a row): every element then lies in the
    wreath product ``C_b ≀ S_m`` of ``m`` pieces turning ``b`` ways."""

    points: np.ndarray
    orbits: list[np.ndarray]
    pieces: int
    piece_size: int
    moves: np.ndarray
    shadows: np.ndarray | None = None
    cyclic: np.ndarray | None = None
    giant: str | None = None
    giant_proof: str = ""
    local: Local | None = None
    reps: np.ndarray | None = None
    keys: dict[bytes, int] = field(default_factory=dict)
    table: np.ndarray | None = None
    action: np.ndarray | None = None

    @property
    def size(self) -> int:
        return len(self.points)

    @property
    def index(self) -> int:
        """``|P_F : D_F|``."""
        return len(self.reps)

    @property
    def order(self) -> int:
        """``|P_F|``, the order of the group the moves induce on the factor."""
        return self.local.order * self.index

    def coset_of(self, x: np.ndarray) -> np.ndarray:
        """Row by row, which coset of ``D_F`` a local permutation lies in
        (``-1`` when it is not in ``P_F``)."""
        x = np.array(x, dtype=INDEX, ndmin=2)
        if self.local.kind in ("S", "A"):
            if self.index == 1:
                return np.where(self.local.contains(x), 0, -1)
            return parity(x).astype(INDEX)  # reps: even, odd
        canon = self.local.canonical(x)
        return np.array([self.keys.get(row.tobytes(), -1) for row in canon], dtype=INDEX)

    def describe(self) -> str:
        """``D_F`` by name, with its index in ``P_F`` when not 1."""
        text = self.local.describe()
        return text if self.index == 1 else f"{text} (index {self.index})"


# --- the chain -------------------------------------------------------------------------
@dataclass
class OrbitChain:
    """A group's chain built orbit by orbit (see the module docstring): its
    factors, the glue's chain (on the cosets, each element carrying an element
    of the group on the points after them), the points no move displaces."""

    degree: int
    generators: np.ndarray
    factors: list[Factor]
    glue: StabilizerChain
    fixed: np.ndarray
    proof: str
    proven: bool = True

    @property
    def glue_points(self) -> int:
        return sum(f.index for f in self.factors)

    @property
    def order(self) -> int:
        """``∏ |D_F| · |glue|``."""
        return prod(f.local.order for f in self.factors) * self.glue.order

    def __repr__(self) -> str:
        return (f"OrbitChain(degree={self.degree}, {len(self.factors)} factors, "
                f"order {'exact' if self.proven else 'a lower bound'}: {self.order})")

    # --- membership ---------------------------------------------------------------
    def _glue_images(self, perms: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[str]]:
        """For a batch: whether each stays in every factor's group, with a
        reason for the first that does not, and the glue's permutation of each
        (the cosets' images, then the permutation itself shifted past them)."""
        x = np.asarray(perms, dtype=INDEX).reshape(-1, self.degree)
        ok = (x[:, self.fixed] == self.fixed).all(axis=1) if len(self.fixed) else \
            np.ones(len(x), dtype=bool)
        why = ["" if o else "it moves a point no move displaces" for o in ok]
        m = self.glue_points
        images = np.empty((len(x), m), dtype=INDEX)
        at = 0
        position = np.full(self.degree, -1, dtype=INDEX)
        for number, f in enumerate(self.factors):
            position[f.points] = np.arange(f.size)
            local = position[x[:, f.points]]
            inside = (local >= 0).all(axis=1)
            if f.shadows is not None:
                apart = np.zeros(len(x), dtype=bool)
                for shadow in f.shadows:
                    apart |= inside & (x[:, shadow] != shadow[np.maximum(local, 0)]).any(axis=1)
                for i in np.nonzero(ok & apart)[0]:
                    why[i] = f"it breaks a piece of factor {number} apart"
                ok &= ~apart
            coset = np.full(len(x), -1, dtype=INDEX)
            if inside.any():
                coset[inside] = f.coset_of(local[inside])
            for i in np.nonzero(ok & ~inside)[0]:
                why[i] = f"it takes a point of factor {number} out of it"
            for i in np.nonzero(ok & inside & (coset < 0))[0]:
                why[i] = (f"its arrangement of factor {number} ({_factor_text(f)}) is not "
                          "one the moves make")
            ok &= coset >= 0
            images[:, at:at + f.index] = at + f.table[:, np.maximum(coset, 0)].T
            position[f.points] = -1
            at += f.index
        return ok, np.concatenate([images, x + m], axis=1), why

    def contains(self, perms: np.ndarray) -> np.ndarray | bool:
        """Whether each permutation (a row of a batch, or one) is in the group.

        >>> chain = orbit_chain([(1, 2, 0)])
        >>> chain.contains(np.array([[2, 0, 1], [1, 0, 2]])).tolist()
        [True, False]
        """
        perms = np.asarray(perms, dtype=INDEX)
        ok, glued, _ = self._glue_images(perms)
        if ok.any():
            ok[ok] = np.asarray(self.glue.contains(glued[ok]), dtype=bool).reshape(-1)
        return bool(ok[0]) if perms.ndim == 1 else ok

    def __contains__(self, perm) -> bool:
        return bool(self.contains(np.asarray(perm, dtype=INDEX)))

    def why_not(self, perm: np.ndarray) -> str | None:
        """Why a permutation is not in the group (``None`` when it is)."""
        ok, glued, why = self._glue_images(np.asarray(perm, dtype=INDEX)[None])
        if not ok[0]:
            return why[0]
        if self.glue.contains(glued[0]):
            return None
        # where each orbit's arrangement lies: the local subgroup (0) or another coset
        at, odd, other = 0, [], []
        for number, f in enumerate(self.factors):
            coset = int(glued[0][at]) - at  # the image of the first coset point
            if coset:
                parity_only = f.local.kind == "A" and f.index == 2
                (odd if parity_only else other).append(str(number))
            at += f.index
        parts = []
        if odd:
            parts.append(f"odd on orbit{'s' if len(odd) > 1 else ''} {_listing(odd)}")
        if other:
            parts.append(f"outside the local subgroup on orbit{'s' if len(other) > 1 else ''} "
                         f"{_listing(other)}")
        return ("each orbit's arrangement is one the moves make, but not together: "
                + ("; ".join(parts) + ", " if parts else "")
                + "every other orbit in its local subgroup, is a combination no element makes")

    # --- elements -----------------------------------------------------------------
    def random_elements(self, count: int, rng: np.random.Generator | None = None
                        ) -> np.ndarray:
        """``count`` uniformly random elements of the group."""
        rng = rng or np.random.default_rng()
        m = self.glue_points
        out = self.glue.random_elements(count, rng)[:, m:] - m
        for f in self.factors:
            local = f.local.random(count, rng)
            mover = np.tile(identity(self.degree), (count, 1))
            mover[:, f.points] = f.points[local]
            for shadow in (f.shadows if f.shadows is not None else ()):
                mover[:, shadow] = shadow[local]
            out = compose(mover, out)
        return out

    def order_of_factor(self, number: int) -> int:
        """``|P_F|`` of factor ``number``."""
        return self.factors[number].order

    def _repr_html_(self) -> str:
        from html import escape

        rows = "".join(
            f"<tr><td>{i}</td><td>{f.pieces}</td><td>{f.piece_size}</td>"
            f"<td>{', '.join(str(len(o)) for o in f.orbits)}</td>"
            f"<td>{escape(f.local.describe())}</td><td>{f.index}</td></tr>"
            for i, f in enumerate(self.factors))
        return (f"<div>order {self.order:,} ({'proven' if self.proven else 'not proven'}: "
                f"{escape(self.proof.split(': ', 1)[-1])})<table><tr><th>orbit of pieces</th>"
                "<th>pieces</th><th>points each</th><th>orbits of points</th><th>elements "
                "moving it alone</th><th>index</th></tr>" + rows + "</table>"
                f"<div>what ties the orbits together: order {self.glue.order:,}</div></div>")

    def lines(self) -> list[str]:
        """The chain orbit by orbit, for people: the orbits of pieces with the
        same local subgroup counted together, then the glue.

        >>> print("\\n".join(orbit_chain([(1, 2, 0, 3, 4, 5), (0, 1, 2, 4, 5, 3),
        ...                                    (1, 0, 2, 4, 3, 5)]).lines()))
        2 orbits of pieces; the order is proven (local subgroups by the order of a cyclic group's generator, their cosets by canonical representatives, the glue by Sims' criterion)
          2 × C3 (index 2) on 3 points: the elements that move that orbit alone
          what ties the orbits together: a group of order 2, acting on the cosets of those subgroups (4 of them)
        """
        how = self.proof.split(": ", 1)[1] if ": " in self.proof else self.proof
        head = (f"{len(self.factors)} orbit{'s' if len(self.factors) != 1 else ''} of pieces; "
                + (f"the order is proven ({how})" if self.proven
                   else f"the order is a lower bound, not proven ({how})"))
        counts: dict[str, int] = {}
        for f in self.factors:
            key = f"{f.describe()} on {_factor_text(f)}"
            counts[key] = counts.get(key, 0) + 1
        out = [head] + [f"  {c} × {key}: the elements that move that orbit alone"
                        for key, c in counts.items()]
        if self.glue.order == 1:
            out.append("  nothing ties the orbits together: the group is the direct product of "
                       "those subgroups")
        else:
            out.append(f"  what ties the orbits together: a group of order {self.glue.order:,}, "
                       f"acting on the cosets of those subgroups ({self.glue_points:,} of them)")
        return out


def _listing(items: list[str], most: int = 8) -> str:
    """``1, 4, 5`` (and how many more past ``most``)."""
    shown = ", ".join(items[:most])
    return shown + (f" and {len(items) - most} more" if len(items) > most else "")


def _factor_text(f: Factor) -> str:
    """``24 points``, ``8 pieces of 3 points``."""
    many = "s" if f.pieces != 1 else ""
    return (f"{f.pieces} point{many}" if f.piece_size == 1
            else f"{f.pieces} piece{many} of {f.piece_size} points")


# --- building ------------------------------------------------------------------------
def _factors(gens: np.ndarray, n: int) -> tuple[list[Factor], np.ndarray]:
    """The factors (orbits of blocks) and the points no move displaces."""
    from permgroup.pieces import blocks_and_pieces

    moved = (gens != identity(n)).any(axis=0)
    fixed = np.nonzero(~moved)[0]
    classes, pieces = blocks_and_pieces(n, gens)
    ordered = {orbit[0][0]: np.array(orbit) for orbit in pieces if len(orbit[0]) > 1}
    g, x = np.nonzero(gens != identity(n))
    orbit = components(n, x, gens[g, x])
    # points of one block belong to one factor: join their orbits
    points = np.nonzero(moved)[0]
    first_of_block = np.full(int(classes.max()) + 1 if len(points) else 0, -1, dtype=INDEX)
    order = points[np.argsort(classes[points], kind="stable")]
    ids, starts = np.unique(classes[order], return_index=True)
    first_of_block[ids] = order[starts]
    unit = components(n, np.concatenate([x, points]),
                      np.concatenate([gens[g, x], first_of_block[classes[points]]]))
    factors = []
    position = np.full(n, -1, dtype=INDEX)
    for label in np.unique(unit[points]):
        pts = points[unit[points] == label]
        orbits = [pts[orbit[pts] == o] for o in np.unique(orbit[pts])]
        block_ids, sizes = np.unique(classes[pts], return_counts=True)
        size = int(sizes[0])
        shadows = None
        if size > 1 and len(orbits) == size:
            # pieces that never turn: one point in each orbit, the first's leads
            members = pts[np.argsort(classes[pts], kind="stable")].reshape(-1, size)
            members = members[np.argsort(members.min(axis=1))]
            ranks = np.searchsorted([o[0] for o in orbits], orbit[members])
            if (np.sort(ranks, axis=1) == np.arange(size)).all():
                aligned = np.take_along_axis(members, np.argsort(ranks, axis=1), axis=1)
                aligned = aligned[np.argsort(aligned[:, 0])]
                pts, shadows = aligned[:, 0], aligned[:, 1:].T.copy()
        position[pts] = np.arange(len(pts))
        local = position[gens[:, pts]]
        cyclic = ordered.get(int(pts[0])) if shadows is None else None
        if cyclic is not None and cyclic.size == len(pts):
            cyclic = position[cyclic]
        else:
            cyclic = None
        position[pts] = -1
        factors.append(Factor(pts, orbits, len(block_ids), size, local, shadows, cyclic))
    return factors, fixed


def _jordan(factors: list[Factor], randoms: RandomElements, rounds: int = 6) -> None:
    """Mark the factors on one orbit of single points whose group is a giant:
    an element with a cycle of prime length between ``n/2`` and ``n - 2``."""
    todo = [f for f in factors if f.size >= 8 and (
        f.shadows is not None or len(f.orbits) == 1 and f.piece_size == 1)]
    primes = {id(f): np.array(_primes_between(f.size / 2, f.size - 2)) for f in todo}
    todo = [f for f in todo if not _small_cycle_giant(f)]
    for _ in range(rounds):
        if not todo:
            return
        lengths = cycle_lengths(randoms.take(RANDOM_BATCH))
        left = []
        for f in todo:
            hit = np.isin(lengths[:, f.points], primes[id(f)])
            if hit.any():
                f.giant = "S" if (parity(f.moves) == 1).any() else "A"
                p = int(lengths[:, f.points][hit][0])
                f.giant_proof = (f"an element with a {p}-cycle, Jordan's theorem; "
                                 + ("an odd move" if f.giant == "S" else "every move even"))
            else:
                left.append(f)
        todo = left


def _small_cycle_giant(f: Factor) -> bool:
    """Mark a transitive factor a giant when a move is a transposition or a
    3-cycle on it whose points the group cannot keep apart: the minimal block
    holding them is the whole orbit, so their conjugates link every point,
    and transpositions so linked generate ``S_n``, 3-cycles ``A_n``."""
    from permgroup.pieces import minimal_blocks

    m = f.size
    moves = f.moves[(f.moves != identity(m)).any(axis=1)]
    counts = (moves != identity(m)).sum(axis=1)
    for size in (2, 3):
        small = moves[counts == size]
        if len(small):
            points = np.nonzero(small[0] != identity(m))[0]  # two or three: a cycle
            # a few of many moves first: when they alone move every point and
            # keep none of the points apart, neither do all of them
            few = moves[np.random.default_rng(0).choice(len(moves), 1024, replace=False)] \
                if len(moves) > 4096 else moves
            if len(few) < len(moves) and (minimal_blocks(np.concatenate([small[:1], few]),
                                                         points) == 0).all() \
                    or (minimal_blocks(moves, points) == 0).all():
                f.giant = "S" if (parity(f.moves) == 1).any() else "A"
                f.giant_proof = (f"a {'transposition' if size == 2 else '3-cycle'} whose "
                                 "conjugates link every point; "
                                 + ("an odd move" if f.giant == "S" else "every move even"))
                return True
    return False


class _Candidates:
    """Elements kept by their moved points only (a puzzle's commutators move a
    few dozen of thousands): entries ``(owner, point, image)`` sorted by
    owner, then point."""

    def __init__(self, owner: np.ndarray, point: np.ndarray, image: np.ndarray,
                 count: int, n: int):
        order = np.lexsort((point, owner))
        self.owner, self.point, self.image = owner[order], point[order], image[order]
        self.count, self.n = count, n
        self._lengths = None

    @classmethod
    def of(cls, x: np.ndarray) -> _Candidates:
        x = np.asarray(x, dtype=INDEX).reshape(-1, np.shape(x)[-1])
        r, p = np.nonzero(x != identity(x.shape[1]))
        return cls(r, p, x[r, p], len(x), x.shape[1])

    def dense(self, rows: np.ndarray) -> np.ndarray:
        """The candidates ``rows`` as whole permutations."""
        out = np.tile(identity(self.n), (len(rows), 1))
        where = np.full(self.count, -1, dtype=INDEX)
        where[rows] = np.arange(len(rows))
        take = where[self.owner] >= 0
        out[where[self.owner[take]], self.point[take]] = self.image[take]
        return out

    def lengths(self) -> tuple[np.ndarray, np.ndarray]:
        """Each entry's cycle length, and whether it is its cycle's least
        entry, from one permutation of all entries at once."""
        if self._lengths is None:
            keys = self.owner * self.n + self.point
            nxt = np.searchsorted(keys, self.owner * self.n + self.image)
            labels = cycle_labels(nxt) if len(nxt) else nxt
            self._lengths = (np.bincount(labels, minlength=len(nxt))[labels],
                             labels == np.arange(len(nxt)))
        return self._lengths


class _Search:
    """The search for each factor's local subgroup (see the module docstring)."""

    def __init__(self, factors: list[Factor], gens: np.ndarray, n: int,
                 randoms: RandomElements, rng: np.random.Generator, budget: Budget | None):
        self.factors, self.gens, self.n = factors, gens, n
        self.randoms, self.rng, self.budget = randoms, rng, budget
        self.fid = np.full(n, -1, dtype=INDEX)
        self.position = np.full(n, -1, dtype=INDEX)
        for i, f in enumerate(factors):
            self.fid[f.points] = i
            self.position[f.points] = np.arange(f.size)
            f.local = Local(f.size)
        self.changed: set[int] = set()
        self.changed_size: dict[int, int] = {}
        self.tried: dict[int, int] = {}

    def outside(self, c: _Candidates) -> np.ndarray:
        """``(candidates, factors)``: whether each candidate's restriction to
        each factor lies outside the factor's current ``D``."""
        count = len(self.factors)
        fid = self.fid[c.point]
        mine = fid >= 0
        owner, fid = c.owner[mine], fid[mine]
        pair = owner * count + fid
        moved = np.zeros(c.count * count, dtype=bool)
        moved[pair] = True
        moved = moved.reshape(c.count, count)
        out = moved.copy()
        kinds = np.array([f.local.kind for f in self.factors])
        out[:, kinds == "S"] = False
        alternating = kinds == "A"
        if alternating.any():
            lengths, roots = c.lengths()
            points = np.bincount(pair, minlength=c.count * count)
            cycles = np.bincount(pair, weights=roots[mine], minlength=c.count * count)
            odd = ((points - cycles.astype(INDEX)) % 2 == 1).reshape(c.count, count)
            out[:, alternating] &= odd[:, alternating]
        for i in np.nonzero(kinds == "chain")[0]:
            rows = np.nonzero(moved[:, i])[0]
            if len(rows):
                out[rows, i] = ~self.factors[i].local.contains(self.restrict(c, rows, i))
        return out

    def restrict(self, c: _Candidates, rows: np.ndarray, i: int) -> np.ndarray:
        """The restrictions of candidates ``rows`` to factor ``i`` (local)."""
        f = self.factors[i]
        out = np.tile(identity(f.size), (len(rows), 1))
        where = np.full(c.count, -1, dtype=INDEX)
        where[rows] = np.arange(len(rows))
        take = (where[c.owner] >= 0) & (self.fid[c.point] == i)
        out[where[c.owner[take]], self.position[c.point[take]]] = self.position[c.image[take]]
        return out

    def add(self, i: int, local: np.ndarray) -> bool:
        """Take a local element of factor ``i``; whether its ``D`` grows."""
        f = self.factors[i]
        if (local == identity(f.size)).all():
            return False
        if f.giant is not None:
            kind = "S" if f.giant == "S" and (f.local.kind == "S" or parity(local)) else "A"
            if f.local.kind == kind:
                return False
            f.local.kind = kind
        else:
            if i not in self.changed:
                self.changed_size[i] = len(f.local.gens)
            elif len(f.local.gens) - self.changed_size[i] >= 8:
                return False  # enough for one closure
            if f.local.chain is not None and f.local.chain.contains(local):
                return False
            f.local.kind = "chain"
            f.local.gens.append(local)
        self.changed.add(i)
        f.reps = None
        return True

    def close(self) -> None:
        """Rebuild the changed chain factors' ``D``: the normal closure of the
        local elements found under the moves."""
        for i in sorted(self.changed):
            f = self.factors[i]
            if f.local.kind == "chain":
                f.local.chain, f.local.gens = _normal_closure(f.local.gens, f.moves, f.size,
                                                              self.budget, f.cyclic)
        self.changed.clear()
        self.changed_size.clear()

    def offer(self, c: _Candidates) -> int:
        """Take what local elements the candidates give; how many."""
        if not c.count:
            return 0
        if self.budget is not None:
            self.budget.check()
        out = self.outside(c)
        found = 0
        counts = out.sum(axis=1)
        single = np.nonzero(counts == 1)[0]
        if len(single):
            which = np.argmax(out[single], axis=1)
            for i in np.unique(which):
                rows = single[which == i]
                for local in self.restrict(c, rows[:8], int(i)):
                    found += self.add(int(i), local)
        several = np.nonzero((counts > 1) & (counts <= MAX_ISOLATE))[0]
        if len(several):
            found += self._isolate(c, several, out)
        if found:
            self.close()
        return found

    def _isolate(self, c: _Candidates, rows: np.ndarray, out: np.ndarray) -> int:
        """Powers of candidates left in one of their factors only: for a prime
        ``p``, the cycles whose length has the most factors ``p``, when they
        lie in one factor."""
        lengths, _ = c.lengths()
        fid = self.fid[c.point]
        starts = np.searchsorted(c.owner, rows)
        ends = np.searchsorted(c.owner, rows, side="right")
        found = 0
        for r, a, b in zip(rows, starts, ends):
            where = out[r]
            mine = where[np.maximum(fid[a:b], 0)] & (fid[a:b] >= 0)
            if not mine.any():
                continue
            per = {}
            for i, ell in zip(fid[a:b][mine].tolist(), lengths[a:b][mine].tolist()):
                per.setdefault(i, set()).add(ell)
            total = lcm(*(ell for ls in per.values() for ell in ls))
            for p in _prime_factors(total):
                top = {i: max(_valuation(ell, p) for ell in ls) for i, ls in per.items()}
                best = max(top.values())
                winners = [i for i, v in top.items() if v == best]
                if len(winners) == 1 and not self.done(winners[0]):
                    i = winners[0]
                    local = self.restrict(c, np.array([r]), i)[0]
                    found += self.add(i, power(local, total // p))
        return found

    def done(self, i: int) -> bool:
        return self.factors[i].reps is not None

    def _small_candidates(self) -> _Candidates:
        """Commutators of pairs of moves whose supports meet, each worked out
        on the union of the two supports only, kept when it moves at most half
        the points (few, on a puzzle)."""
        k = len(self.gens)
        movers = self.gens != identity(self.n)
        overlap = movers.astype(np.int32) @ movers.T.astype(np.int32)
        a, b = np.nonzero(np.triu(overlap, 1))
        if len(a) > MAX_PAIRS:
            pick = np.sort(self.rng.choice(len(a), MAX_PAIRS, replace=False))
            a, b = a[pick], b[pick]
        supports = [np.nonzero(m)[0] for m in movers]
        position = np.full(self.n, -1, dtype=INDEX)
        owner, point, image = [], [], []
        for count, (i, j) in enumerate(zip(a.tolist(), b.tolist())):
            union = np.union1d(supports[i], supports[j])
            position[union] = np.arange(len(union))
            x, y = position[self.gens[i][union]], position[self.gens[j][union]]
            z = commutator(x, y)
            moved = np.nonzero(z != np.arange(len(union)))[0]
            position[union] = -1
            if 0 < len(moved) <= self.n // 2:
                owner.append(np.full(len(moved), len(owner), dtype=INDEX))
                point.append(union[moved])
                image.append(union[z[moved]])
        if not owner:
            return _Candidates(*(np.empty(0, dtype=INDEX),) * 3, 0, self.n)
        return _Candidates(np.concatenate(owner), np.concatenate(point),
                           np.concatenate(image), len(owner), self.n)

    def _shrink(self, small: _Candidates) -> int:
        """For the factors without a local subgroup, a few small candidates
        that still leave them: ``[x, x^h]`` for random ``h`` is trivial on the
        factors where ``x`` and its conjugate move disjoint points (worked out
        on the points ``x`` and ``x^h`` move)."""
        found = 0
        waiting = {i for i in range(len(self.factors)) if not self.done(i)}
        out = self.outside(small)
        counts = out.sum(axis=1)
        starts = np.searchsorted(small.owner, np.arange(small.count))
        ends = np.searchsorted(small.owner, np.arange(small.count), side="right")
        position = np.full(self.n, -1, dtype=INDEX)
        for r in np.argsort(counts, kind="stable"):
            if not waiting:
                break
            if not counts[r] or counts[r] > MAX_ISOLATE or \
                    not set(np.nonzero(out[r])[0].tolist()) & waiting:
                continue
            support, images = small.point[starts[r]:ends[r]], small.image[starts[r]:ends[r]]
            owner, point, image = [], [], []
            for number, h in enumerate(self.randoms.take(SHRINK_TRIES)):
                # x^h moves h(s) to h(x(s))
                union = np.union1d(support, h[support])
                position[union] = np.arange(len(union))
                x = np.arange(len(union))
                y = x.copy()
                x[position[support]] = position[images]
                y[position[h[support]]] = position[h[images]]
                z = commutator(x, y)
                moved = np.nonzero(z != np.arange(len(union)))[0]
                position[union] = -1
                owner.append(np.full(len(moved), number, dtype=INDEX))
                point.append(union[moved])
                image.append(union[z[moved]])
            found += self.offer(_Candidates(np.concatenate(owner), np.concatenate(point),
                                            np.concatenate(image), SHRINK_TRIES, self.n))
            self._cosets()
            waiting = {i for i in waiting if not self.done(i)}
        return found

    def run(self) -> None:
        self.offer(_Candidates.of(self.gens))
        small = self._small_candidates()
        # offer them again while the factors' subgroups grow
        while self.offer(small):
            pass
        for _ in range(RANDOM_ROUNDS):
            self._cosets()
            if all(self.done(i) for i in range(len(self.factors))):
                return
            if self._shrink(small):
                while self.offer(small):
                    pass
                continue
            batch = self.randoms.take(RANDOM_BATCH)
            others = self.randoms.take(RANDOM_BATCH)
            self.offer(_Candidates.of(np.concatenate([batch, commutator(batch, others)])))
        self._cosets(final=True)

    def _cosets(self, final: bool = False) -> None:
        """Enumerate the cosets of each factor whose ``D`` changed since the
        last try; at the end of the search also those whose ``D`` is trivial
        (then the cosets are ``P_F`` itself)."""
        for i, f in enumerate(self.factors):
            if f.local.kind == "1" and not final:
                continue
            if f.reps is None and self.tried.get(i) != f.local.order:
                self.tried[i] = f.local.order
                _enumerate_cosets(f)


def _valuation(x: int, p: int) -> int:
    e = 0
    while x % p == 0:
        x //= p
        e += 1
    return e


def _prime_factors(n: int) -> list[int]:
    out, p = [], 2
    while p * p <= n:
        if n % p == 0:
            out.append(p)
            while n % p == 0:
                n //= p
        p += 1
    if n > 1:
        out.append(n)
    return out


def _wreath_bound(cyclic: np.ndarray, gens: np.ndarray) -> int:
    """An upper bound on the order of a group of ``gens`` that keep the pieces
    ``cyclic`` (rows of points in an order each element keeps cyclically):
    the elements of ``C_b ≀ S_m`` whose twist sum (mod ``b``) and piece parity
    lie in the subgroup the generators' values span (both are homomorphisms
    of the wreath product, so the group lies there)."""
    m, b = cyclic.shape
    piece_of = np.empty(cyclic.size, dtype=INDEX)
    place_of = np.empty(cyclic.size, dtype=INDEX)
    piece_of[cyclic] = np.arange(m)[:, None]
    place_of[cyclic] = np.arange(b)[None, :]
    images = gens[:, cyclic[:, 0]]
    twists = place_of[images].sum(axis=1) % b
    signs = parity(piece_of[images]) if m > 1 else np.zeros(len(gens), dtype=INDEX)
    values = {(0, 0)}
    todo = list(values)
    steps = set(zip(twists.tolist(), np.asarray(signs).tolist()))
    while todo:
        t, e = todo.pop()
        for dt, de in steps:
            v = ((t + dt) % b, (e + de) % 2)
            if v not in values:
                values.add(v)
                todo.append(v)
    whole = b ** m * factorial(m)
    return whole * len(values) // (b * (2 if m > 1 else 1))


def _normal_closure(elements: list[np.ndarray], moves: np.ndarray, m: int,
                    budget: Budget | None, cyclic: np.ndarray | None = None
                    ) -> tuple[StabilizerChain, list[np.ndarray]]:
    """The chain of the normal closure of ``elements`` under ``moves`` (all on
    ``m`` points): conjugates not yet in it join until every conjugate of a
    generator by a move is.  With pieces (``cyclic``), a chain that reaches
    :func:`_wreath_bound` is the subgroup of the wreath product cut out by
    homomorphisms to an abelian group, normal in it: no conjugates needed."""
    gens = unique_rows(np.array(elements, dtype=INDEX))
    moves = unique_rows(moves[(moves != identity(m)).any(axis=1)])
    while True:
        # Sims' check only once the conjugates stop adding anything
        bound = _wreath_bound(cyclic, gens) if cyclic is not None else None
        chain = schreier_sims(gens, m, budget=budget, bound=bound, why=WREATH, verify=False)
        if bound is not None and chain.order == bound:
            return chain, list(gens)
        conjugates = compose(compose(invert(moves)[:, None, :].repeat(len(gens), axis=1),
                                     np.broadcast_to(gens[None], (len(moves), len(gens), m))
                                     ), moves[:, None, :].repeat(len(gens), axis=1))
        conjugates = conjugates.reshape(-1, m)
        outside = ~np.asarray(chain.contains(conjugates), dtype=bool)
        if not outside.any():
            order = chain.order
            if not chain.proven:  # a cyclic or abelian group's bound proves it already
                chain.verify(budget=budget)
            if chain.order == order:
                return chain, list(gens)
            outside = ~np.asarray(chain.contains(conjugates), dtype=bool)
            if not outside.any():
                return chain, list(gens)
        gens = unique_rows(np.concatenate([gens, conjugates[outside]]))


def _enumerate_cosets(f: Factor, limit: int = MAX_INDEX) -> bool:
    """The cosets of ``D_F`` in ``P_F``, breadth first from ``D_F`` under the
    moves (right multiplication), each known by its canonical representative;
    ``False`` (and nothing kept) past ``limit`` cosets."""
    m = f.size
    if f.local.kind in ("S", "A"):
        full = f.local.kind == "A" and f.giant == "S"
        reps = np.tile(identity(m), (2 if full else 1, 1))
        if full:
            reps[1, :2] = [1, 0]
        f.reps = reps
        f.table = np.array([[0, 1], [1, 0]]) if full else np.zeros((1, 1), dtype=INDEX)
        f.action = parity(f.moves).reshape(-1, 1) ^ np.arange(len(reps))[None] if full \
            else np.zeros((len(f.moves), 1), dtype=INDEX)
        return True
    one = identity(m)
    keys = {f.local.canonical(one)[0].tobytes(): 0}
    reps = [one]
    unique, which = unique_rows(f.moves, return_inverse=True)
    which = which.reshape(-1)
    act = []  # per coset: the coset each unique move takes it to
    i = 0
    while i < len(reps):
        products = compose(reps[i], unique)
        canon = f.local.canonical(products)
        row = []
        for p, c in zip(products, canon):
            key = c.tobytes()
            if key not in keys:
                if len(reps) >= limit:
                    return False
                keys[key] = len(reps)
                reps.append(p)
            row.append(keys[key])
        act.append(row)
        i += 1
    f.reps = np.array(reps)
    f.keys = keys
    f.action = np.array(act, dtype=INDEX).T[which]
    c = len(reps)
    prods = compose(np.repeat(f.reps, c, axis=0), np.tile(f.reps, (c, 1)))
    f.table = np.array([keys[row.tobytes()] for row in f.local.canonical(prods)],
                       dtype=INDEX).reshape(c, c)
    return True


def orbit_chain(generators: Sequence[Sequence[int]] | np.ndarray, degree: int | None = None,
                *, budget: Budget | None = None, seed: int = 0) -> OrbitChain:
    """The chain of the group the generators span, built orbit by orbit (see
    the module docstring).

    >>> orbit_chain([(1, 2, 3, 4, 5, 6, 7, 8, 0), (1, 0, 2, 3, 4, 5, 6, 7, 8)]).order
    362880
    """
    gens = as_perms(generators, degree) if not isinstance(generators, np.ndarray) \
        else np.asarray(generators, dtype=INDEX)
    n = gens.shape[1]
    rng = np.random.default_rng(seed)
    factors, fixed = _factors(gens, n)
    live = gens[(gens != identity(n)).any(axis=1)]
    randoms = RandomElements(live if len(live) else gens, rng)
    _jordan(factors, randoms)
    if len(factors) == 1:
        f = factors[0]
        f.local = Local(f.size)
        if f.giant is not None:
            f.local.kind = f.giant
        else:
            f.local.kind = "chain"
            f.local.chain = schreier_sims(
                f.moves, f.size, budget=budget, seed=seed,
                bound=None if f.cyclic is None else _wreath_bound(f.cyclic, f.moves),
                why=WREATH if f.cyclic is not None else "")
        _enumerate_cosets(f)
    elif factors:
        search = _Search(factors, gens, n, randoms, rng, budget)
        search.run()
        if any(f.reps is None for f in factors):
            return _whole(gens, n, fixed, budget, seed)
    return _glued(gens, n, factors, fixed, budget, seed)


def _glued(gens: np.ndarray, n: int, factors: list[Factor], fixed: np.ndarray,
           budget: Budget | None, seed: int) -> OrbitChain:
    m = sum(f.index for f in factors)
    images = np.empty((len(gens), m), dtype=INDEX)
    at = 0
    for f in factors:
        images[:, at:at + f.index] = at + f.action
        at += f.index
    # one move per action on the cosets generates the same quotient (its
    # elements, products of moves, stay in the group): S_256's 32,640 moves
    # act on its one coset alike
    moving = np.nonzero((images != np.arange(m)).any(axis=1))[0]
    keep = moving[unique_rows(images[moving], return_index=True)[1]] if len(moving) \
        else np.arange(min(len(gens), 1))
    keep.sort()
    glue = schreier_sims(np.concatenate([images[keep], gens[keep] + m], axis=1), m + n,
                         points=range(m), budget=budget, seed=seed)
    proven = glue.proven and all(f.local.kind != "chain" or f.local.chain.proven
                                 for f in factors)
    if proven:
        ways = []
        giants = [f.giant_proof for f in factors if f.local.kind in ("A", "S")]
        if any("Jordan" in g for g in giants):
            ways.append("Jordan's theorem")
        if any("conjugates link" in g for g in giants):
            ways.append("linked transpositions or 3-cycles")
        chains = [f.local.chain for f in factors if f.local.kind == "chain"]
        if any(WREATH in c.proof for c in chains):
            ways.append(f"the bound {WREATH}")
        if any("cyclic group" in c.proof for c in chains):
            ways.append("the order of a cyclic group's generator")
        if any("abelian group" in c.proof for c in chains):
            ways.append("the bound an abelian group's orbits set")
        if any("Sims" in c.proof for c in chains):
            ways.append("Sims' criterion")
        proof = "proven: " + (f"local subgroups by {' and '.join(ways)}, " if ways else "")
        proof += ("their cosets by canonical representatives, " if chains else "")
        proof += ("the glue by Sims' criterion" if "Sims" in glue.proof
                  else "the glue by a known bound")
    else:
        proof = "not proven: " + (glue.proof if not glue.proven else
                                  "a local subgroup's chain is not proven")
    return OrbitChain(n, gens, factors, glue, fixed, proof, proven)


def _whole(gens: np.ndarray, n: int, fixed: np.ndarray, budget: Budget | None,
           seed: int) -> OrbitChain:
    """One factor of every moved point: the fallback."""
    moved = np.nonzero((gens != identity(n)).any(axis=0))[0]
    position = np.full(n, -1, dtype=INDEX)
    position[moved] = np.arange(len(moved))
    f = Factor(moved, [moved], len(moved), 1, position[gens[:, moved]])
    f.local = Local(f.size, "chain", schreier_sims(f.moves, f.size, budget=budget, seed=seed))
    _enumerate_cosets(f)
    return _glued(gens, n, [f], fixed, budget, seed)


_CHAINS: dict[tuple, OrbitChain] = {}


def _key(puzzle) -> tuple:
    return (puzzle.degree, tuple(puzzle.generators.values()))


def remember(puzzle, chain: OrbitChain) -> None:
    """Keep a chain already known for a puzzle (a stabilizer's)."""
    if len(_CHAINS) >= 4:
        _CHAINS.pop(next(iter(_CHAINS)))
    _CHAINS[_key(puzzle)] = chain


def puzzle_chain(puzzle, *, budget: Budget | None = None) -> OrbitChain:
    """The chain of the group a :class:`~permgroup.puzzle.Puzzle`'s moves
    generate (kept for the last few puzzles asked about).

    >>> from permgroup.puzzle import Puzzle
    >>> puzzle_chain(Puzzle("swap", 3, {"A": (1, 0, 2), "B": (0, 2, 1)})).order
    6
    """
    key = _key(puzzle)
    if key not in _CHAINS:
        remember(puzzle, orbit_chain(moves_of(puzzle), puzzle.degree, budget=budget))
    return _CHAINS[key]
