"""The last wrong positions: effects inserted at every point of the word.

With few positions left wrong, the insertions' gains kept at a few dozen
points (:mod:`~permgroup.solver.insertion`) find little beyond one 3-cycle of
eight moves for three positions (on Santa's cube_10/10/10 the last 100
positions took 37 % of the word).  Every point of the word offers its own
conjugates for free, and at some a commutator cancels against the letters
beside it.  Only an effect whose positions are all wrong at a point can fix
all of them, and those are cheap to find at every point: the positions wrong
at point ``t`` are ``after_t[W]`` (``W`` those wrong at the end, ``after_t``
the gather array of the moves after ``t``), carried to the point before by a
gather of ``len(W)`` entries, and the stickers there are those of ``W`` at
the end, in the same order.

>>> import numpy as np
>>> from permgroup.moves import MoveSet
>>> from permgroup.solver.insertion import Effects
>>> # r and d: two perpendicular "slices" of four cells meeting in cells 0 and 4
>>> r = np.array([1, 2, 3, 0, 4, 5, 6, 7]); d = np.array([4, 1, 2, 3, 5, 6, 7, 0])
>>> ms = MoveSet.from_moves({"r": r, "-r": np.argsort(r), "d": d, "-d": np.argsort(d)})
>>> cycle = ms.letters(["r", "d", "-r", "-d"])       # a 3-cycle of cells
>>> goal = np.arange(8); start = goal[ms.perm(ms.letters(["r", "r"]) + cycle + ms.letters(["-r"]))]
>>> word = ms.letters(["r", "-r", "-r"])             # what a solver found: wrong by the 3-cycle
>>> better = insert_everywhere(ms, Effects.of(ms, [ms.inverse(cycle)]), start, goal, word)
>>> bool((ms.apply(start, better) == goal).all()), ms.cost(better) <= 4 + 3
(True, True)
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from permgroup.budget import Budget
from permgroup.moves import Letter, MoveSet
from permgroup.solver.insertion import MARGIN, SHARE, Combine, Effects

#: the (point, effect) pairs met a step, about, at most: the points are
#: skipped evenly beyond, others each step (on Santa's cube_10/10/10, from 100
#: wrong, the five rows' first variants: 3,459 moves, 0.6 to 3.9 s a row at
#: 100,000; 3,439 and 2.6 to 6.8 s at 300,000; loaded)
POINT_HITS = 100_000
#: ... and the two wrong positions at a point looked up a step, at most
POINT_PAIRS = 1_000_000
#: ... and the points times the positions (each point's colours seen, 16 MB:
#: on a 33x33x33, 600 of a word's 7,000 points; at 2,400 a step took a second,
#: Santa's row 281 7,263 moves in 158 s against 7,201 in 129 s without)
POINT_CELLS = 4_000_000
#: points scored together (one array of their positions' indices each)
CHUNK = 64
#: candidates scored after cancelling a step, the best nominal ratios first
SCORED = 400
#: the points where the most effects gain at which ``combined`` words are asked for
COMBINED_POINTS = 16
#: insertions made a step: one per this many positions wrong
STEP_WRONG = 20


def insert_everywhere(ms: MoveSet, effects: Effects, start: np.ndarray, goal: np.ndarray,
                      word: Sequence[Letter], *, frozen: np.ndarray | None = None,
                      mismatches: int = 0, first: int = 0, budget: Budget | None = None,
                      combined: Combine | None = None) -> list[Letter]:
    """``word`` (from ``start``) with effects inserted, each step the one
    fixing the most positions per move added (after cancelling with the
    :data:`~permgroup.solver.insertion.MARGIN` letters either side) at any
    point from index ``first`` on (every one, or evenly spread ones within
    :data:`POINT_HITS`, others each step), then of that step's best
    (:data:`SCORED`) those that touch none of the positions the ones before
    moved while they fix :data:`~permgroup.solver.insertion.SHARE` of what
    the first did a move (one per :data:`STEP_WRONG` positions wrong); while
    one fixes a position, more than ``mismatches`` are wrong and ``budget``
    has time left.  No position of ``frozen`` is moved.  ``combined``: words
    doing several effects at once from the effects' gains at a point (as
    :func:`~permgroup.solver.insertion.insert_effects`'), asked at the
    :data:`COMBINED_POINTS` points where most effects gain."""
    word = list(word)
    index = effects.transfers
    end = ms.apply(start, word)
    skip = 0
    while not (budget is not None and budget.expired):
        bad = end != goal
        if np.count_nonzero(bad) <= mismatches:
            break
        if frozen is not None:
            bad &= ~frozen
        wrong = np.flatnonzero(bad)
        if not len(wrong):
            break
        found = _chosen(ms, effects, index, end, goal, word, wrong, first, skip, frozen,
                        combined)
        skip += 1
        if not found:
            break
        moved = end.copy()
        # the last first: the windows before it keep their indices
        for lo, hi, middle, to, fro in sorted(found, key=lambda f: -f[0]):
            word = word[:lo] + middle + word[hi:]
            moved[to] = end[fro]
        end = moved
    return word


def _chosen(ms: MoveSet, effects: Effects, index: tuple[np.ndarray, np.ndarray],
            end: np.ndarray, goal: np.ndarray, word: list[Letter], wrong: np.ndarray,
            first: int, skip: int, frozen: np.ndarray | None = None,
            combined: Combine | None = None
            ) -> list[tuple[int, int, list[Letter], np.ndarray, np.ndarray]]:
    """The insertions of a step (see :func:`insert_everywhere`), each (lo, hi,
    replacement of word[lo:hi], then the positions the effect fills and those
    it takes from, seen at the end); their windows do not overlap, nor their
    positions.  ``wrong``: the positions wrong at the end (none ``frozen``)."""
    keys, key_rows = index
    cache = effects.cache
    degree, m, n = cache.degree, len(wrong), len(word)
    have = np.append(end[wrong], -1)
    want = np.append(goal[wrong], -2)
    # the wrong positions (by index) that may take a sticker from another:
    # those whose colour they want (the same at every point)
    to_j, from_j = np.nonzero(want[:m, None] == have[None, :m])
    # the effects met at a point, about: each move as many as any does on average
    pairs = max(1.0, len(to_j))
    met = pairs * len(keys) / max(1.0, degree * (degree - 1))
    points = max(1.0, min(POINT_HITS / max(met, 1.0), POINT_PAIRS / pairs,
                          POINT_CELLS / degree))
    stride = max(1, int(np.ceil((n + 1 - first) / points)))
    # the points looked at: every one, or every stride-th (shifted each step), the end always
    ts = sorted(set(range(first + skip % stride, n + 1, stride)) | {n})
    # each point's wrong positions and the colours it sees wanted (those its
    # right positions hold), carried backward from the end
    at = np.empty((len(ts), m), dtype=np.int64)
    seen = np.empty((len(ts), degree + 1), dtype=np.int32)
    seen[:, degree] = -2
    after, j = np.arange(degree, dtype=np.int64), len(ts) - 1
    for t in range(n, first - 1, -1):
        if t < n:
            c, e = word[t]
            after = ms.powers[c][e % ms.orders[c]][after]
        if j >= 0 and ts[j] == t:
            at[j] = after[wrong]
            seen[j, after] = goal
            j -= 1
    found = []  # (nominal ratio, point index, row) each
    inside = []  # (point indices, rows, gains) of the effects gaining
    width = degree + 1
    for a in range(0, len(ts), CHUNK):
        part = at[a:a + CHUNK]
        query = (part[:, to_j] * width + part[:, from_j]).ravel()
        lo, hi = np.searchsorted(keys, query), np.searchsorted(keys, query, side="right")
        count = hi - lo
        total = int(count.sum())
        if not total:
            continue
        rows = key_rows[np.repeat(lo - np.cumsum(count) + count, count) + np.arange(total)]
        ks = np.repeat(np.repeat(np.arange(len(part)), len(to_j)), count)
        # each point's colours held and wanted at every position (a right one
        # holds what it wants), read as one row; the padding never matches
        wanted = seen[a:a + CHUNK].copy()
        held = wanted.copy()
        held[:, degree] = -1
        mine = (np.arange(len(part))[:, None], part)
        held[mine], wanted[mine] = have[:m], want[:m]
        held, wanted = held.ravel(), wanted.ravel()
        base = (ks * width)[:, None]
        pos, src = cache.pos[rows] + base, cache.src[rows] + base
        goes = wanted[pos]
        gain = (held[src] == goes).sum(1) - (held[pos] == goes).sum(1)
        up = gain > 0
        if up.any():
            # each (point, effect) once (one may be met by several of its moves)
            pair, first_at = np.unique((ks[up] + a) * len(cache.pos) + rows[up],
                                       return_index=True)
            k_up, r_up = pair // len(cache.pos), pair % len(cache.pos)
            g_up = gain[up][first_at]
            found.append(np.stack([g_up / effects.cost[r_up], k_up, r_up], 1))
            if combined is not None:
                inside.append((k_up, r_up, g_up))
    if not found:
        return []
    cands = np.concatenate(found)
    words: list[list[Letter]] = []  # the combined words, row -1 - i for the i-th
    if combined is not None:
        cands = np.concatenate([cands, _combined(ms, combined, inside, at, seen, have, want,
                                                 len(effects.cost), degree, words)])
    cands = cands[np.argsort(-cands[:, 0], kind="stable")[:SCORED]]
    scored = []
    best = 0.0
    for nominal, k, row in cands.tolist():
        if scored and nominal <= best * 0.5:
            break  # cancelling at most halves a commutator's cost
        k, row = int(k), int(row)
        t = ts[k]
        lo, hi = max(t - MARGIN, first), min(t + MARGIN, n)
        inserted = effects.word(row) if row >= 0 else words[-1 - row]
        middle = ms.reduce(word[lo:t] + inserted + word[t:hi])
        added = ms.cost(middle) - ms.cost(word[lo:hi])
        scored.append((nominal * ms.cost(inserted) / max(added, 0.5), k, row, lo, hi, middle))
        best = max(best, scored[-1][0])
    scored.sort(key=lambda f: -f[0])
    out, windows = [], []
    used = np.zeros(degree, dtype=bool)  # the positions moved, seen at the end
    most = max(1, m // STEP_WRONG)
    index = np.full(degree + 1, m, dtype=np.int64)
    taken = np.zeros(m + 1, dtype=bool)  # the wrong positions moved (the padding not)
    for value, k, row, lo, hi, middle in scored:
        if len(out) >= most or value < SHARE * best:
            break
        if any(lo < h and l < hi for l, h in windows):
            continue
        if row >= 0:
            pos, src = cache.pos[row], cache.src[row]
            real = pos < degree
            pos, src = pos[real], src[real]
        else:
            perm = ms.perm(words[-1 - row])
            pos = np.flatnonzero(perm != np.arange(degree))
            src = perm[pos]
        # (the same effect is met at many points: its wrong positions tell it
        # at once, before the moves after the point are composed)
        index[at[k]] = np.arange(m)
        mine = index[pos]
        index[at[k]] = m
        if taken[mine].any():
            continue
        # seen at the end: the moves after the point carry position p to inverse(after)[p]
        back = np.empty(degree, dtype=np.int64)
        back[ms.perm(word[ts[k]:])] = np.arange(degree)
        to, fro = back[pos], back[src]
        if used[to].any() or (frozen is not None and frozen[to].any()):
            continue
        taken[mine] = True
        taken[m] = False
        used[to] = True
        windows.append((lo, hi))
        out.append((lo, hi, middle, to, fro))
    return out


def _combined(ms: MoveSet, combined: Combine, inside: list, at: np.ndarray, seen: np.ndarray,
              have: np.ndarray, want: np.ndarray, rows: int, degree: int,
              words: list[list[Letter]]) -> np.ndarray:
    """(nominal ratio, point index, -1 - i) of the words of ``combined`` at
    the :data:`COMBINED_POINTS` points where most effects gain, each that
    gains (the i-th appended to ``words``).  The effects that do not gain
    there count as losing three positions (their gains are not known)."""
    ks = np.concatenate([k for k, _, _ in inside])
    rs = np.concatenate([r for _, r, _ in inside])
    gs = np.concatenate([g for _, _, g in inside])
    up = np.bincount(ks[gs > 0], minlength=len(at))
    out = []
    m = at.shape[1]
    for k in np.argsort(-up, kind="stable")[:COMBINED_POINTS].tolist():
        if up[k] < 2:
            break
        mine = ks == k
        gains = np.full(rows, -3, dtype=np.int64)
        gains[rs[mine]] = gs[mine]
        where = np.full(degree, -1, dtype=np.int64)
        where[at[k]] = np.arange(m)
        for _, w in combined(gains):
            perm = ms.perm(w)
            pos = np.flatnonzero(perm != np.arange(degree))
            src = perm[pos]
            to, fro = where[pos], where[src]
            wanted = np.where(to >= 0, want[to], seen[k, pos])
            held = np.where(to >= 0, have[to], wanted)
            brought = np.where(fro >= 0, have[fro], seen[k, src])
            gain = int(np.count_nonzero(brought == wanted) - np.count_nonzero(held == wanted))
            if gain > 0:
                words.append(w)
                out.append((gain / ms.cost(w), k, -len(words)))
    return np.array(out, dtype=np.float64).reshape(-1, 3)
