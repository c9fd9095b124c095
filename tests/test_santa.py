"""Kaggle Santa 2023 files: the reader, ``PATH#TYPE`` definitions, ``permgroup solve
santa2023`` and ``permgroup word``; every word checked by the applier below, written
here from the competition's rules (not the package's)."""
from __future__ import annotations

import ast
import csv
import os
import subprocess
import sys

import pytest

from permgroup.cli import main

DATA = os.path.join(os.path.dirname(__file__), "data", "santa2023")
PUZZLES = os.path.join(DATA, "puzzles.csv")
INFO = os.path.join(DATA, "puzzle_info.csv")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

csv.field_size_limit(1 << 30)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def allowed_moves(path=INFO):
    """type -> {name: image}, with ``-name`` the inverse (new[p[i]] = old[i] undone)."""
    out = {}
    for row in read_csv(path):
        moves = ast.literal_eval(row["allowed_moves"])
        for name, p in list(moves.items()):
            inverse = [0] * len(p)
            for i, j in enumerate(p):
                inverse[j] = i
            moves["-" + name] = inverse
        out[row["puzzle_type"]] = moves
    return out


def wrong_positions(row, solution, moves):
    """Kaggle's rule: apply each move (new[i] = old[p[i]]) and count the positions
    that differ from the solution state."""
    state = row["initial_state"].split(";")
    for name in solution.split(".") if solution else []:
        p = moves[row["puzzle_type"]][name]
        state = [state[p[i]] for i in range(len(p))]
    return sum(a != b for a, b in zip(state, row["solution_state"].split(";")))


def submission(text):
    lines = text.splitlines()
    assert lines[0] == "id,moves"
    return dict(line.split(",", 1) for line in lines[1:])


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_solve_rows_are_checked_solutions(capsys, monkeypatch):
    monkeypatch.setenv("PERMGROUP_CACHE", "/tmp/permgroup-test-santa-cache")
    kinds = ["wreath_6/6", "cube_2/2/2"]
    status = main(["solve", "santa2023", PUZZLES, "--info", INFO, "--only", *kinds,
                   "--time-limit", "30"])
    out, err = capsys.readouterr()
    assert status == 0, err
    rows = [r for r in read_csv(PUZZLES) if r["puzzle_type"] in kinds]
    answers = submission(out)
    assert sorted(answers) == sorted(r["id"] for r in rows)
    moves = allowed_moves()
    for row in rows:
        assert wrong_positions(row, answers[row["id"]], moves) <= int(row["num_wildcards"])
    # the per-type table, the grand total last
    table = err.strip().splitlines()
    total = sum(len(w.split(".")) for w in answers.values() if w)
    assert table[-1].split()[:4] == ["total", str(len(rows)), str(len(rows)), f"{total:,}"]
    assert any(line.startswith("cube_2/2/2 ") for line in table)


def test_wildcards_are_honoured(tmp_path, capsys):
    # 285 has 2 wildcards; a copy of 284 whose start differs from its goal in two
    # positions and has two wildcards is solved by no moves at all
    rows = {r["id"]: r for r in read_csv(PUZZLES)}
    near = dict(rows["284"], id="9001", num_wildcards="2")
    goal = near["solution_state"].split(";")
    near["initial_state"] = ";".join([goal[1], goal[0]] + goal[2:])
    assert goal[0] != goal[1]
    strict = dict(near, id="9002", num_wildcards="0")
    header = "id,puzzle_type,solution_state,initial_state,num_wildcards\n"
    text = header + "".join(",".join(r[c] for c in header.strip().split(",")) + "\n"
                            for r in (rows["285"], near, strict))
    path = write(tmp_path, "puzzles.csv", text)
    assert main(["solve", "santa2023", path, "--info", INFO]) == 0
    out, _ = capsys.readouterr()
    answers = submission(out)
    moves = allowed_moves()
    assert answers["9001"] == ""
    assert answers["9002"] != ""
    assert wrong_positions(strict, answers["9002"], moves) == 0
    assert 0 < wrong_positions(rows["285"], answers["285"], moves) <= 2 or \
        wrong_positions(rows["285"], answers["285"], moves) == 0


def test_a_row_not_solved_is_named_never_written(tmp_path, capsys):
    info = write(tmp_path, "info.csv", 'puzzle_type,allowed_moves\nring_4,"{\'t\': [1, 2, 3, 0]}"\n')
    puzzles = write(tmp_path, "puzzles.csv",
                    "id,puzzle_type,solution_state,initial_state,num_wildcards\n"
                    "7,ring_4,A;B;C;D,B;C;D;A,0\n"
                    "8,ring_4,A;B;C;D,B;A;C;D,0\n")  # no turn of a ring swaps two beads
    assert main(["solve", "santa2023", puzzles, "--info", info, "--time-limit", "5"]) == 2
    out, err = capsys.readouterr()
    answers = submission(out)
    assert list(answers) == ["7"] and answers["7"] in ("-t", "t.t.t")
    errors = [line for line in err.splitlines() if line.startswith("permgroup: error:")]
    assert any("id 8 (ring_4)" in line for line in errors)
    assert errors[-1] == ("permgroup: error: 1 of 2 rows not solved (ids 8); "
                          "the others are written")


HEADER = "id,puzzle_type,solution_state,initial_state,num_wildcards\n"
GOOD_INFO = 'puzzle_type,allowed_moves\nring_3,"{\'t\': [1, 2, 0]}"\n'


@pytest.mark.parametrize("info, puzzles, message", [
    ("puzzle_type,moves\nring_3,x\n", HEADER + "0,ring_3,A;B;C,A;B;C,0\n",
     "info.csv, line 1: missing column allowed_moves"),
    (GOOD_INFO, "id,puzzle_type,initial_state,num_wildcards\n0,ring_3,A;B;C,0\n",
     "puzzles.csv, line 1: missing column solution_state"),
    (GOOD_INFO, HEADER + "0,ring_3,A;B;C,B;C;A,0\n1,cube_9/9/9,A,A,0\n",
     "puzzles.csv, line 3, column puzzle_type: unknown type 'cube_9/9/9'"),
    ('puzzle_type,allowed_moves\nring_3,"{\'t\': [1, 1, 0]}"\n', HEADER,
     "info.csv, line 2, column allowed_moves (ring_3): move 't' is not a permutation of 0..2 "
     "(1 appears twice, 2 is missing)"),
    ('puzzle_type,allowed_moves\nring_3,"{\'t\': [1, 2, 3]}"\n', HEADER,
     "move 't' is not a permutation of 0..2 (3 is out of range)"),
    ('puzzle_type,allowed_moves\nring_3,"{\'t\': [1, 2, 0], \'u\': [0, 1]}"\n', HEADER,
     "move 'u' has 2 entries, the first move has 3"),
    ('puzzle_type,allowed_moves\nring_3,"[1, 2, 0]"\n', HEADER,
     "expected a non-empty dict of move name -> permutation"),
    (GOOD_INFO, HEADER + "0,ring_3,A;B;C,A;B;C;D,0\n",
     "puzzles.csv, line 2, column initial_state: 4 colours, ring_3 has 3 positions"),
    (GOOD_INFO, HEADER + "0,ring_3,A;B;C,A;B;B,0\n",
     "puzzles.csv, line 2: the colours cannot match: solution_state has 1 'C', initial_state 0"),
    (GOOD_INFO, HEADER + "0,ring_3,A;B;C,A;B;C,x\n",
     "puzzles.csv, line 2, column num_wildcards: 'x' is not a number >= 0"),
    (GOOD_INFO, HEADER + "0,ring_3,A;B;C,A;B;C,0\n0,ring_3,A;B;C,A;B;C,0\n",
     "puzzles.csv, line 3, column id: id '0' already used on line 2"),
])
def test_bad_input_is_one_named_error(tmp_path, info, puzzles, message):
    info_path = write(tmp_path, "info.csv", info)
    puzzles_path = write(tmp_path, "puzzles.csv", puzzles)
    run = subprocess.run([sys.executable, "-m", "permgroup", "solve", "santa2023", puzzles_path,
                          "--info", info_path], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("permgroup: error: "), run.stderr
    assert message in lines[0]


def test_only_names_what_it_does_not_find(capsys):
    assert main(["solve", "santa2023", PUZZLES, "--info", INFO, "--only", "wreath_7/7"]) == 2
    assert "--only: no row has the type or id 'wreath_7/7'" in capsys.readouterr().err


def test_missing_info_is_named(capsys):
    assert main(["solve", "santa2023", PUZZLES]) == 2
    assert "santa2023 needs --info" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["cube_2/2/2", "wreath_6/6", "globe_1/8"])
def test_order_of_a_type_is_sympys(kind, capsys):
    from sympy.combinatorics import Permutation, PermutationGroup

    moves = allowed_moves()[kind]
    group = PermutationGroup([Permutation(p) for name, p in moves.items()
                              if not name.startswith("-")])
    assert main(["order", f"{INFO}#{kind}"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"order: {group.order()}"


def test_unknown_type_in_a_definition_source(capsys):
    assert main(["order", f"{INFO}#cube_9/9/9"]) == 2
    err = capsys.readouterr().err
    assert "no puzzle type 'cube_9/9/9' (it has cube_2/2/2, cube_3/3/3" in err


def apply_moves(state, names, moves):
    for name in names:
        p = moves[name]
        state = [state[p[i]] for i in range(len(p))]
    return state


@pytest.mark.parametrize("kind", ["wreath_6/6", "cube_2/2/2"])
def test_word_solves_scrambles_of_a_santa_type(kind, tmp_path, capsys, monkeypatch):
    import random

    monkeypatch.setenv("PERMGROUP_CACHE", str(tmp_path / "cache"))
    moves = allowed_moves()[kind]
    rng = random.Random(19)
    scrambles = [[rng.choice(sorted(moves)) for _ in range(rng.randint(1, 6))] for _ in range(4)]
    lines = [".".join(scrambles[0]), " ".join(scrambles[1]), "", *map(" ".join, scrambles[2:])]
    path = write(tmp_path, "moves.txt", "\n".join(lines) + "\n")
    assert main(["word", f"{INFO}#{kind}", path, "--time-limit", "20"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(lines) + 1 and out[-1].startswith(f"# {len(lines)} lines; proven")
    n = len(next(iter(moves.values())))
    for line, answer in zip(lines, out):
        scrambled = apply_moves(list(range(n)), line.replace(".", " ").split(), moves)
        assert apply_moves(scrambled, answer.split(), moves) == list(range(n)), (line, answer)
    assert out[2] == ""  # the empty line: already solved


def test_explore_solve_checks_colourings():
    from permgroup import explore
    from permgroup.errors import InputError

    ring = explore.define_puzzle("ring6", {"T": [1, 2, 3, 4, 5, 0], "S": [1, 0, 2, 3, 4, 5]},
                                 solved="aabbcc")
    start = "cabacb"
    word = explore.solve(ring, start)
    state = list(start)
    for name in word:  # scatter: the sticker at i goes to p[i]
        p = ring.move_array(name)
        new = [None] * 6
        for i, c in enumerate(state):
            new[p[i]] = c
        state = new
    assert "".join(state) == "aabbcc"
    near = explore.solve(ring, start, mismatches=4)
    assert len(near) <= len(word)
    with pytest.raises(InputError, match="a state of 5 positions"):
        explore.solve(ring, "aabbc")


def test_jobs_give_the_same_checked_rows(capsys):
    kinds = ["wreath_6/6", "cube_2/2/2"]
    assert main(["solve", "santa2023", PUZZLES, "--info", INFO, "--only", *kinds]) == 0
    one = capsys.readouterr().out
    assert main(["solve", "santa2023", PUZZLES, "--info", INFO, "--only", *kinds,
                 "--jobs", "2"]) == 0
    two = capsys.readouterr().out
    # the same rows in the input's order; each checked above by the test's applier
    assert [line.split(",")[0] for line in one.splitlines()] == \
        [line.split(",")[0] for line in two.splitlines()] == ["id", "0", "1", "284", "285"]
    moves = allowed_moves()
    rows = {r["id"]: r for r in read_csv(PUZZLES)}
    for ident, word in submission(two).items():
        assert wrong_positions(rows[ident], word, moves) <= int(rows[ident]["num_wildcards"])


def test_word_from_a_small_table_is_proven_optimal(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PERMGROUP_CACHE", str(tmp_path / "cache"))
    info = write(tmp_path, "info.csv", 'puzzle_type,allowed_moves\n'
                 'ring_5,"{\'t\': [1, 2, 3, 4, 0], \'s\': [1, 0, 2, 3, 4]}"\n')
    lines = ["t.t.t", "s t -s", "t t t t"]
    path = write(tmp_path, "moves.txt", "\n".join(lines) + "\n")
    assert main(["word", f"{info}#ring_5", path]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "# 3 lines; proven optimal: all"
    moves = allowed_moves(info)["ring_5"]
    for line, answer in zip(lines, out):
        scrambled = apply_moves(list(range(5)), line.replace(".", " ").split(), moves)
        assert apply_moves(scrambled, answer.split(), moves) == list(range(5))
    # t t t is undone by two turns back, t t t t by one turn
    assert out[0] == "-t -t" or out[0] == "t t"
    assert out[2] == "t"


def test_a_row_whose_solver_fails_is_named_and_the_others_are_written(capsys, monkeypatch):
    """A failure inside the solver on one row (a bug, not bad input) is that row's
    error line; the rows solved are still written and checked."""
    import puzzles.formats.santa2023 as santa2023

    real, calls = santa2023.solve, []

    def failing_once(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("a bug on the first row")
        return real(*args, **kwargs)

    monkeypatch.setattr(santa2023, "solve", failing_once)
    status = main(["solve", "santa2023", PUZZLES, "--info", INFO, "--only", "wreath_6/6"])
    out, err = capsys.readouterr()
    assert status == 2
    assert "internal error on this row: RuntimeError: a bug on the first row" in err
    assert "Traceback" not in err
    rows = [r for r in read_csv(PUZZLES) if r["puzzle_type"] == "wreath_6/6"]
    answers = submission(out)
    assert len(rows) == 2 and len(answers) == 1
    moves = allowed_moves()
    for row in rows:
        if row["id"] in answers:
            assert wrong_positions(row, answers[row["id"]], moves) <= int(row["num_wildcards"])
