"""An opening for puzzles made of rings that share cells (Santa's wreaths).

When every move turns one ring (its permutation is a single cycle) and the
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
budget's end, and gives the best word and state it reached: the generic solver
finishes from there (:func:`permgroup.solver.find_word`).

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

from collections.abc import Mapping

import numpy as np

from permgroup.budget import Budget
from permgroup.perm_arrays import power as _power

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
#: ... and puzzles of more to the generic solver alone: on Santa's wreath_100/100
#: (198 cells) the opening sorted all but 33 cells in 8 s, but the generic
#: solver's word for those was longer, under load, than its word for the whole
#: (3,774 moves against 3,139 at a load of 9; 2,089 against 2,399 at a load of 3)
MAX_CELLS = 150
#: entries of the macros' gather arrays at most (8 bytes each)
MAX_ENTRIES = 10_000_000


def rings_of(moves: Mapping[str, np.ndarray]) -> dict[str, np.ndarray] | None:
    """The rings of a puzzle all of whose moves turn one ring: move name (one
    of a move and its inverse) -> its cells in the order a turn carries them;
    ``None`` when some move is not a single cycle, or fewer than two rings share
    a cell."""
    rings = {}
    for name, p in moves.items():
        p = np.asarray(p)
        if any(np.array_equal(np.argsort(p), np.asarray(moves[r])) for r in rings):
            continue
        moved = np.flatnonzero(p != np.arange(len(p)))
        if len(moved) < 3:
            return None
        inverse = np.argsort(p)
        order = [int(moved[0])]
        while len(order) < len(moved):
            nxt = int(inverse[order[-1]])
            if nxt == order[0]:
                return None  # more than one cycle
            order.append(nxt)
        if int(inverse[order[-1]]) != order[0]:
            return None
        rings[name] = np.array(order)
    if len(rings) < 2:
        return None
    cells = np.concatenate(list(rings.values()))
    if len(np.unique(cells)) == len(cells):
        return None  # no two rings meet
    return rings


def _inverse_name(moves: Mapping[str, np.ndarray], name: str) -> str | None:
    """The name of the move undoing ``name``, if the puzzle has one."""
    back = np.argsort(np.asarray(moves[name]))
    return next((m for m, p in moves.items() if np.array_equal(np.asarray(p), back)), None)


def macros(moves: Mapping[str, np.ndarray], rings: Mapping[str, np.ndarray]
           ) -> tuple[list[list[tuple[str, int]]], np.ndarray]:
    """The macros (each a list of (ring, turns)) and their gather arrays; a
    negative number of turns is made of the ring's inverse move, which the
    puzzle must have (else only turns forward)."""
    names = list(rings)
    n = len(np.asarray(moves[names[0]]))
    turns = {r: [e for e in range(-(len(c) // 2), len(c) // 2 + 1)
                 if e > 0 or (e < 0 and _inverse_name(moves, r) is not None)]
             for r, c in rings.items()}
    power = {(r, e): _power(np.asarray(moves[r]), e) for r in names for e in turns[r]}
    words, perms = [], []
    for a in names:
        for s in turns[a]:
            words.append([(a, s)])
            perms.append(power[a, s])
            for b in names:
                if len(perms) * n >= MAX_ENTRIES:
                    break
                if b != a and abs(s) <= PAIR_TURN:
                    for t in turns[b]:
                        if abs(t) > PAIR_TURN:
                            continue
                        words.append([(a, s), (b, t)])
                        perms.append(power[a, s][power[b, t]])
    comms = []
    for a in names:
        for b in names:
            if a == b:
                continue
            for i in range(-COMMUTATOR_TURN, COMMUTATOR_TURN + 1):
                for j in range(-COMMUTATOR_TURN, COMMUTATOR_TURN + 1):
                    if i in turns[a] and j in turns[b] and -i in turns[a] and -j in turns[b]:
                        comms.append(([(a, i), (b, j), (a, -i), (b, -j)],
                                      power[a, i][power[b, j]][power[a, -i]][power[b, -j]]))
    for z in names:
        for s in [0] + turns[z]:
            for w, p in comms:
                if len(perms) * n >= MAX_ENTRIES:
                    break
                words.append(([(z, s)] if s else []) + w)
                perms.append(power[z, s][p] if s else p)
    return words, np.array(perms)


def opening(moves: Mapping[str, np.ndarray], start: np.ndarray, goal: np.ndarray, *,
            budget: Budget | None = None, width: int = WIDTH, min_cells: int = MIN_CELLS,
            max_cells: int = MAX_CELLS) -> tuple[list[str], np.ndarray] | None:
    """Names of ``moves`` sorting most pieces of a puzzle of rings between its
    rings, and the state they reach (within ``budget``, none: until no macro gains); ``None`` when the puzzle
    is not one of rings sharing cells (:func:`rings_of`) or has fewer than
    ``min_cells`` or more than ``max_cells`` cells."""
    rings = rings_of(moves)
    start, goal = np.asarray(start), np.asarray(goal)
    if rings is None or not min_cells <= len(start) <= max_cells:
        return None
    words, perms = macros(moves, rings)
    cost = np.array([sum(abs(e) for _, e in w) for w in words], dtype=np.float64)
    shared = np.zeros(len(start), dtype=np.int64)
    for cells in rings.values():
        shared[cells] += 1
    # a state is scored on the cells where no rings meet (the others weigh
    # SHARED_WEIGHT): the macros' gathers restricted to those cells
    counted = np.flatnonzero(shared < 2) if SHARED_WEIGHT == 0 else np.arange(len(start))
    weight = np.where(shared < 2, 1.0, SHARED_WEIGHT)[counted]
    small = np.int8 if min(start.min(), goal.min()) >= 0 and \
        max(start.max(), goal.max()) < 128 else np.int64
    narrow = perms[:, counted].astype(np.int32 if len(start) >= 1 << 15 else np.int16)
    target = goal[counted].astype(small)

    def score(state: np.ndarray) -> float:
        return float(((state[counted] != target) * weight).sum())

    beam = [(start.astype(small), 0.0, ())]
    seen = {beam[0][0].tobytes()}
    best = beam[0]
    while budget is None or not budget.expired:
        children = []
        for k, (state, spent, path) in enumerate(beam):
            h = (state[narrow] != target).sum(1) if SHARED_WEIGHT == 0 else \
                (state[narrow] != target) @ weight
            value = np.where(h < score(state), spent + cost + LAMBDA * h, np.inf)
            top = np.argpartition(value, min(width, len(value) - 1))[:width]
            children += [(float(value[i]), k, int(i)) for i in top if np.isfinite(value[i])]
        if not children:
            break
        children.sort()
        beam_next = []
        for _, k, i in children:
            state, spent, path = beam[k]
            after = state[perms[i]]
            key = after.tobytes()
            if key in seen:
                continue
            seen.add(key)
            beam_next.append((after, spent + cost[i], path + (i,)))
            if len(beam_next) >= width:
                break
        if not beam_next:
            break
        beam = beam_next
        top = min(beam, key=lambda b: (score(b[0]), b[1]))
        if (score(top[0]), top[1]) < (score(best[0]), best[1]):
            best = top
    _, _, path = best
    back = {r: _inverse_name(moves, r) for r in rings}
    word = [name if e > 0 else back[name]
            for i in path for name, e in words[i] for _ in range(abs(e))]
    state = start
    for i in path:
        state = state[perms[i]]
    return word, state
