"""explore.structure: orbits, permutation and orientation parts, constraints,
the one-line description, and the order it implies.

Facts checked: the order equals sympy's ``order()`` for every definition in
the library (the Megaminx's as the product of its corners' and edges', with
the published order), the built-in puzzles, GAP files and family members; the 3x3x3's
description is the textbook one; each constraint named holds for every
generator (checked here on the pieces, independently of the proof).
"""
from __future__ import annotations

import pytest

from permgroup.elements import Element
from permgroup.explore import load_puzzle, order, structure
from puzzles import LIBRARY
from tests.conftest import DATA

MEGAMINX = int("100669616553523347122516032313645505168688116411019768627200000000000")


def test_the_3x3x3_is_the_textbook_group():
    for name in ("cube3", "3x3x3"):
        s = structure(name)
        assert str(s) == "(C3^7 × C2^11) ⋊ ((A8 × A12) ⋊ C2)"
        assert s.ascii() == "(C3^7 x C2^11) : ((A8 x A12) : C2)"
        assert s.order == 43252003274489856000 and s.proven
        assert [(o.name, o.pieces, o.orientations, o.permutation, o.orientation)
                for o in s.orbits] == [("corner", 8, 3, "S8", "C3^7"),
                                       ("edge", 12, 2, "S12", "C2^11")]
        assert [(c.text, c.index) for c in s.constraints] == [
            ("corner parity = edge parity", 2), ("corner twist sum ≡ 0 (mod 3)", 3),
            ("edge flip sum ≡ 0 (mod 2)", 2)]


def test_constraints_hold_for_every_move():
    puzzle = load_puzzle("cube3")
    for move in puzzle.generators:
        inv = Element.from_word(puzzle, move).invariants()
        assert inv["corner parity"] == inv["edge parity"]
        assert inv["corner twist"] == 0 and inv["edge flip"] == 0


@pytest.mark.parametrize("name", sorted(set(LIBRARY) - {"megaminx"}))
def test_library_orders_equal_sympys(name):
    puzzle = load_puzzle(name)
    assert structure(puzzle).order == puzzle.group().order() == order(puzzle)


def test_megaminx_is_proven_without_sympy():
    s = structure("megaminx")
    assert str(s) == "(C3^19 × C2^29) ⋊ (A20 × A30)"
    assert s.order == MEGAMINX and s.proven


def test_megaminx_order_equals_sympys_on_its_corners_times_its_edges():
    # sympy's order of the whole group takes 40 s; its face turns are even on
    # both orbits, so the group is the product of what it does to the corners
    # and to the edges (3 s together in sympy), and the product is the published order
    from sympy.combinatorics import Permutation, PermutationGroup

    puzzle = load_puzzle("megaminx")
    product = 1
    for pieces in puzzle.pieces.values():
        points = sorted(x for piece in pieces for x in piece)
        where = {x: i for i, x in enumerate(points)}
        product *= PermutationGroup([Permutation([where[g[x]] for x in points])
                                     for g in puzzle.generators.values()]).order()
    assert product == order("megaminx") == MEGAMINX


@pytest.mark.parametrize("name, description", [
    ("minicube", "C3^7 ⋊ S8"), ("rubiksrevenge", "S16"), ("dino", "A12"),
    ("pyraminx-notips", "(C3^4 × C2^5) ⋊ A6"), ("lrx-9", "S9"), ("pancake-8", "S8"),
    ("burnt-pancake-5", "C2^5 ⋊ S5"), ("topspin-9", "A9"), ("coxeter-6", "S6"),
    ("transpositions-5", "S5"), ("hungarian-5-2-5-2", "A8"), ("globe-3-4", "S16 × S16"),
    ("3x3x3-2gen", None), ("skewb", None), (str(DATA / "gap" / "ring.gap"), None)])
def test_orders_equal_sympys(name, description):
    puzzle = load_puzzle(name)
    s = structure(puzzle)
    assert s.order == puzzle.group().order() == order(puzzle)
    if description is not None:
        assert str(s) == description and s.proven


def test_parts_not_found_are_said_so():
    s = structure("3x3x3-2gen")  # <R, U>: the corners move as S5 on six points
    assert s.orbits[0].permutation == "a group of order 120"
    # the order of the pieces' permutations comes from their stabilizer chain
    assert "stabilizer chain" in s.proof and s.proven
    assert str(s) == "C3^5 ⋊ [order 302,400]"


def test_rotations_inside_the_group_are_said():
    s = structure("minicube")
    assert any("24 of the 24 lie in the group" in n and "3,674,160" in n for n in s.notes)


def test_text_and_html_views():
    s = structure("cube3")
    text = s.text()
    assert "corner: 8 pieces of 3 stickers; permutations S8" in text
    assert "Jordan's theorem" in text or "listed" in text
    assert "proven" in text
    html = s._repr_html_()
    assert "<table>" in html and "C3^7" in html and "corner twist sum" in html
