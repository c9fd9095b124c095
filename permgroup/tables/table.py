"""The Cayley-graph distance table of a puzzle group, built by BFS and cached.

The table holds an entry per rank of a normalized element
(:class:`permgroup.spaces.element.ElementSpace`): the least number of moves whose
product lies in that element's symmetry class.  ``distance(p, q)`` is the entry
of ``p⁻¹ q`` (the words taking the state of ``p`` to that of ``q``), ``word(g)``
walks the table down from ``g``.  An entry takes one byte, four bits (diameter
at most 14) or two bits (the depth mod 3: a lookup walks down to the identity).
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from permgroup.cache import cached_array
from permgroup.metric import Metric, metric_label
from permgroup.perm import compose, inverse
from permgroup.progress import Progress
from permgroup.puzzle import Puzzle
from permgroup.spaces.element import ElementSpace
from permgroup.tables.store import NIBBLE_UNSEEN, UNSEEN, DepthTable, puzzle_cache_file

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

#: the form of a table of each width (bits an entry)
FORMS = {8: "byte", 4: "nibble", 2: "2bit"}


def element_key(space: ElementSpace) -> dict:
    """What identifies the table of ``space`` (its file, its header)."""
    return {"puzzle": space.puzzle.fingerprint(), "metric": metric_label(space.metric),
            "kind": "elements", "anchor": space.normalizer.anchor}


def cache_file(space: ElementSpace, bits: int = 8) -> tuple[Path, dict]:
    """The cache file of the table of ``space`` at ``bits`` an entry, and its key.

    >>> from permgroup.perm import from_cycles
    >>> gear = Puzzle("gear", 6, {"G": from_cycles([(0, 1, 2), (3, 4, 5)], 6)},
    ...               pieces={"tooth": ((0, 3), (1, 4), (2, 5))})
    >>> cache_file(ElementSpace(gear, "htm"), 4)[0].name.startswith("gear-htm-a0-")
    True
    """
    return puzzle_cache_file(space.puzzle.name, element_key(space), FORMS[bits], space.size)


class CayleyTable(DepthTable):
    """An :class:`~permgroup.spaces.element.ElementSpace` and its entries, which
    may be raw bytes (read from the cache by a process that only looks entries
    up, and so never imports numpy).  A 2-bit table carries its distribution
    (``levels``), which its codes do not tell.

    >>> from permgroup.perm import from_cycles
    >>> cyc = from_cycles([(0, 1, 2), (3, 4, 5)], 6)
    >>> gear = Puzzle("gear", 6, {"G": cyc}, pieces={"tooth": ((0, 3), (1, 4), (2, 5))})
    >>> space = ElementSpace(gear)
    >>> entries = bytearray([255]) * space.size   # only the identity known
    >>> entries[space.identity] = 0
    >>> table = CayleyTable(space, bytes(entries))
    >>> table.depth(tuple(range(6))), table.depth(cyc), table.reachable
    (0, -1, 1)
    >>> build_table(gear).solve(cyc, tuple(range(6)))
    ["G'"]
    """

    def __init__(self, space: ElementSpace, entries: np.ndarray | bytes, bits: int = 8,
                 levels: Sequence[int] | None = None):
        if bits not in FORMS:
            raise ValueError(f"a table holds 8, 4 or 2 bits an entry, not {bits}")
        self.space, self.bits, self._entries = space, bits, entries
        self._array: np.ndarray | None = None if isinstance(entries, bytes) or bits != 8 \
            else entries
        self._packed = None
        if bits == 2:
            from permgroup.tables.packed import PackedTable

            self._packed = PackedTable(space, [space.identity], self.raw(), levels)

    @property
    def depths(self) -> np.ndarray:
        """The table as a ``uint8`` numpy array indexed by rank, made the first
        time array work needs it."""
        if self._array is None:
            if self.bits == 2:
                raise ValueError("a 2-bit table keeps depths mod 3: walk it (depths_of)")
            raw = self.raw()
            if self.bits == 4:
                from permgroup.tables.packed import unpack

                raw = unpack(raw, 4)[:self.space.size]
                raw[raw == NIBBLE_UNSEEN] = UNSEEN
            self._array = raw
        return self._array

    def distribution(self) -> list[int]:
        return self._packed.distribution() if self.bits == 2 else super().distribution()

    def raw(self) -> np.ndarray:
        """The entries as they are stored (8, 4 or 2 bits an entry)."""
        import numpy as np

        if self._packed is not None:
            return self._packed.packed
        return np.frombuffer(self._entries, dtype=np.uint8)

    def depth_of_rank(self, rank: int) -> int:
        """The entry of one rank; ``-1`` if unreachable."""
        if self.bits == 2:
            return self._packed.depth(rank)
        if self.bits == 4:
            d = (self._entries[rank >> 1] >> ((rank & 1) << 2)) & 15
            return -1 if d == NIBBLE_UNSEEN else d
        d = int(self._entries[rank])
        return -1 if d == UNSEEN else d

    def depth(self, element: Sequence[int]) -> int:
        """Moves needed for ``element`` (normalized first); ``-1`` if unreachable."""
        return self.depth_of_rank(self.space.rank(element))

    def depths_of(self, ranks: np.ndarray) -> np.ndarray:
        """Entries of many ranks (``UNSEEN``, or ``-1`` from a 2-bit table, where
        unreachable)."""
        return self._packed.depths_of(ranks) if self.bits == 2 else self.depths[ranks]

    def distance(self, p: Sequence[int], q: Sequence[int]) -> int:
        """Moves from the state of ``p`` to the state of ``q``: the entry of ``p⁻¹ q``."""
        p, q = self.space.normalize(p), self.space.normalize(q)
        # p and q fix the anchor, so p⁻¹ q does too: it is already normalized
        return self.depth_of_rank(self.space.ranking.rank(compose(inverse(p), q)))

    def distances(self, p_ranks: np.ndarray, q_ranks: np.ndarray) -> np.ndarray:
        """Vectorized :meth:`distance` on arrays of ranks."""
        return self.depths_of(self.space.quotient_ranks(p_ranks, q_ranks))

    def word(self, element: Sequence[int]) -> list[str]:
        """An optimal word whose product is in ``element``'s class."""
        rank = self.space.rank(element)
        if self.depth_of_rank(rank) < 0:
            raise ValueError("element is not reachable with these moves")
        moves = self._packed.path(rank) if self.bits == 2 else self.path(rank)
        return [self.space.move_names[m] for m in moves]

    def solve(self, p: Sequence[int], q: Sequence[int]) -> list[str]:
        """An optimal word taking the state of ``p`` to the state of ``q``."""
        p, q = self.space.normalize(p), self.space.normalize(q)
        return self.word(compose(inverse(p), q))


def build_table(puzzle: Puzzle, metric: Metric = "qtm", *, progress: Progress | None = None,
                anchor: int | None = None, bits: int = 8, space: ElementSpace | None = None
                ) -> CayleyTable:
    """Build the table by breadth-first search from the identity (no cache), over
    ``space`` when the caller has made it; a 2-bit table never holds a byte a state.

    >>> from permgroup.perm import from_cycles
    >>> cyc = from_cycles([(0, 1, 2), (3, 4, 5)], 6)
    >>> gear = Puzzle("gear", 6, {"G": cyc}, pieces={"tooth": ((0, 3), (1, 4), (2, 5))})
    >>> t = build_table(gear, "qtm")
    >>> t.distribution(), t.diameter, t.word(from_cycles([(0, 2, 1), (3, 5, 4)], 6))
    ([1, 2], 1, ["G'"])
    >>> [build_table(gear, bits=b).distance(cyc, tuple(range(6))) for b in (8, 4, 2)]
    [1, 1, 1]
    >>> t = build_table(gear, ["G"])  # one way round only
    >>> t.distribution(), t.depth(from_cycles([(0, 2, 1), (3, 5, 4)], 6))
    ([1, 1, 1], 2)
    """
    space = space or ElementSpace(puzzle, metric, anchor)
    if bits == 2:
        from permgroup.tables.bfs import packed_depths
        from permgroup.tables.packed import inverse_closed

        if not inverse_closed(space):
            raise ValueError(f"{puzzle.name} ({metric_label(metric)}): a 2-bit table needs "
                             "moves closed under inverses")
        packed = packed_depths(space, [space.identity], progress=progress)
        return CayleyTable(space, packed.packed, 2, packed.distribution())
    from permgroup.tables.bfs import bfs

    table = CayleyTable(space, bfs(space, [space.identity], progress=progress).depths)
    return table if bits == 8 else _nibbles(table)


def _nibbles(full: CayleyTable) -> CayleyTable:
    """The 4-bit table of a one-byte table (its depths kept beside, for array work)."""
    from permgroup.tables.packed import pack

    if full.diameter >= NIBBLE_UNSEEN:
        raise ValueError(f"{full.space.puzzle.name} ({metric_label(full.space.metric)}): "
                         f"diameter {full.diameter} does not fit in 4 bits (at most "
                         f"{NIBBLE_UNSEEN - 1})")
    table = CayleyTable(full.space, pack(full.depths.clip(0, NIBBLE_UNSEEN), 4).tobytes(), 4)
    table._array = full.depths
    return table


def load_table(puzzle: Puzzle, metric: Metric = "qtm", *, progress: Progress | None = None,
               anchor: int | None = None, cache: bool = True, bits: int = 8) -> CayleyTable:
    """The table from the cache, else built and cached (a 4-bit table from the
    one-byte one, cached too).

    >>> import os, tempfile
    >>> from permgroup.perm import from_cycles
    >>> cyc = from_cycles([(0, 1, 2), (3, 4, 5)], 6)
    >>> gear = Puzzle("gear", 6, {"G": cyc}, pieces={"tooth": ((0, 3), (1, 4), (2, 5))})
    >>> os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> built = load_table(gear)                  # built, then written
    >>> cache_file(ElementSpace(gear))[0].exists()
    True
    >>> read = load_table(gear)                   # read back from the file
    >>> read.distribution() == built.distribution(), read.distance(cyc, tuple(range(6)))
    (True, 1)
    >>> [(t.bits, t.distribution()) for t in (load_table(gear, bits=b) for b in (4, 2))]
    [(4, [1, 2]), (2, [1, 2])]
    """
    space = ElementSpace(puzzle, metric, anchor)
    built: list[CayleyTable] = []

    def build(report):
        if bits == 4:
            table = _nibbles(load_table(puzzle, metric, progress=progress, anchor=anchor,
                                        cache=cache))
        else:
            table = build_table(puzzle, metric, progress=report, anchor=anchor, bits=bits,
                                space=space)
        built.append(table)
        return table.raw(), {"levels": table.distribution()} if bits == 2 else {}

    header, data = cached_array(*cache_file(space, bits), -(-space.size * bits // 8), build,
                                title=f"{puzzle.name} {metric_label(metric)} table",
                                size=space.size, progress=progress if bits != 4 else None,
                                cache=cache, raw=True)
    return built[0] if built else CayleyTable(space, data, bits, header.get("levels"))
