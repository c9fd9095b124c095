"""The generic solver (``permgroup.solver``): its word arithmetic, pieces, tools
and words, each checked against a second, plainer computation written here; the
Santa rows carried in ``tests/data`` solved and checked by the Santa test's own
applier (Kaggle's rule, not the package's)."""
from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from sympy.combinatorics import Permutation

from permgroup.budget import Budget
from permgroup.errors import InputError
from permgroup.formats.santa import read_puzzle_info, read_puzzles, with_inverses
from permgroup.formats.text import read_text
from permgroup.solver import find_word, model
from permgroup.solver.commutators import effect, turning_tools
from permgroup.solver.greedy import fix_parities
from permgroup.moves import MoveSet
from permgroup.solver.parallel import Shapes
from permgroup.solver.pieces import Pieces, permutation_parity, position_orbits
from tests.test_santa import INFO, PUZZLES, allowed_moves, read_csv, wrong_positions

SANTA = read_puzzle_info(read_text(INFO))


def santa_moves(kind: str) -> MoveSet:
    return MoveSet.from_moves(with_inverses(SANTA[kind]))


def plain_apply(state, word, moves):
    """Apply names one by one, ``new[i] = old[p[i]]``, in plain Python."""
    state = list(state)
    for name in word:
        p = moves[name]
        state = [state[p[i]] for i in range(len(p))]
    return state


@pytest.mark.parametrize("kind", ["cube_3/3/3", "globe_3/4", "wreath_6/6"])
def test_reduced_words_have_the_same_permutation(kind):
    ms = santa_moves(kind)
    rng = random.Random(5)
    letters = [(c, e) for c in range(len(ms.classes)) for e in range(1, ms.orders[c])]
    for _ in range(200):
        word = [rng.choice(letters) for _ in range(rng.randint(0, 12))]
        # make cancellations likely: append the inverse of a random tail
        word += ms.inverse(word[rng.randint(0, len(word)):]) if word else []
        reduced = ms.reduce(word)
        assert np.array_equal(ms.perm(reduced), ms.perm(word))
        assert ms.cost(reduced) <= ms.cost(word)
        # the names spell the same permutation, applied by the plain applier
        moves = with_inverses(SANTA[kind])
        start = list(range(ms.degree))
        assert plain_apply(start, ms.names(reduced), moves) == ms.perm(word).tolist()


def test_move_classes_of_a_cube():
    ms = santa_moves("cube_3/3/3")
    assert len(ms.classes) == 9 and set(ms.orders) == {4}
    # f0 and its inverse spell the powers; f0 f0 costs two moves, f0^3 one
    f0 = ms.classes.index("f0")
    assert ms.names([(f0, 3)]) == ["-f0"] and ms.letter_cost((f0, 2)) == 2
    # the faces f0 and f2 commute (opposite), f0 and r0 do not
    assert ms.commute[f0, ms.classes.index("f2")]
    assert not ms.commute[f0, ms.classes.index("r0")]


def test_pieces_of_cubes_from_moves_alone():
    pieces = Pieces.of(santa_moves("cube_3/3/3"))
    sizes = sorted(len(b) for b in pieces.blocks)
    # 8 corners of 3 stickers, 12 edges of 2, the centres in opposite pairs (slices turn them)
    assert sizes.count(3) == 8 and sizes.count(2) == 12 + 3
    assert sorted(len(o) for o in pieces.orbits) == [3, 8, 12]
    four = Pieces.of(santa_moves("cube_4/4/4"))
    assert sorted(len(o) for o in four.orbits) == [8, 24, 24]


def test_parity_matrix_is_the_sign_of_each_move_on_the_pieces():
    ms = santa_moves("cube_3/3/3")
    pieces = Pieces.of(ms)
    matrix = pieces.parity_matrix()
    for c in range(len(ms.classes)):
        scatter = np.argsort(ms.powers[c][1])
        for k, orbit in enumerate(pieces.orbits):
            where = {b: i for i, b in enumerate(orbit)}
            images = [where[int(pieces.block_of[scatter[pieces.blocks[b][0]]])] for b in orbit]
            assert matrix[c, k] == (0 if Permutation(images).is_even else 1)


@pytest.mark.parametrize("kind", ["cube_3/3/3", "cube_4/4/4", "globe_3/4"])
def test_every_tool_does_what_its_row_says(kind):
    ms = santa_moves(kind)
    m = model(ms)
    table = m.table
    rng = np.random.default_rng(3)
    rows = rng.choice(table.size, size=min(300, table.size), replace=False)
    state = np.arange(ms.degree)
    for i in rows:
        word = table.word(int(i))
        assert np.array_equal(ms.apply(state, word), table.apply(state, int(i)))
        assert ms.cost(word) <= table.cost[i]
    # base tools move few positions, cheaply: a corner 3-cycle of the 3x3x3 in 8 moves
    if kind == "cube_3/3/3":
        corner = [i for i in range(table.size)
                  if (table.pos[i] < ms.degree).sum() == 9 and table.cost[i] <= 8]
        assert corner


def test_turning_tools_turn_pieces_in_place():
    ms = santa_moves("cube_3/3/3")
    pieces = Pieces.of(ms)
    m = model(ms)
    turns = turning_tools(ms, pieces, [m.table.tool(i) for i in range(min(m.table.size, 400))])
    assert turns
    for t in turns:
        # every sticker stays on its own piece
        assert (pieces.block_of[t.pos] == pieces.block_of[t.src]).all()
        pos, src = effect(ms.perm(t.word))
        assert np.array_equal(pos, t.pos) and np.array_equal(src, t.src)


def test_parities_are_fixed_with_single_moves():
    ms = santa_moves("cube_3/3/3")
    pieces = Pieces.of(ms)
    orbit = np.full(ms.degree, -1)
    for k, o in enumerate(position_orbits(ms)):
        orbit[o] = k
    goal = np.arange(ms.degree)
    f0 = ms.classes.index("f0")
    state = ms.apply(goal, [(f0, 1)])
    assert sorted(p for p in pieces.piece_parities(state, goal, orbit) if p is not None) == [0, 1, 1]
    fix = fix_parities(ms, pieces, orbit, state, goal)
    assert len(fix) == 1
    assert all(p in (0, None) for p in pieces.piece_parities(ms.apply(state, fix), goal, orbit))


@pytest.mark.parametrize("kind", ["cube_2/2/2", "cube_3/3/3", "cube_4/4/4", "wreath_6/6",
                                  "globe_1/8", "globe_3/4"])
def test_santa_rows_solved_and_checked(kind):
    rows = [r for r in read_csv(PUZZLES) if r["puzzle_type"] == kind]
    moves = allowed_moves()
    parsed = {r.id: r for r in read_puzzles(read_text(PUZZLES), SANTA)}
    for row in rows:
        r = parsed[row["id"]]
        # (a globe's tries spend what time they are given: 4 s is enough for a
        # word and keeps the suite short; the time trades length, not the answer)
        word = find_word(with_inverses(SANTA[kind]), r.start, r.goal, mismatches=r.wildcards,
                         budget=Budget.of(4))
        assert wrong_positions(row, ".".join(word), moves) <= r.wildcards


def test_random_scrambles_of_a_4x4x4():
    """100 random moves of the 4x4x4 (colours: six faces of 16), solved; the word
    applied by the plain applier."""
    moves = with_inverses(SANTA["cube_4/4/4"])
    rng = random.Random(11)
    names = sorted(moves)
    goal = [i // 16 for i in range(96)]
    for _ in range(2):
        scramble = [rng.choice(names) for _ in range(100)]
        start = plain_apply(goal, scramble, moves)
        word = find_word(moves, np.array(start), np.array(goal), budget=Budget.of(6))
        assert plain_apply(start, word, moves) == goal


def test_with_a_budget_a_word_is_not_owed_past_it():
    """Held to a budget (the caller has a word already), the solver stops with
    Stopped once the budget has run out; with a time limit alone it still
    finishes its word (a limit trades length, never the answer)."""
    import time

    from permgroup.budget import Budget
    from permgroup.errors import Stopped

    moves = with_inverses(SANTA["cube_2/2/2"])
    goal = np.array([i // 4 for i in range(24)])
    start = np.array(plain_apply(goal.tolist(), ["f0", "r0", "d1", "-f1", "r1"], moves))
    with pytest.raises(Stopped, match="time limit"):
        find_word(moves, start, goal, chain=False, budget=Budget(time.monotonic()), owed=False)
    word = find_word(moves, start, goal, chain=False, budget=Budget.of(1e-3))
    assert plain_apply(start.tolist(), word, moves) == goal.tolist()


def test_unreachable_position_is_named():
    t = np.array([1, 2, 3, 0])
    with pytest.raises(InputError, match="no word found"):
        find_word({"t": t, "-t": np.argsort(t)}, np.array([1, 0, 2, 3]), np.array([0, 1, 2, 3]),
                  budget=Budget.of(5))


def test_parity_helper():
    for perm in itertools.permutations(range(5)):
        assert permutation_parity(list(perm)) == (0 if Permutation(list(perm)).is_even else 1)


def test_orbit_cycles_are_exact_three_cycles():
    """Every 3-cycle word of the 4x4x4's centre and wing orbits moves just the
    three pieces asked for, each to the place asked for (checked on the
    identity, sticker by sticker)."""
    ms = santa_moves("cube_4/4/4")
    m = model(ms)
    cycles = m.cycles
    fixed = [k for k in cycles.orbits if k not in cycles.turning]
    assert len(fixed) == 2 and len(cycles.turning) == 1   # centres and wings; corners turn
    rng = random.Random(5)
    for k in fixed:
        slots = cycles.orbit(k).slots
        for _ in range(20):
            x, y, z = rng.sample(range(len(slots)), 3)
            word = cycles.cycle_word(k, x, y, z)
            after = ms.apply(np.arange(ms.degree), word)
            expected = np.arange(ms.degree)
            expected[slots[x]], expected[slots[y]], expected[slots[z]] = slots[y], slots[z], slots[x]
            assert (after == expected).all()


def test_orbit_cycles_finish_shuffled_centres():
    """Centres of the 4x4x4 shuffled by a random even permutation of one orbit
    (colours alike, four of each): the 3-cycles alone bring them home."""
    ms = santa_moves("cube_4/4/4")
    cycles = model(ms).cycles
    goal = np.arange(ms.degree) // 16
    rng = random.Random(8)
    for k in set(cycles.orbits) - cycles.turning:
        slots = cycles.orbit(k).slots
        perm = list(range(len(slots)))
        rng.shuffle(perm)
        if permutation_parity(perm):
            perm[0], perm[1] = perm[1], perm[0]
        start = goal.copy()
        start[slots.reshape(-1)] = goal[slots[perm].reshape(-1)]
        word = cycles.solve(start, goal)
        assert (ms.apply(start, word) == goal).all()


def test_oriented_three_cycles_place_and_turn_pieces():
    """On the 3x3x3 with every sticker its own label, the corners' and edges'
    3-cycles are of stickers (a piece goes home turned as asked): each word
    moves the three pieces just so, and from a position made of twenty random
    such cycles the 3-cycles alone bring every piece home and leave at most
    two of an orbit turned, in at most 100 moves (54 when written; 3-cycles of
    places alone left the pieces' turns to the greedy's twists)."""
    ms = santa_moves("cube_3/3/3")
    cycles = model(ms).cycles
    assert cycles.oriented == cycles.turning and len(cycles.oriented) >= 2
    rng = random.Random(4)
    goal = np.arange(ms.degree)
    start = goal.copy()
    for k in sorted(cycles.oriented):
        slots = cycles.orbit(k).slots
        width = slots.shape[1]
        for _ in range(10):
            x, y, z = (s * width + rng.randrange(width) for s in rng.sample(range(len(slots)), 3))
            word = cycles.cycle_word(k, x, y, z)
            after = ms.apply(goal, word)
            expected = goal.copy()
            for t in range(width):
                at = [slots[i // width, (i + t) % width] for i in (x, y, z)]
                expected[at[0]], expected[at[1]], expected[at[2]] = at[1], at[2], at[0]
            assert (after == expected).all()
            start = ms.apply(start, word)
    word = cycles.solve(start, goal)
    after = ms.apply(start, word)
    for k in cycles.oriented:
        slots = cycles.slots(k)
        # every piece home, at most two turned in place (which no 3-cycle turns
        # alone: the greedy's twists do)
        assert (np.sort(after[slots], axis=1) == np.sort(goal[slots], axis=1)).all()
        assert (after[slots] != goal[slots]).any(axis=1).sum() <= 2
    assert ms.cost(word) <= 100


@pytest.mark.parametrize("name", ["megaminx", "cube-5"])
def test_scrambles_of_a_megaminx_and_a_5x5x5(name):
    """A 100-move scramble of the library's Megaminx (pieces all distinct, 3-cycles
    of edges need setups of two moves) and of the 5x5x5 family member coloured
    by face (centres alike, as Santa's rows colour it), solved; the word
    applied by the plain applier."""
    from permgroup.formats import resolve
    from permgroup.solution import gather_moves, solve

    puzzle = resolve(name).puzzle
    moves = gather_moves(puzzle)
    rng = random.Random(3)
    # the cube's stickers face by face, 25 a face; the Megaminx's own colours
    goal = [k // 25 for k in range(150)] if name == "cube-5" else list(puzzle.solved)
    start = plain_apply(goal, [rng.choice(sorted(moves)) for _ in range(100)], moves)
    found = solve(puzzle, start, goal, time_limit=6)
    assert plain_apply(start, found.word, moves) == goal


def test_greedy_past_its_deadline_finishes_with_three_cycles():
    """A 4x4x4 scramble given a deadline already past: the 3-cycles finish at
    once (the parities fixed first) and the word, applied by the plain
    applier, solves it; with no time to finish, or with a word in hand
    (``owed=False``: the 3-cycles' first searches took 9 s past a 10 s limit
    on Santa's globe_3/33), the greedy stops short."""
    import time

    from permgroup.solver.greedy import greedy

    ms = santa_moves("cube_4/4/4")
    m = model(ms)
    goal = np.arange(ms.degree) // 16
    rng = random.Random(21)
    start = ms.apply(goal, [(rng.randrange(len(ms.classes)), 1) for _ in range(60)])
    now = time.monotonic()
    kwargs = dict(pieces=m.pieces, position_orbit=m.position_orbit, shapes=m.shapes,
                  cycles=m.cycles)
    word, end = greedy(ms, m.table, start, goal, hurry=Budget(now), budget=Budget(now + 60),
                       **kwargs)
    assert (end == goal).all() and (ms.apply(start, word) == goal).all()
    word, end = greedy(ms, m.table, start, goal, hurry=Budget(now), **kwargs)
    assert word == [] and (end == start).all()
    word, end = greedy(ms, m.table, start, goal, hurry=Budget(now), budget=Budget(now + 60),
                       owed=False, **kwargs)
    assert word == [] and (end == start).all()
    # nor does the model's tool table grow past a budget (model(grow_within=...))
    import copy

    from permgroup.solver.commutators import cheap_letters
    assert len(m.table.frontier) and copy.copy(m.table).grow(
        cheap_letters(ms, 1), m.table.frontier, budget=Budget(now)) == 0


def test_model_growth_cut_by_its_budget_goes_on_at_the_next_call():
    """A model whose tool table's growth a budget cut short (a caller holding
    a word, with little time) is kept and grown on by the next call: its
    table is then row for row the one grown at once (later rows of a process
    are not made longer)."""
    import time

    from permgroup.solver import _MODELS

    ms = santa_moves("cube_2/2/2")
    _MODELS.clear()
    whole = model(ms)
    assert whole.grown
    _MODELS.clear()
    cut = model(ms, Budget.of(60), grow_within=Budget(time.monotonic()))
    assert not cut.grown and cut.table.size < whole.table.size
    again = model(ms, Budget.of(60))
    assert again is cut and again.grown
    for name in ("pos", "src", "cost", "parent", "setup"):
        assert np.array_equal(getattr(again.table, name), getattr(whole.table, name)), name


def test_parallel_commutators_with_mixed_exponents_and_an_outer_letter():
    """On the 4x4x4, the best parallel commutator (rows and columns each at
    its own exponent, conjugated by a wide letter) gains when applied, and
    each of its pairs alone gains on the state exactly what the pair's scored
    gain says (the exponents and the outer letter mapped to the right effect)."""
    ms = santa_moves("cube_4/4/4")
    shapes = model(ms).shapes
    assert len(shapes.outer) > 1
    goal = np.arange(ms.degree) // 16
    outers = set()
    for seed in range(6):
        rng = random.Random(seed)
        state = ms.apply(goal, [(rng.randrange(len(ms.classes)), 1) for _ in range(200)])
        found = shapes.best(state, goal)
        assert found is not None
        _, (outer, kind), rows, cols = found
        outers.add(outer)
        word = shapes.word((outer, kind), rows, cols)
        assert (ms.apply(state, word) == goal).sum() > (state == goal).sum()
        gains = shapes.gains(state, goal, outer).copy()
        members = shapes._kinds[kind]
        for (r, er), (c, ec) in itertools.product(rows, cols):
            s = next(s for s in members if shapes.exponents[s] == (er, ec))
            pair = np.flatnonzero((shapes.shape == s) & (shapes.row == r) & (shapes.col == c))
            assert len(pair) == 1
            alone = shapes.word((outer, kind), [(r, er)], [(c, ec)])
            real = int((ms.apply(state, alone) == goal).sum() - (state == goal).sum())
            assert real == gains[pair[0]]
    assert outers - {0}, "no commutator conjugated by an outer letter was chosen"


def test_parallel_pairs_meeting_in_two_pieces():
    """With ``max_meet=2``, two slices of different axes with no setup (they
    meet in two centre pieces) are a pair: its word is a 4-move commutator,
    its effect two 3-cycles, each as the pair's row says; pairs moving a
    frozen position are left out."""
    ms = santa_moves("cube_4/4/4")
    pieces = Pieces.of(ms)
    shapes = Shapes.find(ms, pieces, max_meet=2)
    plain = Shapes.find(ms, pieces)
    twos = [s for s, x in enumerate(shapes.setups) if x is None]
    assert twos and not [x for x in plain.setups if x is None]
    moved = (shapes.pos < ms.degree).sum(1)
    identity = np.arange(ms.degree)
    for s in twos:
        for i in np.flatnonzero(shapes.shape == s)[:20]:
            kind = shapes._kind_of[s]
            ea, ey = shapes.exponents[s]
            word = shapes.word((0, kind), [(int(shapes.row[i]), ea)], [(int(shapes.col[i]), ey)])
            assert len(word) == 4 and moved[i] == 6
            perm = ms.perm(word)
            pos, src = shapes.pos[i][:6], shapes.src[i][:6]
            assert (perm[pos] == src).all() and np.count_nonzero(perm != identity) == 6
            # two 3-cycles
            cycles = Permutation(perm.tolist()).cyclic_form
            assert sorted(len(c) for c in cycles) == [3, 3]
    frozen = np.zeros(ms.degree, dtype=bool)
    frozen[shapes.pos[0][:1]] = True
    fewer = Shapes.find(ms, pieces, max_meet=2, frozen=frozen)
    assert fewer.size < shapes.size
    assert not np.append(frozen, False)[fewer.pos].any()


def test_a_chain_build_cut_short_still_owes_a_word(monkeypatch):
    """The chain's tables can take longer than their estimate on a loaded machine:
    the budget stops the build, and a caller with no budget of its own still gets
    a checked word from the other methods."""
    import permgroup.solver.chain as chain
    from permgroup.budget import Budget
    from permgroup.errors import Stopped

    def slow_build(*args, **kwargs):
        raise Stopped("the time limit")

    monkeypatch.setattr(chain, "chain_word", slow_build)
    moves = with_inverses(SANTA["cube_2/2/2"])
    goal = np.arange(24) // 4
    start = goal[moves["f0"]][moves["r1"]]
    word = find_word(moves, start, goal, budget=Budget.of(5))
    final = start
    for name in word:
        final = final[moves[name]]
    assert (final == goal).all()
    with pytest.raises(Stopped):
        find_word(moves, start, goal, budget=Budget.of(5), owed=False)
