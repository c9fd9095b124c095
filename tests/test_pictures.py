"""Pictures drawn from geometry: every puzzle with a shape is drawn as one
shape per position, in the view box, its colours following the state; moves
carry each sticker's polygon onto one of the same area (the net is cut from
the solid the moves turn); puzzles without geometry keep strips, wrapped."""
from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from permgroup import explore
from permgroup.drawing import STRIP_WIDTH, drawing_of, picture, strips
from permgroup.elements import Element, State
from permgroup.perm import act
from puzzles import LIBRARY, cube3, cubic_eight, minicube, solids, torus
from puzzles.cube_display import net_svg
from puzzles.pictures import globe_moves, ring, stack
from tests.conftest import ROOT

SANTA = ROOT / "tests" / "data" / "santa2023" / "puzzle_info.csv"
SHAPES = ROOT / "tests" / "data" / "santa_shapes" / "puzzle_info.csv"
SANTA_TYPES = [f"{SANTA}#{t}" for t in ("cube_2/2/2", "cube_3/3/3", "cube_4/4/4", "wreath_6/6",
                                        "globe_1/8", "globe_3/4")]
SANTA_TYPES += [f"{SHAPES}#{t}" for t in ("cube_5/5/5", "wreath_7/7", "wreath_12/12",
                                          "globe_2/6", "globe_1/16", "globe_6/4")]
FAMILIES = ["lrx-8", "lx-5", "topspin-9", "topspin-10-5", "pancake-6", "burnt-pancake-4",
            "coxeter-5", "transpositions-4", "hungarian-5-2-5-2", "hungarian-4-0-5-0", "globe-2-3"]
NAMES = sorted(LIBRARY) + ["minicube", "cube3", "torus", "cubic-eight"] + SANTA_TYPES + FAMILIES


def shapes_of(svg: str) -> dict[int, tuple[str, list[tuple[float, float]]]]:
    """Each position's fill and outline (a circle's bounding square) in an SVG."""
    found = {}
    for m in re.finditer(r'<(polygon|circle) ([^>]*)data-position="(\d+)" fill="([^"]+)"', svg):
        kind, before, position, fill = m.groups()
        rest = svg[m.end():svg.index(">", m.end())]
        attributes = dict(re.findall(r'(\w+)="([^"]*)"', before + rest))
        if kind == "polygon":
            points = [tuple(map(float, p.split(","))) for p in attributes["points"].split()]
        else:
            x, y, r = (float(attributes[k]) for k in ("cx", "cy", "r"))
            points = [(x - r, y - r), (x + r, y + r)]
        assert int(position) not in found, f"position {position} drawn twice"
        found[int(position)] = (fill, points)
    return found


def view_box(svg: str) -> tuple[float, float, float, float]:
    return tuple(map(float, re.search(r'viewBox="([^"]+)"', svg).group(1).split()))


def centre(points) -> tuple[float, float]:
    return (round(sum(x for x, _ in points) / len(points), 1),
            round(sum(y for _, y in points) / len(points), 1))


def area(points) -> float:
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1)
                   in zip(points, points[1:] + points[:1]))) / 2


@pytest.fixture(scope="module", params=NAMES, ids=lambda n: n.split("#")[-1])
def puzzle(request):
    return explore.load_puzzle(request.param)


def test_a_shape_a_position_inside_the_view_box(puzzle):
    assert puzzle.renderer, f"{puzzle.name} has a shape but no picture"
    svg = picture(puzzle, puzzle.solved)
    shapes = shapes_of(svg)
    assert sorted(shapes) == list(range(puzzle.degree))
    x0, y0, width, height = view_box(svg)
    for position, (_, points) in shapes.items():
        for x, y in points:
            assert x0 <= x <= x0 + width and y0 <= y <= y0 + height, (position, x, y)
    for corners in re.findall(r'<polygon points="([^"]+)"', svg):  # fixed shapes too
        for x, y in (map(float, p.split(",")) for p in corners.split()):
            assert x0 <= x <= x0 + width and y0 <= y <= y0 + height, (x, y)
    tokens = [tuple(map(float, t)) for t in re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"', svg)]
    for k, (x, y, r) in enumerate(tokens):  # round tokens never overlap
        assert all(math.dist((x, y), (u, v)) >= r + w - 0.2 for u, v, w in tokens[k + 1:])


def test_colours_follow_every_move(puzzle):
    before = shapes_of(picture(puzzle, puzzle.solved))
    for name, move in puzzle.generators.items():
        after = shapes_of(picture(puzzle, act(puzzle.solved, move)))
        for i in range(puzzle.degree):
            # the sticker at i went to move[i], and shows there what it showed at i
            assert after[move[i]][0] == before[i][0], (name, i)
        changed = {i for i in range(puzzle.degree) if after[i][0] != before[i][0]}
        assert changed <= {i for i in range(puzzle.degree) if move[i] != i}, name
        if act(puzzle.solved, move) != tuple(puzzle.solved):  # identical pieces may not change
            assert changed, f"{puzzle.name}: move {name} changes nothing in the picture"


def test_moves_carry_polygons_onto_polygons_of_the_same_area(puzzle):
    shapes = shapes_of(picture(puzzle, puzzle.solved))
    areas = {i: area(points) for i, (_, points) in shapes.items()}
    for name, move in puzzle.generators.items():
        for i in range(puzzle.degree):
            assert areas[move[i]] == pytest.approx(areas[i], rel=0.03, abs=1.0), (name, i)


def test_solved_faces_are_one_colour_each():
    for name, faces, per_face in (("skewb", 6, 5), ("dino", 6, 4), ("pyraminx", 4, 9),
                                  ("jing-pyraminx", 4, 7), ("megaminx", 12, 10),
                                  ("3x3x3", 6, 8)):
        p = explore.load_puzzle(name)
        fills = [fill for fill, _ in shapes_of(picture(p, p.solved)).values()]
        assert sorted(fills.count(f) for f in set(fills)) == [per_face] * faces, name


def test_fixed_centres_are_drawn_but_are_no_positions():
    svg = picture(explore.load_puzzle("megaminx"), explore.load_puzzle("megaminx").solved)
    assert svg.count("<polygon") == 120 + 12 and svg.count("data-position=") == 120
    three = explore.load_puzzle("3x3x3")
    assert picture(three, three.solved).count("<polygon") == 54


def test_a_megaminx_face_turn_moves_five_corners_and_five_edges():
    p = solids.megaminx()
    for name, move in p.generators.items():
        moved = {i for i in range(p.degree) if move[i] != i}
        kinds = {kind: sum(1 for piece in pieces if set(piece) <= moved)
                 for kind, pieces in p.pieces.items()}
        assert kinds == {"corner": 5, "edge": 5} and len(moved) == 25, name


def test_library_files_and_their_solids_share_pictures():
    for name in solids.SOLIDS:
        assert explore.load_puzzle(name).renderer == solids.SOLIDS[name]().puzzle().renderer
    assert explore.load_puzzle("3x3x3-2gen").renderer == explore.load_puzzle("3x3x3").renderer
    # the cube definitions' stickers are the pieces' stickers of the cube modules
    d = explore.load_puzzle("2x2x2")
    corners = [s for piece in minicube.PUZZLE.pieces["corner"] for s in piece]
    solved = "UUUURRRRFFFFDDDDLLLLBBBB"
    for word in ["R", "R U F'", "D2 L B"]:
        state = minicube.apply_moves(solved, word)
        mine = shapes_of(picture(d, Element.from_word(d, word).state().colours))
        theirs = shapes_of(picture(minicube.PUZZLE, tuple(state)))
        assert [mine[k][0] for k in range(24)] == [theirs[s][0] for s in corners], word


def test_santa_cubes_are_the_cube_modules_cubes():
    santa = explore.load_puzzle(f"{SANTA}#cube_3/3/3")
    # Santa's f0, r0, d0 are F, R, D: the same picture as the cube's net
    for santa_word, word in [("f0", "F"), ("r0 d0", "R D"), ("f0 r0 d0 r0'", "F R D R'")]:
        ours = shapes_of(picture(cube3.PUZZLE, tuple(cube3.apply_moves(cube3.SOLVED, word))))
        theirs = shapes_of(picture(santa, Element.from_word(santa, santa_word).state().colours))
        assert sorted(f for f, _ in ours.values()) == sorted(f for f, _ in theirs.values())
        assert {centre(p): f for f, p in ours.values()} == \
               {centre(p): f for f, p in theirs.values()}, santa_word


def test_a_puzzle_made_without_a_renderer_is_drawn_from_its_moves():
    from permgroup.formats import read_definition
    from permgroup.formats.stickers import to_puzzle

    bare = to_puzzle(read_definition(LIBRARY["dino"]))
    assert bare.renderer == "" and drawing_of(bare) == drawing_of(explore.load_puzzle("dino"))
    two_gen = explore.subgroup(bare, "URF ULB")
    assert drawing_of(two_gen) == drawing_of(bare)


def test_a_santa_name_with_other_moves_is_not_drawn_as_that_shape(tmp_path):
    text = SANTA.read_text().splitlines()
    cube = next(line for line in text if line.startswith("cube_2/2/2"))
    wrong = tmp_path / "puzzle_info.csv"
    # f0 and r0 swapped: the name says a cube, the moves are not its moves
    wrong.write_text(text[0] + "\n" + cube.replace("'f0'", "'x'").replace("'r0'", "'f0'")
                     .replace("'x'", "'r0'") + "\n")
    p = explore.load_puzzle(f"{wrong}#cube_2/2/2")
    assert p.renderer == "" and drawing_of(p) == strips(p)


def test_globe_moves_follow_santa_where_rows_are_odd():
    p = explore.load_puzzle(f"{SHAPES}#globe_2/6")
    assert p.generators == globe_moves(2, 6)
    middle = range(12, 24)
    assert all(p.generators["f3"][i] == i for i in middle)


def test_a_bare_definition_keeps_strips_wrapped_inside_its_frame(tmp_path):
    path = tmp_path / "bars.tws"
    lines = ["Name bars", "Set BAR 16 3", "Set DOT 4 1", "Solved", "BAR",
             " ".join(str(i) for i in range(1, 17)), "DOT", "1 2 3 4", "End",
             "Move A", "BAR", " ".join(str(i) for i in [2, 3, 1] + list(range(4, 17))),
             "1 2 0" + " 0" * 13, "End", "Move B", "DOT", "2 1 3 4", "End"]
    path.write_text("\n".join(lines) + "\n")
    p = explore.load_puzzle(str(path))
    assert p.renderer == "" and drawing_of(p) == strips(p)
    svg = picture(p, Element.from_word(p, "A B").state().colours)
    shapes = shapes_of(svg)
    assert sorted(shapes) == list(range(p.degree)) and ">BAR<" in svg and ">DOT<" in svg
    x0, _, width, _ = view_box(svg)
    assert width <= STRIP_WIDTH + 2
    assert all(x <= x0 + width for _, points in shapes.values() for x, _ in points)
    assert len({points[0][1] for _, points in shapes.values()}) > 2  # wrapped rows


def test_draw_gives_the_state_or_each_step_of_a_word():
    p = explore.load_puzzle("skewb")
    one = explore.draw(State.solved(p).apply("URF"))
    assert one == picture(p, State.solved(p).apply("URF").colours) and one._repr_svg_() == str(one)
    steps = str(explore.draw(p, "URF URB' DRF"))
    assert steps.count("data-position=") == 4 * p.degree
    assert [t for t in re.findall(r">(start|\d+: [^<]+)</text>", steps)] == \
           ["start", "1: URF", "2: URB&#x27;", "3: DRF"]
    last = steps[steps.rindex('<g transform'):]
    final = shapes_of(picture(p, Element.from_word(p, "URF URB' DRF").state().colours))
    assert [f for f, _ in shapes_of(last).values()] == [f for f, _ in final.values()]
    assert explore.draw(Element.from_word(p, "URF")) == one
    with pytest.raises(ValueError, match="unknown move 'Q'"):
        explore.draw(p, "URF Q")


def test_element_and_state_cards_show_the_picture():
    p = explore.load_puzzle("pyraminx")
    e = Element.from_word(p, "U l")
    assert picture(p, e.state().colours) in e._repr_html_()
    assert e.state()._repr_svg_() == picture(p, e.state().colours)


def test_net_svg_draws_any_letters():
    svg = net_svg("WWWWRRRRGGGGYYYYOOOOBBBB")
    fills = [f for f, _ in shapes_of(svg).values()]
    assert fills[:4] == ["#ffffff"] * 4 and fills[4:8] == ["#c41e3a"] * 4


def test_boards_are_drawn_as_boards():
    p = torus.torus_puzzle(3, 5)
    shapes = shapes_of(picture(p, torus.apply_moves("".join(p.solved), "row0", p)))
    rows = sorted({round(points[0][1]) for _, points in shapes.values()})
    assert len(rows) == 3 and all(
        sum(1 for _, points in shapes.values() if round(points[0][1]) == y) == 5 for y in rows)
    assert [shapes[i][0] for i in (5, 10)] == ["#009e60", "#0051ba"]  # G and B in their colours
    start = cubic_eight.start_state(cubic_eight.cell_of(2, 1))
    tops = [shapes_of(picture(cubic_eight.PUZZLE, start))[s][0] for s in cubic_eight.TOP_SLOTS]
    assert tops == [cubic_eight.FILLS[c] for c in cubic_eight.tops(start)]


def test_family_members_take_their_shapes():
    assert explore.load_puzzle("topspin-9").renderer == "puzzles.pictures:ring(9, 4)"
    assert explore.load_puzzle("pancake-6").renderer == "puzzles.pictures:stack(6, False)"
    assert explore.load_puzzle("globe-3-4").generators == \
        explore.load_puzzle(f"{SANTA}#globe_3/4").generators  # the family is Santa's globe
    # a burnt pancake flipped alone shows its burnt side up, its number on the lower half
    p = explore.load_puzzle("burnt-pancake-3")
    svg = picture(p, Element.from_word(p, "R1").state().colours)
    shapes = shapes_of(svg)
    solved = shapes_of(picture(p, p.solved))
    assert (shapes[0][0], shapes[1][0]) == (solved[1][0], solved[0][0])
    number = re.search(r'<text x="[\d.]+" y="([\d.]+)"[^>]*>1</text>', svg)
    assert shapes[1][1][0][1] < float(number.group(1)) < shapes[1][1][2][1]
    # two rings of the Hungarian rings share the cells of the definition
    rings = explore.load_puzzle("hungarian-5-2-5-2")
    assert rings.renderer == "puzzles.pictures:wreath((0, 1, 2, 3, 4), (0, 5, 2, 6, 7))"


def test_ring_tokens_inside_and_apart():
    for n in (3, 5, 12, 40):
        d = ring(n, 4)
        for c in d.shapes:
            assert 0 <= c.x - c.r and c.x + c.r <= d.width and 0 <= c.y - c.r and c.y + c.r <= d.height
        assert all(math.dist((a.x, a.y), (b.x, b.y)) > a.r + b.r
                   for k, a in enumerate(d.shapes) for b in d.shapes[k + 1:])
    assert len(stack(7).shapes) == 7 and len(stack(7, burnt=True).shapes) == 14


def test_large_cube_net_is_readable():
    d = drawing_of(explore.load_puzzle(f"{SHAPES}#cube_5/5/5"))
    assert 400 <= d.width <= 620
    from puzzles.pictures import santa_cube
    big = santa_cube(33)
    assert len(big.shapes) == 6 * 33 * 33 and big.width <= 620
    assert min(abs(s[1][0] - s[0][0]) + abs(s[1][1] - s[0][1]) for s in big.shapes) >= 4
