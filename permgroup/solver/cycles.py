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

import hashlib
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
#: on puzzles of at most this many positions, up to this many commutators of an
#: orbit are found as roots of its search (else as many as the greedy's table takes)
ROOTS_DEGREE = 400
ROOTS_PER_ORBIT = 2000
#: the best 3-cycles kept per orbit and position, re-scored by their cost in context
TOP = 32
#: first 3-cycles of a detour tried (the cheapest), see :meth:`OrbitCycles.detour`
DETOURS = 32
#: letters at the end of the word so far that a 3-cycle is reduced against
CONTEXT_LETTERS = 16
#: turning orbits of at most this many stickers have 3-cycles of stickers (a search
#: over their cube: 22 MB for 120)
MAX_ORIENTED = 120


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
    #: the triples are of stickers, not of slots (:attr:`OrbitCycles.oriented`)
    oriented: bool = False

    @property
    def points(self) -> int:
        """How many points (slots, or stickers when oriented) the triples are of."""
        return self.slots.size if self.oriented else len(self.slots)


class OrbitCycles:
    """The 3-cycle setups of each orbit of pieces, built when an orbit is first
    asked for."""

    def __init__(self, ms: MoveSet, orbits: dict[int, np.ndarray],
                 base: dict[int, list[tuple[list[Letter], tuple[int, int, int]]]],
                 block_of: np.ndarray, slot_of: np.ndarray,
                 groups: dict[int, list[slice]], turning: set[int], oriented: set[int] = frozenset()):
        self.ms = ms
        self._slots = orbits
        self._base = base
        self._block_of = block_of
        self._slot_of = slot_of
        self._groups = groups
        #: the orbits whose pieces may turn in place (placed here, turned by the greedy's tools)
        self.turning = turning
        #: the turning orbits whose 3-cycles are of stickers: each sets where a
        #: piece goes and how it is turned there (a triple of stickers, see :func:`frames`)
        self.oriented = set(oriented)
        self._built: dict[int, Orbit] = {}
        # the searches made, by the orbit's letter maps and base triples
        self._searches: dict[bytes, tuple] = {}
        # each orbit's best 3-cycle, kept while the orbit's stickers stay as they were
        self._plans: dict[int, tuple] = {}
        # setups of letters costing one or two moves: a ring's longer turns are
        # made of these at the same cost, and its searches stay small
        letters = setup_letters(ms)
        self.letters = letters
        self._letter_perms = [ms.powers[c][e] for c, e in letters]

    @classmethod
    def of(cls, ms: MoveSet, pieces: Pieces, position_orbit: np.ndarray,
           tools: Sequence[Tool]) -> "OrbitCycles":
        """The orbits of ``pieces``, each with the cheapest of ``tools`` that are
        3-cycles of three of its pieces and move nothing else."""
        orbits: dict[int, np.ndarray] = {}
        turning: set[int] = set()
        oriented: set[int] = set()
        perms = [ms.powers[c][e] for c, e in setup_letters(ms)]
        for k, orbit in enumerate(pieces.orbits):
            if len(orbit) < 3 or len(orbit) > MAX_PIECES:
                continue
            columns = [sorted(pieces.blocks[b], key=lambda p: (position_orbit[p], p)) for b in orbit]
            kinds = {tuple(int(position_orbit[p]) for p in c) for c in columns}
            if len(kinds) != 1:
                continue
            orbits[k] = np.array(columns, dtype=np.int64)
            kind = next(iter(kinds))
            if len(set(kind)) != len(columns[0]):
                turning.add(k)   # two of a piece's stickers share an orbit: it may turn
                if len(set(kind)) == 1 and orbits[k].size <= MAX_ORIENTED:
                    framed = frames(perms, orbits[k])
                    if framed is not None:
                        orbits[k] = framed
                        oriented.add(k)
        slot_of = np.full(len(pieces.blocks), -1, dtype=np.int64)
        orbit_of = np.full(len(pieces.blocks), -1, dtype=np.int64)
        for k, orbit in enumerate(pieces.orbits):
            slot_of[orbit] = np.arange(len(orbit))
            orbit_of[orbit] = k
        index_of = np.full(ms.degree, -1, dtype=np.int64)
        for k in oriented:
            index_of[orbits[k].reshape(-1)] = np.arange(orbits[k].size)
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
            if k in oriented:
                triple = _sticker_triple(slots, index_of, source, int(slot_of[blocks[0]]))
                if triple is not None:
                    base[k].append((list(tool.word), triple))
                continue
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
                   slot_of, groups, {k for k in keep if k in turning},
                   {k for k in keep if k in oriented})

    @property
    def orbits(self) -> list[int]:
        """The piece orbits that are solved here."""
        return sorted(self._slots)

    def slots(self, k: int) -> np.ndarray:
        """Orbit ``k``'s piece slots: row ``i`` holds the positions of slot ``i``."""
        return self._slots[k]

    def base_word(self, k: int) -> list[Letter]:
        """The cheapest base 3-cycle of orbit ``k`` (every 3-cycle is a conjugate of one
        of its cost)."""
        return self._base[k][0][0]

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
        oriented = k in self.oriented
        maps, names = [], []
        if oriented:
            # the points are the orbit's stickers, slot by slot in frame order
            n = slots.size
            index_of = np.full(self.ms.degree, -1, dtype=np.int64)
            index_of[slots.reshape(-1)] = np.arange(n)
        else:
            n = len(slots)
        slot_of = self._slot_of   # each piece's place in its orbit
        for i, perm in enumerate(self._letter_perms):
            if oriented:
                image = index_of[perm[slots.reshape(-1)]]
            else:
                image = slot_of[self._block_of[perm[slots[:, 0]]]]
            if (image != np.arange(n)).any():
                maps.append(image)
                names.append(i)
        # orbits whose letters move their slots alike, from the same base
        # triples, have the same search (a big cube's centre orbits of one
        # kind): it is made once
        letters = np.array(names, dtype=np.int32)
        key = (bytes([oriented]) + np.array(maps).tobytes()
               + np.array([t for _, t in self._base[k]]).tobytes())
        if key in self._searches:
            depth, move, parent, root, least = self._searches[key]
            letter = np.where(move >= 0, letters[np.maximum(move, 0)], -1).astype(np.int32)
            return Orbit(slots, self._base[k], depth, letter, parent, root, least, oriented)
        size = n ** 3
        depth = np.full(size, -1, dtype=np.int16)
        move = np.full(size, -1, dtype=np.int32)
        parent = np.full(size, -1, dtype=np.int32)
        root = np.full(size, -1, dtype=np.int16)
        # a triple and its rotations are one 3-cycle, and a letter carries the
        # rotations of a triple to those of its image: the search goes over
        # one way of writing each (its least point first), a third of the
        # triples, and gives the other two the same depth, letter and root,
        # their parents the rotations of its parent that the letter carries there
        frontier = []
        width = slots.shape[1]
        for r, (_, triple) in enumerate(self._base[k]):
            # an oriented 3-cycle is the same from any of its pieces' stickers
            # and any of its three: every way of writing it is a root
            turns = ([tuple(i // width * width + (i + t) % width for i in triple)
                      for t in range(width)] if oriented else [triple])
            for x, y, z in turns:
                codes = ((x * n + y) * n + z, (y * n + z) * n + x, (z * n + x) * n + y)
                if depth[codes[0]] < 0:
                    depth[list(codes)], root[list(codes)] = 0, r
                    frontier.append(min(codes))   # its least point first
        frontier = np.array(frontier, dtype=np.int64)
        digits: list = [None, None]  # the frontier last split, and its (x, y, z)

        def stepper(images: list[np.ndarray]):
            def step(codes: np.ndarray, j: int) -> np.ndarray:
                if digits[0] is not codes:
                    digits[:] = [codes, _digits(codes, n)]
                x, y, z = digits[1]
                image = images[j]
                return _least_first(image[x], image[y], image[z], n)[0]
            return by_moves(step, len(images))

        # only triples of three points, written least first, are searched
        points = np.arange(n)
        seen = DenseKeys(size, frontier)
        seen.seen |= ~((points[:, None, None] < points[None, :, None])
                       & (points[:, None, None] < points[None, None, :])).reshape(-1)
        # a level's children are grown a batch at a time: all at once, an
        # orbit of a hundred pieces and sixty letters held 700 MB of them; the
        # last levels, larger than the triples left, from those (levels' back)
        back = stepper([np.argsort(image) for image in maps])
        stacked = np.array(maps, dtype=np.int64).reshape(-1)   # letter j's at j n + point
        for level in levels(frontier, stepper(maps), seen=seen,
                            batch=max(1, CHILDREN // max(len(maps), 1)), back=back):
            child, src = level.states, frontier[level.parent]
            # the rotation of the parent's image that is the child's way of writing
            at = level.move.astype(np.int64) * n
            x, y, z = _digits(src, n)
            shift = _least_first(stacked[at + x], stacked[at + y], stacked[at + z], n)[1]
            children, parents = _rotations(child, n), _rotations(src, n)
            column = np.arange(len(src))
            for t in range(3):
                depth[children[t]] = level.depth
                move[children[t]] = level.move
                parent[children[t]] = parents[(t + shift) % 3, column]
                root[children[t]] = root[src]
            frontier = child
        # (x, y, z), then its rotations (y, z, x) and (z, x, y): the depths
        # as an n x n x n array, turned by transposing it
        unseen = np.iinfo(np.int16).max
        cube = np.where(depth >= 0, depth, unseen).reshape(n, n, n)
        least = np.minimum(np.minimum(cube, cube.transpose(2, 0, 1)), cube.transpose(1, 2, 0))
        least = least.reshape(-1)
        least[least == unseen] = -1
        self._searches[key] = (depth, move, parent, root, least)
        letter = np.where(move >= 0, letters[np.maximum(move, 0)], -1).astype(np.int32)
        return Orbit(slots, self._base[k], depth, letter, parent, root, least, oriented)

    def cycle_word(self, k: int, x: int, y: int, z: int) -> list[Letter] | None:
        """The word that moves orbit ``k``'s piece at slot ``y`` to ``x``, ``z``
        to ``y`` and ``x`` to ``z`` (nothing else), or ``None`` (in an
        :attr:`oriented` orbit, ``x``, ``y``, ``z`` are stickers: the one at
        ``y`` goes to ``x`` and its piece with it)."""
        words = self.writings(k, x, y, z, every=False)
        return words[0] if words else None

    def writings(self, k: int, x: int, y: int, z: int, every: bool = True) -> list[list[Letter]]:
        """The words of :meth:`cycle_word`'s 3-cycle, one for each way of
        writing it (its three rotations and, when :attr:`oriented`, from each
        sticker of its pieces): the same effect by different setups, which
        cancel differently against a word before them (only the first, without
        ``every``)."""
        orbit = self.orbit(k)
        n = orbit.points
        width = orbit.slots.shape[1] if orbit.oriented else 1
        out = []
        for t in range(width):
            shifted = [i // width * width + (i + t) % width for i in (x, y, z)]
            a, b, c = shifted
            for p, q, r in ((a, b, c), (b, c, a), (c, a, b)):
                code = (p * n + q) * n + r
                if orbit.depth[code] >= 0:
                    out.append(self._spelled(orbit, code))
                    if not every:
                        return out
        return out

    def _spelled(self, orbit: Orbit, code: int) -> list[Letter]:
        """The word of the 3-cycle at ``code``: its setup, base, setup undone."""
        setup = []
        while orbit.depth[code] > 0:
            setup.append(self.letters[orbit.letter[code]])
            code = int(orbit.parent[code])
        base = orbit.base[int(orbit.root[code])][0]
        return self.ms.reduce([*setup, *base, *self.ms.inverse(setup)])

    def plan(self, k: int, state: np.ndarray, goal: np.ndarray, *, detour: bool = False
             ) -> list[tuple[float, tuple, float]] | None:
        """The best 3-cycles for orbit ``k`` (positions fixed per move, the
        triple and the positions fixed; up to :data:`TOP`, best first), or ``None``.
        With ``detour``, the cheapest that fix nothing but put a wrong piece
        home in place of a right one (scored one over their cost; not in an
        :attr:`oriented` orbit): see :meth:`solve`."""
        orbit = self.orbit(k)
        if detour and orbit.oriented:
            return None
        slots = orbit.slots
        if orbit.oriented:
            # point i is sticker i % c of slot i // c; its piece read from there on
            width = slots.shape[1]
            turn = (np.arange(width)[None, :] + np.arange(width)[:, None]) % width
            now = state[slots][:, turn].reshape(-1, width)
            want = goal[slots][:, turn].reshape(-1, width)
            right = (now == want).sum(1).astype(np.int16)
            fix = (now[None, :, :] == want[:, None, :]).sum(2).astype(np.int16)
            wrong_slots = (state[slots] != goal[slots]).any(1)
            wrong = np.repeat(wrong_slots, width)
            slot_id = np.arange(len(fix)) // width
            per = 1
        else:
            now, want = _keys(state[slots], goal[slots], self._groups[k])
            wrong = wrong_slots = now != want
            fix = (now[None, :] == want[:, None]).astype(np.int16)
            right = (~wrong).astype(np.int16)
            slot_id = np.arange(len(now))
            per = slots.shape[1]
        if wrong_slots.sum() < 2:
            return None
        if len(slots) > SMALL_ORBIT and wrong_slots.sum() >= 3 and not detour:
            # a big orbit: the triples of wrong slots first (a scan of n³ triples
            # for each 3-cycle made finishing an orbit cost n⁴), all slots when
            # none of those gains
            found = self._best_triple(orbit, fix, right, slot_id, per, np.flatnonzero(wrong))
            if found is not None:
                return found
        return self._best_triple(orbit, fix, right, slot_id, per, np.arange(len(fix)),
                                 detour=detour)

    def _best_triple(self, orbit: Orbit, fix: np.ndarray, right: np.ndarray,
                     slot_id: np.ndarray, per: int, cand: np.ndarray, detour: bool = False
                     ) -> list[tuple[float, tuple, float]] | None:
        """The best 3-cycles of three points among ``cand`` (up to :data:`TOP`,
        best first, as (score, triple, positions fixed)), or ``None``:
        ``fix[x, y]`` is what point ``y``'s content fixes at ``x``, ``right[x]``
        what is right at ``x`` now, ``slot_id`` the point's piece slot, ``per``
        the positions fixed per unit of those (``detour``: see :meth:`plan`)."""
        n = len(fix)
        # content y -> x, z -> y, x -> z
        fix_x = fix[np.ix_(cand, cand)]   # [x, y]: y's piece suits x
        right = right[cand]
        sl = slot_id[cand]
        start = np.r_[True, slot_id[1:] != slot_id[:-1]][cand]   # a slot's first point
        m = len(cand)
        kept_score, kept_code = [np.zeros(0)], [np.zeros(0, dtype=np.int64)]
        kept_gain = [np.zeros(0)]
        # a block of x at a time: the m³ scores at once held 270 MB for 198 slots
        rows = max(1, CHILDREN // (m * m))
        for low in range(0, m, rows):
            xs = np.arange(low, min(low + rows, m))
            # gain[x, y, z] = fix(x<-y) + fix(y<-z) + fix(z<-x) - right[x] - right[y] - right[z]
            gain = (fix_x[xs, :, None] + fix_x[None, :, :] + fix_x.T[xs, None, :]
                    - right[xs, None, None] - right[None, :, None] - right[None, None, :])
            # one way of writing each 3-cycle: its least slot first, from that
            # slot's first sticker (the others are the same cycle)
            first = sl[xs, None, None]
            written = ((first < sl[None, :, None]) & (first < sl[None, None, :])
                       & (sl[None, :, None] != sl[None, None, :]) & (start[xs, None, None]))
            gain[~written] = -9
            codes = ((cand[xs, None, None] * n + cand[None, :, None]) * n
                     + cand[None, None, :]).reshape(-1)
            least = orbit.least[codes]
            flat = gain.reshape(-1)
            cost = self.ms.cost(orbit.base[0][0]) + 2 * least.astype(np.float64)
            # scored in positions fixed per move, as the greedy's other steps are
            score = np.where((flat > 0) & (least >= 0), flat * per / cost, -1.0)
            if detour:
                # nothing fixed in all, but a wrong point put right (so a right one
                # made wrong, whose like elsewhere a second 3-cycle may bring)
                wrong_at = 1 - right
                mended = (fix_x[xs, :, None] * wrong_at[xs, None, None]
                          + fix_x[None, :, :] * wrong_at[None, :, None]
                          + fix_x.T[xs, None, :] * wrong_at[None, None, :]).reshape(-1)
                score = np.where((flat == 0) & (least >= 0) & (mended > 0), 1 / cost, -1.0)
            top = np.flatnonzero(score > 0)
            if len(top) > TOP:
                top = top[np.argpartition(-score[top], TOP - 1)[:TOP]]
            kept_score.append(score[top])
            kept_code.append(low * m * m + top)
            kept_gain.append(flat[top] * per)
        score, code = np.concatenate(kept_score), np.concatenate(kept_code)
        gained = np.concatenate(kept_gain)
        if not len(score):
            return None
        order = np.argsort(-score, kind="stable")[:TOP]
        out = []
        for s, c, g in zip(score[order].tolist(), code[order].tolist(), gained[order].tolist()):
            x, rest = divmod(c, m * m)
            y, z = divmod(rest, m)
            out.append((s, (int(cand[x]), int(cand[y]), int(cand[z])), g))
        return out

    def best(self, state: np.ndarray, goal: np.ndarray, wrong: np.ndarray, *,
             turning: bool = True, oriented: bool = False,
             before: Sequence[Letter] | None = None) -> tuple[float, list[Letter]] | None:
        """The 3-cycle fixing the most pieces per move in any orbit holding a
        position of ``wrong`` (a boolean mask), as (score, word), or ``None``;
        ``turning=False`` leaves out orbits whose pieces may turn in place
        (but for the :attr:`oriented` ones, with ``oriented``).  With the word
        so far, ``before``, the best few are scored by what they cost once
        they cancel against its end."""
        found = None
        options: list[tuple[float, int, tuple, float]] = []
        for k in self.orbits:
            if not turning and k in self.turning and not (oriented and k in self.oriented):
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
            if cached[1] is not None:
                options += [(score, k, triple, gain) for score, triple, gain in cached[1]]
        if not options:
            return None
        options.sort(key=lambda o: -o[0])
        if before is None:
            return options[0][0], self.cycle_word(options[0][1], *options[0][2])
        tail = list(before[-CONTEXT_LETTERS:])
        here = self.ms.cost(tail)
        for _, k, triple, gain in options[:TOP]:
            for word in self.writings(k, *triple):
                # positions fixed per move as appended now
                cost = self.ms.cost(self.ms.join(tail, word)) - here
                now = gain / max(cost, 1)
                if found is None or now > found[0]:
                    found = (now, word)
        return found

    def solve(self, state: np.ndarray, goal: np.ndarray,
              before: Sequence[Letter] = ()) -> list[Letter]:
        """3-cycles bringing the pieces of these orbits home, while one gains
        (each chosen for what it costs after the word so far, ``before``);
        when none does, two whose first fixes nothing (:meth:`detour`).

        Two wrong pieces swapped in an orbit whose other pieces include two
        alike: no 3-cycle fixes a position, two do (the swap and a swap of
        the two alike, which shows nothing):

        >>> t = np.array([1, 0, 2, 3, 4]); u = np.array([1, 2, 3, 4, 0])
        >>> ms = MoveSet.from_moves({"t": t, "u": u, "-u": np.argsort(u)})
        >>> from permgroup.solver.commutators import Tool, effect
        >>> word = ms.letters(["t", "u", "t", "-u"])
        >>> base = [Tool(tuple(word), 4, *effect(ms.perm(word)))]
        >>> cycles = OrbitCycles.of(ms, Pieces.of(ms), np.zeros(5, dtype=np.int64), base)
        >>> goal = np.array([0, 1, 2, 3, 3]); start = np.array([1, 0, 2, 3, 3])
        >>> cycles.best(start, goal, start != goal) is None
        True
        >>> ms.apply(start, cycles.solve(start, goal)).tolist()
        [0, 1, 2, 3, 3]
        """
        word: list[Letter] = []
        while True:
            found = self.best(state, goal, state != goal, before=[*before[-CONTEXT_LETTERS:], *word])
            more = found[1] if found is not None else self.detour(state, goal)
            if more is None:
                return word
            state = self.ms.apply(state, more)
            word = self.ms.extend(word, more)

    def detour(self, state: np.ndarray, goal: np.ndarray) -> list[Letter] | None:
        """Two 3-cycles fixing positions where no one does, the first fixing
        nothing: it puts a wrong piece home in place of a right one, whose
        like the second brings back (pieces of an orbit alike in colours make
        an odd swap of two others even); the pair fixing the most positions per
        move among the :data:`DETOURS` cheapest first ones, or ``None``."""
        ms = self.ms
        before = int(np.count_nonzero(state != goal))
        best: tuple[float, list[Letter]] | None = None
        for k in self.orbits:
            if not (state[self._slots[k]] != goal[self._slots[k]]).any():
                continue
            for _, triple, _ in (self.plan(k, state, goal, detour=True) or [])[:DETOURS]:
                first = self.cycle_word(k, *triple)
                if first is None:
                    continue
                middle = ms.apply(state, first)
                second = self.best(middle, goal, middle != goal)
                if second is None:
                    continue
                pair = ms.extend(list(first), second[1])
                gain = before - int(np.count_nonzero(ms.apply(state, pair) != goal))
                if gain > 0 and (best is None or gain / ms.cost(pair) > best[0]):
                    best = (gain / ms.cost(pair), pair)
        return None if best is None else best[1]


def setup_letters(ms: MoveSet) -> list[Letter]:
    """The letters costing one or two moves: the setups of the 3-cycles (a
    ring's longer turns are made of these at the same cost, and its searches
    stay small)."""
    return [(c, e) for c in range(len(ms.classes)) for e in range(1, ms.orders[c])
            if ms.letter_cost((c, e)) <= 2]


def frames(perms: Sequence[np.ndarray], slots: np.ndarray) -> np.ndarray | None:
    """``slots`` with each row's stickers put in the order the moves carry them
    in: a move takes row ``x``'s stickers, in order, to a turn of row ``y``'s
    order (sticker ``j`` of a piece is then sticker ``j + t`` of its place, for
    one ``t`` per piece); ``None`` when no such order exists (a move mirrors a
    piece).

    >>> u = np.array([2, 3, 0, 1])   # two pieces of two stickers, swapped
    >>> frames([u], np.array([[0, 1], [3, 2]])).tolist()
    [[0, 1], [2, 3]]
    """
    n, width = slots.shape
    slot_at = np.full(int(slots.max()) + 1, -1, dtype=np.int64)
    slot_at[slots] = np.arange(n)[:, None]
    order = np.full_like(slots, -1)
    order[0] = slots[0]
    queue = [0]
    while queue:
        x = queue.pop()
        for perm in perms:
            # the stickers that the move brings to x's, in x's order
            src = perm[order[x]]
            if src.max() >= len(slot_at) or (slot_at[src] != slot_at[src[0]]).any():
                return None
            y = int(slot_at[src[0]])
            if y < 0:
                return None
            if order[y, 0] < 0:
                order[y] = src
                queue.append(y)
            else:
                shift = np.flatnonzero(order[y] == src[0])
                if not len(shift) or not np.array_equal(np.roll(order[y], -int(shift[0])), src):
                    return None
    return None if (order[:, 0] < 0).any() else order


def _sticker_triple(slots: np.ndarray, index_of: np.ndarray, source: dict, x: int
                    ) -> tuple[int, int, int] | None:
    """The stickers ``(a, b, c)`` of a 3-cycle of framed slots (the sticker at
    ``b`` goes to ``a``, ``c``'s to ``b``, ``a``'s to ``c``, their pieces
    with them), from the tool's ``source`` (position -> where its sticker
    comes from), ``x`` a slot it moves; ``None`` when it is not such a cycle."""
    width = slots.shape[1]
    flat = slots.reshape(-1)
    a = x * width
    b = int(index_of[source.get(int(flat[a]), -1)]) if int(flat[a]) in source else -1
    c = int(index_of[source[int(flat[b])]]) if b >= 0 and int(flat[b]) in source else -1
    if c < 0 or int(flat[c]) not in source or int(index_of[source[int(flat[c])]]) != a:
        return None
    if len({a // width, b // width, c // width}) != 3:
        return None
    for p, q in ((a, b), (b, c), (c, a)):
        for t in range(width):
            here = flat[p // width * width + (p + t) % width]
            there = flat[q // width * width + (q + t) % width]
            if source.get(int(here)) != int(there):
                return None
    return a, b, c


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


#: the last puzzle's :func:`orbit_cycles`, by its moves and pieces (the
#: reduction's model and the greedy's both ask for them: on Santa's globe_3/33
#: a second second of a first line, and its orbits' searches made twice)
_FOUND: dict[str, tuple[OrbitCycles, list[Tool]]] = {}


def orbit_cycles(ms: MoveSet, pieces: Pieces, position_orbit: np.ndarray,
                 budget: Budget | None = None) -> tuple[OrbitCycles, list[Tool]]:
    """The 3-cycles of every orbit of pieces (:class:`OrbitCycles`), from
    commutators whose parts meet in one piece, with a setup of one letter, or of
    two where one is not enough (a Megaminx's edges); and the tools of two-letter
    setups found, which the greedy's table lacks.  On a puzzle of at most
    :data:`ROOTS_DEGREE` positions every cheapest commutator found is a root of
    the searches (on a Megaminx, 320 corner 3-cycles of 8 moves rather than 8:
    shorter setups).  Made once per process and puzzle (not when the budget
    cut them short)."""
    key = hashlib.sha256(b"".join([ms.fingerprint().encode(), pieces.block_of.tobytes(),
                                   np.asarray(position_orbit).tobytes()])).hexdigest()
    if key not in _FOUND:
        found = _orbit_cycles(ms, pieces, position_orbit, budget)
        if budget is not None and budget.expired:
            return found
        _FOUND.clear()  # one puzzle at a time: the searches are large
        _FOUND[key] = found
    return _FOUND[key]


def _orbit_cycles(ms: MoveSet, pieces: Pieces, position_orbit: np.ndarray,
                  budget: Budget | None) -> tuple[OrbitCycles, list[Tool]]:
    roots = ROOTS_PER_ORBIT if ms.degree <= ROOTS_DEGREE else None
    tools = base_commutators(ms, pieces, max_meet=1, budget=budget,
                             **({} if roots is None else {"per_orbit": roots}))
    cycles = OrbitCycles.of(ms, pieces, position_orbit, tools)
    lacking = [k for k, orbit in enumerate(pieces.orbits)
               if 3 <= len(orbit) <= MAX_PIECES and k not in cycles.orbits]
    if not lacking:
        return cycles, []
    wanted = np.zeros(len(pieces.blocks) + 1, dtype=bool)
    for k in lacking:
        wanted[pieces.orbits[k]] = True

    def searched(**options) -> list[Tool]:
        found = base_commutators(ms, pieces, max_meet=1, setup_length=2, budget=(
            budget or Budget()).share(1.0, at_most=LONG_SETUP_TIME), **options)
        return [t for t in found if wanted[pieces.block_of[t.pos]].all()]

    # the greedy's table takes the tools of a search of the default size (its
    # cheapest of those found first, not of the many roots)
    table = searched()
    more = table if roots is None else searched(per_orbit=roots)
    return OrbitCycles.of(ms, pieces, position_orbit, tools + more), table


def _digits(codes: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The points ``(x, y, z)`` of triples coded ``(x n + y) n + z``."""
    x, rest = np.divmod(codes, n * n)
    return (x, *np.divmod(rest, n))


def _least_first(x: np.ndarray, y: np.ndarray, z: np.ndarray, n: int
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The code of each triple's rotation that begins with its least point, and
    which rotation that is (0: itself, 1: ``(y, z, x)``, 2: ``(z, x, y)``).

    >>> [a.tolist() for a in _least_first(np.array([2, 0]), np.array([0, 1]), np.array([1, 2]), 3)]
    [[5, 5], [1, 0]]
    """
    # (the least of the three codes: the points are distinct)
    shift = np.where((x < y) & (x < z), 0, np.where(y < z, 1, 2))
    rotated = _rotations_of(x, y, z, n)
    return rotated.min(axis=0), shift


def _rotations(codes: np.ndarray, n: int) -> np.ndarray:
    """The codes of each triple's three rotations, one row for each (see
    :func:`_least_first`).

    >>> _rotations(np.array([5]), 3).tolist()
    [[5], [15], [19]]
    """
    return _rotations_of(*_digits(codes, n), n)


def _rotations_of(x: np.ndarray, y: np.ndarray, z: np.ndarray, n: int) -> np.ndarray:
    return np.stack([(x * n + y) * n + z, (y * n + z) * n + x, (z * n + x) * n + y])
