"""Concrete puzzles built on the :mod:`permgroup` engine, and their formats.

``PUZZLES`` maps a puzzle's command-line name to its module; each module has a
``PUZZLE`` (:class:`permgroup.puzzle.Puzzle`) and ``table(metric, progress=None)``
returning an object with ``distribution()``.
"""

PUZZLES = {
    "minicube": "puzzles.minicube",
    "cube3": "puzzles.cube3",
    "rubiksrevenge": "puzzles.torus",
    "torus": "puzzles.torus",
    "cubic-eight": "puzzles.cubic_eight",
    "poj3131": "puzzles.cubic_eight",
}
