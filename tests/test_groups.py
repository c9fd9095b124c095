"""What a GAP user asks of a puzzle's group, from explore and the command
line: order, membership, random elements, stabilizers, blocks, the derived
series, solvability, element orders, and the order of puzzles too big for
sympy.

Facts checked: sympy's ``order()``, ``stabilizer``, ``derived_series`` and
``is_solvable`` on the same permutations; a stabilizer's order is the group's
over the orbit (and its generators fix the points); a block system is mapped
onto itself by every move; the share of element orders in the cube group
(random elements of even order are known to be about 3/4 of it, here read
against sympy's exact count on the 2x2x2); published group orders (the
3x3x3, the 4x4x4's and 5x5x5's Santa types against sympy's, S_n); the
command line prints an order of any number of digits.
"""
from __future__ import annotations

import subprocess
import sys
from collections import Counter
from math import factorial

import pytest
from sympy.combinatorics import Permutation, PermutationGroup

from permgroup import explore
from permgroup.elements import Element
from permgroup.puzzle import Puzzle
from tests.conftest import DATA, ROOT

INFO = DATA / "santa2023" / "puzzle_info.csv"


def _sympy(puzzle):
    return PermutationGroup([Permutation(list(g), size=puzzle.degree)
                             for g in puzzle.generators.values()])


def test_membership_and_random_elements_agree_with_sympy():
    cube = explore.load_puzzle("cube3")
    group = _sympy(cube)
    for seed in range(5):
        g = explore.random_element(cube, seed=seed)
        assert explore.contains(cube, g) and group.contains(Permutation(list(g.perm)))
        swapped = list(g.perm)
        swapped[0], swapped[1] = swapped[1], swapped[0]
        assert not explore.contains(cube, swapped)
        assert not group.contains(Permutation(swapped))


def test_a_stabilizer_is_the_group_over_the_orbit():
    cube = explore.load_puzzle("cube3")
    corner = cube.pieces["corner"][0]
    sub = explore.stabilizer(cube, corner)
    assert all(g[x] == x for g in sub.generators.values() for x in corner)
    assert explore.order(sub) == _sympy(cube).pointwise_stabilizer(list(corner)).order()
    assert explore.order(cube) // explore.order(explore.stabilizer(cube, corner[0])) == 24


def test_blocks_are_mapped_onto_blocks():
    cube = explore.load_puzzle("cube3")
    found = explore.blocks(cube, cube.pieces["edge"][0])
    assert sorted(map(sorted, found)) == sorted(sorted(p) for p in cube.pieces["edge"])
    block_of = {x: i for i, b in enumerate(found) for x in b}
    for g in cube.generators.values():
        for b in found:
            assert len({block_of[g[x]] for x in b}) == 1


@pytest.mark.parametrize("name", ["minicube", "pyraminx",
                                  pytest.param("skewb", marks=pytest.mark.slow)])
def test_derived_series_and_solvability_agree_with_sympy(name):
    puzzle = explore.load_puzzle(name)
    group = _sympy(puzzle)
    assert explore.derived_series(puzzle) == [h.order() for h in group.derived_series()]
    assert explore.is_solvable(puzzle) == group.is_solvable


def test_a_small_solvable_group():
    s4 = Puzzle("s4", 4, {"A": (1, 2, 3, 0), "B": (1, 0, 2, 3)})
    assert explore.derived_series(s4) == [24, 12, 4, 1]
    assert explore.is_solvable(s4)


def test_element_orders_are_estimated_and_said_so():
    s6 = Puzzle("s6", 6, {"A": (1, 2, 3, 4, 5, 0), "B": (1, 0, 2, 3, 4, 5)})
    found = explore.element_orders(s6, samples=3000, seed=1)
    assert sum(found.counts.values()) == 3000
    assert "estimated from 3,000 uniformly random elements" in found.text()
    exact = Counter(p.order() for p in _sympy(s6).generate())  # all 720, counted
    assert set(found.counts) <= set(exact)
    for order_, count in exact.items():
        assert abs(found.share(order_) - count / 720) < 0.04


@pytest.mark.parametrize("kind", ["cube_3/3/3", "globe_3/4", "wreath_6/6",
                                  pytest.param("cube_4/4/4", marks=pytest.mark.slow)])
def test_santa_types_agree_with_sympy(kind):
    puzzle = explore.load_puzzle(f"{INFO}#{kind}")
    assert explore.order(puzzle) == _sympy(puzzle).order()


def test_a_symmetric_group_of_many_points_and_its_digits(tmp_path):
    """S_2000 from a 2000-cycle and a transposition: 5,736 digits printed."""
    n = 2000
    path = tmp_path / "s2000.gap"
    path.write_text("M_C:=(" + ",".join(map(str, range(1, n + 1))) + ");\nM_T:=(1,2);\n")
    out = subprocess.run([sys.executable, "-m", "permgroup", "order", str(path)],
                         capture_output=True, text=True, cwd=ROOT,
                         env={"PERMGROUP_CACHE": str(tmp_path), "PYTHONPATH": str(ROOT),
                              "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    digits = lines[0].removeprefix("order: ")
    # 2000! = 3.3162750924...e5735, with 499 zeros at its end
    assert len(digits) == 5736 and digits.startswith("33162750924")
    assert digits.endswith("0" * 499) and not digits.endswith("0" * 500)
    assert int(digits[-520:]) == factorial(n) % 10 ** 520
    assert lines[1] == "structure: S2000"
    assert "1 × S2000 on 2000 points" in out.stdout


def test_the_element_of_a_puzzle_object():
    cube = explore.load_puzzle("cube3")
    assert explore.contains(cube, Element.from_word(cube, "R U R' U'"))
    assert explore.chain(cube).order == 43252003274489856000


def test_a_set_stabilizer_is_the_group_over_the_orbit_of_the_set():
    cube = explore.load_puzzle("cube3")
    corner = cube.pieces["corner"][0]
    # the images of the corner's set of stickers, listed independently
    seen, todo = {frozenset(corner)}, [frozenset(corner)]
    while todo:
        s = todo.pop()
        for g in cube.generators.values():
            image = frozenset(g[x] for x in s)
            if image not in seen:
                seen.add(image)
                todo.append(image)
    sub = explore.stabilizer(cube, corner, setwise=True)
    assert all(set(g[x] for x in corner) == set(corner) for g in sub.generators.values())
    assert explore.order(cube) // explore.order(sub) == len(seen) == 8


def test_types_santa_does_not_have_agree_with_sympy(tmp_path):
    from puzzles.santa_types import puzzle_info

    kinds = ["globe_2/5", "wreath_9/9", "cube_5/5/5"]
    (tmp_path / "info.csv").write_text(puzzle_info(kinds))
    for kind in kinds[:2]:
        puzzle = explore.load_puzzle(f"{tmp_path / 'info.csv'}#{kind}")
        assert explore.order(puzzle) == _sympy(puzzle).order()
    # the 5x5x5's: the structure route and the chain, two algorithms, agree
    cube5 = explore.load_puzzle(f"{tmp_path / 'info.csv'}#cube_5/5/5")
    assert explore.structure(cube5).order == explore.chain(cube5).order


def test_a_cyclic_group_on_many_points_keeps_a_schreier_tree():
    n = 3000
    big = Puzzle("cycle", n, {"C": tuple(range(1, n)) + (0,)})
    chain = explore.chain(big)
    assert chain.order == n and chain.proven and "cyclic" in chain.proof
    assert explore.contains(big, tuple(range(7, n)) + tuple(range(7)))
    assert not explore.contains(big, (1, 0) + tuple(range(2, n)))


def test_permgroup_group_on_the_command_line(tmp_path):
    lines = tmp_path / "perms.txt"
    cube = explore.load_puzzle("cube3")
    member = explore.random_element(cube, seed=2).perm
    lines.write_text(" ".join(map(str, member)) + "\n" + " ".join(map(str, range(53, -1, -1))) + "\n")
    out = subprocess.run([sys.executable, "-m", "permgroup", "group", "cube3", "--derived",
                          "--stabilizer", "0", "--contains", str(lines)],
                         capture_output=True, text=True, cwd=ROOT,
                         env={"PERMGROUP_CACHE": str(tmp_path), "PYTHONPATH": str(ROOT),
                              "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    text = out.stdout.splitlines()
    assert text[0] == "order: 43252003274489856000"
    assert "stabilizer of point 0: order 1802166803103744000 (index 24)" in text
    assert "derived series: 43252003274489856000 > 21626001637244928000 (not solvable)" in text
    assert "line 1: in the group" in text
    assert any(t.startswith("line 2: not in the group: ") for t in text)


def test_minimal_blocks_agree_with_sympy():
    """Atkinson's joins with the moves' powers (a long cycle's) against
    sympy's ``minimal_block`` on transitive groups with and without blocks."""
    import numpy as np

    from permgroup.pieces import minimal_blocks

    n = 60
    cycle = [(i + 1) % n for i in range(n)]
    cases = [[cycle], [cycle, [(i + 10) % 20 + 20 * (i // 20) for i in range(n)]],
             [cycle, [1, 0] + list(range(2, n))], [cycle, [(7 * i) % n for i in range(n)]]]
    for gens in cases:
        group = PermutationGroup([Permutation(g) for g in gens])
        for b in (1, 2, 5, 12, 30):
            theirs = group.minimal_block([0, b])
            mine = minimal_blocks(np.array(gens), [0, b]).tolist()
            assert all((theirs[i] == theirs[j]) == (mine[i] == mine[j])
                       for i in range(n) for j in range(n)), (gens, b)


def test_big_santa_types_two_algorithms_and_membership(tmp_path):
    """Santa types past sympy: the structure route and the stabilizer chain
    agree (two algorithms); on the 10x10x10, random elements are reachable,
    and the same elements with two stickers swapped are not, each decided by
    explore.reachable (with a reason) and by the chain alike."""
    import numpy as np

    from puzzles.santa_types import puzzle_info

    kinds = ["cube_10/10/10", "wreath_100/100", "globe_8/25"]
    (tmp_path / "info.csv").write_text(puzzle_info(kinds))
    for kind in kinds:
        puzzle = explore.load_puzzle(f"{tmp_path / 'info.csv'}#{kind}")
        chain = explore.chain(puzzle)
        assert chain.proven and explore.structure(puzzle).order == chain.order, kind
    cube = explore.load_puzzle(f"{tmp_path / 'info.csv'}#cube_10/10/10")
    chain = explore.chain(cube)
    rng = np.random.default_rng(5)
    members = chain.random_elements(20, rng)
    swapped = members.copy()
    centre = chain.factors[-1].points  # one orbit of centre stickers: only parity forbids
    for i, row in enumerate(swapped):
        a, b = rng.choice(cube.degree, 2, replace=False) if i % 2 else centre[:2]
        row[[a, b]] = row[[b, a]]
    assert chain.contains(members).all() and not chain.contains(swapped).any()
    for g, h in zip(members, swapped):
        assert explore.reachable(cube, Element(cube, tuple(g.tolist())))
        found = explore.reachable(cube, Element(cube, tuple(h.tolist())))
        assert not found and found.reasons
        assert chain.why_not(h) is not None and chain.why_not(g) is None


def test_permgroup_group_refuses_bad_input_before_any_work(tmp_path):
    perms = tmp_path / "perms.txt"
    perms.write_text("1 0 2\n")
    env = {"PERMGROUP_CACHE": str(tmp_path), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    for args, message in ((["--stabilizer", "99"], "--stabilizer 99: cube3 has points 0 to 53"),
                          (["--contains", str(perms)],
                           f"{perms}, line 1: not a permutation of 0..53")):
        out = subprocess.run([sys.executable, "-m", "permgroup", "group", "cube3", *args],
                             capture_output=True, text=True, cwd=ROOT, env=env)
        assert out.returncode == 2 and out.stdout == ""
        assert out.stderr.strip().splitlines()[-1] == f"permgroup: error: {message}"
