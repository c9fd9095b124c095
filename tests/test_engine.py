"""The generic engine on small hand-made groups, checked against sympy and plain BFS."""
from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from sympy.combinatorics import Permutation

from permgroup.spaces.product import FactorSpace
from permgroup.tables.bfs import bfs
from permgroup.tables.store import UNSEEN
from permgroup.cache import load_array, save_array
from permgroup.spaces.element import PieceCoordinate
from permgroup.spaces.ranking import lehmer_ranks, lehmer_unranks
from permgroup.metric import metric_moves
from permgroup.perm import act, compose, from_cycles, inverse, order, power
from permgroup.puzzle import Puzzle
from permgroup.tables.table import build_table, cache_file, load_table
from tests.plain import plain_bfs


def test_compose_matches_sympy_order():
    p, q = (1, 2, 0, 3), (0, 1, 3, 2)
    assert list(compose(p, q)) == (Permutation(list(p)) * Permutation(list(q))).array_form


def test_act_composes_like_elements():
    p, q = (1, 2, 0, 3), (3, 1, 2, 0)
    s = "abcd"
    assert act(act(s, p), q) == act(s, compose(p, q))


def test_inverse_power_order():
    p = from_cycles([(0, 1, 2, 3), (4, 5)], 6)
    assert compose(p, inverse(p)) == tuple(range(6))
    assert order(p) == 4
    assert power(p, 4) == tuple(range(6))
    assert power(p, -1) == inverse(p)


def test_lehmer_roundtrip_all_permutations_of_five():
    perms = np.array(list(itertools.permutations(range(5))))
    ranks = lehmer_ranks(perms)
    assert sorted(ranks.tolist()) == list(range(120))
    assert (lehmer_unranks(ranks, 5) == perms).all()


def test_metric_derives_inverses_and_powers():
    p = Puzzle("sq", 4, {"T": from_cycles([(0, 1, 2, 3)], 4), "S": (1, 0, 2, 3)})
    assert list(metric_moves(p, "qtm")) == ["T", "T'", "S"]
    assert list(metric_moves(p, "htm")) == ["T", "T2", "T'", "S"]
    assert metric_moves(p, ["T2"])["T2"] == (2, 3, 0, 1)
    with pytest.raises(ValueError):
        metric_moves(p, "ftm")


def test_puzzle_rejects_non_permutation():
    with pytest.raises(ValueError, match="not a permutation"):
        Puzzle("bad", 3, {"X": (0, 0, 1)})


def _twisty_puzzle():
    """Three 2-sticker pieces on a ring, with a swap that flips: a small group."""
    cycle = from_cycles([(0, 2, 4), (1, 3, 5)], 6)
    flip_swap = from_cycles([(0, 3), (1, 2)], 6)
    return Puzzle("ring", 6, {"C": cycle, "S": flip_swap},
                  pieces={"piece": ((0, 1), (2, 3), (4, 5))})


def test_table_matches_plain_bfs_and_sympy_order():
    puzzle = _twisty_puzzle()
    table = build_table(puzzle, "qtm")
    plain = plain_bfs(list(metric_moves(puzzle, "qtm").values()), tuple(range(6)))
    assert table.reachable == len(plain) == puzzle.group().order()
    for g, d in plain.items():
        assert table.depth(g) == d
        word = table.word(g)
        assert len(word) == d
        from permgroup.perm import compose_all
        assert compose_all([puzzle.move_array(m) for m in word], 6) == g


def test_coordinate_rejects_moves_that_break_pieces():
    broken = from_cycles([(0, 2)], 6)  # moves one sticker of a piece without the other
    with pytest.raises(ValueError, match="does not carry"):
        PieceCoordinate.from_moves("piece", ((0, 1), (2, 3), (4, 5)), {"X": broken})


def test_bottom_up_and_top_down_agree():
    ring = FactorSpace([
        *PieceCoordinate.from_moves("piece", ((0, 1), (2, 3), (4, 5)),
                                    metric_moves(_twisty_puzzle(), "qtm")).factors()
    ])
    both = bfs(ring, [0]).depths
    top = bfs(ring, [0], top_down_only=True).depths
    assert (both == top).all()
    assert (both != UNSEEN).sum() == _twisty_puzzle().group().order() == 24


def test_reversed_space_runs_dense_levels_backwards_too(monkeypatch):
    import permgroup.tables.bfs as bfs_module
    from permgroup.spaces.space import Factor, GraphSpace, Reversed

    # one move, so the graph is directed: distances to the source differ from distances from it
    space = FactorSpace([Factor("a", 7, np.array([(np.arange(7) + 1) % 7])),
                         Factor("b", 5, np.array([(np.arange(5) + 2) % 5]))])
    backwards = GraphSpace(space.size, 1, space.back_step, space.step)
    expected = bfs(backwards, [0]).depths
    monkeypatch.setitem(bfs_module.COSTS, "dense", 0)  # dense levels wherever the space has them
    assert (bfs(Reversed(space), [0]).depths == expected).all()
    assert (bfs(space, [0]).depths != expected).any()


def test_cache_rejects_truncated_and_foreign(tmp_path):
    path = tmp_path / "t.bin"
    data = np.arange(1000, dtype=np.uint8) % 7
    save_array(path, {"puzzle": "a"}, data)
    assert (load_array(path, {"puzzle": "a"}) == data).all()
    with pytest.warns(UserWarning, match="different puzzle"):
        assert load_array(path, {"puzzle": "b"}) is None
    raw = path.read_bytes()
    path.write_bytes(raw[:-10])
    with pytest.warns(UserWarning, match="truncated"):
        assert load_array(path, {"puzzle": "a"}) is None
    path.write_bytes(raw[:-1] + bytes([raw[-1] ^ 1]))
    with pytest.warns(UserWarning, match="checksum"):
        assert load_array(path, {"puzzle": "a"}) is None
    path.write_bytes(b"garbage")
    with pytest.warns(UserWarning):
        assert load_array(path, {"puzzle": "a"}) is None


def test_load_table_rebuilds_a_corrupt_cache_file():
    puzzle = _twisty_puzzle()
    first = load_table(puzzle, "qtm")
    path = cache_file(first.space)[0]
    assert path.exists()
    path.write_bytes(path.read_bytes()[:-3])
    with pytest.warns(UserWarning, match="rebuilt"):
        again = load_table(puzzle, "qtm")
    assert (again.depths == first.depths).all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (load_table(puzzle, "qtm").depths == first.depths).all()


def test_unseen_marker_is_shared():
    from permgroup.tables import bfs, colouring_table, store, table

    assert table.UNSEEN is bfs.UNSEEN is colouring_table.UNSEEN is store.UNSEEN


def test_colourings_of_more_than_32_bits_rank_and_unrank():
    """A 17-cell ring in 3 colours packs into 34 bits (uint64 words): unrank
    inverts rank, and a move's images rank inside the space (its chunks once
    made float indices and an IndexError)."""
    import math

    import numpy as np

    from permgroup.spaces.colouring import ColouringSpace

    solved = "a" * 6 + "b" * 6 + "c" * 5
    ring = ColouringSpace(solved, {"T": tuple((i + 1) % 17 for i in range(17))})
    assert ring.size == math.factorial(17) // (math.factorial(6) ** 2 * math.factorial(5))
    ranks = np.array([0, 1, 2, ring.size // 3, ring.size - 2, ring.size - 1])
    words = ring.unrank(ranks)
    assert ring.rank(words).tolist() == ranks.tolist()
    decoded = ["".join(ring.decode(int(w))) for w in words]
    assert all(sorted(d) == sorted(solved) for d in decoded) and len(set(decoded)) == 6
    turned = ring.step(ranks, 0)
    assert ((0 <= turned) & (turned < ring.size)).all()
    assert ["".join(ring.decode(int(w))) for w in ring.unrank(turned)] == \
        [d[-1] + d[:-1] for d in decoded]
