"""3-cycles inserted inside the word, where the moves after them carry them to
the pieces that need them.

A commutator ``C`` put at time ``t`` of a word ``w = u v`` (``u`` the moves
before, ``v`` those after) gives ``u C v = (u v)(v⁻¹ C v)``: appended at the
end, it would be its conjugate by ``v``.  So every point of a long word offers
the same cheap commutators conjugated by another setup, at no cost: late in a
solve, when a few pieces of each orbit are still wrong and no commutator at
the end fixes more than one or two of them, one inserted somewhere fixes
three, or costs less where it cancels against its neighbours.

Its gain at ``t`` is scored on the state ``state_t`` reached at ``t`` against
the goal seen through the moves after it, ``goal[v⁻¹]`` (``state_t[C][v]``
matches the goal where ``state_t[C]`` matches ``goal[v⁻¹]``), with the
:class:`~permgroup.solver.effects.GainCache` of the commutators: only those
moving a position wrong there are rescored.

>>> import numpy as np
>>> from permgroup.moves import MoveSet
>>> # r and d: two perpendicular "slices" of four cells meeting in cells 0 and 4
>>> r = np.array([1, 2, 3, 0, 4, 5, 6, 7]); d = np.array([4, 1, 2, 3, 5, 6, 7, 0])
>>> ms = MoveSet.from_moves({"r": r, "-r": np.argsort(r), "d": d, "-d": np.argsort(d)})
>>> cycle = ms.letters(["r", "d", "-r", "-d"])       # a 3-cycle of cells
>>> goal = np.arange(8); start = goal[ms.perm(ms.letters(["r", "r"]) + cycle + ms.letters(["-r"]))]
>>> word = ms.letters(["r", "-r", "-r"])             # what a solver found: wrong by the 3-cycle
>>> effects = Effects.of(ms, [ms.inverse(cycle)])
>>> better = insert_effects(ms, effects, start, goal, word)
>>> bool((ms.apply(start, better) == goal).all()), ms.cost(better) <= 4 + 3
(True, True)
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from permgroup.budget import Budget
from permgroup.moves import Letter, MoveSet
from permgroup.perm_arrays import invert
from permgroup.solver.effects import GainCache

#: points of the word looked at a step (evenly spread, the end always among them),
#: fewer when there are many effects: every point's gains are kept up to date
ANCHORS = 48
#: ... so that the points times the effects stay within this (45 points on a
#: 33x33x33's 265,680 pairs: reseeded, they are cheap; 11 gave 9,285 moves on
#: Santa's row 281, 45 gave 8,549; 90 made each insertion three times slower)
ANCHOR_ROWS = 12_000_000
#: the best few effects of each point have their cost after cancelling counted
CANCEL_CHECKED = 6
#: insertions made a step: one per this many positions wrong (the gains are
#: rescored after them)
STEP_WRONG = 40
#: the insertions after a step's first are made while they fix this share of
#: what it fixed a move
SHARE = 0.7
#: letters either side of an insertion reduced with it
MARGIN = 6
#: insertions scored by the pieces left wrong, once none fixes a position
PIECE_STEPS = 8


#: words doing several effects at once from the effects' gains at a point:
#: (positions fixed per move, word) each (see :func:`insert_effects`)
Combine = Callable[[np.ndarray], list[tuple[float, list[Letter]]]]


@dataclass
class Effects:
    """Short words as padded rows of the positions they move (``cache``: a
    :class:`~permgroup.solver.effects.GainCache`), with their costs; ``word(i)``
    spells row ``i`` (made only for the rows chosen: a big puzzle has many)."""

    cost: np.ndarray
    cache: GainCache
    word: Callable[[int], list[Letter]]

    def perm(self, i: int) -> np.ndarray:
        """The gather array of row ``i`` (from its positions and sources: no
        word composed letter by letter)."""
        pos, src = self.cache.pos[i], self.cache.src[i]
        keep = pos < self.cache.degree
        out = np.arange(self.cache.degree, dtype=np.int64)
        out[pos[keep]] = src[keep]
        return out

    @cached_property
    def transfers(self) -> tuple[np.ndarray, np.ndarray]:
        """Each move of a sticker of each effect's, from ``s`` to ``p``, as the
        key ``p * (degree + 1) + s``, sorted, and the effect of each key (what
        :func:`~permgroup.solver.everywhere.insert_everywhere` looks a wrong
        position's wanted colour up in); made once, for every variant of a
        row and every row of a puzzle."""
        cache = self.cache
        real = cache.pos < cache.degree
        keys = (cache.pos * (cache.degree + 1) + cache.src)[real]
        rows = np.nonzero(real)[0]
        order = np.argsort(keys, kind="stable")
        return keys[order], rows[order]

    @classmethod
    def of(cls, ms: MoveSet, words: Sequence[Sequence[Letter]]) -> "Effects":
        """The effects of ``words`` (each moving at least one position)."""
        perms = [ms.perm(w) for w in words]
        moved = [np.flatnonzero(p != np.arange(ms.degree)) for p in perms]
        width = max(len(m) for m in moved)
        pos = np.full((len(words), width), ms.degree, dtype=np.int32)
        src = np.full((len(words), width), ms.degree, dtype=np.int32)
        for i, (p, m) in enumerate(zip(perms, moved)):
            pos[i, :len(m)] = m
            src[i, :len(m)] = p[m]
        cost = np.array([ms.cost(w) for w in words], dtype=np.float64)
        return cls(cost, GainCache(pos, src, ms.degree), lambda i: list(words[i]))


def insert_effects(ms: MoveSet, effects: Effects, start: np.ndarray, goal: np.ndarray,
                   word: Sequence[Letter], *, frozen: np.ndarray | None = None,
                   mismatches: int = 0, first: int = 0, min_gain: float = 0.0,
                   budget: Budget | None = None, anchors: int | None = None,
                   pieces: np.ndarray | None = None,
                   combined: Combine | None = None, phase: float = 0.0) -> list[Letter]:
    """``word`` (from ``start``) with effects inserted, each step the one whose
    positions fixed per move added (after cancelling) is most, at any of
    ``anchors`` points of the word from index ``first`` on (by default as many as :data:`ANCHOR_ROWS`
    allows, between 8 and :data:`ANCHORS`), while one fixes more than ``min_gain`` a
    move, more than ``mismatches`` positions are wrong and ``budget`` has
    time left.  No insertion changes a position of
    ``frozen`` (a boolean mask) at the end.  With ``pieces`` (each position's
    piece, -1 for none), once no insertion fixes a position, those leaving
    fewer pieces wrong are made (at most :data:`PIECE_STEPS`): they may leave
    more positions wrong.  Without, the word returned takes ``start`` to a
    state at least as near ``goal``.  ``combined``: words doing several
    effects at once, made from the effects' gains at a point (each with its
    positions fixed per move before cancelling), inserted too when they
    fix more a move (parallel commutators of the pairs a point offers,
    :meth:`~permgroup.solver.parallel.Shapes.chosen`).  ``phase`` (0 to 1): the
    points start that share of their spacing later (other setups; the end
    is always one)."""
    word = list(word)
    if anchors is None:
        anchors = max(8, min(ANCHORS, ANCHOR_ROWS // max(len(effects.cost), 1)))
    points = _Points(ms, effects, start, goal, word, first, anchors, combined, phase)
    if pieces is not None:
        # each position's piece (a piece of its own where none is known), the padding last
        block_of = np.asarray(pieces).copy()
        alone = block_of < 0
        block_of[alone] = block_of.max() + 1 + np.arange(int(alone.sum()))
        block_of = np.append(block_of, -1)
    by_pieces = 0
    while points.wrong > mismatches and not (budget is not None and budget.expired):
        if len(points.at) < anchors // 2:  # insertions in between dropped too many
            points.reseed(anchors)
        if points.step(frozen, min_gain, max(1, points.wrong // STEP_WRONG)):
            continue
        # stuck: an insertion putting a piece home though no position gains
        # (bounded: the steps by positions after it may undo what it did)
        if pieces is None or by_pieces >= PIECE_STEPS or not points.step_pieces(frozen, block_of):
            break
        by_pieces += 1
    return points.word


def _carried(ms: MoveSet, word: Sequence[Letter], suffix: np.ndarray) -> np.ndarray:
    """The gather array of ``word`` followed by the moves whose gather array is
    ``suffix`` (a point's "moves after it", from the next point's)."""
    for c, e in reversed(word):
        suffix = ms.powers[c][e % ms.orders[c]][suffix]
    return suffix


class _Points:
    """The points of a word where effects may go: at each, the state reached,
    the gather array of the moves after it, and the effects' gains there."""

    def __init__(self, ms: MoveSet, effects: Effects, start: np.ndarray, goal: np.ndarray,
                 word: list[Letter], first: int, anchors: int, combined: Combine | None = None,
                 phase: float = 0.0):
        self.ms, self.effects, self.goal, self.word = ms, effects, goal, word
        self.combined = combined
        # the inverse of each point's moves after it, kept while that array is
        # (by id: the array itself is held with it, so the id stays its own)
        self._inverses: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        n = len(word)
        self.first = first = min(first, n)
        spacing = (n - first) / (max(anchors, 2) - 1)
        at = np.minimum(first + (np.arange(max(anchors, 2)) + phase) * spacing, n)
        self.at = sorted(set(at.round().astype(int).tolist()) | {n})
        self.states, self.after, self.caches = [], [], []
        state, done = start, 0
        for t in self.at:
            state = ms.apply(state, word[done:t])
            done = t
            self.states.append(state)
        self.end = state
        suffix, done = np.arange(ms.degree, dtype=np.int64), n
        after = []
        for t in reversed(self.at):
            suffix = _carried(ms, word[t:done], suffix)
            done = t
            after.append(suffix)
        self.after = after[::-1]
        for k in range(len(self.at)):
            cache = effects.cache.fork()
            cache.gains(self.states[k], self.seen(k))
            self.caches.append(cache)
        self.wrong = int(np.count_nonzero(self.end != goal))

    def reseed(self, anchors: int) -> None:
        """New points in the middle of the widest gaps between the points kept,
        until there are ``anchors``: each insertion drops the point it went at,
        and the points kept are up to date, so only the new ones are scored
        (and only the moves between their neighbours applied): fresh points,
        fresh setups, at a fraction of the cost of placing them all again."""
        ms, at = self.ms, list(self.at)
        new: set[int] = set()
        if at[-1] < len(self.word):
            # the end's point, which an insertion there keeps before it when
            # it is the first point too
            at.append(len(self.word))
            new.add(len(self.word))
        while 1 < len(at) < anchors:
            gaps = np.diff(at)
            i = int(np.argmax(gaps))
            if gaps[i] < 2:
                break
            t = at[i] + int(gaps[i]) // 2
            at.insert(i + 1, t)
            new.add(t)
        if not new:
            return
        old = {t: k for k, t in enumerate(self.at)}
        states, after, caches = [], [], []
        for k, t in enumerate(at):
            if t in old:
                states.append(self.states[old[t]])
                after.append(self.after[old[t]])
                caches.append(self.caches[old[t]])
                continue
            # from the point before: the state forward; from the next kept one, the
            # moves after it backward (the new points of a gap in turn)
            states.append(ms.apply(states[-1], self.word[at[k - 1]:t]))
            after.append(None)
            caches.append(None)
        if after[-1] is None:
            after[-1] = np.arange(ms.degree, dtype=np.int64)
        for k in range(len(at) - 2, -1, -1):
            if after[k] is None:
                after[k] = _carried(ms, self.word[at[k]:at[k + 1]], after[k + 1])
        self.at, self.states, self.after, self.caches = at, states, after, caches
        for k, t in enumerate(at):
            if caches[k] is None:
                caches[k] = self.effects.cache.fork()
                caches[k].gains(states[k], self.seen(k))

    def seen(self, k: int) -> np.ndarray:
        """The goal as point ``k`` sees it: ``state_t[C]`` matches it where
        ``state_t[C]`` followed by the rest of the word matches the goal."""
        return self.goal[self.inverse_after(k)]

    def inverse_after(self, k: int) -> np.ndarray:
        """The inverse of point ``k``'s moves after it (kept until they change)."""
        after = self.after[k]
        kept = self._inverses.get(id(after))
        if kept is None or kept[0] is not after:
            if len(self._inverses) > 4 * len(self.at) + 8:
                self._inverses.clear()
            kept = self._inverses[id(after)] = (after, invert(after))
        return kept[1]

    def step(self, frozen: np.ndarray | None, min_gain: float, most: int) -> bool:
        """Make the best insertion (positions fixed per move, after cancelling),
        then up to ``most - 1`` more of the best candidates of the points while
        each fixes at least :data:`SHARE` of what the first did a move (each
        scored again on the word it meets); the gains are rescored once, after
        them.  False when none fixes more than ``min_gain`` a move."""
        effects = self.effects
        candidates = []
        for k in range(len(self.at)):
            values = self.caches[k].values
            # the gaining effects alone: few of a big puzzle's (a 33x33x33's
            # 265,680 pairs) once the rounds are over
            up = np.flatnonzero(values > 0)
            ratio = values[up] / effects.cost[up]
            top = np.argsort(-ratio, kind="stable")[:CANCEL_CHECKED] \
                if len(up) <= 4 * CANCEL_CHECKED else \
                np.argpartition(-ratio, CANCEL_CHECKED)[:CANCEL_CHECKED]
            candidates += [(float(ratio[i]), k, int(up[i])) for i in top]
            if self.combined is not None:
                candidates += [(value, k, w) for value, w in
                               self.combined(values)[:CANCEL_CHECKED]]
        candidates.sort(key=lambda c: -c[0])
        ids = list(range(len(self.at)))   # where each point of the scoring is now
        first = None
        done = 0
        while done < most and candidates:
            best = None
            for j, (nominal, k, row) in enumerate(candidates[:4 * CANCEL_CHECKED]):
                if best is not None and nominal <= best[0] * 0.5:
                    break  # cancelling at most halves a commutator's cost
                if ids[k] < 0:
                    continue
                found = self._score(ids[k], row, frozen)
                if found is not None and (best is None or found[0] > best[0]):
                    best = (found[0], j, found[1:])
            if best is None or best[0] <= min_gain or \
                    (first is not None and best[0] < SHARE * first):
                break
            first = best[0] if first is None else first
            del candidates[best[1]]
            keep = self.insert(*best[2])
            moved = {old: new for new, old in enumerate(keep)}
            ids = [moved.get(i, -1) if i >= 0 else -1 for i in ids]
            done += 1
        for k in range(len(self.at)):
            self.caches[k].gains(self.states[k], self.seen(k))
        return done > 0

    def _score(self, k: int, row: int | list[Letter], frozen: np.ndarray | None
               ) -> tuple[float, int, int, list[Letter], np.ndarray] | None:
        """(positions fixed per move, lo, hi, replacement of word[lo:hi], the
        effect seen at the end) of effect ``row`` inserted at point ``k``, or
        ``None`` when it fixes nothing or changes a ``frozen`` position."""
        placed = self._placed(k, row, frozen)
        if placed is None:
            return None
        added, lo, hi, middle, at_end = placed
        now = int(np.count_nonzero(self.end[at_end] != self.goal))
        if now >= self.wrong:
            return None
        return (self.wrong - now) / max(added, 0.5), lo, hi, middle, at_end

    def _placed(self, k: int, row: int | list[Letter], frozen: np.ndarray | None
                ) -> tuple[int, int, int, list[Letter], np.ndarray] | None:
        """(moves added after cancelling, lo, hi, replacement of word[lo:hi],
        the effect seen at the end) of effect ``row`` inserted at point ``k``,
        or ``None`` when it changes a ``frozen`` position."""
        ms = self.ms
        t = self.at[k]
        # the letters reduced with it stop at the points either side: only the
        # point it goes at is lost
        lo = max(t - MARGIN, self.at[k - 1] if k else self.first)
        hi = min(t + MARGIN, self.at[k + 1] if k + 1 < len(self.at) else len(self.word))
        inserted = self.effects.word(row) if isinstance(row, int) else row
        middle = ms.reduce(self.word[lo:t] + inserted + self.word[t:hi])
        added = ms.cost(middle) - ms.cost(self.word[lo:hi])
        # reducing merges letters only where they commute: the permutation is
        # that of the effect inserted at t, whatever cancelled; seen at the end
        # it is the effect conjugated by the moves after t
        after = self.after[k]
        perm = self.effects.perm(row) if isinstance(row, int) else ms.perm(inserted)
        at_end = self.inverse_after(k)[perm[after]]
        final = self.end[at_end]
        if frozen is not None and (final[frozen] != self.end[frozen]).any():
            return None
        return added, lo, hi, middle, at_end

    def step_pieces(self, frozen: np.ndarray | None, block_of: np.ndarray) -> bool:
        """The insertion leaving the fewest pieces wrong per move added (a piece
        is wrong when one of its positions is; ``block_of``: each position's
        piece, the padding position last), even when it leaves more positions
        wrong: where the pieces left look alike, no 3-cycle may fix a position
        (two pairs of swapped pieces), but one that puts a piece home leaves a
        single 3-cycle to do.  False when none leaves fewer pieces wrong."""
        effects = self.effects
        now = _wrong_pieces(block_of, self.end != self.goal)
        candidates = []
        for k in range(len(self.at)):
            state, seen = self.states[k], self.seen(k)
            wrong = state != seen
            rows = effects.cache.touching(np.flatnonzero(wrong))
            if not len(rows):
                continue
            pos, src = effects.cache.pos[rows], effects.cache.src[rows]
            s, g = np.append(state, -1), np.append(seen, -2)
            blocks = block_of[pos]
            bad = np.zeros(int(block_of.max()) + 2, dtype=bool)
            bad[block_of[:-1][wrong]] = True
            # an effect moves whole pieces: the pieces it touches, wrong before and after
            before = _distinct(np.where(bad[blocks], blocks, -1))
            after = _distinct(np.where((s[src] != g[pos]) & (pos < len(state)), blocks, -1))
            ratio = (before - after) / effects.cost[rows]
            for i in np.argsort(-ratio)[:CANCEL_CHECKED]:
                if ratio[i] > 0:
                    candidates.append((float(ratio[i]), k, int(rows[i])))
        candidates.sort(key=lambda c: -c[0])
        best = None
        for nominal, k, row in candidates[:4 * CANCEL_CHECKED]:
            if best is not None and nominal <= best[0] * 0.5:
                break  # cancelling at most halves a commutator's cost
            placed = self._placed(k, row, frozen)
            if placed is None:
                continue
            added, lo, hi, middle, at_end = placed
            left = _wrong_pieces(block_of, self.end[at_end] != self.goal)
            if left < now and (best is None or (now - left) / max(added, 0.5) > best[0]):
                best = ((now - left) / max(added, 0.5), (lo, hi, middle, at_end))
        if best is None:
            return False
        self.insert(*best[1])
        for k in range(len(self.at)):
            self.caches[k].gains(self.states[k], self.seen(k))
        return True

    def insert(self, lo: int, hi: int, middle: list[Letter], at_end: np.ndarray) -> list[int]:
        """Replace ``word[lo:hi]`` by ``middle`` (the same permutation with an
        effect that, seen at the end, is ``at_end``), keeping the points outside
        (their gains are not rescored: :meth:`step` does it); which are kept."""
        shift = len(middle) - (hi - lo)
        self.word = self.word[:lo] + middle + self.word[hi:]
        self.end = self.end[at_end]
        self.wrong = int(np.count_nonzero(self.end != self.goal))
        keep = [k for k, t in enumerate(self.at) if t <= lo or t >= hi]
        at, states, after, caches = [], [], [], []
        for k in keep:
            t = self.at[k]
            if t <= lo:  # the moves after it now hold the effect
                after.append(self.after[k][at_end])
                states.append(self.states[k])
                at.append(t)
            else:        # the state reached holds it
                states.append(self.end[self.inverse_after(k)])
                after.append(self.after[k])
                at.append(t + shift)
            caches.append(self.caches[k])
        self.at, self.states, self.after, self.caches = at, states, after, caches
        return keep


def _wrong_pieces(block_of: np.ndarray, wrong: np.ndarray) -> int:
    """How many pieces have a ``wrong`` position."""
    return len(np.unique(block_of[:-1][wrong]))


def _distinct(blocks: np.ndarray) -> np.ndarray:
    """How many distinct values other than -1 each row of ``blocks`` holds."""
    if blocks.shape[1] == 0:
        return np.zeros(len(blocks), dtype=np.int64)
    x = np.sort(blocks, axis=1)
    return (x[:, 0] >= 0).astype(np.int64) + ((x[:, 1:] != x[:, :-1]) & (x[:, 1:] >= 0)).sum(1)
