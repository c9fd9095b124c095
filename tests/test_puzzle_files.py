"""Puzzle definition files: reading, writing, the library, the command line.

Facts checked: the formats' composition rule (against the sticker view),
round trips through both formats, group orders against sympy and published
counts, God's-algorithm distributions against published ones, and every
printed optimal solution by applying it.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from permgroup.errors import InputError
from permgroup.explore import load_definition, load_puzzle
from permgroup.formats import read_definition
from permgroup.formats.alg import expand
from permgroup.formats.definition import (
    Definition,
    Orbit,
    OrbitState,
    apply_alg,
    compose,
    identity,
    named_positions,
)
from permgroup.formats.kpuzzle import read_kpuzzle, to_kpuzzle
from permgroup.formats.ksolve import read_ksolve, to_ksolve
from permgroup.formats.stickers import from_puzzle, sticker_colours, sticker_permutation, to_puzzle
from permgroup.optimal import optimal_solutions
from permgroup.perm import act, compose as compose_perm
from puzzles import LIBRARY, solids
from tests.conftest import DATA, ROOT

SWAP = """# two pieces that swap, one of them twisting
Name swap2
Set P 2 3
Solved
P
1 2
End
Move A
P
2 1
1 0
End
"""


def random_position(definition: Definition, rng: random.Random) -> dict:
    out = {}
    for o in definition.orbits:
        pieces = list(range(o.size))
        rng.shuffle(pieces)
        out[o.name] = OrbitState(tuple(pieces),
                                 tuple(rng.randrange(o.orientations) for _ in pieces))
    return out


# --- the model and its sticker view -----------------------------------------------

def test_swap2_is_the_group_of_order_6():
    d = read_ksolve(SWAP, "swap2.tws")
    assert d.name == "swap2" and to_puzzle(d).group().order() == 6
    a = d.moves["A"]
    # a ksolve move's twists are listed at the pieces' source slots (twsearch's
    # convention): the piece of slot 1 gains +1 and lands in slot 2
    assert a["P"] == OrbitState((1, 0), (0, 1))
    after = compose(d, d.solved, a)
    assert after["P"] == OrbitState((1, 0), (0, 1))
    # KPuzzle lists them at the destination: the same move written there reads back equal
    assert json.loads(to_kpuzzle(d))["moves"]["A"]["P"]["orientationDelta"] == [0, 1]


def test_ksolve_move_twists_are_listed_at_source_slots():
    # twsearch's docs/architecture.md: "for move 13425,01201 we convert to state
    # 13425,02011" -- a move's twist line is indexed by the piece's source slot
    text = "Set P 5 3\nMove M\nP\n1 3 4 2 5\n0 1 2 0 1\nEnd\n"
    d = read_ksolve(text, "m.tws")
    assert d.moves["M"]["P"] == OrbitState((0, 2, 3, 1, 4), (0, 2, 0, 1, 1))
    assert compose(d, d.solved, d.moves["M"])["P"].orientation == (0, 2, 0, 1, 1)
    assert "0 1 2 0 1" in to_ksolve(d).splitlines()


@pytest.mark.parametrize("name", ["skewb", "pyraminx", "3x3x3", "2x2x2-layers"])
def test_sticker_permutations_compose_like_the_formula(name):
    d = load_definition(name)
    rng = random.Random(name)
    for _ in range(20):
        a, b = random_position(d, rng), random_position(d, rng)
        both = sticker_permutation(d, compose(d, a, b))
        assert both == compose_perm(sticker_permutation(d, a), sticker_permutation(d, b))


@pytest.mark.parametrize("name", sorted(LIBRARY))
def test_library_round_trips_through_both_formats(name):
    d = load_definition(name)
    text = to_ksolve(d)
    assert read_ksolve(text).fingerprint() == d.fingerprint()
    assert read_kpuzzle(to_kpuzzle(d)).fingerprint() == d.fingerprint()
    assert read_kpuzzle(to_kpuzzle(read_ksolve(text))).fingerprint() == d.fingerprint()
    assert to_ksolve(read_kpuzzle(to_kpuzzle(d))) == text


def test_library_files_are_what_the_geometry_writes(tmp_path):
    written = solids.write_library(tmp_path)
    assert sorted(written) == sorted(p.name for p in LIBRARY.values())
    for file, text in written.items():
        assert (ROOT / "puzzles" / "definitions" / file).read_text() == text, file


def test_sticker_view_round_trips():
    for name in ("skewb", "3x3x3", "dino"):
        d = load_definition(name)
        back = from_puzzle(to_puzzle(d), d.name)
        assert back.moves == d.moves


PUBLISHED_ORDERS = {
    "skewb": 3_149_280,                      # fixed-corner Skewb
    "pyraminx-notips": 933_120,
    "pyraminx": 933_120 * 81,
    "pyraminx-faces": 302_330_880,           # twsearch's Pyraminx sample (face turns)
    "jing-pyraminx": 44_789_760,             # twsearch's Jing's pyraminx sample
    "ufo": 479_001_600,                      # 12!, twsearch's UFO sample
    "3p1": 43_252_003_274_489_856_000,       # the cube's group; 2,217,093,120 states (README)
    "dino": 239_500_800,                     # 12!/2
    "2x2x2": 88_179_840,
    "3x3x3": 43_252_003_274_489_856_000,
    "3x3x3-2gen": 73_483_200,                # <R, U>
    "2x2x2-layers": 88_179_840,              # the group; its states are colourings
}


@pytest.mark.parametrize("name", sorted(PUBLISHED_ORDERS))
def test_orders_match_sympy_and_published_counts(name):
    assert load_puzzle(name).group().order() == PUBLISHED_ORDERS[name]


def test_skewb_with_all_eight_turns_is_twsearchs_count():
    assert solids.skewb(fixed_corner=False).group().order() == 37_791_360


def test_2x2x2_file_agrees_with_the_minicube_module():
    from puzzles import minicube

    assert load_definition("2x2x2").moves == from_puzzle(minicube.PUZZLE, "2x2x2").moves


# --- tables and optimal solutions ---------------------------------------------------

SKEWB_DISTRIBUTION = [1, 8, 48, 288, 1728, 10248, 59304, 315198, 1225483, 1455856, 81028, 90]


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "permgroup", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT)


def test_table_of_library_puzzles_matches_published_distributions():
    skewb = run_cli("table", "skewb")
    assert skewb.returncode == 0, skewb.stderr
    lines = skewb.stdout.splitlines()
    assert [int(x.split("\t")[1]) for x in lines[:-1]] == SKEWB_DISTRIBUTION
    assert lines[-1] == "# total 3149280, diameter 11"
    path = ROOT / "puzzles" / "definitions" / "pyraminx-notips.tws"
    pyraminx = run_cli("table", str(path), "--metric", "htm")
    assert [int(x.split("\t")[1]) for x in pyraminx.stdout.splitlines()[:-1]] == [
        1, 8, 48, 288, 1728, 9896, 51808, 220111, 480467, 166276, 2457, 32]
    assert pyraminx.stdout.splitlines()[-1] == "# total 933120, diameter 11"


def _positions_by_plain_bfs(d: Definition, metric: str) -> list[int]:
    """The distribution by a second, simpler algorithm: a BFS over whole positions."""
    from permgroup.spaces.orbit import metric_moves
    from permgroup.formats.definition import power
    moves = [power(d, d.moves[g], j) for g, j in metric_moves(d, metric).values()]

    def key(p):
        return tuple((p[o.name].pieces, p[o.name].orientation) for o in d.orbits)
    seen, frontier, counts = {key(d.solved)}, [d.solved], []
    while frontier:
        counts.append(len(frontier))
        nxt = []
        for p in frontier:
            for m in moves:
                q = compose(d, p, m)
                if key(q) not in seen:
                    seen.add(key(q))
                    nxt.append(q)
        frontier = nxt
    return counts


def test_twists_fixed_by_the_slot_take_no_digit():
    # three of the Dino cube's turns: every edge's orientation follows from its slot,
    # so the ranks cover the arrangements alone (the orientations would multiply them)
    from permgroup.spaces.orbit import OrbitSpace
    from permgroup.tables.orbit_table import build_orbit_table
    dino = load_definition("dino")
    d = Definition("dino3", dino.orbits, dino.solved,
                   {m: dino.moves[m] for m in list(dino.moves)[:3]})
    space = OrbitSpace(d, "htm")
    assert set(space.implied) == {"edge"}
    assert all("orientation" not in f.name for f in space.factors)
    plain = _positions_by_plain_bfs(d, "htm")
    assert sum(plain) == to_puzzle(d).group().order()
    assert space.size == 239_500_800  # 12!/2 arrangements, no orientation digit
    assert build_orbit_table(d, "htm").distribution() == plain
    turned = space.position_of([list(d.moves)[0]])
    assert space.unrank(space.rank(turned)) == turned
    twisted = dict(turned)
    e = turned["edge"]
    wrong = tuple(e.orientation[:-1]) + ((e.orientation[-1] + 1) % 2,)
    twisted["edge"] = OrbitState(e.pieces, wrong)
    with pytest.raises(InputError, match="not reachable"):
        space.rank(twisted)


def test_an_orbit_too_large_to_place_is_refused_before_any_table_is_built():
    from permgroup.spaces.orbit import OrbitSpace
    with pytest.raises(InputError, match="orbit corner has too many arrangements"):
        OrbitSpace(load_definition("megaminx"), "htm")  # 20 corners: 20!/6! placements


@pytest.mark.slow
def test_2x2x2_six_faces_has_the_published_face_turn_distribution():
    run = run_cli("table", "2x2x2", "--metric", "htm")
    assert [int(x.split("\t")[1]) for x in run.stdout.splitlines()[:-1]] == [
        1, 18, 243, 2874, 28000, 205416, 1168516, 5402628, 20776176, 45391616, 15139616, 64736]


def solves(definition: Definition, moves: str, answer: list[str]) -> bool:
    """Whether ``answer`` takes the position ``moves`` made back to solved
    (as a colouring: identical pieces may trade places)."""
    named = named_positions(definition)
    start = apply_alg(definition, moves, named=named)
    end = apply_alg(definition, " ".join(answer), start, named=named)
    return sticker_colours(definition, end) == sticker_colours(definition, definition.solved)


@pytest.mark.parametrize("name, metric", [("skewb", "qtm"), ("pyraminx", "htm"),
                                          ("2x2x2-layers", "htm"), ("pyraminx-notips", "qtm")])
def test_every_optimal_solution_solves_and_is_no_longer_than_the_scramble(name, metric):
    d = load_definition(name)
    rng = random.Random(7)
    names = list(d.moves)
    lines = [" ".join(rng.choice(names) + rng.choice(["", "'"]) for _ in range(rng.randrange(9)))
             for _ in range(60)]
    answers = optimal_solutions(d, lines, metric)
    for line, answer in zip(lines, answers):
        assert solves(d, line, answer), (line, answer)
        assert len(answer) <= len(line.split())
    if name != "2x2x2-layers":  # group elements: g and its inverse are equally far
        inverses = optimal_solutions(d, [" ".join(a) for a in answers], metric)
        assert [len(a) for a in inverses] == [len(a) for a in answers]


def test_optimal_cli_prints_checked_solutions_and_names_a_bad_line():
    d = load_definition("skewb")
    good = "URF URB'\n\n[URF, ULF]\n(DRF URB)2\n"
    run = run_cli("optimal", "skewb", stdin=good + "URF QQ\nURF\n")
    assert run.returncode == 2
    answers = run.stdout.splitlines()
    assert len(answers) == 4 and answers[1] == ""
    for line, answer in zip(good.splitlines(), answers):
        assert solves(d, line, answer.split())
    assert run.stderr.strip().splitlines()[-1].startswith("permgroup: error: line 5: ")
    assert "'QQ'" in run.stderr and "Traceback" not in run.stderr


def test_optimal_by_search_for_a_puzzle_too_big_for_a_table():
    d = load_definition("3x3x3")
    lines = ["R U", "R U R' U'", "F2 D", ""]
    answers = optimal_solutions(d, lines, "htm")
    assert [len(a) for a in answers] == [2, 4, 2, 0]
    for line, answer in zip(lines, answers):
        assert solves(d, line, answer)


def test_move_names_the_short_way_round():
    from permgroup.metric import metric_moves

    mega = load_puzzle("megaminx")
    assert list(metric_moves(mega.restricted(["U"]), "htm")) == ["U", "U2", "U2'", "U'"]
    d = load_definition("megaminx")
    assert apply_alg(d, "U2'") == apply_alg(d, "U3") == apply_alg(d, "U'  U'")


# --- alg notation and derived moves -------------------------------------------------

def test_alg_notation():
    assert expand("[A: B]") == [("A", 1), ("B", 1), ("A", -1)]
    assert expand("[A, [B: C]]2") == [("A", 1), ("B", 1), ("C", 1), ("B", -1), ("A", -1),
                                      ("B", 1), ("C", -1), ("B", -1)] * 2
    with pytest.raises(InputError, match="unclosed"):
        expand("(A B")
    with pytest.raises(InputError, match=r"unknown move 'Q'.*character 3"):
        expand("A Q", {"A"}.__contains__)


def kpuzzle_text(**changes) -> str:
    data = json.loads(to_kpuzzle(read_ksolve(SWAP)))
    data.update(changes)
    return json.dumps(data, indent=1)


def test_kpuzzle_derived_moves_and_rotations():
    d = read_kpuzzle(kpuzzle_text(derivedMoves={"B": "[A: A2]", "C": "[B, A]"}))
    named = named_positions(d)
    assert named["B"] == compose(d, d.moves["A"], d.moves["A"]) and named["C"] == identity(d)
    cube = load_definition("3x3x3")
    data = json.loads(to_kpuzzle(cube))
    data["derivedMoves"] = {"Rw2": "R2", "sexy": "[R, U]"}
    again = read_kpuzzle(json.dumps(data))
    assert apply_alg(again, "sexy") == apply_alg(cube, "R U R' U'")


# --- bad files: one message naming the file, the line and the fault ----------------

BAD_KSOLVE = {
    "unknown set": ("Set P 2 1\nMove A\nQ\n2 1\nEnd\n", r"line 3: Move A: unknown set 'Q'"),
    "wrong length": ("Set P 3 1\nMove A\nP\n2 1\nEnd\n", r"line 4: .*expected 3 numbers, got 2"),
    "out of range": ("Set P 2 1\nMove A\nP\n3 1\nEnd\n", r"line 4: .*number 3 is out of range 1..2"),
    "repeated": ("Set P 3 1\nMove A\nP\n2 2 1\nEnd\n", r"line 4: .*2 appears 2 times"),
    "orientation": ("Set P 2 3\nMove A\nP\n2 1\n0 3\nEnd\n",
                    r"line 5: .*orientation 3 is out of range 0..2"),
    "truncated": ("Set P 2 1\nMove A\nP\n2 1\n", r"line 2: Move A has no End"),
    "missing End": ("Set P 2 1\nMove A\nP\n2 1\nMove B\nP\n2 1\nEnd\n",
                    r"line 2: Move A has no End before line 5"),
    "not a number": ("Set P 2 1\nMove A\nP\n2 x\nEnd\n", r"line 4: .*'x' is not a number"),
    "unknown keyword": ("Set P 2 1\nTwist A\n", r"line 2: unknown keyword 'Twist'"),
    "derived unknown": ("Set P 2 1\nMove A\nP\n2 1\nEnd\nMoveSequence B A C\n",
                        r"line 6: derived move 'B': unknown move 'C'"),
    "derived loop": ("Set P 2 1\nMove A\nP\n2 1\nEnd\nMoveSequence B C\nMoveSequence C B A\n",
                     r"line 6: derived move 'B' refers to itself \(B -> C -> B\)"),
    "ignore": ("Set P 2 1\nIgnore\nP\n1 0\nEnd\n", r"line 2: Ignore blocks are not supported"),
    "no moves": ("Set P 2 1\n", r"no Move blocks"),
}


@pytest.mark.parametrize("fault", sorted(BAD_KSOLVE))
def test_bad_ksolve_files_are_named_and_located(fault, tmp_path):
    text, message = BAD_KSOLVE[fault]
    path = tmp_path / "bad.tws"
    path.write_text(text)
    with pytest.raises(InputError, match=message) as caught:
        read_definition(path)
    assert str(caught.value).startswith(str(path))
    run = run_cli("order", str(path))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith(f"permgroup: error: {path}") and "Traceback" not in run.stderr


BAD_KPUZZLE = {
    "invalid json": ('{"orbits": [', r"line 1, column 13: invalid JSON"),
    "unknown orbit": (kpuzzle_text(moves={"A": {"Q": {"permutation": [1, 0]}}}),
                      r"line \d+: moves.A.Q: unknown orbit 'Q'"),
    "not a permutation": (kpuzzle_text(moves={"A": {"P": {"permutation": [1, 1]}}}),
                          r"moves.A.P.permutation: 1 appears 2 times"),
    "out of range": (kpuzzle_text(moves={"A": {"P": {"permutation": [2, 0]}}}),
                     r"moves.A.P.permutation\[0\]: 2 is out of range 0..1"),
    "orientation": (kpuzzle_text(moves={"A": {"P": {"permutation": [1, 0],
                                                    "orientationDelta": [0, 5]}}}),
                    r"orientationDelta\[1\]: 5 is out of range 0..2"),
    "length": (kpuzzle_text(moves={"A": {"P": {"permutation": [1, 0, 2]}}}),
               r"expected 2 piece numbers, got 3"),
    "derived loop": (kpuzzle_text(derivedMoves={"B": "C", "C": "[A: B]"}),
                     r"derivedMoves.B: derived move 'B' refers to itself"),
    "derived unknown": (kpuzzle_text(derivedMoves={"B": "A Z"}),
                        r"derived move 'B': unknown move 'Z'"),
}


@pytest.mark.parametrize("fault", sorted(BAD_KPUZZLE))
def test_bad_kpuzzle_files_are_named_and_located(fault, tmp_path):
    text, message = BAD_KPUZZLE[fault]
    path = tmp_path / "bad.kpuzzle.json"
    path.write_text(text)
    with pytest.raises(InputError, match=message):
        read_definition(path)
    run = run_cli("table", str(path))
    assert run.returncode == 2 and run.stderr.startswith(f"permgroup: error: {path}")


# --- cubing.js's own 2x2x2: derived moves are moves, rotations normalize ------------

CUBING_2X2X2 = DATA / "2x2x2-cubing.kpuzzle.json"


def test_cubing_2x2x2_derived_moves_turn_the_puzzle_and_rotations_rotate_it():
    from permgroup import explore

    d = read_definition(CUBING_2X2X2)
    assert list(d.moves) == ["U", "L", "F", "R", "B", "D"]  # U given, the rest derived
    assert list(d.rotations) == ["x", "y", "z", "Uv", "Rv", "Fv"]
    six = load_definition("2x2x2")
    puzzle = to_puzzle(d)
    assert explore.order(puzzle) == explore.order(to_puzzle(six)) == 88_179_840
    assert explore.symmetries_inside(puzzle) == 24
    # the derived faces are the six-face file's faces (same numbering of the corners)
    assert all(d.moves[m] == six.moves[m] for m in d.moves)


def test_cubing_2x2x2_table_is_taken_up_to_rotation_like_the_built_in_cube():
    from puzzles import minicube

    run = run_cli("table", str(CUBING_2X2X2), "--metric", "htm")
    counts = [int(x.split("\t")[1]) for x in run.stdout.splitlines()[:-1]]
    assert counts == minicube.table("htm").distribution()
    assert sum(counts) == 88_179_840 // 24
    assert run_cli("order", str(CUBING_2X2X2)).stdout.splitlines()[1] == \
        "order up to whole-puzzle symmetry: 3674160 (symmetry group of order 24)"


def test_cubing_2x2x2_optimal_solutions_agree_with_the_six_face_file():
    """An optimal solution up to rotation is as long as the shortest way, in the
    six-face file's table (no rotations), to any of the 24 rotations of solved."""
    from permgroup.formats.definition import compose, invert
    from permgroup.tables.registry import load_or_build

    d, six = read_definition(CUBING_2X2X2), load_definition("2x2x2")
    named = named_positions(d)
    turns = [named["x"], named["y"]]
    rotations, frontier = [identity(d)], [identity(d)]
    while frontier:  # the 24 rotations, from x and y
        frontier = [r for r in (compose(d, f, t) for f in frontier for t in turns)
                    if r not in rotations]
        rotations += [r for i, r in enumerate(frontier) if r not in frontier[:i]]
    assert len(rotations) == 24
    rng = random.Random(20)
    lines = [" ".join(rng.choice("URFDLB") + rng.choice(["", "2", "'"]) for _ in range(12))
             for _ in range(25)] + ["x y", "Uv R"]
    answers = optimal_solutions(d, lines, "htm")
    table = load_or_build(six, "htm")
    for line, answer in zip(lines, answers):
        position = apply_alg(d, line, named=named)
        end = apply_alg(d, " ".join(answer), position, named=named)
        assert any(end == r for r in rotations), (line, answer)  # solved, up to rotation
        # a position turned by r is the same state: it is solved by reaching r⁻¹
        assert len(answer) == min(table.distance(compose(six, position, invert(six, r)))
                                  for r in rotations), line


def test_a_tws_file_with_rotation_blocks_is_normalized_too(tmp_path):
    from permgroup.formats.ksolve import to_ksolve

    cubing = read_definition(CUBING_2X2X2)
    # twsearch names only x, y and z as rotations
    d = Definition("2x2x2 with rotations", cubing.orbits, cubing.solved, cubing.moves,
                   rotations={r: p for r, p in cubing.rotations.items() if r in "xyz"})
    path = tmp_path / "2x2x2-rotations.tws"
    path.write_text(to_ksolve(d))
    again = read_definition(path)
    assert list(again.rotations) == ["x", "y", "z"] and list(again.moves) == list(d.moves)
    run = run_cli("table", str(path))
    assert run.stdout.splitlines()[-1] == "# total 3674160, diameter 14"
