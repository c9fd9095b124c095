"""The exploring toolkit: words, elements, orbits, tables, Cayley graphs, export.

Checked against sympy, plain Python breadth-first search and networkx, on a
puzzle defined here from sympy permutations, on tiny groups and on the mini cube.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
from math import gcd

import networkx as nx
import pytest
from sympy.combinatorics import Permutation, PermutationGroup

from permgroup import cayley, explore, export
from permgroup.tables import registry
from permgroup.elements import Element, State, cycle_notation, parity
from permgroup.errors import InputError
from permgroup.metric import metric_moves
from permgroup.perm import compose, from_cycles, identity, inverse
from permgroup.words import format_word, parse_word
from puzzles import minicube
from tests.plain import plain_bfs, plain_partial_bfs

CUBE = minicube.PUZZLE


def two_rings():
    """The README's puzzle: two rings of five balls crossing at balls 0 and 2."""
    return explore.define_puzzle(
        "rings", {"A": Permutation(0, 1, 2, 3, 4), "B": Permutation(0, 5, 2, 6, 7)},
        solved="rrrrrbbb")


def random_word(puzzle, length, rng):
    names = list(metric_moves(puzzle, "htm"))
    return " ".join(rng.choice(names) for _ in range(length))


# --- a puzzle of one's own ----------------------------------------------------

def test_user_puzzle_end_to_end():
    rings = two_rings()
    a, b = Permutation(0, 1, 2, 3, 4, size=8), Permutation(0, 5, 2, 6, 7, size=8)
    sympy_order = PermutationGroup([a, b]).order()
    assert explore.order(rings) == explore.state_count(rings) == sympy_order
    assert explore.sticker_orbits(rings) == [tuple(range(8))]
    for metric in ("qtm", "htm"):
        plain = plain_bfs(list(metric_moves(rings, metric).values()), identity(8))
        counts = explore.distribution(rings, metric).counts
        assert sum(counts) == len(plain) == sympy_order
        assert counts == [list(plain.values()).count(d) for d in range(len(counts))]
        assert explore.diameter(rings, metric) == max(plain.values())
    rng = random.Random(6)
    elements = list(plain_bfs(list(metric_moves(rings, "qtm").values()), identity(8)))
    depth = plain_bfs(list(metric_moves(rings, "qtm").values()), identity(8))
    for _ in range(200):
        p, q = rng.choice(elements), rng.choice(elements)
        d = explore.distance(Element(rings, p), Element(rings, q))
        assert d == depth[compose(inverse(p), q)]
        word = explore.shortest_word(Element(rings, compose(inverse(p), q)))
        assert len(word.word) == d and word.perm == compose(inverse(p), q)
    odd = Element(rings, from_cycles([(0, 1)], 8))  # a transposition: not in A_8
    assert not explore.reachable(odd) and explore.distance(Element.identity(rings), odd) == -1


def test_user_puzzle_display_falls_back_to_cells():
    rings = two_rings()
    state = State.solved(rings).apply("A B'")
    svg = state._repr_svg_()
    assert svg.startswith("<svg") and svg.count("data-position=") == 8
    html = Element.from_word(rings, "A B'")._repr_html_()
    assert "A B&#x27;" in html and cycle_notation(Element.from_word(rings, "A B'").perm) in html


def test_define_puzzle_pads_and_accepts_array_forms():
    p = explore.define_puzzle("mix", {"S": Permutation(0, 1), "T": [0, 2, 3, 1]})
    assert p.degree == 4 and p.generators["S"] == (1, 0, 2, 3)
    assert explore.order(p) == PermutationGroup([Permutation(0, 1, size=4),
                                                 Permutation([0, 2, 3, 1])]).order()


# --- round trips ----------------------------------------------------------------

@pytest.mark.parametrize("make", [two_rings, lambda: CUBE, lambda: explore.subgroup(CUBE, "R U2")])
def test_json_round_trip(make):
    puzzle = make()
    again = export.from_json(export.to_json(puzzle))
    assert again.fingerprint() == puzzle.fingerprint()
    assert again.definition() == puzzle.definition()
    assert again.group().order() == puzzle.group().order()


@pytest.mark.parametrize("make", [two_rings, lambda: CUBE, lambda: explore.subgroup(CUBE, "R U")])
def test_gap_round_trip(make):
    puzzle = make()
    text = export.to_gap(puzzle)
    again = export.from_gap(text)
    assert again.generators == puzzle.generators and again.degree == puzzle.degree
    # the GAP text is 1-based: read it with sympy after shifting every point down
    cycles_text = text.split("Group(", 1)[1].split(");", 1)[0]
    for gap_perm, g in zip(cycles_text.split("), ("), puzzle.generators.values()):
        cycles = [[int(x) - 1 for x in c.split(",")]
                  for c in gap_perm.strip("()").split(")(") if c]
        assert Permutation(cycles, size=puzzle.degree).array_form == list(g)


def test_gap_without_names_or_header():
    puzzle = export.from_gap("G := Group((1,2,3)(4,5), ());", degree=6)
    assert puzzle.generators == {"g1": (1, 2, 0, 4, 3, 5), "g2": tuple(range(6))}


@pytest.mark.parametrize("text, message", [
    ("[1, 2]", "JSON object"),
    ("{", "not JSON"),
    ('{"name": "x"}', "'generators'"),
    ('{"name": "x", "generators": {"A": [0, 0]}}', "generators.A"),
    ('{"name": "x", "generators": {"A": "(0 1"}}', "generators.A"),
    ('{"name": "x", "generators": {"A": "(0 1)(1 2)"}}', "appears twice"),
    ('{"name": "x", "generators": {"A": [1, 0]}, "degree": 3}', "generators.A"),
    ('{"name": "x", "generators": {"A": [1, 0]}, "pieces": {"p": [[0, 5]]}}', "pieces.p"),
    ('{"name": "x", "generators": {"A": [1, 0]}, "colour": 1}', "unknown field"),
    ('{"name": "x", "degree": 2, "generators": {"A": [1, 0]}, "solved": "abc"}',
     "solved colouring"),
    ('{"name": "x", "degree": true, "generators": {"A": [1, 0]}}', "'degree'"),
    ('{"name": "", "generators": {"A": [1, 0]}}', "'name'"),
])
def test_json_errors_name_the_field(text, message):
    with pytest.raises(InputError, match=message):
        export.from_json(text)


@pytest.mark.parametrize("text, message", [
    ("G := (1,2);", "no Group"),
    ("G := Group((1,2);", "not closed"),
    ("G := Group((1,x));", "not cycle notation"),
    ('F := FreeGroup("a", "b");\nG := Group((1,2));', "FreeGroup names 2"),
    ("G := Group((1,2)(2,3));", "appears twice"),
])
def test_gap_errors(text, message):
    with pytest.raises(InputError, match=message):
        export.from_gap(text)


# --- words ------------------------------------------------------------------------

def test_word_parsing_and_printing():
    word = parse_word(CUBE, "R U R' U'")
    assert format_word(CUBE, word) == "R U R' U'"
    assert parse_word(CUBE, "RUR'U'") == word == parse_word(CUBE, " R,U ,R’ U′ ")
    assert format_word(CUBE, parse_word(CUBE, "R2' R3 R5 U4")) == "R2 R' R"
    assert parse_word(CUBE, "") == ()


@pytest.mark.parametrize("text, pieces", [
    ("R U Q", ["'Q'", "character 5", "token 3"]),
    ("R Ux R", ["'x'", "character 4", "token 2", "after 'U'"]),
    ("R0", ["power 0", "character 1"]),
    ("(R U", ["unclosed (", "character 1"]),
    ("R U)", ["unexpected ')'", "character 4"]),
    ("(" * 5000 + "R", ["unclosed (", "character 5000"]),
])
def test_word_errors_name_token_and_position(text, pieces):
    with pytest.raises(InputError) as info:
        parse_word(CUBE, text)
    for piece in pieces:
        assert piece in str(info.value)


def test_words_read_brackets_santa_inverses_and_huge_powers_without_expanding():
    assert parse_word(CUBE, "[R, U]") == parse_word(CUBE, "R U R' U'")
    assert parse_word(CUBE, "-R.U") == parse_word(CUBE, "R' U")
    assert parse_word(CUBE, "(" * 5000 + "R" + ")" * 5000) == parse_word(CUBE, "R")
    with pytest.raises(InputError, match="expands to 10,000,000 moves"):
        parse_word(CUBE, "(R U)5000000")
    # the element, by exponentiation: (R U) has order 105
    assert CUBE.move_array("((R U)100000)100000") == CUBE.move_array("(R U)" + str(10**10 % 105))


def test_subgroup_rejects_moves_it_does_not_have():
    ru = explore.subgroup(CUBE, "R U")
    with pytest.raises(InputError, match="'F'"):
        Element.from_word(ru, "R F")
    with pytest.raises(InputError, match="single move"):
        explore.subgroup(CUBE, ["R U"])


# --- elements ------------------------------------------------------------------

def test_element_algebra_matches_sympy():
    rng = random.Random(1)
    for _ in range(30):
        a = Element.from_word(CUBE, random_word(CUBE, rng.randrange(0, 8), rng))
        b = Element.from_word(CUBE, random_word(CUBE, rng.randrange(0, 8), rng))
        sa, sb = a.to_sympy(), b.to_sympy()
        assert (a * b).to_sympy() == sa * sb
        assert a.inverse().to_sympy() == ~sa
        k = rng.randrange(-5, 6)
        assert (a ** k).to_sympy() == sa ** k
        assert a.conjugate(b).to_sympy() == sb * sa * ~sb
        assert a.commutator(b).to_sympy() == sa * sb * ~sa * ~sb
        assert a.order() == sa.order()
        assert a.cycle_type() == sa.cycle_structure
        assert a.parity() == sa.parity()
        # the word the product carries still evaluates to the product
        for e in (a * b, a ** k, a.commutator(b)):
            assert Element.from_word(CUBE, str(e) if e.word else "").perm == e.perm


def test_piece_cycles_explain_sticker_cycles():
    rng = random.Random(2)
    for _ in range(40):
        e = Element.from_word(CUBE, random_word(CUBE, 12, rng))
        expected: dict[int, int] = {}
        for (length, twist), count in e.piece_cycle_type()["corner"].items():
            g = gcd(twist, 3)
            expected[length * 3 // g] = expected.get(length * 3 // g, 0) + g * count
        moved = {k: v for k, v in e.cycle_type().items() if k > 1}
        assert moved == expected


def test_invariants_of_cube_elements():
    rng = random.Random(3)
    quarter = list(metric_moves(CUBE, "qtm"))
    for _ in range(40):
        names = [rng.choice(quarter) for _ in range(rng.randrange(0, 15))]
        e = Element.from_word(CUBE, " ".join(names))
        # a quarter turn cycles four corners: corner parity is the turn count's
        assert e.invariants() == {"corner parity": len(names) % 2, "corner twist": 0}
    corner = minicube.CORNERS[0]
    twisted = Element(CUBE, from_cycles([corner], 24))  # one corner turned in place
    assert twisted.invariants()["corner twist"] != 0 and not explore.reachable(twisted)
    assert twisted.piece_cycle_type() == {"corner": {(1, 1): 1}}


def test_element_errors():
    with pytest.raises(ValueError, match="not a permutation"):
        Element(CUBE, (0,) * 24)
    with pytest.raises(ValueError, match="different stickers"):
        Element.identity(CUBE) * Element.identity(two_rings())
    broken = Element(CUBE, from_cycles([(0, 1)], 24))  # two stickers of different corners
    with pytest.raises(ValueError, match="does not carry"):
        broken.invariants()
    assert "cycles" in broken._repr_html_()  # still displays, without invariants


def test_minicube_state_uses_the_cube_net():
    e = Element.from_word(CUBE, "R U")
    assert e.state().colours == tuple(minicube.apply_moves("".join(CUBE.solved), "R U"))
    svg = e.state()._repr_svg_()
    assert svg.startswith("<svg") and svg.count("data-position=") == 24
    assert explore.subgroup(CUBE, "R U").renderer == CUBE.renderer


# --- subgroups, orbits, tables -----------------------------------------------------

def test_two_face_subgroup_of_the_minicube():
    ru = explore.subgroup(CUBE, "R U")
    sympy_order = PermutationGroup([CUBE.permutation("R"), CUBE.permutation("U")]).order()
    assert explore.order(ru) == sympy_order
    # R and U fix the down-back-left corner, so no rotation lies in <R, U>
    assert explore.state_count(ru) == sympy_order
    # the table ranks only the six corners R and U move
    assert explore.table_size(ru) == 720 * 3 ** 5
    assert explore.piece_orbits(ru)["corner"] == [(0, 1, 2, 3, 5, 7), (4,), (6,)]
    assert sorted(len(o) for o in explore.sticker_orbits(ru)) == [1] * 6 + [18]
    graph = cayley.cayley_graph(ru)
    assert graph.number_of_nodes() == sympy_order
    assert all(d == 4 for _, d in graph.out_degree()) and all(d == 4 for _, d in graph.in_degree())
    start = tuple(range(24))
    by_networkx = nx.single_source_shortest_path_length(graph, start)
    assert all(graph.nodes[n]["depth"] == d for n, d in by_networkx.items())
    counts = explore.distribution(ru).counts
    assert counts == [list(by_networkx.values()).count(d) for d in range(len(counts))]
    # edges are the moves: following an edge composes with its move
    for u, v, move in list(graph.edges(data="move"))[:500]:
        assert compose(u, CUBE.move_array(move)) == v


def test_minicube_gods_numbers_and_shortest_words():
    qtm, htm = explore.distribution(CUBE, "qtm"), explore.distribution(CUBE, "htm")
    assert qtm.counts == minicube.table("qtm").distribution()
    assert htm.counts == minicube.table("htm").distribution()
    assert sum(qtm.counts) == sum(htm.counts) == explore.state_count(CUBE)
    assert explore.state_count(CUBE) * 24 == explore.order(CUBE)
    assert "diameter" in qtm._repr_html_()
    rng = random.Random(4)
    for _ in range(20):
        e = Element.from_word(CUBE, random_word(CUBE, 20, rng))
        for metric in ("qtm", "htm"):
            w = explore.shortest_word(e, metric)
            assert len(w.word) == explore.distance(Element.identity(CUBE), e, metric)
            assert w.normalized() == e.normalized()  # equal up to a whole-cube rotation


def test_table_words_are_real_moves_at_any_anchor(monkeypatch, tmp_path):
    # at sticker 0 (on the corner U, R and F all turn) the normalized forms of
    # U and D' coincide; the engine keeps the name whose move fixes the anchor
    # (D'), so the optimal word is a real move sequence without re-orientation
    monkeypatch.setattr(registry, "choose_anchor", lambda puzzle, metric="qtm": 0)
    monkeypatch.setattr(registry, "_KEPT", {})
    monkeypatch.setenv("PERMGROUP_CACHE", str(tmp_path))  # not the cube module's table
    e = Element.from_word(CUBE, "U R F")
    assert explore.distance(Element.identity(CUBE), e) == 3
    word = explore.shortest_word(e)  # checks the word's product against e
    assert len(word.word) == 3
    assert all(CUBE.move_array(m)[0] == 0 for m in word.word)
    assert explore.distance(word, e) == 0


def test_cayley_graph_of_a_tiny_group_is_a_hexagon():
    s3 = explore.define_puzzle("s3", {"a": Permutation(0, 1), "b": Permutation(1, 2)})
    graph = cayley.cayley_graph(s3)
    assert nx.is_isomorphic(graph.to_undirected(), nx.cycle_graph(6))
    assert {m for _, _, m in graph.edges(data="move")} == {"a", "b"}
    json.dumps(nx.node_link_data(graph, edges="links"))  # exportable as JSON


def test_cayley_graph_limits_and_balls():
    with pytest.raises(ValueError, match=r"3,674,160 elements .*limit=100,000"):
        cayley.cayley_graph(CUBE)
    counts = explore.distribution(CUBE).counts
    ball = cayley.cayley_graph(CUBE, radius=3)
    assert ball.number_of_nodes() == sum(counts[:4])
    assert max(d for _, d in ball.nodes(data="depth")) == 3
    for u, v, move in ball.edges(data="move"):  # names are exact: no re-orientation
        assert compose(u, CUBE.move_array(move)) == v
    with pytest.raises(ValueError, match="within 6 moves .*limit=1,000 .*depth 5"):
        cayley.cayley_graph(CUBE, radius=6, limit=1000)


def test_table_too_big_is_said_plainly():
    big = explore.define_puzzle("big", {"C": Permutation(list(range(1, 20)) + [0]),
                                       "S": Permutation(0, 1, size=20)})
    assert explore.table_size(big) == 2432902008176640000  # 20!
    with pytest.raises(ValueError, match=r"2,432,902,008,176,640,000 entries"):
        explore.table(big)


def test_solve_path_does_not_import_the_toolkit(tmp_path):
    sample = tmp_path / "in.txt"
    sample.write_text("1\n\nWWWW\nRRRR\nYYYY\nBBBB\nOOOO\nGGGG\n")
    code = (
        "import sys\nfrom permgroup import cli\n"
        f"cli.main(['solve', 'uva11007', {str(sample)!r}])\n"
        "mine = {'words', 'elements', 'explore', 'cayley', 'export'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[-1] in mine "
        "and m.startswith('permgroup')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    assert out[0] == "0" and out[1] == "[]"
    code = ("import sys\nimport permgroup.words, permgroup.elements, permgroup.explore, "
            "permgroup.cayley, permgroup.export\nprint('sympy' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "False"


def test_parity_helper():
    assert parity((0, 1, 2)) == 0 and parity((1, 0, 2)) == 1


# --- the other puzzles ---------------------------------------------------------------

def test_cube3_invariants_graph_and_limits():
    from puzzles import cube3

    puzzle = cube3.PUZZLE
    rng = random.Random(5)
    for _ in range(30):
        e = Element.from_word(puzzle, random_word(puzzle, 25, rng))
        inv = e.invariants()
        assert inv["corner parity"] == inv["edge parity"]
        assert inv["corner twist"] == inv["edge flip"] == 0
    edge = puzzle.pieces["edge"][0]
    flipped = Element(puzzle, from_cycles([edge], 54))
    assert flipped.invariants()["edge flip"] == 1 and not explore.reachable(flipped)
    assert flipped.piece_cycle_type() == {"corner": {}, "edge": {(1, 1): 1}}
    # no rotation is a product of face turns, so the graph's nodes are plain elements
    assert explore.symmetries_inside(puzzle) == 1
    ball = cayley.cayley_graph(puzzle, radius=2)
    level = {identity(54)}
    seen = set(level)
    for _ in range(2):
        level = {compose(g, m) for g in level for m in metric_moves(puzzle, "qtm").values()
                 } - seen
        seen |= level
    assert set(ball.nodes) == seen
    for u, v, move in ball.edges(data="move"):
        assert compose(u, puzzle.move_array(move)) == v
    size = 40320 * 3 ** 7 * 479001600 * 2 ** 11  # corners 8!·3^7, edges 12!·2^11
    assert explore.table_size(puzzle) == size
    with pytest.raises(ValueError, match=f"{size:,} entries"):
        explore.table(puzzle)
    assert export.from_json(export.to_json(puzzle)).fingerprint() == puzzle.fingerprint()
    assert export.from_gap(export.to_gap(puzzle)).generators == puzzle.generators


def test_torus_words_orbits_and_ball():
    from puzzles import torus

    puzzle = torus.PUZZLE
    word = parse_word(puzzle, "row0 col1' row2")
    assert parse_word(puzzle, "row0col1'row2") == word
    with pytest.raises(InputError, match="'row9'"):
        parse_word(puzzle, "row0 row9")
    e = Element.from_word(puzzle, "row0 col1' row2")
    assert "".join(e.state().colours) == torus.apply_moves(torus.GOAL, "row0 col1' row2")
    assert e.invariants() == {} and e.parity() == 1  # three 4-cycles
    assert explore.sticker_orbits(puzzle) == [tuple(range(16))]
    assert explore.order(puzzle) == PermutationGroup(
        [puzzle.permutation(m) for m in puzzle.generators]).order()
    assert e.state()._repr_svg_().count("data-position=") == 16
    ball = cayley.cayley_graph(puzzle, radius=2)
    moves = list(metric_moves(puzzle, "qtm").values())
    depth = {identity(16): 0}
    for m in moves:
        depth.setdefault(m, 1)
    for m in moves:
        for k in moves:
            depth.setdefault(compose(m, k), 2)
    assert dict(ball.nodes(data="depth")) == depth


def test_torus_colouring_graph_matches_the_published_counts():
    from puzzles import torus

    graph = cayley.state_graph(torus.PUZZLE, radius=3)
    depths = [d for _, d in graph.nodes(data="depth")]
    # CONVENTIONS.md: 1, 8, 92, 888 boards at depths 0..3 (a whole-space BFS)
    assert [depths.count(d) for d in range(4)] == [1, 8, 92, 888]
    for u, v, move in list(graph.edges(data="move"))[:300]:
        assert "".join(v) == torus.apply_moves("".join(u), move)


def test_cubic_eight_state_graph_obeys_the_guards():
    from puzzles import cubic_eight

    start = cubic_eight.start_state(cubic_eight.CENTRE)
    graph = cayley.state_graph(cubic_eight.PARTIAL, start, radius=5)
    reference = plain_partial_bfs(cubic_eight.PARTIAL, [start], 5)
    assert dict(graph.nodes(data="depth")) == reference
    for u, v, move in graph.edges(data="move"):
        assert cubic_eight.PARTIAL.legal(u, move)
        assert cubic_eight.PARTIAL.apply(u, [move]) == v
    with pytest.raises(ValueError, match="states of cubic-eight reachable number more than"):
        cayley.state_graph(cubic_eight.PARTIAL, start, limit=5000)
