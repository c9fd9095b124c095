"""Puzzles cut from solids: Skewb, Dino cube, Pyraminx, Megaminx, from geometry.

A piece is a point in space and the faces it shows (outward normals); a move
turns every piece on one side of a plane through an axis by ``360/order``
degrees.  Stickers are (piece, face) pairs, listed counter-clockwise around
the piece as seen from outside, so a rotation keeps each piece's cyclic order;
each move's permutation is found by rotating the points and matching them, so
no permutation is typed in by hand.  The definitions in ``puzzles/definitions``
are written from these (:func:`write_library`), and checked against the
published counts in the tests.

The pieces and cuts are those of the real solid (a cut at its true depth, a
piece's point inside the piece), so each puzzle's picture is cut from the
same geometry: a :class:`Solid` knows its faces, and :func:`drawing` unfolds
them into a net with every sticker a polygon (:mod:`puzzles.nets`).

>>> skewb().group().order()
3149280
>>> len(drawing("skewb").shapes)
30
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from pathlib import Path

import numpy as np

from permgroup.drawing import Drawing
from permgroup.puzzle import Puzzle

PHI = (1 + 5 ** 0.5) / 2
LIBRARY = Path(__file__).resolve().parent / "definitions"

Piece = tuple[tuple[float, ...], list[tuple[float, ...]]]  # centre, face normals


def _unit(v) -> np.ndarray:
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


def _rotation(axis, angle: float) -> np.ndarray:
    """Rotation by ``angle`` (radians) clockwise as seen from the tip of ``axis``."""
    x, y, z = _unit(axis)
    c, s = math.cos(-angle), math.sin(-angle)
    return np.array([
        [c + x * x * (1 - c), x * y * (1 - c) - z * s, x * z * (1 - c) + y * s],
        [y * x * (1 - c) + z * s, c + y * y * (1 - c), y * z * (1 - c) - x * s],
        [z * x * (1 - c) - y * s, z * y * (1 - c) + x * s, c + z * z * (1 - c)],
    ])


def _around(centre, normals) -> list:
    """The normals in counter-clockwise order seen from outside, starting from the
    first (a rotation keeps this order)."""
    c = _unit(centre)
    ref = _unit(normals[0]) - np.dot(_unit(normals[0]), c) * c
    if np.linalg.norm(ref) < 1e-9:  # a piece showing one face
        return list(normals)
    ref = _unit(ref)
    other = np.cross(c, ref)

    def angle(n):
        v = _unit(n)
        a = math.atan2(np.dot(v, other), np.dot(v, ref))
        # the first normal's angle is 0 up to rounding, which may fall either side of 0
        return a + 2 * math.pi if a < -1e-9 else max(a, 0.0)

    return sorted(normals, key=angle)


def _stickers(pieces: dict[str, list[Piece]]) -> tuple[list, dict[str, tuple]]:
    """Every sticker as ``(piece point, unit face normal)``, pieces of each kind
    in turn, and each kind's pieces as tuples of sticker numbers."""
    stickers, kinds = [], {}
    for kind, kind_pieces in pieces.items():
        tuples = []
        for centre, normals in kind_pieces:
            ids = []
            for n in _around(centre, normals):
                ids.append(len(stickers))
                stickers.append((np.asarray(centre, float), _unit(n)))
            tuples.append(tuple(ids))
        kinds[kind] = tuple(tuples)
    return stickers, kinds


def cut_puzzle(name: str, pieces: dict[str, list[Piece]],
               moves: dict[str, tuple[tuple[float, ...], int, float]], renderer: str = "") -> Puzzle:
    """The puzzle whose move ``name -> (axis, order, depth)`` turns, clockwise
    seen from the axis, every piece whose centre lies beyond ``depth`` along it.

    >>> coin = cut_puzzle("coin", {"side": [((0, 0, 1), [(0, 0, 1)]), ((0, 0, -1), [(0, 0, -1)])]},
    ...                   {"F": ((1, 0, 0), 2, -2.0)})
    >>> coin.generators["F"]
    (1, 0)
    """
    stickers, kinds = _stickers(pieces)
    points = np.array([np.concatenate([c, n]) for c, n in stickers])
    generators = {}
    for move, (axis, order, depth) in moves.items():
        turn = _rotation(axis, 2 * math.pi / order)
        image = list(range(len(stickers)))
        for i, (c, n) in enumerate(stickers):
            if np.dot(c, _unit(axis)) > depth:
                target = np.concatenate([turn @ c, turn @ n])
                j = int(np.argmin(np.linalg.norm(points - target, axis=1)))
                if np.linalg.norm(points[j] - target) > 1e-6:
                    raise ValueError(f"{name}: move {move} takes sticker {i} off the puzzle")
                image[i] = j
        generators[move] = tuple(image)
    return Puzzle(name, len(stickers), generators, solved=tuple(range(len(stickers))),
                  pieces=kinds, renderer=renderer)


Faces = dict[str, tuple[tuple[float, ...], float]]  # name -> (outward unit normal, depth)


@dataclass(frozen=True)
class Solid:
    """A puzzle cut from a convex solid: its faces (the planes ``n . x =
    depth``) with their fills, pieces and moves (as for :func:`cut_puzzle`),
    and its net: the ``root`` face laid flat with ``up`` upwards, then each
    ``(parent, child)`` face of ``tree`` unfolded about their shared edge
    (turned to put the centres of the two faces ``level`` side by side)."""

    name: str
    faces: Faces
    fills: dict[str, str]
    pieces: dict[str, list[Piece]]
    moves: dict[str, tuple[tuple[float, ...], int, float]]
    root: str
    up: tuple[float, ...]
    tree: tuple[tuple[str, str], ...]
    level: tuple[str, str] | None = None
    width: float = 320.0

    def puzzle(self) -> Puzzle:
        """The puzzle, drawn with :func:`drawing`."""
        return cut_puzzle(self.name, self.pieces, self.moves,
                          renderer=f"puzzles.solids:drawing({self.name!r})")

    def drawing(self) -> Drawing:
        """Every sticker as the polygon it covers on its face, in the net."""
        from puzzles.nets import face_polygons, net_drawing, sticker_cells

        planes = list({(tuple(np.round(_unit(axis), 12)), round(depth, 12)): None
                       for axis, _, depth in self.moves.values()})
        stickers, _ = _stickers(self.pieces)
        polygons = face_polygons(self.faces)
        placed, rest = sticker_cells(polygons, {k: n for k, (n, _) in self.faces.items()},
                                     planes, stickers)
        return net_drawing(polygons, self.root, self.up, self.tree, placed, self.fills, rest,
                           width=self.width, level=self.level)


CUBE_FACES = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
CORNERS = [c for c in product((1, -1), repeat=3)]
#: the cube's faces, their usual colours (white up, green front) and its cross-shaped net
CUBE: Faces = {"U": ((0, 1, 0), 1.0), "D": ((0, -1, 0), 1.0), "F": ((0, 0, 1), 1.0),
               "B": ((0, 0, -1), 1.0), "R": ((1, 0, 0), 1.0), "L": ((-1, 0, 0), 1.0)}
CUBE_FILLS = {"U": "#ffffff", "D": "#ffd500", "F": "#009e60", "B": "#0051ba", "R": "#c41e3a",
              "L": "#ff5800"}
CUBE_NET = dict(root="F", up=(0, 1, 0),
                tree=(("F", "U"), ("F", "D"), ("F", "L"), ("F", "R"), ("R", "B")))


def _cube_pieces(centres) -> list[Piece]:
    return [(c, [f for f in CUBE_FACES if np.dot(f, c) > 0]) for c in centres]


def _skewb(fixed_corner: bool = True) -> Solid:
    keep = (-1, -1, -1)
    moves = {_corner_name(c): (c, 3, 0.0) for c in CORNERS
             if not fixed_corner or np.dot(c, keep) < 0}
    pieces = {"corner": _cube_pieces(CORNERS),
              "centre": [(f, [f]) for f in CUBE_FACES]}
    return Solid("skewb", CUBE, CUBE_FILLS, pieces, moves, **CUBE_NET)


def skewb(fixed_corner: bool = True) -> Puzzle:
    """The Skewb: 8 corners and 6 centres, turned about the corners' axes by a cut
    through the centre.  With ``fixed_corner`` (the usual count) only the four
    turns that leave the down-left-back corner alone: 3,149,280 positions."""
    return _skewb(fixed_corner).puzzle()


def _dino() -> Solid:
    edges = [e for e in product((1, 0, -1), repeat=3) if sum(map(abs, e)) == 2]
    # a corner's cut runs along the diagonals of its three faces
    return Solid("dino", CUBE, CUBE_FILLS, {"edge": _cube_pieces(edges)},
                 {_corner_name(c): (c, 3, 1 / math.sqrt(3)) for c in CORNERS}, **CUBE_NET)


def dino() -> Puzzle:
    """The Dino cube: 12 edges turned in threes about the 8 corners' axes."""
    return _dino().puzzle()


def _corner_name(c) -> str:
    return ("U" if c[1] > 0 else "D") + ("R" if c[0] > 0 else "L") + ("F" if c[2] > 0 else "B")


TETRA = {"U": (1, 1, 1), "L": (-1, -1, 1), "R": (1, -1, -1), "B": (-1, 1, -1)}
#: the face opposite each vertex of :data:`TETRA`, by its outward normal
TETRA_FACES = {v: tuple(-x for x in p) for v, p in TETRA.items()}
#: the tetrahedron's faces, named by the vertex opposite; the net is the
#: face showing U, L and R with U up, and the three others folded out of it
TETRAHEDRON: Faces = {v: (tuple(_unit(n)), 1 / math.sqrt(3)) for v, n in TETRA_FACES.items()}
TETRA_FILLS = {"B": "#009e60", "R": "#0051ba", "L": "#c41e3a", "U": "#ffd500"}
TETRA_NET = dict(root="B", up=TETRA["U"], tree=(("B", "U"), ("B", "L"), ("B", "R")))
#: along a vertex's unit axis the vertex lies at sqrt(3), the opposite face at
#: -1/sqrt(3); a Pyraminx cuts its height in thirds
TIP_DEPTH, LAYER_DEPTH = 5 / (3 * math.sqrt(3)), 1 / (3 * math.sqrt(3))


def _pyraminx(tips: bool = True) -> Solid:
    moves = {v: (p, 3, LAYER_DEPTH) for v, p in TETRA.items()}
    if tips:
        moves.update({v.lower(): (p, 3, TIP_DEPTH) for v, p in TETRA.items()})
    return Solid("pyraminx" if tips else "pyraminx-notips", TETRAHEDRON, TETRA_FILLS,
                 _pyraminx_pieces(tips), moves, **TETRA_NET)


def pyraminx(tips: bool = True) -> Puzzle:
    """The Pyraminx: 4 tips, 4 axial centres, 6 edges; a vertex turn moves the two
    layers at a vertex, a tip turn (lower-case) only the tip.  Along a vertex's
    unit axis the tip lies at 1.56, the centre at 0.78, its three edges at 0.58
    (cuts at 0.96 and 0.19)."""
    return _pyraminx(tips).puzzle()


def _tetra_edges() -> list[Piece]:
    vertices = list(TETRA.values())
    return [(tuple((a + b) / 2 for a, b in zip(p, q)),
             [TETRA_FACES[w] for w in TETRA if TETRA[w] not in (p, q)])
            for i, p in enumerate(vertices) for q in vertices[i + 1:]]


def _pyraminx_pieces(tips: bool) -> dict[str, list[Piece]]:
    faces = TETRA_FACES
    vertices = list(TETRA.values())
    centres = [(tuple(0.45 * x for x in p), [faces[w] for w in TETRA if TETRA[w] != p])
               for p in vertices]
    pieces = {"centre": centres, "edge": _tetra_edges()}
    if tips:
        pieces["tip"] = [(tuple(0.9 * x for x in p), [faces[w] for w in TETRA if TETRA[w] != p])
                         for p in vertices]
    return pieces


def _pyraminx_faces() -> Solid:
    moves = {v: (TETRA_FACES[v], 3, -LAYER_DEPTH) for v in TETRA}
    moves.update({v.lower(): (p, 3, TIP_DEPTH) for v, p in TETRA.items()})
    return Solid("pyraminx-faces", TETRAHEDRON, TETRA_FILLS, _pyraminx_pieces(tips=True), moves,
                 **TETRA_NET)


def pyraminx_faces() -> Puzzle:
    """The Pyraminx turned by its faces: a face turn (the name of the vertex
    opposite) moves the face's layer -- three tips, three centres, three edges --
    and a tip turn (lower-case) one tip.  A face turn is a vertex turn followed
    by a turn of the whole puzzle, so the puzzle's attitude is part of the
    state: 302,330,880 positions, four times the vertex-turned count."""
    return _pyraminx_faces().puzzle()


def _jing_pyraminx() -> Solid:
    corners = [(p, [TETRA_FACES[w] for w in TETRA if TETRA[w] != p]) for p in TETRA.values()]
    centres = [(tuple(x / 3 for x in n), [n]) for n in TETRA_FACES.values()]
    moves = {v: (p, 3, 0.0) for v, p in TETRA.items()}
    moves.update({"F" + v.lower(): (TETRA_FACES[v], 3, 0.0) for v in TETRA})
    return Solid("jing-pyraminx", TETRAHEDRON, TETRA_FILLS,
                 {"corner": corners, "edge": _tetra_edges(), "centre": centres}, moves,
                 **TETRA_NET)


def jing_pyraminx() -> Puzzle:
    """Jing's pyraminx: a tetrahedron cut through its centre parallel to each
    face, so a turn moves half the puzzle.  The vertex half (named by the
    vertex, ``U``) holds a corner, three edges and three face centres; the face
    half (``Fu``: the face opposite ``U``) three corners, three edges and one
    centre.  44,789,760 positions (twsearch's sample)."""
    return _jing_pyraminx().puzzle()


#: the UFO's rim: six faces (normals at 30 + 60k degrees) of a flat hexagonal prism
UFO_RIM = [math.radians(30 + 60 * k) for k in range(6)]
UFO_HALF = 0.6


def _ufo() -> Solid:
    wedges = []
    for y in (UFO_HALF, -UFO_HALF):
        for angle in UFO_RIM:
            radial = (math.cos(angle), 0.0, math.sin(angle))
            wedges.append(((radial[0], y, radial[2]), [radial]))
    moves = {"U": ((0, 1, 0), 6, 0.0), "D": ((0, -1, 0), 6, 0.0)}
    for name, degrees in (("F", 90), ("R", 210), ("L", 330)):
        angle = math.radians(degrees)
        moves[name] = ((math.cos(angle), 0.0, math.sin(angle)), 2, 0.0)
    faces: Faces = {f"rim{30 + 60 * k}": ((math.cos(a), 0.0, math.sin(a)), 1.0)
                    for k, a in enumerate(UFO_RIM)}
    faces.update({"top": ((0, 1, 0), UFO_HALF), "bottom": ((0, -1, 0), UFO_HALF)})
    fills = dict(zip(faces, ["#c41e3a", "#009e60", "#ff5800", "#0051ba", "#ffd500", "#9b59b6",
                             "#888888", "#888888"]))
    # the rim unrolled, front face in the middle, seen from outside, the
    # top and the bottom (no stickers: they show the wedges) folded out of it
    strip = (("rim90", "rim30"), ("rim30", "rim330"), ("rim330", "rim270"),
             ("rim90", "rim150"), ("rim150", "rim210"), ("rim90", "top"), ("rim90", "bottom"))
    return Solid("ufo", faces, fills, {"wedge": wedges}, moves, root="rim90", up=(0, 1, 0),
                 tree=strip)


def ufo() -> Puzzle:
    """The UFO: a disc cut into six upper and six lower wedges.  ``U`` and ``D``
    turn a half by one wedge (60 degrees); ``F``, ``R`` and ``L`` flip the half
    disc facing front, back-right or back-left over (180 degrees about a
    horizontal axis), swapping three upper wedges with three lower ones.
    12! = 479,001,600 positions.  Its picture is the rim unrolled."""
    return _ufo().puzzle()


#: the Megaminx's twelve faces: upper flower (U and the five around it), lower
#: flower round the face opposite U (DR), joined where F meets D
MEGAMINX_NAMES = ["U", "F", "R", "BR", "BL", "L", "D", "DBR", "DBL", "B", "DL", "DR"]
MEGAMINX_FILLS = dict(zip(MEGAMINX_NAMES, [
    "#ffffff", "#009e60", "#c41e3a", "#0051ba", "#ffd500", "#9b59b6",
    "#ff69b4", "#90ee90", "#ff8c00", "#87ceeb", "#f5deb3", "#888888"]))
MEGAMINX_NET = (("U", "F"), ("U", "R"), ("U", "BR"), ("U", "BL"), ("U", "L"), ("F", "D"),
                ("D", "DR"), ("DR", "DBR"), ("DR", "DBL"), ("DR", "B"), ("DR", "DL"))


def dodecahedron() -> tuple[list[tuple[float, ...]], list[tuple[float, ...]]]:
    """The regular dodecahedron's face normals (not of unit length) and its
    corners, centred at the origin.

    >>> normals, corners = dodecahedron()
    >>> len(normals), len(corners)
    (12, 20)
    """
    normals = []
    for a, b in product((1, -1), repeat=2):
        normals += [(0, a * PHI, b), (a * PHI, b, 0), (b, 0, a * PHI)]
    corners = [tuple(c) for c in product((1, -1), repeat=3)]
    for a, b in product((1, -1), repeat=2):
        corners += [(0, a / PHI, b * PHI), (a / PHI, b * PHI, 0), (b * PHI, 0, a / PHI)]
    return normals, corners


def _megaminx() -> Solid:
    normals, corners = dodecahedron()

    def nearest(point, count) -> list:
        # rounded so that equally near faces keep their listed order on every machine
        return sorted(normals, key=lambda n: -round(float(np.dot(_unit(n), _unit(point))), 9))[:count]

    corner_pieces = [(c, nearest(c, 3)) for c in corners]
    edge_centres = set()
    for c in corners:
        for d in corners:
            if c < d and abs(np.linalg.norm(np.subtract(c, d)) - 2 / PHI) < 1e-9:
                edge_centres.add(tuple(round((x + y) / 2, 12) for x, y in zip(c, d)))
    edge_pieces = [(e, nearest(e, 2)) for e in sorted(edge_centres)]
    order = sorted(normals, key=lambda n: (-n[1], -n[2], n[0]))
    moves = {MEGAMINX_NAMES[i]: (n, 5, _face_depth(n, corners)) for i, n in enumerate(order)}
    level = max(float(np.dot(_unit(order[0]), c)) for c in corners)
    faces: Faces = {MEGAMINX_NAMES[i]: (tuple(_unit(n)), level) for i, n in enumerate(order)}
    return Solid("megaminx", faces, MEGAMINX_FILLS, {"corner": corner_pieces, "edge": edge_pieces},
                 moves, root="U", up=(1, 0, 0), tree=MEGAMINX_NET, level=("U", "DR"),
                 width=440.0)


def megaminx() -> Puzzle:
    """The Megaminx: 20 corners and 30 edges, twelve face turns of 72 degrees
    (its fixed centres are in the picture, not in the puzzle)."""
    return _megaminx().puzzle()


def _face_depth(normal, corners) -> float:
    """A cut between the face's own corners and the middle of the edges that
    meet the face at a corner (halfway down to the next ring of corners), a
    third of the way up from those edges: a Megaminx's proportions."""
    levels = sorted({round(float(np.dot(_unit(normal), c)), 9) for c in corners}, reverse=True)
    edges = (levels[0] + levels[1]) / 2
    return edges + (levels[0] - edges) / 3


#: the solids by puzzle name (the Skewb turned by all eight corners has the
#: fixed-corner Skewb's cuts, so its picture)
SOLIDS = {"skewb": _skewb, "dino": _dino, "pyraminx": _pyraminx,
          "pyraminx-notips": lambda: _pyraminx(tips=False), "pyraminx-faces": _pyraminx_faces,
          "jing-pyraminx": _jing_pyraminx, "ufo": _ufo, "megaminx": _megaminx}


@lru_cache(maxsize=None)
def drawing(name: str) -> Drawing:
    """The picture of the solid puzzle ``name`` (a key of :data:`SOLIDS`)."""
    return SOLIDS[name]().drawing()


def write_library(folder: Path = LIBRARY) -> dict[str, str]:
    """Write the definitions of the library into ``folder``; the files written
    (name -> text).  ``python -m puzzles.solids`` rewrites them."""
    from permgroup.formats.definition import Definition, OrbitState
    from permgroup.formats.kpuzzle import to_kpuzzle
    from permgroup.formats.ksolve import to_ksolve
    from permgroup.formats.stickers import from_puzzle
    from puzzles import cube3, minicube

    cube = from_puzzle(cube3.PUZZLE, "3x3x3")
    two_gen = Definition("3x3x3 <R, U>", cube.orbits, cube.solved,
                         {m: cube.moves[m] for m in ("R", "U")})
    corners = from_puzzle(minicube.PUZZLE, "2x2x2")
    layers = tuple(0 if any(minicube.GEOMETRY.face_of(s) == "U" for s in piece) else 1
                   for piece in minicube.PUZZLE.pieces["corner"])
    two_colour = Definition("2x2x2 top and bottom", corners.orbits,
                            {"corner": OrbitState(layers, (0,) * 8)}, corners.moves)
    # Kociemba's phase 1 as a puzzle: corners alike, and of the edges only which
    # four sit in the middle layer; twists and flips kept (|G : H| = 2,217,093,120)
    middle = tuple(0 if not {cube3.GEOMETRY.face_of(s) for s in piece} & {"U", "D"} else 1
                   for piece in cube3.PUZZLE.pieces["edge"])
    phase1 = Definition("3x3x3 phase 1", cube.orbits,
                        {"corner": OrbitState((0,) * 8, (0,) * 8),
                         "edge": OrbitState(middle, (0,) * 12)}, cube.moves)
    files = {
        "skewb.tws": to_ksolve(from_puzzle(skewb(), "skewb")),
        "dino.tws": to_ksolve(from_puzzle(dino(), "dino")),
        "pyraminx.tws": to_ksolve(from_puzzle(pyraminx(), "pyraminx")),
        "pyraminx-notips.tws": to_ksolve(from_puzzle(pyraminx(False), "pyraminx-notips")),
        "pyraminx-faces.tws": to_ksolve(from_puzzle(pyraminx_faces(), "pyraminx-faces")),
        "jing-pyraminx.tws": to_ksolve(from_puzzle(jing_pyraminx(), "jing-pyraminx")),
        "ufo.tws": to_ksolve(from_puzzle(ufo(), "ufo")),
        "megaminx.kpuzzle.json": to_kpuzzle(from_puzzle(megaminx(), "megaminx")),
        "2x2x2.kpuzzle.json": to_kpuzzle(corners),
        "3x3x3.kpuzzle.json": to_kpuzzle(cube),
        "3x3x3-2gen.tws": to_ksolve(two_gen),
        "3p1.tws": to_ksolve(phase1),
        "2x2x2-layers.tws": to_ksolve(two_colour),
    }
    folder.mkdir(parents=True, exist_ok=True)
    for file, text in files.items():
        (folder / file).write_text(text)
    return files


if __name__ == "__main__":  # pragma: no cover
    for written in write_library():
        print(LIBRARY / written)
