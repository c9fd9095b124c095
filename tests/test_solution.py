"""The one solve path, :func:`permgroup.solve`: every door answers with a
checked word, optimal words agree with a plain breadth-first search, an
impossible target is refused with its reason, and a word given as input is
never beaten by a longer answer."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import permgroup
from permgroup.errors import InputError, UnreachableError
from permgroup.formats.definition import apply_alg
from permgroup.perm import act, identity
from permgroup.puzzle import Puzzle
from permgroup.solution import Solution, door, solve
from tests.plain import plain_bfs

DATA = Path(__file__).resolve().parent / "data" / "santa2023"
INFO = DATA / "puzzle_info.csv"


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PERMGROUP_CACHE", str(tmp_path / "cache"))


def _solves(name: str, start: str, word: list[str]) -> bool:
    """Whether ``word`` takes the position ``start`` makes back to solved,
    checked by the definition's own reader (not the solve path's)."""
    d = door(name)
    return apply_alg(d.definition, f"{start} {' '.join(word)}") == d.definition.solved


DOORS = [
    ("minicube", "R U F' R U'"),
    ("cube3", "R U F' L D"),
    ("skewb", "URF URB DRF' ULF"),
    ("pyraminx", "U L R' B u"),
    ("cube-2", "f0 r0 d1 f1"),
    (f"{INFO}#cube_2/2/2", "f0 r0 d1 f1"),
    ("cube-4", "r1 f2 d0 r3'"),
    (f"{INFO}#cube_4/4/4", "r1 f2 d0 r3'"),
    ("torus", "row0 col1 row2' col3"),
    ("lrx-7", "L X L X R X"),
    (f"{INFO}#wreath_6/6", "l r l -r"),
    (f"{INFO}#globe_1/8", "r0 f1 r1 f3"),
    (str(Path(permgroup.__file__).parent.parent / "puzzles" / "definitions" / "dino.tws"),
     "URF ULB' DRB"),
]


@pytest.mark.parametrize("name, scramble", DOORS, ids=[d[0].split("/")[-1] for d in DOORS])
def test_every_door_answers_with_a_checked_word(name, scramble):
    found = permgroup.solve(name, scramble, time_limit=20)
    assert isinstance(found, Solution)
    assert _solves(name, scramble, found.word)
    assert len(found.word) <= len(scramble.split())  # never longer than the input reversed


def test_words_keep_the_inputs_spelling():
    santa = permgroup.solve(f"{INFO}#cube_2/2/2", "f0 r1", time_limit=20)
    assert santa.word == ["-r1", "-f0"] and santa.optimal
    family = permgroup.solve("cube-2", "f0 r1", time_limit=20)
    assert family.word == ["r1'", "f0'"] and family.optimal


def test_htm_merges_powers_and_qtm_counts_them():
    p = Puzzle("square", 4, {"A": (1, 2, 3, 0), "B": (1, 0, 2, 3)})
    assert solve(p, "B A A", metric="htm").word == ["A2", "B"]
    assert solve(p, "B A A", metric="qtm").word in (["A", "A", "B"], ["A'", "A'", "B"])


def test_optimal_words_match_a_plain_breadth_first_search():
    from permgroup.elements import Element

    rng = random.Random(3)
    d = door("lrx-6")
    moves = list(d.puzzle.generators.values())
    moves += [tuple(sorted(range(6), key=m.__getitem__)) for m in moves]  # and inverses
    depth = plain_bfs(moves, identity(d.puzzle.degree))
    for _ in range(12):
        scramble = " ".join(rng.choice(["L", "X", "L'"]) for _ in range(rng.randrange(9)))
        g = Element.from_word(d.puzzle, scramble).perm
        for start in (scramble, act(d.puzzle.solved, g)):  # a word, then its colouring
            found = solve(d, start)
            assert found.optimal and len(found.word) == depth[g]
            assert _solves("lrx-6", scramble, found.word)


def test_optimal_colourings_match_a_plain_breadth_first_search():
    necklace = Puzzle("necklace", 8, {"turn": (1, 2, 3, 4, 5, 6, 7, 0),
                                      "swap": (1, 0, 2, 3, 4, 5, 6, 7)}, solved="aaabbbcc")
    moves = [necklace.generators["turn"], necklace.move_array("turn'"),
             necklace.generators["swap"]]
    seen = {tuple(necklace.solved): 0}
    frontier = [tuple(necklace.solved)]
    while frontier:  # a plain BFS over colourings, from the goal backwards
        nxt = []
        for state in frontier:
            for m in moves:
                before = tuple(state[m[i]] for i in range(8))  # act(before, m) == state
                if before not in seen:
                    seen[before] = seen[state] + 1
                    nxt.append(before)
        frontier = nxt
    for colours, d in list(seen.items())[::37]:
        found = solve(necklace, colours, time_limit=20)
        assert found.optimal and len(found.word) == d
        state = colours
        for name in found.word:
            state = act(state, necklace.move_array(name))
        assert state == tuple(necklace.solved)


def _cube_scramble(rng: random.Random, n: int, length: int) -> str:
    """``length`` random moves of the n x n x n cube in Santa's names (``f0``, ``r1'``)."""
    names = [f"{m}{i}" for m in "frd" for i in range(n)]
    return " ".join(rng.choice(names) + rng.choice(["", "'"]) for _ in range(length))


def test_the_same_scrambles_through_the_family_and_the_santa_file_agree():
    rng = random.Random(7)
    for _ in range(3):
        scramble = _cube_scramble(rng, 2, 5)
        family = permgroup.solve("cube-2", scramble, time_limit=30)
        santa = permgroup.solve(f"{INFO}#cube_2/2/2", scramble, time_limit=30)
        assert family.optimal and santa.optimal
        assert len(family.word) == len(santa.word)


def test_a_twisted_corner_is_refused_with_its_reason_and_no_table(tmp_path):
    from puzzles import cube3

    state = list(cube3.SOLVED)
    corner = cube3.CORNERS[0]
    for i, j in zip(corner, corner[1:] + corner[:1]):  # turn one corner in place
        state[j] = cube3.SOLVED[i]
    with pytest.raises(UnreachableError, match="twists add up to"):
        permgroup.solve("cube3", "".join(state))
    assert not any((tmp_path / "cache").glob("*"))  # nothing was built


def test_two_stickers_swapped_in_a_santa_row_are_refused():
    from permgroup.formats.santa import read_puzzle_info, read_puzzles
    from permgroup.formats.text import read_text

    rows = read_puzzles(read_text(DATA / "puzzles.csv"),
                        read_puzzle_info(read_text(INFO), str(INFO)))
    row = next(r for r in rows if r.type == "cube_3/3/3")
    start = [row.labels[c] for c in row.start]
    i = next(k for k in range(1, len(start)) if start[k] != start[0])
    start[0], start[i] = start[i], start[0]
    goal = ";".join(row.labels[c] for c in row.goal)
    with pytest.raises(UnreachableError, match="cannot be reached"):
        permgroup.solve(f"{INFO}#cube_3/3/3", ";".join(start), goal)


def test_a_word_given_is_a_candidate_and_an_exhaustive_search_proves_it():
    found = permgroup.solve("skewb", "URF URB DRF'", time_limit=20)
    assert found.optimal and len(found.word) == 3
    # a megaminx scramble: the inverse is the best answer in a short time
    found = permgroup.solve("megaminx", "R U F' L R U2 F", time_limit=2)
    assert len(found.word) <= 8 and _solves("megaminx", "R U F' L R U2 F", found.word)


def test_elements_and_states_are_inputs_too():
    from permgroup.elements import Element, State
    from puzzles import minicube

    p = minicube.PUZZLE
    e = Element.from_word(p, "R U")
    by_element = solve(p, e)
    by_state = solve(p, State(p, act(p.solved, e.perm)))
    assert len(by_element.word) == len(by_state.word) == 2
    assert by_element.optimal and by_state.optimal
    between = solve(minicube.definition(), "R U", "R U R'")  # from one position to another
    assert between.word == ["R'"]


def test_bad_inputs_are_input_errors():
    with pytest.raises(InputError, match="stickers"):
        permgroup.solve("minicube", "a;b;c")
    with pytest.raises(InputError, match="unknown move"):
        permgroup.solve("skewb", "URF XYZ")
    with pytest.raises(InputError, match="depend on the position"):
        permgroup.solve("cubic-eight", "")
    with pytest.raises(UnreachableError, match="colours"):
        permgroup.solve("minicube", "UUUUUUUUUUUUUUUUUUUUUUUU")


def test_cube4_scrambles_of_six_moves_get_proven_optimal_words():
    rng = random.Random(4)
    for _ in range(2):
        scramble = _cube_scramble(rng, 4, 6)
        found = permgroup.solve("cube-4", scramble, time_limit=30)
        assert found.optimal and len(found.word) <= 6
        assert _solves("cube-4", scramble, found.word)


def test_a_word_is_never_longer_than_the_input_reduced_and_reversed():
    """``R R R R R`` is nothing on a face of order 5; ``R R`` is ``R2`` in face
    turns: the answer is never longer than that (a longer Megaminx scramble:
    test_a_word_given_is_a_candidate_and_an_exhaustive_search_proves_it)."""
    found = permgroup.solve("megaminx", "R R R R R U U'", time_limit=2)
    assert found.word == []
    assert permgroup.solve("cube3", "R R", metric="htm", time_limit=2).word == ["R2"]


CORNERS = """Name corners
Set C 4 3
Move A
C
2 3 1 4
1 2 0 0
End
Move B
C
1 3 4 2
0 1 2 0
End
"""


def test_lines_answered_together_are_the_words_solve_gives_one_by_one():
    from permgroup.formats.ksolve import read_ksolve
    from permgroup.solution import solve_many

    d = read_ksolve(CORNERS)
    rng = random.Random(5)
    lines = [" ".join(rng.choice(["A", "B", "A'", "B2"]) for _ in range(rng.randrange(9)))
             for _ in range(60)]
    lines[7] = "[A, B] A"  # alg notation: answered alone
    lines[20] = "A Q"  # a bad line: its error in its place, the lines after it answered
    together = list(solve_many(d, lines, optimal=True))
    for line, found in zip(lines, together):
        if line == "A Q":
            assert isinstance(found, InputError) and "'Q'" in str(found)
            continue
        alone = solve(d, line, optimal=True)
        assert (found.word, found.optimal, found.method) == (alone.word, alone.optimal,
                                                             alone.method)
        assert apply_alg(d, f"{line} {' '.join(found.word)}") == d.solved
    walked = [f for f in together if isinstance(f, Solution) and f.method == "table"
              and "together" in f.notes[0]]
    assert len(walked) > 40  # the runs after the first line went down the table at once


def test_long_words_are_applied_with_arrays_as_move_by_move(monkeypatch):
    import permgroup.solution as solution

    rng = random.Random(5)
    n = 12
    moves = {name: tuple(rng.sample(range(n), n)) for name in "ABC"}
    puzzle = Puzzle("shuffle", n, moves, solved="aabbccddeeff")
    t = solution.task(puzzle, "A B C A")
    word = [rng.choice("ABC") for _ in range(40)]
    by_moves = solution._apply(t, word)
    monkeypatch.setattr(solution, "ARRAY_APPLY", 1)
    assert solution._apply(t, word) == by_moves
    state = t.start
    for name in word:
        state = act(state, moves[name])
    assert by_moves == state
