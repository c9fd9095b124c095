"""Every 3-cycle of an orbit of pieces, as a conjugate of one short 3-cycle.

The greedy descent (:mod:`~permgroup.solver.greedy`) knows the 3-cycles its tool
table holds: base commutators and their conjugates by one or two letters.  On a
big puzzle that leaves, at the end, pieces no tool in the table brings home (on
the 33x33x33, a few pieces in each of a hundred rings of centres).  This module
finishes such orbits for certain.

A 3-cycle ``T`` of three pieces of an orbit carries, conjugated by a setup
``s``, to the 3-cycle of the pieces ``s`` carries them to: ``s T s⁻¹`` moves
what ``T`` moves, relabelled.  A breadth-first search over the ordered triples of
the orbit's pieces, starting from the base 3-cycles, gives every triple its
shortest setup: the orbit's group is at least 3-transitive on pieces (as every
alternating group of five or more is), so every 3-cycle is found.  The pieces
are then brought home one 3-cycle at a time, the one fixing the most pieces
for its length first; pieces that look alike are told apart only by what they
show, so an orbit of identical pieces is solved with the fewest cycles the
greedy choice finds.  A piece that never turns in place (each of its stickers
in an orbit of positions of its own: a centre, a big cube's edge wing) is then
home; one that may turn (a corner) is placed, and turned by the greedy's
twists.

>>> import numpy as np
>>> from permgroup.moves import MoveSet
>>> from permgroup.solver.pieces import Pieces
>>> from permgroup.solver.commutators import Tool, effect
>>> # five cells in a row: t swaps cells 0 and 1, u turns all five round
>>> t = np.array([1, 0, 2, 3, 4]); u = np.array([1, 2, 3, 4, 0])
>>> ms = MoveSet.from_moves({"t": t, "u": u, "-u": np.argsort(u)})
>>> word = ms.letters(["t", "u", "t", "-u"])   # [t, u]: a 3-cycle of cells
>>> base = [Tool(tuple(word), 4, *effect(ms.perm(word)))]
>>> cycles = OrbitCycles.of(ms, Pieces.of(ms), np.zeros(5, dtype=np.int64), base)
>>> start = np.array([2, 0, 1, 3, 4]); goal = np.arange(5)
>>> word = cycles.solve(start, goal)
>>> ms.apply(start, word).tolist()
[0, 1, 2, 3, 4]
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from permgroup.budget import Budget
from permgroup.solver.commutators import Tool, base_commutators
from permgroup.levels import DenseKeys, by_moves, levels
from permgroup.moves import Letter, MoveSet
from permgroup.solver.pieces import Pieces

#: seconds for 3-cycles with setups of two letters, for orbits that have none with one
LONG_SETUP_TIME = 3.0
#: orbits of more pieces are left to the greedy (a search over n³ triples: about
#: 14 bytes each, 110 MB for the 198 cells of Santa's largest wreath)
MAX_PIECES = 200
#: states made at once by a step of an orbit's search (its memory: about 40 bytes each)
CHILDREN = 1 << 20
#: orbits of more pieces look for their 3-cycles among the wrong slots first
SMALL_ORBIT = 48


@dataclass
class Orbit:
    """One orbit of pieces, with its 3-cycle setups.

    ``slots[i]``: the positions of piece slot ``i``, by their orbit of positions
    (a piece that never turns shows the same column wherever it goes).
    ``depth[code]``/``letter``/``parent`` give, for the ordered triple
    ``code = x n² + y n + z``, the shortest setup that carries a base 3-cycle's
    triple there; ``root[code]``: which base 3-cycle.
    """

    slots: np.ndarray
    base: list[tuple[list[Letter], tuple[int, int, int]]]
    depth: np.ndarray
    letter: np.ndarray
    parent: np.ndarray
    root: np.ndarray
    #: the least depth over a triple's three rotations (the same 3-cycle), -1 if none
    least: np.ndarray


class OrbitCycles:
    """The 3-cycle setups of each orbit of pieces, built when an orbit is first
    asked for."""

    def __init__(self, ms: MoveSet, orbits: dict[int, np.ndarray],
                 base: dict[int, list[tuple[list[Letter], tuple[int, int, int]]]],
                 block_of: np.ndarray, slot_of: np.ndarray,
                 groups: dict[int, list[slice]], turning: set[int]):
        self.ms = ms
        self._slots = orbits
        self._base = base
        self._block_of = block_of
        self._slot_of = slot_of
        self._groups = groups
        #: the orbits whose pieces may turn in place (placed here, turned by the greedy's tools)
        self.turning = turning
        self._built: dict[int, Orbit] = {}
        # the searches made, by the orbit's letter maps and base triples
        self._searches: dict[bytes, tuple] = {}
        # each orbit's best 3-cycle, kept while the orbit's stickers stay as they were
        self._plans: dict[int, tuple] = {}
        # setups of letters costing one or two moves: a ring's longer turns are
        # made of these at the same cost, and its searches stay small
        letters = [(c, e) for c in range(len(ms.classes)) for e in range(1, ms.orders[c])
                   if ms.letter_cost((c, e)) <= 2]
        self.letters = letters
        self._letter_perms = [ms.powers[c][e] for c, e in letters]

    @classmethod
    def of(cls, ms: MoveSet, pieces: Pieces, position_orbit: np.ndarray,
           tools: Sequence[Tool]) -> "OrbitCycles":
        """The orbits of ``pieces``, each with the cheapest of ``tools`` that are
        3-cycles of three of its pieces and move nothing else."""
        orbits: dict[int, np.ndarray] = {}
        turning: set[int] = set()
        for k, orbit in enumerate(pieces.orbits):
            if len(orbit) < 3 or len(orbit) > MAX_PIECES:
                continue
            columns = [sorted(pieces.blocks[b], key=lambda p: (position_orbit[p], p)) for b in orbit]
            kinds = {tuple(int(position_orbit[p]) for p in c) for c in columns}
            if len(kinds) != 1:
                continue
            if len(set(next(iter(kinds)))) != len(columns[0]):
                turning.add(k)   # two of a piece's stickers share an orbit: it may turn
            orbits[k] = np.array(columns, dtype=np.int64)
        slot_of = np.full(len(pieces.blocks), -1, dtype=np.int64)
        orbit_of = np.full(len(pieces.blocks), -1, dtype=np.int64)
        for k, orbit in enumerate(pieces.orbits):
            slot_of[orbit] = np.arange(len(orbit))
            orbit_of[orbit] = k
        base: dict[int, list] = {k: [] for k in orbits}
        for tool in tools:
            blocks = np.unique(pieces.block_of[tool.pos])
            if len(blocks) != 3 or len(set(orbit_of[blocks].tolist())) != 1:
                continue
            k = int(orbit_of[blocks[0]])
            if k not in orbits or len(tool.pos) != 3 * orbits[k].shape[1]:
                continue
            source = dict(zip(tool.pos.tolist(), tool.src.tolist()))
            slots = orbits[k]
            # the piece at y goes to x's place, z's to y's, x's to z's
            x = int(slot_of[blocks[0]])
            y = int(slot_of[pieces.block_of[source[int(slots[x, 0])]]])
            z = int(slot_of[pieces.block_of[source[int(slots[y, 0])]]])
            if len({x, y, z}) != 3 or slot_of[pieces.block_of[source[int(slots[z, 0])]]] != x:
                continue
            # a piece that never turns must keep its colours column by column
            if k not in turning and not all(source[int(p)] == int(q) for a, b in ((x, y), (y, z), (z, x))
                                            for p, q in zip(slots[a], slots[b])):
                continue
            base[k].append((list(tool.word), (x, y, z)))
        for k in base:
            if base[k]:
                least = min(ms.cost(w) for w, _ in base[k])
                base[k] = [b for b in base[k] if ms.cost(b[0]) == least]
        keep = [k for k in orbits if base[k]]
        groups = {k: _groups(position_orbit[orbits[k][0]]) for k in keep}
        return cls(ms, {k: orbits[k] for k in keep}, {k: base[k] for k in keep}, pieces.block_of,
                   slot_of, groups, {k for k in keep if k in turning})

    @property
    def orbits(self) -> list[int]:
        """The piece orbits that are solved here."""
        return sorted(self._slots)

    def slots(self, k: int) -> np.ndarray:
        """Orbit ``k``'s piece slots: row ``i`` holds the positions of slot ``i``."""
        return self._slots[k]

    def most(self, turning: bool = True) -> float:
        """The most positions per move that one of these 3-cycles can fix (three
        pieces, for the cheapest base 3-cycle): a bound on :meth:`best`'s score."""
        return max((3 * self._slots[k].shape[1] / max(self.ms.cost(self._base[k][0][0]), 1)
                    for k in self._slots if turning or k not in self.turning), default=0.0)

    def orbit(self, k: int) -> Orbit:
        """Orbit ``k`` with every triple's setup (a breadth-first search)."""
        if k not in self._built:
            self._built[k] = self._search(k)
        return self._built[k]

    def _search(self, k: int) -> Orbit:
        slots = self._slots[k]
        n = len(slots)
        slot_of = self._slot_of   # each piece's place in its orbit
        maps, names = [], []
        for i, perm in enumerate(self._letter_perms):
            image = slot_of[self._block_of[perm[slots[:, 0]]]]
            if (image != np.arange(n)).any():
                maps.append(image)
                names.append(i)
        # orbits whose letters move their slots alike, from the same base
        # triples, have the same search (a big cube's centre orbits of one
        # kind): it is made once
        letters = np.array(names, dtype=np.int32)
        key = np.array(maps).tobytes() + np.array([t for _, t in self._base[k]]).tobytes()
        if key in self._searches:
            depth, move, parent, root, least = self._searches[key]
            letter = np.where(move >= 0, letters[np.maximum(move, 0)], -1).astype(np.int32)
            return Orbit(slots, self._base[k], depth, letter, parent, root, least)
        size = n ** 3
        depth = np.full(size, -1, dtype=np.int16)
        move = np.full(size, -1, dtype=np.int32)
        parent = np.full(size, -1, dtype=np.int32)
        root = np.full(size, -1, dtype=np.int16)
        frontier = []
        for r, (_, (x, y, z)) in enumerate(self._base[k]):
            code = (x * n + y) * n + z
            if depth[code] < 0:
                depth[code], root[code] = 0, r
                frontier.append(code)
        frontier = np.array(frontier, dtype=np.int64)
        digits: list = [None, None]  # the frontier last split, and its (x, y, z)

        def step(codes: np.ndarray, j: int) -> np.ndarray:
            if digits[0] is not codes:
                x, rest = np.divmod(codes, n * n)
                digits[:] = [codes, (x, *np.divmod(rest, n))]
            x, y, z = digits[1]
            image = maps[j]
            return (image[x] * n + image[y]) * n + image[z]

        # a level's children are grown a batch at a time: all at once, an
        # orbit of a hundred pieces and sixty letters held 700 MB of them
        for level in levels(frontier, by_moves(step, len(maps)), seen=DenseKeys(size, frontier),
                            batch=max(1, CHILDREN // max(len(maps), 1))):
            child, src = level.states, frontier[level.parent]
            depth[child] = level.depth
            move[child] = level.move
            parent[child] = src
            root[child] = root[src]
            frontier = child
        unseen = np.iinfo(np.int16).max
        least = np.empty(size, dtype=np.int16)
        for low in range(0, size, CHILDREN):
            # (x, y, z), then its rotations (y, z, x) and (z, x, y)
            code = np.arange(low, min(low + CHILDREN, size), dtype=np.int64)
            turned = (code % (n * n)) * n + code // (n * n)
            twice = (turned % (n * n)) * n + turned // (n * n)
            d = np.stack([depth[code], depth[turned], depth[twice]])
            d = np.where(d >= 0, d, unseen).min(0)
            least[low:low + len(code)] = np.where(d == unseen, -1, d)
        self._searches[key] = (depth, move, parent, root, least)
        letter = np.where(move >= 0, letters[np.maximum(move, 0)], -1).astype(np.int32)
        return Orbit(slots, self._base[k], depth, letter, parent, root, least)

    def cycle_word(self, k: int, x: int, y: int, z: int) -> list[Letter] | None:
        """The word that moves orbit ``k``'s piece at slot ``y`` to ``x``, ``z``
        to ``y`` and ``x`` to ``z`` (nothing else), or ``None``."""
        orbit = self.orbit(k)
        n = len(orbit.slots)
        for a, b, c in ((x, y, z), (y, z, x), (z, x, y)):
            code = (a * n + b) * n + c
            if orbit.depth[code] >= 0:
                break
        else:
            return None
        setup = []
        while orbit.depth[code] > 0:
            setup.append(self.letters[orbit.letter[code]])
            code = int(orbit.parent[code])
        base = orbit.base[int(orbit.root[code])][0]
        return self.ms.reduce([*setup, *base, *self.ms.inverse(setup)])

    def plan(self, k: int, state: np.ndarray, goal: np.ndarray) -> tuple[float, tuple] | None:
        """The best 3-cycle for orbit ``k`` (positions fixed per move, and the triple)."""
        orbit = self.orbit(k)
        slots = orbit.slots
        now = _keys(state[slots], goal[slots], self._groups[k])
        want = now[1]
        now = now[0]
        n = len(slots)
        wrong = now != want
        if wrong.sum() < 2:
            return None
        if n > SMALL_ORBIT and wrong.sum() >= 3:
            # a big orbit: the triples of wrong slots first (a scan of n³ triples
            # for each 3-cycle made finishing an orbit cost n⁴), all slots when
            # none of those gains
            found = self._best_triple(orbit, now, want, np.flatnonzero(wrong))
            if found is not None:
                return found
        return self._best_triple(orbit, now, want, np.arange(n))

    def _best_triple(self, orbit: Orbit, now: np.ndarray, want: np.ndarray, cand: np.ndarray
                     ) -> tuple[float, tuple] | None:
        """The best 3-cycle of three slots among ``cand``, or ``None``."""
        n = len(now)
        sub_now, sub_want = now[cand], want[cand]
        m = len(cand)
        # content y -> x, z -> y, x -> z
        fix_x = (sub_now[None, :] == sub_want[:, None]).astype(np.int16)   # [x, y]: y's piece suits x
        right = (sub_now == sub_want).astype(np.int16)
        idx = np.arange(m)
        best_score, best = 0.0, None
        # a block of x at a time: the m³ scores at once held 270 MB for 198 slots
        rows = max(1, CHILDREN // (m * m))
        for low in range(0, m, rows):
            xs = np.arange(low, min(low + rows, m))
            # gain[x, y, z] = fix(x<-y) + fix(y<-z) + fix(z<-x) - right[x] - right[y] - right[z]
            gain = (fix_x[xs, :, None] + fix_x[None, :, :] + fix_x.T[xs, None, :]
                    - right[xs, None, None] - right[None, :, None] - right[None, None, :])
            local = np.arange(len(xs))
            gain[local, xs, :] = -9
            gain[local, :, xs] = -9
            gain[:, idx, idx] = -9
            codes = ((cand[xs, None, None] * n + cand[None, :, None]) * n
                     + cand[None, None, :]).reshape(-1)
            least = orbit.least[codes]
            flat = gain.reshape(-1)
            cost = self.ms.cost(orbit.base[0][0]) + 2 * least.astype(np.float64)
            # scored in positions fixed per move, as the greedy's other steps are
            score = np.where((flat > 0) & (least >= 0), flat * orbit.slots.shape[1] / cost, -1.0)
            i = int(np.argmax(score))
            if score[i] > best_score:
                best_score, best = float(score[i]), low * m * m + i
        if best is None:
            return None
        x, rest = divmod(best, m * m)
        y, z = divmod(rest, m)
        return best_score, (int(cand[x]), int(cand[y]), int(cand[z]))

    def best(self, state: np.ndarray, goal: np.ndarray, wrong: np.ndarray, *,
             turning: bool = True) -> tuple[float, list[Letter]] | None:
        """The 3-cycle fixing the most pieces per move in any orbit holding a
        position of ``wrong`` (a boolean mask), as (score, word), or ``None``;
        ``turning=False`` leaves out orbits whose pieces may turn in place."""
        found = None
        for k in self.orbits:
            if not turning and k in self.turning:
                continue
            slots = self._slots[k]
            if not wrong[slots].any():
                continue
            # the best 3-cycle depends on the goal too (another row, a backward run)
            key = state[slots].tobytes() + goal[slots].tobytes()
            cached = self._plans.get(k)
            if cached is None or cached[0] != key:
                cached = (key, self.plan(k, state, goal))
                self._plans[k] = cached
            if cached[1] is not None and (found is None or cached[1][0] > found[0]):
                found = (cached[1][0], k, cached[1][1])
        if found is None:
            return None
        return found[0], self.cycle_word(found[1], *found[2])

    def solve(self, state: np.ndarray, goal: np.ndarray) -> list[Letter]:
        """3-cycles bringing the pieces of these orbits home, while one gains."""
        word: list[Letter] = []
        while True:
            found = self.best(state, goal, state != goal)
            if found is None:
                return word
            state = self.ms.apply(state, found[1])
            word = self.ms.extend(word, found[1])


def _groups(orbit_ids: np.ndarray) -> list[slice]:
    """The runs of equal ids in a slot's columns (sorted by their orbit of positions)."""
    cuts = [0, *(np.flatnonzero(np.diff(orbit_ids)) + 1).tolist(), len(orbit_ids)]
    return [slice(a, b) for a, b in zip(cuts, cuts[1:])]


def _keys(now: np.ndarray, want: np.ndarray, groups: list[slice]) -> tuple[np.ndarray, np.ndarray]:
    """What each slot's piece is, as small integers alike in both: its colours,
    sorted within each orbit of positions it spans (so a piece that turns is the
    same piece whichever way it is turned)."""
    both = np.concatenate([now, want])
    both = np.concatenate([np.sort(both[:, g], axis=1) for g in groups], axis=1)
    _, inverse = np.unique(both, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    return inverse[:len(now)], inverse[len(now):]


def orbit_cycles(ms: MoveSet, pieces: Pieces, position_orbit: np.ndarray,
                 budget: Budget | None = None) -> tuple[OrbitCycles, list[Tool]]:
    """The 3-cycles of every orbit of pieces (:class:`OrbitCycles`), from
    commutators whose parts meet in one piece, with a setup of one letter, or of
    two where one is not enough (a Megaminx's edges); and the tools of two-letter
    setups found, which the greedy's table lacks."""
    tools = base_commutators(ms, pieces, max_meet=1, budget=budget)
    cycles = OrbitCycles.of(ms, pieces, position_orbit, tools)
    lacking = [k for k, orbit in enumerate(pieces.orbits)
               if 3 <= len(orbit) <= MAX_PIECES and k not in cycles.orbits]
    if not lacking:
        return cycles, []
    longer = base_commutators(ms, pieces, max_meet=1, setup_length=2,
                              budget=(budget or Budget()).share(1.0, at_most=LONG_SETUP_TIME))
    wanted = np.zeros(len(pieces.blocks) + 1, dtype=bool)
    for k in lacking:
        wanted[pieces.orbits[k]] = True
    more = [t for t in longer if wanted[pieces.block_of[t.pos]].all()]
    return OrbitCycles.of(ms, pieces, position_orbit, tools + more), more
