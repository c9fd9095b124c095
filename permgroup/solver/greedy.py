"""Solving with tools: parities first, then the tool that fixes the most stickers
per move, again and again.

The state and the goal are arrays of colours.  A tool's *gain* is how many more
positions match the goal after it; every tool's gain is computed at once from
padded arrays of its positions and sources.  Before the tools, the parities of
the piece orbits whose pieces are all different are made those of the goal with
the fewest single moves (a small search over GF(2): 3-cycles and twists never
change a parity).  When no tool gains, pairs of tools are tried (a twist that
needs two 3-cycles); a state that still does not move is given back as it is.

>>> import numpy as np
>>> from permgroup.solver.moves import MoveSet
>>> from permgroup.solver.pieces import Pieces
>>> from permgroup.solver.commutators import ToolTable, base_commutators
>>> t = np.array([1, 2, 0, 3, 4]); u = np.array([0, 1, 3, 4, 2])
>>> ms = MoveSet.from_moves({"t": t, "-t": np.argsort(t), "u": u, "-u": np.argsort(u)})
>>> table = ToolTable(ms, base_commutators(ms, Pieces.of(ms)))
>>> start, goal = np.array([0, 1, 2, 3, 4]), np.array([0, 1, 3, 2, 4])
>>> word, end = greedy(ms, table, start[ms.perm([(0, 1)])], goal)
"""
from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from permgroup.solver.commutators import ToolTable, cheap_letters
from permgroup.solver.moves import Letter, MoveSet
from permgroup.solver.pieces import Pieces


def fix_parities(ms: MoveSet, pieces: Pieces, position_orbit: np.ndarray, state: np.ndarray,
                 goal: np.ndarray, max_moves: int = 3) -> list[Letter] | None:
    """The fewest single letters (each class at most once) after which every
    orbit of distinct pieces has the goal's parity; ``None`` when no such set of
    up to ``max_moves`` letters exists."""
    now = pieces.piece_parities(state, goal, position_orbit)
    fixed = [k for k, p in enumerate(now) if p is not None]
    need = np.array([now[k] for k in fixed], dtype=np.uint8)
    if not need.any():
        return []
    matrix = pieces.parity_matrix()[:, fixed]
    odd = [c for c in range(len(ms.classes)) if matrix[c].any()]
    for size in range(1, max_moves + 1):
        best = None
        for combo in itertools.combinations(odd, size):
            if np.array_equal(np.bitwise_xor.reduce(matrix[list(combo)], axis=0), need):
                word = [(c, 1) for c in combo]
                if best is None or ms.cost(word) < ms.cost(best):
                    best = word
        if best is not None:
            return best
    return None


def greedy(ms: MoveSet, table: ToolTable, state: np.ndarray, goal: np.ndarray, *,
           mismatches: int = 0, deadline: float | None = None, pieces: Pieces | None = None,
           position_orbit: np.ndarray | None = None) -> tuple[list[Letter], np.ndarray]:
    """Single moves and tools applied while one gains (the best gain per move
    first); the parities made right when the tools take over (after that, only
    single moves that keep them); then pairs of tools, then the table grown by a
    level of conjugates around the wrong positions.  The word and the state
    reached."""
    word: list[Letter] = []
    letters = cheap_letters(ms, 1)
    singles = cheap_letters(ms, max(ms.orders) // 2)
    single_perms = np.array([ms.powers[c][e] for c, e in singles])
    single_cost = np.array([ms.letter_cost(x) for x in singles], dtype=np.float64)
    allowed = np.ones(len(singles), dtype=bool)
    parities_fixed = pieces is None or position_orbit is None
    wrong = int(np.count_nonzero(state != goal))
    while wrong > mismatches:
        if deadline is not None and time.monotonic() > deadline:
            break
        # single moves when one gains more per move than any tool
        moved = (state[single_perms] == goal).sum(1) - (len(goal) - wrong)
        move_score = np.where((moved > 0) & allowed, moved / single_cost, -1.0)
        gains = table.gains(state, goal) if table.size else np.zeros(0, dtype=np.int64)
        score = np.where(gains > 0, gains / table.cost, -1.0) if table.size else np.zeros(0)
        best = int(np.argmax(score)) if table.size else -1
        m = int(np.argmax(move_score))
        if move_score[m] > 0 and (best < 0 or move_score[m] >= score[best]):
            state = state[single_perms[m]]
            word = ms.join(word, [singles[m]])
            wrong = int(np.count_nonzero(state != goal))
            continue
        if not parities_fixed:
            parities_fixed = True
            fix = fix_parities(ms, pieces, position_orbit, state, goal)
            if fix:
                state = ms.apply(state, fix)
                word = ms.join(word, fix)
                wrong = int(np.count_nonzero(state != goal))
            allowed = _parity_neutral(ms, pieces, position_orbit, state, goal, singles)
            continue
        if best >= 0 and score[best] > 0:
            chosen = [best]
        elif not table.size:
            break
        else:
            pair = _best_pair(table, state, goal, gains)
            if pair is None:
                if not _deepen(table, letters, state != goal, position_orbit):
                    break
                continue
            chosen = list(pair)
        for i in chosen:
            tool = table.word(i)
            after = ms.apply(state, tool)
            if not np.array_equal(after, table.apply(state, i)):
                raise AssertionError(f"tool {i} does not do what its table row says")
            state = after
            word = ms.join(word, tool)
        wrong = int(np.count_nonzero(state != goal))
    return word, state


def _parity_neutral(ms: MoveSet, pieces: Pieces, position_orbit: np.ndarray, state: np.ndarray,
                    goal: np.ndarray, singles: Sequence[Letter]) -> np.ndarray:
    """Which single letters keep the parity of every orbit of distinct pieces."""
    fixed = [k for k, p in enumerate(pieces.piece_parities(state, goal, position_orbit))
             if p is not None]
    matrix = pieces.parity_matrix()[:, fixed]
    return np.array([not (matrix[c] * (e % 2)).any() for c, e in singles], dtype=bool)


def _deepen(table: ToolTable, letters, bad: np.ndarray, position_orbit: np.ndarray | None) -> bool:
    """Grow the table's frontier rows that lie in an orbit holding a wrong position."""
    rows = table.frontier
    if position_orbit is not None and len(rows):
        orbits = np.append(position_orbit, -1)
        wanted = np.zeros(orbits.max() + 2, dtype=bool)
        wanted[np.unique(position_orbit[bad])] = True
        rows = rows[wanted[orbits[table.pos[rows, 0]]]]
    if len(rows) == 0:
        return False
    table.grow(letters, rows)
    return True


def _best_pair(table: ToolTable, state: np.ndarray, goal: np.ndarray, gains: np.ndarray,
               limit: int = 400) -> tuple[int, int] | None:
    """Two tools, the first gaining nothing, that together gain: the best gain per
    move among the first tools touching a wrong position (up to ``limit`` of them)."""
    bad = np.append(state != goal, False)
    touching = np.flatnonzero(bad[table.pos].any(1) & (gains <= 0) & (gains >= -2))
    if len(touching) == 0:
        return None
    touching = touching[np.argsort(table.cost[touching], kind="stable")][:limit]
    best, best_score = None, 0.0
    for i in touching:
        after = table.apply(state, int(i))
        second = table.gains(after, goal)
        j = int(np.argmax(second / table.cost))
        if second[j] + gains[i] > 0:
            score = (second[j] + gains[i]) / (table.cost[i] + table.cost[j])
            if score > best_score:
                best, best_score = (int(i), j), score
    return best
