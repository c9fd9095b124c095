"""The one move model and the one reader and printer of moves: the convention
between the engine's scatter form and the solver's gather form, a word read in
any notation and printed back in its own, merged as the metric counts."""
from __future__ import annotations

import numpy as np
import pytest

from permgroup.errors import InputError
from permgroup.formats.alg import Algebra, evaluate, expand, format_alg, notation_of
from permgroup.moves import MoveSet, gather_of, scatter_of
from permgroup.perm import act, compose, identity, inverse, power
from puzzles import cube3


def test_the_two_forms_meet_in_one_conversion():
    """A move applied in scatter form (perm.act) and in gather form (numpy
    indexing) gives the same state; MoveSet's arrays are the gather forms of
    the puzzle's metric moves."""
    puzzle = cube3.PUZZLE
    ms = MoveSet.from_puzzle(puzzle, "htm")
    state = np.arange(puzzle.degree)
    for c, name in enumerate(ms.classes):
        p = puzzle.move_array(name)
        assert state[gather_of(p)].tolist() == list(act(tuple(state), p))
        assert ms.scatter(c) == p and scatter_of(gather_of(p)) == p


def test_the_printer_merges_as_the_metric_counts_and_keeps_the_notation():
    puzzle = cube3.PUZZLE
    htm, qtm = MoveSet.from_puzzle(puzzle, "htm"), MoveSet.from_puzzle(puzzle, "qtm")
    assert htm.format(htm.parse("L L R2 R2 U")) == "L2 U"
    assert qtm.format(qtm.parse("L L R2 R2 U")) == "L L U"
    assert htm.format(htm.parse("[R, U]")) == "R U R' U'"
    # Santa's moves: a move and its inverse, -X, written with '.'
    t = np.array([1, 2, 3, 0])
    santa = MoveSet.from_moves({"r0": t, "-r0": np.argsort(t)})
    word = santa.parse("r0.r0.r0")
    assert santa.format(word, ".") == "-r0" and santa.reduce(word) == santa.parse("-r0")
    assert notation_of("r0.-r0") == "santa" and notation_of("R U'") == "cube"
    assert format_alg(expand("r0 r0 r0 f1", ["r0", "f1"]), {"r0": 4, "f1": 2}, "santa") \
        == "-r0.f1"


def test_deep_and_huge_algs_neither_recurse_nor_expand():
    puzzle = cube3.PUZZLE
    perms = Algebra(identity(puzzle.degree), compose, inverse, power)
    gens = puzzle.generators
    deep = "(" * 5000 + "R U" + ")" * 5000
    assert evaluate(deep, gens.__getitem__, perms, gens) == puzzle.move_array("R U")
    # (R U) has order 105: 10^10 of it is (R U)^(10^10 mod 105)
    huge = evaluate("((R U)100000)100000", gens.__getitem__, perms, gens)
    assert huge == power(puzzle.move_array("R U"), 10 ** 10 % 105)
    with pytest.raises(InputError, match="expands to"):
        expand("((R U)100000)100000")
    with pytest.raises(InputError, match="unclosed"):
        expand("(" * 5000 + "R")
