"""Depth tables of ranked state spaces: built by BFS from sources, cached, walked down.

A space is a :class:`~permgroup.spaces.space.StateSpace` (``-1`` where a move is
illegal, like :class:`permgroup.spaces.hole.HoleSpace`); for caching it also
has ``fingerprint()``.  The table is a dense ``uint8``
array of BFS depths from the sources (``UNSEEN`` where unreachable), so

* the distance from the sources to a state is one lookup;
* a shortest path to a state comes from walking the table down: some move
  leads to it from a state one level lower, and so on back to a source.

numpy and the BFS are imported by the functions that use them: finding a
cached table's file and key (:func:`table_cache`) must stay cheap for a
process that only reads a few bytes of a cached table.

>>> from permgroup.spaces.hole import _demo_space
>>> space = _demo_space()
>>> t = build_state_table(space, [space.rank("xo..xo")])
>>> t.distribution(), t.reachable
([1, 2], 3)
>>> [space.move_names[m] for m in t.path(space.rank("..oxxo"))]
['01']
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from permgroup.cache import cached_array, label_of, table_file
from permgroup.progress import Progress
from permgroup.tables.store import UNSEEN, depth_distribution

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from permgroup.spaces.space import StateSpace

class DepthTable:
    """What every depth table answers from its ``depths`` array alone.

    >>> import numpy as np
    >>> t = DepthTable()
    >>> t.depths = np.array([0, 1, 2, UNSEEN, 1], dtype=np.uint8)
    >>> t.distribution(), t.diameter, t.reachable
    ([1, 2, 1], 2, 4)
    """

    depths: np.ndarray

    def distribution(self) -> list[int]:
        """Number of states at each depth, from 0 to the deepest."""
        return depth_distribution(self.depths)

    @property
    def diameter(self) -> int:
        """The largest depth (God's number, for a table of a group)."""
        return len(self.distribution()) - 1

    @property
    def reachable(self) -> int:
        """How many states were reached."""
        return sum(self.distribution())

    def path(self, rank: int) -> list[int]:
        """Move indices of a shortest path from a source to ``rank`` (walked back
        with the space's ``back_step``)."""
        import numpy as np

        from permgroup.tables.walk import descend

        if self.depths[rank] == UNSEEN:
            raise ValueError(f"rank {rank} is not reachable from the sources")
        back = descend(np.array([rank], dtype=np.int64), self.space.n_moves,
                       self.space.back_step, lambda ranks: self.depths[ranks])[0]
        return back[::-1]


class StateTable(DepthTable):
    """BFS depths of every rank of ``space`` from ``sources``.

    >>> import numpy as np
    >>> from permgroup.spaces.hole import _demo_space
    >>> space = _demo_space()
    >>> depths = np.full(space.size, UNSEEN, dtype=np.uint8)
    >>> depths[[4, 1, 10]] = [0, 1, 1]   # the BFS result from rank 4, by hand
    >>> t = StateTable(space, [4], depths)
    >>> t.depth(10), t.depth(0), [space.move_names[m] for m in t.path(10)]
    (1, -1, ['21'])
    """

    def __init__(self, space: StateSpace, sources: Sequence[int], depths: np.ndarray):
        self.space = space
        self.sources = sorted(int(s) for s in sources)
        self.depths = depths

    def depth(self, rank: int) -> int:
        """The depth of one rank, ``-1`` if unreachable."""
        d = int(self.depths[rank])
        return -1 if d == UNSEEN else d



def build_state_table(space: StateSpace, sources: Sequence[int],
                      progress: Progress | None = None) -> StateTable:
    """BFS from ``sources`` over the whole space (no cache).

    Only top-down steps are used: in a space where most ranks are unreachable
    (parity and other invariants), scanning the unvisited ranks bottom-up
    would mostly scan states that never come.

    >>> from permgroup.spaces.hole import _demo_space
    >>> space = _demo_space()
    >>> levels = []
    >>> t = build_state_table(space, [space.rank("xo..xo")],
    ...                       progress=lambda depth, count: levels.append((depth, count)))
    >>> levels, t.sources, t.depth(space.rank("xoox.."))
    ([(0, 1), (1, 2)], [4], 1)
    """
    from permgroup.tables.bfs import bfs

    return StateTable(space, sources, bfs(space, list(sources), progress=progress,
                                          top_down_only=True).depths)


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
                     progress: Progress | None = None, cache: bool = True) -> StateTable:
    """The table from the cache if a valid file is there, else built and cached.

    >>> import os, tempfile
    >>> from permgroup.spaces.hole import _demo_space
    >>> os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> space = _demo_space()
    >>> built = load_state_table(space, [4], "tokens")   # built, then written
    >>> table_cache(space, [4], "tokens")[0].exists()
    True
    >>> read = load_state_table(space, [4], "tokens")    # read back from the file
    >>> read.distribution(), read.depths.tolist() == built.depths.tolist()
    ([1, 2], True)
    """
    depths = cached_depths(space, sources, *table_cache(space, sources, label),
                           f"{label} table", progress, cache=cache, top_down_only=True)
    return StateTable(space, sources, depths)


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
