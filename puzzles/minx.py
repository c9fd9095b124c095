"""Dodecahedra of any number of layers, cut from geometry: the Megaminx (3
layers), Gigaminx (5), Teraminx (7), Petaminx (9), Examinx (11), Zettaminx
(13) and Yottaminx (15).

Each face has ``m = (layers - 1) / 2`` cuts parallel to it, the deepest at
the Megaminx's depth (:func:`puzzles.solids._face_depth`) and the others
evenly between it and the face; a sticker is a cell of a face cut by every
cut plane (:func:`puzzles.nets.cells`), and a move turns one layer of one
face (the slab between two of its cuts, or beyond the last) by 72 degrees
clockwise seen from the face, its permutation found by turning the cells'
centres and matching them.  The middle slabs are not turned (they would turn
the whole puzzle), so the centres keep their places, as on the real puzzles.
Moves are ``F``, ``F2``... ``Fm`` for face ``F`` (``F`` its outer layer).

These are for measuring the group algorithms on big puzzles (the GAP files
``benchmarks/bench_groups.py`` writes); the 3-layer one is the library's
Megaminx's group with its centres added:

>>> from permgroup.orbit_chain import puzzle_chain
>>> p = minx(3)
>>> p.degree, len(p.generators), puzzle_chain(p).order == puzzle_chain(megaminx()).order
(132, 12, True)
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from permgroup.puzzle import Puzzle
from puzzles.nets import cells, face_polygons
from puzzles.solids import (MEGAMINX_NAMES, _face_depth, _rotation, _unit, dodecahedron,
                            megaminx)

#: the common names by number of layers
NAMES = {3: "megaminx", 5: "gigaminx", 7: "teraminx", 9: "petaminx", 11: "examinx",
         13: "zettaminx", 15: "yottaminx"}


def _dodecahedron() -> tuple[list[np.ndarray], list[tuple[float, ...]]]:
    """The face normals (in the library Megaminx's order of names) and corners."""
    normals, corners = dodecahedron()
    order = sorted(normals, key=lambda n: (-n[1], -n[2], n[0]))
    return [_unit(n) for n in order], corners


@lru_cache(maxsize=8)
def minx(layers: int) -> Puzzle:
    """The dodecahedron of ``layers`` layers (odd, at least 3) as sticker
    moves (see the module docstring)."""
    if layers < 3 or layers % 2 == 0:
        raise ValueError(f"a minx has an odd number of layers, at least 3 (got {layers})")
    m = (layers - 1) // 2
    normals, corners = _dodecahedron()
    level = max(float(np.dot(normals[0], c)) for c in corners)
    deepest = _face_depth(normals[0] * 1.0, corners)
    depths = [deepest + (level - deepest) * j / m for j in range(m)]
    faces = {name: (tuple(n), level) for name, n in zip(MEGAMINX_NAMES, normals)}
    polygons = face_polygons(faces)
    planes = [(tuple(n), d) for n in normals for d in depths]
    centres, normal_of = [], []
    for name, n in zip(MEGAMINX_NAMES, normals):
        for cell in cells(polygons[name], n, planes):
            centres.append(sum(cell) / len(cell))
            normal_of.append(n)
    points = np.array([np.concatenate([c, n]) for c, n in zip(centres, normal_of)])
    bounds = depths + [level + 1.0]
    moves = {}
    for name, n in zip(MEGAMINX_NAMES, normals):
        turn = _rotation(n, 2 * math.pi / 5)
        heights = points[:, :3] @ n
        for j in range(m):
            inside = np.nonzero((heights > bounds[m - 1 - j]) & (heights < bounds[m - j]))[0]
            image = np.arange(len(points))
            moved = np.concatenate([points[inside, :3] @ turn.T, points[inside, 3:] @ turn.T],
                                   axis=1)
            gaps = np.linalg.norm(points[None, :, :] - moved[:, None, :], axis=2)
            image[inside] = np.argmin(gaps, axis=1)
            if gaps[np.arange(len(inside)), image[inside]].max() > 1e-6:  # pragma: no cover
                raise ValueError(f"minx({layers}): move {name} takes a sticker off the puzzle")
            moves[name if j == 0 else f"{name}{j + 1}"] = tuple(int(x) for x in image)
    return Puzzle(NAMES.get(layers, f"minx-{layers}"), len(points), moves,
                  solved=tuple(range(len(points))))


__all__ = ["minx", "NAMES", "megaminx"]
