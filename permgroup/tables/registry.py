"""The one route from a puzzle to its table: the puzzle the tables see
(:func:`working_puzzle`), its space and size before anything is built
(:func:`table_space`, :func:`table_size`), the form of its table chosen from a
memory budget (:func:`choose_form`), and the table itself, kept in memory and
cached on disk (:func:`load_or_build`), for the command line,
:mod:`permgroup.explore`, :mod:`permgroup.solution`, :mod:`permgroup.optimal` and
the widget alike.
"""
from __future__ import annotations

import sys
import time
from dataclasses import replace
from pathlib import Path

from permgroup.budget import Budget, parse_memory
from permgroup.cache import cached_array, cached_header, load_bytes, save_array, size_text
from permgroup.errors import InputError
from permgroup.formats.definition import Definition
from permgroup.metric import Metric, metric_label, metric_moves
from permgroup.normalize import Normalizer
from permgroup.puzzle import Puzzle
from permgroup.spaces.element import ElementSpace
from permgroup.spaces.space import ROW_PULL
from permgroup.tables.colouring_table import cache_key as colouring_key
from permgroup.tables.store import puzzle_cache_file
from permgroup.tables.table import CayleyTable, cache_file, element_key, load_table

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
        import numpy as np

        from permgroup.orbit_chain import puzzle_chain

        _INSIDE[key] = int(puzzle_chain(puzzle).contains(
            np.array(puzzle.symmetry_elements()).reshape(-1, puzzle.degree)).sum())
    return _INSIDE[key]


_INSIDE: dict[str, int] = {}


def state_count(puzzle: Puzzle) -> int:
    """How many elements up to whole-puzzle symmetry: ``|G| / |G ∩ C|``, the
    number of nodes of the Cayley graph and of reachable table entries.

    >>> state_count(Puzzle("p", 4, {"T": (1, 2, 3, 0)}, symmetries={"T": (1, 2, 3, 0)}))
    1
    """
    from permgroup.orbit_chain import puzzle_chain

    return puzzle_chain(puzzle).order // symmetries_inside(puzzle)


def by_colouring(puzzle: Puzzle) -> bool:
    """Whether states are best compared as colourings: the solved colouring
    repeats colours and the puzzle declares no pieces of two or more stickers
    (so the colours cannot tell which piece is where).

    >>> by_colouring(Puzzle("t", 4, {"S": (1, 0, 3, 2)}, solved="aabb"))
    True
    >>> by_colouring(Puzzle("t", 4, {"S": (1, 0, 3, 2)}, solved="aabb", pieces={"bar": ((0, 1), (2, 3))}))
    False
    """
    solved = puzzle.solved
    if not solved or len(set(solved)) == len(solved):
        return False
    return all(len(p) == 1 for pieces in puzzle.pieces.values() for p in pieces)


def choose_anchor(puzzle: Puzzle, metric: Metric = "qtm") -> int | None:
    """The normalization anchor for the tables built here: a sticker every move
    fixes (the table then ranks only the pieces the subgroup moves), else one
    for which every normalized move keeps its own name (optimal words need no
    re-orientation between moves), else the engine's default (``None``).

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
    when none of them lies in the group (normalizing would only rename each
    element), and with each position a piece of its own when it declares none.

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


def position_count(definition: Definition, metric: Metric = "qtm") -> int | None:
    """The states of the definition's table over its positions (what
    ``permgroup table`` counts), known before any table is built: far fewer
    than :func:`~permgroup.formats.definition.position_bound` where the moves
    keep twists and parities (the Skewb: 3,149,280, not 1.9e11); ``None``
    where no such table can be made.

    >>> from permgroup.formats import resolve
    >>> position_count(resolve("pancake-4"))
    24
    """
    if beyond_any_table(definition):
        return None  # 21!/2 arrangements at least: refused by any table below
    path, key = puzzle_cache_file(definition.name, _space_key(definition, metric, "positions"),
                                  "byte", 0)
    del key["size"]
    header = cached_header(path, key)
    if header is not None:  # its table is cached: its size is known without planning
        return header["size"]
    try:
        return _planned_space(definition, metric, "positions")[0].size
    except (InputError, ValueError):
        return None


def beyond_any_table(definition: Definition) -> bool:
    """Whether an orbit of more than 20 distinct pieces is moved: at least
    21!/2 arrangements, past any table, known before the moves' orders or any
    space is made (transpositions-200's took 15 s).

    >>> from permgroup.formats import resolve
    >>> beyond_any_table(resolve("pancake-4")), beyond_any_table(resolve("transpositions-21"))
    (False, True)
    """
    return any(o.size > 20 and len(set(definition.solved[o.name].pieces)) == o.size and
               any(m[o.name].pieces != tuple(range(o.size))
                   for m in definition.moves.values() if o.name in m)
               for o in definition.orbits)


def rotated(definition: Definition) -> bool:
    """Whether the definition's states are taken up to its whole-puzzle rotations:
    it defines some, and its moves can make them (a 2x2x2 without centres turned
    by all six faces), so that a rotated puzzle is the same state.

    >>> from permgroup.formats.definition import Orbit, OrbitState
    >>> flip = Definition("flip", (Orbit("E", 2, 2),), {"E": OrbitState((0, 1), (0, 0))},
    ...                   {"F": {"E": OrbitState((1, 0), (1, 0))}})
    >>> rotated(flip)
    False
    """
    if not definition.rotations:
        return False
    return symmetries_inside(definition.puzzle) > 1


def _states(puzzle: Puzzle | Definition) -> str:
    """What the states of the puzzle's table are, when the caller does not say."""
    if isinstance(puzzle, Definition):
        return "positions"
    if not puzzle.pieces and puzzle.solved and len(set(puzzle.solved)) < puzzle.degree:
        return "colourings"
    return "elements"


def table_space(puzzle: Puzzle | Definition, metric: Metric = "qtm", states: str | None = None
                ) -> tuple[object, list[int], dict]:
    """``(space, sources, key)`` of the puzzle's table, ``key`` naming its files: a
    definition's positions from solved, the colourings from solved of a puzzle
    without pieces whose solved state repeats colours, else normalized elements
    (:func:`element_space`) from the identity.

    >>> from permgroup.perm import from_cycles
    >>> cyc = from_cycles([(0, 1, 2), (3, 4, 5)], 6)
    >>> gear = Puzzle("gear", 6, {"G": cyc}, pieces={"tooth": ((0, 3), (1, 4), (2, 5))})
    >>> space, sources, key = table_space(gear)
    >>> space.size, space.n_moves, key["kind"]
    (24, 2, 'elements')
    >>> necklace = Puzzle("necklace", 6, {"turn": (1, 2, 3, 4, 5, 0)}, solved="aaabbb")
    >>> space, sources, key = table_space(necklace)
    >>> space.size, len(sources), key["kind"]
    (20, 1, 'colourings')
    """
    states = states or _states(puzzle)
    space, key = _planned_space(puzzle, metric, states)
    return space, _sources(puzzle, _ready(space), states), key


def _planned_space(puzzle: Puzzle | Definition, metric: Metric, states: str) -> tuple[object, dict]:
    """The table's space and key, its size known and its move tables not yet
    built (:func:`_ready` builds them), so that a table too large for its
    budget is refused before anything large is made."""
    if states == "elements":
        space = element_space(puzzle, metric)
        return space, element_key(space)
    if states == "positions":
        from permgroup.spaces.orbit import OrbitSpace

        space = OrbitSpace(puzzle, metric, tables=False)
    else:
        from permgroup.tables.colouring_table import colouring_space

        space = colouring_space(puzzle, metric)
    return space, _space_key(puzzle, metric, states)


def _ready(space):
    """The space with its move tables built (an :class:`OrbitSpace` planned
    without them)."""
    if not getattr(space, "built", True):
        space.build_tables()
    return space


def _sources(puzzle: Puzzle | Definition, space, states: str) -> list[int]:
    """The ranks the table's search starts from: the identity, solved, or the
    solved colouring."""
    if states == "elements":
        return [space.identity]
    if states == "positions":
        return [space.rank(puzzle.solved)]
    import numpy as np

    return space.rank(np.array([space.solved], dtype=space.dtype)).tolist()


def _space_key(puzzle: Puzzle | Definition, metric: Metric, states: str | None) -> dict:
    """:func:`table_space`'s key, found without building the space."""
    states = states or _states(puzzle)
    if states == "positions":
        return {"definition": puzzle.fingerprint(), "metric": metric_label(metric),
                "kind": "orbits"}
    if states == "colourings":
        return colouring_key(puzzle, metric)
    return element_key(element_space(puzzle, metric))


def cache_path(puzzle: Puzzle | Definition, metric: Metric = "qtm") -> Path:
    """Where the puzzle's one-byte table is cached (:func:`load_or_build`).

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> cache_path(Puzzle("necklace", 6, {"turn": (1, 2, 3, 4, 5, 0)}, solved="aaabbb")).name
    'necklace-qtm-51cf5b55a093e321.colourings'
    """
    return puzzle_cache_file(puzzle.name, _space_key(puzzle, metric, None), "byte", 0)[0]


#: working memory of a row-by-row BFS beside its tables (blocks of rows, numpy, Python)
ROW_BFS_HEADROOM = 512 * 2**20
#: what each form of a table is, for messages
FORMS = {"byte": "one byte a state", "nibble": "4 bits a state", "2bit": "2 bits a state",
         "rows": "2 bits a state, built by rows over a byte a state",
         "dask": "2 bits a state, gathered from Dask workers"}


def space_bytes(space) -> int:
    """Bytes of the space's own move tables (built or planned), beside any table.

    >>> space_bytes(element_space(Puzzle("p", 2, {"A": (1, 0)})))
    0
    """
    return int(getattr(space, "nbytes", 0))


def table_memory(space, form: str, cached: bool = False) -> int:
    """Bytes the table of ``space`` in ``form`` takes at its peak, beside the
    space's move tables (:func:`space_bytes`): read from the cache, the table's
    bytes; built, what the search takes (:func:`~permgroup.tables.bfs.bfs_memory`;
    ``"rows"``: a byte a state, its 2-bit checkpoint and :data:`ROW_BFS_HEADROOM`;
    ``"dask"``: the shards gathered from the workers, then joined).

    >>> from permgroup.tables.bfs import bfs_memory
    >>> space = element_space(Puzzle("p", 2, {"A": (1, 0)}))
    >>> table_memory(space, "byte", cached=True), table_memory(space, "byte") == bfs_memory(2)
    (2, True)
    """
    from permgroup.tables.bfs import BLOCK, BLOCK_BYTES_PER_RANK, bfs_memory

    size = space.size
    bits = {"byte": 8, "nibble": 4}.get(form, 2)
    if cached:
        return -(-size * bits // 8)
    if form == "byte":
        return bfs_memory(size)
    if form == "nibble":  # built at a byte a state, then packed
        return bfs_memory(size) + -(-size // 2)
    if form == "rows":
        return size + size // 4 + ROW_BFS_HEADROOM
    if form == "dask":
        return 2 * -(-size // 4) + BLOCK_BYTES_PER_RANK * min(size, BLOCK)
    return bfs_memory(size, bits=2)


def choose_form(space, memory: int | str | None = None) -> str:
    """The form of the table of ``space`` within ``memory`` bytes (as twsearch's
    ``-g`` chooses): a byte a state without a budget, else 2 bits built by rows
    in memory where the one-byte row-by-row BFS (``ROW_PULL``) and its 2-bit
    result fit, else 2 bits in shards out of core.

    >>> from permgroup.formats.definition import Orbit, OrbitState
    >>> flip = Definition("flip", (Orbit("E", 2, 2),), {"E": OrbitState((0, 1), (0, 0))},
    ...                   {"F": {"E": OrbitState((1, 0), (1, 0))}})
    >>> space = table_space(flip)[0]
    >>> choose_form(space), choose_form(space, "4GB"), choose_form(space, "1MB")
    ('byte', '2bit', 'shards')
    """
    if memory is None:
        return "byte"
    if ROW_PULL in space.capabilities:
        if space_bytes(space) + table_memory(space, "rows") <= parse_memory(memory):
            return "2bit"
    return "shards"


def require_table(budget: Budget, name: str, metric: str, space, form: str, *,
                  cached: bool = False, default: bool = False) -> None:
    """Refuse, before anything large is made, a table whose reading or building
    needs more than ``budget``'s memory (:class:`~permgroup.budget.MemoryBudgetError`
    naming the size and what would work instead); ``default`` says the budget
    is ``--memory``'s default.

    >>> from permgroup.formats import resolve
    >>> space = _planned_space(resolve("lrx-13"), "qtm", "positions")[0]  # no tables built
    >>> require_table(Budget.of(memory="2GB"), "lrx-13", "qtm", space, "byte", default=True)
    Traceback (most recent call last):
    ...
    permgroup.budget.MemoryBudgetError: building the qtm table of lrx-13 (6,227,020,800 states, one byte a state) needs 11.5 GB, more than the memory budget of 2.0 GB; the budget is --memory's default, half the free memory up to 2 GB; --memory SIZE (memory=SIZE) builds it at 2 bits a state in SIZE of memory, by rows in memory when SIZE is at least 8.9 GB, else out of core in shards on disk (1.6 GB of them; SIZE at least 536.8 MB)
    """
    need = space_bytes(space) + table_memory(space, form, cached)
    if budget.fits(need):
        return
    what = (f"{'reading' if cached else 'building'} the {metric} table of {name} "
            f"({space.size:,} states, {FORMS.get(form, form)})")
    advice = _advice(space, form, budget, default)
    if default:
        advice = "the budget is --memory's default, half the free memory up to 2 GB; " + advice
    budget.require(need, what, advice)


def _advice(space, form: str, budget: Budget, default: bool = False) -> str:
    """What would work instead of a table of ``space`` in ``form`` too large for
    ``budget``: 2 bits a state in memory, or a memory of the user's choosing
    (by rows, or out of core in shards on disk), or Dask workers (under the
    default budget: ``--memory`` chooses a build here), or no table at all."""
    tables, size = space_bytes(space), space.size
    packed = tables + table_memory(space, "2bit")
    if form in ("byte", "nibble") and budget.fits(packed):
        return f"--packed (form='2bit') builds it at 2 bits a state in {size_text(packed)}"
    from permgroup.tables.outofcore import least_memory

    disk = -(-size // 4)
    if disk > MAX_TIGHT_BYTES:
        return ("no table of it fits here, even at 2 bits a state; permgroup optimal and "
                "permgroup word search instead, within a time limit")
    rows = (f"by rows in memory when SIZE is at least "
            f"{size_text(tables + table_memory(space, 'rows'))}, else "
            if ROW_PULL in space.capabilities else "")
    dask = tables + table_memory(space, "dask")
    on_dask = (f"; --dask (dask=True) builds it on Dask workers, {size_text(dask)} here to "
               "gather it" if default and form != "dask" and budget.fits(dask) else "")
    return (f"--memory SIZE (memory=SIZE) builds it at 2 bits a state in SIZE of memory, "
            f"{rows}out of core in shards on disk ({size_text(disk)} of them; SIZE at least "
            f"{size_text(tables + least_memory(size))}){on_dask}")


#: the last few tables loaded or built in this process (one-byte or 4-bit tables of
#: elements, one-byte tables of positions or colourings), by cache file, each with
#: the stamp its file had when it was kept: planning a definition's space takes
#: longer than a lookup (0.6 s for the skewb), a file of positions asks the same
#: table once a line, and a table stands for its file only while the file is the same
_KEPT: dict[Path, tuple[tuple[int, int] | None, object]] = {}
TABLES_KEPT = 4
#: the cache file of a puzzle's table of elements, by the puzzle's fingerprint, metric
#: and bits an entry: found again without making its space (a puzzle with
#: symmetries chooses its anchor over every sticker)
_ELEMENT_FILES: dict[tuple[str, str, int], Path] = {}


def _kept(path: Path):
    """The table kept for the cache file ``path`` while the file is the one it
    was kept with (:func:`_file_stamp`), else ``None``."""
    entry = _KEPT.get(path)
    if entry is None or entry[0] != _file_stamp(path):
        return None
    _KEPT[path] = _KEPT.pop(path)  # the most recently asked for goes last
    return entry[1]


def _keep(path: Path, table):
    """``table``, kept for the cache file ``path`` (the least recently asked for
    of :data:`TABLES_KEPT` let go)."""
    _KEPT.pop(path, None)
    _KEPT[path] = (_file_stamp(path), table)
    while len(_KEPT) > TABLES_KEPT:
        del _KEPT[next(iter(_KEPT))]
    return table


def _file_stamp(path: Path) -> tuple[int, int] | None:
    """The file's size and time of change (``None`` when it is gone): a table
    kept in memory stands for its file only while these are the same."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_size, stat.st_mtime_ns


def load_or_build(puzzle: Puzzle | Definition, metric: Metric = "qtm", form: str | None = None,
                  *, states: str | None = None, memory: int | str | None = None,
                  progress=None, build: bool = True,
                  max_entries: int = MAX_ENTRIES, dask: bool = False, workers: int = 2,
                  scheduler: str | None = None):
    """The table of ``puzzle`` (a :class:`~permgroup.puzzle.Puzzle`, or a
    :class:`~permgroup.formats.definition.Definition`, the one model
    :func:`permgroup.formats.resolve` turns every PUZZLE argument into) in
    ``metric``, from the cache
    (:func:`~permgroup.tables.store.puzzle_cache_file`) or built and cached
    there; ``None`` when it is not cached and ``build`` is false.  Its states
    are ``states`` (``"elements"``, ``"colourings"``, ``"positions"``), else as
    :func:`table_space` infers them.

    ``form`` is ``"byte"`` (a :class:`~permgroup.tables.table.CayleyTable`,
    :class:`~permgroup.tables.orbit_table.OrbitTable` or
    :class:`~permgroup.tables.colouring_table.ColouringTable`), ``"nibble"`` (4 bits,
    elements only), ``"2bit"`` or ``"shards"`` (a
    :class:`~permgroup.tables.packed.PackedTable`, out of core in a folder of
    the cache, resumed there after an interruption), else chosen from
    ``memory`` by :func:`choose_form`; ``dask`` builds the 2-bit table on Dask
    workers (a local cluster of ``workers``, or ``scheduler``), a line per
    level on stderr.  A one-byte table of elements past ``max_entries`` is
    refused with a ``ValueError`` saying its size and what to do instead.

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> tri = Puzzle("tri", 3, {"A": (1, 2, 0)}, pieces={"dot": ((0,), (1,), (2,))})
    >>> table_size(tri), load_or_build(tri).distribution()   # ranks of S3, the 3-cycles reached
    (6, [1, 2])
    >>> necklace = Puzzle("necklace", 6, {"turn": (1, 2, 3, 4, 5, 0)}, solved="aaabbb")
    >>> load_or_build(necklace, build=False) is None
    True
    >>> load_or_build(necklace, form="shards", build=False) is None
    True
    >>> [load_or_build(necklace, form=f).distribution() for f in ("byte", "2bit", "shards")]
    [[1, 2, 2, 1], [1, 2, 2, 1], [1, 2, 2, 1]]
    >>> load_or_build(necklace, form="shards", build=False).distribution()   # the finished build
    [1, 2, 2, 1]
    """
    one_byte = form in (None, "byte", "nibble") and memory is None and not dask
    budget = Budget.of(memory=memory)
    if isinstance(puzzle, Definition) and rotated(puzzle):
        # a definition whose moves make its rotations: its sticker view's elements
        # up to them (a built-in's classes), in every form
        puzzle = puzzle.puzzle
    states = states or _states(puzzle)
    if one_byte and states == "elements":
        return _element_table(puzzle, metric, 4 if form == "nibble" else 8, max_entries,
                              progress, build, budget)
    kept = (puzzle_cache_file(puzzle.name, _space_key(puzzle, metric, states), "byte", 0)[0]
            if form in (None, "byte") and memory is None and not dask else None)
    if kept is not None and (table := _kept(kept)) is not None:
        return table
    space, key = _planned_space(puzzle, metric, states)
    form = form or ("2bit" if dask and memory is None else choose_form(space, memory))
    label = metric_label(metric)
    if form == "byte":
        path, file_key = puzzle_cache_file(puzzle.name, key, "byte", space.size)
        if not (build or path.exists()):
            return None
        require_table(budget, puzzle.name, label, space, "byte", cached=path.exists(),
                      default=memory is None)
        table = _byte_table(puzzle, _ready(space), _sources(puzzle, space, states), key,
                            progress, build)
        if table is not None and kept is not None:
            _keep(kept, table)
        return table
    if form not in ("2bit", "shards"):
        raise ValueError(f"a table is 'byte', 'nibble' (elements), '2bit' or 'shards', "
                         f"not {form!r}")
    from permgroup.tables.packed import PackedTable

    path, file_key = puzzle_cache_file(puzzle.name, key, "2bit", space.size)
    if form == "2bit":
        way = "rows" if memory is not None else "dask" if dask else "2bit"
        require_table(budget, puzzle.name, label, space, way, cached=path.exists(),
                      default=memory is None)
    else:
        from permgroup.tables.outofcore import MAX_SHARDS, least_memory

        need = space_bytes(space) + least_memory(space.size)
        budget.require(need, f"building the {label} table of {puzzle.name} out of core (the "
                             f"move tables of its {space.size:,} states and at most "
                             f"{MAX_SHARDS:,} shards)", f"--memory {-(-need // 10**6)}MB or more")
    sources = _sources(puzzle, _ready(space), states)

    def in_memory(report):
        if memory is not None:
            # the row-by-row BFS in memory is several times faster than shards on disk
            table = rows_in_memory(space, sources, path.with_suffix(".checkpoint"),
                                   dict(file_key, form="rows-checkpoint"), progress=report)
        elif dask:
            from permgroup.tables.dask_bfs import dask_depths

            table = dask_depths(space, sources, workers=workers, scheduler=scheduler,
                                progress=report, stream=sys.stderr)
        else:
            from permgroup.tables.bfs import packed_depths

            table = packed_depths(space, sources, progress=report)
        return table.packed, {"levels": table.distribution()}

    header, packed = cached_array(
        path, file_key, (space.size + 3) // 4, in_memory if build and form == "2bit" else None,
        size=space.size, title=f"{puzzle.name} {key['metric']} table at 2 bits",
        progress=progress)
    if packed is None and form == "shards":
        from permgroup.tables.outofcore import build_out_of_core

        # the shards and pieces get what the space's tables leave of the budget
        return build_out_of_core(space, sources, path.with_suffix(".outofcore"),
                                 memory=budget.memory - space_bytes(space), key=key,
                                 progress=progress, build=build)
    return None if packed is None else PackedTable(space, sources, packed, header["levels"])


def table(puzzle: Puzzle, metric: Metric = "qtm", **options) -> CayleyTable:
    """The Cayley table of the puzzle's elements, one byte an entry
    (:func:`load_or_build`).

    >>> table(Puzzle("p", 3, {"A": (1, 2, 0)}, pieces={"dot": ((0,), (1,), (2,))})).diameter
    1
    """
    return load_or_build(puzzle, metric, "byte", states="elements", **options)


def _element_table(puzzle: Puzzle, metric: Metric, bits: int, max_entries: int, progress,
                   build: bool, budget: Budget) -> CayleyTable | None:
    """The Cayley table (kept in memory), refused past ``max_entries`` entries
    or ``budget``'s memory."""
    key = (puzzle.fingerprint(), metric_label(metric), bits)
    if key in _ELEMENT_FILES and (kept := _kept(_ELEMENT_FILES[key])) is not None:
        return kept
    m = element_space(puzzle, metric)
    path = _ELEMENT_FILES[key] = cache_file(m, bits)[0]
    if (kept := _kept(path)) is not None:
        return kept
    if (size := m.size) > max_entries:
        if size // 4 <= MAX_TIGHT_BYTES:  # a 2-bit table on disk is within reach
            advice = (f"build it at 2 bits a state ({size_text(-(-size // 4))} on disk) with "
                      "permgroup.tables.registry.load_or_build(puzzle, memory='4GB') "
                      "(permgroup table PUZZLE --memory 4GB), or explore it with "
                      "cayley_graph(..., radius=r)")
        else:
            advice = ("no table of it fits anywhere, even at 2 bits a state; search instead "
                      "(explore.solve, permgroup optimal and permgroup word, within a time "
                      "limit), or explore a ball with cayley_graph(..., radius=r)")
        raise InputError(
            f"the distance table of {puzzle.name} ({metric_label(metric)}) would have "
            f"{size:,} entries ({size_text(size)} at one byte each), more than max_entries="
            f"{max_entries:,}; {advice}")
    cached = path.exists()
    if not build and not cached:
        return None
    require_table(budget, puzzle.name, metric_label(metric), m,
                  "byte" if bits == 8 else "nibble", cached=cached, default=True)
    # cache files carry the anchor, so a table normalized at another anchor
    # (the puzzle module's own) is never mistaken for this one
    return _keep(path, load_table(m.puzzle, m.metric, progress=progress,
                                  anchor=m.normalizer.anchor, bits=bits))


def _byte_table(puzzle, space, sources, key: dict, progress, build: bool):
    """The one-byte table of a definition's positions or of colourings."""
    from permgroup.spaces.space import Reversed
    from permgroup.tables.bfs import cached_depths
    from permgroup.tables.colouring_table import ColouringTable
    from permgroup.tables.orbit_table import OrbitTable

    colourings = key["kind"] == "colourings"
    # a colouring table holds distances *to* the source: its search runs the moves backwards
    depths = cached_depths(Reversed(space) if colourings else space, sources,
                           *puzzle_cache_file(puzzle.name, key, "byte", space.size),
                           f"{puzzle.name} {key['metric']} table", progress, build)
    if depths is None:
        return None
    return (ColouringTable if colourings else OrbitTable)(space, sources, depths)


#: seconds of BFS between two checkpoints of a build by rows in memory (a
#: checkpoint packs and writes the whole table: every level would cost too much)
CHECKPOINT_SECONDS = 30.0


def rows_in_memory(space, sources, checkpoint: Path, key: dict, *, progress=None):
    """The 2-bit table of ``space`` by the row-by-row BFS over a byte a state.
    After a level, at most every ``CHECKPOINT_SECONDS``, the table so far is
    written in 2 bits to ``checkpoint`` (with ``key`` and the levels), from which
    a build killed at any point goes on.

    >>> import tempfile
    >>> from permgroup.formats.definition import Definition, Orbit, OrbitState
    >>> flip = Definition("flip", (Orbit("E", 2, 2),), {"E": OrbitState((0, 1), (0, 0))},
    ...                   {"F": {"E": OrbitState((1, 0), (1, 0))}})
    >>> space, sources, _ = table_space(flip)
    >>> path = Path(tempfile.mkdtemp()) / "flip.checkpoint"
    >>> rows_in_memory(space, sources, path, {"puzzle": "flip"}).distribution()
    [1, 2, 1]
    """
    import numpy as np

    from permgroup.tables.bfs import ByteStore, bfs
    from permgroup.tables.packed import PackedTable, pack_depths, unpack_depths

    store = resume = None
    loaded = load_bytes(checkpoint, key)
    if loaded is not None:
        resume = loaded[0]["levels"]
        store = ByteStore(space.size, unpack_depths(np.frombuffer(loaded[1], dtype=np.uint8),
                                                    space.size, len(resume) - 1))
        del loaded
    last = time.monotonic()

    def level_done(depth: int, store: ByteStore) -> None:
        nonlocal last
        if time.monotonic() - last >= CHECKPOINT_SECONDS:
            save_array(checkpoint, dict(key, levels=store.levels), pack_depths(store.depths))
            last = time.monotonic()

    store = bfs(space, sources, store, progress=progress, levels=resume, level_done=level_done)
    packed, levels = pack_depths(store.depths), store.levels
    del store
    checkpoint.unlink(missing_ok=True)
    return PackedTable(space, sources, packed, levels)
