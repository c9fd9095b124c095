"""The one route from a puzzle to its table, and the one way tables are cached.

* the puzzle the tables see (:func:`working_puzzle`), its space and size before
  anything is built (:func:`element_space`, :func:`table_size`), and the table
  itself, kept in memory and cached on disk (:func:`table`): the command line,
  :mod:`permgroup.explore`, :mod:`permgroup.oracle`, :mod:`permgroup.optimal`
  and the widget all come here;
* every cached table, pattern database or ball is a file (or files) named and
  checked one way (:func:`permgroup.cache.table_file`,
  :func:`permgroup.cache.cached_array`), which ``permgroup cache`` lists.

>>> from permgroup.puzzle import Puzzle
>>> tri = Puzzle("tri", 3, {"A": (1, 2, 0)}, pieces={"dot": ((0,), (1,), (2,))})
>>> table_size(tri), table(tri).distribution()   # ranks of S3, the 3-cycles reached
(6, [1, 2])
"""
from __future__ import annotations

from dataclasses import replace

from permgroup.metric import Metric, metric_label, metric_moves
from permgroup.normalize import Normalizer
from permgroup.puzzle import Puzzle
from permgroup.spaces.element import ElementSpace
from permgroup.tables.table import CayleyTable, load_table

#: default largest table built, in entries (one byte each; the BFS needs about
#: nine more bytes per entry at its peak)
MAX_ENTRIES = 100_000_000
#: the largest 2-bit table worth suggesting (bytes on disk)
MAX_TIGHT_BYTES = 10 ** 12


def symmetries_inside(puzzle: Puzzle) -> int:
    """How many whole-puzzle symmetries the moves themselves generate, ``|G ∩ C|``
    (all of them when some product of moves turns the whole puzzle; only the
    identity when the moves fix positions that every symmetry moves).

    >>> symmetries_inside(Puzzle("p", 4, {"T": (1, 0, 3, 2)}, symmetries={"S": (1, 0, 3, 2)}))
    2
    """
    if not puzzle.symmetries:
        return 1
    key = puzzle.fingerprint()
    if key not in _INSIDE:
        from sympy.combinatorics import Permutation

        group = puzzle.group()
        _INSIDE[key] = sum(1 for s in puzzle.symmetry_elements()
                           if group.contains(Permutation(list(s))))
    return _INSIDE[key]


_INSIDE: dict[str, int] = {}


def state_count(puzzle: Puzzle) -> int:
    """How many elements up to whole-puzzle symmetry: ``|G| / |G ∩ C|``, the
    number of nodes of the Cayley graph and of reachable table entries.

    >>> state_count(Puzzle("p", 4, {"T": (1, 2, 3, 0)}, symmetries={"T": (1, 2, 3, 0)}))
    1
    """
    return int(puzzle.group().order()) // symmetries_inside(puzzle)


def choose_anchor(puzzle: Puzzle, metric: Metric = "qtm") -> int | None:
    """The normalization anchor for the tables built here.

    First choice: a sticker every move fixes (the table then ranks only the
    pieces the subgroup moves).  Second: a sticker for which the table's move
    names are exact, that is, every normalized move is kept under the name of
    a move that already fixes the anchor, so optimal words need no
    re-orientation between moves.  Else the engine's default (``None``).

    >>> choose_anchor(Puzzle("p", 4, {"A": (1, 0, 2, 3)}, symmetries={"s": (0, 1, 3, 2)}))
    2
    """
    if not puzzle.symmetries:
        return None
    moves = metric_moves(puzzle, metric)
    exact = None
    for x in range(puzzle.degree):
        try:
            normalizer = Normalizer.from_puzzle(puzzle, anchor=x)
        except ValueError:
            continue
        if all(m[x] == x for m in puzzle.generators.values()):
            return x
        if exact is None and all(moves[name] == m for name, m
                                 in normalizer.normalize_moves(moves).items()):
            exact = x
    return exact


def working_puzzle(puzzle: Puzzle) -> Puzzle:
    """The puzzle as the tables and graphs here see it: without its symmetries
    when none of them lies in the group (each class of states then holds
    exactly one element, so normalizing would only pick another name for
    it), and with each position a piece of its own
    when it declares no pieces.

    >>> p = working_puzzle(Puzzle("p", 3, {"A": (1, 0, 2)}, symmetries={"S": (0, 2, 1)}))
    >>> p.symmetries, p.pieces
    ({}, {'point': ((0,), (1,), (2,))})
    """
    if puzzle.symmetries and symmetries_inside(puzzle) == 1:
        puzzle = replace(puzzle, symmetries={})
    if not puzzle.pieces:
        puzzle = replace(puzzle, pieces={"point": tuple((i,) for i in range(puzzle.degree))})
    return puzzle


def element_space(puzzle: Puzzle, metric: Metric = "qtm") -> ElementSpace:
    """The space of the table (normalizer, moves, ranking) without the table, for
    :func:`working_puzzle` at :func:`choose_anchor`.

    >>> element_space(Puzzle("p", 2, {"A": (1, 0)})).size
    2
    """
    puzzle = working_puzzle(puzzle)
    return ElementSpace(puzzle, metric, anchor=choose_anchor(puzzle, metric))


def table_size(puzzle: Puzzle, metric: Metric = "qtm") -> int:
    """Entries of the distance table (one byte each), computed before building it.

    >>> table_size(Puzzle("p", 3, {"A": (1, 2, 0)}, pieces={"dot": ((0,), (1,), (2,))}))
    6
    """
    return element_space(puzzle, metric).size


_TABLES: dict[tuple[str, str], CayleyTable] = {}


def table(puzzle: Puzzle, metric: Metric = "qtm", *, max_entries: int = MAX_ENTRIES,
          progress=None) -> CayleyTable:
    """The distance table (kept in memory, cached on disk), refused with a
    ``ValueError`` saying the size when it has more than ``max_entries`` entries.

    >>> table(Puzzle("p", 3, {"A": (1, 2, 0)}, pieces={"dot": ((0,), (1,), (2,))})).diameter
    1
    """
    key = (puzzle.fingerprint(), metric_label(metric))
    if key in _TABLES:
        return _TABLES[key]
    m = element_space(puzzle, metric)
    size = m.size
    if size > max_entries:
        if size // 4 <= MAX_TIGHT_BYTES:  # a 2-bit table on disk is within reach
            advice = (f"build it at 2 bits a state ({_bytes(-(-size // 4))} on disk) with "
                      "permgroup.tables.table_space.build_tight_table(puzzle, memory='4GB') "
                      "(permgroup table PUZZLE --memory 4GB), or explore it with "
                      "cayley_graph(..., radius=r)")
        else:
            advice = ("no table of it fits anywhere, even at 2 bits a state; search instead "
                      "(explore.solve, permgroup optimal and permgroup word, within a time "
                      "limit), or explore a ball with cayley_graph(..., radius=r)")
        raise ValueError(
            f"the distance table of {puzzle.name} ({metric_label(metric)}) would have "
            f"{size:,} entries ({_bytes(size)} at one byte each), more than max_entries="
            f"{max_entries:,}; {advice}")
    # cache files carry the anchor, so a table normalized at another anchor
    # (the puzzle module's own) is never mistaken for this one
    result = load_table(m.puzzle, m.metric, progress=progress, anchor=m.normalizer.anchor)
    _TABLES[key] = result
    return result


def _bytes(n: int) -> str:
    for unit in ("bytes", "kB", "MB", "GB", "TB", "PB", "EB"):
        if n < 1000:
            return f"{n:.3g} {unit}"
        n /= 1000
    return f"{n:.3g} ZB"
