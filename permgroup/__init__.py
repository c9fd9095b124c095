"""permgroup: the groups behind permutation puzzles, explored with sympy, numpy
and networkx.

Where to start:

* :mod:`permgroup.explore`: questions about a puzzle's group (order, orbits,
  distance tables, shortest words, a widget to turn it in Jupyter)::

      from permgroup import explore
      cube = explore.load_puzzle("minicube")  # any name, family member or file
      explore.order(cube)                     # 88179840
      explore.distribution(cube)              # states at each distance (a bar chart in Jupyter)

* :mod:`permgroup.puzzle` (a puzzle: moves as sympy permutations of stickers),
  :mod:`permgroup.elements` (group elements and states), :mod:`permgroup.words`
  (move sequences), :mod:`permgroup.cayley` (Cayley graphs for networkx),
  :func:`permgroup.solve` (a checked word between any two states of any puzzle, the
  one solve path: :mod:`permgroup.solution`), :mod:`permgroup.optimal`
  (optimal words for lines of moves), :mod:`permgroup.structure`
  (what a group is), :mod:`permgroup.drawing` (pictures), :mod:`permgroup.cache`
  (tables on disk), :mod:`permgroup.progress` (progress bars),
  :mod:`permgroup.widget` (the Jupyter widget);
* ``formats/`` (puzzle definition files), ``tables/`` (ranked spaces and their
  BFS tables), ``search/`` (past what a table holds);
* :mod:`permgroup.catalog`: every puzzle name, family, contest format and
  picture, filled by plugins (the ``puzzles`` package of this repository: the
  2x2x2, 3x3x3, torus, cubic eight-puzzle, families and a library of
  definition files: Skewb, Pyraminx, Dino, Megaminx...), and ``resolve``,
  the one door from a PUZZLE argument to its definition;
* the command line: ``permgroup --help``.

Modules are imported when first used (``permgroup.explore`` works after
``import permgroup``), so the command line starts without numpy or sympy.

>>> import permgroup
>>> permgroup.explore.order(permgroup.explore.load_puzzle("skewb"))
3149280
"""
from __future__ import annotations

import importlib
import importlib.util

__version__ = "0.1.0"


def solve(puzzle, start, goal=None, **options):
    """A checked word taking ``start`` to ``goal`` (default: solved) on any
    puzzle: :func:`permgroup.solution.solve`, the one solve path (its options:
    ``metric``, ``time_limit``, ``memory``...).

    >>> found = solve("skewb", "URF URB")
    >>> found.word, found.optimal
    (["URB'", "URF'"], True)
    """
    from permgroup.solution import solve as solve_path

    return solve_path(puzzle, start, goal, **options)


def __getattr__(name: str):
    """Submodules are reachable as attributes, imported on first use."""
    if not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
