"""The cubic eight-puzzle (POJ 3131): geometry, derived orientations, reachable
counts against a parity argument and a plain BFS, tables against bidirectional
search, the contest format and its errors through the command line."""
from __future__ import annotations

import itertools
import random
from collections import Counter
from math import comb

import numpy as np
import pytest

from permgroup.cli import main
from permgroup.perm import act
from permgroup.tables.store import UNSEEN
from puzzles import cubic_eight as ce
from puzzles.formats import poj3131
from tests.conftest import DATA
from tests.plain import plain_partial_bfs

SAMPLE = DATA / "poj3131" / "sample-01.in"
SAMPLE_ANSWERS = (DATA / "poj3131" / "sample-01.ans").read_text().split()
CORNER, EDGE = ce.cell_of(1, 1), ce.cell_of(2, 1)


# --- one cube ---------------------------------------------------------------

def test_orientations_derived_with_sympy():
    group = ce.orientation_group()
    assert group.order() == 24
    classes = ce.orientation_classes()
    # orbit-stabilizer: 24 rotations, each look kept by 4 of them
    colouring = [ce.CUBE_COLOURS[f] for f in ce.FACES]
    keep = sum(1 for g in group.generate() if act(colouring, g.array_form) == tuple(colouring))
    assert len(classes) == 6 and keep == 4
    # the engine's closure of the rolls (no sympy) finds the same six looks
    assert sorted("".join(c) for c in ce.SPACE.local_states) == classes
    # every look is a different arrangement of W, R, B on top, front, right
    names = {ce.orientation_name(c) for c in classes}
    assert names == {"".join(p) for p in itertools.permutations("WRB")}


def test_rolls_are_quarter_turns_of_the_cube():
    from sympy.combinatorics import Permutation

    group = ce.orientation_group()
    for direction in ce.DIRECTIONS:
        turn = ce.roll_rotation(direction)
        assert group.contains(Permutation(list(turn)))
        assert Permutation(list(turn)).order() == 4


@pytest.mark.parametrize("direction, swapped", [("N", "UF"), ("S", "UF"), ("E", "UR"),
                                                ("W", "UR")])
def test_roll_swaps_top_with_front_or_right(direction, swapped):
    """CONVENTIONS: between rows a cube swaps its top and front colours, between
    columns its top and right colours, whatever the direction."""
    for look in ce.SPACE.local_states:
        name = ce.orientation_name(look)
        rolled = ce.orientation_name(act(look, ce.roll_rotation(direction)))
        i, j = ("UFR".index(swapped[0]), "UFR".index(swapped[1]))
        expected = list(name)
        expected[i], expected[j] = expected[j], expected[i]
        assert rolled == "".join(expected)


def test_rolling_back_undoes_a_roll():
    rng = random.Random(5)
    opposite = {"N": "S", "S": "N", "E": "W", "W": "E"}
    state = ce.start_state(ce.CENTRE)
    for _ in range(200):
        name, after = rng.choice(ce.PARTIAL.successors(state))
        x, y = int(name[0]), int(name[1])
        dx, dy = ce.DIRECTIONS[name[2]]
        back = f"{x + dx}{y + dy}{opposite[name[2]]}"
        assert ce.PARTIAL.apply(after, [back]) == state
        state = after


def test_worked_example_from_the_conventions():
    state = ce.start_state(EDGE)
    state = ce.PARTIAL.apply(state, ["11E"])
    assert ce.tops(state)[:3] == "EBW"
    state = ce.PARTIAL.apply(state, ["12N", "13N"])
    assert ce.tops(state) == "RBWRWWEWW"
    assert ce.distance(EDGE, "RBWRWWEWW") == 3


# --- the state space ----------------------------------------------------------

def test_space_size_and_ranks():
    assert ce.SPACE.k == 6 and ce.SPACE.size == 9 * 6 ** 8 == 15_116_544
    assert ce.VIEW.size == 9 * 3 ** 8
    rng = random.Random(1)
    for r in rng.sample(range(ce.SPACE.size), 50):
        assert ce.SPACE.rank(ce.SPACE.unrank(r)) == r


def test_vectorized_steps_match_the_guards():
    rng = random.Random(2)
    ranks = np.array(rng.sample(range(ce.SPACE.size), 300))
    for m, name in enumerate(ce.SPACE.move_names):
        after = ce.SPACE.step(ranks, m)
        before = ce.SPACE.back_step(after[after >= 0], m)
        assert (before == ranks[after >= 0]).all()
        for r, a in zip(ranks.tolist(), after.tolist()):
            state = ce.SPACE.unrank(r)
            if ce.PARTIAL.legal(state, name):
                assert a == ce.SPACE.rank(act(state, ce.PUZZLE.generators[name]))
            else:
                assert a == -1


def test_group_of_the_rolls_ignoring_guards():
    """Without guards the 24 rolls generate half of the wreath product of the
    cube's rotations by S9: a roll is a transposition of cells times a quarter
    turn (a 4-cycle of faces), so the two parities change together."""
    from math import factorial

    assert ce.PUZZLE.group().order() == 24 ** 9 * factorial(9) // 2


# --- reachable counts ---------------------------------------------------------

def _odd_start_cubes() -> np.ndarray:
    """For every rank, how many cubes are of the kind that started on an odd
    cell (x + y odd): a cube's look changes parity with each roll, as its cell's
    colour on the checkerboard does, so the kind is (look parity) xor (cell colour)."""
    parity = np.array([_parity(ce.orientation_name(c)) for c in ce.SPACE.local_states])
    # ranks as an array of shape (hole, digit 7, ..., digit 0); sum over the slots
    count = np.zeros((9,) + (1,) * 8, dtype=np.int8)
    for slot in range(8):
        cells = np.arange(9)
        cell = slot + (slot >= cells)  # the cell of this slot, for each hole
        odd_cell = (cell % 3 + cell // 3) % 2
        kind = (parity[None, :] != odd_cell[:, None]).astype(np.int8)  # (hole, digit)
        shape = [9] + [1] * 8
        shape[8 - slot] = 6
        count = count + kind.reshape(shape)
    return count.reshape(-1)


def _parity(name: str) -> int:
    perm = ["WRB".index(c) for c in name]
    return sum(1 for i in range(3) for j in range(i + 1, 3) if perm[i] > perm[j]) % 2


@pytest.mark.slow
@pytest.mark.parametrize("empty, expected", [(ce.CENTRE, 4_133_430), (CORNER, 4_133_430),
                                             (EDGE, 3_306_744)])
def test_reachable_counts(empty, expected):
    """BFS count = the states the per-cube parity invariant allows: with k cubes
    starting on odd cells, any k of the 8 occupied cells hold such cubes and
    each cube then has 3 looks: 9 * C(8, k) * 3**8."""
    t = ce.table(empty=empty)
    assert t.reachable == expected
    k = sum(1 for c in range(9) if c != empty and (c % 3 + c // 3) % 2)
    assert expected == 9 * comb(8, k) * 3 ** 8
    allowed = _odd_start_cubes() == k
    assert (allowed == (t.depths != UNSEEN)).all()


def test_first_levels_match_a_plain_bfs():
    t = ce.table(empty=CORNER)
    plain = plain_partial_bfs(ce.PARTIAL, [ce.start_state(CORNER)], 13)
    counts = Counter(plain.values())
    assert [counts[d] for d in range(14)] == t.distribution()[:14]
    for state, depth in list(plain.items())[::37]:
        assert t.depth(ce.SPACE.rank(state)) == depth


# --- answers --------------------------------------------------------------------

def test_sample_through_the_command_line(capsys):
    assert main(["solve", "poj3131", str(SAMPLE)]) == 0
    assert capsys.readouterr().out.split() == SAMPLE_ANSWERS == \
        ["0", "3", "13", "23", "29", "30", "-1", "-1"]


def test_max_depth_option(capsys):
    assert main(["solve", "poj3131", str(SAMPLE), "--max-depth", "23"]) == 0
    assert capsys.readouterr().out.split() == ["0", "3", "13", "23", "-1", "-1", "-1", "-1"]
    assert main(["solve", "poj3131", str(SAMPLE), "--max-depth", "40"]) == 0
    deeper = capsys.readouterr().out.split()
    assert deeper[:6] == SAMPLE_ANSWERS[:6]
    # the two -1 of the sample are deeper than 30, and reachable
    assert all(30 < int(d) <= 40 for d in deeper[6:])


def _random_dataset(rng: random.Random, starts: list[int]) -> tuple[int, str]:
    """A start and a goal: either any pattern at all (often unreachable), or the
    tops of a state drawn at a random depth of the start's table, so that deep
    answers come up as often as shallow ones."""
    empty = rng.choice(starts)
    if rng.random() < 0.3:
        cells = [rng.choice("WRB") for _ in range(9)]
        cells[rng.randrange(9)] = "E"
        return empty, "".join(cells)
    depths = ce.table(empty=empty).depths
    level = np.flatnonzero(depths == rng.randrange(int(depths[depths != UNSEEN].max()) + 1))
    return empty, ce.tops(ce.SPACE.unrank(int(rng.choice(level.tolist()))))


@pytest.mark.slow
def test_tables_agree_with_bidirectional_search():
    rng = random.Random(3131)
    starts = [CORNER, EDGE, ce.CENTRE]
    answers = []
    for _ in range(12):
        empty, pattern = _random_dataset(rng, starts)
        max_depth = rng.choice([30, 30, rng.randrange(31)])
        answer = ce.distance(empty, pattern, max_depth)
        assert answer == ce.search_distance(empty, pattern, max_depth), (empty, pattern)
        answers.append(answer)
    assert -1 in answers and max(answers) >= 20  # both kinds of answer were checked


def test_pattern_table_is_the_minimum_over_the_goal_states():
    rng = random.Random(4)
    t = ce.table(empty=EDGE)
    patterns = ce.pattern_table(EDGE)
    for _ in range(30):
        _, pattern = _random_dataset(rng, [EDGE])
        goals = ce.goal_ranks(pattern)
        assert len(goals) == 256
        assert all(ce.tops(ce.SPACE.unrank(g)) == pattern for g in goals[::17])
        assert patterns[ce.pattern_rank(pattern)] == min(t.depths[g] for g in goals)


def test_thirty_roll_solution():
    pattern = "RRRWWWRRE"  # sample dataset 6
    rolls = ce.solve(CORNER, pattern)
    assert len(rolls) == 30 == ce.distance(CORNER, pattern)
    assert ce.tops(ce.PARTIAL.apply(ce.start_state(CORNER), rolls)) == pattern


# --- the format -------------------------------------------------------------------

def _run(tmp_path, capsys, text: str, *options: str) -> tuple[int, str, str]:
    path = tmp_path / "input.txt"
    path.write_bytes(text.encode())
    try:
        code = main(["solve", "poj3131", str(path), *options])
    except SystemExit as exc:  # argparse's refusal of an option's value
        code = exc.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_crlf_blank_lines_and_trailing_blanks(tmp_path, capsys):
    text = "\r\n2 1 \r\nR B W\t\r\n\r\nR W W\r\nE W W  \r\n\r\n0 0\r\n"
    assert _run(tmp_path, capsys, text) == (0, "3\n", "")


GOOD = "2 1\nR B W\nR W W\nE W W\n"


@pytest.mark.parametrize("text, message", [
    (GOOD + "4 1\nW W W\nW E W\nW W W\n0 0\n", "dataset 2, line 5: the empty square (4, 1) is off"),
    (GOOD + "0 3\nW W W\nW E W\nW W W\n0 0\n", "(0, 3) is off the board"),
    (GOOD + "1 2 3\nW W W\n", "dataset 2, line 5: expected the empty square as two numbers"),
    (GOOD + "1 1\nW W W\nW W W\nW W W\n0 0\n", "dataset 2 (from line 5): the pattern has 0 empty"),
    (GOOD + "1 1\nE W W\nW E W\nW W W\n0 0\n", "has 2 empty squares (E), expected exactly one"),
    (GOOD + "1 1\nE W G\nW W W\nW W W\n0 0\n", "dataset 2, line 6, cell 3: 'G' is not one of"),
    (GOOD + "1 1\nE W w\nW W W\nW W W\n0 0\n", "'w' is not one of W, R, B, E"),
    (GOOD + "1 1\nE W W W\nW W W\nW W W\n0 0\n", "line 6: a pattern line needs 3 cells"),
    (GOOD + "1 1\nEWW\nW W W\nW W W\n0 0\n", "needs 3 cells separated by blanks, got 1"),
    (GOOD, "the input ends without the '0 0' line that closes it (after dataset 1)"),
    (GOOD + "1 1\nE W W\n", "dataset 2 is incomplete: the input ends after 1 of its 3 pattern"),
])
def test_bad_input(tmp_path, capsys, text, message):
    code, out, err = _run(tmp_path, capsys, text)
    assert code == 2
    assert message in err and err.startswith("permgroup: error: ") and err.count("\n") == 1
    assert out == "3\n"  # the complete dataset before the fault is answered


def test_bad_input_without_complete_datasets(tmp_path, capsys):
    assert _run(tmp_path, capsys, "") == (
        2, "", "permgroup: error: the input ends without the '0 0' line that closes it\n")
    code, out, err = _run(tmp_path, capsys, GOOD + "0 0\n", "--max-depth", "-1")
    assert (code, out) == (2, "") and "at least 0" in err


def test_text_after_the_terminator_is_ignored():
    assert poj3131.solve_text(GOOD + "0 0\nanything\n") == "3\n"


def test_table_command(capsys):
    assert main(["table", "cubic-eight"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "0\t1"
    assert "# total 4133430, diameter 42" in out


def test_a_damaged_pattern_table_is_rebuilt():
    before = ce.pattern_table(EDGE)
    path, _ = ce.pattern_table_file(EDGE)
    data = bytearray(path.read_bytes())
    data[-100] ^= 1
    path.write_bytes(bytes(data))
    ce._PATTERNS.pop(EDGE)
    with pytest.warns(UserWarning, match="checksum mismatch"):
        assert ce.pattern_table(EDGE) == before
    ce._PATTERNS.pop(EDGE)
    assert ce.pattern_table(EDGE) == before  # rewritten, loads quietly
