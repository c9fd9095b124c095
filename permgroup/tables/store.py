"""Depth tables: what each keeps per state (a byte, four or two bits: the
constants below), what every table answers (:class:`DepthTable`), the one
walker down a table (:func:`descend`) and the cache file of a table
(:func:`puzzle_cache_file`, :func:`table_cache`).

numpy is imported by the functions that use it: a process that finds a cached
table's file and key, or reads one entry of it, never loads it.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from permgroup.cache import label_of, table_file

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from permgroup.spaces.space import StateSpace

#: a one-byte table's entry for a state not reached
UNSEEN = 255
#: a 4-bit table's entry for a state not reached (depths 0..14 fit beside it)
NIBBLE_UNSEEN = 15
#: a 2-bit table's code for a state not reached (codes 0..2 are depths mod 3)
UNSEEN_CODE = 3
#: threads sharing the blocks of a level (numpy releases the GIL in its loops)
THREADS = min(2, os.cpu_count() or 1)
#: ranks counted per ``bincount`` call (it widens its input to 64 bits)
COUNT_BLOCK = 1 << 22


def depth_distribution(depths: np.ndarray) -> list[int]:
    """Number of states at each depth of a one-byte table, from 0 to the deepest.

    >>> import numpy as np
    >>> depth_distribution(np.array([3, UNSEEN, 0], dtype=np.uint8))
    [1, 0, 0, 1]
    """
    import numpy as np

    counts = np.zeros(256, dtype=np.int64)
    # bincount reads its bytes as 8-byte integers: a block of COUNT_BLOCK
    # took 32 MB, twice a 63 M-state 2-bit table (the build's peak)
    block = COUNT_BLOCK // 16
    for lo in range(0, len(depths), block):
        counts += np.bincount(depths[lo:lo + block], minlength=256)
    counts = counts[:UNSEEN]
    return counts[: int(np.flatnonzero(counts).max()) + 1].tolist()


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
    suffix = {"byte": "table", "nibble": "nibbles", "2bit": "packed2"}[form]
    if (key.get("kind"), form) == ("colourings", "byte"):
        suffix = "colourings"  # its own suffix, which ``permgroup cache`` lists by
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


class DepthTable:
    """BFS depths of every rank of ``space`` from ``sources`` (``UNSEEN`` where
    not reached), and what every depth table answers from them.

    >>> import numpy as np
    >>> from permgroup.spaces.hole import _demo_space
    >>> space = _demo_space()
    >>> depths = np.full(space.size, UNSEEN, dtype=np.uint8)
    >>> depths[[4, 1, 10]] = [0, 1, 1]   # the BFS result from rank 4, by hand
    >>> t = DepthTable(space, [4], depths)
    >>> t.depth(10), t.depth(0), [space.move_names[m] for m in t.path(10)]
    (1, -1, ['21'])
    >>> t.distribution(), t.diameter, t.reachable
    ([1, 2], 1, 3)
    """

    def __init__(self, space: StateSpace, sources: Sequence[int], depths: np.ndarray):
        self.space = space
        self.sources = sorted(int(s) for s in sources)
        self.depths = depths

    def depth(self, rank: int) -> int:
        """The depth of one rank, ``-1`` if unreachable."""
        d = int(self.depths[rank])
        return -1 if d == UNSEEN else d

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

        if self.depths[rank] == UNSEEN:
            raise ValueError(f"rank {rank} is not reachable from the sources")
        return descend(np.array([rank], dtype=np.int64), self.space.n_moves,
                       self.space.back_step, lambda ranks: self.depths[ranks])[0][::-1]


def descend(states: np.ndarray, n_moves: int, move: Callable[[np.ndarray, int], np.ndarray],
            level: Callable[[np.ndarray], np.ndarray],
            lower: Callable[[np.ndarray], np.ndarray] | None = None,
            arrived: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
            lengths: bool = False) -> list[list[int]] | np.ndarray:
    """For each state (an array of ranks, or the columns of a ``(k, N)`` array of
    digits), the moves (indices, in the order taken) that ``move`` takes from it
    down to a source, every state one level down per round, each by the first
    move that lowers it, one array operation per move.

    ``level(states)`` reads the states' levels; the one wanted below a level
    is ``lower(level)`` (``level - 1`` by default: exact depths); a state has
    ``arrived`` when ``arrived(states, levels)`` says so (level 0 by default).
    ``move(states, m)`` is ``-1`` where ``m`` is not legal (ranks only).
    Every state must lie in the table; a state with no way down is an error.
    With ``lengths``, only how many moves each path has (the exact depths).

    >>> import numpy as np
    >>> depths = np.array([0, 1, 2, 1])                            # a 4-cycle from state 0
    >>> back = lambda r, m: (r - 1) % 4 if m == 0 else (r + 1) % 4  # predecessors
    >>> descend(np.array([2, 3, 0]), 2, back, lambda r: depths[r])
    [[0, 0], [1], []]
    >>> codes = depths % 3                                         # 2 bits: the walk ends at 0
    >>> descend(np.array([2]), 2, back, lambda r: codes[r], lambda c: (c + 2) % 3,
    ...         lambda r, c: r == 0, lengths=True).tolist()
    [2]
    """
    import numpy as np

    lower = lower or (lambda levels: levels - 1)
    arrived = arrived or (lambda _, levels: levels == 0)
    here = np.array(states, copy=True)
    at = level(here).astype(np.int64)
    paths: list[list[int]] = [[] for _ in range(here.shape[-1])]
    steps = np.zeros(here.shape[-1], dtype=np.int64)
    active = np.flatnonzero(~arrived(here, at))
    while len(active):
        want = lower(at[active])
        chosen = np.full(len(active), -1, dtype=np.int64)
        for m in range(n_moves):
            todo = np.flatnonzero(chosen < 0)
            if not len(todo):
                break
            before = move(here[..., active[todo]], m)
            ok = np.ones(len(todo), dtype=bool) if before.ndim > 1 else before >= 0
            ok[ok] = level(before[..., ok]) == want[todo[ok]]
            chosen[todo[ok]] = m
            here[..., active[todo[ok]]] = before[..., ok]
        if (chosen < 0).any():  # pragma: no cover - a consistent table always has a way down
            raise RuntimeError("depth table is inconsistent (no move leads a level down)")
        steps[active] += 1
        if not lengths:
            for i, m in zip(active.tolist(), chosen.tolist()):
                paths[i].append(m)
        at[active] = want
        active = active[~arrived(here[..., active], want)]
    return steps if lengths else paths
