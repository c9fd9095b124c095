"""Flattened nets of convex solids, with their stickers, as drawings.

A solid is a set of named faces, each a plane ``n . x = d`` with its outward
normal ``n``; its face polygons are found by cutting each plane with every
other face's half-space (:func:`face_polygons`).  A puzzle's cuts are planes
too: every face polygon is split by all of them (:func:`cells`), and each
sticker (a point of its piece and the normal of the face it shows) takes the
cell of that face lying on the same side of every cut as its point
(:func:`sticker_cells`).  Cells no sticker takes (centres a definition leaves
out) are kept as fixed shapes.

The net unfolds the faces along a tree of shared edges, each face seen from
outside (:func:`unfold`): the root face is laid flat with a given direction
up, and each child is turned about the edge it shares with its parent into
the parent's plane.

>>> cube = {name: (n, 1.0) for name, n in [("U", (0, 1, 0)), ("D", (0, -1, 0)), ("F", (0, 0, 1)),
...         ("B", (0, 0, -1)), ("R", (1, 0, 0)), ("L", (-1, 0, 0))]}
>>> polygons = face_polygons(cube)
>>> len(polygons["F"]), sorted({round(float(abs(c)), 6) for p in polygons["F"] for c in p})
(4, [1.0])
>>> maps = unfold(polygons, "F", (0, 1, 0), [("F", "U"), ("F", "R")])
>>> [round(float(c), 6) + 0.0 for c in maps["U"]((0, 1, 0))]  # U's centre one face above F's
[0.0, -2.0]
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from permgroup.drawing import Drawing

Vector = Sequence[float]
Plane = tuple[Vector, float]  # (normal, depth): the points x with normal . x = depth
Polygon = list[np.ndarray]

EPS = 1e-7


def _unit(v) -> np.ndarray:
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


def _clip(polygon: Polygon, normal: np.ndarray, depth: float, keep_above: bool) -> Polygon:
    """The part of a convex polygon on one side of a plane."""
    sign = 1.0 if keep_above else -1.0
    values = [sign * (float(normal @ p) - depth) for p in polygon]
    result: Polygon = []
    for k, p in enumerate(polygon):
        q, a, b = polygon[(k + 1) % len(polygon)], values[k], values[(k + 1) % len(polygon)]
        if a >= -EPS:
            result.append(p)
        if (a > EPS and b < -EPS) or (a < -EPS and b > EPS):
            result.append(p + (q - p) * (a / (a - b)))
    return result


def face_polygons(faces: Mapping[str, tuple[Vector, float]], size: float = 100.0
                  ) -> dict[str, Polygon]:
    """Each face's polygon (corners counter-clockwise seen from outside) of the
    convex solid whose face ``name`` is the plane ``normal . x = depth``, for a
    unit ``normal`` (a longer one is made unit, its depth with it)."""
    planes = {name: (_unit(n), depth / float(np.linalg.norm(n))) for name, (n, depth) in faces.items()}
    result = {}
    for name, (n, d) in planes.items():
        helper = np.array([1.0, 0, 0]) if abs(n[0]) < 0.9 else np.array([0, 1.0, 0])
        u = _unit(np.cross(n, helper))
        v = np.cross(n, u)
        centre = n * d
        polygon = [centre + size * (a * u + b * v) for a, b in ((1, 1), (-1, 1), (-1, -1), (1, -1))]
        for other, (m, e) in planes.items():
            if other != name:
                polygon = _clip(polygon, m, e, keep_above=False)
        if len(polygon) < 3:
            raise ValueError(f"face {name} is no face of the solid")
        result[name] = polygon
    return result


def _area(polygon: Polygon, normal: np.ndarray) -> float:
    total = np.zeros(3)
    for k, p in enumerate(polygon):
        total += np.cross(p, polygon[(k + 1) % len(polygon)])
    return abs(float(total @ normal)) / 2


def cells(polygon: Polygon, normal: Vector, planes: Sequence[Plane]) -> list[Polygon]:
    """A face polygon cut by every plane into cells (slivers of no area
    dropped: a plane through a corner cuts nothing)."""
    n = _unit(normal)
    parts = [polygon]
    scale = max(float(np.linalg.norm(p)) for p in polygon)
    for axis, depth in planes:
        a = np.asarray(axis, dtype=float)
        next_parts = []
        for part in parts:
            values = [float(a @ p) - depth for p in part]
            if max(values) > EPS and min(values) < -EPS:
                for side in (True, False):
                    piece = _clip(part, a, depth, side)
                    if len(piece) >= 3 and _area(piece, n) > 1e-9 * scale * scale:
                        next_parts.append(piece)
            else:
                next_parts.append(part)
        parts = next_parts
    return parts


def _side(point, planes: Sequence[Plane]) -> tuple[bool, ...]:
    return tuple(float(np.dot(axis, point)) > depth for axis, depth in planes)


def sticker_cells(polygons: Mapping[str, Polygon], normals: Mapping[str, Vector],
                  planes: Sequence[Plane], stickers: Sequence[tuple[Vector, Vector]]
                  ) -> tuple[list[tuple[str, Polygon]], list[tuple[str, Polygon]]]:
    """For each sticker ``(point, normal)``: its face and cell; then the cells
    no sticker takes, with their faces.  ``ValueError`` when a sticker lies on
    a cut, shows no face of the solid, or finds no cell or a taken one."""
    for k, (point, _) in enumerate(stickers):
        for axis, depth in planes:
            if abs(float(np.dot(axis, point)) - depth) < 1e-6:
                raise ValueError(f"sticker {k}: its point {tuple(point)} lies on a cut")
    found: dict[tuple[str, tuple[bool, ...]], Polygon] = {}
    for name, polygon in polygons.items():
        for cell in cells(polygon, normals[name], planes):
            found[(name, _side(sum(cell) / len(cell), planes))] = cell
    units = {name: _unit(n) for name, n in normals.items()}
    result = []
    for k, (point, normal) in enumerate(stickers):
        face = max(units, key=lambda name: float(units[name] @ _unit(normal)))
        if float(units[face] @ _unit(normal)) < 1 - 1e-6:
            raise ValueError(f"sticker {k} shows no face of the solid (normal {tuple(normal)})")
        key = (face, _side(point, planes))
        if key not in found:
            raise ValueError(f"sticker {k}: no cell of face {face} on its sides of the cuts")
        result.append((face, found.pop(key)))
    return result, [(face, cell) for (face, _), cell in found.items()]


def unfold(polygons: Mapping[str, Polygon], root: str, up: Vector,
           tree: Sequence[tuple[str, str]]) -> dict[str, Callable[[Vector], np.ndarray]]:
    """A map from each face of the net (3-D points on it) to the plane of the
    picture (x right, y down): ``root`` laid flat with ``up`` upwards, and
    each ``(parent, child)`` of ``tree`` (parents placed first) turned about
    the edge they share."""
    def normal_of(name: str) -> np.ndarray:
        p = polygons[name]
        return _unit(np.cross(p[1] - p[0], p[2] - p[1]))

    n = normal_of(root)
    top = _unit(np.asarray(up, float) - (np.asarray(up, float) @ n) * n)
    right = np.cross(top, n)
    origin = sum(polygons[root]) / len(polygons[root])
    maps: dict[str, Callable[[Vector], np.ndarray]] = {
        root: lambda x: np.array([(np.asarray(x) - origin) @ right, -((np.asarray(x) - origin) @ top)])}
    for parent, child in tree:
        if parent not in maps:
            raise ValueError(f"net: {parent} is placed after its child {child}")
        shared = [p for p in polygons[parent]
                  if any(np.linalg.norm(p - q) < 1e-6 for q in polygons[child])]
        if len(shared) != 2:
            raise ValueError(f"net: faces {parent} and {child} share no edge")
        a, b = shared
        to_parent = maps[parent]
        a2, b2 = to_parent(a), to_parent(b)
        d3 = _unit(b - a)
        centre = sum(polygons[child]) / len(polygons[child])
        w3 = centre - a - ((centre - a) @ d3) * d3
        w3 = _unit(w3)
        d2 = (b2 - a2) / np.linalg.norm(b2 - a2)
        w2 = np.array([-d2[1], d2[0]])
        parent_centre = to_parent(sum(polygons[parent]) / len(polygons[parent]))
        if (parent_centre - a2) @ w2 > 0:
            w2 = -w2
        maps[child] = (lambda a, a2, d3, w3, d2, w2: lambda x: a2 + ((np.asarray(x) - a) @ d3) * d2
                       + ((np.asarray(x) - a) @ w3) * w2)(a, a2, d3, w3, d2, w2)
    return maps


def net_drawing(polygons: Mapping[str, Polygon], root: str, up: Vector,
                tree: Sequence[tuple[str, str]], stickers: Sequence[tuple[str, Polygon]],
                fills: Mapping[str, str], fixed: Sequence[tuple[str, Polygon]] = (),
                width: float = 320.0, margin: float = 2.0,
                level: tuple[str, str] | None = None) -> Drawing:
    """The :class:`~permgroup.drawing.Drawing` of stickers ``(face, 3-D
    polygon)`` in the net (faces filled by ``fills``), scaled to ``width``
    pixels; fixed cells of faces in the net are drawn too.  ``level``: two
    faces whose centres the net is turned to put side by side, left to right."""
    maps = unfold(polygons, root, up, tree)
    missing = {face for face, _ in stickers} - set(maps)
    if missing:
        raise ValueError(f"net: faces {sorted(missing)} hold stickers but are not in the net")
    turn = np.eye(2)
    if level is not None:
        a, b = (maps[f](sum(polygons[f]) / len(polygons[f])) for f in level)
        c, s = (b - a) / np.linalg.norm(b - a)
        turn = np.array([[c, s], [-s, c]])
    flat = [[turn @ maps[face](p) for p in polygon] for face, polygon in stickers]
    rest = [(face, [turn @ maps[face](p) for p in polygon]) for face, polygon in fixed
            if face in maps]
    every = np.array([p for polygon in flat + [r for _, r in rest] for p in polygon])
    low, high = every.min(axis=0), every.max(axis=0)
    scale = (width - 2 * margin) / max(high[0] - low[0], 1e-9)

    def place(polygon) -> tuple[tuple[float, float], ...]:
        return tuple((float((x - low[0]) * scale + margin), float((y - low[1]) * scale + margin))
                     for x, y in polygon)

    return Drawing(tuple(place(p) for p in flat), tuple(fills[face] for face, _ in stickers),
                   width, float((high[1] - low[1]) * scale + 2 * margin),
                   fixed=tuple((place(p), fills[face]) for face, p in rest))
