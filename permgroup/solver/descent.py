"""3-cycles where no commutator of two single moves gives one: commutators of
commutators, their supports shrinking until two of them meet in one piece.

When the supports of two permutations ``a`` and ``b`` share exactly one point,
``[a, b]`` is a 3-cycle.  :func:`~permgroup.solver.commutators.base_commutators`
looks for such pairs among single moves and their conjugates; a puzzle whose
moves always meet in two or more pieces has none (two rings of ``n`` cells
sharing two: any two conjugates of a ring turn meet in at least two cells).
Its commutators still move few pieces (``[l, r]`` of two such rings moves six
cells), and two of *those*, one conjugated, often meet in a single piece: their
commutator is the 3-cycle.  Where they do not, the commutators of the ones
that meet in few pieces are the next, smaller supports, and so on down.

The supports are counted on pieces (:class:`~permgroup.solver.pieces.Pieces`),
so what is found is a 3-cycle of pieces (it may turn them; the caller keeps the
ones it can use).

>>> import numpy as np
>>> from permgroup.moves import MoveSet
>>> from permgroup.solver.pieces import Pieces
>>> # two rings of six cells sharing cells 0 and 2 (Santa's wreath_6/6)
>>> l = np.array([1, 2, 3, 4, 5, 0, 6, 7, 8, 9]); r = np.array([6, 1, 8, 3, 4, 5, 7, 2, 9, 0])
>>> ms = MoveSet.from_moves({"l": l, "-l": np.argsort(l), "r": r, "-r": np.argsort(r)})
>>> tools = descent_cycles(ms, Pieces.of(ms), [0])
>>> sorted(len(t.pos) for t in tools)   # six 3-cycles of cells
[3, 3, 3, 3, 3, 3]
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from permgroup.budget import Budget
from permgroup.solver.commutators import Tool, cheap_letters, commutator, effect
from permgroup.moves import Letter, MoveSet
from permgroup.solver.pieces import Pieces

#: small-support words kept at each level of the descent (the fewest pieces, then the cheapest)
POOL = 40
#: setups (words of up to two letters, the cheapest first) conjugating the second word
SETUPS = 600
#: setups tried for the commutators of letters that start the descent
FIRST_SETUPS = 40
#: commutators of letters made at most to start the descent
FIRST_WORDS = 4000
#: levels of commutators of commutators tried
LEVELS = 3
#: 3-cycles kept per orbit
PER_ORBIT = 6
#: commutators spelled and applied at most, a level (the cheapest candidates first)
TRIES = 3000


def _blocks(pieces: Pieces, perm: np.ndarray) -> np.ndarray:
    """The pieces a gather permutation moves or turns (a boolean mask)."""
    out = np.zeros(len(pieces.blocks), dtype=bool)
    out[pieces.block_of[np.flatnonzero(perm != np.arange(len(perm)))]] = True
    return out


def setup_words(ms: MoveSet, count: int = SETUPS) -> list[list[Letter]]:
    """The empty word, every single letter (every power of every class: a ring
    turned any way), and words of two letters of different classes, the
    cheapest first, up to ``count`` of them; distinct permutations only."""
    letters = [(c, e) for c in range(len(ms.classes)) for e in range(1, ms.orders[c])
               if ms.letter_cost((c, e)) < 10 ** 6]
    letters.sort(key=ms.letter_cost)
    pairs = [[x, y] for x in letters[:count] for y in letters[:count]
             if x[0] != y[0] and not (ms.commute[x[0], y[0]] and x[0] > y[0])]
    pairs.sort(key=ms.cost)
    out: list[list[Letter]] = [[]]
    seen = {np.arange(ms.degree, dtype=np.int32).tobytes()}
    for w in [*([x] for x in letters), *pairs]:
        key = ms.perm(w).tobytes()
        if key not in seen:
            seen.add(key)
            out.append(w)
            if len(out) > max(count, len(letters)):
                break
    return out


def descent_cycles(ms: MoveSet, pieces: Pieces, orbits: Sequence[int], *,
                   budget: Budget | None = None, per_orbit: int = PER_ORBIT) -> list[Tool]:
    """Up to ``per_orbit`` cheapest 3-cycles of three pieces of each orbit in
    ``orbits`` (indices into ``pieces.orbits``), found as commutators of small-
    support words meeting in one piece (see the module docstring); fewer, or
    none, when the descent finds none before ``budget`` runs out."""
    nblocks = len(pieces.blocks)
    orbit_of = np.full(nblocks, -1, dtype=np.int64)
    for k, members in enumerate(pieces.orbits):
        orbit_of[members] = k
    wanted = set(orbits)
    setups = setup_words(ms)
    setup_cost = np.array([ms.cost(s) for s in setups], dtype=np.int64)
    first = np.array([b[0] for b in pieces.blocks], dtype=np.int64)
    # where each setup carries each piece (the inverse of a gather array scatters)
    setup_maps = np.array([pieces.block_of[np.argsort(ms.perm(s))[first]] for s in setups])
    found: dict[int, dict[bytes, Tool]] = {k: {} for k in wanted}

    def keep_cycle(word: list[Letter], perm: np.ndarray) -> None:
        moved = np.flatnonzero(_blocks(pieces, perm))
        if len(moved) != 3:
            return
        k = int(orbit_of[moved[0]])
        if k not in wanted or (orbit_of[moved] != k).any():
            return
        pos, src = effect(perm)
        tool = Tool(tuple(word), ms.cost(word), pos, src)
        old = found[k].get(tool.key())
        if old is None or old.cost > tool.cost:
            found[k][tool.key()] = tool

    # level 0: commutators of letters, the second conjugated by a cheap setup
    pool: dict[bytes, tuple[list[Letter], np.ndarray]] = {}
    letters = cheap_letters(ms, 1)
    pairs = [(a, b) for a in letters for b in letters if a[0] != b[0]]
    tried = 0
    for s in setups[:FIRST_SETUPS]:
        if tried >= FIRST_WORDS or (budget is not None and budget.expired):
            break
        for a, b in pairs:
            if (s and s[0][0] == a[0]) or (not s and ms.commute[a[0], b[0]]):
                continue
            _add(pool, ms, commutator(ms, [a], [*s, b, *ms.inverse(s)]))
            tried += 1
    for _ in range(LEVELS):
        if budget is not None and budget.expired:
            break
        words = _smallest(pool, ms, pieces, POOL)
        if not words:
            break
        for word, perm in words:
            keep_cycle(word, perm)
        support = np.array([_blocks(pieces, p) for _, p in words]).astype(np.int32)
        cost = np.array([ms.cost(w) for w, _ in words], dtype=np.int64)
        # meet[c, d, s]: pieces word c shares with word d conjugated by setup s
        meet = np.empty((len(words), len(words), len(setups)), dtype=np.int32)
        for j, (_, perm) in enumerate(words):
            moved = np.zeros((len(setups), nblocks), dtype=np.int32)
            rows = np.repeat(np.arange(len(setups)), int(support[j].sum()))
            moved[rows, setup_maps[:, support[j].astype(bool)].ravel()] = 1
            meet[:, j, :] = support @ moved.T
        estimate = 2 * (cost[:, None, None] + cost[None, :, None] + 2 * setup_cost[None, None, :])
        nxt: dict[bytes, tuple[list[Letter], np.ndarray]] = {}
        for wanted_meet in (1, 2):
            hits = np.flatnonzero(meet.ravel() == wanted_meet)
            hits = hits[np.argsort(estimate.ravel()[hits], kind="stable")][:TRIES]
            for h in hits.tolist():
                if budget is not None and budget.expired:
                    break
                i, rest = divmod(h, len(words) * len(setups))
                j, k = divmod(rest, len(setups))
                s = setups[k]
                word = commutator(ms, words[i][0], [*s, *words[j][0], *ms.inverse(s)])
                if not word:
                    continue
                perm = ms.perm(word)
                if wanted_meet == 1:
                    keep_cycle(word, perm)
                else:
                    _add(nxt, ms, word, perm)
            if all(len(found[k]) >= per_orbit for k in wanted):
                break
        if all(found[k] for k in wanted):
            break
        pool = nxt
    out: list[Tool] = []
    for k in wanted:
        out.extend(sorted(found[k].values(), key=lambda t: t.cost)[:per_orbit])
    return out


def _add(pool: dict, ms: MoveSet, word: list[Letter], perm: np.ndarray | None = None) -> None:
    if not word:
        return
    perm = ms.perm(word) if perm is None else perm
    if (perm == np.arange(len(perm))).all():
        return
    key = perm.tobytes()
    if key not in pool or ms.cost(pool[key][0]) > ms.cost(word):
        pool[key] = (word, perm)


def _smallest(pool: dict, ms: MoveSet, pieces: Pieces, count: int
              ) -> list[tuple[list[Letter], np.ndarray]]:
    """The ``count`` words of ``pool`` moving the fewest pieces (then the cheapest)."""
    scored = sorted(pool.values(), key=lambda wp: (int(_blocks(pieces, wp[1]).sum()),
                                                   ms.cost(wp[0])))
    return scored[:count]
