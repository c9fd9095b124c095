"""The Cubic Eight-Puzzle (POJ 3131): eight cubes rolling on a 3x3 board.

The board's cells are numbered row by row, ``cell = 3 * (y - 1) + (x - 1)``
for column ``x`` (1..3, left to right) and row ``y`` (1..3, top to bottom).
Axes as in :mod:`puzzles.cube_geometry` (x Right, y Up, z Front) with the rows
growing toward the front: a cube rolling "south" (to row ``y + 1``) rolls
toward +z, "east" (to column ``x + 1``) toward +x.

Each cell has six *face slots*, one per face of a cube standing on it,
numbered ``6 * cell + f`` with ``f`` in URFDLB order.  A state colours the 54
slots: the cubes' faces W, R, B (opposite faces alike; every cube starts with
W on top, R in front, B on the right) and ``E`` on all six slots of the empty
cell.

A *roll* ``"xyD"`` (the cube at column x, row y rolls one cell toward D, one
of N S E W) is a permutation of the 54 slots: the cube's six slots go to the
neighbouring cell, turned by the quarter rotation that takes its top face to
the side it rolls toward (found among the rotations of
:class:`~puzzles.cube_geometry.CubeGeometry`), and the empty cell's slots come
back.  Its guard (:mod:`permgroup.spaces.partial`): the target cell shows ``E``.
Everything else, the six ways a cube can look and the ranking of the
9 * 6**8 states, the engine derives (:class:`permgroup.spaces.hole.HoleSpace`).

The goal is a pattern of top colours, ``E`` for the empty cell: it stands for
2**8 states, and its distance from a start is the least BFS depth among them.
For each start cell one BFS over the whole space gives every depth; the least
over each pattern's states makes a 59,049-entry pattern table, cached, so an
answer is one byte read from a file.

>>> start = start_state(cell_of(2, 1))
>>> tops(PARTIAL.apply(start, ["11E", "12N", "13N"]))
'RBWRWWEWW'
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from permgroup.cache import cached_array
from permgroup.drawing import Drawing
from permgroup.errors import InputError, UnreachableError, require_string, require_whole
from permgroup.spaces.hole import HoleSpace, View
from permgroup.spaces.partial import PartialPuzzle
from permgroup.perm import Perm, act
from permgroup.puzzle import Puzzle
from permgroup.progress import Progress
from permgroup.tables.store import UNSEEN, DepthTable, table_cache
from permgroup.formats.definition import Definition
from permgroup.formats.stickers import definition_of
from puzzles.cube_geometry import FACES, NORMALS, CubeGeometry

SIDE = 3
CELLS = SIDE * SIDE
CENTRE = 4
EMPTY = "E"
#: the colours of a cube in its starting orientation; opposite faces alike
CUBE_COLOURS = {"U": "W", "D": "W", "F": "R", "B": "R", "R": "B", "L": "B"}
#: direction letter -> (column step, row step); rows grow toward the front (+z)
DIRECTIONS = {"N": (0, -1), "S": (0, 1), "W": (-1, 0), "E": (1, 0)}
DEFAULT_MAX_DEPTH = 30

_CUBE = CubeGeometry(1)  # one sticker per face: the six faces of a cube, URFDLB
#: the quarter turns of one cube, clockwise as seen from each face
QUARTER_TURNS = [_CUBE.rotation(f) for f in FACES]
TOP = FACES.index("U")


def cell_of(x: int, y: int) -> int:
    """The cell number of column ``x``, row ``y`` (both 1..3).

    >>> cell_of(1, 1), cell_of(3, 1), cell_of(1, 2)
    (0, 2, 3)
    """
    return SIDE * (y - 1) + (x - 1)


def xy_of(cell: int) -> tuple[int, int]:
    """Column and row (1-based) of a cell.

    >>> xy_of(5)
    (3, 2)
    """
    return cell % SIDE + 1, cell // SIDE + 1


def roll_rotation(direction: str) -> Perm:
    """How a cube's faces move when it rolls toward ``direction``: the quarter
    turn taking its top face to that side, and that side to the bottom.

    >>> r = roll_rotation("E")
    >>> FACES[r[FACES.index("U")]], FACES[r[FACES.index("R")]]
    ('R', 'D')
    """
    dx, dy = DIRECTIONS[direction]
    side = FACES.index(next(f for f, n in NORMALS.items() if n == (dx, 0, dy)))
    bottom = FACES.index("D")
    turns = [r for r in QUARTER_TURNS if r[TOP] == side and r[side] == bottom]
    (turn,) = turns
    return turn


def _roll(source: int, target: int, turn: Perm) -> Perm:
    image = list(range(6 * CELLS))
    for f in range(6):
        image[6 * source + f] = 6 * target + turn[f]
        image[6 * target + f] = 6 * source + f
    return tuple(image)


def _rolls() -> tuple[dict[str, Perm], dict[str, dict[int, str]]]:
    moves, guards = {}, {}
    turns = {direction: roll_rotation(direction) for direction in DIRECTIONS}
    for cell in range(CELLS):
        x, y = xy_of(cell)
        for direction, (dx, dy) in DIRECTIONS.items():
            if 1 <= x + dx <= SIDE and 1 <= y + dy <= SIDE:
                target = cell_of(x + dx, y + dy)
                name = f"{x}{y}{direction}"
                moves[name] = _roll(cell, target, turns[direction])
                guards[name] = {6 * target + f: EMPTY for f in range(6)}
    return moves, guards


def start_state(empty: int) -> tuple[str, ...]:
    """Every cube in the starting orientation, the cell ``empty`` empty.

    >>> start_state(0)[:12]  # cell 0 empty, then cell 1's faces in URFDLB order
    ('E', 'E', 'E', 'E', 'E', 'E', 'W', 'B', 'R', 'W', 'B', 'R')
    """
    return tuple(EMPTY if cell == empty else CUBE_COLOURS[f]
                 for cell in range(CELLS) for f in FACES)


ROLLS, GUARDS = _rolls()
PUZZLE = Puzzle(name="cubic-eight", degree=6 * CELLS, generators=ROLLS,
                solved=start_state(CENTRE), renderer="puzzles.cubic_eight:board_drawing")
PARTIAL = PartialPuzzle(PUZZLE, GUARDS)
SPACE = HoleSpace(PARTIAL, [tuple(range(6 * c, 6 * c + 6)) for c in range(CELLS)])
#: the top face slot of each cell, in cell order: what a goal pattern shows
TOP_SLOTS = [6 * c + TOP for c in range(CELLS)]
VIEW = View(SPACE, TOP_SLOTS)


#: how the colours look in pictures (the empty cell pale)
FILLS = {"W": "#f4f4f4", "R": "#c8102e", "B": "#1f4fbf", EMPTY: "#e4e4e4"}


def board_drawing(size: float = 16.0) -> Drawing:
    """The board seen from above: each cell's cube unfolded round its top
    (back face above, front below, left and right beside, bottom under the
    front), one square per face slot, cells in rows as on the board.

    >>> d = board_drawing()
    >>> len(d.shapes), d.home[:2]
    (54, ('#f4f4f4', '#1f4fbf'))
    """
    from puzzles.nets import face_polygons, unfold
    from puzzles.solids import CUBE

    polygons = face_polygons(CUBE)
    maps = unfold(polygons, "U", (0, 0, -1),
                  (("U", "B"), ("U", "F"), ("U", "L"), ("U", "R"), ("F", "D")))
    # the unfolded faces span x in -3..3 and y in -3..5 (faces of side 2)
    faces = {f: [((x + 3) * size / 2, (y + 3) * size / 2) for x, y in (maps[f](q) for q in polygons[f])]
             for f in FACES}
    pitch_x, pitch_y, margin = 3 * size + 10, 4 * size + 10, 2.0
    shapes = []
    for cell in range(CELLS):
        x, y = xy_of(cell)
        left, top = margin + (x - 1) * pitch_x, margin + (y - 1) * pitch_y
        shapes += [tuple((left + u, top + v) for u, v in faces[f]) for f in FACES]
    return Drawing(tuple(shapes), tuple(FILLS[c] for c in PUZZLE.solved),
                   2 * margin + SIDE * pitch_x - 10, 2 * margin + SIDE * pitch_y - 10)


# --- one cube ---------------------------------------------------------------

def orientation_group():
    """The 24 rotations of a cube, as a sympy group acting on its faces (URFDLB).

    >>> G = orientation_group()
    >>> G.order(), G.degree
    (24, 6)
    """
    from sympy.combinatorics import Permutation, PermutationGroup

    return PermutationGroup([Permutation(list(_CUBE.rotation(f))) for f in "URF"])


def orientation_classes() -> list[str]:
    """The ways a cube can look: the orbit of its colouring (URFDLB letters)
    under :func:`orientation_group`, computed by sympy.

    >>> looks = orientation_classes()
    >>> len(looks), "WBRWBR" in looks  # the starting look: U W, R B, F R, ...
    (6, True)
    """
    colouring = [CUBE_COLOURS[f] for f in FACES]
    return sorted({"".join(act(colouring, g.array_form))
                   for g in orientation_group().generate()})


def orientation_name(faces: Sequence[str]) -> str:
    """Top, front and right colours of a cube given by its URFDLB colours.

    >>> orientation_name("WBRWBR")
    'WRB'
    """
    return "".join(faces[FACES.index(f)] for f in "UFR")


# --- states and patterns ------------------------------------------------------

def tops(state: Sequence[str]) -> str:
    """The top colour of each cell, row by row (``E`` for the empty cell).

    >>> tops(start_state(cell_of(3, 3)))
    'WWWWWWWWE'
    """
    return "".join(state[s] for s in TOP_SLOTS)


def start_rank(empty: int) -> int:
    """The rank of :func:`start_state`.

    >>> start_rank(CENTRE) // 6 ** 8  # the empty cell is the leading digit
    4
    """
    return SPACE.rank(start_state(empty))


def pattern_rank(pattern: str) -> int:
    """The rank of a goal pattern (nine letters of W R B E, row by row, one E).

    >>> pattern_rank("EWWWWWWWW"), VIEW.unrank(pattern_rank("RBWRWWEWW"))[:3]
    (0, ('R', 'B', 'W'))
    """
    return VIEW.rank(pattern)


def goal_ranks(pattern: str) -> list[int]:
    """The ranks of the 2**8 states whose tops show ``pattern``.

    >>> goals = goal_ranks("WWWWEWWWW")
    >>> len(goals), start_rank(CENTRE) in goals
    (256, True)
    """
    return VIEW.states(pattern_rank(pattern))


# --- tables -------------------------------------------------------------------

_TABLES: dict[int, DepthTable] = {}


def _label(empty: int) -> str:
    return f"cubic-eight-start{empty}"


def table(metric: str = "qtm", progress: Progress | None = None, empty: int = CENTRE
          ) -> DepthTable:
    """Depths of all states from :func:`start_state` (cached on disk and in memory).

    Every roll counts one; ``metric`` is accepted for the command line's sake.

    Each table holds all 9 * 6**8 states, too many to build in an example (for
    the centre, ``table().distribution()`` starts 1, 4, 8, 8 and ends at depth 42):

    >>> SPACE.size
    15116544
    >>> table("htm")
    Traceback (most recent call last):
        ...
    permgroup.errors.InputError: the cubic eight-puzzle counts rolls: no metric 'htm' (use qtm)
    """
    if metric not in ("qtm", "rolls"):
        raise InputError(f"the cubic eight-puzzle counts rolls: no metric {metric!r} (use qtm)")
    if empty not in _TABLES:
        _TABLES[empty] = _load_table(empty, progress)
    return _TABLES[empty]


def _load_table(empty: int, progress: Progress | None) -> DepthTable:
    from permgroup.tables.bfs import load_state_table

    return load_state_table(SPACE, [start_rank(empty)], _label(empty), progress)


_PATTERNS: dict[int, bytes] = {}


def pattern_table_file(empty: int) -> tuple[Path, dict]:
    """Where :func:`pattern_table` is cached, and the key its header must carry.

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> path, key = pattern_table_file(CENTRE)
    >>> path.name.startswith("cubic-eight-start4-tops-"), key["table"], key["size"]
    (True, 'tops', 15116544)
    >>> path.exists()  # nothing is built or read here
    False
    """
    return table_cache(SPACE, [start_rank(empty)], _label(empty), "tops")


def pattern_table(empty: int, progress: Progress | None = None) -> bytes:
    """For each goal pattern (by :func:`pattern_rank`), the least number of
    rolls from :func:`start_state` (``UNSEEN``, 255, if none).

    Read from the cache without numpy when it is there; otherwise derived from
    the depth table (built by BFS if need be) and cached.

    It is built from a 15-million-state table, too big for an example; its
    length is the number of patterns, and ``pattern_table(CENTRE)`` holds 0 at
    the start's own pattern:

    >>> VIEW.size, pattern_rank("WWWWEWWWW") == VIEW.rank(tops(start_state(CENTRE)))
    (59049, True)
    """
    if empty not in _PATTERNS:
        path, key = pattern_table_file(empty)
        _, data = cached_array(path, key, VIEW.size, lambda report: VIEW.minimum(
            (_TABLES.get(empty) or _load_table(empty, report)).depths),
            title=f"cubic-eight from start {empty}: the least rolls to each pattern",
            progress=progress, raw=True)
        _PATTERNS[empty] = bytes(data)
    return _PATTERNS[empty]


def check_question(empty: int, pattern: str, max_depth: int = 0) -> None:
    """:class:`InputError` unless ``empty`` is a cell (0..8, :func:`cell_of`),
    ``pattern`` nine letters of W, R, B with one E, row by row, and
    ``max_depth`` at least 0.

    >>> check_question(9, "WWWWEWWWW")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: empty cell: expected a cell 0..8 (cell_of(x, y)), got 9
    """
    if require_whole(empty, "empty cell") >= CELLS:
        raise InputError(f"empty cell: expected a cell 0..{CELLS - 1} (cell_of(x, y)), got "
                         f"{empty}")
    require_string(pattern, "pattern", "nine letters of W, R, B and one E")
    if len(pattern) != CELLS or set(pattern) - set("WRBE") or pattern.count(EMPTY) != 1:
        raise InputError(f"pattern {pattern!r}: expected nine letters of W, R, B and one E, "
                         "row by row")
    require_whole(max_depth, "max_depth")


def distance(empty: int, pattern: str, max_depth: int = DEFAULT_MAX_DEPTH) -> int:
    """Least number of rolls from the start with ``empty`` empty to a state
    whose tops show ``pattern``; ``-1`` if more than ``max_depth``.

    It reads :func:`pattern_table` (too big to build in an example):
    ``distance(cell_of(2, 1), "RBWRWWEWW")`` is 3, as the table-free search finds:

    >>> search_distance(cell_of(2, 1), "RBWRWWEWW")
    3
    """
    check_question(empty, pattern, max_depth)
    d = pattern_table(empty)[pattern_rank(pattern)]
    return d if d != UNSEEN and d <= max_depth else -1


def search_distance(empty: int, pattern: str, max_depth: int = DEFAULT_MAX_DEPTH) -> int:
    """:func:`distance` by bidirectional search, without any table.

    >>> search_distance(cell_of(2, 1), "RBWRWWEWW")
    3
    """
    from permgroup.search.meet import search

    check_question(empty, pattern, max_depth)
    found = search(start_rank(empty), goal_ranks(pattern), SPACE.n_moves, SPACE.step,
                   SPACE.back_step, max_depth)
    return -1 if found is None else len(found)


def solve(empty: int, pattern: str) -> list[str]:
    """An optimal list of rolls from the start to ``pattern``, from the depth
    table: the nearest of the pattern's states, and the table walked down.

    It walks :func:`table` (too big to build in an example):
    ``solve(cell_of(2, 1), "RBWRWWEWW")`` is ``['11E', '12N', '13N']``, which
    indeed rolls the start to that pattern:

    >>> tops(PARTIAL.apply(start_state(cell_of(2, 1)), ['11E', '12N', '13N']))
    'RBWRWWEWW'
    """
    check_question(empty, pattern)
    t = table(empty=empty)
    ranks = goal_ranks(pattern)
    best = min(ranks, key=lambda r: int(t.depths[r]))
    if t.depths[best] == UNSEEN:
        raise UnreachableError(f"no sequence of rolls reaches {pattern}")
    return [SPACE.move_names[m] for m in t.path(best)]


@lru_cache(maxsize=1)
def definition() -> Definition:
    """The one model of the cubic eight-puzzle (what the PUZZLE names
    ``cubic-eight`` and ``poj3131`` resolve to): the rolls as permutations,
    their guards (``partial``: a roll needs the empty cell), and its own table
    of the states reachable from the start.

    >>> definition().partial is PARTIAL
    True
    """
    return definition_of(PUZZLE, hooks={"table": table}, partial=PARTIAL)
