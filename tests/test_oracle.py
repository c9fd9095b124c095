"""The searches of permgroup.oracle against the tables (a second algorithm)."""
from __future__ import annotations

import random

from permgroup import explore
from permgroup.elements import Element
from permgroup.oracle import oracle
from permgroup.perm import act
from puzzles import minicube, torus


def random_words(puzzle, count, longest, seed):
    rng = random.Random(seed)
    names = list(puzzle.generators)
    return [" ".join(rng.choice(names) + rng.choice(["", "'"])
                     for _ in range(rng.randrange(longest + 1))) for _ in range(count)]


def test_element_search_agrees_with_the_table():
    ru = explore.subgroup(minicube.PUZZLE, "R U")  # 29,160 elements, diameter 17 (qtm)
    by_table, by_search = oracle(ru), oracle(ru, tables=False)
    assert (by_table.way, by_search.way) == ("table", "search")
    words = random_words(ru, 12, 20, seed=13)
    for a_word, b_word in zip(words, reversed(words)):
        a, b = Element.from_word(ru, a_word), Element.from_word(ru, b_word)
        found = by_search.solve(a, b)
        assert len(found) == len(by_table.solve(a, b)) == explore.distance(a, b)
        assert (a * Element.from_word(ru, " ".join(found))) == b  # no rotations in <R, U>


def test_element_search_up_to_rotation_agrees_with_minicube():
    cube = minicube.PUZZLE
    by_search = oracle(cube, tables=False)
    solved = "".join(cube.solved)
    for word in random_words(cube, 6, 7, seed=5):
        e = Element.from_word(cube, word)
        found = by_search.solve(Element.identity(cube), e)
        state = "".join(act(cube.solved, e.perm))
        assert len(found) == minicube.distance(solved, state)
        assert minicube.same_state(minicube.apply_moves(solved, found), state)


def test_colouring_search_agrees_with_the_colouring_table():
    small = torus.torus_puzzle(2, 4)
    by_table, by_search = oracle(small), oracle(small, tables=False)
    assert (by_table.way, by_search.way) == ("colouring table", "colouring search")
    goal = Element.identity(small)
    for word in random_words(small, 15, 10, seed=3):
        e = Element.from_word(small, word)
        found = by_search.solve(e, goal)
        assert len(found) == len(by_table.solve(e, goal)) == torus.distance(
            "".join(e.state().colours), puzzle=small)
        assert torus.apply_moves("".join(e.state().colours), found, small) == "".join(small.solved)
