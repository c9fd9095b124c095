"""One door to every puzzle: every PUZZLE argument resolves to one model.

Facts checked: a built-in name, a library name, a family member, a definition
file (ksolve, KPuzzle, GAP) and ``PATH#TYPE`` all give a
:class:`~permgroup.formats.definition.Definition` whose sticker view is
computed once; the view and the piece model agree on every position (the
colours a word leaves are the same computed either way); what a built-in adds
(its own view, table, searches, guarded moves) is carried by its definition; ``cube-N``
and Santa's ``cube_N/N/N`` give the same answers to every command; and
``permgroup order`` says nothing false about colourings.
"""
from __future__ import annotations

import random
import re

import pytest

from permgroup.cli import main
from permgroup.elements import Element
from permgroup.formats import resolve
from permgroup.formats.definition import Definition, apply_alg, sticker_colours
from tests.conftest import DATA

INFO = str(DATA / "santa2023" / "puzzle_info.csv")

DOORS = ["minicube", "cube3", "torus", "rubiksrevenge", "cubic-eight", "poj3131", "skewb",
         "megaminx", "2x2x2-layers", "lrx-5", "burnt-pancake-3", "cube-3", "globe-1-2",
         str(DATA / "2x2x2-cubing.kpuzzle.json"), str(DATA / "gap" / "ring.gap"),
         f"{INFO}#cube_2/2/2", f"{INFO}#wreath_6/6"]


@pytest.mark.parametrize("door", DOORS)
def test_every_door_is_one_definition_with_its_view_computed_once(door):
    definition = resolve(door)
    assert isinstance(definition, Definition)
    assert definition.puzzle is definition.puzzle
    assert set(definition.puzzle.generators) == set(definition.moves)


@pytest.mark.parametrize("door", DOORS)
def test_the_view_and_the_model_agree_on_every_position(door):
    """A random word's position, coloured through the model, is the colouring
    the view's sticker moves make of its solved state."""
    definition = resolve(door)
    view = definition.puzzle
    rng = random.Random(door)
    moves = list(definition.moves)
    for _ in range(5):
        word = [rng.choice(moves) for _ in range(12)]
        by_model = sticker_colours(definition, apply_alg(definition, " ".join(word)))
        by_view = Element.from_word(view, " ".join(word)).state().colours
        assert tuple(by_model) == tuple(by_view), word
    assert sticker_colours(definition, definition.solved) == tuple(view.solved)


def test_a_built_in_brings_its_own_view_table_and_guards():
    from puzzles import cube3, cubic_eight, minicube, torus

    for name, module in (("minicube", minicube), ("cube3", cube3), ("torus", torus),
                         ("rubiksrevenge", torus), ("cubic-eight", cubic_eight),
                         ("poj3131", cubic_eight)):
        definition = resolve(name)
        assert definition is module.definition() and definition.puzzle is module.PUZZLE
        assert definition.hooks["table"] is module.table
    assert resolve("cubic-eight").partial is cubic_eight.PARTIAL
    assert resolve("minicube").partial is None and not resolve("skewb").hooks
    assert resolve("cube3").hooks["solve_chain"] is cube3.solve_chain
    # the minicube's rotations are its model's too: its table is over classes
    assert list(resolve("minicube").rotations) == ["rotate-U", "rotate-R", "rotate-F"]
    # the torus's cells of one colour are alike: its states are colourings
    assert sorted(resolve("torus").solved["P1"].pieces) == [k // 4 for k in range(16)]


def _run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_cube_n_and_santas_cube_answer_every_command_alike(capsys, tmp_path):
    """cube-2 and PATH#cube_2/2/2 (cube-3 and cube_3/3/3): the same order, the
    same proven-optimal word lengths, no refusal for identical pieces."""
    for n in (2, 3):
        family, santa = f"cube-{n}", f"{INFO}#cube_{n}/{n}/{n}"
        assert _run(capsys, "order", family) == _run(capsys, "order", santa)
    assert "colourings" not in _run(capsys, "order", "cube-3")
    moves = tmp_path / "moves.txt"
    moves.write_text("f0 r1 d0'\nr0 d1 f0 r0\n")
    for n in (2, 3):
        family = _run(capsys, "word", f"cube-{n}", str(moves), "--time-limit", "20")
        santa = _run(capsys, "word", f"{INFO}#cube_{n}/{n}/{n}", str(moves), "--time-limit", "20")
        assert [len(line.split()) for line in family.splitlines()[:-1]] == \
            [len(line.split()) for line in santa.splitlines()[:-1]] == [3, 4]
        assert family.splitlines()[-1] == santa.splitlines()[-1] == \
            "# 2 lines; proven optimal: all"
    family = _run(capsys, "optimal", "cube-3", str(moves))
    santa = _run(capsys, "optimal", f"{INFO}#cube_3/3/3", str(moves))
    assert [len(line.split()) for line in family.splitlines()] == \
        [len(line.split()) for line in santa.splitlines()] == [3, 4]


@pytest.mark.parametrize("door", ["torus", str(DATA / "gap" / "ring.gap"), "2x2x2-layers",
                                  "cube-2", f"{INFO}#cube_2/2/2", "skewb"])
def test_order_says_nothing_false_about_colourings(capsys, door):
    """"at most X of them, fewer than the order" only when X is fewer; never more
    colourings than the order."""
    out = _run(capsys, "order", door)
    order = int(re.search(r"^order: (\d+)$", out, re.M).group(1))
    found = re.search(r"at most ([\d,]+) of them(, fewer than the order)?", out)
    if found:
        bound = int(found.group(1).replace(",", ""))
        assert bound <= order and bool(found.group(2)) == (bound < order)
    assert ("colourings" in out) == (door in ("torus", str(DATA / "gap" / "ring.gap"),
                                               "2x2x2-layers"))


def test_alike_pieces_too_many_to_rank_are_solved_by_their_colourings(tmp_path, monkeypatch):
    """The torus's model is one orbit of sixteen cells, four of each colour
    alike: too many arrangements for a table of positions, so the optimal
    word comes from the table of its colourings (here a smaller such puzzle:
    sixteen cells in colours of 8, 4, 2 and 2 cells, 5,405,400 colourings)."""
    import permgroup
    from permgroup.formats.stickers import definition_of
    from permgroup.puzzle import Puzzle
    from permgroup.spaces.orbit import LIST_LIMIT

    monkeypatch.setenv("PERMGROUP_CACHE", str(tmp_path))
    ring = Puzzle("ring16", 16, {"T": tuple((i + 1) % 16 for i in range(16)),
                                 "S": (1, 0, *range(2, 16))},
                  solved=tuple("a" * 8 + "b" * 4 + "cc" + "dd"))
    definition = definition_of(ring)
    assert definition.solved["P1"].pieces == (0,) * 8 + (1,) * 4 + (2, 2, 3, 3)
    found = permgroup.solve(definition, "T S T T", time_limit=60, optimal=True)
    assert found.method == "table" and found.optimal and len(found.word) <= 4
    assert 5_405_400 > LIST_LIMIT   # too many to list: the orbit space refuses its positions


def test_word_reads_positions_and_its_options_may_come_before_the_file(capsys, tmp_path):
    """``word --states``: each line ``START,GOAL`` in Santa's stickers (two
    cube_2/2/2 rows of the competition's file); the family and Santa's type
    prove the same lengths, the family keeps ``X'``, Santa's file ``-X``; the
    FILE may follow the options."""
    rows = [line.split(",") for line in
            (DATA / "santa2023" / "puzzles.csv").read_text().splitlines()[1:]]
    lines = tmp_path / "positions.txt"
    lines.write_text("".join(f"{r[3]},{r[2]}\n" for r in rows if r[1] == "cube_2/2/2"))
    family = _run(capsys, "word", "cube-2", "--states", "--time-limit", "30",
                  str(lines)).splitlines()
    santa = _run(capsys, "word", f"{INFO}#cube_2/2/2", "--time-limit", "30", "--states",
                 str(lines)).splitlines()
    assert [len(w.split()) for w in family[:-1]] == [len(w.split()) for w in santa[:-1]]
    assert family[-1] == santa[-1] == "# 2 lines; proven optimal: all"
    assert not any(m.startswith("-") for w in family[:-1] for m in w.split())
    assert not any(m.endswith("'") for w in santa[:-1] for m in w.split())
    from permgroup.formats.santa import read_type, with_inverses

    moves = with_inverses(read_type(INFO, "cube_2/2/2"))
    for row, word in zip([r for r in rows if r[1] == "cube_2/2/2"], santa):
        state = row[3].split(";")
        for m in word.split():
            state = [state[i] for i in moves[m]]  # Santa's rule: new = old[move]
        assert state == row[2].split(";")


def test_optimal_and_word_spell_moves_alike_and_the_torus_answers(capsys, tmp_path):
    """The same line through ``optimal`` and ``word``: the same moves, spelt the
    same way (``r0'``, or ``-r0`` in Santa's file); the torus and its contest
    name answer both commands with a checked word."""
    from puzzles import torus

    line = tmp_path / "line.txt"
    line.write_text("f0 r1 d0'\n")
    for door in ("cube-2", f"{INFO}#cube_2/2/2"):
        optimal = _run(capsys, "optimal", door, str(line)).splitlines()
        word = _run(capsys, "word", door, str(line)).splitlines()
        assert optimal[0] == word[0] and len(word[0].split()) == 3
    assert optimal[0] == "d0 -r1 -f0"
    line.write_text("row1 col2' row3 col0\n")
    for command, door in (("word", "torus"), ("word", "rubiksrevenge"), ("optimal", "torus")):
        # within 5 s: no table of 63 million colourings is built for one line
        out = _run(capsys, command, door, str(line), "--time-limit", "5").splitlines()
        board = torus.apply_moves(torus.GOAL, "row1 col2' row3 col0")
        assert torus.apply_moves(board, out[0]) == torus.GOAL and len(out[0].split()) <= 4
