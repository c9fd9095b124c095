"""Coloured nets of n x n x n cubes, for notebooks and the puzzles' pictures.

:func:`cube_drawing` is the net of :class:`~puzzles.cube_geometry.CubeGeometry`
(the renderer of :mod:`puzzles.minicube` and :mod:`puzzles.cube3`), unfolded
from the cube by :mod:`puzzles.nets`; :func:`net_svg` draws any facelet string
in it.

>>> svg = net_svg("UUUURRRRFFFFDDDDLLLLBBBB")
>>> svg.startswith("<svg") and svg.count("<polygon") == 24
True
"""
from __future__ import annotations

from functools import lru_cache
from math import isqrt

import numpy as np

from permgroup.drawing import COLOUR_LETTERS, Drawing, drawing_svg, label_fills
from puzzles.cube_geometry import FACES, CubeGeometry

def colour_map(state: str) -> dict[str, str]:
    """A fill colour for every letter of ``state``: standard names for W Y R O G B
    (any case), the face-letter scheme URFDLB as white/red/green/yellow/orange/blue,
    and distinct palette colours otherwise.

    >>> colour_map("UUUURRRRFFFFDDDDLLLLBBBB")["F"], colour_map("wwyy")
    ('#009e60', {'w': '#ffffff', 'y': '#ffd500'})
    >>> colour_map("XYZ")  # no scheme recognized: palette colours in letter order
    {'X': '#ffffff', 'Y': '#ffd500', 'Z': '#c41e3a'}
    """
    letters = sorted(set(state))
    if set(letters) <= set("URFDLB"):
        scheme = dict(zip("URFDLB", "WRGYOB"))
        return {c: COLOUR_LETTERS[scheme[c]] for c in letters}
    return label_fills(letters)


def cube_size(n: int) -> float:
    """Pixels per sticker of an n x n x n net: large for small cubes, a net
    about 600 pixels wide for large ones (4 pixels at least).

    >>> cube_size(2), cube_size(3), cube_size(33)
    (24.0, 24.0, 4.5)
    """
    return max(4.0, min(24.0, round(600 / (4 * n), 1)))


@lru_cache(maxsize=None)
def cube_drawing(n: int) -> Drawing:
    """The cross-shaped net of the n x n x n cube (U above L F R B, D below, each
    face seen from outside), sticker ``i`` of :class:`CubeGeometry` the square
    around its centre, faces in their usual colours.

    >>> d = cube_drawing(2)
    >>> len(d.shapes), d.home[:5], d.width
    (24, ('#ffffff', '#ffffff', '#ffffff', '#ffffff', '#c41e3a'), 194.0)
    """
    from puzzles.nets import face_polygons, net_drawing
    from puzzles.solids import CUBE, CUBE_FILLS, CUBE_NET

    geometry = CubeGeometry(n)
    stickers = []
    for centre, normal in geometry.positions:
        middle = np.array(centre, float) / n
        u, v = (np.array(axis, float) / n for axis in _face_axes(normal))
        stickers.append((FACES[FACES.index(geometry.face_of(len(stickers)))],
                         [middle + u + v, middle - u + v, middle - u - v, middle + u - v]))
    return net_drawing(face_polygons(CUBE), CUBE_NET["root"], CUBE_NET["up"], CUBE_NET["tree"],
                       stickers, CUBE_FILLS, width=4 * n * cube_size(n) + 2)


def _face_axes(normal) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two unit vectors spanning the face with outward ``normal``."""
    others = [tuple(int(i == k) for i in range(3)) for k in range(3) if not normal[k]]
    return others[0], others[1]


def cube_pieces(n: int) -> Drawing:
    """The net of a cube read from a definition file written from
    :mod:`puzzles.minicube` (n = 2) or :mod:`puzzles.cube3` (n = 3): its
    stickers are the cube's pieces' stickers in turn (centres stay fixed).

    >>> len(cube_pieces(3).shapes), len(cube_pieces(3).fixed)
    (48, 6)
    """
    from puzzles import cube3, minicube

    pieces = {2: minicube.PUZZLE, 3: cube3.PUZZLE}[n].pieces
    return cube_drawing(n).select([s for kind in pieces.values() for p in kind for s in p])


def net_svg(state: str, size: int | None = None, title: str | None = None) -> str:
    """The cross-shaped net (U above L F R B, D below) of a URFDLB facelet
    string, in the colours :func:`colour_map` gives its letters.

    >>> from puzzles import cube3
    >>> svg = net_svg(cube3.SOLVED, title="solved")
    >>> svg.count("<polygon"), "<title>solved</title>" in svg
    (54, True)
    >>> net_svg("UUUUUUU")
    Traceback (most recent call last):
        ...
    ValueError: 7 stickers is not a cube net
    """
    n = isqrt(len(state) // 6)
    if 6 * n * n != len(state) or not state:
        raise ValueError(f"{len(state)} stickers is not a cube net")
    fills = colour_map(state)
    return drawing_svg(cube_drawing(n), (), tuple(state), title, [fills[c] for c in state])


class Net:
    """A facelet string that draws itself as a net in Jupyter.

    >>> Net("UUUURRRRFFFFDDDDLLLLBBBB")
    Net('UUUURRRRFFFFDDDDLLLLBBBB')
    """

    def __init__(self, state: str, title: str | None = None):
        self.state = state
        self.title = title

    def __repr__(self) -> str:
        return f"Net({self.state!r})"

    def _repr_svg_(self) -> str:
        return net_svg(self.state, title=self.title)
