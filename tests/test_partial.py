"""Partial moves, hole spaces, views and the bidirectional search on small boards,
checked state by state against the plain colouring-level reference."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from permgroup.spaces.hole import HoleSpace, View
from permgroup.search.meet import search
from permgroup.spaces.partial import PartialPuzzle
from permgroup.perm import act
from permgroup.puzzle import Puzzle
from permgroup.tables.bfs import load_state_table
from permgroup.tables.store import UNSEEN
from tests.plain import plain_partial_bfs


def meet_distance(space, sources, targets, max_depth: int) -> int:
    found = search(sources, targets, space.n_moves, space.step, space.back_step, max_depth)
    return -1 if found is None else len(found)


def token_board(rows: int, cols: int, holes_at: int = 0) -> PartialPuzzle:
    """Identical two-sided tokens on a board: a token slides into the empty cell,
    turning over when it slides sideways and not when it slides up or down."""
    cells = rows * cols
    moves, guards = {}, {}
    for a in range(cells):
        r, c = divmod(a, cols)
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                b = (r + dr) * cols + c + dc
                image = list(range(2 * cells))
                flip = dc != 0
                image[2 * a], image[2 * a + 1] = (2 * b + 1, 2 * b) if flip else (2 * b, 2 * b + 1)
                image[2 * b], image[2 * b + 1] = 2 * a, 2 * a + 1
                moves[f"{a}>{b}"] = tuple(image)
                guards[f"{a}>{b}"] = {2 * b: ".", 2 * b + 1: "."}
    solved = tuple(x for cell in range(cells)
                   for x in ((".", ".") if cell == holes_at else ("u", "d")))
    return PartialPuzzle(Puzzle(f"tokens{rows}x{cols}", 2 * cells, moves, solved=solved), guards)


def blocks_of(partial: PartialPuzzle) -> list[tuple[int, int]]:
    return [(2 * c, 2 * c + 1) for c in range(partial.puzzle.degree // 2)]


@pytest.fixture(scope="module")
def board():
    partial = token_board(2, 3)
    return partial, HoleSpace(partial, blocks_of(partial))


def test_space_is_derived(board):
    partial, space = board
    assert space.hole == (".", ".")
    assert sorted(space.local_states) == [("d", "u"), ("u", "d")]
    assert space.size == 6 * 2 ** 5
    assert [space.rank(space.unrank(r)) for r in range(space.size)] == list(range(space.size))


def test_step_and_back_step_match_the_guards(board):
    partial, space = board
    everything = np.arange(space.size)
    for m, name in enumerate(space.move_names):
        after = space.step(everything, m)
        before = space.back_step(everything, m)
        for r in range(space.size):
            state = space.unrank(r)
            if partial.legal(state, name):
                assert after[r] == space.rank(act(state, partial.puzzle.generators[name]))
                assert before[after[r]] == r
            else:
                assert after[r] == -1
        legal_after = after[after >= 0]
        assert len(set(legal_after.tolist())) == len(legal_after)  # a move is injective


def test_table_matches_plain_bfs(board):
    partial, space = board
    table = load_state_table(space, [space.rank(partial.puzzle.solved)], "board", cache=False)
    plain = plain_partial_bfs(partial, [partial.puzzle.solved], 100)
    assert table.reachable == len(plain)
    for state, depth in plain.items():
        assert table.depth(space.rank(state)) == depth
    # a path walked down the table is legal and ends where it should
    far = max(plain, key=plain.get)
    path = [space.move_names[m] for m in table.path(space.rank(far))]
    assert len(path) == plain[far]
    assert partial.apply(partial.puzzle.solved, path) == far


def test_view_minimum_and_states_against_brute_force(board):
    partial, space = board
    view = View(space, [2 * c for c in range(6)])  # the top side of every cell
    table = load_state_table(space, [space.rank(partial.puzzle.solved)], "board", cache=False)
    minimum = view.minimum(table.depths)
    assert view.size == 6 * 2 ** 5 == len(minimum)
    shows: dict[int, list[int]] = {}
    for r in range(space.size):
        state = space.unrank(r)
        shows.setdefault(view.rank([state[p] for p in view.positions]), []).append(r)
    assert sorted(shows) == list(range(view.size))
    for pattern, ranks in shows.items():
        assert view.states(pattern) == ranks
        assert minimum[pattern] == min(table.depths[r] for r in ranks)


def test_bidirectional_matches_the_table(board):
    partial, space = board
    source = space.rank(partial.puzzle.solved)
    table = load_state_table(space, [source], "board", cache=False)
    for target in range(0, space.size, 7):
        expected = table.depth(target)
        assert meet_distance(space, [source], [target], 100) == expected
        if expected > 0:
            assert meet_distance(space, [source], [target], expected - 1) == -1
    # sets of targets: the nearest one counts
    targets = list(range(0, space.size, 5))
    depths = [table.depth(t) for t in targets]
    assert meet_distance(space, [source], targets, 100) == min(d for d in depths if d >= 0)


def test_reachable_states_follow_the_column_parity(board):
    """A token turns over exactly when its column changes, so which side it shows
    is fixed by its column; the tokens that started in odd columns (cells 1 and 4)
    can be any 2 of the 5 occupied cells: 6 holes * C(5, 2) states."""
    partial, space = board
    source = space.rank(partial.puzzle.solved)
    table = load_state_table(space, [source], "board", cache=False)
    assert table.reachable == 6 * 10
    for r in range(space.size):
        state = space.unrank(r)
        odd_start = sum((state[2 * c] == "u") != (c % 3 % 2 == 0)
                        for c in range(6) if state[2 * c] != ".")
        assert (table.depth(r) >= 0) == (odd_start == 2)
    unreached = int(np.flatnonzero(table.depths == UNSEEN)[0])
    assert meet_distance(space, [source], [unreached], 50) == -1


def test_bad_definitions_are_rejected():
    partial = token_board(1, 2)
    moves = dict(partial.puzzle.generators)
    with pytest.raises(ValueError, match="guards missing"):
        PartialPuzzle(partial.puzzle, {})
    # a guard that asks for half a block
    half = {m: dict(itertools.islice(g.items(), 1)) for m, g in partial.guards.items()}
    with pytest.raises(ValueError, match="exactly the positions of one block"):
        HoleSpace(PartialPuzzle(partial.puzzle, half), blocks_of(partial))
    # blocks that the moves split
    split = dict(moves, **{"0>1": (2, 1, 0, 3)})
    with pytest.raises(ValueError, match="splits block"):
        HoleSpace(PartialPuzzle(Puzzle("split", 4, split, solved=partial.puzzle.solved),
                                partial.guards), blocks_of(partial))
    # two holes in the solved colouring
    two = Puzzle("two", 4, moves, solved=(".",) * 4)
    with pytest.raises(ValueError, match="2 holes"):
        HoleSpace(PartialPuzzle(two, partial.guards), blocks_of(partial))
    # a move that also turns over a block it does not carry
    three = token_board(1, 3)
    twisted = {m: (1, 0) + p[2:] if m == "2>1" else p for m, p in three.puzzle.generators.items()}
    bad = Puzzle("bad", 6, twisted, solved=three.puzzle.solved)
    with pytest.raises(ValueError, match="leave the other blocks alone"):
        HoleSpace(PartialPuzzle(bad, three.guards), blocks_of(three))


def test_illegal_move_is_refused_by_apply():
    partial = token_board(1, 2)
    with pytest.raises(ValueError, match="not legal"):
        partial.apply(partial.puzzle.solved, ["0>1"])
    assert partial.apply(partial.puzzle.solved, ["1>0"]) == ("d", "u", ".", ".")
