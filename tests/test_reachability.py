"""explore.reachable: yes or no, and why not, for puzzle modules, definition
files, GAP files, families and colourings.

Facts checked: every answer agrees with sympy's membership test (elements) or
with a state made by moves (colourings); each reason names the invariant a
hand-made state breaks.
"""
from __future__ import annotations

import random

import pytest
from sympy.combinatorics import Permutation

from permgroup.elements import Element, State
from permgroup.explore import load_puzzle, reachable
from puzzles import cube3
from tests.conftest import DATA


def swap(text: str, *pairs: tuple[int, int]) -> str:
    s = list(text)
    for a, b in pairs:
        s[a], s[b] = s[b], s[a]
    return "".join(s)


def cycle(text: str, positions) -> str:
    s = list(text)
    values = [s[p] for p in positions]
    for p, v in zip(positions, values[-1:] + values[:-1]):
        s[p] = v
    return "".join(s)


CUBE = load_puzzle("cube3")
CORNER = CUBE.pieces["corner"][0]
EDGE, EDGE2 = CUBE.pieces["edge"][0], CUBE.pieces["edge"][1]
SCRAMBLED = cube3.apply_moves(cube3.SOLVED, "R U F' D2 L B'")


def test_scrambles_are_reachable():
    assert reachable(CUBE, SCRAMBLED)
    assert reachable("cube3", Element.from_word(CUBE, "R U F' D2 L B'"))


def test_twisted_corner_says_the_twist_sum():
    answer = reachable(CUBE, cycle(SCRAMBLED, CORNER))
    assert not answer
    assert answer.reasons == ("the corner twists add up to 2 (mod 3): every move keeps that sum "
                              "at 0",) or "corner twists add up to" in answer.reasons[0]


def test_flipped_edge_says_the_flip_sum():
    answer = reachable(CUBE, swap(cube3.SOLVED, EDGE))
    assert not answer and "edge flips add up to 1 (mod 2)" in answer.reasons[0]


def test_two_edges_swapped_say_the_parity():
    text = swap(cube3.SOLVED, (EDGE[0], EDGE2[0]), (EDGE[1], EDGE2[1]))
    answer = reachable(CUBE, text)
    assert not answer
    assert answer.reasons == ("parity: corner parity even, edge parity odd; every move changes "
                              "both or neither",)


def test_colour_counts_and_impossible_pieces():
    answer = reachable(CUBE, "X" + cube3.SOLVED[1:])
    assert not answer and answer.reasons[0].startswith("the colour counts differ ('U': 8 here")
    mirrored = swap(cube3.SOLVED, (CORNER[1], CORNER[2]))
    answer = reachable(CUBE, mirrored)
    assert not answer and "mirror" in answer.reasons[0]
    centre = swap(cube3.SOLVED, (4, 13))  # two centres exchanged: they never move
    answer = reachable(CUBE, centre)
    assert not answer and "never moves" in answer.reasons[0]


@pytest.mark.parametrize("name", ["cube3", "minicube", "skewb", "pyraminx", "dino", "lrx-7",
                                  "topspin-8", "burnt-pancake-4", str(DATA / "gap" / "ring.gap")])
def test_answers_agree_with_sympy(name):
    """Random arrangements of the pieces (random places, random turns) and random
    words: the answer is sympy's membership, and a no always says why."""
    puzzle = load_puzzle(name)
    group = puzzle.group()
    laws = __import__("permgroup.explore", fromlist=["structure"]).structure(puzzle).laws
    rng = random.Random(7)
    names = list(puzzle.generators)
    for trial in range(30):
        if trial % 3 == 0:
            word = " ".join(rng.choice(names) for _ in range(12))
            element = Element.from_word(puzzle, word)
        else:
            perm = list(range(puzzle.degree))
            for pieces in laws.kinds.values():
                slots = list(range(len(pieces)))
                rng.shuffle(slots)
                for home, slot in enumerate(slots):
                    k = len(pieces[home])
                    r = rng.randrange(k)
                    for u in range(k):
                        perm[pieces[home][u]] = pieces[slot][(u + r) % k]
            element = Element(puzzle, perm)
        answer = reachable(puzzle, element)
        assert bool(answer) == group.contains(Permutation(list(element.perm))), (name, answer)
        assert answer.reachable or answer.reasons


def test_colourings_with_alike_pieces():
    layers = load_puzzle("2x2x2-layers")
    state = Element.from_word(layers, "U R F' R").state()
    assert reachable(layers, state)
    torus = load_puzzle("rubiksrevenge")
    board = list(torus.solved)
    board[0], board[5] = board[5], board[0]
    assert reachable(torus, board)  # S16 on the cells: any board with the right colours


def test_odd_arrangement_of_an_even_family():
    topspin = load_puzzle("topspin-9")  # every move even: A9
    odd = list(range(9))
    odd[0], odd[1] = 1, 0
    answer = reachable(topspin, Element(topspin, odd))
    assert not answer
    assert answer.reasons == ("the points would be an odd permutation; every move is even on "
                              "them",)


def test_states_of_a_definition_file():
    skewb = load_puzzle("skewb")
    assert reachable(skewb, State.solved(skewb).apply("URF URB'"))
    answer = reachable(skewb, Element(skewb, (1, 2, 0) + tuple(range(3, skewb.degree))))
    assert not answer and answer.reasons
