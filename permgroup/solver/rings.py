"""Openings for puzzles made of rings: rings that share cells (Santa's wreaths),
and rings that meet through other moves (Santa's globes, whose flips carry
half of a ring onto its mirror).

**Rings sharing cells.** When every move turns one ring (its permutation is a single cycle) and the
rings meet in a few cells, a piece changes ring only where two rings meet; a
turn of one ring moves every piece on it, and the greedy descent's tools (3-
cycles made of commutators of commutators, about a hundred moves each on a
ring of a hundred cells) are a poor way to sort pieces between rings.  Here a
beam search over *macros* sorts most of them first:

* a turn of one ring by any amount, or of one ring then another;
* a commutator ``[a^i, b^j]`` of two rings (it moves six cells: the two shared
  ones and one beside each on each ring), after a turn of any ring by any
  amount that brings the pieces to where it works.

Each macro costs its moves; a state is scored by its wrong cells, the cells
where rings meet not counted (a piece passes through them).  Only macros that
lower the score are followed; the beam keeps the states of least cost plus
``LAMBDA`` times their score.  It stops when no macro gains, or at its
budget's end.  Its path is cut (as the globes' below) and commutators ``[a^i, b^j]`` of turns by any amount are
inserted after each cut, anywhere in the word (on Santa's wreath_100/100 they
left the 8 cells its wildcards allow wrong: 642 moves against 1,125 through
the beam and the generic solver).  The generic solver finishes from the
state reached (:func:`permgroup.solver.find_word`).

**Rings meeting through other moves.** When some moves turn one ring each and
the others (flips) carry cells between rings, the greedy's 3-cycles need
setups that cost about as much as they do.  Here commutators ``[x a^i x⁻¹,
b^j]`` of ring turns and a flip ``x`` (:func:`ring_commutators`: blocks of up
to three cells of each ring, which Santa's runs of one colour welcome) are
inserted at any point of the word, from the empty word on, where the moves
after them carry them to the cells that need them
(:func:`~permgroup.solver.insertion.insert_effects`, at hundreds of points of
the word: the more points, the more setups come for free).  On Santa's
globe_3/33 and globe_6/8 this left a few cells of 258 and 93 wrong, and the
rows' words 16 % and 22 % shorter than the generic solver's alone.  Those
commutators fix two or three cells for eight to ten moves even on a scrambled
globe, where a flip or a turn puts several home: the word they go in starts
with the beam above over flips and turns (:func:`flip_prefixes`), cut where a
cell starts to cost it more than the insertions pay (on Santa's globe_3/33
rows 388-390 the words were 7.5 % shorter, on one row of each of globe_6/4,
globe_6/8 and globe_6/10 10-30 %); while time is left the insertions run
again after cuts at other costs of a cell, then after those of beams of
other widths, and the shortest word is kept (one that leaves cells wrong
weighed by its length once the generic solver has finished it, where it may
come out shortest).
Beside those commutators go :func:`flip_pairs` ``x a^i x⁻¹ y a^-i y⁻¹`` of
two flips close to each other, six cells for six moves (Santa's globe_3/33
row 388: 1,184 -> 892 moves), and :func:`flip_words`, cheaper words of few
cells of a ring and its mirror (four cells for six moves, 3-cycles for eight)
and of four flips (globe_1/16: six cells for four moves).

>>> import numpy as np
>>> # two rings of six cells sharing cells 0 and 3 of the first
>>> a = np.array([5, 0, 1, 2, 3, 4, 6, 7, 8, 9])
>>> b = np.array([9, 1, 2, 6, 4, 5, 0, 7, 3, 8])
>>> moves = {"a": a, "-a": np.argsort(a), "b": b, "-b": np.argsort(b)}
>>> rings_of(moves) is not None
True
>>> goal = np.array([2, 0, 0, 2, 0, 0, 1, 1, 1, 1]); start = goal[b][np.argsort(a)]
>>> int(np.count_nonzero(start != goal))
6
>>> word, state = opening(moves, start, goal, min_cells=0)
>>> after = start
>>> for name in word:
...     after = after[moves[name]]
>>> bool((after == state).all()), int(np.count_nonzero(state != goal))
(True, 0)
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import chain, islice, zip_longest

import numpy as np

from permgroup.budget import Budget
from permgroup.moves import Letter, MoveSet
from permgroup.perm_arrays import invert
from permgroup.solver.beam import beam

#: states kept a level
WIDTH = 10
#: weight of a state's score against the moves spent reaching it
LAMBDA = 6.0
#: the largest turn of each ring in a macro of two turns (a ring of a hundred
#: cells: 25 made the beam twice as fast as 50, for as many pieces sorted)
PAIR_TURN = 25
#: the largest turn inside a commutator
COMMUTATOR_TURN = 2
#: weight of a wrong cell where rings meet (other cells: 1)
SHARED_WEIGHT = 0.0
#: puzzles of fewer cells are left to the exact methods
MIN_CELLS = 40
#: ... and puzzles of more to the generic solver alone.  On Santa's wreath_100/100
#: (198 cells) the word through the opening was 1,137 moves (60 s, load 2.5)
#: against 2,307 for the generic solver alone; at a load of 9 it was once longer
#: (3,774 against 3,139), which the solver alone tried after it, while time
#: allows, makes good (:func:`permgroup.solver.find_word`)
MAX_CELLS = 300
#: entries of the macros' gather arrays at most (8 bytes each)
MAX_ENTRIES = 10_000_000
#: ... and of a globe's (4 bytes each: Santa's globe_3/33 has 34,646 macros of
#: 264 cells, globe_8/25 44,389 of 450, the last few turns left out)
FLIP_MACRO_ENTRIES = 20_000_000
#: the share of the time left the beam may take
BEAM_SHARE = 0.3
#: the share of the time left the insertions may take (the generic solver
#: finishes the few cells they leave)
INSERT_SHARE = 0.6
#: ... and on a puzzle whose rings meet through other moves and whose goal's
#: colours look alike (two cells or more a colour on average), where the
#: insertions after more cuts (of wider beams: :data:`PREFIX_WIDTHS`) keep
#: shortening the word: Santa's globe_1/16, globe_6/8 and globe_6/10 rows, 3,319
#: -> 3,283 moves over 15 against 60 % (60 s a row, load 3.3-3.7, one run
#: after the other; the generic solver alone, which ran after them in the time
#: left, no longer does there)
FLIP_INSERT_SHARE = 0.85
#: ... on puzzles of at most this many cells: on Santa's globe_8/25 (450 cells)
#: the insertions of turns up to 3 left 44 cells wrong at the end of their share
#: (60 s a row, at a load of 5), and the word was longer than the generic
#: solver's alone (1,997 moves against 1,862); of turns up to 2 after the flip
#: prefix, 6 and 8 on rows 396 and 397, and the words were 1,830 and 1,874
#: moves against 2,399 and 2,365 (load 3.9)
MAX_INSERT_CELLS = 500
#: ... and at least this many: Santa's smallest globes (globe_1/8, globe_3/4, 32
#: cells; globe_2/6, 36) take them too, their rows of colours 2,976 -> 2,645
#: moves over 30 rows (60 s a row, load 3.6-4.1, side by side; globe_3/4 101.2
#: -> 84.1 a row; before, the generic solver alone took them); wreaths take
#: the beam and the insertions from there on too
MIN_INSERT_CELLS = 30
#: ... and where the goal's colours do not look alike (each shown by fewer than
#: two cells on average, as distinct labels), at most this many: Santa's
#: globe_1/8 and globe_3/4 rows of distinct labels (32 cells) 1,239 -> 1,119
#: moves over 10 (globe_3/4 596 -> 481), fresh globe_4/7 rows (70 cells)
#: 887 -> 822 over 4 (its 2 rows of colours as they were), globe_1/16 (64)
#: 1,061 both times (60 s a row, load 3.7-4.4, side by side); globe_3/33's
#: (264) were longer then (rows 391 and 395: 3,923 moves against 3,698), but
#: with the 3-cycles of :func:`flip_words` and the prefixes' parities made
#: right (:func:`parities_made_right`) 4,050 -> 2,613 (load 7-10, side by side)
DISTINCT_INSERT_CELLS = 300
#: the largest turn of each ring in the commutators inserted on a puzzle whose
#: rings meet through other moves (:func:`ring_commutators`) ...
FLIP_TURN = 3
#: ... so that the commutators times the cells stay within this (Santa's
#: globe_3/33: 9,504 commutators of turns up to 3; globe_8/25: 6,400 of turns
#: up to 2, 14,400 of turns up to 3)
EFFECT_ENTRIES = 3_000_000
#: the flips paired in :func:`flip_pairs`: each with those this many places
#: either side (Santa's globe_6/8 row 378: 1, 2, 3 and 5 gave 274-307,
#: 250-289, 271-297 and 263-289 moves after four cuts, no clear winner)
FLIP_REACH = 2
#: ... their turns as large as keeps their number times the cells within this
#: (Santa's globe_8/25: 10,800 words of turns up to 3, 450 cells)
FLIP_PAIR_ENTRIES = 6_000_000
#: the share of the insertions' time left the beam over flips and turns before them may take
PREFIX_SHARE = 0.2
#: the widths of the beams over flips and turns, each built once the cuts of
#: those before it are tried (Santa's globe_6/8 row 378: the shortest words
#: after the cuts of beams of widths 10, 30 and 100, 260, 245 and 247 moves);
#: the words after the cuts of one path spread over tens of moves, and a
#: small globe's tries took a few seconds each with time left over: more
#: widths, more cuts to try (Santa's globe_1/16 row 348: 23 cuts tried in 38
#: s, the shortest word 179 moves; 34 in 48 s, 172)
PREFIX_WIDTHS = (WIDTH, 30, 100, 3, 20, 50, 200, 5, 300)
#: moves the insertions spend to put a cell home, about (Santa's globe_3/33:
#: 1,276 moves for 246 cells on row 388; globe_6/8: 356 for 81 on row 378)
INSERT_CELL_COST = 5.0
#: the costs of a cell where the flip prefix is cut for the insertions after it,
#: tried in turn while time is left (0: no prefix)
CUT_COSTS = (INSERT_CELL_COST, 3.0, 8.0, 0.0, 2.0, 12.0)
#: the points of the word where they are scored at most ...
INSERT_POINTS = 600
#: ... and so that the points times the commutators stay within this
INSERT_ENTRIES = 4_000_000
#: moves a cell left wrong by the insertions costs the generic solver's finish
#: at least, about (Santa's globe_6/8 row 379: 2 cells 12-14 moves, 4 cells
#: 22-24, 8 cells 52; 16 cells 6, a ring turned): words of more moves than
#: the best finished one's less this a cell left are not finished
FINISH_BOUND = 3.0

#: a finish of a word from the start (letters), ``None`` when none is found in time
Finish = Callable[[list[Letter]], "list[Letter] | None"]


def ring_classes(ms: MoveSet) -> list[int]:
    """The classes of ``ms`` whose move turns one ring: a single cycle of at
    least three cells (its support is as long as its order).

    >>> t = np.array([1, 2, 0, 3]); x = np.array([0, 1, 3, 2])
    >>> ring_classes(MoveSet.from_moves({"t": t, "x": x}))
    [0]
    """
    return [c for c, o in enumerate(ms.orders) if o >= 3 and len(ms.support[c]) == o]


def rings_of(moves: Mapping[str, np.ndarray]) -> dict[str, np.ndarray] | None:
    """The rings of a puzzle all of whose moves turn one ring: move name (one
    of a move and its inverse) -> its cells; ``None`` when some move is not a
    single cycle, or fewer than two rings share a cell."""
    ms = MoveSet.from_moves(moves)
    rings = ring_classes(ms)
    if len(rings) < 2 or len(rings) < len(ms.classes) or not _rings_meet(ms, rings):
        return None
    return {ms.classes[c]: ms.support[c] for c in rings}


def _rings_meet(ms: MoveSet, rings: Sequence[int]) -> bool:
    """Whether two of the ring classes ``rings`` share a cell."""
    cells = np.concatenate([ms.support[c] for c in rings])
    return len(np.unique(cells)) < len(cells)


def macros(ms: MoveSet, rings: Sequence[int]) -> tuple[list[list[Letter]], np.ndarray]:
    """The macros (each a word of letters of the ring classes ``rings``) and
    their gather arrays."""
    n = ms.degree
    turns = {r: [e for e in range(-(ms.orders[r] // 2), ms.orders[r] // 2 + 1) if e]
             for r in rings}

    def turn(r: int, e: int) -> Letter:
        return (r, e % ms.orders[r])

    def power(r: int, e: int) -> np.ndarray:
        return ms.powers[r][e % ms.orders[r]]

    words, perms = [], []
    for a in rings:
        for s in turns[a]:
            words.append([turn(a, s)])
            perms.append(power(a, s))
            for b in rings:
                if len(perms) * n >= MAX_ENTRIES:
                    break
                if b != a and abs(s) <= PAIR_TURN:
                    for t in turns[b]:
                        if abs(t) > PAIR_TURN:
                            continue
                        words.append([turn(a, s), turn(b, t)])
                        perms.append(power(a, s)[power(b, t)])
    comms = []
    for a in rings:
        for b in rings:
            if a == b:
                continue
            for i in range(-COMMUTATOR_TURN, COMMUTATOR_TURN + 1):
                for j in range(-COMMUTATOR_TURN, COMMUTATOR_TURN + 1):
                    if i and j:
                        w = [turn(a, i), turn(b, j), turn(a, -i), turn(b, -j)]
                        comms.append((w, ms.perm(w)))
    for z in rings:
        for s in [0] + turns[z]:
            for w, p in comms:
                if len(perms) * n >= MAX_ENTRIES:
                    break
                words.append(([turn(z, s)] if s else []) + w)
                perms.append(power(z, s)[p] if s else p)
    return words, np.array(perms)


def flip_macros(ms: MoveSet, rings: Sequence[int]) -> tuple[list[list[Letter]], np.ndarray]:
    """The macros of a puzzle whose rings meet through other moves (a globe's
    flips): a move ``x`` of another class (or its inverse), a turn of one ring
    by any amount, that turn then ``x``, and that turn conjugated by ``x``
    (``x a^s x⁻¹``: on a globe, a turn of the ring made of half of ``a`` and
    half of its mirror); with their gather arrays (as many as
    :data:`FLIP_MACRO_ENTRIES` allows).

    >>> a = np.array([1, 2, 3, 0, 4, 5, 6, 7]); b = np.array([0, 1, 2, 3, 5, 6, 7, 4])
    >>> x = np.array([4, 5, 2, 3, 0, 1, 6, 7])   # two rings of four cells; x swaps two of each
    >>> ms = MoveSet.from_moves({"a": a, "-a": np.argsort(a), "b": b, "-b": np.argsort(b), "x": x})
    >>> words, perms = flip_macros(ms, ring_classes(ms))
    >>> len(words), ms.names(words[-1]), bool((perms[-1] == ms.perm(words[-1])).all())
    (19, ['x', 'b', 'b', 'x'], True)
    """
    others = [(c, e) for c in range(len(ms.classes)) if c not in set(rings)
              for e in sorted({1, ms.orders[c] - 1})]
    words: list[list[Letter]] = [[x] for x in others]
    for a in rings:
        for s in range(-((ms.orders[a] - 1) // 2), ms.orders[a] // 2 + 1):
            if s and (len(words) + 2 * len(others)) * ms.degree <= FLIP_MACRO_ENTRIES:
                turn = (a, s % ms.orders[a])
                words += [[turn]] + [[turn, x] for x in others]
                words += [[x, turn, *ms.inverse([x])] for x in others]
    return words, np.array([ms.perm(w) for w in words], dtype=np.int32)


def ring_commutators(ms: MoveSet, rings: Sequence[int], turn: int = FLIP_TURN
                     ) -> list[list[Letter]]:
    """The commutators ``[x a^i x⁻¹, b^j]`` of turns of two rings ``a``, ``b``
    (``0 < |i|, |j| <= turn``), ``x`` nothing or a move of a class that is not a
    ring, one word for each permutation other than the identity.  On Santa's
    globes, where rings meet only through the flips ``x``, ``x a^i x⁻¹`` turns
    a ring made of half of one ring and half of its mirror, and these move
    ``2(|i| + |j|)`` cells for ``4 + 2(|i| + |j|)`` moves (blocks of cells of
    one colour move together); on a wreath they are the commutators of its
    two rings.

    >>> a = np.array([1, 2, 3, 0, 4, 5, 6, 7]); b = np.array([0, 1, 2, 3, 5, 6, 7, 4])
    >>> x = np.array([4, 5, 2, 3, 0, 1, 6, 7])   # two rings of four cells; x swaps two of each
    >>> ms = MoveSet.from_moves({"a": a, "-a": np.argsort(a), "b": b, "-b": np.argsort(b), "x": x})
    >>> words = ring_commutators(ms, ring_classes(ms), 1)
    >>> len(words), ms.names(words[-1]), np.flatnonzero(ms.perm(words[-1]) != np.arange(8)).tolist()
    (16, ['x', 'b', 'x', 'b', 'x', '-b', 'x', '-b'], [0, 4, 6, 7])
    """
    others = [c for c in range(len(ms.classes)) if c not in set(rings)]
    setups: list[list[Letter]] = [[]]
    for c in others:
        setups += [[(c, 1)]] + ([[(c, ms.orders[c] - 1)]] if ms.orders[c] > 2 else [])
    identity = np.arange(ms.degree, dtype=np.int32)
    steps = [e for e in range(-turn, turn + 1) if e]
    words, seen = [], set()
    for x in setups:
        px, back = ms.perm(x), ms.inverse(x)
        px_inverse = invert(px)
        for a in rings:
            for i in steps:
                inner = px[ms.powers[a][i % ms.orders[a]]][px_inverse]
                inner_inverse = invert(inner)
                for b in rings:
                    for j in steps:
                        pb = ms.powers[b][j % ms.orders[b]]
                        p = inner[pb][inner_inverse][invert(pb)]
                        key = p.tobytes()
                        if key not in seen and not np.array_equal(p, identity):
                            seen.add(key)
                            # unreduced: a setup commuting with a turn only
                            # makes a word of the same permutation as one before
                            words.append(x + [(a, i % ms.orders[a])] + back + [(b, j % ms.orders[b])]
                                         + x + [(a, -i % ms.orders[a])] + back
                                         + [(b, -j % ms.orders[b])])
    return words


def flip_pairs(ms: MoveSet, rings: Sequence[int], turn: int = FLIP_TURN,
               reach: int = FLIP_REACH) -> list[list[Letter]]:
    """Words ``x a^i x⁻¹ y a^-i y⁻¹`` of a ring ``a`` (``0 < |i| <= turn``) and
    two moves ``x``, ``y`` of classes that are not rings, ``y`` one of the
    ``reach`` classes either side of ``x``'s in the puzzle's order.  On
    Santa's globes, ``x a x⁻¹`` and ``y a y⁻¹`` turn two rings made of halves
    that share all but a few cells where the flips ``x``, ``y`` are next to
    each other: what one turns forward the other turns back, and the word moves
    ``6 + 2(|i| - 1)`` cells for ``4 + 2|i|`` moves (``f0 r0 f0 f1 -r0 f1``:
    six), a block of one colour together, against four for eight moves
    for :func:`ring_commutators`.

    >>> a = np.array([1, 2, 3, 0, 4, 5, 6, 7]); b = np.array([0, 1, 2, 3, 5, 6, 7, 4])
    >>> x = np.array([4, 5, 2, 3, 0, 1, 6, 7]); y = np.array([0, 5, 6, 3, 4, 1, 2, 7])
    >>> ms = MoveSet.from_moves({"a": a, "-a": np.argsort(a), "b": b, "-b": np.argsort(b),
    ...                          "x": x, "y": y})
    >>> words = flip_pairs(ms, ring_classes(ms), 1, 1)
    >>> len(words), ms.names(words[0]), int(np.count_nonzero(ms.perm(words[0]) != np.arange(8)))
    (8, ['x', '-a', 'x', 'y', 'a', 'y'], 6)
    """
    others = [c for c in range(len(ms.classes)) if c not in set(rings)]
    identity = np.arange(ms.degree, dtype=np.int32)
    words, seen = [], set()
    for k, c in enumerate(others):
        x = [(c, 1)]
        for d in range(1, min(reach, len(others) - 1) + 1):
            for y in ([(others[(k + d) % len(others)], 1)], [(others[k - d], 1)]):
                for a in rings:
                    for i in (e for e in range(-turn, turn + 1) if e):
                        w = x + [(a, i % ms.orders[a])] + ms.inverse(x) + y \
                            + [(a, -i % ms.orders[a])] + ms.inverse(y)
                        p = ms.perm(w)
                        key = p.tobytes()
                        if key not in seen and not np.array_equal(p, identity):
                            seen.add(key)
                            words.append(w)
    return words


def flip_words(ms: MoveSet, rings: Sequence[int], turn: int = FLIP_TURN,
               reach: int = FLIP_REACH) -> list[list[Letter]]:
    """Cheap words of few cells beside :func:`ring_commutators`: ``a^-i x
    b^-j a^i x b^j`` of two rings ``a``, ``b`` (``0 < |i|, |j| <= turn``) and
    a move ``x`` of a class that is not a ring, and words ``x y z w`` of four
    such moves, ``y``, ``z``, ``w`` among the ``reach`` classes either side of
    ``x``'s, and 3-cycles ``a^-i x b^-j y b^j y a^i x`` (``|i| = |j| = 1``,
    ``y`` next to ``x``); each kept where it moves at most two cells more than
    it costs.
    On Santa's globes, with ``a`` and ``b`` a ring and its mirror, the first
    move ``4|i|`` cells for ``2 + 4|i|`` moves (four cells for six, where a
    commutator takes eight); on globe_1/16, ``f11 f12 f13 f12`` moves six
    cells (found by meeting the words of three moves with themselves).

    >>> a = np.array([1, 2, 3, 0, 4, 5, 6, 7]); b = np.array([0, 1, 2, 3, 5, 6, 7, 4])
    >>> x = np.array([4, 5, 2, 3, 0, 1, 6, 7])   # two rings of four cells; x swaps two of each
    >>> ms = MoveSet.from_moves({"a": a, "-a": np.argsort(a), "b": b, "-b": np.argsort(b), "x": x})
    >>> words = flip_words(ms, ring_classes(ms), 1, 1)
    >>> ms.names(words[0]), np.flatnonzero(ms.perm(words[0]) != np.arange(8)).tolist()
    (['a', 'x', 'b', '-a', 'x', '-b'], [0, 1, 2, 4, 5, 6])
    """
    others = [c for c in range(len(ms.classes)) if c not in set(rings)]
    identity = np.arange(ms.degree, dtype=np.int32)
    orders = ms.orders
    candidates: list[list[Letter]] = []

    def few(w: list[Letter], perm: np.ndarray | None = None) -> bool:
        perm = ms.perm(w) if perm is None else perm
        return 0 < int(np.count_nonzero(perm != identity)) <= ms.cost(w) + 2

    def mirrored(a: int, b: int, x: Letter, i: int, j: int) -> list[Letter]:
        return [(a, -i % orders[a]), x, (b, -j % orders[b]), (a, i % orders[a]), x,
                (b, j % orders[b])]

    mirrors = set()
    for c in others:
        for a in rings:
            # the other turns only for the rings whose turns by one make few
            # cells (a ring and its mirror): the others move most of both
            mirrors.update((a, b) for b in rings if b != a and few(mirrored(a, b, (c, 1), 1, 1)))
    candidates += [mirrored(a, b, (c, 1), i, j) for c in others for a, b in sorted(mirrors)
                   for i in range(-turn, turn + 1) if i for j in range(-turn, turn + 1) if j]
    for k, c in enumerate(others):
        near = [others[(k + d) % len(others)] for d in range(-reach, reach + 1)]
        candidates += [[(c, 1), (y, 1), (z, 1), (w, 1)] for y in near for z in near for w in near
                       if y != c and z != y and w != z]
        # a^-i x b^-j y b^j y a^i x, x and y next to each other, a and b a
        # ring and its mirror: on Santa's globes a 3-cycle for eight moves
        # (found by meeting the words of four moves with themselves), where the
        # insertions' other words leave cells the generic solver's finish
        # paid 6-7 moves each
        candidates += [[(a, -i % orders[a]), (c, 1), (b, -j % orders[b]), (y, 1),
                        (b, j % orders[b]), (y, 1), (a, i % orders[a]), (c, 1)]
                       for y in (near[reach - 1], near[reach + 1]) if y != c
                       for a, b in sorted(mirrors) for i in (-1, 1) for j in (-1, 1)]
    words, seen = [], set()
    for w in candidates:
        perm = ms.perm(w)
        key = perm.tobytes()
        if key not in seen and few(w, perm):
            seen.add(key)
            words.append(w)
    return words


#: the commutators of the last puzzle as effects to insert, built once per process
_EFFECTS: dict = {}


def inserted_opening(ms: MoveSet, rings: Sequence[int], start: np.ndarray, goal: np.ndarray,
                     word: Sequence[Letter] = (), *, mismatches: int = 0,
                     budget: Budget | None = None, turn: int = FLIP_TURN) -> list[Letter]:
    """A word taking ``start`` near ``goal`` made of :func:`ring_commutators`
    inserted in ``word`` (by default the empty word) wherever the moves after
    them carry them to the cells that need them
    (:func:`~permgroup.solver.insertion.insert_effects`), at up to
    :data:`INSERT_POINTS` points of the word; the commutators' turns are
    ``turn`` at most, less where they would pass :data:`EFFECT_ENTRIES`.  On
    a puzzle whose rings meet through other moves :func:`flip_pairs` go
    beside them, and the commutators' turns are as large as leaves
    :data:`INSERT_POINTS` points within :data:`INSERT_ENTRIES` (on Santa's
    globe_3/33 and globe_8/25, one)."""
    from permgroup.solver.insertion import Effects, insert_effects

    key = f"{ms.fingerprint()}-{turn}"
    if key not in _EFFECTS:
        flips = len(ms.classes) - len(rings)
        pairs: list[list[Letter]] = []
        if flips:
            # the flips' pairs beside them: Santa's rows 378 (globe_6/8), 388
            # (globe_3/33) and 396 (globe_8/25) 320 -> 260, 1,184 -> 892 and
            # 1,768 -> 1,316 moves (60 s a row, load 3-4, one after the other)
            fits = [t for t in range(1, turn + 1) if
                    flips * 4 * FLIP_REACH * len(rings) * t * ms.degree <= FLIP_PAIR_ENTRIES]
            pairs = flip_pairs(ms, rings, fits[-1] if fits else 1)
            pairs += flip_words(ms, rings, fits[-1] if fits else 1)
        words = ring_commutators(ms, rings, 1)
        # those of turns up to t are about t * t times as many; beside flip
        # pairs, as many as leave INSERT_POINTS points of the word scored
        # (fewer commutators, more points in the same time: Santa's globe_3/33
        # row 388, the insertions after the first cut, 892 moves in 29.6 s with
        # turns up to 3, 852 in 19.6 s up to 2, 842 in 12.0 s up to 1; row 396
        # of globe_8/25 1,244 moves and 7 cells left against 1,238 and none, up
        # to 2 and 1; load 4)
        fits = [t for t in range(2, turn + 1)
                if len(words) * t * t * ms.degree <= EFFECT_ENTRIES and
                (not flips or (len(words) * t * t + len(pairs)) * INSERT_POINTS <= INSERT_ENTRIES)]
        if fits:
            words = ring_commutators(ms, rings, fits[-1])
        words = words + pairs
        _EFFECTS.clear()  # one puzzle at a time
        _EFFECTS[key] = Effects.of(ms, words) if words else None
    effects = _EFFECTS[key]
    if effects is None:
        return list(word)
    points = int(min(INSERT_POINTS, max(48, INSERT_ENTRIES // len(effects.cost))))
    return insert_effects(ms, effects, start, goal, word, mismatches=mismatches,
                          budget=budget, anchors=points)


def flip_prefixes(ms: MoveSet, rings: Sequence[int], start: np.ndarray, goal: np.ndarray,
                  costs: Sequence[float] = (INSERT_CELL_COST,), *,
                  budget: Budget | None = None,
                  widths: Sequence[int] = PREFIX_WIDTHS) -> Iterator[list[Letter]]:
    """Starts of a word for a puzzle whose rings meet through flips: the beam
    search of the module docstring over :func:`flip_macros`, its path cut
    where its moves plus ``c`` times the cells left wrong are least, for each
    ``c`` of ``costs`` (past there a cell costs it more than ``c``: about
    :data:`INSERT_CELL_COST` is what the insertions pay); then those of the
    beams of the other ``widths`` in turn, each built when its first cut is
    asked for (within :data:`PREFIX_SHARE` of the time ``budget`` has left
    then); then the other points of each path (:func:`path_cuts`), the paths
    in turn.  Each cut once."""
    words, perms = flip_macros(ms, rings)
    seen: set[tuple[Letter, ...]] = set()
    rests = []
    for width in widths:
        path = beam_path(ms, words, perms, start, goal, width=width,
                         budget=None if budget is None else budget.share(PREFIX_SHARE))
        points, firsts = _cut_points(ms, words, perms, path, start, goal, costs)
        cuts = [[x for i in path[:cut] for x in words[i]] for cut in points]
        rests.append(cuts[firsts:])
        for cut in cuts[:firsts]:
            if tuple(cut) not in seen:
                seen.add(tuple(cut))
                yield cut
    for cut in chain.from_iterable(zip_longest(*rests)):
        if cut is not None and tuple(cut) not in seen:
            seen.add(tuple(cut))
            yield cut


def path_cuts(ms: MoveSet, words: Sequence[Sequence[Letter]], perms: np.ndarray,
              path: Sequence[int], start: np.ndarray, goal: np.ndarray,
              costs: Sequence[float]) -> list[list[Letter]]:
    """The words of the first macros of ``path`` (of :func:`beam_path`) up to
    where their moves plus ``c`` times the cells left wrong are least, for
    each ``c`` of ``costs``; then those up to each other point of the path,
    the least moves plus :data:`INSERT_CELL_COST` times the cells left wrong
    first.  Each cut once, in that order."""
    points, _ = _cut_points(ms, words, perms, path, start, goal, costs)
    return [[x for i in path[:cut] for x in words[i]] for cut in points]


def _cut_points(ms: MoveSet, words: Sequence[Sequence[Letter]], perms: np.ndarray,
                path: Sequence[int], start: np.ndarray, goal: np.ndarray,
                costs: Sequence[float]) -> tuple[list[int], int]:
    """The points of :func:`path_cuts` (how many macros of ``path`` each cut
    keeps), in its order, and how many of them come first from ``costs``."""
    spent, wrong, state = [0.0], [int(np.count_nonzero(start != goal))], start
    for i in path:
        state = state[perms[i]]
        spent.append(spent[-1] + ms.cost(words[i]))
        wrong.append(int(np.count_nonzero(state != goal)))
    spent_, wrong_ = np.array(spent), np.array(wrong)
    cuts = dict.fromkeys(int(np.argmin(spent_ + c * wrong_)) for c in costs)
    firsts = len(cuts)
    # the insertions after cuts close to each other differ by tens of moves
    # (Santa's wreath_100/100 row 337: 576 moves after 2 macros, 647 after 7,
    # 574 after 58, 724 after 112): the more tried, the shorter
    cuts.update(dict.fromkeys(
        np.argsort(spent_ + INSERT_CELL_COST * wrong_, kind="stable").tolist()))
    return list(cuts), firsts


def best_insertions(ms: MoveSet, rings: Sequence[int], start: np.ndarray, goal: np.ndarray,
                    prefixes: Iterable[Sequence[Letter]], *, mismatches: int = 0,
                    budget: Budget | None = None, turn: int = FLIP_TURN,
                    finish: Finish | None = None) -> list[Letter]:
    """The shortest of :func:`inserted_opening` after each of ``prefixes``, in
    turn while time is left for one more (without a budget: after the first
    only), a cell left wrong counting :data:`INSERT_CELL_COST` moves; with
    ``finish``, a word that leaves cells wrong and may come out shortest
    (its moves plus :data:`FINISH_BOUND` a cell left are fewer than the best
    word's) is finished by it, and counted at its finished length."""
    best: tuple[float, list[Letter]] | None = None
    for prefix in prefixes if budget is not None else islice(prefixes, 1):
        began = time.monotonic()
        word = inserted_opening(ms, rings, start, goal, prefix, mismatches=mismatches,
                                budget=budget, turn=turn)
        left = max(0, int(np.count_nonzero(ms.apply(start, word) != goal)) - mismatches)
        value = ms.cost(word) + INSERT_CELL_COST * left
        if left and finish is not None and \
                (best is None or ms.cost(word) + FINISH_BOUND * left < best[0]):
            rest = finish(word)
            if rest is not None:
                word = word + rest
                value = ms.cost(word)
        if best is None or value < best[0]:
            best = (value, word)
        if budget is None or budget.left() < 2 * (time.monotonic() - began):
            break
    return [] if best is None else best[1]


def opening(moves: Mapping[str, np.ndarray], start: np.ndarray, goal: np.ndarray, *,
            budget: Budget | None = None, width: int = WIDTH, min_cells: int = MIN_CELLS,
            max_cells: int = MAX_CELLS, mismatches: int = 0,
            prepare: Callable[[], None] | None = None,
            finish: Callable[[np.ndarray], list[str] | None] | None = None
            ) -> tuple[list[str], np.ndarray] | None:
    """Names of ``moves`` bringing most pieces of a puzzle of rings home, and the
    state they reach (within ``budget``; none: until nothing gains); ``None``
    when the puzzle is not one of rings (fewer than two moves turn one ring
    each), or has fewer than ``min_cells`` cells (:data:`MIN_INSERT_CELLS`
    where that is less).  A puzzle of rings sharing cells and nothing else (of
    at most ``max_cells`` cells) takes the beam of the module docstring, then
    :func:`best_insertions` of the commutators of turns by any amount after
    cuts of the beam's path; one whose rings meet only through other moves (a
    globe's flips; of :data:`MIN_INSERT_CELLS` to :data:`MAX_INSERT_CELLS`
    cells, its goal's colours shown by two cells or more on average, or of
    at most :data:`DISTINCT_INSERT_CELLS`) takes :func:`inserted_opening`;
    there ``finish`` (move names from a state to the goal, ``None`` when it
    finds none) finishes the candidate words that leave cells wrong, which
    are weighed by their finished length (:func:`best_insertions`), and the
    word returned may reach the goal.
    ``prepare``: called once a globe's opening applies, before it takes its
    share of the time left (the caller's work after it, done first: its share
    is then of the time truly left; not on a wreath: on Santa's wreath_100/100
    the first line, 6.0 s and 964 moves at a 10 s limit, took 18.0 s and
    3,344 moves with it, load 6)."""
    ms = MoveSet.from_moves(moves)
    rings = ring_classes(ms)
    start, goal = np.asarray(start), np.asarray(goal)
    if len(rings) < 2:
        return None
    if len(rings) < len(ms.classes):
        # look-alike cells are what makes a commutator inserted anywhere likely
        # to gain: on Santa's globe_3/33 rows of distinct labels the words were
        # longer (row 391: 2,281 moves against 2,036, the insertions stopping
        # with 51 pieces wrong that cost the generic solver 913 moves); on
        # small globes they are shorter all the same (DISTINCT_INSERT_CELLS)
        alike = 2 * len(np.unique(goal)) <= len(goal)
        if not MIN_INSERT_CELLS <= len(start) <= MAX_INSERT_CELLS or \
                (not alike and len(start) > DISTINCT_INSERT_CELLS):
            return None
        # more time where the colours look alike; on distinct labels (Santa's
        # globe_3/4 row 372) the generic solver alone, after the insertions in
        # the time left, gave 100 moves against their 120
        if prepare is not None:
            prepare()
        budget = None if budget is None else \
            budget.share(FLIP_INSERT_SHARE if alike else INSERT_SHARE)
        # flips and turns that each put several cells home first: the
        # insertions' commutators fix two or three cells for eight to ten moves
        # from the first (Santa's globe_3/33 row 388), these one for two; the
        # cuts of every width on distinct labels too (Santa's rows 343 344 346
        # 368 370 372 of globe_1/8 and globe_3/4, 505 -> 430 moves, 8 s a row ->
        # 25; 391 and 395 of globe_3/33, 2,560 -> 2,330 a pair, load 7-11)
        prefixes = flip_prefixes(ms, rings, start, goal, CUT_COSTS, budget=budget)
        # the insertions after each cut while time is left for one more (a
        # small globe's take seconds: on Santa's globe_6/8 and globe_6/10 rows the
        # shortest of four cuts was 5 % shorter than the first's)
        if not alike:
            prefixes = parities_made_right(ms, start, goal, prefixes)
        word = best_insertions(ms, rings, start, goal, prefixes, mismatches=mismatches,
                               budget=budget, finish=_letters_finish(ms, start, finish))
        return ms.names(word), ms.apply(start, word)
    # every move turns a ring here (the branch above took the others)
    # with the insertions after it, from MIN_INSERT_CELLS on: fresh rows of
    # wreath_16/16 (30 cells) of colours, 635 -> 584 moves over 4 (60 s a row,
    # load 3.3, side by side)
    if not _rings_meet(ms, rings) or \
            not min(min_cells, MIN_INSERT_CELLS) <= len(start) <= max_cells:
        return None
    # commutators of turns by any amount (as many as EFFECT_ENTRIES allows: up
    # to 43 on the 100-cell wreath) inserted after cuts of the beam's path:
    # Santa's wreath_100/100 row 337 took 642 moves against 1,125 (the beam
    # left 33 cells wrong, which cost the generic solver 696 moves; the
    # insertions leave the 8 its wildcards allow), wreath_33/33 356 against
    # 437 over 3 rows, wreath_21/21 359 against 423 over 5 (60 s a row, load
    # 4.1-4.4, side by side); turns up to 3 after the whole beam stopped at 28
    # cells wrong on row 337.  On distinct labels too: fresh rows of
    # wreath_21/21 and wreath_33/33, 2,176 -> 1,657 moves over 4 (the 2 of
    # distinct labels, which took the beam alone before; load 4.7-5.5)
    if budget is not None:
        budget = budget.share(INSERT_SHARE)
    words, perms = macros(ms, rings)
    shared = np.zeros(len(start), dtype=np.int64)
    for r in rings:
        shared[ms.support[r]] += 1
    # a state is scored on the cells where no rings meet (the others weigh
    # SHARED_WEIGHT)
    path = beam_path(ms, words, perms, start, goal, np.where(shared < 2, 1.0, SHARED_WEIGHT),
                     width=width, budget=None if budget is None else budget.share(BEAM_SHARE))
    prefixes = path_cuts(ms, words, perms, path, start, goal, CUT_COSTS)
    word = best_insertions(ms, rings, start, goal, prefixes, mismatches=mismatches,
                           budget=budget, turn=max(ms.orders[r] for r in rings) // 2)
    return ms.names(word), ms.apply(start, word)


def parities_made_right(ms: MoveSet, start: np.ndarray, goal: np.ndarray,
                        prefixes: Iterable[list[Letter]]) -> Iterator[list[Letter]]:
    """Each of ``prefixes`` followed by the fewest single moves after which
    every orbit of distinct pieces has the goal's parity
    (:func:`~permgroup.solver.greedy.fix_parities`).  The insertions' words
    are commutators and words of even flips, which keep every parity: after
    a prefix of the wrong parity they stop with pieces wrong that only the
    generic solver's parity moves and 3-cycles put right (Santa's globe_3/33
    row 395: 25 cells left, 720 moves to finish them; 20 of the right
    parity, about 200).

    >>> t = np.array([1, 0, 2]); u = np.array([0, 2, 1])
    >>> ms = MoveSet.from_moves({"t": t, "u": u})
    >>> [ms.names(p) for p in parities_made_right(ms, np.array([1, 0, 2]), np.arange(3), [[]])]
    [['t']]
    """
    from permgroup.solver.greedy import fix_parities
    from permgroup.solver.pieces import Pieces, orbit_of_position

    pieces = Pieces.of(ms)
    position_orbit = orbit_of_position(ms)
    for prefix in prefixes:
        fix = fix_parities(ms, pieces, position_orbit, ms.apply(start, prefix), goal)
        yield ms.extend(prefix, fix) if fix else prefix


def _letters_finish(ms: MoveSet, start: np.ndarray,
                    finish: Callable[[np.ndarray], list[str] | None] | None) -> Finish | None:
    """``finish`` (move names from a state) as a :data:`Finish` of words of
    letters from ``start``."""
    if finish is None:
        return None

    def letters(word: list[Letter]) -> list[Letter] | None:
        names = finish(ms.apply(start, word))
        return None if names is None else ms.letters(names)

    return letters


def beam_path(ms: MoveSet, words: Sequence[Sequence[Letter]], perms: np.ndarray,
              start: np.ndarray, goal: np.ndarray, weight: np.ndarray | None = None, *,
              width: int = WIDTH, budget: Budget | None = None) -> list[int]:
    """The macros (indices of ``words``, whose gather arrays are ``perms``) of
    the beam search of the module docstring (:func:`permgroup.solver.beam.beam`)
    from ``start``: those reaching the state of least score (each wrong cell
    counting its ``weight``, by default 1), then fewest moves."""
    cost = np.array([ms.cost(w) for w in words], dtype=np.float64)
    weight = np.ones(len(start)) if weight is None else np.asarray(weight, dtype=np.float64)
    # the cells that count, and the states in the narrowest type that holds them
    counted = np.flatnonzero(weight > 0)
    small = np.int8 if min(start.min(), goal.min()) >= 0 and \
        max(start.max(), goal.max()) < 128 else np.int64
    if (weight[counted] == 1).all():
        # a cell that does not count shows a label no state has: always wrong, taken off
        absent = min(start.min(), goal.min()) - 1
        target = np.where(weight > 0, goal, absent).astype(small)
        left_out = len(start) - len(counted)

        def score(states: np.ndarray) -> np.ndarray:
            return (states != target).sum(axis=1) - left_out
    else:
        target, weight = goal[counted].astype(small), weight[counted]

        def score(states: np.ndarray) -> np.ndarray:
            return (states[:, counted] != target) @ weight

    # ties in the order the children come (as this beam was measured)
    _, best = beam(start.astype(small), perms, cost, score, width=width, weight=LAMBDA,
                   improving=True, cheaper_first=False, budget=budget)
    return best.path
