"""Concrete puzzles built on the :mod:`permgroup` engine, and their formats.

The engine knows no particular puzzle: this package fills its catalog
(:mod:`permgroup.catalog`) through the entry point that ``pyproject.toml``
declares (:func:`puzzles.catalog.register`).  ``PUZZLES`` maps a built-in
puzzle's command-line name to its module, whose ``definition()`` is its one
model (a :class:`~permgroup.formats.definition.Definition` with the module's
``PUZZLE`` as its sticker view and, where it has them, its own table and
guarded moves); ``LIBRARY`` maps the names of the definition files in
``puzzles/definitions`` (written from geometry by :mod:`puzzles.solids`) to
their paths; :mod:`puzzles.families` holds the families (``lrx-N``...) and
:mod:`puzzles.formats` the contest formats.

:func:`resolve` (:func:`permgroup.formats.resolve`) turns any PUZZLE argument
into its definition; :func:`puzzle_names` lists every name with one line.

>>> sorted(LIBRARY)[:3], LIBRARY["skewb"].name
(['2x2x2', '2x2x2-layers', '3p1'], 'skewb.tws')
>>> resolve("minicube").puzzle is __import__("puzzles.minicube").minicube.PUZZLE
True
"""
from __future__ import annotations

from pathlib import Path

from permgroup.catalog import (  # noqa: F401 (the engine's, named here too)
    FILE_HINT,
    definition_summary,
    module_summary,
    puzzle_names,
)
from permgroup.formats import resolve  # noqa: F401 (the one door)

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
