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
>>> from permgroup.moves import MoveSet
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
from math import comb
from collections.abc import Sequence

import numpy as np

from permgroup.budget import Budget
from permgroup.solver.commutators import ToolTable, cheap_letters
from permgroup.solver.cycles import OrbitCycles
from permgroup.moves import Letter, MoveSet
from permgroup.solver.pieces import Pieces

#: the tool table is grown around the wrong positions only while it has fewer rows
#: (a row costs a few hundred bytes, and each step's scan a few times that)
MAX_TABLE_ROWS = 300_000


def fix_parities(ms: MoveSet, pieces: Pieces, position_orbit: np.ndarray, state: np.ndarray,
                 goal: np.ndarray, max_moves: int = 3, classes: Sequence[int] | None = None
                 ) -> list[Letter] | None:
    """Single letters (each class at most once; of ``classes`` only, when
    given) after which every orbit of distinct pieces has the goal's parity:
    the fewest when up to ``max_moves`` do, else a solution of the GF(2) system
    by elimination; ``None`` when the system has none (the position is not
    reachable with those classes)."""
    now = pieces.piece_parities(state, goal, position_orbit)
    fixed = [k for k, p in enumerate(now) if p is not None]
    need = np.array([now[k] for k in fixed], dtype=np.uint8)
    if not need.any():
        return []
    matrix = pieces.parity_matrix()[:, fixed]
    allowed = range(len(ms.classes)) if classes is None else classes
    odd = [c for c in allowed if matrix[c].any()]
    for size in range(1, max_moves + 1):
        if comb(len(odd), size) > MAX_COMBINATIONS:
            break  # a big cube's slices: the elimination below
        best = None
        for combo in itertools.combinations(odd, size):
            if np.array_equal(np.bitwise_xor.reduce(matrix[list(combo)], axis=0), need):
                word = [(c, 1) for c in combo]
                if best is None or ms.cost(word) < ms.cost(best):
                    best = word
        if best is not None:
            return best
    chosen = gf2_solve(matrix[odd].T, need)
    return None if chosen is None else [(odd[i], 1) for i in chosen]


#: sets of single moves tried for the fewest that make the parities right, at most
MAX_COMBINATIONS = 20_000


def gf2_solve(a: np.ndarray, b: np.ndarray) -> list[int] | None:
    """Indices of columns of ``a`` (over GF(2)) adding up to ``b``, or ``None``.

    >>> gf2_solve(np.array([[1, 0, 1], [0, 1, 1]]), np.array([1, 1]))
    [0, 1]
    """
    rows, cols = a.shape
    m = np.concatenate([a % 2, (b % 2)[:, None]], axis=1).astype(np.uint8)
    pivots = []
    r = 0
    for c in range(cols):
        hit = [i for i in range(r, rows) if m[i, c]]
        if not hit:
            continue
        m[[r, hit[0]]] = m[[hit[0], r]]
        for i in range(rows):
            if i != r and m[i, c]:
                m[i] ^= m[r]
        pivots.append(c)
        r += 1
        if r == rows:
            break
    if m[r:, -1].any():
        return None
    return sorted(c for i, c in enumerate(pivots) if m[i, -1])


#: the moves of two letters are scored too while they cost at most this many lookups a step
PAIR_BUDGET = 4_000_000


def short_moves(ms: MoveSet, budget: int = PAIR_BUDGET) -> list[list[Letter]]:
    """The words the greedy scores besides its tools: every power of every class
    (rotations by up to half a turn), and every word of two cheap letters when
    that fits the budget.

    >>> import numpy as np
    >>> t = np.array([1, 2, 3, 0])
    >>> [w for w in short_moves(MoveSet.from_moves({"t": t, "-t": np.argsort(t)}))]
    [[(0, 1)], [(0, 2)], [(0, 3)]]
    """
    singles = [[x] for x in cheap_letters(ms, max(ms.orders) // 2)]
    cheap = cheap_letters(ms, 2)
    pairs = [[x, y] for x in cheap for y in cheap
             if x[0] != y[0] and not (ms.commute[x[0], y[0]] and x[0] > y[0])]
    if len(pairs) * ms.degree <= budget:
        return singles + pairs
    return singles


def greedy(ms: MoveSet, table: ToolTable, state: np.ndarray, goal: np.ndarray, *,
           mismatches: int = 0, hurry: Budget | None = None, pieces: Pieces | None = None,
           position_orbit: np.ndarray | None = None, shapes=None, moves=None,
           cycles: OrbitCycles | None = None, compete: bool = True,
           budget: Budget | None = None, max_steps: int | None = None,
           max_rows: int | None = None, owed: bool = True) -> tuple[list[Letter], np.ndarray]:
    """Short moves, tools and parallel commutators applied while one gains, the
    best gain per move first (a tool's cost counted after it cancels against the
    word so far); the parities made right when the first tool or commutator is
    chosen (after that, only moves that keep them); then pairs of tools, then the
    table grown by a level of conjugates around the wrong positions.  When no
    tool gains alone, ``cycles`` (:class:`~permgroup.solver.cycles.OrbitCycles`)
    offers a 3-cycle of any three pieces of an orbit, conjugated into place
    (with ``compete``, its 3-cycles of pieces that never turn are weighed
    against the other steps all along).  Once ``hurry`` has run out, the 3-cycles
    finish what they can at once and the descent goes on only until ``budget``
    has run out (a word found late rather than none); with ``owed=False`` (the
    caller holds a word) it stops there instead, its word unfinished (on
    Santa's globe_3/33 the 3-cycles' first searches alone took 9 s past a
    10 s limit, for a word 17 times the one in hand).  At most ``max_steps`` steps are
    taken (each a scan of the table), and the table is grown around the wrong
    positions only while it has fewer than ``max_rows`` rows (default
    :data:`MAX_TABLE_ROWS`; the table is the model's,
    kept from row to row: unbounded, it grew to gigabytes on a ring puzzle).
    The word and the state reached."""
    word: list[Letter] = []
    letters = cheap_letters(ms, 1)
    moves = short_moves(ms) if moves is None else moves
    move_perms = np.array([ms.perm(w) for w in moves])
    move_cost = np.array([ms.cost(w) for w in moves], dtype=np.float64)
    allowed = np.ones(len(moves), dtype=bool)
    parities_fixed = pieces is None or position_orbit is None
    base_rows = np.arange(table.base_count)
    single = np.array([len(w) == 1 for w in moves], dtype=bool)
    if len(base_rows) * single.sum() * table.width > SETUP_BUDGET or not len(base_rows):
        base_rows = None
    wrong = int(np.count_nonzero(state != goal))
    finishing = False
    max_rows = MAX_TABLE_ROWS if max_rows is None else max_rows
    steps = 0
    while wrong > mismatches:
        steps += 1
        if max_steps is not None and steps > max_steps:
            break
        if hurry is not None and hurry.expired:
            if owed and not finishing and cycles is not None and budget is not None:
                finishing = True
                if not parities_fixed:
                    parities_fixed = True
                    state, word, allowed = _parities_made_right(ms, pieces, position_orbit,
                                                                state, goal, word, moves)
                    wrong = int(np.count_nonzero(state != goal))
                state, word, wrong = _finish(ms, cycles, state, goal, word, wrong)
                continue
            if not finishing or budget.expired:
                break
        moved = (state[move_perms] == goal).sum(1) - (len(goal) - wrong)
        move_score = np.where((moved > 0) & allowed, moved / move_cost, -1.0)
        m = int(np.argmax(move_score))
        gains = table.gains(state, goal) if table.size else np.zeros(0, dtype=np.int64)
        score = np.where(gains > 0, gains / table.cost, -1.0) if table.size else np.zeros(0)
        best = _cheapest_in_context(ms, table, word, gains, score)
        tool_score = gains[best] / max(_marginal(ms, word, table.word(best)), 1) if best >= 0 else -1
        found = shapes.best(state, goal) if shapes is not None else None
        shape_score = found[0] if found is not None else -1
        setup = _setup_then_tool(table, base_rows, state, goal, move_perms, move_cost,
                                 allowed & single, wrong) if base_rows is not None else None
        if setup is not None and setup[0] > max(move_score[m], tool_score, shape_score) \
                and parities_fixed:
            _, k, i = setup
            state = table.apply(state[move_perms[k]], i)
            word = ms.extend(word, moves[k], table.word(i))
            wrong = int(np.count_nonzero(state != goal))
            continue
        if move_score[m] > 0 and move_score[m] >= max(tool_score, shape_score):
            state = state[move_perms[m]]
            word = ms.extend(word, moves[m])
            wrong = int(np.count_nonzero(state != goal))
            continue
        if not parities_fixed:
            parities_fixed = True
            state, word, allowed = _parities_made_right(ms, pieces, position_orbit, state, goal,
                                                        word, moves)
            wrong = int(np.count_nonzero(state != goal))
            continue
        if cycles is not None and compete:
            rival = max(move_score[m], tool_score, shape_score)
            cycle = cycles.best(state, goal, state != goal, turning=False, oriented=True,
                                before=word)
            if cycle is not None and cycle[0] > rival:
                # the 3-cycles that beat the best other step, one after another
                # (each touches one orbit, so the rest of the scoring stands),
                # while they fix stickers (a placed piece may still be turned)
                applied = False
                while cycle is not None and cycle[0] > rival:
                    after = ms.apply(state, cycle[1])
                    now = int(np.count_nonzero(after != goal))
                    if now >= wrong:
                        break
                    state, wrong, applied = after, now, True
                    word = ms.extend(word, cycle[1])
                    cycle = cycles.best(state, goal, state != goal, turning=False, oriented=True,
                                before=word)
                if applied:
                    continue
        if shape_score > 0 and shape_score > tool_score:
            parallel = shapes.word(found[1], found[2], found[3])
            after = ms.apply(state, parallel)
            if np.count_nonzero(after != goal) < wrong:
                state, word = after, ms.extend(word, parallel)
                wrong = int(np.count_nonzero(state != goal))
                continue
        if best < 0 and cycles is not None and parities_fixed:
            # every orbit the 3-cycles can finish, finished (one greedy step a
            # cycle would redo the whole scoring each time)
            before = wrong
            state, word, wrong = _finish(ms, cycles, state, goal, word, wrong)
            if wrong < before:
                continue
        if best >= 0:
            chosen = [best]
        elif not table.size:
            break
        else:
            pair = _best_pair(table, state, goal, gains)
            if pair is None:
                if table.size >= max_rows or \
                        not _deepen(table, letters, state != goal, position_orbit, max_rows):
                    break
                continue
            chosen = list(pair)
        for i in chosen:
            tool = table.word(i)
            after = ms.apply(state, tool)
            if not np.array_equal(after, table.apply(state, i)):
                raise AssertionError(f"tool {i} does not do what its table row says")
            state = after
            word = ms.extend(word, tool)
        wrong = int(np.count_nonzero(state != goal))
    return word, state


def _parities_made_right(ms: MoveSet, pieces: Pieces, position_orbit: np.ndarray,
                         state: np.ndarray, goal: np.ndarray, word: list[Letter],
                         moves: Sequence[Sequence[Letter]]
                         ) -> tuple[np.ndarray, list[Letter], np.ndarray]:
    """The state and word after the fewest single moves giving every orbit of
    distinct pieces the goal's parity (:func:`fix_parities`; none when the
    system has no solution), and which of ``moves`` keep those parities."""
    fix = fix_parities(ms, pieces, position_orbit, state, goal)
    if fix:
        state, word = ms.apply(state, fix), ms.extend(word, fix)
    return state, word, _parity_neutral(ms, pieces, position_orbit, state, goal, moves)


def _finish(ms: MoveSet, cycles: OrbitCycles, state: np.ndarray, goal: np.ndarray,
            word: list[Letter], wrong: int) -> tuple[np.ndarray, list[Letter], int]:
    """The state, word and wrong count after the 3-cycles finish every orbit
    they can, kept only when they fix stickers."""
    finish = cycles.solve(state, goal, word)
    after = ms.apply(state, finish)
    now = int(np.count_nonzero(after != goal))
    if now < wrong:
        return after, ms.extend(word, finish), now
    return state, word, wrong


#: only effects on at most this many positions are conjugated further when the greedy is stuck
SMALL_EFFECT = 9
#: a move followed by a base tool is scored while that costs at most this many lookups
SETUP_BUDGET = 6_000_000


def _setup_then_tool(table: ToolTable, rows: np.ndarray, state: np.ndarray, goal: np.ndarray,
                     move_perms: np.ndarray, move_cost: np.ndarray, allowed: np.ndarray,
                     wrong: int) -> tuple[float, int, int] | None:
    """The best (gain per move, move, row) of a move followed by a base tool,
    the move not undone: a ring turned to bring pieces where a tool works."""
    after = state[move_perms[allowed]]                   # moves x n
    which = np.flatnonzero(allowed)
    g = np.append(goal, -2)
    padded = np.concatenate([after, np.full((len(after), 1), -1, after.dtype)], axis=1)
    want = g[table.pos[rows]]                            # rows x w
    src = padded[:, table.src[rows]]                     # moves x rows x w
    pos = padded[:, table.pos[rows]]
    tool_gain = (src == want).sum(2) - (pos == want).sum(2)
    move_gain = (after == goal).sum(1) - (len(goal) - wrong)
    total = move_gain[:, None] + tool_gain
    cost = move_cost[which][:, None] + table.cost[rows][None, :]
    score = np.where(total > 0, total / cost, -1.0)
    k, i = np.unravel_index(int(np.argmax(score)), score.shape)
    if score[k, i] <= 0:
        return None
    return float(score[k, i]), int(which[k]), int(rows[i])


#: candidates whose cost is re-counted against the end of the word so far
CONTEXT_CANDIDATES = 24
#: letters of the word's end that a new tool may cancel against
CONTEXT_LETTERS = 16


def _marginal(ms: MoveSet, word: Sequence[Letter], tool: Sequence[Letter]) -> int:
    """What appending ``tool`` to ``word`` costs once the two are reduced together."""
    tail = list(word[-CONTEXT_LETTERS:])
    return ms.cost(ms.join(tail, tool)) - ms.cost(tail)


def _cheapest_in_context(ms: MoveSet, table: ToolTable, word: Sequence[Letter],
                         gains: np.ndarray, score: np.ndarray) -> int:
    """The tool with the best gain per move, its cost counted after it cancels
    against the end of the word (the best few by plain cost are re-counted);
    ``-1`` when none gains."""
    if not len(score) or score.max() <= 0:
        return -1
    k = min(CONTEXT_CANDIDATES, int((score > 0).sum()))
    candidates = np.argpartition(-score, k - 1)[:k]
    best, best_score = -1, 0.0
    for i in candidates:
        value = gains[i] / max(_marginal(ms, word, table.word(int(i))), 1)
        if value > best_score:
            best, best_score = int(i), value
    return best


def _parity_neutral(ms: MoveSet, pieces: Pieces, position_orbit: np.ndarray, state: np.ndarray,
                    goal: np.ndarray, words: Sequence[Sequence[Letter]]) -> np.ndarray:
    """Which words keep the parity of every orbit of distinct pieces."""
    fixed = [k for k, p in enumerate(pieces.piece_parities(state, goal, position_orbit))
             if p is not None]
    matrix = pieces.parity_matrix()[:, fixed].astype(np.int64)
    return np.array([not (sum(matrix[c] * (e % 2) for c, e in w) % 2).any() for w in words],
                    dtype=bool)


def _deepen(table: ToolTable, letters, bad: np.ndarray, position_orbit: np.ndarray | None,
            max_rows: int) -> bool:
    """Grow the table's frontier rows that lie in an orbit holding a wrong position."""
    rows = table.frontier
    # effects on more than three pieces multiply without end under conjugation
    rows = rows[(table.pos[rows] < len(bad)).sum(1) <= SMALL_EFFECT]
    if position_orbit is not None and len(rows):
        orbits = np.append(position_orbit, -1)
        wanted = np.zeros(orbits.max() + 2, dtype=bool)
        wanted[np.unique(position_orbit[bad])] = True
        rows = rows[wanted[orbits[table.pos[rows, 0]]]]
    if len(rows) == 0:
        return False
    return table.grow(letters, rows, limit=max_rows) > 0


#: second tools scored at most, a step (the cheapest first tools first)
PAIR_LOOKUPS = 2_000_000


def _best_pair(table: ToolTable, state: np.ndarray, goal: np.ndarray, gains: np.ndarray,
               limit: int = 60) -> tuple[int, int] | None:
    """Two tools, the first gaining little, that together gain: the best gain per
    move among the first tools touching a wrong position (up to ``limit`` of
    them, the cheapest).  When no tool gains alone, a second tool that gains
    after the first must touch a position the first moved, so only those are
    scored."""
    bad = np.append(state != goal, False)
    # a second tool that gains must also touch a position wrong before the first
    # (the first's gain is at most zero), so only those are scored
    touches_bad = bad[table.pos].any(1)
    touching = np.flatnonzero(touches_bad & (gains <= 0) & (gains >= -2))
    if len(touching) == 0:
        return None
    touching = touching[np.argsort(table.cost[touching], kind="stable")][:limit]
    g = np.append(goal, -2)
    best, best_score = None, 0.0
    scored = 0
    for i in touching:
        if scored > PAIR_LOOKUPS:
            break
        moved = table.pos[i][table.pos[i] < len(state)]
        rows = table.touching(moved)
        rows = rows[touches_bad[rows]]
        if len(rows) == 0:
            continue
        scored += len(rows)
        after = np.append(table.apply(state, int(i)), -1)
        want = g[table.pos[rows]]
        second = (after[table.src[rows]] == want).sum(1) - (after[table.pos[rows]] == want).sum(1)
        j = int(np.argmax(second / table.cost[rows]))
        if second[j] + gains[i] > 0:
            score = (second[j] + gains[i]) / (table.cost[i] + table.cost[rows[j]])
            if score > best_score:
                best, best_score = (int(i), int(rows[j])), score
    return best
