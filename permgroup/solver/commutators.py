"""Short words that move few pieces: commutators, their conjugates, and the
table of such *tools* a solver draws on.

The commutator ``[A, B] = A B A⁻¹ B⁻¹`` of two words whose supports share a
single piece is a 3-cycle of pieces (possibly turning them); conjugating a tool
``X`` by a word ``S`` gives ``S X S⁻¹``, the same effect carried to other
pieces.  :func:`base_commutators` finds commutators ``[a, x b x⁻¹]`` of single
moves ``a``, ``b`` and a setup move ``x`` (or none) whose supports meet in one
piece, counting the meetings for all triples at once from the pieces each move
touches; :func:`conjugate_closure` spreads them over their piece orbits,
cheapest word per effect first.

An *effect* is stored sparsely: the positions a word moves and, for each, the
position its sticker comes from (gather form: after the word,
``state[pos] = before[src]``).

>>> import numpy as np
>>> from permgroup.moves import MoveSet
>>> from permgroup.solver.pieces import Pieces
>>> a = np.array([1, 2, 0, 3, 4]); b = np.array([0, 1, 3, 4, 2])   # two 3-cycles sharing position 2
>>> ms = MoveSet.from_moves({"a": a, "-a": np.argsort(a), "b": b, "-b": np.argsort(b)})
>>> tools = base_commutators(ms, Pieces.of(ms))
>>> sorted(len(t.pos) for t in tools)[:1]
[3]
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from permgroup.budget import Budget
from permgroup.levels import KeyCounts, SortedKeys
from permgroup.solver.effects import GainCache
from permgroup.moves import Letter, MoveSet
from permgroup.solver.pieces import Pieces


@dataclass(frozen=True)
class Tool:
    """A word and its effect (positions moved, and where each one's sticker comes from)."""

    word: tuple[Letter, ...]
    cost: int
    pos: np.ndarray
    src: np.ndarray

    def key(self) -> bytes:
        return self.pos.tobytes() + b"|" + self.src.tobytes()


def effect(perm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The moved positions of a gather permutation and their sources.

    >>> effect(np.array([0, 2, 1]))
    (array([1, 2], dtype=int32), array([2, 1], dtype=int32))
    """
    pos = np.flatnonzero(perm != np.arange(len(perm))).astype(np.int32)
    return pos, perm[pos].astype(np.int32)


def commutator(ms: MoveSet, a: Sequence[Letter], b: Sequence[Letter]) -> list[Letter]:
    """The reduced word ``a b a⁻¹ b⁻¹``."""
    return ms.join(a, b, ms.inverse(a), ms.inverse(b))


def cheap_letters(ms: MoveSet, max_cost: int = 2) -> list[Letter]:
    """Every power of every class that costs at most ``max_cost`` moves."""
    return [(c, e) for c in range(len(ms.classes)) for e in range(1, ms.orders[c])
            if ms.letter_cost((c, e)) <= max_cost]


def _block_incidence(ms: MoveSet, pieces: Pieces) -> np.ndarray:
    """``[block, k]``: the k-th class moving the block (``-1`` pads)."""
    nblocks = len(pieces.blocks)
    lists: list[list[int]] = [[] for _ in range(nblocks)]
    for c, row in enumerate(pieces.block_moves):
        moved = np.flatnonzero(row != np.arange(nblocks))
        # a class that turns a block in place (a centre piece of one sticker never is) moves it too
        for b in moved:
            lists[b].append(c)
    for c, sup in enumerate(ms.support):
        for b in set(pieces.block_of[sup].tolist()):
            if c not in lists[b]:
                lists[b].append(c)
    width = max((len(x) for x in lists), default=0)
    out = np.full((nblocks, max(width, 1)), -1, dtype=np.int64)
    for b, x in enumerate(lists):
        out[b, :len(x)] = x
    return out


def meeting_blocks(incidence: np.ndarray, image: np.ndarray, k: int, *, both: bool = False
                   ) -> tuple[np.ndarray, ...]:
    """For classes ``a`` and ``y``: in how many blocks ``y``'s support, carried by
    the setup (``image`` maps each block to where the setup takes it), meets
    ``a``'s, and one of those blocks (-1 when none): two ``k × k`` arrays; with
    ``both``, a third: another of the blocks (the same one when they meet in one)."""
    left = incidence[image]
    right = incidence
    pairs = left[:, :, None] * k + right[:, None, :]
    ok = (left[:, :, None] >= 0) & (right[:, None, :] >= 0)
    where = np.broadcast_to(image[:, None, None], pairs.shape)
    keys, blocks = pairs[ok].ravel(), where[ok].ravel()
    count = np.bincount(keys, minlength=k * k)
    block = np.full(k * k, -1, dtype=np.int64)
    block[keys] = blocks
    if not both:
        return count.reshape(k, k), block.reshape(k, k)
    other = np.full(k * k, -1, dtype=np.int64)
    other[keys[::-1]] = blocks[::-1]
    return count.reshape(k, k), block.reshape(k, k), other.reshape(k, k)


def block_position_table(pieces: Pieces) -> np.ndarray:
    """``[block, i]``: the block's positions, padded with -1."""
    width = max(len(b) for b in pieces.blocks)
    out = np.full((len(pieces.blocks), width), -1, dtype=np.int64)
    for i, b in enumerate(pieces.blocks):
        out[i, :len(b)] = b
    return out


def commutator_effects(ms: MoveSet, px: np.ndarray, a_classes: np.ndarray, y_classes: np.ndarray,
                  ea: np.ndarray, ey: np.ndarray, meet_positions: np.ndarray, width: int
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The effects of the commutators ``[a^ea, x y^ey x⁻¹]`` (``px`` the setup
    ``x``'s gather array), one for each row of the arrays of classes and
    exponents, whose two parts meet only in the pieces at ``meet_positions``
    (a row of positions each, padded with -1): the positions moved and their
    sources, padded with the degree, found by evaluating the permutation at
    those positions and their images only; ``ok[i] = -1`` for a commutator
    that moves nothing or more than ``width`` positions."""
    n = ms.degree
    pxi = np.argsort(px).astype(np.int32)
    # each letter's power and inverse power, looked up in place (no row copied per pair)
    base = max(ms.orders) + 1
    a_keys = a_classes * base + ea
    y_keys = y_classes * base + ey
    a_list, y_list = np.unique(a_keys).tolist(), np.unique(y_keys).tolist()

    def powers(keys, sign):
        return np.array([ms.powers[k // base][(sign * (k % base)) % ms.orders[k // base]]
                         for k in keys])

    A, Ai = powers(a_list, 1), powers(a_list, -1)
    T, Ti = powers(y_list, 1), powers(y_list, -1)
    ra = np.searchsorted(a_list, a_keys)[:, None]
    ry = np.searchsorted(y_list, y_keys)[:, None]

    def a(i):
        return A[ra, i]

    def ai(i):
        return Ai[ra, i]

    def b(i):   # x t x⁻¹ at positions i (gather)
        return px[T[ry, pxi[i]]]

    def bi(i):
        return px[Ti[ry, pxi[i]]]

    start = np.where(meet_positions >= 0, meet_positions, meet_positions.max(1, keepdims=True))
    near = [start]
    for step in (a, ai, b, bi):
        near.append(step(start))
    # only the meeting pieces and their images under a, b and their inverses can
    # move: a position outside both supports stays, and one in a's alone moves
    # only when a carries it from a meeting piece (and so for b)
    cand = np.concatenate(near, axis=1)
    # P(i) = A[B[Ai[Bi[i]]]]
    value = a(b(ai(bi(cand))))
    moved = value != cand
    # each row's moved positions, once each, in order (unmoved ones sorted last)
    key = np.where(moved, cand, n)
    order = np.argsort(key, axis=1, kind="stable")
    key = np.take_along_axis(key, order, 1)
    value = np.take_along_axis(value, order, 1)
    repeat = np.zeros_like(key, dtype=bool)
    repeat[:, 1:] = key[:, 1:] == key[:, :-1]
    key = np.where(repeat, n, key)
    order = np.argsort(key, axis=1, kind="stable")
    key = np.take_along_axis(key, order, 1)
    value = np.take_along_axis(value, order, 1)
    count = (key < n).sum(1)
    ok = np.where((count > 0) & (count <= width), 0, -1)
    cut = min(width, key.shape[1])
    pos = np.full((len(a_classes), width), n, dtype=np.int32)
    src = np.full((len(a_classes), width), n, dtype=np.int32)
    pos[:, :cut] = key[:, :cut]
    src[:, :cut] = np.where(key[:, :cut] < n, value[:, :cut], n)
    return ok, pos, src


def base_commutators(ms: MoveSet, pieces: Pieces, *, per_orbit: int = 24, max_support: int = 12,
                     max_cost: int = 2, max_meet: int = 2, budget: Budget | None = None,
                     setup_length: int = 1) -> list[Tool]:
    """Commutators ``[a, x b x⁻¹]`` (``x`` possibly empty) of cheap letters whose
    supports meet in at most ``max_meet`` pieces and whose effect moves at most
    ``max_support`` positions: up to ``per_orbit`` distinct effects for each orbit
    of pieces, cheapest first (fewer once ``budget`` has run out).  The setup ``x`` is one letter, or up to
    ``setup_length`` letters of different classes (an edge 3-cycle of the 3x3x3
    in face turns needs two: ``[R L' F2 L R', U]``)."""
    k = len(ms.classes)
    # meeting_blocks' tables of every pair of classes: counts, blocks, second blocks,
    # keys (the solver's model, the reduction and explore.commutators all start
    # here: the text names none of them)
    (budget or Budget.of()).require(
        32 * k * k, f"the table of where each pair of {k:,} classes of moves meets "
                    f"({k * k:,} pairs), which commutators are built from,",
        "a puzzle of fewer moves (a subgroup)")
    nblocks = len(pieces.blocks)
    incidence = _block_incidence(ms, pieces)
    orbit_of_block = np.empty(nblocks, dtype=np.int64)
    for o, members in enumerate(pieces.orbits):
        orbit_of_block[members] = o
    letters = cheap_letters(ms, max_cost)
    by_class: dict[int, list[Letter]] = {}
    for c, e in letters:
        by_class.setdefault(c, []).append((c, e))
    found: dict[bytes, Tool] = {}
    count = np.zeros(len(pieces.orbits), dtype=np.int64)
    # an orbit of many pieces gets as many tools as it has pieces
    per_orbit = np.maximum(per_orbit, np.array([len(o) for o in pieces.orbits]))
    first = np.array([b[0] for b in pieces.blocks], dtype=np.int64)
    setups: list[tuple[Letter, ...] | None] = [None, *((x,) for x in letters)]
    if setup_length >= 2:
        setups += [(x, z) for x in letters for z in letters
                   if x[0] != z[0] and not (ms.commute[x[0], z[0]] and x[0] > z[0])]
    block_positions = block_position_table(pieces)
    n = ms.degree
    for setup in setups:
        if budget is not None and budget.expired:
            break
        if (count >= per_orbit).all():
            break
        # x: the setup's last letter, next to b (its first meets a)
        x = None if setup is None else setup[-1]
        if setup is None:
            image = np.arange(nblocks)
            px = np.arange(n, dtype=np.int32)
        else:
            px = ms.perm(list(setup))
            image = pieces.block_of[px[first]]
        meet, block, other = meeting_blocks(incidence, image, k, both=True)
        candidate = (meet >= 1) & (meet <= max_meet)
        np.fill_diagonal(candidate, False)
        if x is not None:
            candidate[setup[0][0], :] = False
            candidate[:, x[0]] = False
            candidate[:, ms.commute[x[0]]] = False
        a_list, y_list = np.nonzero(candidate)
        # pairs meeting in an orbit that has its tools already are skipped
        orbit = orbit_of_block[block[a_list, y_list]]
        open_orbit = count[orbit] < per_orbit[orbit]
        a_list, y_list = a_list[open_orbit], y_list[open_orbit]
        if not len(a_list):
            continue
        # every letter of a with every letter of y, pair by pair, evaluated at once
        combos = [(i, la, ly) for i, (a, y) in enumerate(zip(a_list.tolist(), y_list.tolist()))
                  for la in by_class.get(a, []) for ly in by_class.get(y, [])]
        if not combos:
            continue
        pair = np.array([c[0] for c in combos])
        meeting = block_positions[block[a_list, y_list]][pair]
        if max_meet >= 2:
            meeting = np.concatenate([meeting, block_positions[other[a_list, y_list]][pair]],
                                     axis=1)
        okay, pos_all, src_all = commutator_effects(
            ms, px, np.array([c[1][0] for c in combos]), np.array([c[2][0] for c in combos]),
            np.array([c[1][1] for c in combos]), np.array([c[2][1] for c in combos]),
            meeting, max_support)
        start = 0
        for i, (a, y) in enumerate(zip(a_list.tolist(), y_list.tolist())):
            stop = start + len(by_class.get(a, [])) * len(by_class.get(y, []))
            o = orbit_of_block[block[a, y]]
            if count[o] >= per_orbit[o]:
                start = stop
                continue
            for j in range(start, stop):
                if okay[j] < 0:
                    continue
                keep = pos_all[j] < n
                pos, src = pos_all[j][keep], src_all[j][keep]
                key = pos.tobytes() + b"|" + src.tobytes()
                old = found.get(key)
                la, ly = combos[j][1], combos[j][2]
                inner = [ly] if setup is None else [*setup, ly, *ms.inverse(list(setup))]
                word = commutator(ms, [la], inner)
                tool = Tool(tuple(word), ms.cost(word), pos, src)
                if old is None:
                    count[orbit_of_block[pieces.block_of[pos[0]]]] += 1
                    found[key] = tool
                elif old.cost > tool.cost:
                    found[key] = tool
            start = stop
    return sorted(found.values(), key=lambda t: t.cost)


def inverse_tool(ms: MoveSet, tool: Tool) -> Tool:
    """The tool undoing ``tool`` (its word reversed and inverted).

    >>> t = Tool(((0, 1),), 1, np.array([0, 1, 2], dtype=np.int32), np.array([1, 2, 0], dtype=np.int32))
    >>> import numpy as np
    >>> from permgroup.moves import MoveSet
    >>> ms = MoveSet.from_moves({"t": np.array([1, 2, 0])})
    >>> inverse_tool(ms, t).src.tolist()
    [2, 0, 1]
    """
    order = np.argsort(tool.src)
    return Tool(tuple(ms.inverse(tool.word)), tool.cost, tool.src[order], tool.pos[order])


def compose_tools(ms: MoveSet, first: Tool, second: Tool) -> Tool:
    """The tool doing ``first`` then ``second``."""
    word = ms.join(first.word, second.word)
    pos, src = effect(ms.perm(word))
    return Tool(tuple(word), ms.cost(word), pos, src)


def turning_tools(ms: MoveSet, pieces: Pieces, tools: Sequence[Tool], *, limit: int = 20_000
                  ) -> list[Tool]:
    """Tools that only turn pieces in place (a twist of two corners, a flip of two
    edges): ``T1 · T2⁻¹`` for tools moving the same pieces the same way but
    turning them differently."""
    groups: dict[tuple, list[Tool]] = {}
    for t in tools:
        blocks = pieces.block_of[t.pos]
        source = pieces.block_of[t.src]
        mapping = tuple(sorted(set(zip(blocks.tolist(), source.tolist()))))
        groups.setdefault(mapping, []).append(t)
    out: dict[bytes, Tool] = {}
    for members in groups.values():
        for i, t1 in enumerate(members):
            for t2 in members[i + 1:]:
                made = compose_tools(ms, t1, inverse_tool(ms, t2))
                if len(made.pos) and (made.key() not in out or out[made.key()].cost > made.cost):
                    out[made.key()] = made
                if len(out) >= limit:
                    return list(out.values())
    return list(out.values())


def paired_rows(table: "ToolTable", pieces: Pieces) -> np.ndarray:
    """The rows of ``table`` that may pair in :func:`turning_tools`: those
    whose pieces move as another row's do (told apart by a hash, so a few more
    at most), in order; the rest need no word spelled (on Santa's globe_3/33
    spelling every row's was 2 s of the model's build)."""
    n = table.ms.degree
    block_of = np.append(pieces.block_of, -1)
    pos = np.minimum(table.pos, n)
    pairs = np.where(pos < n, block_of[pos] * (len(pieces.blocks) + 1) + block_of[np.minimum(table.src, n)], -1)
    pairs.sort(axis=1)
    pairs[:, 1:][pairs[:, 1:] == pairs[:, :-1]] = -1   # each pair once, as a set
    pairs.sort(axis=1)
    keys = ToolTable._hash(pairs, pairs)
    _, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    return np.flatnonzero(counts[inverse] > 1)


class ToolTable:
    """Tools as padded arrays, grown by conjugation.

    Row ``i`` moves positions ``pos[i]`` taking stickers from ``src[i]`` (the pad
    position is the puzzle's degree, which stays put).  A conjugate row keeps
    its parent row and setup letter; its word is ``x · word(parent) · x⁻¹``,
    spelled when asked for.  ``frontier`` holds the rows of the newest level,
    which :meth:`grow` conjugates by every letter touching them, keeping the
    effects not seen before (told apart by a 64-bit hash of the row).
    """

    def __init__(self, ms: MoveSet, tools: Sequence[Tool], width: int = 12, per_key: int = 12):
        self.ms = ms
        self.per_key = per_key
        n = ms.degree
        self.width = max([width, *(len(t.pos) for t in tools)])
        count = len(tools)
        self.pos = np.full((count, self.width), n, dtype=np.int32)
        self.src = np.full((count, self.width), n, dtype=np.int32)
        for i, t in enumerate(tools):
            self.pos[i, :len(t.pos)] = t.pos
            self.src[i, :len(t.src)] = t.src
        self.cost = np.array([t.cost for t in tools], dtype=np.float64)
        self.parent = np.full(count, -1, dtype=np.int64)
        self.setup = np.zeros((count, 2), dtype=np.int64)
        self._base_words = {i: tuple(t.word) for i, t in enumerate(tools)}
        self._seen = SortedKeys(np.unique(self._hash(self.pos, self.src)))
        # how many effects move each set of positions (only ``per_key`` are kept)
        self._variants = KeyCounts(self._hash(self.pos, self.pos))
        self.frontier = np.arange(count)
        #: the letters a budget kept :meth:`grow` from (none: it ended by itself)
        self.cut: list[Letter] = []
        #: the rows given when the table was made (the base tools)
        self.base_count = count
        # each class's power arrays, extended by the pad position
        self._padded = [[np.append(p, n).astype(np.int32) for p in pw] for pw in ms.powers]
        self._moves = np.zeros((len(ms.classes), n + 1), dtype=bool)
        for c, sup in enumerate(ms.support):
            self._moves[c, sup] = True

    @property
    def size(self) -> int:
        return len(self.cost)

    def tool(self, i: int) -> Tool:
        """Row ``i`` as a :class:`Tool`."""
        keep = self.pos[i] < self.ms.degree
        return Tool(self.word(i), int(self.cost[i]), self.pos[i][keep], self.src[i][keep])

    def add(self, tools: Sequence[Tool]) -> int:
        """Add tools with effects not in the table yet (as base rows, in the
        frontier); returns how many were added."""
        fresh = [t for t in tools if len(t.pos) <= self.width]
        if not fresh:
            return 0
        other = ToolTable(self.ms, fresh, self.width)
        h = self._hash(other.pos, other.src)
        keep = np.flatnonzero(~self._seen.contains(h))
        self._seen.add(np.unique(h[keep]))
        self._variants.add(self._hash(other.pos[keep], other.pos[keep]))
        keep = keep.tolist()
        start = self.size
        for k, i in enumerate(keep):
            self._base_words[start + k] = tuple(fresh[i].word)
        self.pos = np.concatenate([self.pos, other.pos[keep]])
        self.src = np.concatenate([self.src, other.src[keep]])
        self.cost = np.concatenate([self.cost, other.cost[keep]])
        self.parent = np.concatenate([self.parent, np.full(len(keep), -1, dtype=np.int64)])
        self.setup = np.concatenate([self.setup, np.zeros((len(keep), 2), dtype=np.int64)])
        self.frontier = np.concatenate([self.frontier, np.arange(start, self.size)])
        return len(keep)

    @staticmethod
    def _hash(pos: np.ndarray, src: np.ndarray) -> np.ndarray:
        h = np.full(len(pos), 1469598103934665603, dtype=np.uint64)
        with np.errstate(over="ignore"):
            for col in range(pos.shape[1]):
                h = (h ^ pos[:, col].astype(np.uint64)) * np.uint64(1099511628211)
                h = (h ^ src[:, col].astype(np.uint64)) * np.uint64(1099511628211)
        return h

    def word(self, i: int) -> tuple[Letter, ...]:
        """The word of row ``i`` (reduced)."""
        setups = []
        while self.parent[i] >= 0:
            setups.append((int(self.setup[i, 0]), int(self.setup[i, 1])))
            i = int(self.parent[i])
        word = list(self._base_words[i])
        for x in reversed(setups):
            word = [x, *word, (x[0], self.ms.orders[x[0]] - x[1])]
        return tuple(self.ms.reduce(word))

    def grow(self, letters: Sequence[Letter], rows: np.ndarray | None = None,
             limit: int = 2_000_000, budget: Budget | None = None) -> int:
        """Conjugate ``rows`` (default: the frontier) by each letter that touches
        them, none once ``budget`` has run out (the letters not reached are
        then ``cut``: :meth:`grow` of those and the same rows goes on, the
        table as it would have been); the new rows become the frontier.
        Returns how many were added."""
        rows = self.frontier if rows is None else np.asarray(rows)
        added_pos, added_src, added_cost, added_parent, added_setup = [], [], [], [], []
        total = 0
        self.cut: list[Letter] = []
        for k, x in enumerate(letters):
            if len(rows) == 0 or self.size + total >= limit:
                break
            if budget is not None and budget.expired:
                self.cut = list(letters[k:])
                break
            touching = rows[self._moves[x[0]][self.pos[rows]].any(1)]
            if len(touching) == 0:
                continue
            px = self._padded[x[0]][x[1]]
            pos, src = px[self.pos[touching]], px[self.src[touching]]
            order = np.argsort(pos, axis=1, kind="stable")
            pos = np.take_along_axis(pos, order, 1)
            src = np.take_along_axis(src, order, 1)
            h = self._hash(pos, src)
            h, first = np.unique(h, return_index=True)
            # the effects not seen, then of each set of positions only as many
            # as it lacks of ``per_key``, in hash order (vectorised: a loop over
            # the rows in Python was most of the model's build)
            unseen = ~self._seen.contains(h)
            h, first = h[unseen], first[unseen]
            where = self._hash(pos[first], pos[first])
            fresh = KeyCounts.rank(where) + self._variants.count(where) < self.per_key
            self._seen.add(h[fresh])
            self._variants.add(where[fresh])
            keep = first[fresh][:limit - self.size - total]
            if len(keep) == 0:
                continue
            added_pos.append(pos[keep])
            added_src.append(src[keep])
            added_cost.append(self.cost[touching[keep]] + 2 * self.ms.letter_cost(x))
            added_parent.append(touching[keep])
            added_setup.append(np.tile(np.array(x, dtype=np.int64), (len(keep), 1)))
            total += len(keep)
        start = self.size
        if total:
            self.pos = np.concatenate([self.pos, *added_pos])
            self.src = np.concatenate([self.src, *added_src])
            self.cost = np.concatenate([self.cost, *added_cost])
            self.parent = np.concatenate([self.parent, *added_parent])
            self.setup = np.concatenate([self.setup, *added_setup])
        self.frontier = np.arange(start, self.size)
        return total

    def _cache(self) -> GainCache:
        """The gain cache of the rows (made again when the table grew)."""
        if getattr(self, "_gain_cache_size", -1) != self.size:
            self._gain_cache = GainCache(self.pos, self.src, self.ms.degree)
            self._gain_cache_size = self.size
        return self._gain_cache

    def touching(self, positions: np.ndarray) -> np.ndarray:
        """The rows moving any of ``positions``, each once, in order."""
        return self._cache().touching(np.asarray(positions))

    def gains(self, state: np.ndarray, goal: np.ndarray) -> np.ndarray:
        """How many more positions match ``goal`` after each row's effect."""
        return self._cache().gains(state, goal)

    def apply(self, state: np.ndarray, i: int) -> np.ndarray:
        """The state after row ``i``'s effect."""
        out = np.append(state, -1)
        out[self.pos[i]] = out.copy()[self.src[i]]
        return out[:-1]
