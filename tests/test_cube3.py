"""The 3x3x3 cube and ZOJ 2477: group facts, reading colourings, optimal solving.

Answers are cross-checked against a plain breadth-first search over sticker
strings (no digits, no ball, no pruning) and by simulating every printed move.
"""
from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

from permgroup import progress
from permgroup.cli import main
from permgroup.errors import InputError, UnreachableError
from permgroup.perm import act, compose_all
from puzzles import cube3
from puzzles.cube_geometry import FACES
from puzzles.formats import zoj2477
from tests.conftest import DATA

SOLVED = cube3.SOLVED
QTM = [1, 12, 114, 1068, 10011, 93840]
HTM = [1, 18, 243, 3240, 43239, 574908]
QUARTER = [f + s for f in FACES for s in ("", "'")]
ZOJ_FACE = "LFRBUD"


# --- independent helpers ------------------------------------------------------

def sticker_bfs(moves: list[str], depth: int) -> dict[str, int]:
    """Distance of every facelet string within ``depth`` moves: a plain BFS."""
    perms = [cube3.PUZZLE.move_array(m) for m in moves]
    seen = {SOLVED: 0}
    frontier = [SOLVED]
    for d in range(1, depth + 1):
        nxt = []
        for s in frontier:
            for p in perms:
                t = "".join(act(s, p))
                if t not in seen:
                    seen[t] = d
                    nxt.append(t)
        frontier = nxt
    return seen


@pytest.fixture(scope="module")
def near() -> dict[str, int]:
    return sticker_bfs(QUARTER, 4)


def distance_by_bfs(state: str, near: dict[str, int], extra: int = 1) -> int | None:
    """The distance if at most 4 + extra, by looking ``extra`` moves around."""
    if state in near:
        return near[state]
    perms = [cube3.PUZZLE.move_array(m) for m in QUARTER]
    layer = {state}
    for k in range(1, extra + 1):
        layer = {"".join(act(s, p)) for s in layer for p in perms}
        found = [near[s] for s in layer if s in near]
        if found:
            return min(found) + k
    return None


def zoj_moves(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        face, direction = line.split()
        out.append(ZOJ_FACE[int(face)] + ("" if direction == "1" else "'"))
    return out


def parse_output(text: str) -> list[list[str] | None]:
    lines = text.splitlines()
    answers = []
    i = 0
    while i < len(lines):
        n = int(lines[i])
        if n < 0:
            answers.append(None)
            i += 1
        else:
            answers.append(zoj_moves(lines[i + 1:i + 1 + n]))
            i += 1 + n
    return answers


def scramble(rng: random.Random, length: int, moves=QUARTER) -> str:
    return cube3.apply_moves(SOLVED, [rng.choice(moves) for _ in range(length)])


def recolour(state: str, letters: str) -> str:
    return state.translate(str.maketrans(FACES, letters))


# --- the group ------------------------------------------------------------------------

def test_group_order_matches_sympy_and_its_rubik_generators():
    from sympy.combinatorics import PermutationGroup
    from sympy.combinatorics.generators import rubik

    order = 43_252_003_274_489_856_000
    assert cube3.PUZZLE.group().order() == order
    assert PermutationGroup(rubik(3)).order() == order
    assert cube3.PUZZLE.symmetry_group().order() == 24
    assert len(cube3.CORNERS) == 8 and len(cube3.EDGES) == 12


def test_face_turns_follow_the_conventions():
    g = cube3.GEOMETRY
    u, f = cube3.PUZZLE.move_array("U"), cube3.PUZZLE.move_array("F")
    # U clockwise: F's top row <- R's top row
    assert all(u[g.index("R", 0, c)] == g.index("F", 0, c) for c in range(3))
    # F clockwise: U's bottom row goes to R's left column
    assert [f[g.index("U", 2, c)] for c in range(3)] == [g.index("R", r, 0) for r in range(3)]
    for face in FACES:
        assert cube3.PUZZLE.generator_order(face) == 4
        m = cube3.PUZZLE.move_array(face)
        assert all(m[i] == i for i in cube3.CENTRES)


def test_shallow_distribution_by_plain_sticker_bfs():
    for moves, counts, depth in ((QUARTER, QTM, 4), (list(cube3.moves("htm")), HTM, 3)):
        seen = sticker_bfs(moves, depth)
        assert np.bincount(list(seen.values())).tolist() == counts[:depth + 1]


def test_ball_distribution_and_canonical_sequence_counts():
    assert cube3.ball(5, "qtm").distribution() == QTM
    assert cube3.ball(4, "htm").distribution() == HTM[:5]
    assert cube3.table("qtm").distribution() == QTM
    # canonical sequences never undercount positions; up to 5 moves they are exact
    assert cube3.pruning("qtm").count_sequences(5) == QTM
    htm = cube3.pruning("htm").count_sequences(4)
    assert htm[:4] == HTM[:4] and htm[4] >= HTM[4]


# --- reading colourings --------------------------------------------------------------

def test_element_of_a_scramble_is_the_product_of_its_moves():
    rng = random.Random(3)
    for _ in range(50):
        word = [rng.choice(list(cube3.moves("htm"))) for _ in range(rng.randint(0, 30))]
        product = compose_all([cube3.PUZZLE.move_array(m) for m in word], 54)
        state = cube3.apply_moves(SOLVED, word)
        assert cube3.element(state) == product
        assert cube3.facelets(product) == state


def test_batch_reader_agrees_with_element():
    rng = random.Random(4)
    states = [scramble(rng, rng.randint(0, 40)) for _ in range(60)]
    states = [recolour(s, rng.choice(["wgrybo", "ABCDEF", "UrFdLb"])) for s in states]
    codes = np.array([[ord(c) for c in s] for s in states])
    forms = cube3.slot_forms(codes, [f"cube {i}" for i in range(len(states))])
    space = cube3.search_space()
    batch = space.of_slot_forms(forms)
    single = space.of_elements([cube3.element(s) for s in states])
    assert (batch == single).all()


def test_rotated_and_recoloured_cubes_read_through_their_centres():
    rng = random.Random(5)
    for rotation in cube3.PUZZLE.symmetry_elements():
        state = scramble(rng, 3)
        rotated = "".join(act(state, rotation))
        assert cube3.distance(rotated, max_depth=4) == cube3.distance(state, max_depth=4)
        assert cube3.distance("".join(act(SOLVED, rotation)), max_depth=0) == 0
    state = scramble(rng, 4)
    assert cube3.solve(recolour(state, "wrgybo"), max_depth=4) == cube3.solve(state, max_depth=4)


def _swap(state: str, a: int, b: int) -> str:
    s = list(state)
    s[a], s[b] = s[b], s[a]
    return "".join(s)


def _cycle(state: str, piece: tuple[int, ...]) -> str:
    s = list(state)
    values = [state[i] for i in piece]
    for i, v in zip(piece, values[1:] + values[:1]):
        s[i] = v
    return "".join(s)


G = cube3.GEOMETRY
UFR = next(p for p in cube3.CORNERS if {G.face_of(i) for i in p} == set("UFR"))
UF = next(p for p in cube3.EDGES if {G.face_of(i) for i in p} == set("UF"))
UR = next(p for p in cube3.EDGES if {G.face_of(i) for i in p} == set("UR"))


def _transposition(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    p = list(range(54))
    for x, y in zip(a, b):
        p[x], p[y] = y, x
    return tuple(p)


@pytest.mark.parametrize("state, error, message", [
    (SOLVED[:-1], InputError, "expected 54 stickers"),
    (SOLVED[:-1] + "U", InputError, "9 times"),
    (_swap(SOLVED, G.index("U", 1, 1), G.index("D", 0, 0)), InputError, "centres"),
    (_swap(SOLVED, G.index("F", 0, 2), G.index("R", 0, 1)), InputError,
     "corner at UFR .*a colour twice"),
    (_swap(SOLVED, UFR[1], UFR[2]), InputError, "mirror image"),
    (_swap(SOLVED, G.index("F", 0, 1), G.index("D", 0, 1)), InputError,
     "edge at .*(twice|opposite)"),
    (_cycle(SOLVED, UFR), UnreachableError, "corner twist sum"),
    (_cycle(SOLVED, UF), UnreachableError, "edge flip sum"),
    ("".join(act(SOLVED, _transposition(UF, UR))), UnreachableError, "parity"),
])
def test_impossible_colourings_name_the_fault(state, error, message):
    with pytest.raises(error, match=message):
        cube3.element(state)


def test_duplicate_piece_is_named():
    # UR shows the UF edge's colours and DF the DR edge's: both appear twice
    s = list(SOLVED)
    s[G.index("R", 0, 1)] = "F"
    s[G.index("F", 2, 1)] = "R"
    with pytest.raises(InputError, match="appears twice"):
        cube3.element("".join(s))


# --- solving ------------------------------------------------------------------

def test_the_exact_search_is_handed_the_requests_cancel_event(monkeypatch):
    """The solve path hands the 3x3x3's IDA* its request's cancel event (a
    widget's newer state), not only the seconds left, so a cancelled request
    stops it at once rather than at its time limit (checked by hand: 1.4 s
    with the event set on a 17-move scramble, the ball's loading included)."""
    from permgroup.budget import Budget

    handed = {}

    def solve_elements(elements, max_depth, metric, **kwargs):
        handed.update(kwargs)
        return [None]

    monkeypatch.setattr(cube3, "solve_elements", solve_elements)
    monkeypatch.setattr(cube3, "corner_database", lambda *args, **kwargs: object())
    budget = Budget.of(60)
    assert cube3.solve_exact(cube3.element(SOLVED), "qtm", 20, budget) is None
    assert handed["cancel"] is budget.cancel and 0 < handed["time_limit"] <= 60


def test_solutions_are_optimal_against_plain_bfs(near):
    rng = random.Random(6)
    states = [scramble(rng, rng.randint(0, 7)) for _ in range(80)]
    elements = [cube3.element(s) for s in states]
    words = cube3.solve_elements(elements, 5)
    for state, word in zip(states, words):
        truth = distance_by_bfs(state, near, extra=1)
        if truth is None:
            assert word is None
        else:
            assert word is not None and len(word) == truth
            assert cube3.apply_moves(state, word) == SOLVED


@pytest.mark.slow
def test_deep_search_agrees_with_meet_in_the_middle_and_bfs(near):
    """Positions past a small ball, by IDA* and by meet in the middle."""
    from permgroup.search.ball import build_ball
    from permgroup.search.exact import ida_star, meet_in_the_middle

    space = cube3.search_space()
    small = build_ball(space, cube3.digits([tuple(range(54))]), 2)
    rng = random.Random(7)
    for length in (3, 5, 6, 7, 8):
        state = scramble(rng, length)
        start = space.of_elements([cube3.element(state)])
        a = ida_star(space, start, small, 8, pruning=cube3.pruning())
        b = meet_in_the_middle(space, start, small, 8)
        assert len(a) == len(b) <= length
        for word in (a, b):
            assert cube3.apply_moves(state, [space.move_names[m] for m in word]) == SOLVED
        truth = distance_by_bfs(state, near, extra=2)
        assert truth is None or truth == len(a)
        if len(a) > 2:
            assert ida_star(space, start, small, len(a) - 1, pruning=cube3.pruning()) is None
            assert meet_in_the_middle(space, start, small, len(a) - 1) is None


def test_half_turn_metric():
    state = cube3.apply_moves(SOLVED, "R2 U2 F")
    assert len(cube3.solve(state, max_depth=3, metric="htm")) == 3
    assert len(cube3.solve(state, max_depth=5, metric="qtm")) == 5
    assert cube3.solve(state, max_depth=4, metric="qtm") is None


# --- ZOJ 2477 -------------------------------------------------------------------

def test_sample(capsys):
    assert main(["solve", "zoj2477", str(DATA / "zoj2477" / "sample-01.in")]) == 0
    assert capsys.readouterr().out == (DATA / "zoj2477" / "sample-01.ans").read_text()


WORKED = """2

      w w g
      w w g
      w w g
r r r g g y b b b w o o
r r r g g y b b b w o o
r r r g g y b b b w o o
      y y o
      y y o
      y y o

      w w w
      w w w
      o b b
g g w b g g y o o r r r
r r w b g g y b b o o o
r r w b g g y b b o o o
      g r r
      y y y
      y y y
"""


def test_worked_example_of_the_conventions():
    out = zoj2477.solve_text(WORKED)
    _, second = parse_output(out)
    assert out.startswith("1\n2 -1\n2\n")
    codes, _ = zoj2477.read_cases(WORKED)
    state = "".join(map(chr, codes[1]))
    assert len(second) == 2 and cube3.element(cube3.apply_moves(state, second)) == \
        tuple(range(54))
    # the statement's move: front clockwise turns the up face's bottom row into
    # the right face's left column
    assert cube3.apply_moves(SOLVED, "F")[cube3.GEOMETRY.index("R", 0, 0)] == "U"


def test_contest_file_answers_verified_by_simulation(near):
    rng = random.Random(2477)
    states = [scramble(rng, rng.choice([0, 1, 2, 3, 4, 5, 6, 7])) for _ in range(120)]
    letters = ["wgrybo", "WGRYBO", "abcdef"]
    painted = [recolour(s, rng.choice(letters)) for s in states]
    text = f"{len(states)}\r\n" + "".join(zoj2477.format_case(s).replace("\n", "  \r\n")
                                            for s in painted)
    answers = parse_output(zoj2477.solve_text(text))
    assert len(answers) == len(states)
    assert any(a is None for a in answers) and any(a and len(a) == 5 for a in answers)
    for state, answer in zip(states, answers):
        truth = distance_by_bfs(state, near, extra=2)  # exact up to 6
        if answer is None:
            assert truth is None or truth > 5
        else:
            assert len(answer) == truth
            assert cube3.apply_moves(state, answer) == SOLVED


def test_max_depth_option(capsys):
    state = cube3.apply_moves(SOLVED, "R U F D L B")
    text = "1\n" + zoj2477.format_case(state)
    assert zoj2477.solve_text(text) == "-1\n"
    answer = parse_output(zoj2477.solve_text(text, max_depth=6))[0]
    assert len(answer) == 6 and cube3.apply_moves(state, answer) == SOLVED
    assert zoj2477.solve_text("1\n" + zoj2477.format_case(SOLVED), max_depth=0) == "0\n"


def _case(state: str) -> str:
    return zoj2477.format_case(state)


@pytest.mark.parametrize("text, message", [
    ("2\n" + _case(SOLVED), "count line says 2"),
    ("1\n" + _case(SOLVED).replace("L L L F F F", "L L F F F", 1), "line 6: expected 12"),
    ("1\n" + _case(SOLVED).rsplit("\n", 2)[0] + "\n", "incomplete"),
    ("1\n" + _case(SOLVED[:-1] + "L"), r"case 1 \(lines 3-11\): every colour must appear 9"),
    ("1\n" + _case(_swap(SOLVED, G.index("U", 1, 1), G.index("D", 0, 0))), "centres"),
    ("1\n" + _case(_swap(SOLVED, UFR[1], UFR[2])), "corner at UFR .*mirror"),
    ("1\n" + _case(_cycle(SOLVED, UFR)), "corner twist sum"),
    ("1\n" + _case(_cycle(SOLVED, UF)), "edge flip sum"),
    ("1\n" + _case("".join(act(SOLVED, _transposition(UF, UR)))), "parity"),
    ("x\n", "expected the number of test cases"),
])
def test_bad_input_exits_2_naming_the_fault(text, message, tmp_path, capsys):
    path = tmp_path / "in.txt"
    path.write_text(text)
    assert main(["solve", "zoj2477", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    import re
    assert re.search(message, err), err


def test_command_line_end_to_end(tmp_path):
    path = tmp_path / "in.txt"
    path.write_text("1\n" + _case(cube3.apply_moves(SOLVED, "U' R")))
    run = subprocess.run([sys.executable, "-m", "permgroup", "solve", "zoj2477", str(path)],
                         capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout == "2\n2 -1\n4 1\n"
    bad = subprocess.run([sys.executable, "-m", "permgroup", "solve", "zoj2477"],
                         input="1\n" + _case(_cycle(SOLVED, UF)), capture_output=True,
                         text=True)
    assert bad.returncode == 2 and "edge flip sum" in bad.stderr


def test_table_command_prints_the_shallow_distribution(capsys):
    assert main(["table", "cube3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [int(line.split()[1]) for line in lines[:6]] == QTM


def test_deep_positions_build_progress_on_stderr(capsys, tmp_path, monkeypatch):
    """A cold cache: the one-time build reports on stderr, the answer on stdout."""
    monkeypatch.setenv("PERMGROUP_CACHE", str(tmp_path))
    monkeypatch.setattr(cube3, "_BALLS", {})
    monkeypatch.setattr(progress, "DELAY", 0)  # show the bar however quick the build
    path = tmp_path / "in.txt"
    state = cube3.apply_moves(SOLVED, "R U F")
    path.write_text("1\n" + _case(state))
    assert main(["solve", "zoj2477", str(path), "--max-depth", "3"]) == 0
    captured = capsys.readouterr()
    assert "cube3-qtm: positions within 3 moves (built once, then cached)" in captured.err
    assert cube3.apply_moves(state, zoj_moves(captured.out.splitlines()[1:])) == SOLVED
