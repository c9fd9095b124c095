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

* a member of :mod:`puzzles.families`: LRX and top spin as a ring of
  numbered tokens (:func:`ring`, the turntable's positions marked), pancakes
  as a stack (:func:`stack`, burnt ones golden side over burnt side), the
  bubble-sort and transposition graphs as a row (:func:`row`), Hungarian
  rings as two rings (:func:`wreath`), globes as globes.

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
from puzzles.cube_geometry import santa_cube_moves, santa_cube_stickers


# --- Kaggle Santa 2023 shapes ----------------------------------------------------



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


def wreath_rings(puzzle: Puzzle, moves: tuple[str, str] = ("l", "r")
                 ) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The two rings of a wreath (the cells each of ``moves`` turns, in the
    order it turns them, from a cell both share), or ``None`` when the puzzle
    is no wreath: just those two moves, each one cycle, crossing at one or two
    cells, every position on a ring."""
    if sorted(puzzle.generators) != sorted(moves):
        return None
    left, right = (_single_cycle(puzzle.generators[m]) for m in moves)
    if left is None or right is None or not 1 <= len(set(left) & set(right)) <= 2:
        return None
    if len(set(left) | set(right)) != puzzle.degree:
        return None
    first = min(set(left) & set(right))
    return (left[left.index(first):] + left[:left.index(first)],
            right[right.index(first):] + right[:right.index(first)])


def wreath(left: tuple[int, ...], right: tuple[int, ...]) -> Drawing:
    """Two rings of round cells crossing at two cells (or touching at one):
    ``left`` and ``right`` are the rings' cells in the order their moves turn
    them, from a shared cell (:func:`wreath_rings`).  Radii follow the rings'
    sizes; each ring's cells are spaced evenly on each of its two arcs, the
    shorter arcs facing each other inside the other ring.

    >>> d = wreath((0, 5, 4, 3, 2, 1), (0, 9, 8, 2, 7, 6))
    >>> len(d.shapes), d.home[:3]
    (10, ('#c41e3a', '#009e60', '#c41e3a'))
    >>> len(wreath((0, 1, 2), (0, 3, 4, 5)).shapes)  # touching at cell 0
    6
    """
    def shorter(ring: tuple[int, ...], other: int) -> tuple[tuple[int, ...], int]:
        k = ring.index(other)
        if k > len(ring) - k:  # turn the ring round so its shorter arc comes first
            ring = (ring[0],) + tuple(reversed(ring[1:]))
            k = len(ring) - k
        return ring, k

    a, b = len(left), len(right)
    scale = min(150.0 / max(a, b), 7.0)  # about 44 pixels from cell to cell on small rings
    rho_l, rho_r = scale * max(a, 3), scale * max(b, 3)
    shared = [x for x in left[1:] if x in right]
    if shared:
        left, s = shorter(left, shared[0])
        right, t = shorter(right, shared[0])
        # rings crossing at more than 100 degrees would crowd each other's cells
        h = min((rho_l * math.sin(math.pi * s / a) + rho_r * math.sin(math.pi * t / b)) / 2,
                math.sin(math.radians(50)) * min(rho_l, rho_r))
    else:  # one shared cell: the rings touch there, each ring one outer arc
        s, t, h = 0, 0, 0.0
    half_l, half_r = math.asin(h / rho_l), math.asin(h / rho_r)

    def spots(count: int, inner: int, half: float) -> list[float]:
        """Angles from the first shared cell along the inner arc (2 * half
        wide, ``inner`` steps), then round the outer arc."""
        outer = 2 * math.pi - 2 * half
        return [k * 2 * half / max(inner, 1) if k <= inner
                else 2 * half + (k - inner) * outer / (count - inner) for k in range(count)]

    places: dict[int, tuple[float, float]] = {}
    centre_l, centre_r = -rho_l * math.cos(half_l), rho_r * math.cos(half_r)
    for cell, turn in zip(left, spots(a, s, half_l)):  # clockwise from the top shared cell
        angle = half_l - turn
        places[cell] = (centre_l + rho_l * math.cos(angle), -rho_l * math.sin(angle))
    for cell, turn in zip(right, spots(b, t, half_r)):  # anticlockwise from it
        angle = math.pi - half_r + turn
        places.setdefault(cell, (centre_r + rho_r * math.cos(angle), -rho_r * math.sin(angle)))
    spread = sorted(places.values())
    nearest = min((math.dist(p, q) for k, p in enumerate(spread) for q in spread[k + 1:k + 40]),
                  default=40.0)
    r = min(16.0, 0.45 * nearest)
    margin = r + 2
    x0, y0 = centre_l - rho_l - margin, -max(rho_l, rho_r) - margin
    width = centre_r + rho_r + margin - x0
    both = set(left) & set(right)
    shapes = tuple(Circle(places[c][0] - x0, places[c][1] - y0, r) for c in range(len(places)))
    home = tuple("#c41e3a" if c in both else "#009e60" if c in left else "#0051ba"
                 for c in range(len(places)))
    return Drawing(shapes, home, width, -2 * y0, numbered=r >= 7, font=min(10.0, r))


# --- families ---------------------------------------------------------------------

def ring(n: int, window: int = 0) -> Drawing:
    """``n`` numbered tokens round a circle, position 0 at the top and the
    rest clockwise (LRX, top spin: puzzles that turn a ring); a pale band
    behind positions ``0 .. window - 1`` (what top spin's turntable reverses,
    LRX's swap).

    >>> d = ring(8, 4)
    >>> len(d.shapes), len(d.fixed), d.numbered
    (8, 1, True)
    """
    radius = max(60.0, 13.0 * n / math.pi)
    r = min(16.0, 0.42 * 2 * radius * math.sin(math.pi / n)) if n > 1 else 16.0
    margin = 1.5 * r + 2
    middle = margin + radius

    def at(angle: float, distance: float) -> tuple[float, float]:
        return middle + distance * math.sin(angle), middle - distance * math.cos(angle)

    step = 2 * math.pi / n
    shapes = tuple(Circle(*at(k * step, radius), r) for k in range(n))
    home = tuple(_hex(k / n, 0.6) for k in range(n))
    fixed = ()
    if window:
        arc = [(-0.5 + (window) * j / 12) * step for j in range(13)]
        band = [at(a, radius + 1.4 * r) for a in arc] + [at(a, radius - 1.4 * r) for a in reversed(arc)]
        fixed = ((tuple(band), "#e4e4e4"),)
    return Drawing(shapes, home, 2 * middle, 2 * middle, fixed=fixed, numbered=r >= 6,
                   font=min(11.0, r))


def row(n: int) -> Drawing:
    """``n`` numbered tokens in a row, position 0 on the left (puzzles that
    swap positions: the bubble-sort and transposition graphs).

    >>> row(5).width
    180.0
    """
    step = max(6.0, min(36.0, 900.0 / n))
    r = 0.42 * step
    shapes = tuple(Circle(step / 2 + k * step, step / 2, r) for k in range(n))
    return Drawing(shapes, tuple(_hex(k / n, 0.6) for k in range(n)), n * step, step,
                   numbered=r >= 6, font=min(11.0, r))


def stack(n: int, burnt: bool = False) -> Drawing:
    """``n`` pancakes stacked, position 0 on top, each shaded by its size and
    numbered from 1 (pancake flipping); ``burnt``: each pancake two halves,
    its golden side over its burnt side when it lies the right way up (the
    puzzle's positions ``2k`` and ``2k + 1``).

    >>> d = stack(3, burnt=True)
    >>> len(d.shapes), d.names
    (6, ('1', '', '2', '', '3', ''))
    """
    width, thick = 160.0, 32.0 if burnt else 22.0
    shapes, home, names = [], [], []
    for k in range(n):
        top, shade = k * thick + 2, 0.85 - 0.5 * k / max(n - 1, 1)
        halves = ((top, top + thick - 4),) if not burnt else (
            (top, top + thick / 2 - 2), (top + thick / 2 - 2, top + thick - 4))
        for side, (y0, y1) in enumerate(halves):
            shapes.append(((2.0, y0), (width - 2, y0), (width - 2, y1), (2.0, y1)))
            home.append(_hex(0.09, shade, 0.8) if side == 0 else _hex(0.07, 0.12 + 0.2 * shade, 0.6))
            names.append(str(k + 1) if side == 0 else "")
    return Drawing(tuple(shapes), tuple(home), width, n * thick, numbered=True,
                   font=10.0 if burnt else 11.0, names=tuple(names))


# --- recognising a definition's shape ---------------------------------------------

SANTA_NAME = re.compile(r"(cube)_(\d+)[/-]\2[/-]\2|(globe)_(\d+)[/-](\d+)|(wreath)_(\d+)[/-]\7")


FAMILY_NAME = re.compile(r"(lrx|lx|topspin|pancake|burnt-pancake|coxeter|transpositions|"
                         r"hungarian|globe)-(\d+(?:-\d+)*)")


def _family_renderer(puzzle: Puzzle) -> str:
    """The picture of a member of :mod:`puzzles.families`, by its name and,
    where the shape needs it, its moves."""
    found = FAMILY_NAME.fullmatch(puzzle.name)
    if not found:
        return ""
    kind, numbers = found.group(1), [int(x) for x in found.group(2).split("-")]
    n = numbers[0]
    if kind in ("lrx", "lx", "topspin"):
        shift = tuple((i - 1) % n for i in range(n))  # L takes each point one place back
        if puzzle.degree == n and puzzle.generators.get("L") == shift:
            window = (numbers[1] if len(numbers) > 1 else 4) if kind == "topspin" else 2
            return f"puzzles.pictures:ring({n}, {window})"
    elif kind in ("pancake", "burnt-pancake"):
        burnt = kind == "burnt-pancake"
        if puzzle.degree == (2 * n if burnt else n):
            return f"puzzles.pictures:stack({n}, {burnt})"
    elif kind in ("coxeter", "transpositions"):
        if puzzle.degree == n:
            return f"puzzles.pictures:row({n})"
    elif kind == "hungarian":
        rings = wreath_rings(puzzle, ("A", "B"))
        if rings is not None:
            return f"puzzles.pictures:wreath({rings[0]!r}, {rings[1]!r})"
    elif kind == "globe" and len(numbers) == 2:
        if puzzle.generators == globe_moves(*numbers):
            return f"puzzles.pictures:globe({numbers[0]}, {numbers[1]})"
    return ""


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
    named = _santa_renderer(puzzle) or _family_renderer(puzzle)
    if named:
        return named
    for renderer, degree, moves in _library_moves():
        if degree == puzzle.degree and all(g in moves for g in puzzle.generators.values()):
            return renderer
    return ""
