"""Geometry of an n x n x n cube: sticker numbering, face turns and rotations.

Axes: x to the Right, y Up, z to the Front.  Faces are numbered in URFDLB order
and each face is read row by row *as seen from outside* in the usual net::

          U
        L F R B
          D

(U's top row touches B, D's top row touches F; L, F, R, B have their top row
against U).  Sticker ``face * n*n + row * n + col`` is one position.  Every
move is computed by rotating sticker positions in space, so no permutation is
typed in by hand.  A face turn is clockwise as seen looking at that face.

>>> g = CubeGeometry(2)
>>> g.index("U", 1, 1), g.index("F", 0, 0)
(3, 8)
>>> g.face_turn("U")[g.index("R", 0, 0)] == g.index("F", 0, 0)  # U: R's top row to F
True
"""
from __future__ import annotations

from functools import lru_cache
from itertools import permutations

from permgroup.perm import Perm, inverse

FACES = "URFDLB"
# outward normal of each face
NORMALS = {
    "U": (0, 1, 0), "R": (1, 0, 0), "F": (0, 0, 1),
    "D": (0, -1, 0), "L": (-1, 0, 0), "B": (0, 0, -1),
}
Vector = tuple[int, int, int]


def _rotate(v: Vector, axis: Vector) -> Vector:
    """Rotate ``v`` by 90 degrees clockwise as seen from the tip of ``axis``."""
    x, y, z = v
    ax, ay, az = axis
    # clockwise seen from +axis is -90 degrees about it: v -> v x axis for unit axis
    cross = (y * az - z * ay, z * ax - x * az, x * ay - y * ax)
    dot = x * ax + y * ay + z * az
    return tuple(c + dot * a for c, a in zip(cross, axis))  # type: ignore[return-value]


def _det(a: Vector, b: Vector, c: Vector) -> int:
    return (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
            + a[2] * (b[0] * c[1] - b[1] * c[0]))


class CubeGeometry:
    """Sticker positions of an ``n``-cube in space, and the moves they induce.

    >>> from permgroup.perm import compose_all
    >>> g = CubeGeometry(3)
    >>> g.degree, len(g.cubies()), g.face_of(g.index("L", 2, 2))  # 8 corners + 12 edges
    (54, 20, 'L')
    >>> compose_all([g.face_turn("R")] * 4, g.degree) == tuple(range(54))
    True
    >>> g.rotation("U")[g.index("F", 1, 1)] == g.index("L", 1, 1)  # seen from above: F to L
    True
    """

    def __init__(self, n: int):
        self.n = n
        self.degree = 6 * n * n
        self.positions: list[tuple[Vector, Vector]] = []
        for face in FACES:
            for row in range(n):
                for col in range(n):
                    self.positions.append((self._centre(face, row, col), NORMALS[face]))
        self._index = {pos: i for i, pos in enumerate(self.positions)}

    def _centre(self, face: str, row: int, col: int) -> Vector:
        """Sticker centre in doubled coordinates, each in ``-(n-1)..n-1``, face at ``n``."""
        n = self.n
        c = 2 * col - (n - 1)  # left to right as seen
        r = (n - 1) - 2 * row  # top to bottom as seen
        return {
            "U": (c, n, -r), "D": (c, -n, r),
            "F": (c, r, n), "B": (-c, r, -n),
            "R": (n, r, -c), "L": (-n, r, c),
        }[face]

    def index(self, face: str, row: int, col: int) -> int:
        """The sticker number of ``face`` (a letter of URFDLB) at ``row, col``."""
        return FACES.index(face) * self.n * self.n + row * self.n + col

    def face_of(self, sticker: int) -> str:
        return FACES[sticker // (self.n * self.n)]

    def _turn(self, axis: Vector, layer: set[int] | None) -> Perm:
        image = []
        for centre, normal in self.positions:
            depth = sum(c * a for c, a in zip(centre, axis))
            if layer is None or depth in layer:
                centre, normal = _rotate(centre, axis), _rotate(normal, axis)
            image.append(self._index[(centre, normal)])
        return tuple(image)

    def face_turn(self, face: str, layers: int = 1) -> Perm:
        """Clockwise quarter turn of the outer ``layers`` layers at ``face``."""
        n = self.n
        depths = {n - 1 - 2 * k for k in range(layers)} | ({n} if layers else set())
        return self._turn(NORMALS[face], depths)

    def layer_turn(self, face: str, layer: int) -> Perm:
        """Clockwise quarter turn, seen from ``face``, of the one layer ``layer``
        deep from it (0: the face itself; ``n - 1``: the opposite face's layer).

        >>> g = CubeGeometry(3)
        >>> g.layer_turn("R", 0) == g.face_turn("R")
        True
        """
        n = self.n
        depths = {n - 1 - 2 * layer} | ({n} if layer == 0 else set()) \
            | ({-n} if layer == n - 1 else set())
        return self._turn(NORMALS[face], depths)

    def rotation(self, face: str) -> Perm:
        """Whole-cube quarter rotation, clockwise as seen from ``face``."""
        return self._turn(NORMALS[face], None)

    def reflection(self) -> Perm:
        """The mirror image through the plane between L and R (x to -x): a
        whole-cube symmetry that is no rotation.

        >>> g = CubeGeometry(2)
        >>> g.reflection()[g.index("L", 0, 0)] == g.index("R", 0, 1)
        True
        """
        return tuple(self._index[((-cx, cy, cz), (-nx, ny, nz))]
                     for (cx, cy, cz), (nx, ny, nz) in self.positions)

    def cubies(self) -> list[tuple[int, ...]]:
        """Stickers grouped by the cubie they sit on, corners and edges only.

        Each tuple starts with its U or D sticker (else F or B) and runs
        clockwise around the cubie as seen from outside.
        """
        by_cubie: dict[Vector, list[int]] = {}
        for i, (centre, normal) in enumerate(self.positions):
            cubie = tuple(c - a for c, a in zip(centre, normal))
            by_cubie.setdefault(cubie, []).append(i)
        pieces = []
        for stickers in by_cubie.values():
            if len(stickers) < 2:
                continue
            first = min(stickers, key=lambda i: _preference(self.positions[i][1]))
            rest = [i for i in stickers if i != first]
            for order in permutations(rest):
                cycle = (first,) + order
                if len(cycle) == 2 or _det(*(self.positions[i][1] for i in cycle)) < 0:
                    pieces.append(cycle)
                    break
        return sorted(pieces)


def _preference(normal: Vector) -> int:
    if normal[1]:
        return 0
    return 1 if normal[2] else 2


def net_faces(n: int) -> dict[str, tuple[int, int]]:
    """Top-left (row, column) of each face in the cross-shaped net, in stickers.

    >>> net_faces(2)
    {'U': (0, 2), 'L': (2, 0), 'F': (2, 2), 'R': (2, 4), 'B': (2, 6), 'D': (4, 2)}
    """
    return {"U": (0, n), "L": (n, 0), "F": (n, n), "R": (n, 2 * n), "B": (n, 3 * n),
            "D": (2 * n, n)}


# --- Kaggle Santa 2023 cubes ------------------------------------------------------

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
    return tuple(FACES.index(face) * n * n + k for face in SANTA_FACES for k in range(n * n))


@lru_cache(maxsize=None)
def santa_cube_moves(n: int) -> dict[str, Perm]:
    """The moves of a Santa ``cube_n/n/n`` from the cube's geometry, as the
    engine's permutations over Santa's sticker numbers."""
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
