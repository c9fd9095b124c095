"""The 2x2x2 mini cube: group orders, distributions, distance and solve."""
from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from permgroup.errors import InputError, UnreachableError
from permgroup.perm import compose_all
from puzzles import minicube
from puzzles.cube_geometry import FACES

SOLVED = "UUUURRRRFFFFDDDDLLLLBBBB"
QTM = [1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536,
       90280, 276]
HTM = [1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644]
QUARTER_TURNS = [f + s for f in FACES for s in ("", "'")]


def test_group_orders_from_sympy():
    puzzle = minicube.PUZZLE
    assert puzzle.group().order() == 88_179_840
    assert puzzle.symmetry_group().order() == 24
    model = minicube.table_model()
    fixed_corner = puzzle.group([]) if False else None
    from sympy.combinatorics import Permutation, PermutationGroup
    fixed_corner = PermutationGroup([Permutation(list(m)) for m in model.moves])
    assert fixed_corner.order() == 3_674_160 == model.ranking.size
    # every normalized move fixes the anchor corner
    assert all(m[minicube.ANCHOR] == minicube.ANCHOR for m in model.moves)


def test_distributions():
    assert minicube.table("qtm").distribution() == QTM
    assert minicube.table("htm").distribution() == HTM


def test_worked_examples():
    assert minicube.distance(SOLVED, minicube.apply_moves(SOLVED, "F U")) == 2
    assert minicube.distance(SOLVED, minicube.apply_moves(SOLVED, "U")) == 1
    assert minicube.distance(SOLVED, minicube.apply_moves(SOLVED, "R2")) == 2
    assert minicube.distance(SOLVED, minicube.apply_moves(SOLVED, "R2"), "htm") == 1


def test_rotation_is_distance_zero():
    for rotation in minicube.PUZZLE.symmetry_elements():
        rotated = "".join(SOLVED[i] for i in _preimage(rotation))
        assert minicube.distance(SOLVED, rotated) == 0


def _preimage(p):
    inv = [0] * len(p)
    for i, j in enumerate(p):
        inv[j] = i
    return inv


def _rotate(state, rotation):
    return "".join(state[i] for i in _preimage(rotation))


cubes = st.lists(st.sampled_from(QUARTER_TURNS), max_size=25).map(
    lambda moves: minicube.apply_moves(SOLVED, moves))
rotations = st.sampled_from(minicube.PUZZLE.symmetry_elements())
letters = st.permutations("WYROBG").map(lambda p: dict(zip(SOLVED[::4], p)))


@settings(max_examples=60, deadline=None)
@given(cubes, cubes, rotations, letters)
def test_distance_symmetric_and_rotation_invariant(a, b, r, recolour):
    d = minicube.distance(a, b)
    assert d == minicube.distance(b, a)
    assert d == minicube.distance(_rotate(a, r), b)
    assert d == minicube.distance(a, _rotate(b, r))
    paint = lambda s: "".join(recolour[c] for c in s)  # noqa: E731
    assert d == minicube.distance(paint(a), paint(b))


@settings(max_examples=40, deadline=None)
@given(cubes, cubes, cubes)
def test_triangle_inequality(a, b, c):
    assert minicube.distance(a, c) <= minicube.distance(a, b) + minicube.distance(b, c)


@settings(max_examples=60, deadline=None)
@given(cubes, cubes, st.sampled_from(["qtm", "htm"]))
def test_solve_reaches_target_in_distance_moves(a, b, metric):
    moves = minicube.solve(a, b, metric)
    assert len(moves) == minicube.distance(a, b, metric)
    assert minicube.distance(minicube.apply_moves(a, moves), b) == 0


def test_distance_agrees_with_plain_bfs_on_sticker_strings():
    """A second algorithm: BFS over raw facelet strings, normalized by brute force."""
    def canonical(state):
        return min(_rotate(state, r) for r in minicube.PUZZLE.symmetry_elements())

    moves = [minicube.PUZZLE.move_array(m) for m in QUARTER_TURNS]
    from permgroup.perm import act
    depth = {canonical(SOLVED): 0}
    frontier = [SOLVED]
    for d in range(1, 6):
        nxt = []
        for s in frontier:
            for m in moves:
                t = "".join(act(s, m))
                key = canonical(t)
                if key not in depth:
                    depth[key] = d
                    nxt.append(t)
        frontier = nxt
    assert [sum(1 for v in depth.values() if v == d) for d in range(6)] == QTM[:6]
    rng = random.Random(7)
    for state in rng.sample(sorted(depth), 200):
        assert minicube.distance(SOLVED, state) == depth[state]


def test_batched_distances_match_single():
    table = minicube.table("qtm")
    rng = np.random.default_rng(1)
    reachable = np.flatnonzero(table.depths != 255)
    p = rng.choice(reachable, 300)
    q = rng.choice(reachable, 300)
    batch = table.distances(p, q)
    identity_rank = table.space.identity
    assert (table.distances(np.full(300, identity_rank), q) == table.depths[q]).all()
    # against group elements built from words
    for _ in range(30):
        w1 = rng.choice(QUARTER_TURNS, 12).tolist()
        w2 = rng.choice(QUARTER_TURNS, 12).tolist()
        a = minicube.apply_moves(SOLVED, w1)
        b = minicube.apply_moves(SOLVED, w2)
        pa, qb = minicube.pair_elements(a, b)
        rp = np.array([table.space.rank(pa)])
        rq = np.array([table.space.rank(qb)])
        assert table.distances(rp, rq)[0] == minicube.distance(a, b)
    assert len(batch) == 300 and batch.max() <= 14


def test_different_schemes_are_an_error():
    mirrored = SOLVED.replace("R", "x").replace("L", "R").replace("x", "L")
    with pytest.raises(InputError, match="different colour schemes"):
        minicube.distance(SOLVED, mirrored)
    with pytest.raises(InputError, match="different colours"):
        minicube.distance(SOLVED, SOLVED.replace("U", "Z"))


def test_twisted_corner_is_unreachable():
    corner = minicube.CORNERS[0]
    s = list(SOLVED)
    a, b, c = corner
    s[a], s[b], s[c] = SOLVED[c], SOLVED[a], SOLVED[b]
    with pytest.raises(UnreachableError, match="twisted corner"):
        minicube.distance(SOLVED, "".join(s))


@pytest.mark.parametrize("bad, message", [
    (SOLVED[:-1], "expected 24 stickers"),
    (SOLVED[:-1] + "U", "six colours four times"),
    ("UUUURRRRFFFFDDDDLLLLBBBU", "six colours"),
])
def test_malformed_strings(bad, message):
    with pytest.raises(InputError, match=message):
        minicube.distance(SOLVED, bad)


def test_corner_with_opposite_colours():
    s = list(SOLVED)
    corner = minicube.CORNERS[0]  # U, L, B stickers
    s[corner[1]], s[minicube.GEOMETRY.index("R", 0, 1)] = "R", "L"
    with pytest.raises(InputError, match="corner"):
        minicube.distance("".join(s), SOLVED)


def test_move_names_compose():
    r = minicube.PUZZLE.move_array("R")
    assert compose_all([r] * 4, 24) == tuple(range(24))
    assert minicube.apply_moves(SOLVED, "R R'") == SOLVED


def test_twist_invariant_agrees_with_sympy_membership():
    """Reachability from the derived invariant equals sympy's group membership."""
    from sympy.combinatorics import Permutation

    rng = random.Random(3)
    group = minicube.PUZZLE.group()
    model = minicube.table_model()
    for _ in range(30):
        state = minicube.scramble(rng)
        # twist a random corner in place (a third of these stay reachable: t = 0)
        corner = rng.choice(minicube.CORNERS)
        t = rng.randrange(3)
        s = list(state)
        for u in range(3):
            s[corner[(u + t) % 3]] = state[corner[u]]
        raw = minicube.Scheme.infer(minicube.scramble(rng, 0)).element("".join(s))
        defect = model.ranking.twist_defects(model.normalize(raw))["corner"]
        # the class of raw is in the group iff some rotation of it is
        assert (defect == 0) == group.contains(Permutation(list(raw)))
        assert (defect == 0) == (t == 0)
