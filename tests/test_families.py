"""The named Cayley-graph families (puzzles/families.py).

Facts checked: growth functions (the number of states at each distance) equal
the published ones (OEIS; the CayleyPy project's growth tables, typed in here),
diameters equal the pancake and burnt pancake numbers, the order the growth
adds up to equals sympy's, and each name works wherever a puzzle name does.
"""
from __future__ import annotations

import math
import subprocess
import sys

import pytest

from permgroup.errors import InputError
from permgroup.explore import load_definition, load_puzzle, order
from permgroup.tables.orbit_table import build_orbit_table
from puzzles.families import family_definition
from tests.conftest import ROOT

# CayleyPy's published growth tables (data/*_cayley_growth.csv), a few rows each
LRX = {
    5: [1, 3, 6, 10, 16, 24, 29, 21, 6, 3, 1],
    6: [1, 3, 6, 11, 20, 35, 55, 81, 109, 128, 126, 95, 40, 6, 3, 1],
    7: [1, 3, 6, 12, 22, 42, 73, 124, 203, 303, 425, 559, 678, 713, 746, 611, 355, 122, 28,
        10, 3, 1],
    8: [1, 3, 6, 12, 23, 44, 80, 142, 247, 411, 662, 1019, 1481, 2059, 2745, 3465, 4126, 4633,
        4913, 4777, 4163, 3079, 1612, 488, 94, 25, 6, 3, 1],
}
LRX_11 = [1, 3, 6, 12, 24, 48, 89, 166, 309, 560, 1001, 1776, 3097, 5314, 8937, 14618, 23293,
          36288, 55172, 81871, 118838, 169112, 235115, 319961, 427229, 559464, 716979, 903686,
          1116773, 1352909, 1609076, 1880395, 2148532, 2408704, 2650204, 2844421, 2980448,
          3049721, 3017424, 2878200, 2626374, 2235627, 1702643, 1044515, 475424, 155851, 42082,
          10262, 2835, 937, 328, 100, 32, 10, 3, 1]
# words in L and X alone (CayleyPy's lx table; OEIS A039745 lists the diameters)
LX = {
    5: [1, 2, 3, 5, 8, 12, 15, 20, 22, 19, 11, 2],
    8: [1, 2, 3, 5, 8, 13, 21, 34, 54, 86, 133, 195, 275, 379, 514, 685, 901, 1170, 1492, 1850,
        2217, 2586, 2947, 3276, 3534, 3649, 3589, 3343, 2865, 2167, 1358, 688, 239, 31, 9, 1],
}
PANCAKE = {
    4: [1, 3, 6, 11, 3],
    6: [1, 5, 20, 79, 199, 281, 133, 2],
    8: [1, 7, 42, 251, 1191, 4281, 10561, 15011, 8520, 455],
}
PANCAKE_11 = [1, 10, 90, 809, 6429, 43891, 252737, 1174766, 4126515, 9981073, 14250471,
              9123648, 956354, 6]
BURNT = {
    3: [1, 3, 6, 12, 18, 6, 2],
    5: [1, 5, 20, 80, 280, 680, 1214, 1127, 389, 40, 4],
    6: [1, 6, 30, 150, 675, 2340, 6604, 12795, 15519, 6957, 959, 43, 1],
}
TOPSPIN = {
    6: [1, 3, 6, 11, 20, 37, 63, 103, 165, 152, 106, 46, 7],
    8: [1, 3, 6, 12, 23, 44, 85, 148, 244, 389, 621, 996, 1584, 2484, 3764, 5452, 6968, 7138,
        6292, 3036, 848, 166, 16],
}
HUNGARIAN = {
    (3, 1, 3, 1): [1, 4, 6, 1],
    (4, 1, 4, 1): [1, 4, 10, 22, 42, 33, 7, 1],
    (5, 2, 5, 2): [1, 4, 12, 32, 86, 228, 594, 1485, 3337, 5692, 5860, 2520, 296, 13],
    (2, 0, 3, 0): [1, 3, 4, 6, 6, 3, 1],
}
GLOBE = {
    (1, 1): [1, 4, 10, 8, 1],
    (2, 1): [1, 5, 14, 18, 9, 1],
    (3, 1): [1, 6, 23, 72, 179, 202, 85, 8],
}
# OEIS A058986 (pancake numbers) and A078941 (burnt pancake numbers), from n = 1
PANCAKE_NUMBERS = [0, 1, 3, 4, 5, 7, 8, 9]
BURNT_NUMBERS = [1, 4, 6, 8, 10, 12, 14]


def growth(name: str) -> list[int]:
    return build_orbit_table(load_definition(name), "qtm").distribution()


def mahonian(n: int) -> list[int]:
    """Permutations of n by inversions (OEIS A008302), by its recurrence."""
    row = [1]
    for m in range(2, n + 1):
        row = [sum(row[k - j] for j in range(m) if 0 <= k - j < len(row))
               for k in range(len(row) + m - 1)]
    return row


def stirling_first(n: int) -> list[int]:
    """Unsigned Stirling numbers of the first kind c(n, n - d), d = 0..n-1 (OEIS A094638)."""
    row = [1]  # coefficients of x(x+1)...(x+n-1) from the top power down
    for m in range(1, n):
        row = [row[k] + (m * row[k - 1] if k else 0) for k in range(len(row))] + [m * row[-1]]
    return row


@pytest.mark.parametrize("n", sorted(LRX))
def test_lrx_growth_is_published(n):
    assert growth(f"lrx-{n}") == LRX[n]


def test_lx_counts_the_inverse_shift_in_qtm():
    assert growth("lx-6") == LRX[6]


@pytest.mark.parametrize("n", sorted(LX))
def test_lx_growth_in_the_generators_alone_is_published(n):
    counts = build_orbit_table(load_definition(f"lx-{n}"), "gens").distribution()
    assert counts == LX[n] and sum(counts) == math.factorial(n)


def test_a_directed_table_gives_no_way_back(tmp_path):
    table = build_orbit_table(load_definition("lx-5"), "gens")
    with pytest.raises(InputError, match="directed metric gens"):
        table.solve(table.space.position_of(["L"]))
    run = [sys.executable, "-m", "permgroup"]
    env = {"PERMGROUP_CACHE": str(tmp_path), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(run + ["table", "lx-8", "--metric", "gens"], capture_output=True,
                         text=True, env=env)
    assert [int(line.split("\t")[1]) for line in out.stdout.splitlines()
            if "\t" in line] == LX[8]
    out = subprocess.run(run + ["table", "minicube", "--metric", "gens"], capture_output=True,
                         text=True, env=env)
    assert out.returncode == 2 and "gens" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize("n", sorted(PANCAKE))
def test_pancake_growth_is_published(n):
    assert growth(f"pancake-{n}") == PANCAKE[n]


def test_pancake_and_burnt_pancake_numbers():
    assert [len(growth(f"pancake-{n}")) - 1 for n in range(2, 9)] == PANCAKE_NUMBERS[1:]
    assert [len(growth(f"burnt-pancake-{n}")) - 1 for n in range(1, 8)] == BURNT_NUMBERS


@pytest.mark.parametrize("n", sorted(BURNT))
def test_burnt_pancake_growth_is_published(n):
    counts = growth(f"burnt-pancake-{n}")
    assert counts == BURNT[n]
    assert sum(counts) == 2 ** n * math.factorial(n)  # the signed permutations


@pytest.mark.parametrize("n", sorted(TOPSPIN))
def test_topspin_growth_is_published(n):
    assert growth(f"topspin-{n}") == TOPSPIN[n] == growth(f"topspin-{n}-4")


@pytest.mark.parametrize("n", [3, 5, 7])
def test_coxeter_growth_counts_inversions(n):
    assert growth(f"coxeter-{n}") == mahonian(n)


@pytest.mark.parametrize("n", [3, 5, 7])
def test_transpositions_growth_is_stirling(n):
    assert growth(f"transpositions-{n}") == stirling_first(n)


@pytest.mark.parametrize("sizes", sorted(HUNGARIAN))
def test_hungarian_rings_growth_is_published(sizes):
    assert growth("hungarian-" + "-".join(map(str, sizes))) == HUNGARIAN[sizes]


@pytest.mark.parametrize("sizes", sorted(GLOBE))
def test_globe_growth_is_published(sizes):
    assert growth("globe-" + "-".join(map(str, sizes))) == GLOBE[sizes]


def test_globe_moves_are_santa_2023s():
    """globe_3/4 of Kaggle's Santa 2023 (tests/data/santa2023), move for move."""
    santa = load_definition(str(ROOT / "tests/data/santa2023/puzzle_info.csv") + "#globe_3/4")
    ours = load_definition("globe-3-4")
    assert ours.puzzle.generators == santa.puzzle.generators


@pytest.mark.parametrize("name", ["lrx-7", "pancake-6", "burnt-pancake-4", "topspin-7-3",
                                  "coxeter-5", "transpositions-5", "hungarian-5-2-5-2",
                                  "globe-2-1"])
def test_growth_adds_up_to_sympys_order(name):
    assert sum(growth(name)) == order(load_puzzle(name))


@pytest.mark.slow
@pytest.mark.parametrize("name, published", [("lrx-11", LRX_11), ("pancake-11", PANCAKE_11)])
def test_eleven_point_growth_is_published(name, published):
    assert growth(name) == published


def test_bad_family_names_are_named():
    with pytest.raises(InputError, match="topspin-3: topspin-N-K needs N >= K >= 2"):
        family_definition("topspin-3")
    with pytest.raises(InputError, match="hungarian-5-0-5-2: I and J"):
        family_definition("hungarian-5-0-5-2")
    with pytest.raises(InputError, match="at most 256 points"):
        family_definition("transpositions-100000")
    assert family_definition("lrx") is None and family_definition("cube3") is None


def test_cubes_and_globes_past_256_cells_are_members():
    # Santa's cube_7/7/7 (294 stickers) and globe_8/25 (450 cells) by their family names
    cube7 = family_definition("cube-7")
    assert cube7.puzzle.degree == 294 and len(cube7.moves) == 21
    assert family_definition("globe-8-25").puzzle.degree == 450
    with pytest.raises(InputError, match="cube-41: 10086 stickers; a cube here has at most 10,000"):
        family_definition("cube-41")


def test_family_names_work_on_the_command_line(tmp_path):
    run = [sys.executable, "-m", "permgroup"]
    env = {"PERMGROUP_CACHE": str(tmp_path), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(run + ["table", "lrx-6", "--metric", "qtm"], capture_output=True,
                         text=True, env=env, cwd=tmp_path)
    assert out.returncode == 0
    rows = [line.split("\t") for line in out.stdout.splitlines() if "\t" in line]
    assert [int(c) for _, c in rows] == LRX[6]
    assert out.stdout.splitlines()[-1] == "# total 720, diameter 15"
    out = subprocess.run(run + ["order", "burnt-pancake-5"], capture_output=True, text=True,
                         env=env, cwd=tmp_path)
    assert out.stdout.splitlines()[0] == "order: 3840"
    moves = tmp_path / "moves.txt"
    moves.write_text("R4 R2\nR\n")
    out = subprocess.run(run + ["optimal", "pancake-5", str(moves)], capture_output=True,
                         text=True, env=env, cwd=tmp_path)
    assert out.returncode == 2
    assert out.stdout == "R2 R4\n"
    assert "line 2" in out.stderr and "'R'" in out.stderr
    out = subprocess.run(run + ["order", "pancake-x"], capture_output=True, text=True, env=env,
                         cwd=tmp_path)
    assert out.returncode == 2 and out.stderr.startswith("permgroup: error: unknown puzzle")


def test_cube_family_is_santas_cube():
    """cube-N is Santa 2023's cube_N/N/N sticker for sticker and move for move
    (the same definition but for its name and Santa's -name spellings), its
    pieces found from the moves; it turns every layer, so whole-cube rotations
    are in its group: the 2x2x2's 3,674,160 positions and the 3x3x3's
    43,252,003,274,489,856,000 times the 24 rotations (sympy's order of the
    sticker group)."""
    info = str(ROOT / "tests/data/santa2023/puzzle_info.csv")
    for n in (2, 3, 4):
        ours, santa = family_definition(f"cube-{n}"), load_definition(f"{info}#cube_{n}/{n}/{n}")
        assert ours.orbits == santa.orbits and ours.moves == santa.moves
        assert ours.solved == santa.solved and ours.rotations == santa.rotations == {}
        assert ours.puzzle.generators == santa.puzzle.generators
        assert ours.puzzle.pieces == santa.puzzle.pieces
        assert santa.derived == {f"-{m}": f"{m}'" for m in santa.moves} and not ours.derived
    kinds = [(o.size, o.orientations) for o in family_definition("cube-4").orbits]
    assert kinds == [(8, 3), (24, 2), (24, 1)]   # corners, wings, centres
    assert family_definition("cube-2").puzzle.group().order() == 3_674_160 * 24
    assert family_definition("cube-3").puzzle.group().order() == 43_252_003_274_489_856_000 * 24