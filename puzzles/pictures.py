"""Which picture a puzzle gets, and the pictures of shapes that are no solids.

A puzzle built here (:mod:`puzzles.minicube`, :mod:`puzzles.solids`...) names
its drawing itself (``Puzzle.renderer``).  A puzzle read from a definition
file gets one from :func:`renderer_for`:

* a library puzzle (:mod:`puzzles.solids`, the cube definitions), or any file
  whose moves are moves of one of them (``3x3x3-2gen``, a copy elsewhere): its
  solid's net;
* a Kaggle Santa 2023 type, recognised by its name *and* its moves, which must
  be exactly the shape's: ``cube_N/N/N`` as the cube's net (faces U F R B L D,
  each row by row as seen from outside; ``f_i``, ``r_i``, ``d_i`` turn layer
  ``i`` from F, R, D clockwise as seen from that face), ``globe_R/C`` as a
  latitude/longitude grid of ``R + 1`` rows of ``2C`` cells (``r_i`` turns row
  ``i``, ``f_j`` turns the half globe of columns ``j .. j + C - 1`` upside
  down, the middle row of an odd number left alone), ``wreath_A/A`` as two rings of ``A`` cells crossing at two (the
  rings are the cycles of ``l`` and ``r``);
* else nothing: the strips of :func:`permgroup.drawing.strips`.

Families of puzzles (a ring of tokens for LRX and top spin, a stack for
pancakes) have their drawings here too: :func:`ring`, :func:`stack`.

>>> from permgroup.formats.stickers import to_puzzle
>>> from permgroup.formats import read_definition
>>> renderer_for(to_puzzle(read_definition("tests/data/santa2023/puzzle_info.csv#globe_3/4")))
'puzzles.pictures:globe(3, 4)'
"""
from __future__ import annotations

import colorsys
import math
import re
from functools import lru_cache

from permgroup.drawing import Circle, Drawing
from permgroup.elements import cycles_of
from permgroup.perm import Perm, inverse, power
from permgroup.puzzle import Puzzle


# --- Kaggle Santa 2023 shapes ----------------------------------------------------

#: the faces of a Santa cube in sticker order
SANTA_FACES = "UFRBLD"


@lru_cache(maxsize=None)
def santa_cube_stickers(n: int) -> tuple[int, ...]:
    """For each sticker of a Santa ``cube_n/n/n``, the same sticker of
    :class:`~puzzles.cube_geometry.CubeGeometry` (faces U F R B L D instead of
    U R F D L B, each face laid out alike).

    >>> santa_cube_stickers(2)[4:8]  # Santa's F face is the geometry's third
    (8, 9, 10, 11)
    """
    from puzzles.cube_geometry import FACES

    return tuple(FACES.index(face) * n * n + k for face in SANTA_FACES for k in range(n * n))


def santa_cube_moves(n: int) -> dict[str, Perm]:
    """The moves of a Santa ``cube_n/n/n`` from the cube's geometry, as the
    engine's permutations over Santa's sticker numbers."""
    from puzzles.cube_geometry import NORMALS, CubeGeometry

    geometry = CubeGeometry(n)
    to_geometry = santa_cube_stickers(n)
    to_santa = inverse(to_geometry)
    moves = {}
    for letter, face in (("f", "F"), ("r", "R"), ("d", "D")):
        for layer in range(n):
            turn = geometry._turn(NORMALS[face], {n - 1 - 2 * layer} | ({n} if layer == 0 else set())
                                  | ({-n} if layer == n - 1 else set()))
            moves[f"{letter}{layer}"] = tuple(to_santa[turn[to_geometry[k]]] for k in range(6 * n * n))
    return moves


def santa_cube(n: int) -> Drawing:
    """The net of a Santa ``cube_n/n/n``.

    >>> len(santa_cube(4).shapes)
    96
    """
    from puzzles.cube_display import cube_drawing

    return cube_drawing(n).select(santa_cube_stickers(n))


def globe_moves(rows: int, columns: int) -> dict[str, Perm]:
    """The moves of a Santa ``globe_rows/columns``: ``rows + 1`` rows of ``2 *
    columns`` cells, row by row; ``r_i`` takes each cell of row ``i`` one
    column back, ``f_j`` swaps the cell in row ``r``, column ``j + k`` with the
    one in row ``rows - r``, column ``j + columns - 1 - k`` (a half turn of the
    half globe about its middle meridian), for every row but the middle one
    (an odd number of rows: Santa's half turn leaves the equator alone).

    >>> globe_moves(1, 2)["r0"]
    (3, 0, 1, 2, 4, 5, 6, 7)
    """
    width = 2 * columns
    moves = {}
    for r in range(rows + 1):
        image = list(range((rows + 1) * width))
        for c in range(width):
            image[r * width + c] = r * width + (c - 1) % width
        moves[f"r{r}"] = tuple(image)
    for j in range(width):
        image = list(range((rows + 1) * width))
        for r in range(rows + 1):
            if 2 * r == rows:
                continue
            for k in range(columns):
                image[r * width + (j + k) % width] = (rows - r) * width + (j + columns - 1 - k) % width
        moves[f"f{j}"] = tuple(image)
    return moves


def _hex(hue: float, lightness: float, saturation: float = 0.65) -> str:
    r, g, b = colorsys.hls_to_rgb(hue % 1.0, lightness, saturation)
    return "#{:02x}{:02x}{:02x}".format(round(r * 255), round(g * 255), round(b * 255))


def globe(rows: int, columns: int) -> Drawing:
    """A Santa globe as a latitude/longitude grid: row ``r`` a band of latitude
    (north at the top), column ``c`` a meridian's sector, hues round the
    globe and lighter to the north, rows named as their moves.

    >>> d = globe(1, 8)
    >>> len(d.shapes), d.numbered, d.captions[0]
    (32, True, (0.0, 23.2, 'r0'))
    """
    width = 2 * columns
    cell = max(8.0, min(32.0, round(560 / width, 1)))
    height = cell * 1.2
    left = 24.0
    shapes, home = [], []
    for r in range(rows + 1):
        for c in range(width):
            x, y = left + c * cell, r * height
            shapes.append(((x, y), (x + cell, y), (x + cell, y + height), (x, y + height)))
            home.append(_hex(c / width, 0.72 - 0.4 * r / max(rows, 1)))
    captions = tuple((0.0, r * height + height / 2 + 4, f"r{r}") for r in range(rows + 1))
    return Drawing(tuple(shapes), tuple(home), left + width * cell, (rows + 1) * height,
                   captions=captions, numbered=cell >= 18, font=min(10.0, cell / 2.2))


def _single_cycle(p: Perm) -> tuple[int, ...] | None:
    cycles = cycles_of(p)
    return cycles[0] if len(cycles) == 1 else None


def wreath_rings(puzzle: Puzzle) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The two rings of a wreath (the cells of ``l`` and of ``r``, each in the
    order its move turns them, from a cell both share), or ``None`` when the
    puzzle is no wreath: two moves, each one cycle, crossing at two cells."""
    if sorted(puzzle.generators) != ["l", "r"]:
        return None
    left, right = (_single_cycle(puzzle.generators[m]) for m in ("l", "r"))
    if left is None or right is None or len(set(left) & set(right)) != 2:
        return None
    if len(set(left) | set(right)) != puzzle.degree:
        return None
    first = min(set(left) & set(right))
    return (left[left.index(first):] + left[:left.index(first)],
            right[right.index(first):] + right[:right.index(first)])


def wreath(left: tuple[int, ...], right: tuple[int, ...]) -> Drawing:
    """Two equal rings of round cells crossing at two: ``left`` and ``right``
    are the rings' cells in the order their moves turn them, from a shared
    cell (:func:`wreath_rings`); each ring's cells are spaced evenly on each
    of its two arcs, the shorter arcs facing each other.

    >>> d = wreath((0, 5, 4, 3, 2, 1), (0, 9, 8, 2, 7, 6))
    >>> len(d.shapes), d.home[:3]
    (10, ('#c41e3a', '#009e60', '#c41e3a'))
    """
    size = len(left)
    other = next(x for x in left[1:] if x in right)
    s, t = left.index(other), right.index(other)
    if t > size - t:  # the right ring's shorter arc faces the left ring
        right = (right[0],) + tuple(reversed(right[1:]))
        t = size - t
    if s > size - s:
        left = (left[0],) + tuple(reversed(left[1:]))
        s = size - s
    radius = 150.0
    lens = 2 * math.pi * (s + t) / (2 * size)
    c, h = radius * math.cos(lens / 2), radius * math.sin(lens / 2)

    def spots(count: int, inner: int, start: float, sense: int) -> list[float]:
        angles = []
        for k in range(count):
            if k <= inner:
                angles.append(start + sense * k * lens / inner)
            else:
                angles.append(start + sense * (lens + (k - inner) * (2 * math.pi - lens) / (count - inner)))
        return angles

    places: dict[int, tuple[float, float]] = {}
    for cell, a in zip(left, spots(size, s, lens / 2, -1)):
        places[cell] = (-c + radius * math.cos(a), -radius * math.sin(a))
    for cell, a in zip(right, spots(size, t, math.pi - lens / 2, 1)):
        places.setdefault(cell, (c + radius * math.cos(a), -radius * math.sin(a)))
    step = min(lens / max(s, t), (2 * math.pi - lens) / (size - min(s, t)))
    r = min(16.0, 0.45 * 2 * radius * math.sin(step / 2))
    margin = r + 2
    shapes, home = [], []
    both = set(left) & set(right)
    for cell in range(len(places)):
        x, y = places[cell]
        shapes.append(Circle(x + c + radius + margin, y + radius + margin, r))
        home.append("#c41e3a" if cell in both else "#009e60" if cell in left else "#0051ba")
    return Drawing(tuple(shapes), tuple(home), 2 * (c + radius + margin), 2 * (radius + margin),
                   numbered=r >= 7, font=min(10.0, r))


# --- families ---------------------------------------------------------------------

def ring(n: int) -> Drawing:
    """``n`` numbered tokens round a circle, position 0 at the top and the
    rest clockwise (LRX, top spin: puzzles that turn a ring).

    >>> d = ring(8)
    >>> len(d.shapes), d.numbered
    (8, True)
    """
    radius = max(60.0, 9.0 * n / math.pi)
    r = min(16.0, 0.42 * 2 * radius * math.sin(math.pi / n)) if n > 1 else 16.0
    margin = r + 2
    shapes = tuple(Circle(margin + radius + radius * math.sin(2 * math.pi * k / n),
                          margin + radius - radius * math.cos(2 * math.pi * k / n), r)
                   for k in range(n))
    home = tuple(_hex(k / n, 0.6) for k in range(n))
    return Drawing(shapes, home, 2 * (radius + margin), 2 * (radius + margin),
                   numbered=r >= 6, font=min(11.0, r))


def stack(n: int) -> Drawing:
    """``n`` numbered pancakes stacked, position 0 on top; shades grow with the
    pancake's number (pancake flipping).

    >>> stack(5).shapes[0][0], stack(5).height
    ((2.0, 2.0), 100.0)
    """
    width, thick = 160.0, 20.0
    shapes = tuple(((2.0, k * thick + 2), (width - 2, k * thick + 2), (width - 2, (k + 1) * thick - 2),
                    (2.0, (k + 1) * thick - 2)) for k in range(n))
    home = tuple(_hex(0.09, 0.85 - 0.55 * k / max(n - 1, 1), 0.8) for k in range(n))
    return Drawing(shapes, home, width, n * thick, numbered=True, font=11.0)


# --- recognising a definition's shape ---------------------------------------------

SANTA_NAME = re.compile(r"(cube)_(\d+)[/-]\2[/-]\2|(globe)_(\d+)[/-](\d+)|(wreath)_(\d+)[/-]\7")


def _santa_renderer(puzzle: Puzzle) -> str:
    found = SANTA_NAME.fullmatch(puzzle.name)
    if not found:
        return ""
    if found.group(1):
        n = int(found.group(2))
        if puzzle.degree == 6 * n * n and puzzle.generators == santa_cube_moves(n):
            return f"puzzles.pictures:santa_cube({n})"
    elif found.group(3):
        rows, columns = int(found.group(4)), int(found.group(5))
        if (puzzle.degree == (rows + 1) * 2 * columns
                and puzzle.generators == globe_moves(rows, columns)):
            return f"puzzles.pictures:globe({rows}, {columns})"
    else:
        rings = wreath_rings(puzzle)
        if rings is not None and len(rings[0]) == len(rings[1]) == int(found.group(7)):
            return f"puzzles.pictures:wreath({rings[0]!r}, {rings[1]!r})"
    return ""


@lru_cache(maxsize=1)
def _library_moves() -> list[tuple[str, int, frozenset]]:
    """Every known solid's renderer, its number of stickers and its moves
    (every power of every generator), stickers numbered as in its definition
    file."""
    from permgroup.formats.stickers import from_puzzle, to_puzzle
    from puzzles import cube3, minicube, solids

    known = [(solid().puzzle(), f"puzzles.solids:drawing({name!r})")
             for name, solid in solids.SOLIDS.items()]
    known += [(to_puzzle(from_puzzle(p)), f"puzzles.cube_display:cube_pieces({n})")
              for n, p in ((2, minicube.PUZZLE), (3, cube3.PUZZLE))]
    result = []
    for p, renderer in known:
        moves = frozenset(power(g, k) for g in p.generators.values() for k in range(1, 6))
        result.append((renderer, p.degree, moves))
    return result


def renderer_for(puzzle: Puzzle) -> str:
    """The renderer of a puzzle read from a definition (see the module's
    docstring), or ``""``."""
    santa = _santa_renderer(puzzle)
    if santa:
        return santa
    for renderer, degree, moves in _library_moves():
        if degree == puzzle.degree and all(g in moves for g in puzzle.generators.values()):
            return renderer
    return ""
