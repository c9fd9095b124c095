"""The rows x cols torus (Kattis rubiksrevenge) and the colouring engine under it.

Cross-checks: sympy for the group, itertools for the multiset ranks, a plain
dictionary BFS over strings for small boards, the engine's own ``bfs_depths``
for the colouring space, the published 4x4 distribution for the first levels,
and the official judge data (every file, through the bidirectional search).
"""
from __future__ import annotations

import itertools
import random
import subprocess
import sys
from collections import deque
from math import factorial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from permgroup.tables import colouring_table
import permgroup.tables.bfs as bfs_module
from permgroup.spaces.space import GraphSpace
from permgroup.tables.bfs import bfs
from permgroup.tables.store import UNSEEN
from permgroup.cli import main
from permgroup.spaces.ranking import multinomial
from permgroup.spaces.ranking import multiset_rank as lookup_rank
from permgroup.tables.registry import cache_path, load_or_build
from permgroup.tables.colouring_table import build_colouring_table, colouring_depths
from permgroup.errors import InputError
from permgroup.search import meet
from permgroup.search.meet import search, search_distance, search_path
from permgroup.spaces.colouring import MultisetRanking, WordMove
from permgroup.perm import act, compose, inverse
from puzzles import torus
from puzzles.formats import rubiksrevenge
from tests.conftest import DATA

# the published distribution (CONVENTIONS.md, rubiksrevenge)
FIRST_LEVELS = [1, 8, 92, 888, 8066, 69816, 542108]
OFFICIAL = sorted((DATA / "rubiksrevenge").glob("*/*.in"))
GOAL = torus.GOAL


@pytest.fixture(scope="module", autouse=True)
def _private_cache(tmp_path_factory):
    """A cache of this module's own, so that a 4x4 table cached elsewhere (or by
    a benchmark) cannot turn the searches tested here into lookups."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PERMGROUP_CACHE", str(tmp_path_factory.mktemp("torus-cache")))
        torus._TABLES.clear()
        yield
        torus._TABLES.clear()


def plain_bfs(puzzle, source: str) -> dict[str, int]:
    """Distances from ``source`` over board strings, one dictionary entry per board."""
    moves = list(torus.moves(puzzle).values())
    depth = {source: 0}
    queue = deque([source])
    while queue:
        s = queue.popleft()
        for m in moves:
            t = "".join(act(s, m))
            if t not in depth:
                depth[t] = depth[s] + 1
                queue.append(t)
    return depth


def random_board(rng: random.Random, puzzle=torus.PUZZLE) -> str:
    cells = list(puzzle.solved)
    rng.shuffle(cells)
    return "".join(cells)


# --- the group ------------------------------------------------------------------

def test_group_is_the_symmetric_group_of_the_cells():
    assert torus.PUZZLE.group().order() == factorial(16) == 20_922_789_888_000
    assert torus.PUZZLE.group().is_symmetric


def test_both_sides_odd_gives_the_alternating_group():
    assert torus.torus_puzzle(3, 3).group().order() == factorial(9) // 2
    assert torus.torus_puzzle(2, 4).group().order() == factorial(8)
    # colourings do not see the parity: all 9!/3!^3 colourings are reachable
    assert len(plain_bfs(torus.torus_puzzle(3, 3), "RRRGGGBBB")) == 1680


def test_sixteen_moves_each_a_four_cycle_of_one_line():
    moves = torus.moves()
    assert len(moves) == 16 and len(set(moves.values())) == 16
    for name, p in moves.items():
        moved = [i for i in range(16) if p[i] != i]
        assert len(moved) == 4
        rows = {i // 4 for i in moved}
        cols = {i % 4 for i in moved}
        assert (len(rows), len(cols)) == ((1, 4) if name.startswith("row") else (4, 1))
        assert compose(compose(p, p), compose(p, p)) == tuple(range(16))
    assert moves["row1'"] == inverse(moves["row1"])
    # a row shift commutes with the other rows' shifts, not with a column's
    assert compose(moves["row0"], moves["row2"]) == compose(moves["row2"], moves["row0"])
    assert compose(moves["row0"], moves["col1"]) != compose(moves["col1"], moves["row0"])


def test_worked_example_from_the_conventions():
    assert torus.apply_moves(GOAL, "col0'") == "GRRRBGGGYBBBRYYY"
    assert torus.apply_moves(GOAL, "row0") == GOAL
    assert torus.apply_moves("RGBYGGGGBBBBYYYR", "row0") == "YRGBGGGGBBBBYYYR"


def test_cosets_count_the_states():
    """States are cosets of the colour-preserving subgroup H = S4^4."""
    from sympy.combinatorics import Permutation, PermutationGroup

    h_gens = []
    for i in range(4):
        row = [4 * i + j for j in range(4)]
        h_gens.append(Permutation([[row[0], row[1]]], size=16))
        h_gens.append(Permutation([row], size=16))
    h = PermutationGroup(h_gens)
    assert h.order() == factorial(4) ** 4
    assert torus.PUZZLE.group().order() // h.order() == 63_063_000 == torus.space().size


def test_p_inverse_q_depends_on_the_coset_representative():
    """Why distance(a, b) is not the table entry of p⁻¹q for colourings."""
    puzzle = torus.torus_puzzle(3, 3)
    goal = "".join(puzzle.solved)
    t = build_colouring_table(puzzle)
    moves = list(torus.moves(puzzle).values())
    rng = random.Random(3)
    swap = (1, 0) + tuple(range(2, 9))  # swaps two cells of colour R: in H
    differ = 0
    for _ in range(40):
        p = tuple(rng.sample(range(9), 9))
        q = compose(compose(moves[rng.randrange(12)], moves[rng.randrange(12)]), p)
        a, b = "".join(act(goal, p)), "".join(act(goal, q))
        one = t.depth("".join(act(goal, compose(inverse(p), q))))
        other = t.depth("".join(act(goal, compose(inverse(compose(swap, p)), q))))
        assert "".join(act(goal, compose(swap, p))) == a  # same state, other element
        differ += one != other
        truth = plain_bfs(puzzle, b)[a]
        assert search_distance(t.space, a, b, table=t) == truth
    assert differ > 0


def test_colouring_graph_is_not_vertex_transitive():
    """Seen from another colouring the distances are distributed differently (the
    reason one table from the goal cannot answer every pair)."""
    space = torus.space(torus.torus_puzzle(3, 4))
    from_goal = np.bincount(colouring_depths(space, [space.solved]))
    other = space.encode("RGBRGBRGBRGB")
    from_other = np.bincount(colouring_depths(space, [other]))
    assert from_goal.sum() == from_other.sum() == space.size
    assert from_goal.tolist() != from_other.tolist()


# --- ranks and words --------------------------------------------------------------

def lexicographic_rank(colours, counts) -> int:
    """Reference rank: arrangements that are smaller at the first differing cell."""
    left = list(counts)
    rank = 0
    for c in colours:
        for smaller in range(c):
            if left[smaller]:
                left[smaller] -= 1
                rank += multinomial(left)
                left[smaller] += 1
        left[c] -= 1
    return rank


@pytest.mark.parametrize("counts, chunk_bits", [
    ((2, 2), 16), ((3, 2, 1), 16), ((2, 2, 2), 4), ((3, 3, 3), 16),
    ((2, 2, 2, 2), 4), ((2, 3, 2, 1), 6), ((1, 1, 1, 1, 1), 16), ((4, 4), 2),
])
def test_ranks_are_the_positions_in_sorted_order(counts, chunk_bits):
    items = [c for c, k in enumerate(counts) for _ in range(k)]
    arrangements = np.array(sorted(set(itertools.permutations(items))))
    r = MultisetRanking(counts, chunk_bits)
    words = r.pack(arrangements)
    assert r.size == len(arrangements)
    assert (r.rank(words) == np.arange(r.size)).all()
    assert (r.unrank(np.arange(r.size)) == words).all()
    assert (r.unpack(words) == arrangements).all()
    listed = np.concatenate([r.block(lo, hi)[1] for lo, hi in r.block_bounds(5)])
    assert (listed == words).all()


def test_four_by_four_ranks_against_the_reference():
    r = torus.space().ranking
    assert r.widths == [8, 8] and r.size == 63_063_000
    rng = random.Random(5)
    boards = [[torus.space().index[c] for c in random_board(rng)] for _ in range(300)]
    boards += [[0] * 4 + [1] * 4 + [2] * 4 + [3] * 4, [3] * 4 + [2] * 4 + [1] * 4 + [0] * 4]
    ranks = r.rank(r.pack(np.array(boards)))
    assert ranks.tolist() == [lexicographic_rank(b, (4, 4, 4, 4)) for b in boards]
    assert ranks.tolist() == [lookup_rank(b, (4, 4, 4, 4)) for b in boards]
    assert ranks[-2] == 0 and ranks[-1] == r.size - 1
    some = np.random.default_rng(5).integers(0, r.size, 200_000)
    assert (r.rank(r.unrank(some)) == some).all()
    for lo, hi in r.block_bounds(1 << 22)[::5]:
        start, words = r.block(lo, hi)
        assert (r.rank(words) == start + np.arange(len(words))).all()


@pytest.mark.parametrize("lo, hi", [(0, 100_000), (1_234_567, 1_334_571), (63_000_000, 63_063_000)])
def test_states_of_a_rank_range_are_their_words(lo, hi):
    """Listed a piece at a time or unranked, the words of ranks lo + offsets."""
    space = torus.space()
    rng = np.random.default_rng(lo)
    for share in (0.9, 0.5, 0.1):  # listed, listed, unranked
        offsets = np.flatnonzero(rng.random(hi - lo) < share)
        words = space.states_of(lo, hi, offsets)
        assert words.dtype == space.dtype
        assert (words == space.unrank(offsets + lo)).all()


@settings(max_examples=50, deadline=None)
@given(st.permutations(list(GOAL)), st.integers(0, 15))
def test_word_moves_agree_with_act(board, m):
    space = torus.space()
    name = space.move_names[m]
    word = space.encode(board)
    assert "".join(space.decode(space.apply(np.array([word]), m)[0])) == \
        "".join(act(board, torus.PUZZLE.move_array(name)))
    assert space.unapply(space.apply(np.array([word]), m), m)[0] == word


def test_word_move_on_64_bit_words():
    perm = tuple(range(1, 20)) + (0,)
    r = MultisetRanking([5, 5, 5, 5])
    assert r.dtype == np.uint64
    colours = np.array([[(3 * i) % 4 for i in range(20)]])
    moved = r.unpack(WordMove(perm, r.bits)(r.pack(colours)))
    assert moved[0].tolist() == list(act(colours[0].tolist(), perm))


# --- small boards: whole tables -------------------------------------------------------

@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3), (2, 4), (3, 3), (3, 4)])
def test_small_tables_agree_with_plain_bfs_and_engine_bfs(rows, cols):
    puzzle = torus.torus_puzzle(rows, cols)
    goal = "".join(puzzle.solved)
    table = build_colouring_table(puzzle)
    truth = plain_bfs(puzzle, goal)
    assert sum(table.distribution()) == len(truth) == table.space.size == table.reachable
    by_depth = [0] * (max(truth.values()) + 1)
    for d in truth.values():
        by_depth[d] += 1
    assert table.distribution() == by_depth
    space = table.space
    by_ranks = GraphSpace(space.size, space.n_moves, space.back_step, space.step)
    engine = bfs(by_ranks, space.rank(np.array([space.solved]))).depths
    assert (engine == table.depths).all()
    rng = random.Random(rows * 10 + cols)
    for board in rng.sample(sorted(truth), min(60, len(truth))):
        assert table.depth(board) == truth[board]
        assert search_distance(space, board, goal) == truth[board]
        path = table.path(board)
        assert len(path) == truth[board]
        assert torus.apply_moves(board, path, puzzle) == goal


def test_table_builder_blocks_and_threads_do_not_change_the_answer(monkeypatch):
    space = torus.space(torus.torus_puzzle(3, 4))
    whole = colouring_depths(space, [space.solved])
    for block in (100, 5000):
        monkeypatch.setattr(bfs_module, "BLOCK", block)
        assert (colouring_depths(space, [space.solved]) == whole).all()


def test_distance_between_two_boards_on_a_small_torus():
    puzzle = torus.torus_puzzle(3, 4)
    table = build_colouring_table(puzzle)
    rng = random.Random(11)
    boards = [random_board(rng, puzzle) for _ in range(3)]
    for b in boards:
        truth = plain_bfs(puzzle, b)
        for a in [random_board(rng, puzzle) for _ in range(15)]:
            assert (search_distance(table.space, a, b, table=table) == truth[a]
                    == search_distance(table.space, a, b))
            path = search_path(table.space, a, b, table=table)
            assert len(path) == truth[a]
            assert torus.apply_moves(a, path, puzzle) == b
    # a goal with its colours renamed (rows in another order) is a lookup
    renamed = "GGGGRRRRBBBB"
    truth = plain_bfs(puzzle, renamed)
    for a in [random_board(rng, puzzle) for _ in range(15)]:
        assert table.depth(table.as_source(a, renamed)) == truth[a]


def test_bidirectional_search_is_symmetric_and_obeys_the_triangle_inequality():
    space = torus.space()
    rng = random.Random(2)
    for _ in range(4):
        a, b, c = (torus.apply_moves(GOAL, [rng.choice(space.move_names) for _ in range(7)])
                   for _ in range(3))
        ab = search_distance(space, a, b)
        assert ab == search_distance(space, b, a)
        assert search_distance(space, a, c) <= ab + search_distance(space, b, c)


def test_bidirectional_search_respects_max_depth_and_unreachable():
    def ring(s, m):
        return (s + (1 if m == 0 else -1)) % 10

    def back(s, m):
        return ring(s, 1 - m)

    assert len(search(0, 5, 2, ring, back)) == 5
    assert search(0, 5, 2, ring, back, max_depth=4) is None
    assert search(0, 5, 1, lambda s, m: (s + 2) % 10, lambda s, m: (s - 2) % 10) is None

    def path_step(s, m):  # a path 0..9 whose ends have one legal move (-1 otherwise)
        t = s + (1 if m == 0 else -1)
        return np.where((t < 0) | (t > 9), -1, t)

    found = search(0, 9, 2, path_step, lambda s, m: path_step(s, 1 - m))
    assert found == [0] * 9


# --- the 4x4 board ---------------------------------------------------------------------

def test_first_levels_of_the_published_distribution():
    space = torus.space()
    depths = colouring_depths(space, [space.solved], max_depth=6)
    counts = np.bincount(depths, minlength=256)
    assert counts[:7].tolist() == FIRST_LEVELS
    assert counts[UNSEEN] == space.size - sum(FIRST_LEVELS)
    # the engine's generic BFS over ranks agrees on the first levels
    by_ranks = GraphSpace(space.size, space.n_moves, space.back_step, space.step)
    engine = bfs(by_ranks, space.rank(np.array([space.solved])), max_depth=4).depths
    assert (np.minimum(depths, 5) == np.minimum(engine, 5)).all()
    # and the bidirectional search agrees with the partial table
    rng = np.random.default_rng(8)
    for d in range(7):
        ranks = np.flatnonzero(depths == d)
        for r in rng.choice(ranks, min(4, len(ranks)), replace=False):
            board = "".join(space.decode(space.unrank(np.array([r]))[0]))
            assert torus.distance(board) == d


@pytest.mark.slow
@pytest.mark.parametrize("path", OFFICIAL, ids=[f"{p.parent.name}/{p.stem}" for p in OFFICIAL])
def test_official_data_through_the_bidirectional_search(path):
    assert torus.cached_table() is None  # the search, not a table
    expected = path.with_suffix(".ans").read_text().strip()
    assert rubiksrevenge.solve_text(path.read_text()) == expected + "\n"


def test_official_data_is_all_there():
    assert len([p for p in OFFICIAL if p.parent.name == "secret"]) == 27
    assert len([p for p in OFFICIAL if p.parent.name == "sample"]) == 2


def test_hardest_official_positions_get_an_optimal_word():
    for name in ("puzzle-01", "puzzle-25"):
        text = (DATA / "rubiksrevenge/secret" / f"{name}.in").read_text()
        board = rubiksrevenge.read_board(text)
        word = torus.solve(board)
        assert len(word) == 12
        assert torus.apply_moves(board, word) == GOAL


def test_solve_does_not_build_the_table():
    rubiksrevenge.solve_text("BYYY\nYBBB\nGRRR\nRGGG\n")
    assert not cache_path(torus.PUZZLE).exists()


def test_a_cached_table_is_used_for_lookups(monkeypatch):
    puzzle = torus.torus_puzzle(3, 3)
    board = "GRRBGGRBB"
    before = torus.distance(board, puzzle=puzzle)  # no table yet: a search
    torus.table(puzzle=puzzle)
    assert cache_path(puzzle).exists()
    torus._TABLES.clear()

    def no_search(*args, **kwargs):
        raise AssertionError("searched although the table is cached")

    monkeypatch.setattr(meet, "search", no_search)
    assert torus.distance(board, puzzle=puzzle) == before
    assert len(torus.solve(board, puzzle=puzzle)) == before
    # a target other than the solved board (even with a table) is searched
    with pytest.raises(AssertionError, match="searched"):
        torus.distance(board, "RGBRGBRGB", puzzle=puzzle)
    assert torus.cached_table(puzzle).distribution() == torus.table(puzzle=puzzle).distribution()


def test_a_cached_lookup_needs_no_numpy():
    puzzle = torus.torus_puzzle(3, 3)
    torus.table(puzzle=puzzle)
    probe = ("import sys; from puzzles import torus; "
             "print(torus.distance('GRRBGGRBB', puzzle=torus.torus_puzzle(3, 3)), "
             "'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == [str(torus.table(puzzle=puzzle).depth("GRRBGGRBB")), "False"]


def test_a_damaged_cache_file_is_rebuilt(recwarn):
    puzzle = torus.torus_puzzle(2, 4)
    path = cache_path(puzzle)
    first = load_or_build(puzzle, states="colourings")
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    assert load_or_build(puzzle, states="colourings", build=False) is None
    assert any("checksum" in str(w.message) for w in recwarn)
    again = load_or_build(puzzle, states="colourings")
    assert again.distribution() == first.distribution()


def test_one_entry_lookups_refuse_foreign_or_short_files(recwarn):
    from permgroup.tables.colouring_table import cached_distance

    puzzle = torus.torus_puzzle(2, 4)
    load_or_build(puzzle, states="colourings")
    board = "GRRRRGGG"
    truth = plain_bfs(puzzle, "RRRRGGGG")[board]
    assert cached_distance(puzzle, "qtm", board, "RRRRGGGG") == truth
    renamed = plain_bfs(puzzle, "GGGGRRRR")[board]
    assert renamed != truth
    assert cached_distance(puzzle, "qtm", board, "GGGGRRRR") == renamed  # colours renamed
    assert cached_distance(puzzle, "qtm", board, "RGRGRGRG") is None  # not the goal
    path = cache_path(puzzle)
    path.write_bytes(path.read_bytes()[:-1])
    assert cached_distance(puzzle, "qtm", board, "RRRRGGGG") is None
    assert any("truncated" in str(w.message) for w in recwarn)
    assert torus.distance(board, puzzle=puzzle) == truth  # searched instead
    other = torus.torus_puzzle(4, 2)  # same size, another definition
    path.rename(cache_path(other))
    assert cached_distance(other, "qtm", "GRRGBBYY", "RRGGBBYY") is None
    assert any("another definition" in str(w.message) for w in recwarn)


# --- command line and bad input -------------------------------------------------------

def test_command_line_whole_process():
    sample = DATA / "rubiksrevenge/sample/rubiksrevenge-01.in"
    done = subprocess.run([sys.executable, "-m", "permgroup", "solve", "rubiksrevenge",
                           str(sample)], capture_output=True, text=True, check=True)
    assert done.stdout == sample.with_suffix(".ans").read_text().strip() + "\n"
    probe = ("import sys, permgroup.cli, puzzles.formats.rubiksrevenge; "
             "print(' '.join(sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True).stdout.split()
    assert "puzzles.torus" in loaded and "sympy" not in loaded


def test_lenient_layout():
    assert rubiksrevenge.solve_text("\r\nRGGR \r\nGBGB\r\n\r\nBYBY\r\nYRYR\t\r\n\r\n") == "3\n"


@pytest.mark.parametrize("text, message", [
    ("RRRR\nGGGG\nBBBB\n", "expected 4 lines of 4 letters, got 3"),
    ("RRRR\nGGGG\nBBBB\nYYYY\nRGBY\n", "got 5"),
    ("RRRR\nGGGGG\nBBBB\nYYY\n", "line 2: expected 4 letters, got 5"),
    ("RRRR\nGGGG\nBXBB\nYYYY\n", "line 3, character 2: unknown colour 'X'"),
    ("RRRR\nGGGG\nBBBB\nYYYr\n", "line 4, character 4: unknown colour 'r'"),
    ("RRRR\nGGGG\nBBBB\nYYYR\n", "each colour 4 times, got Rx5, Gx4, Bx4, Yx3"),
    ("", "got 0"),
])
def test_bad_input_exits_2_with_a_message(tmp_path, capsys, text, message):
    path = tmp_path / "case.in"
    path.write_text(text)
    assert main(["solve", "rubiksrevenge", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err and captured.err.count("\n") == 1
    with pytest.raises(InputError):
        rubiksrevenge.read_board(text)


def test_bad_boards_in_the_python_api():
    with pytest.raises(InputError, match="expected 16 cells"):
        torus.distance(GOAL[:-1])
    with pytest.raises(InputError, match="unknown colour"):
        torus.distance(GOAL[:-1] + "Q")
    with pytest.raises(InputError, match="4 times"):
        torus.distance(GOAL[:-1] + "R")
    with pytest.raises(InputError, match="one metric"):
        torus.table("htm")
    assert main(["table", "rubiksrevenge", "--metric", "htm"]) == 2
