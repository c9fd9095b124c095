"""GAP puzzle files (PuzzleGeometry's ``--gap`` form): reading, writing, pieces
found from the moves, the command line, named errors.

Facts checked: orders against sympy on the file's own cycles (parsed here by a
separate regular expression), round trips of the library's definitions
(order and distribution kept, reading what was written gives the same
definition), every move keeping the found pieces' sticker order cyclically.
"""
from __future__ import annotations

import re
import subprocess
import sys

import pytest
from sympy.combinatorics import Permutation, PermutationGroup

from permgroup.errors import InputError
from permgroup.explore import load_definition, load_puzzle, order
from permgroup.formats import read_definition
from permgroup.formats.gap import read_gap, write_gap
from permgroup.formats.stickers import to_puzzle
from permgroup.pieces import find_pieces
from permgroup.tables.orbit_table import build_orbit_table
from tests.conftest import DATA, ROOT

RING = DATA / "gap" / "ring.gap"


def sympy_order(text: str) -> int:
    """The order of the group of a GAP file's moves, read without permgroup."""
    perms = []
    for body in re.findall(r"M_\w+:=((?:\([\d,]+\))+);", text):
        cycles = [[int(x) - 1 for x in c.split(",")] for c in re.findall(r"\(([\d,]+)\)", body)]
        perms.append(Permutation(cycles, size=max(x for c in cycles for x in c) + 1))
    size = max(p.size for p in perms)
    return int(PermutationGroup([Permutation(p.array_form, size=size) for p in perms]).order())


def test_hand_written_file_reads():
    d = read_definition(RING)
    assert d.name == "ring" and list(d.moves) == ["T", "F"]  # M_M_ prefixes dropped
    assert [(o.size, o.orientations) for o in d.orbits] == [(4, 2)]
    # the pieces holding stickers 3 and 7 (slots 1 and 3) are alike
    assert d.solved[d.orbits[0].name].pieces == (0, 1, 2, 1)
    assert order(to_puzzle(d)) == sympy_order(RING.read_text())
    counts = build_orbit_table(d, "qtm").distribution()
    assert sum(counts) == sympy_order(RING.read_text()) // 2  # two alike: colourings


def test_identical_pieces_may_span_orbits():
    # as in PuzzleGeometry's helicopter.gap: an ip set whose pieces lie in two
    # orbits colours each orbit's pieces alike and leaves the group alone
    text = "M_A:=(1,2,3);\nM_B:=(1,2);\nM_C:=(4,5,6);\nM_D:=(4,5);\nip:=[[1,2,4],[3,5,6]];\n"
    d = read_gap(text, "two.gap")
    assert [d.solved[o.name].pieces for o in d.orbits] == [(0, 0, 1), (0, 1, 1)]
    assert order(to_puzzle(d)) == sympy_order(text) == 36
    assert sum(build_orbit_table(d, "qtm").distribution()) == 3 * 3


@pytest.mark.parametrize("name", ["skewb", "pyraminx", "dino", "2x2x2", "3x3x3",
                                  "2x2x2-layers", "jing-pyraminx", "ufo", "3x3x3-2gen"])
def test_library_round_trip(name):
    d = load_definition(name)
    text = write_gap(d)
    again = read_gap(text, f"{name}.gap")
    assert order(to_puzzle(again)) == order(to_puzzle(d)) == sympy_order(text)
    assert read_gap(write_gap(again), f"{name}.gap").fingerprint() == again.fingerprint()
    def repeats(definition):  # pieces that look like one before them
        return sum(o.size - len(set(definition.solved[o.name].pieces)) for o in definition.orbits)
    assert repeats(again) == repeats(d)


def test_round_trip_keeps_the_distribution(tmp_path):
    d = load_definition("pyraminx-notips")
    path = tmp_path / "pyraminx.gap"
    path.write_text(write_gap(d))
    assert (build_orbit_table(read_definition(path), "htm").distribution()
            == build_orbit_table(d, "htm").distribution())


@pytest.mark.parametrize("name", ["minicube", "cube3", "skewb", "megaminx", "pyraminx"])
def test_found_pieces_are_kept_in_cyclic_order(name):
    puzzle = load_puzzle(name)
    moves = list(puzzle.generators.values())
    orbits = find_pieces(puzzle.degree, moves)
    piece_of = {x: p for orbit in orbits for p in orbit for x in p}
    moved = {x for g in moves for x in range(puzzle.degree) if g[x] != x}
    assert set(piece_of) == moved
    for g in moves:
        for p in piece_of.values():
            q = piece_of[g[p[0]]]
            r = q.index(g[p[0]])
            assert [g[x] for x in p] == [q[(u + r) % len(q)] for u in range(len(p))]
    declared = {frozenset(p) for ps in puzzle.pieces.values() for p in ps if len(p) > 1}
    found = {frozenset(p) for orbit in orbits for p in orbit if len(p) > 1}
    assert declared <= found | {frozenset(p) for ps in puzzle.pieces.values() for p in ps
                                if not set(p) & moved}


BAD = [
    ("M_A:=(1,2)(2,3);", "line 1: move M_A: point 2 appears twice"),
    ("M_A:=(1,2);\nM_B:=(1,x);", "line 2: move M_B: not cycle notation at character 1"),
    ("M_A:=(1,2);\nGen:=[M_A,M_C];", "line 2: Gen names M_C, which no line defines"),
    ("M_A:=(1,2)", "line 1: statement 'M_A:=(1,2)' has no closing ';'"),
    ("# nothing\nSize(Group(Gen));", "no moves"),
    ("M_A:=(1,2);\nip:=[1,2];", "line 2: ip must be a list of lists"),
    ("M_A:=(1,2);\nM_A:=(1,2);", "line 2: move M_A is defined twice"),
    ("M_A:=(1,2)(3,4);\nip:=[[1,2]];", "the piece of sticker 2 is listed twice"),
    ("M_A:=(1,2);\nfoo bar;", "line 2: 'foo bar' is not NAME:=VALUE"),
    ("M_A:=(0,2);", "stickers are numbered from 1"),
]


@pytest.mark.parametrize("text, message", BAD)
def test_bad_files_are_named(text, message):
    with pytest.raises(InputError, match=re.escape(f"bad.gap") + ".*" + re.escape(message)):
        read_gap(text, "bad.gap")


def test_gap_files_on_the_command_line(tmp_path):
    run = [sys.executable, "-m", "permgroup"]
    env = {"PERMGROUP_CACHE": str(tmp_path), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(run + ["order", str(RING)], capture_output=True, text=True, env=env)
    assert out.stdout.splitlines()[0] == f"order: {sympy_order(RING.read_text())}"
    out = subprocess.run(run + ["table", str(RING)], capture_output=True, text=True, env=env)
    assert out.stdout.splitlines()[-1] == "# total 24, diameter 5"
    moves = tmp_path / "moves.txt"
    moves.write_text("T F T\n")
    out = subprocess.run(run + ["optimal", str(RING), str(moves)], capture_output=True,
                         text=True, env=env)
    assert out.returncode == 0 and len(out.stdout.split()) <= 3
    bad = tmp_path / "bad.gap"
    bad.write_text("M_A:=(1,2)(2,3);\n")
    out = subprocess.run(run + ["table", str(bad)], capture_output=True, text=True, env=env)
    assert out.returncode == 2
    assert out.stderr.strip().endswith("line 1: move M_A: point 2 appears twice in '(1,2)(2,3)'")
    assert "Traceback" not in out.stderr
