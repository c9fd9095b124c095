"""The Cayley-graph distance table of a puzzle group, built by BFS and cached.

The table is a dense ``uint8`` array indexed by the rank of a normalized element
(:mod:`permgroup.tables.coordinates`): entry ``g`` is the least number of moves in the
chosen metric whose product lies in ``g``'s symmetry class.  Then

* ``distance(p, q)`` is the entry of ``p⁻¹ q``: the moves that take the state of
  ``p`` to the state of ``q`` are exactly the words equal to ``p⁻¹ q``;
* ``word(g)`` walks the table down from ``g`` to the identity, one move per
  level, giving an optimal word for ``g``.

>>> from permgroup.perm import from_cycles
>>> from permgroup.puzzle import Puzzle
>>> cyc = from_cycles([(0, 1, 2), (3, 4, 5)], 6)
>>> p = Puzzle("gear", 6, {"G": cyc}, pieces={"tooth": ((0, 3), (1, 4), (2, 5))})
>>> t = build_table(p, "qtm")
>>> t.distribution(), t.diameter
([1, 2], 1)
>>> t.word(from_cycles([(0, 2, 1), (3, 5, 4)], 6))
["G'"]
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from permgroup.cache import cache_dir, load_bytes, save_array
from permgroup.tables.coordinates import ElementRanking, PieceCoordinate
from permgroup.metric import Metric, metric_label, metric_moves
from permgroup.normalize import Normalizer
from permgroup.perm import Perm, compose, inverse
from permgroup.puzzle import Puzzle
from permgroup.progress import Progress, building
from permgroup.tables.statetable import DepthTable, walk_down
from permgroup.tables.store import NIBBLE_UNSEEN, UNSEEN

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from permgroup.tables.bfs import FactorSpace


@dataclass
class CayleyModel:
    """Everything about a puzzle and metric except the table itself.

    ``moves`` are the metric's moves in normalized form (duplicates removed),
    in the order of ``move_names``; ``ranking`` ranks normalized elements.

    >>> from permgroup.perm import from_cycles
    >>> cyc = from_cycles([(0, 1, 2), (3, 4, 5)], 6)
    >>> gear = Puzzle("gear", 6, {"G": cyc}, pieces={"tooth": ((0, 3), (1, 4), (2, 5))})
    >>> model = CayleyModel.of(gear, "htm")  # G2 is G', so one name goes
    >>> model.move_names, model.moves
    (['G', "G'"], [(1, 2, 0, 4, 5, 3), (2, 0, 1, 5, 3, 4)])
    >>> model.cache_path().name.startswith("gear-htm-a0-")
    True
    """

    puzzle: Puzzle
    metric: Metric
    normalizer: Normalizer
    move_names: list[str]
    moves: list[Perm]
    ranking: ElementRanking

    @classmethod
    def of(cls, puzzle: Puzzle, metric: Metric = "qtm", anchor: int | None = None) -> CayleyModel:
        normalizer = Normalizer.from_puzzle(puzzle, anchor)
        moves = normalizer.normalize_moves(metric_moves(puzzle, metric))
        if not puzzle.pieces:
            raise ValueError(f"{puzzle.name}: a table needs the puzzle's pieces")
        ranking = ElementRanking(
            [PieceCoordinate.from_moves(kind, pieces, moves)
             for kind, pieces in puzzle.pieces.items()
             if any(m[x] != x for m in moves.values() for p in pieces for x in p)]
        )
        return cls(puzzle, metric, normalizer, list(moves), list(moves.values()), ranking)

    def normalize(self, element: Sequence[int]) -> Perm:
        return self.normalizer.normalize(element)

    def cache_key(self) -> dict:
        return {
            "puzzle": self.puzzle.fingerprint(),
            "metric": metric_label(self.metric),
            "anchor": self.normalizer.anchor,
            "size": self.ranking.size,
        }

    def cache_path(self) -> Path:
        digest = self.puzzle.fingerprint()[:16]
        label = metric_label(self.metric).replace("'", "i").replace(",", "-")
        if len(label) > 40:
            label = "custom"
        anchor = self.normalizer.anchor
        return cache_dir() / f"{self.puzzle.name}-{label}-a{anchor}-{digest}.table"

    def cache_file(self, form: str = "table") -> tuple[Path, dict]:
        """The file of the cached table in ``form`` (a key of ``CACHED_FORMS``)
        and the key its header must hold."""
        key = self.cache_key() if form == "table" else dict(self.cache_key(), format=form)
        return self.cache_path().with_suffix(f".{form}"), key

    def load_cached(self, form: str = "table") -> tuple[dict, bytes] | None:
        """The header and bytes of the cached table in ``form``; ``None`` if no
        valid file of the right length holds it."""
        loaded = load_bytes(*self.cache_file(form))
        if loaded is None or loaded[0]["shape"] != [-(-self.ranking.size // CACHED_FORMS[form])]:
            return None
        return loaded


#: entries per byte of each cached form of a Cayley table, by file suffix:
#: one-byte depths, 4-bit depths, 2-bit codes (:mod:`permgroup.tables.packed_table`)
CACHED_FORMS = {"table": 1, "nibbles": 2, "packed2": 4}


class CayleyTable(DepthTable):
    """A model and its depth array; see the module docstring.

    ``depths`` may be given as raw bytes (a table read from the cache by a
    process that only looks entries up); it is viewed as a numpy array the
    first time array work needs it, so such a process never imports numpy.
    With ``bits=4`` the bytes hold two entries each (:func:`load_nibble_table`).

    >>> from permgroup.perm import from_cycles
    >>> cyc = from_cycles([(0, 1, 2), (3, 4, 5)], 6)
    >>> gear = Puzzle("gear", 6, {"G": cyc}, pieces={"tooth": ((0, 3), (1, 4), (2, 5))})
    >>> model = CayleyModel.of(gear)
    >>> identity = model.ranking.rank(tuple(range(6)))
    >>> entries = bytearray([255]) * model.ranking.size   # only the identity known
    >>> entries[identity] = 0
    >>> table = CayleyTable(model, bytes(entries))
    >>> table.depth(tuple(range(6))), table.depth(cyc), table.reachable
    (0, -1, 1)
    >>> build_table(gear).solve(cyc, tuple(range(6)))
    ["G'"]
    """

    def __init__(self, model: CayleyModel, depths: np.ndarray | bytes, bits: int = 8):
        if bits not in (8, 4):
            raise ValueError(f"a table holds 8 or 4 bits an entry, not {bits}")
        self.model = model
        self.bits = bits
        self._entries = depths
        self._array: np.ndarray | None = depths if bits == 8 and not isinstance(depths, bytes) \
            else None
        self._space: FactorSpace | None = None

    @property
    def depths(self) -> np.ndarray:
        """The table as a ``uint8`` numpy array indexed by rank (a 4-bit
        table is unpacked to it the first time array work needs it)."""
        if self._array is None:
            import numpy as np

            raw = np.frombuffer(self._entries, dtype=np.uint8)
            if self.bits == 4:
                from permgroup.tables.packed import nibbles_at

                raw = nibbles_at(raw, np.arange(self.model.ranking.size))
                raw[raw == NIBBLE_UNSEEN] = UNSEEN
            self._array = raw
        return self._array

    @property
    def space(self) -> FactorSpace:
        if self._space is None:
            from permgroup.tables.bfs import FactorSpace

            self._space = FactorSpace(self.model.ranking.factors())
        return self._space

    def depth(self, element: Sequence[int]) -> int:
        """Moves needed for ``element`` (normalized first); ``-1`` if unreachable."""
        return self._depth_of_normalized(self.model.normalize(element))

    def _depth_of_normalized(self, element: Sequence[int]) -> int:
        rank = self.model.ranking.rank(element)
        if self.bits == 4:
            d = (self._entries[rank >> 1] >> ((rank & 1) << 2)) & 15
            return -1 if d == NIBBLE_UNSEEN else d
        d = int(self._entries[rank])
        return -1 if d == UNSEEN else d

    def distance(self, p: Sequence[int], q: Sequence[int]) -> int:
        """Moves from the state of ``p`` to the state of ``q``: the entry of ``p⁻¹ q``."""
        p, q = self.model.normalize(p), self.model.normalize(q)
        # p and q fix the anchor, so p⁻¹ q does too: it is already normalized
        return self._depth_of_normalized(compose(inverse(p), q))

    def distances(self, p_ranks: np.ndarray, q_ranks: np.ndarray) -> np.ndarray:
        """Vectorized :meth:`distance` on arrays of ranks."""
        return self.depths[self.model.ranking.quotient_ranks(p_ranks, q_ranks)]

    def word(self, element: Sequence[int]) -> list[str]:
        """An optimal word (move names) whose product is in ``element``'s class."""
        import numpy as np

        rank = self.model.ranking.rank(self.model.normalize(element))
        if self.depths[rank] == UNSEEN:
            raise ValueError("element is not reachable with these moves")
        moves = walk_down(self.depths, np.array([rank]), len(self.model.moves),
                          self.space.back_step)
        return [self.model.move_names[m] for m in moves]

    def solve(self, p: Sequence[int], q: Sequence[int]) -> list[str]:
        """An optimal word taking the state of ``p`` to the state of ``q``."""
        p, q = self.model.normalize(p), self.model.normalize(q)
        return self.word(compose(inverse(p), q))


def build_table(puzzle: Puzzle, metric: Metric = "qtm", *, progress: Progress | None = None,
                anchor: int | None = None) -> CayleyTable:
    """Build the table by breadth-first search from the identity (no cache).

    >>> from permgroup.perm import from_cycles
    >>> cyc = from_cycles([(0, 1, 2), (3, 4, 5)], 6)
    >>> gear = Puzzle("gear", 6, {"G": cyc}, pieces={"tooth": ((0, 3), (1, 4), (2, 5))})
    >>> t = build_table(gear, ["G"])  # one way round only
    >>> t.distribution(), t.depth(from_cycles([(0, 2, 1), (3, 5, 4)], 6))
    ([1, 1, 1], 2)
    """
    from permgroup.tables.bfs import FactorSpace, bfs_depths

    model = CayleyModel.of(puzzle, metric, anchor)
    space = FactorSpace(model.ranking.factors())
    identity = model.ranking.rank(tuple(range(puzzle.degree)))
    depths = bfs_depths(space.size, [identity], space.n_moves, space.step, space.back_step,
                        progress=progress, dense_step=space.dense_step)
    table = CayleyTable(model, depths)
    table._space = space
    return table


def load_table(puzzle: Puzzle, metric: Metric = "qtm", *, progress: Progress | None = None,
               anchor: int | None = None, cache: bool = True) -> CayleyTable:
    """The table from the cache if a valid file is there, else built and cached.

    >>> import os, tempfile
    >>> from permgroup.perm import from_cycles
    >>> cyc = from_cycles([(0, 1, 2), (3, 4, 5)], 6)
    >>> gear = Puzzle("gear", 6, {"G": cyc}, pieces={"tooth": ((0, 3), (1, 4), (2, 5))})
    >>> os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> built = load_table(gear)                  # built, then written
    >>> CayleyModel.of(gear).cache_path().exists()
    True
    >>> read = load_table(gear)                   # read back from the file
    >>> read.distribution() == built.distribution(), read.distance(cyc, tuple(range(6)))
    (True, 1)
    """
    model = CayleyModel.of(puzzle, metric, anchor)
    if cache:
        loaded = model.load_cached()
        if loaded is not None:
            return CayleyTable(model, loaded[1])
    with building(progress, f"{puzzle.name} {metric_label(metric)} table (built once, "
                  "then cached)", model.ranking.size) as report:
        table = build_table(puzzle, metric, progress=report, anchor=anchor)
    if cache:
        save_array(*model.cache_file(), table.depths)
    return table


def load_nibble_table(puzzle: Puzzle, metric: Metric = "qtm", *,
                      progress: Progress | None = None, anchor: int | None = None,
                      cache: bool = True) -> CayleyTable:
    """The table in 4 bits an entry, half the one-byte table, for groups whose
    diameter is at most 14: a lookup reads a nibble, no walk down, no numpy.
    Read from the cache, else made from :func:`load_table`'s one-byte table
    and cached.

    >>> import os, tempfile
    >>> from permgroup.perm import from_cycles
    >>> cyc = from_cycles([(0, 1, 2), (3, 4, 5)], 6)
    >>> gear = Puzzle("gear", 6, {"G": cyc}, pieces={"tooth": ((0, 3), (1, 4), (2, 5))})
    >>> os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> t = load_nibble_table(gear)
    >>> t.bits, t.depth(cyc), t.distribution(), load_nibble_table(gear).depth(cyc)
    (4, 1, [1, 2], 1)
    """
    model = CayleyModel.of(puzzle, metric, anchor)
    if cache:
        loaded = model.load_cached("nibbles")
        if loaded is not None:
            return CayleyTable(model, loaded[1], bits=4)
    full = load_table(puzzle, metric, progress=progress, anchor=anchor, cache=cache)
    if full.diameter >= NIBBLE_UNSEEN:
        raise ValueError(f"{puzzle.name} ({metric_label(metric)}): diameter {full.diameter} "
                         f"does not fit in 4 bits (at most {NIBBLE_UNSEEN - 1})")
    from permgroup.tables.packed import pack_nibbles

    depths = full.depths.copy()
    depths[depths == UNSEEN] = NIBBLE_UNSEEN
    packed = pack_nibbles(depths)
    if cache:
        save_array(*model.cache_file("nibbles"), packed)
    table = CayleyTable(model, packed.tobytes(), bits=4)
    table._array, table._space = full.depths, full._space
    return table
