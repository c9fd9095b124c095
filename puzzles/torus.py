"""The rows x cols torus: shift any row or column cyclically (Kattis rubiksrevenge).

Cells are numbered row by row, ``i * cols + j``.  Each row has a generator
``row{i}`` (shift right: the cell in column ``j`` moves to column ``j + 1``)
and each column a generator ``col{j}`` (shift down); their inverses ``row{i}'``
(left) and ``col{j}'`` (up) complete the quarter-turn metric, 16 moves on the
4x4 board.  The moves generate the whole symmetric group of the cells (order
``16! = 20,922,789,888,000`` for 4x4), except when both sides are odd: then
every shift is an odd-length cycle, an even permutation, and the group is the
alternating group (half as large).  Colourings do not see the difference, as
swapping two cells of one colour is odd.

The solved board has row ``i`` in colour ``COLOURS[i]`` (``RRRR / GGGG / BBBB /
YYYY``).  A state is a colouring: ``cols`` cells of each of ``rows`` colours,
``16! / 4!^4 = 63,063,000`` of them on the 4x4 board, each a coset of the
colour-preserving subgroup (see :mod:`permgroup.spaces.colouring` for why a distance is
then not the entry of ``p⁻¹q``).  The distance table of all colourings is built
by :func:`table` (and cached); without it, :func:`distance` and :func:`solve`
meet in the middle with a bidirectional search.

>>> distance("GRRRBGGGYBBBRYYY")   # column 0 shifted up once
1
>>> solve("GRRRBGGGYBBBRYYY")
['col0']
>>> print(grid(apply_moves(GOAL, "col1'")))
RGRR
GBGG
BYBB
YRYY
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from permgroup.tables.colouring_table import cached_distance
from permgroup.errors import InputError, require_string
from permgroup.metric import metric_moves
from permgroup.perm import act, compose_all, from_cycles
from permgroup.puzzle import Puzzle
from permgroup.words import word_text
from permgroup.formats.definition import Definition
from permgroup.formats.stickers import definition_of

if TYPE_CHECKING:  # pragma: no cover
    from permgroup.progress import Progress
    from permgroup.tables.colouring_table import ColouringTable
    from permgroup.spaces.colouring import ColouringSpace

#: the colour of each row of the solved board, top to bottom
COLOURS = "RGBYOWKP"


def cell(i: int, j: int, cols: int) -> int:
    """The index of the cell in row ``i``, column ``j``.

    >>> cell(1, 2, 4)
    6
    """
    return i * cols + j


def torus_puzzle(rows: int = 4, cols: int = 4) -> Puzzle:
    """The torus with ``rows`` x ``cols`` cells, its row and column shifts.

    >>> p = torus_puzzle(2, 3)
    >>> p.generators["row1"], "".join(p.solved)
    ((0, 1, 2, 4, 5, 3), 'RRRGGG')
    """
    if not (2 <= rows <= len(COLOURS) and cols >= 2):
        raise ValueError(f"a torus needs 2..{len(COLOURS)} rows and at least 2 columns")
    n = rows * cols
    generators = {}
    for i in range(rows):
        generators[f"row{i}"] = from_cycles([[cell(i, j, cols) for j in range(cols)]], n)
    for j in range(cols):
        generators[f"col{j}"] = from_cycles([[cell(i, j, cols) for i in range(rows)]], n)
    solved = tuple(COLOURS[i] for i in range(rows) for _ in range(cols))
    name = "torus" if (rows, cols) == (4, 4) else f"torus{rows}x{cols}"
    return Puzzle(name, n, generators, solved, renderer=f"permgroup.drawing:grid({n}, {cols})")


PUZZLE = torus_puzzle(4, 4)
GOAL = "".join(PUZZLE.solved)


def shape(puzzle: Puzzle = PUZZLE) -> tuple[int, int]:
    """``(rows, cols)`` of a torus puzzle.

    >>> shape(torus_puzzle(3, 5))
    (3, 5)
    """
    rows = sum(1 for name in puzzle.generators if name.startswith("row"))
    return rows, puzzle.degree // rows


def describe(move: str) -> str:
    """A move name in words.

    >>> describe("row2'"), describe("col0")
    ('row 2 left', 'column 0 down')
    """
    back = move.endswith("'")
    base = move.rstrip("'")
    if base.startswith("row"):
        return f"row {base[3:]} {'left' if back else 'right'}"
    return f"column {base[3:]} {'up' if back else 'down'}"


@cache
def _space(puzzle: Puzzle) -> ColouringSpace:
    from permgroup.tables.colouring_table import colouring_space

    return colouring_space(puzzle, "qtm")


def space(puzzle: Puzzle = PUZZLE) -> ColouringSpace:
    """The colourings of ``puzzle`` with its 16 (``2 (rows + cols)``) moves.

    >>> small = space(torus_puzzle(2, 3))  # 6! / (3! 3!) colourings
    >>> small.size, small.move_names
    (20, ['row0', "row0'", 'row1', "row1'", 'col0', 'col1', 'col2'])
    >>> space().size  # the 4x4 board: 16! / 4!^4 (no table is built)
    63063000
    """
    return _space(puzzle)


def moves(puzzle: Puzzle = PUZZLE) -> dict:
    """The quarter-turn moves by name, in array form.

    >>> len(moves()), moves()["row0"][:4]
    (16, (1, 2, 3, 0))
    >>> sorted(moves(torus_puzzle(2, 3)))  # a 2-cycle is its own inverse: no col0'
    ['col0', 'col1', 'col2', 'row0', "row0'", 'row1', "row1'"]
    """
    return metric_moves(puzzle, "qtm")


def check_state(state: str, puzzle: Puzzle = PUZZLE, what: str = "board") -> None:
    """Raise :class:`InputError` unless ``state`` is a board of this torus: one
    colour of the solved board per cell, each as often as in the solved board.

    >>> check_state("RRRGGG", torus_puzzle(2, 3))  # fine: returns None
    >>> check_state("RRRRGG", torus_puzzle(2, 3))
    Traceback (most recent call last):
        ...
    permgroup.errors.InputError: board: expected each colour 3 times, got Rx4, Gx2
    >>> check_state("RRRGGB", torus_puzzle(2, 3), "case 1")
    Traceback (most recent call last):
        ...
    permgroup.errors.InputError: case 1, row 2, column 3: unknown colour 'B' (expected one of R G)
    """
    require_string(state, what, "a board string, one colour letter per cell")
    rows, cols = shape(puzzle)
    if len(state) != rows * cols:
        raise InputError(f"{what}: expected {rows * cols} cells, got {len(state)}")
    palette = COLOURS[:rows]
    for k, c in enumerate(state):
        if c not in palette:
            raise InputError(f"{what}, row {k // cols + 1}, column {k % cols + 1}: "
                             f"unknown colour {c!r} (expected one of {' '.join(palette)})")
    counts = {c: state.count(c) for c in palette}
    if any(v != cols for v in counts.values()):
        shown = ", ".join(f"{c}x{v}" for c, v in counts.items())
        raise InputError(f"{what}: expected each colour {cols} times, got {shown}")


_TABLES: dict[Puzzle, ColouringTable] = {}


def table(metric: str = "qtm", progress: Progress | None = None,
          puzzle: Puzzle = PUZZLE) -> ColouringTable:
    """The distance table of every colouring to the solved board (loaded from the
    cache, or built by BFS and cached: about 63 MB for the 4x4 board).

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> t = table(puzzle=torus_puzzle(2, 4))  # 70 colourings, built in a moment
    >>> t.distribution(), t.depth("GRRRRGGG")
    ([1, 4, 14, 34, 17], 1)
    """
    from permgroup.tables.registry import load_or_build

    if metric != "qtm":
        raise InputError(f"unknown metric {metric!r}: the torus has one metric, 'qtm' "
                         "(one shift per move)")
    if puzzle not in _TABLES:
        _TABLES[puzzle] = load_or_build(puzzle, "qtm", states="colourings", progress=progress)
    return _TABLES[puzzle]


def cached_table(puzzle: Puzzle = PUZZLE) -> ColouringTable | None:
    """The table if it is in the cache (never builds it).

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> small = torus_puzzle(2, 4)
    >>> cached_table(small) is None  # nothing in the (new, empty) cache yet
    True
    >>> built = table(puzzle=small)
    >>> cached_table(small) is built
    True
    """
    from permgroup.tables.registry import load_or_build

    if puzzle not in _TABLES:
        found = load_or_build(puzzle, "qtm", states="colourings", build=False)
        if found is None:
            return None
        _TABLES[puzzle] = found
    return _TABLES[puzzle]


def distance(a: str, b: str | None = None, puzzle: Puzzle = PUZZLE) -> int:
    """Least number of shifts from board ``a`` to board ``b`` (default solved).

    A lookup when the table is cached and ``b`` is the solved board up to the
    names of the colours (in plain Python: numpy is not even imported); a
    bidirectional search otherwise.

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> distance(apply_moves(GOAL, "col0 row0 col2'"))  # by search: no table is cached
    3
    >>> small = torus_puzzle(2, 3)
    >>> distance("GRRRGG", "RGRRGG", small)
    1
    """
    b = "".join(puzzle.solved) if b is None else b
    check_state(a, puzzle, "first board")
    check_state(b, puzzle, "second board")
    found = cached_distance(puzzle, "qtm", a, b)
    if found is not None:
        return found
    from permgroup.search.meet import search_distance

    return search_distance(space(puzzle), a, b)


def solve(a: str, b: str | None = None, puzzle: Puzzle = PUZZLE) -> list[str]:
    """An optimal list of shifts (``"row1"``, ``"col3'"``) from ``a`` to ``b``:
    down the table when it is cached, else by bidirectional search.

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> board = apply_moves(GOAL, "col0 row0")
    >>> board, solve(board)
    ('RYRRRGGGGBBBBYYY', ["row0'", "col0'"])
    >>> solve("RGRRGG", puzzle=torus_puzzle(2, 3))
    ['row1', 'col1']
    """
    from permgroup.search.meet import search_path

    b = "".join(puzzle.solved) if b is None else b
    check_state(a, puzzle, "first board")
    check_state(b, puzzle, "second board")
    return search_path(space(puzzle), a, b, table=cached_table(puzzle))


def apply_moves(state: str, names: str | Sequence[str], puzzle: Puzzle = PUZZLE) -> str:
    """The board after the shifts ``names`` (``"row0 col2'"`` or a list).

    >>> apply_moves(GOAL, "row0")
    'RRRRGGGGBBBBYYYY'
    >>> apply_moves("RGBYGGGGBBBBRYYY", "row0'")
    'GBYRGGGGBBBBRYYY'
    """
    require_string(state, "board", "a board string, one colour letter per cell")
    names = word_text(names, "apply_moves").split()
    try:
        perm = compose_all([puzzle.move_array(m) for m in names], puzzle.degree)
    except KeyError as exc:
        raise InputError(str(exc.args[0])) from None
    return "".join(act(state, perm))


def grid(state: str, cols: int = 4) -> str:
    """The board as lines of ``cols`` letters.

    >>> print(grid("RRRRGGGGBBBBYYYY"))
    RRRR
    GGGG
    BBBB
    YYYY
    """
    return "\n".join(state[k:k + cols] for k in range(0, len(state), cols))


@cache
def definition() -> Definition:
    """The one model of the 4x4 torus (what the PUZZLE names ``torus`` and
    ``rubiksrevenge`` resolve to): sixteen cells, four of each colour alike,
    and its own colouring table (built when first asked: finding the pieces
    takes numpy, which a cached lookup does without).

    >>> definition().puzzle is PUZZLE, definition().solved["P1"].pieces[:6]
    (True, (0, 0, 0, 0, 1, 1))
    """
    return definition_of(PUZZLE, hooks={"table": table})
