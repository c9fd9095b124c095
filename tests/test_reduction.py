"""Solving by orbits (permgroup.solver.small_orbits and reduction): the small
orbits of a big cube found from its moves, their projection (the 4x4x4's
corners are the 2x2x2, move for move), solved first and kept solved; the
parities made right with moves that keep them; every word checked by the
applier of tests/test_santa.py (the competition's rules)."""
from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from permgroup.budget import Budget
from permgroup.formats.santa import read_puzzle_info, read_puzzles, with_inverses
from permgroup.formats.text import read_text
from permgroup.moves import MoveSet
from permgroup.solver.greedy import fix_parities
from permgroup.solver.reduction import reduction_model, reduction_word
from permgroup.solver.small_orbits import keeping_classes, projection, solve_small_orbits
from tests.test_santa import INFO, PUZZLES, allowed_moves, read_csv, wrong_positions

SANTA = read_puzzle_info(read_text(INFO))


def test_small_orbits_of_the_4x4x4_are_its_corners_and_project_onto_the_2x2x2():
    moves = with_inverses(SANTA["cube_4/4/4"])
    ms = MoveSet.from_moves(moves)
    red = reduction_model(ms)
    assert red is not None and len(red.small) == 1
    corners = red.pieces.orbits[red.small[0]]
    assert len(corners) == 8 and all(len(red.pieces.blocks[b]) == 3 for b in corners)
    assert red.frozen.sum() == 24
    # the projection is the 2x2x2's moves, in the same order (so the chain of
    # subgroups, which names moves by their order, shares its tables)
    projected = projection(moves, np.flatnonzero(red.frozen))
    small = with_inverses(SANTA["cube_2/2/2"])
    assert [p.tolist() for p in projected.values()] == [np.asarray(p).tolist()
                                                        for p in small.values()]
    # the moves keeping the corners are the inner slices: 6 of the 12 classes
    keeping = keeping_classes(ms, np.flatnonzero(red.frozen))
    assert len(keeping) == 6
    assert all(not red.frozen[ms.support[c]].any() for c in keeping)
    # no parallel commutator moves a corner
    assert not np.append(red.frozen, False)[red.shapes.pos].any()


def test_parities_made_right_with_the_classes_given():
    """Once the corners are home, the wings' parity is made right by inner
    slices alone (a scramble of 51 quarter turns: an odd one)."""
    moves = with_inverses(SANTA["cube_4/4/4"])
    ms = MoveSet.from_moves(moves)
    red = reduction_model(ms)
    goal = np.arange(ms.degree) // 16
    rng = random.Random(3)
    fixes = []
    for _ in range(5):
        state = ms.apply(goal, [(rng.randrange(len(ms.classes)), 1) for _ in range(51)])
        word = solve_small_orbits(moves, state, goal, np.flatnonzero(red.frozen),
                                  budget=Budget.of(60), improve=0.5)
        state = ms.apply(state, ms.letters(word))
        fix = fix_parities(ms, red.pieces, red.position_orbit, state, goal,
                           classes=red.keeping)
        assert fix is not None and all(c in red.keeping for c, _ in fix)
        fixes.append(fix)
        after = ms.apply(state, fix)
        assert all(p in (0, None)
                   for p in red.pieces.piece_parities(after, goal, red.position_orbit))
    assert any(fixes), "no scramble needed a parity fix"


def test_santa_4x4x4_rows_solved_corners_first():
    rows = [r for r in read_csv(PUZZLES) if r["puzzle_type"] == "cube_4/4/4"]
    parsed = {r.id: r for r in read_puzzles(read_text(PUZZLES), SANTA)}
    moves = with_inverses(SANTA["cube_4/4/4"])
    ms = MoveSet.from_moves(moves)
    red = reduction_model(ms)
    corners = np.flatnonzero(red.frozen)
    for row, inside in [(row, False) for row in rows] + [(rows[0], True)]:
        r = parsed[row["id"]]
        # inside: commutators inserted among the corners' moves too (they keep
        # the corners wherever they go), so the corners are home later
        word = reduction_word(moves, ms, red, r.start, r.goal, mismatches=r.wildcards,
                              inside=inside)
        assert word is not None
        names = ms.names(word)
        assert wrong_positions(row, ".".join(names), allowed_moves()) <= r.wildcards
        # the corners are solved by the first moves (a 2x2x2 needs at most 14)
        state = r.start.copy()
        solved_at = None
        for i, name in enumerate(names):
            state = state[moves[name]]
            home = (state[corners] == r.goal[corners]).all()
            if solved_at is None and home:
                solved_at = i
        assert solved_at is not None and (inside or solved_at < 30)
        assert (state == r.goal).sum() >= len(state) - r.wildcards


def test_each_reduction_variant_solves(monkeypatch):
    """find_word keeps the shortest of its reduction variants: each alone
    (forward, and backward: the goal taken to the start, the word inverted)
    gives a word the competition's applier accepts."""
    import permgroup.solver as solver

    row = next(r for r in read_csv(PUZZLES) if r["puzzle_type"] == "cube_4/4/4")
    parsed = {r.id: r for r in read_puzzles(read_text(PUZZLES), SANTA)}[row["id"]]
    moves = with_inverses(SANTA["cube_4/4/4"])
    lengths = []
    import permgroup.solver.staged as staged

    monkeypatch.setattr(staged, "CENTRE_ORBITS", 0)   # the variants alone (tests/test_staged.py)
    monkeypatch.setattr(solver, "REDUCTION_ANCHORS", ())  # (each once)
    for variant in solver.REDUCTION_VARIANTS[::4]:   # pairs alone, and two pairs too
        monkeypatch.setattr(solver, "REDUCTION_VARIANTS", (variant,))
        word = solver.find_word(moves, parsed.start, parsed.goal, mismatches=parsed.wildcards,
                                budget=Budget.of(8), chain=False)
        assert wrong_positions(row, ".".join(word), allowed_moves()) <= parsed.wildcards
        lengths.append(len(word))
    assert all(0 < n < 400 for n in lengths)


def test_insertions_inside_the_word_shorten_it_and_keep_the_corners(monkeypatch):
    """The 4x4x4 row: once the commutators at the end fix little, effects
    inserted inside the word (permgroup.solver.insertion) finish it, shorter
    than the rounds at the end alone (forward and backward together: 292
    moves against 302); the word stays valid by the
    competition's rule and the corners are still solved first."""
    import permgroup.solver.reduction as reduction

    row = next(r for r in read_csv(PUZZLES) if r["puzzle_type"] == "cube_4/4/4")
    parsed = {r.id: r for r in read_puzzles(read_text(PUZZLES), SANTA)}[row["id"]]
    moves = with_inverses(SANTA["cube_4/4/4"])
    ms = MoveSet.from_moves(moves)
    red = reduction_model(ms)
    lengths = {}
    for below, backward in itertools.product((0.0, reduction.INSERT_BELOW), (False, True)):
        # no round fixes fewer than 0 positions a move: no insertion
        monkeypatch.setattr(reduction, "INSERT_BELOW", below)
        a, b = (parsed.goal, parsed.start) if backward else (parsed.start, parsed.goal)
        word = reduction_word(moves, ms, red, a, b, mismatches=parsed.wildcards, inside=False)
        assert word is not None
        states = [a]
        for letter in word:
            states.append(ms.apply(states[-1], [letter]))
        home = [bool((s[red.frozen] == b[red.frozen]).all()) for s in states]
        # solved by the first moves (a 2x2x2 needs at most 14), home at the end
        assert home.index(True) < 30 and home[-1]
        if backward:
            word = ms.inverse(word)
        assert wrong_positions(row, ".".join(ms.names(word)), allowed_moves()) <= parsed.wildcards
        lengths[below] = lengths.get(below, 0) + ms.cost(word)
    assert lengths[reduction.INSERT_BELOW] < lengths[0.0]


def test_an_insertion_is_the_effect_conjugated_by_the_moves_after_it():
    """Random short words on the 4x4x4's inner slices: an effect inserted at
    any point is what its conjugate by the rest of the word appended would do;
    insert_effects never leaves the state further from the goal, nor touches a
    frozen position."""
    from permgroup.solver.insertion import Effects, insert_effects

    moves = with_inverses(SANTA["cube_4/4/4"])
    ms = MoveSet.from_moves(moves)
    red = reduction_model(ms)
    rng = random.Random(5)
    goal = np.arange(ms.degree) // 16
    effects = red.pair_effects()
    for _ in range(5):
        word = [(c, rng.randrange(1, 4)) for c in rng.choices(red.keeping, k=12)]
        scramble = [(c, rng.randrange(1, 4)) for c in rng.choices(red.keeping, k=15)]
        start = ms.apply(goal, scramble)
        wrong = int(np.count_nonzero(ms.apply(start, word) != goal))
        better = insert_effects(ms, effects, start, goal, word, frozen=red.frozen)
        end = ms.apply(start, better)
        assert int(np.count_nonzero(end != goal)) <= wrong
        assert (end[red.frozen] == goal[red.frozen]).all()
    # the insertion law itself, on plain words
    pair = ms.perm(effects.word(0))
    t = 5
    inserted = ms.perm(word[:t] + effects.word(0) + word[t:])
    suffix = ms.perm(word[t:])
    conjugate = np.argsort(suffix)[pair[suffix]]
    assert (inserted == ms.perm(word)[conjugate]).all()
    assert isinstance(Effects.of(ms, [effects.word(0)]).cost[0], float)


def test_insertions_everywhere_never_leave_more_wrong_and_keep_the_corners(monkeypatch):
    """Random words of the 4x4x4's moves that keep the corners, from random
    starts (faces' colours: look-alike centres): the insertions at every
    point of the word (permgroup.solver.everywhere, their gains scored from
    the wrong positions alone) never leave more positions wrong, never touch
    a frozen one, and fix some wherever a pair gains at the word's end."""
    from permgroup.solver import everywhere
    from permgroup.solver.effects import gains_of
    from permgroup.solver.everywhere import insert_everywhere

    monkeypatch.setattr(everywhere, "POINT_HITS", 20_000)  # (fewer points a step: quicker)

    moves = with_inverses(SANTA["cube_4/4/4"])
    ms = MoveSet.from_moves(moves)
    red = reduction_model(ms)
    rng = random.Random(7)
    goal = np.arange(ms.degree) // 16
    effects = red.pair_effects()
    for _ in range(3):
        word = [(c, rng.randrange(1, 4)) for c in rng.choices(red.keeping, k=20)]
        scramble = [(c, rng.randrange(1, 4)) for c in rng.choices(red.keeping, k=3)]
        start = ms.apply(goal, scramble)
        before = ms.apply(start, word)
        better = insert_everywhere(ms, effects, start, goal, word, frozen=red.frozen,
                                   combined=red.combined)
        end = ms.apply(start, better)
        wrong = int(np.count_nonzero(before != goal))
        assert int(np.count_nonzero(end != goal)) <= wrong
        assert (end[red.frozen] == goal[red.frozen]).all()
        if (gains_of(effects.cache.pos, effects.cache.src, before, goal) > 0).any():
            assert int(np.count_nonzero(end != goal)) < wrong


def test_small_orbits_solved_when_the_chain_and_search_are_stopped(monkeypatch):
    """The chain's tables cut short by the budget (Stopped while they are
    built: a loaded machine, an empty cache) and the projection's exact search
    stopped too: the generic solver's word on the projection (the fallback
    find_word gives) brings the small orbits home (a first line of cube_19/19/19 at a 10 s limit otherwise fell
    to a model of the whole cube, 28 s past the limit); no word at all with
    a fallback, not an exception (row 277 was once dropped so)."""
    from permgroup.solver import _owed_word

    import permgroup.solver.chain as chain
    import permgroup.solver.exact as exact
    from permgroup.budget import Budget
    from permgroup.errors import Stopped

    def stopped(*args, **kwargs):
        raise Stopped("the time limit")

    monkeypatch.setattr(chain, "chain_word", stopped)
    monkeypatch.setattr(exact, "exact_word", stopped)
    moves = with_inverses(SANTA["cube_4/4/4"])
    ms = MoveSet.from_moves(moves)
    red = reduction_model(ms)
    goal = np.arange(ms.degree) // 16
    start = ms.apply(goal, [(0, 1), (5, 1), (7, 3), (2, 1), (9, 2)])
    corners = np.flatnonzero(red.frozen)
    assert solve_small_orbits(moves, start, goal, corners, budget=Budget.of(30)) is None
    word = solve_small_orbits(moves, start, goal, corners, budget=Budget.of(0.001),
                              fallback=_owed_word)
    after = start
    for name in word:
        after = after[moves[name]]
    assert (after[corners] == goal[corners]).all() and (start[corners] != goal[corners]).any()


def test_insertions_by_pieces_finish_two_swaps_of_look_alike_pieces():
    """Four wings of the 4x4x4 whose front and back stickers are swapped (two
    pairs of look-alike pieces, as a solve of row 150 left them): no pair
    commutator fixes a position, so the insertions by positions stop at once;
    scored by the pieces they leave wrong, they finish it in fewer moves than
    the 3-cycles (44 moves on that row), keeping the corners."""
    from permgroup.solver.insertion import insert_effects

    moves = with_inverses(SANTA["cube_4/4/4"])
    ms = MoveSet.from_moves(moves)
    red = reduction_model(ms)
    goal = np.arange(ms.degree) // 16
    start = goal.copy()
    start[[18, 20, 24, 27]], start[[50, 52, 55, 59]] = 3, 1
    effects = red.pair_effects()
    assert insert_effects(ms, effects, start, goal, [], frozen=red.frozen) == []
    word = insert_effects(ms, effects, start, goal, [], frozen=red.frozen,
                          pieces=red.pieces.block_of)
    end = ms.apply(start, word)
    assert (end == goal).all() and ms.cost(word) < 44


def test_two_pair_commutators_are_inserted_on_the_4x4x4():
    """Besides each pair's commutator, those of two pairs sharing a row or a
    column (two 3-cycles for two moves more): on the 4x4x4 thousands, each a
    new permutation keeping the corners, costing less than the two costliest
    pairs apart."""
    moves = with_inverses(SANTA["cube_4/4/4"])
    ms = MoveSet.from_moves(moves)
    red = reduction_model(ms)
    effects = red.pair_effects(two_pairs=True)
    pairs = red.shapes.size
    assert len(red.pair_effects().cost) == pairs
    assert len(effects.cost) > pairs + 1000
    frozen = np.flatnonzero(red.frozen)
    singles = {ms.perm(effects.word(i)).tobytes() for i in range(pairs)}
    doubles = {ms.perm(effects.word(i)).tobytes() for i in range(pairs, len(effects.cost))}
    assert len(doubles) == len(effects.cost) - pairs and not singles & doubles
    most = red.shapes.pair_costs().max()
    for i in range(pairs, len(effects.cost), 97):
        p = ms.perm(effects.word(i))
        assert (p[frozen] == frozen).all() and (p != np.arange(ms.degree)).any()
        assert effects.cost[i] < 2 * most


@pytest.mark.parametrize("n, colours", [(60, 4), (300, None)])
def test_gain_cache_matches_every_row_scored_again(n, colours):
    """The cache's gains, scored all at once (by column) and then only where
    the state changed, equal the plain gains of every row on each state: of a
    few colours, and of every position its own label (more than a byte holds)."""
    from permgroup.solver.effects import GainCache, gains_of

    rng = np.random.default_rng(5)
    rows, width = 400, 6
    pos = np.full((rows, width), n, dtype=np.int32)
    src = np.full((rows, width), n, dtype=np.int32)
    for i in range(rows):
        k = int(rng.integers(2, width + 1))
        moved = rng.choice(n, k, replace=False)
        pos[i, :k], src[i, :k] = moved, np.roll(moved, 1)
    goal = rng.integers(0, colours, n) if colours else np.arange(n)
    state = rng.permutation(goal)
    cache = GainCache(pos, src, n)
    for step in range(9):
        assert cache.gains(state, goal).tolist() == gains_of(pos, src, state, goal).tolist()
        # a position or a few swapped (the rows touching them rescored), or many (all)
        a, b = rng.choice(n, (2, (1, 3, 30)[step % 3]), replace=False)
        state = state.copy()
        state[a], state[b] = state[b], state[a]


def test_parallel_commutators_are_inserted_at_the_points_of_a_word():
    """On the 4x4x4, a position one parallel commutator of several pairs from
    solved (stickers labelled apart): the insertions with the parallel
    commutators a point offers (Reduction.combined, from the pairs' gains
    there) solve it in at most that commutator's moves, the pairs alone take
    more; Shapes.chosen from the gains of no outer letter is what ranked
    chooses under it."""
    from permgroup.solver.insertion import insert_effects

    moves = with_inverses(SANTA["cube_4/4/4"])
    ms = MoveSet.from_moves(moves)
    red = reduction_model(ms)
    shapes = red.shapes
    _, key, rows, cols = shapes.chosen({0: np.ones(shapes.size, dtype=np.int64)})[0]
    parallel = shapes.word(key, rows, cols)
    assert len(rows) * len(cols) >= 2
    goal = np.arange(ms.degree)
    start = ms.apply(goal, ms.inverse(parallel))
    ranked = shapes.ranked(start, goal, outers=1)
    assert [r[1:] for r in ranked] == [c[1:] for c in shapes.chosen({0: shapes.gains(start, goal)})]
    effects = red.pair_effects()
    both = insert_effects(ms, effects, start, goal, [], frozen=red.frozen, combined=red.combined)
    alone = insert_effects(ms, effects, start, goal, [], frozen=red.frozen)
    assert (ms.apply(start, both) == goal).all() and ms.cost(both) <= ms.cost(parallel)
    assert (ms.apply(start, alone) != goal).any() or ms.cost(alone) > ms.cost(parallel)


def _plain_biclique(grid, row_cost, col_cost, fixed, n_rows, n_cols):
    """The greedy rows and columns of parallel._bicliques, cell by cell."""
    height, width = len(grid), len(grid[0])
    cells = [(grid[r][c] / (row_cost[r] + col_cost[c] + fixed), r, c)
             for r in range(height) for c in range(width)]
    best = max(cells, key=lambda x: x[0])   # (the first of equals)
    if not best[0] > 0:
        return None
    rows, cols = [best[1]], [best[2]]
    gain, cost = grid[best[1]][best[2]], row_cost[best[1]] + col_cost[best[2]] + fixed
    while True:
        def option(free, sums, costs):
            out = None
            for i in range(len(costs)):
                if free(i) and (out is None or (gain + sums(i)) / (cost + costs[i]) > out[0]):
                    out = ((gain + sums(i)) / (cost + costs[i]), i)
            return out or (-np.inf, 0)
        row = option(lambda r: all(r % n_rows != t % n_rows for t in rows),
                     lambda r: sum(grid[r][c] for c in cols), row_cost)
        col = option(lambda c: all(c % n_cols != t % n_cols for t in cols),
                     lambda c: sum(grid[r][c] for r in rows), col_cost)
        if row[0] >= col[0] and row[0] > gain / cost:
            rows.append(row[1])
            gain, cost = gain + sum(grid[row[1]][c] for c in cols), cost + row_cost[row[1]]
        elif col[0] > gain / cost:
            cols.append(col[1])
            gain, cost = gain + sum(grid[r][col[1]] for r in rows), cost + col_cost[col[1]]
        else:
            return gain / cost, rows, cols


def test_bicliques_side_by_side_are_each_grids_greedy():
    """The batched greedy rows and columns of parallel commutators (grids of
    several sizes padded to one, rows at two exponents) are those of each
    grid grown alone, cell by cell."""
    from permgroup.solver.parallel import _bicliques

    rng = np.random.default_rng(3)
    grids = []
    for _ in range(40):
        n_rows, n_cols = int(rng.integers(1, 5)), int(rng.integers(1, 5))
        height, width = n_rows * int(rng.integers(1, 3)), n_cols * int(rng.integers(1, 3))
        grid = rng.integers(-2, 4, (height, width)).astype(float)
        grid[rng.random((height, width)) < 0.3] = -np.inf
        grids.append((grid, rng.integers(1, 3, height) * 1.0, rng.integers(1, 3, width) * 1.0,
                      float(rng.integers(0, 3)), n_rows, n_cols))
    height, width = max(len(g[0]) for g in grids), max(len(g[0][0]) for g in grids)
    padded = np.full((len(grids), height, width), -np.inf)
    row_cost, col_cost = np.ones((len(grids), height)), np.ones((len(grids), width))
    for b, (grid, rc, cc, *_) in enumerate(grids):
        padded[b, :len(rc), :len(cc)] = grid
        row_cost[b, :len(rc)], col_cost[b, :len(cc)] = rc, cc
    found = _bicliques(padded, row_cost, col_cost, np.array([g[3] for g in grids]),
                       np.array([g[4] for g in grids]), np.array([g[5] for g in grids]),
                       np.array([len(g[1]) for g in grids]), np.array([len(g[2]) for g in grids]))
    assert found == [_plain_biclique(g.tolist(), rc.tolist(), cc.tolist(), f, nr, nc)
                     for g, rc, cc, f, nr, nc in grids]
    assert sum(f is not None and len(f[1]) * len(f[2]) > 1 for f in found) >= 10


def test_variants_run_again_at_more_points_while_time_is_left(monkeypatch):
    """Once every reduction variant has run, find_word runs those of the pairs
    alone again, first with the last positions at every point of the word
    (a puzzle of REDUCTION_EVERYWHERE positions to EVERYWHERE_FROM), then with the insertions
    looking at each of REDUCTION_ANCHORS points a step (other setups,
    another word), then with both, the shortest word kept; the
    anchors reach the insertions (the module's small puzzle: two 3-cycles
    meeting in a cell, a piece flipped; insertions from the start)."""
    import permgroup.solver as solver
    import permgroup.solver.reduction as reduction
    import permgroup.solver.staged as staged

    u = np.array([1, 2, 0, 3, 4, 5, 6]); w = np.array([0, 1, 3, 4, 2, 5, 6])
    v = np.array([0, 1, 2, 3, 4, 6, 5])
    moves = {"u": u, "-u": np.argsort(u), "w": w, "-w": np.argsort(w), "v": v}
    ms = MoveSet.from_moves(moves)
    start, goal = np.array([4, 0, 1, 2, 3, 6, 5]), np.arange(7)
    made, points = [], []
    real, insert = reduction.reduction_word, reduction.insert_effects

    def spy(*args, **kwargs):
        word = real(*args, **kwargs)
        made.append((kwargs.get("anchors"), kwargs.get("everywhere"), ms.cost(word)))
        return word

    def counted(*args, **kwargs):
        if kwargs.get("pieces") is None:  # (not the insertions by pieces)
            points.append(kwargs.get("anchors"))
        return insert(*args, **kwargs)

    monkeypatch.setattr(staged, "CENTRE_ORBITS", 0)
    monkeypatch.setattr(reduction, "INSERT_BELOW", 100.0)
    monkeypatch.setattr(reduction, "SMALL_SECONDS", 0.1)
    monkeypatch.setattr(reduction, "reduction_word", spy)
    monkeypatch.setattr(reduction, "insert_effects", counted)
    monkeypatch.setattr(solver, "REDUCTION_VARIANTS", solver.REDUCTION_VARIANTS[:1])
    monkeypatch.setattr(solver, "REDUCTION_ANCHORS", (96,))
    monkeypatch.setattr(solver, "REDUCTION_EVERYWHERE", 1)   # (the puzzle's 7 positions)
    monkeypatch.setattr(solver, "GREEDY_AFTER", 1e9)  # the reduction's word alone
    word = solver.find_word(moves, start, goal, budget=Budget.of(30), chain=False,
                            polish=False)
    assert [(a, e) for a, e, _ in made] == [(None, None), (None, True), (96, None), (96, True)]
    assert points[0] is None and points[-1] == 96 and set(points) == {None, 96}
    state = start
    for name in word:
        state = state[moves[name]]
    assert (state == goal).all() and len(word) <= min(n for _, _, n in made)
