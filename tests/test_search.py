"""Generic search machinery (digits, ball, pattern databases, IDA*, meet in the
middle) on a small group, against a plain breadth-first search over permutations."""
from __future__ import annotations

import itertools
import random
import warnings

import numpy as np
import pytest

from permgroup.tables.store import UNSEEN
from permgroup.search.ball import KeySet, build_ball, load_ball, unique_columns
from permgroup.spaces.element import PieceCoordinate
from permgroup.spaces.digits import DigitSpace, load_digit_space, piece_digits
from permgroup.spaces.ranking import placement_ranks, placement_unranks
from permgroup.metric import metric_moves
from permgroup.search.pattern import build_pattern_database, load_pattern_database
from permgroup.tables.packed import pack, read_codes
from permgroup.perm import Perm, compose, identity
from permgroup.search.dfs import MovePruning
from permgroup.search.exact import SearchStats, ida_star, meet_in_the_middle
from puzzles import minicube
from tests.plain import plain_bfs

# the 2x2x2 cube turned by R and U only: 29,160 positions
PUZZLE = minicube.PUZZLE.restricted(["R", "U"])
MOVES = metric_moves(PUZZLE, "qtm")
NAMES = list(MOVES)
PERMS = [MOVES[n] for n in NAMES]
N = PUZZLE.degree


@pytest.fixture(scope="module")
def truth() -> dict[Perm, int]:
    """Distance of every element from the identity: a plain BFS."""
    return plain_bfs(PERMS, identity(N))


@pytest.fixture(scope="module")
def space() -> DigitSpace:
    corners = PieceCoordinate.from_moves("corner", minicube.CORNERS, MOVES)
    # placements of three and two of the six moving corners (the sixth is implied)
    return DigitSpace(piece_digits(corners, [(0, 1, 2), (3, 4)]), NAMES)


@pytest.fixture(scope="module")
def goal(space) -> np.ndarray:
    return space.of_elements([identity(N)])


def simulate(g: Perm, word: list[int]) -> Perm:
    for m in word:
        g = compose(g, PERMS[m])
    return g


def test_group_size_and_digits_are_faithful(truth, space):
    assert len(truth) == 29_160 == PUZZLE.group().order()
    elements = list(truth)
    keys = space.keys(space.of_elements(elements))
    assert len(unique_columns(keys)) == len(elements)


def test_step_matches_composition(truth, space):
    rng = random.Random(1)
    elements = rng.sample(sorted(truth), 200)
    states = space.of_elements(elements)
    for m, p in enumerate(PERMS):
        moved = space.of_elements([compose(g, p) for g in elements])
        assert (space.step(states, m) == moved).all()


def test_ball_depths_are_exact_and_walks_reach_the_goal(truth, space, goal):
    ball = build_ball(space, goal, 6)
    counts = np.bincount(list(truth.values())).tolist()
    assert ball.distribution() == counts[:7]
    elements = sorted(truth)
    depth = ball.depth(space, space.of_elements(elements))
    expected = np.array([truth[g] if truth[g] <= 6 else UNSEEN for g in elements])
    assert (depth == expected).all()
    rng = random.Random(2)
    sample = rng.sample(elements, 300)
    for g, word in zip(sample, ball.walk(space, space.of_elements(sample))):
        if truth[g] > 6:
            assert word is None
        else:
            assert len(word) == truth[g] and simulate(g, word) == identity(N)


def test_searches_are_optimal_and_respect_the_depth_limit(truth, space, goal):
    ball = build_ball(space, goal, 3)
    pruning = MovePruning.of(PERMS)
    pdb = build_pattern_database(space, [2], goal)  # the corner twists alone
    rng = random.Random(3)
    for g in rng.sample(sorted(truth), 40):
        d = truth[g]
        start = space.of_elements([g])
        answers = [
            ida_star(space, start, ball, 30, pruning=pruning),
            ida_star(space, start, ball, 30, bounds=[pdb], pruning=pruning, batch=64),
            meet_in_the_middle(space, start, ball, 30),
        ]
        if d <= 8:  # without move pruning the tree grows as 4^depth
            answers.append(ida_star(space, start, ball, 30))
        for word in answers:
            assert len(word) == d and simulate(g, word) == identity(N)
        if d > 0:
            assert ida_star(space, start, ball, d - 1, bounds=[pdb], pruning=pruning) is None
            assert meet_in_the_middle(space, start, ball, d - 1) is None


def test_pattern_database_is_the_projection_distance(truth, space, goal):
    pdb = build_pattern_database(space, [2], goal)
    elements = sorted(truth)
    states = space.of_elements(elements)
    bound = pdb(states)
    projected = space.project(states, [2])
    best: dict[int, int] = {}
    for p, g in zip(projected.tolist(), elements):
        best[p] = min(best.get(p, 99), truth[g])
    assert all(bound[i] == best[p] for i, p in enumerate(projected.tolist()))
    assert all(bound[i] <= truth[g] for i, g in enumerate(elements))  # admissible
    assert sum(pdb.distribution()) == len(best) == space.sizes[2]


def test_canonical_sequences_reach_every_element_at_its_distance(truth):
    pruning = MovePruning.of(PERMS)
    reached = {identity(N): 0}
    frontier = [(identity(N), pruning.start)]
    for length in range(1, 9):
        nxt = []
        for g, h in frontier:
            for m in np.flatnonzero(pruning.allowed[h]):
                e = compose(g, PERMS[m])
                reached.setdefault(e, length)
                nxt.append((e, pruning.after(h, int(m))))
        assert len(nxt) == pruning.count_sequences(length)[-1]
        frontier = nxt
    assert all(reached[g] == d for g, d in truth.items() if d <= 8)
    counts = np.bincount(list(truth.values())).tolist()
    canonical = pruning.count_sequences(8)
    assert all(c >= n for c, n in zip(canonical, counts))
    assert canonical[2] < len(PERMS) ** 2  # X X' was pruned


def test_key_set_with_ties_on_the_first_word():
    rng = np.random.default_rng(4)
    keys = np.stack([rng.integers(0, 5, 400), rng.integers(0, 1000, 400)]).astype(np.uint64)
    keys = keys[:, unique_columns(keys)]
    stored = keys[:, ::2]
    key_set, order = KeySet.of(stored, [3, 10])
    assert key_set.max_run > 10
    found = key_set.find(keys)
    position = {tuple(c): i for i, c in enumerate(stored[:, order].T.tolist())}
    expected = [position.get(tuple(c), -1) for c in keys.T.tolist()]
    assert found.tolist() == expected


def test_placement_ranks_round_trip():
    rows = np.array(list(itertools.permutations(range(6), 3)))
    ranks = placement_ranks(rows, 6)
    assert sorted(ranks.tolist()) == list(range(120))
    assert (placement_unranks(ranks, 6, 3) == rows).all()


def test_nibbles_round_trip():
    values = np.random.default_rng(5).integers(0, 16, 1001).astype(np.uint8)
    packed = pack(values, 4)
    assert len(packed) == 501
    assert (read_codes(packed, np.arange(1001), 4) == values).all()


def test_caches_round_trip_and_reject_damaged_files(space, goal, tmp_path, monkeypatch):
    monkeypatch.setenv("PERMGROUP_CACHE", str(tmp_path))
    key = {"puzzle": PUZZLE.fingerprint()}
    built = load_ball(space, goal, 4, key, "rU")
    loaded = load_ball(space, goal, 4, key, "rU")
    assert (built.keys.primary == loaded.keys.primary).all()
    assert (built.depths == loaded.depths).all()
    pdb = load_pattern_database(space, [2], goal, key, "rU")
    assert (load_pattern_database(space, [2], goal, key, "rU").packed == pdb.packed).all()
    again = load_digit_space(space.digits, NAMES, key, "rU")
    assert all((a == b).all() for a, b in zip(again.tables, space.tables))
    for path in tmp_path.iterdir():
        data = bytearray(path.read_bytes())
        data[-1] ^= 0xFF
        path.write_bytes(bytes(data))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rebuilt = load_ball(space, goal, 4, key, "rU")
    assert any("checksum" in str(w.message) for w in caught)
    assert rebuilt.distribution() == built.distribution()


def test_search_stats_count_work(space, goal, truth):
    ball = build_ball(space, goal, 2)
    g = max(truth, key=truth.get)
    stats = SearchStats()
    word = ida_star(space, space.of_elements([g]), ball, 40, pruning=MovePruning.of(PERMS),
                    stats=stats)
    assert len(word) == truth[g] and stats.lookups > 0
    assert len(stats.generated) == truth[g] - ball.radius
    assert simulate(g, word) == identity(N)


def test_levels_and_the_bidirectional_search_agree_with_a_plain_bfs(truth):
    """The one levels generator over colour rows (keys as bytes) finds every
    element at its distance, and the one bidirectional search (through the
    solver's colouring door, with gather moves) finds words of exactly the
    distance, checked by applying them."""
    from permgroup.levels import by_moves, levels, row_keys, rows_of
    from permgroup.moves import gather_of
    from permgroup.solver.exact import exact_word

    gathers = [gather_of(p) for p in PERMS]
    start = np.arange(N, dtype=np.uint8)
    step = by_moves(lambda keys, m: row_keys(rows_of(keys, np.uint8)[:, gathers[m]]), len(PERMS))
    counts = [1] + [len(level.states) for level in levels(row_keys(start[None, :]), step)]
    plain = [0] * (max(truth.values()) + 1)
    for d in truth.values():
        plain[d] += 1
    assert counts == plain
    moves = dict(zip(NAMES, gathers))
    rng = random.Random(5)
    for element in rng.sample(sorted(truth), 25):
        state = np.array(element, dtype=np.uint8)  # any colouring with distinct colours
        word = exact_word(moves, state, start)
        after = state
        for name in word:
            after = after[moves[name]]
        assert after.tolist() == start.tolist()
        # the state's element, read back in scatter form, is as far as the word is long
        assert len(word) == truth[tuple(int(x) for x in gather_of(state))]


def test_a_definitions_reachable_keys_take_memory_by_batch_not_by_level():
    """orbit._reachable (a definition's tied factors, the Skewb's 3,149,280
    pairs) walks the levels generator a batch at a time over a DenseKeys,
    which keeps no first-occurrence index it is not asked for: a whole level's
    images at once took the Skewb's space planning to a 340 MB peak (104 MB
    before the levels generator).  Here 2**21 keys, eight moves, the widest
    level about 1.8 million keys: all are reached, in order, and numpy's
    allocations stay far below one level's images (8 moves x 8 bytes x 1.8 M
    = 117 MB)."""
    import tracemalloc

    from permgroup.spaces.orbit import _reachable

    size = 1 << 21

    def images(keys):
        return ((keys * 8 + m) % size for m in range(8))

    tracemalloc.start()
    try:
        reached = _reachable(0, images, size)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert reached.tolist() == list(range(size))
    assert peak < 60e6, f"peak {peak / 1e6:.0f} MB"


def test_the_bidirectional_search_stops_within_the_wildcards(truth):
    """With mismatches, the start's side ends at the first state close enough
    to the goal: the word, applied, leaves at most that many positions wrong,
    and is never longer than the exact word."""
    from permgroup.moves import gather_of
    from permgroup.solver.exact import exact_word

    moves = dict(zip(NAMES, (gather_of(p) for p in PERMS)))
    goal = np.arange(N, dtype=np.uint8)
    rng = random.Random(8)
    for element in rng.sample(sorted(truth), 10):
        state = np.array(element, dtype=np.uint8)
        exact = exact_word(moves, state, goal)
        near = exact_word(moves, state, goal, mismatches=4)
        after = state
        for name in near:
            after = after[moves[name]]
        assert np.count_nonzero(after != goal) <= 4 and len(near) <= len(exact)
