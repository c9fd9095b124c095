"""The solve path's exact searches (bidirectional, over elements and over
colourings) against its tables, a second algorithm."""
from __future__ import annotations

import random

from permgroup import explore
from permgroup.elements import Element, State
from permgroup.perm import act
from permgroup.solution import solve
from puzzles import minicube, torus


def random_words(puzzle, count, longest, seed):
    rng = random.Random(seed)
    names = list(puzzle.generators)
    return [" ".join(rng.choice(names) + rng.choice(["", "'"])
                     for _ in range(rng.randrange(longest + 1))) for _ in range(count)]


def test_element_search_agrees_with_the_table():
    ru = explore.subgroup(minicube.PUZZLE, "R U")  # 29,160 elements, diameter 17 (qtm)
    words = random_words(ru, 12, 20, seed=13)
    for a_word, b_word in zip(words, reversed(words)):
        a, b = Element(ru, Element.from_word(ru, a_word).perm), \
            Element(ru, Element.from_word(ru, b_word).perm)  # no words: nothing to bound
        by_search = solve(ru, a, b, methods=("search",), time_limit=60)
        by_table = solve(ru, a, b, methods=("table",), time_limit=60)
        assert (by_search.method, by_table.method) == ("search", "table")
        assert by_search.optimal and by_table.optimal
        assert len(by_search.word) == len(by_table.word) == explore.distance(a, b)
        assert (a * Element.from_word(ru, " ".join(by_search.word))) == b  # no rotations


def test_element_search_up_to_rotation_agrees_with_minicube():
    cube = minicube.PUZZLE
    solved = "".join(cube.solved)
    for word in random_words(cube, 6, 7, seed=5):
        e = Element(cube, Element.from_word(cube, word).perm)
        found = solve(cube, Element.identity(cube), e, methods=("search",), time_limit=60)
        state = "".join(act(cube.solved, e.perm))
        assert len(found.word) == minicube.distance(solved, state)
        assert minicube.same_state(minicube.apply_moves(solved, found.word), state)


def test_colouring_search_agrees_with_the_colouring_table():
    small = torus.torus_puzzle(2, 4)
    goal = State.solved(small)
    for word in random_words(small, 15, 10, seed=3):
        state = State(small, Element.from_word(small, word).state().colours)
        by_search = solve(small, state, goal, methods=("search",), time_limit=60)
        by_table = solve(small, state, goal, methods=("table",), time_limit=60)
        text = "".join(state.colours)
        assert len(by_search.word) == len(by_table.word) == torus.distance(text, puzzle=small)
        assert torus.apply_moves(text, by_search.word, small) == "".join(small.solved)
