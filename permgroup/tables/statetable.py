"""Depth tables of ranked state spaces, cached by the key of what built them.

A space is a :class:`~permgroup.spaces.space.StateSpace` (``-1`` where a move is
illegal, like :class:`permgroup.spaces.hole.HoleSpace`) with ``fingerprint()``;
its table is a dense ``uint8`` array of BFS depths from the sources
(``UNSEEN`` where unreachable), walked down to a path.  numpy and the BFS are
imported by the functions that use them: finding a cached table's file and
key must stay cheap for a process that reads only a few bytes of it.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from permgroup.cache import cached_array, label_of, table_file
from permgroup.progress import Progress
from permgroup.tables.store import DepthTable

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from permgroup.spaces.space import StateSpace


#: the file suffix of a table in each form (one byte, 4 bits, 2 bits an entry)
SUFFIXES = {"byte": "table", "nibble": "nibbles", "2bit": "packed2"}


def puzzle_cache_file(name: str, key: dict, form: str, size: int) -> tuple[Path, dict]:
    """The cache file of a puzzle's table in ``form`` and the key its header
    holds, one scheme for every kind of space: ``{name}-{metric}[-a{anchor}]-
    {fingerprint}.{suffix}``, found without building the space (the digest is
    the puzzle's or the definition's fingerprint, from ``key``).

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> path, key = puzzle_cache_file("ring", {"puzzle": "ab12" * 8, "metric": "qtm",
    ...                                        "kind": "elements", "anchor": 0}, "2bit", 6)
    >>> path.name, key["size"], key["form"]
    ('ring-qtm-a0-ab12ab12ab12ab12.packed2', 6, '2bit')
    """
    label = label_of(name, key["metric"], *([f"a{key['anchor']}"] if "anchor" in key else []))
    # a colouring table keeps its own suffix, which ``permgroup cache`` lists by
    suffix = "colourings" if (key.get("kind"), form) == ("colourings", "byte") else SUFFIXES[form]
    path = table_file(label, key, suffix, digest=key.get("puzzle") or key["definition"])
    return path, dict(key, size=size, form=form)


def table_cache(space: StateSpace, sources: Sequence[int], label: str, what: str = "depths"
                ) -> tuple[Path, dict]:
    """The cache file and header key of a table of ``space`` from ``sources``
    (``what`` tells derived tables apart).

    >>> import os, tempfile
    >>> from permgroup.spaces.hole import _demo_space
    >>> os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> path, key = table_cache(_demo_space(), [4], "tokens")
    >>> path.name.startswith("tokens-depths-"), key["sources"], key["size"], path.exists()
    (True, [4], 12, False)
    """
    key = {"space": space.fingerprint(), "sources": sorted(int(s) for s in sources),
           "size": space.size, "table": what}
    return table_file(f"{label}-{what}", key, "table"), key


def load_state_table(space: StateSpace, sources: Sequence[int], label: str,
                     progress: Progress | None = None, cache: bool = True) -> DepthTable:
    """The table from the cache if a valid file is there, else built (by
    top-down steps only: most ranks of such spaces are unreachable) and
    cached, unless ``cache`` is false.

    >>> import os, tempfile
    >>> from permgroup.spaces.hole import _demo_space
    >>> os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> space, levels = _demo_space(), []
    >>> built = load_state_table(space, [4], "tokens", lambda d, c: levels.append((d, c)))
    >>> levels, built.sources, table_cache(space, [4], "tokens")[0].exists()
    ([(0, 1), (1, 2)], [4], True)
    >>> read = load_state_table(space, [4], "tokens")    # read back from the file
    >>> read.distribution(), read.depths.tolist() == built.depths.tolist()
    ([1, 2], True)
    >>> [space.move_names[m] for m in read.path(space.rank("..oxxo"))]
    ['01']
    >>> uncached = load_state_table(space, [4], "other", cache=False)
    >>> uncached.reachable, table_cache(space, [4], "other")[0].exists()
    (3, False)
    """
    depths = cached_depths(space, sources, *table_cache(space, sources, label),
                           f"{label} table", progress, cache=cache, top_down_only=True)
    return DepthTable(space, sources, depths)


def cached_depths(space: StateSpace, sources: Sequence[int], path: Path, key: dict, title: str,
                  progress: Progress | None = None, build: bool = True, cache: bool = True,
                  **options) -> np.ndarray | None:
    """The one-byte depths of ``space`` from ``sources`` (the BFS with
    ``options``) cached at ``path`` under ``key``, or built and saved there;
    ``None`` when nothing is cached and ``build`` is false."""
    from permgroup.tables.bfs import bfs

    return cached_array(path, key, space.size,
                        (lambda report: bfs(space, list(sources), progress=report,
                                            **options).depths) if build else None,
                        title=title, size=space.size, progress=progress, cache=cache)[1]
