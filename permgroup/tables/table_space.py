"""The ranked space and sources behind a puzzle's table, for the tighter,
out-of-core and distributed builders (:mod:`permgroup.tables.packed`,
:mod:`permgroup.tables.outofcore`, :mod:`permgroup.tables.dask_bfs`).

* a puzzle without pieces whose solved colouring repeats colours is a space
  of colourings (:mod:`permgroup.spaces.colouring`) with the solved colouring as its
  source;
* otherwise the Cayley table's space: normalized elements,
  :func:`permgroup.tables.registry.element_space`, from the identity.

>>> from permgroup.puzzle import Puzzle
>>> necklace = Puzzle("necklace", 6, {"turn": (1, 2, 3, 4, 5, 0)}, solved="aaabbb")
>>> space, sources, key = table_space(necklace)
>>> space.size, len(sources), key["kind"]
(20, 1, 'colourings')
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from permgroup.formats.stickers import puzzle_name
from permgroup.metric import Metric, metric_label
from permgroup.puzzle import Puzzle
from permgroup.spaces.space import ROW_PULL

if TYPE_CHECKING:  # pragma: no cover
    from permgroup.formats.definition import Definition


def table_space(puzzle: Puzzle | Definition, metric: Metric = "qtm"
                ) -> tuple[object, list[int], dict]:
    """``(space, sources, key)``: the space has ``size``, ``n_moves``, ``step``,
    ``back_step``; ``key`` identifies the table (for build folders and caches).
    A puzzle defined piece by piece (:class:`~permgroup.formats.definition.Definition`)
    is ranked by :class:`~permgroup.spaces.orbit.OrbitSpace`.

    >>> from permgroup.perm import from_cycles
    >>> cyc = from_cycles([(0, 1, 2), (3, 4, 5)], 6)
    >>> gear = Puzzle("gear", 6, {"G": cyc}, pieces={"tooth": ((0, 3), (1, 4), (2, 5))})
    >>> space, sources, key = table_space(gear)
    >>> space.size, space.n_moves, key["kind"]
    (24, 2, 'elements')
    """
    import numpy as np

    from permgroup.formats.definition import Definition

    if isinstance(puzzle, Definition):
        from permgroup.spaces.orbit import OrbitSpace

        space = OrbitSpace(puzzle, metric)
        key = {"definition": puzzle.fingerprint(), "metric": metric_label(metric)}
        return space, [space.rank(puzzle.solved)], dict(key, kind="orbits")
    key = {"puzzle": puzzle.fingerprint(), "metric": metric_label(metric)}
    if not puzzle.pieces and puzzle.solved and len(set(puzzle.solved)) < puzzle.degree:
        from permgroup.tables.colouring_table import colouring_space

        space = colouring_space(puzzle, metric)
        sources = space.rank(np.array([space.solved], dtype=space.dtype)).tolist()
        return space, [int(s) for s in sources], dict(key, kind="colourings")
    from permgroup.tables.registry import element_space

    space = element_space(puzzle, metric)
    return space, [space.identity], dict(key, kind="elements", anchor=space.normalizer.anchor)


#: working memory of a row-by-row BFS beside its tables (blocks of rows, numpy, Python)
ROW_BFS_HEADROOM = 512 * 2**20


def rows_fit(space, memory: int | str) -> bool:
    """Whether the one-byte row-by-row BFS of ``space`` (an
    :class:`~permgroup.spaces.orbit.OrbitSpace`) and its 2-bit result fit
    in ``memory`` bytes.

    >>> from permgroup.formats.definition import Definition, Orbit, OrbitState
    >>> flip = Definition("flip", (Orbit("E", 2, 2),), {"E": OrbitState((0, 1), (0, 0))},
    ...                   {"F": {"E": OrbitState((1, 0), (1, 0))}})
    >>> space = table_space(flip)[0]
    >>> rows_fit(space, "4GB"), rows_fit(space, "1MB")
    (True, False)
    """
    from permgroup.tables.outofcore import parse_memory

    if ROW_PULL not in space.capabilities:
        return False
    if isinstance(memory, str):
        memory = parse_memory(memory)
    tables = space.row_next.nbytes + getattr(space.row_select, "nbytes", 0)
    return space.size + space.size // 4 + tables + ROW_BFS_HEADROOM <= memory


def build_tight_table(puzzle: Puzzle | Definition, metric: Metric = "qtm", *, memory: str | None = None,
                      dask: bool = False, workers: int = 2, scheduler: str | None = None,
                      progress=None, stream=None):
    """The puzzle's 2-bit table (:class:`permgroup.tables.packed.PackedTable`), cached:

    * in memory by default (:func:`permgroup.tables.bfs.packed_depths`);
    * with ``memory`` (``"4GB"``): in memory by rows, one byte per state, when
      that fits (:func:`rows_fit`), else out of core in a folder of the
      cache, resumed there if an earlier build was interrupted;
    * on Dask with ``dask`` (a local cluster of ``workers``, or ``scheduler``),
      with a line per level on ``stream``: time and bytes shuffled.

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> necklace = Puzzle("necklace", 6, {"turn": (1, 2, 3, 4, 5, 0)}, solved="aaabbb")
    >>> build_tight_table(necklace).distribution()
    [1, 2, 2, 1]
    >>> build_tight_table(necklace, memory="1MB").distribution()   # out of core
    [1, 2, 2, 1]
    """
    import sys

    from permgroup.cache import cached_array, label_of, table_file
    from permgroup.tables.bfs import packed_depths
    from permgroup.tables.packed import PackedTable

    space, sources, key = table_space(puzzle, metric)
    path = table_file(label_of(puzzle_name(puzzle.name), key["metric"]), key, "packed2")
    file_key = dict(key, format="packed2", size=space.size)

    def build(report):
        if memory is not None:
            # one byte per state fits the memory allowed: the row-by-row BFS in
            # memory is several times faster than shards on disk; packed the same
            table = rows_in_memory(space, sources, path.with_suffix(".checkpoint"),
                                   dict(file_key, format="rows-checkpoint"), progress=report)
        elif dask:
            from permgroup.tables.dask_bfs import dask_depths

            out = stream or sys.stderr

            def level_report(level) -> None:
                print(f"  level {level.depth:2d}: {level.seconds:7.2f} s, "
                      f"{level.shuffled:>14,} bytes shuffled", file=out, flush=True)

            def connected(client) -> None:
                print(f"  dask: {len(client.scheduler_info()['workers'])} workers, dashboard "
                      f"{client.dashboard_link}", file=out, flush=True)

            table = dask_depths(space, sources, workers=workers, scheduler=scheduler,
                                progress=report, level_report=level_report,
                                on_connect=connected).table
        else:
            table = packed_depths(space, sources, progress=report)
        return table.packed, {"levels": table.distribution()}

    length = (space.size + 3) // 4
    header, packed = cached_array(path, file_key, length, None, title="")
    if packed is None and memory is not None and not rows_fit(space, memory):
        from permgroup.tables.outofcore import build_out_of_core

        return build_out_of_core(space, sources, path.with_suffix(".outofcore"),
                                 memory=memory, key=key, progress=progress)
    if packed is None:
        header, packed = cached_array(path, file_key, length, build, size=space.size,
                                      title=f"{puzzle.name} {key['metric']} table at 2 bits",
                                      progress=progress)
    return PackedTable(space, sources, packed, header["levels"])


#: seconds of BFS between two checkpoints of a build by rows in memory (a
#: checkpoint packs and writes the whole table: every level would cost too much)
CHECKPOINT_SECONDS = 30.0


def rows_in_memory(space, sources, checkpoint: Path, key: dict, *, progress=None):
    """The 2-bit table of ``space`` by the row-by-row BFS over a one-byte
    array, packed at the end.  After a level, when ``CHECKPOINT_SECONDS`` have
    passed since the last checkpoint, the table so far is written in 2 bits to
    ``checkpoint`` (atomically, with ``key`` and the levels); a build killed at
    any point goes on from the last checkpoint (:func:`~permgroup.tables.packed.unpack_depths`).

    >>> import tempfile
    >>> from permgroup.formats.definition import Definition, Orbit, OrbitState
    >>> flip = Definition("flip", (Orbit("E", 2, 2),), {"E": OrbitState((0, 1), (0, 0))},
    ...                   {"F": {"E": OrbitState((1, 0), (1, 0))}})
    >>> space, sources, _ = table_space(flip)
    >>> path = Path(tempfile.mkdtemp()) / "flip.checkpoint"
    >>> rows_in_memory(space, sources, path, {"puzzle": "flip"}).distribution()
    [1, 2, 1]
    """
    import time

    import numpy as np

    from permgroup.cache import load_bytes, save_array
    from permgroup.tables.bfs import ByteStore, bfs
    from permgroup.tables.packed import PackedTable, pack_depths, unpack_depths

    levels: list[int] = []
    store = resume = None
    loaded = load_bytes(checkpoint, key)
    if loaded is not None:
        header, data = loaded
        resume = list(header["levels"])
        levels = list(resume)
        store = ByteStore(space.size, unpack_depths(np.frombuffer(data, dtype=np.uint8),
                                                    space.size, len(resume) - 1))
        del data, loaded
        if progress:
            for d, count in enumerate(levels):  # the levels the checkpoint holds
                progress(d, count)
    last = time.monotonic()

    def counted(depth: int, count: int) -> None:
        levels.append(count)
        if progress:
            progress(depth, count)

    def level_done(depth: int, store: ByteStore) -> None:
        nonlocal last
        if time.monotonic() - last >= CHECKPOINT_SECONDS:
            save_array(checkpoint, dict(key, levels=levels), pack_depths(store.depths))
            last = time.monotonic()

    store = bfs(space, sources, store, progress=counted, levels=resume, level_done=level_done)
    packed = pack_depths(store.depths)
    del store
    checkpoint.unlink(missing_ok=True)
    return PackedTable(space, sources, packed, levels)
