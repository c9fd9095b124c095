"""explore.commutators and explore.commutator_for: short words that touch few
pieces, grouped by effect, and a word for a requested effect.

Facts checked: every word listed, applied to the puzzle, has the effect it is
listed under (counted here from the element's piece cycles, independently of
the finder's wording); each bracket form evaluates to its word's element; the
3x3x3's shortest corner 3-cycle commutator has 8 quarter turns (the known
minimum); a requested effect is met exactly.
"""
from __future__ import annotations

import re

import pytest

from permgroup.elements import Element
from permgroup.explore import commutator_for, commutators, load_puzzle
from permgroup.errors import InputError


def evaluate(puzzle, form: str) -> Element:
    """A bracket form (``[A, B]``, ``[S: [A, B]]`` or a plain word) as an element."""
    form = form.strip()
    if not form.startswith("["):
        return Element.from_word(puzzle, form)
    inner = form[1:-1]
    depth = 0
    for i, ch in enumerate(inner):
        depth += ch == "["
        depth -= ch == "]"
        if depth == 0 and ch in ":,":
            a, b = evaluate(puzzle, inner[:i]), evaluate(puzzle, inner[i + 1:])
            return b.conjugate(a) if ch == ":" else a.commutator(b)
    raise AssertionError(form)


@pytest.mark.parametrize("name", ["cube3", "minicube", "pyraminx", "pancake-6"])
def test_every_word_does_what_it_says(name):
    puzzle = load_puzzle(name)
    table = commutators(puzzle)
    assert table.found
    for f in table.found:
        assert Element.from_word(puzzle, " ".join(f.word)) == f.element
        assert evaluate(puzzle, f.form) == f.element
        assert f.length == len(f.word)
        touched = sum(len(c) for form in f.element.pieces().values() for c, t in form.cycles())
        assert 0 < touched <= 4


def test_the_3x3x3_table():
    groups = commutators("cube3").groups()
    corners = groups["3-cycle of corners"][0]
    assert corners.length == 8 and corners.form == "[R, U L U']"
    assert corners.element.piece_cycle_type() == {"corner": {(3, 0): 1}, "edge": {}}
    edges = groups["3-cycle of edges"][0]
    assert edges.length == 12 and edges.element.piece_cycle_type()["edge"] == {(3, 0): 1}
    twist = groups["2 corners twisted"][0]
    assert twist.element.piece_cycle_type() == {"corner": {(1, 1): 1, (1, 2): 1}, "edge": {}}
    flip = groups["2 edges flipped"][0]
    assert flip.element.piece_cycle_type() == {"corner": {}, "edge": {(1, 1): 2}}
    lengths = [f.length for f in commutators("cube3").found]
    assert lengths == sorted(lengths)


def test_a_requested_effect_is_met_by_conjugation():
    cube = load_puzzle("cube3")
    a, b, s = (Element.from_word(cube, w) for w in ("R", "U L U'", "F2 D"))
    aim = a.commutator(b).conjugate(s)  # three other corners cycled
    found = commutator_for(aim)
    assert found.element == aim
    assert Element.from_word(cube, " ".join(found.word)) == aim
    assert found.length <= 8 + 2 * 3 and evaluate(cube, found.form) == aim
    assert found.effect == "3-cycle of corners"


def test_impossible_requests_are_named():
    cube = load_puzzle("cube3")
    with pytest.raises(InputError, match="moves nothing"):
        commutator_for(Element.identity(cube))
    with pytest.raises(InputError, match="stickers"):
        commutator_for(Element.from_word(cube, "R U R' U' R' F R2"))


def test_html_draws_each_word_on_the_net():
    html = commutators("minicube")._repr_html_()
    assert html.count("<svg") >= 3 and re.search(r"<code>\[U, R\]</code>", html)
