"""Solving through a chain of subgroups (two-phase), on the 2x2x2 and the 3x3x3.

Every answer is applied and checked here again; lengths are compared with
exact distances (the 2x2x2's full table, the 3x3x3's optimal search on
shallow positions): the chain may be longer, never shorter.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from permgroup.cli import main
from permgroup.errors import InputError, UnreachableError
from permgroup.perm import compose, compose_all
from permgroup.search.subgroup_chain import SubgroupChain, consistent_slots
from puzzles import cube3, minicube
from puzzles.formats import cube3_facelets

SOLVED = cube3.SOLVED
MINI_MOVES = "U U2 U' R R2 R' F F2 F'".split()


@pytest.fixture(scope="module")
def mini_chain():
    moves = {m: minicube.PUZZLE.move_array(m) for m in MINI_MOVES}
    return SubgroupChain("mini", moves, {"corner": minicube.CORNERS},
                         [["U", "U2", "U'", "R2", "F2"]])


def test_a_quick_chain_builds_only_what_takes_seconds(tmp_path, monkeypatch):
    """quick=True uses the last stage's ball of the full radius only when it is
    cached, else builds one a radius less; the full chain builds it, and a
    quick chain made afterwards reads it; every chain solves."""
    monkeypatch.setenv("PERMGROUP_CACHE", str(tmp_path))
    moves = {m: minicube.PUZZLE.move_array(m) for m in MINI_MOVES}

    def made(quick: bool) -> SubgroupChain:
        return SubgroupChain("mini", moves, {"corner": minicube.CORNERS},
                             [["U", "U2", "U'", "R2", "F2"]], last_stage_ball=3, quick=quick)

    g = compose_all([minicube.PUZZLE.move_array(m) for m in "R U F2 R' U2 F".split()], 24)
    radii = []
    for quick in (True, False, True):
        chain = made(quick)
        radii.append(chain.stages[-1].ball.radius)
        answer = chain.solve(g)
        assert compose_all([g] + [minicube.PUZZLE.move_array(m) for m in answer], 24) == \
            tuple(range(24))
    assert radii == [2, 3, 3]


def test_mini_chain_coordinates_tell_cosets_apart(mini_chain):
    # |G| = 3,674,160 = 729 twists x 5040 = |<U, R2, F2>| (sympy)
    assert mini_chain.orders() == [3674160, 5040, 1]
    assert mini_chain.indices() == [(729, 729), (5040, 5040)]


def test_mini_chain_against_the_exact_table(mini_chain):
    rng = random.Random(3)
    table = minicube.table("htm")
    identity = tuple(range(24))
    for _ in range(40):
        word = [rng.choice(MINI_MOVES) for _ in range(25)]
        g = compose_all([minicube.PUZZLE.move_array(m) for m in word], 24)
        answer = mini_chain.solve(g)
        assert compose_all([g] + [minicube.PUZZLE.move_array(m) for m in answer], 24) == identity
        assert len(answer) >= table.distance(g, identity)
        # nothing shorter than the two phases allow: at most the optimal
        # first phase plus the optimal second phase's diameter
        assert len(answer) <= 11 + 13


def test_a_longer_chain_through_a_middle_stage():
    # G ⊃ <U, R2, F2> ⊃ <U2, R2, F2> ⊃ 1: the middle coordinate (which slots
    # hold each orbit's corners) has 35 values for an index of 210, so some
    # middle-stage ends are not in <U2, R2, F2>; the last stage's exact table
    # marks them unreachable and the search goes on without them
    moves = {m: minicube.PUZZLE.move_array(m) for m in MINI_MOVES}
    chain = SubgroupChain("mini3", moves, {"corner": minicube.CORNERS},
                          [["U", "U2", "U'", "R2", "F2"], ["U2", "R2", "F2"]])
    assert chain.orders() == [3674160, 5040, 24, 1]
    assert chain.indices() == [(729, 729), (210, 35), (24, 144)]
    rng = random.Random(8)
    table = minicube.table("htm")
    identity = tuple(range(24))
    for _ in range(10):
        g = compose_all([moves[rng.choice(MINI_MOVES)] for _ in range(20)], 24)
        answer = chain.solve(g)
        assert compose_all([g] + [moves[m] for m in answer], 24) == identity
        assert len(answer) >= table.distance(g, identity)


def test_move_costs_make_half_turns_count_two():
    # half turns given as moves of their own, costing two quarter turns: words are
    # measured in quarter turns, so never under the exact quarter-turn distance;
    # and the search over costs finds, among words of the chain's form (a first
    # stage ending outside H, the rest in H), the cheapest, so never more than
    # the cost of the word the move-counting chain picks
    moves = {m: minicube.PUZZLE.move_array(m) for m in MINI_MOVES}
    costs = {"U2": 2, "R2": 2, "F2": 2}
    weighted = SubgroupChain("mini-costs", moves, {"corner": minicube.CORNERS},
                             [["U", "U2", "U'", "R2", "F2"]], costs=costs)
    counted = SubgroupChain("mini", moves, {"corner": minicube.CORNERS},
                            [["U", "U2", "U'", "R2", "F2"]])
    quarter = minicube.table("qtm")
    identity = tuple(range(24))
    rng = random.Random(5)
    cheaper = 0
    for _ in range(25):
        g = compose_all([moves[rng.choice(MINI_MOVES)] for _ in range(25)], 24)
        answer = weighted.solve(g)
        assert compose_all([g] + [moves[m] for m in answer], 24) == identity
        cost = sum(costs.get(m, 1) for m in answer)
        assert cost >= quarter.distance(g, identity)
        plain = sum(costs.get(m, 1) for m in counted.solve(g))
        assert cost <= plain
        cheaper += cost < plain
    assert cheaper > 0  # the costs change some answers


def test_max_length_stops_at_the_first_short_enough_answer(mini_chain):
    g = compose_all([minicube.PUZZLE.move_array(m) for m in "R U F2 R' U2".split()], 24)
    answer = mini_chain.solve(g, max_length=30)
    assert compose_all([g] + [minicube.PUZZLE.move_array(m) for m in answer], 24) == \
        tuple(range(24))


def test_consistent_slots_turn_pieces_for_the_subgroup():
    # the face turns of <U, D, R2, L2, F2, B2> keep a consistent reference
    # sticker on every edge; a quarter turn of F flips edges, so <F> has none
    # that every power of F keeps together with ... (F F F F = 1: it does)
    moves = cube3.moves("htm")
    h = {m: moves[m] for m in cube3.PHASE_TWO}
    assert consistent_slots(cube3.EDGES, h) is not None
    assert consistent_slots(cube3.CORNERS, h) is not None
    assert consistent_slots(cube3.EDGES, moves) is None  # G flips edges in place


@pytest.fixture(scope="module")
def chain():
    return cube3.two_phase()


def test_cube3_chain_indices_match_sympy(chain):
    assert chain.indices() == [(2217093120, 2217093120), (19508428800, 39016857600)]


def test_phase_one_table_over_symmetry_classes_is_exact(chain):
    first = chain.stages[0]
    table = first.exact
    assert table is not None and chain.stages[1].exact is None  # phase 2: pattern databases
    # 64,430 classes of flip and middle-layer placement under the 16 symmetries
    # keeping the U-D axis (Kociemba's count), times the 2,187 twists
    assert table.entries == 64_430 * 2187
    assert first.bound(first.goal).tolist() == [0]
    rng = np.random.default_rng(4)
    states = first.space.of_elements(np.array([cube3.random_element(rng) for _ in range(300)]))
    # short scrambles too, where the table's depths are small
    for length in range(1, 7):
        words = rng.integers(0, len(first.moves), (50, length))
        batch = np.repeat(first.goal, 50, axis=1)
        for column in words.T:
            batch = np.stack([first.space.factors[i].table[column, batch[i]]
                              for i in range(batch.shape[0])])
        states = np.concatenate([states, batch.astype(states.dtype)], axis=1)
    depth = first.bound(states).astype(int)
    neighbours = np.stack([first.bound(first.space.step(states, m)).astype(int)
                           for m in range(len(first.moves))])
    # a BFS distance: 0 only at the goal, neighbours within one, and a way one down
    assert ((depth == 0) == first.at_goal(states)).all()
    assert (np.abs(neighbours - depth[None, :]) <= 1).all()
    assert ((neighbours.min(axis=0) == depth - 1) | (depth == 0)).all()
    assert depth.max() <= 12 and depth[:300].mean() > 9  # random cubes: 9.5 on average


def test_random_cubes_are_solved_and_checked(chain):
    rng = np.random.default_rng(11)
    for _ in range(8):
        state = cube3.facelets(cube3.random_element(rng))
        word = cube3.solve(state, time_limit=0.2)
        assert cube3.apply_moves(state, word) == SOLVED
        assert len(word) <= 24
        assert all(m[0] in "URFDLB" and m[1:] in ("", "2", "'") for m in word)


def test_recoloured_cubes_are_read_through_their_centres(chain):
    state = cube3.apply_moves("".join(c * 9 for c in "WRGYOB"), "R U F' D2 L B")
    word = cube3.solve(state, time_limit=0.2)
    assert cube3.apply_moves(state, word) == "".join(c * 9 for c in "WRGYOB")


def test_never_shorter_than_optimal_on_shallow_positions(chain):
    rng = random.Random(4)
    htm = list(cube3.moves("htm"))
    for length in range(0, 6):
        state = cube3.apply_moves(SOLVED, [rng.choice(htm) for _ in range(length)])
        optimal = cube3.solve(state, max_depth=length, metric="htm")
        word = cube3.solve(state, time_limit=0.3)
        assert cube3.apply_moves(state, word) == SOLVED
        assert len(optimal) <= len(word) <= length


def test_optimal_keeps_the_exact_search(chain):
    state = cube3.apply_moves(SOLVED, "R U' F2")
    assert cube3.solve(state, optimal=True) == ["F", "F", "U", "R'"]  # quarter turns
    assert cube3.solve(state, max_depth=3, metric="htm") == ["F2", "U", "R'"]
    assert cube3.solve(state, max_depth=3) is None
    assert len(cube3.solve(state, max_length=3)) == 3  # face turns, two-phase


def test_illegal_cubes_keep_their_named_errors():
    twisted = cube3.apply_moves(SOLVED, "R")  # then twist the URF corner in place
    corner = cube3.CORNERS[1]
    s = list(twisted)
    a, b, c = (s[i] for i in corner)
    s[corner[0]], s[corner[1]], s[corner[2]] = c, a, b
    with pytest.raises(UnreachableError, match="corner twist sum"):
        cube3.solve("".join(s))
    with pytest.raises(InputError, match="expected 54 stickers"):
        cube3.solve(SOLVED + "U")


@pytest.mark.slow
def test_superflip_within_21(chain):
    superflip = ("U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2")
    state = cube3.apply_moves(SOLVED, superflip)
    word = cube3.solve(state, time_limit=2.0)
    assert cube3.apply_moves(state, word) == SOLVED
    assert len(word) <= 21


# --- the cube3-facelets format ----------------------------------------------------

def test_format_answers_each_line(chain, tmp_path, capsys):
    states = [cube3.apply_moves(SOLVED, w) for w in ("R U", "F2 D' L")]
    path = tmp_path / "in.txt"
    path.write_text(states[0] + "\n\n" + SOLVED + "\r\n" + states[1] + "\n")
    assert main(["solve", "cube3-facelets", str(path), "--max-length", "3",
                 "--time-limit", "0.5"]) == 0
    lines = capsys.readouterr().out.split("\n")
    assert lines[-1] == "" and len(lines) == 4
    assert lines[1] == ""  # the solved cube
    for state, line in zip(states, [lines[0], lines[2]]):
        assert cube3.apply_moves(state, line.split()) == SOLVED
        assert 0 < len(line.split()) <= 3


def test_format_example_file(chain, capsys):
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "examples" / "cube3-facelets.txt"
    cubes = path.read_text().split()
    assert main(["solve", "cube3-facelets", str(path), "--time-limit", "0.1"]) == 0
    lines = capsys.readouterr().out.split("\n")[:-1]
    assert len(lines) == len(cubes)
    for state, line in zip(cubes, lines):
        solved = "".join(state[i] for i in cube3.CENTRES for _ in range(9))
        assert cube3.apply_moves(state, line.split()) == solved
        assert len(line.split()) <= 24


@pytest.mark.parametrize("bad, message", [
    (SOLVED[:50], "line 2: expected 54 stickers, got 50"),
    (SOLVED[:53] + "X", "line 2: every colour must appear 9 times"),
    (cube3.apply_moves(SOLVED, "R")[:9] + SOLVED[9:], "line 2: "),
    (SOLVED[:7] + "F" + SOLVED[8:19] + "U" + SOLVED[20:], "line 2: .*a flipped edge"),
])
def test_format_bad_lines(chain, tmp_path, capsys, bad, message):
    good = cube3.apply_moves(SOLVED, "U")
    path = tmp_path / "in.txt"
    path.write_text(good + "\n" + bad + "\n" + good + "\n")
    assert main(["solve", "cube3-facelets", str(path), "--time-limit", "0.1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "U'\n"  # the good line before the bad one is answered
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("permgroup: error: ")
    import re
    assert re.search(message, err[0])


def test_format_options_are_checked():
    with pytest.raises(InputError, match="--time-limit must be more than 0"):
        cube3_facelets.solve_text(SOLVED, time_limit=0)
    with pytest.raises(InputError, match="--max-length must be at least 0"):
        cube3_facelets.solve_text(SOLVED, max_length=-1)
    assert cube3_facelets.solve_text("") == ""
