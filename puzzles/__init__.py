"""Concrete puzzles built on the :mod:`permgroup` engine, and their formats.

``PUZZLES`` maps a puzzle's command-line name to its module; each module has a
``PUZZLE`` (:class:`permgroup.puzzle.Puzzle`) and ``table(metric, progress=None)``
returning an object with ``distribution()``.  ``LIBRARY`` maps the names of the
definition files in ``puzzles/definitions`` (written from geometry by
:mod:`puzzles.solids`) to their paths.

>>> sorted(LIBRARY)[:3], LIBRARY["skewb"].name
(['2x2x2', '2x2x2-layers', '3p1'], 'skewb.tws')
"""
from pathlib import Path

PUZZLES = {
    "minicube": "puzzles.minicube",
    "cube3": "puzzles.cube3",
    "rubiksrevenge": "puzzles.torus",
    "torus": "puzzles.torus",
    "cubic-eight": "puzzles.cubic_eight",
    "poj3131": "puzzles.cubic_eight",
}

DEFINITIONS = Path(__file__).resolve().parent / "definitions"
LIBRARY = {p.name.split(".")[0]: p for p in sorted(DEFINITIONS.glob("*"))
           if p.name.endswith((".tws", ".kpuzzle.json"))}
