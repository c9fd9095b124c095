"""Concrete puzzles built on the :mod:`permgroup` engine, and their formats.

``PUZZLES`` maps a puzzle's command-line name to its module; each module has a
``PUZZLE`` (:class:`permgroup.puzzle.Puzzle`) and ``table(metric)``.
"""

PUZZLES = {
    "minicube": "puzzles.minicube",
}
