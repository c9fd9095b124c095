"""Depth tables in two bits per state: each state's depth modulo 3 (and
tables of 4-bit entries, for depths that fit in a nibble: ``bits=4``).

A state keeps its depth modulo 3 (codes 0, 1, 2) or ``UNSEEN_CODE`` (3), four
states to a byte, rank ``r`` in bits ``2 (r mod 4)`` of byte ``r // 4``.  In a
graph whose moves are closed under inverses, neighbours' depths differ by at
most one, so the neighbour whose code is one less (mod 3) is one level lower:
walking down to a source gives the exact depth.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from permgroup.tables.store import COUNT_BLOCK, UNSEEN, UNSEEN_CODE, DepthTable, descend


def empty_packed(size: int) -> np.ndarray:
    """A 2-bit table of ``size`` unseen states.

    >>> empty_packed(5).tolist()
    [255, 255]
    """
    return np.full((size + 3) // 4, 0xFF, dtype=np.uint8)


def read_codes(packed: np.ndarray, ranks: np.ndarray, bits: int = 2) -> np.ndarray:
    """The entries of ``ranks`` in a table of ``bits``-bit entries (2 or 4),
    ``8 // bits`` to a byte, the first in the lowest bits.

    >>> read_codes(np.array([0b11100100], dtype=np.uint8), np.array([0, 1, 2, 3])).tolist()
    [0, 1, 2, 3]
    >>> read_codes(np.array([0x21, 0x03], dtype=np.uint8), np.array([2, 0, 1]), 4).tolist()
    [3, 1, 2]
    """
    ranks = np.asarray(ranks)
    per_byte = 8 // bits
    shift = ((ranks & (per_byte - 1)) * bits).astype(np.uint8)
    return (packed[ranks >> (per_byte.bit_length() - 1)] >> shift) & np.uint8((1 << bits) - 1)


def write_codes(packed: np.ndarray, ranks: np.ndarray, code: int) -> None:
    """Give the unseen ``ranks`` the code ``code`` (distinct ranks; their bytes
    may repeat).

    >>> packed = empty_packed(4)
    >>> write_codes(packed, np.array([2, 0]), 1)
    >>> read_codes(packed, np.arange(4)).tolist()
    [1, 3, 1, 3]
    """
    apply_writes(packed, code_writes(ranks, code))


def code_writes(ranks: np.ndarray, code: int) -> tuple[np.ndarray, np.ndarray]:
    """What :func:`write_codes` does to the bytes, worked out before it is done
    (threads sharing a table find it apart and take turns only to write, with
    :func:`apply_writes`): each rank's byte, and the bits of its place that
    ``code`` clears from ``UNSEEN_CODE``.

    >>> [a.tolist() for a in code_writes(np.array([5, 2]), 1)]
    [[1, 0], [8, 32]]
    """
    ranks = np.asarray(ranks)
    clears = np.array([(UNSEEN_CODE ^ code) << (2 * k) for k in range(4)], dtype=np.uint8)
    # intp bytes: the gather and the subtraction would convert narrower ones each time
    return (ranks >> 2).astype(np.intp), clears.take(ranks & 3)


def apply_writes(packed: np.ndarray, writes: tuple[np.ndarray, np.ndarray]) -> None:
    """Do the writes of :func:`code_writes` (threads sharing ``packed`` take
    turns).  Taking a place's set bits away clears them, and
    ``np.subtract.at``, unlike a fancy assignment, does every subtraction
    when a byte repeats (ranks sharing it), at a third of the cost of the four
    passes by place it replaced, which needed the ranks sorted by place (a
    torus build's writes 0.165 s against 0.385 s), and numpy has no fast
    ``bitwise_and.at``.  Only the bits still set are taken (read here, not
    when the caller found the ranks unseen): another thread may have written
    a rank since, and a rank given twice would borrow from its neighbours.

    >>> packed = empty_packed(8)
    >>> writes = code_writes(np.array([0, 1, 5]), 2)  # ranks 0 and 1 share a byte
    >>> write_codes(packed, np.array([1]), 2)         # another thread was first to rank 1
    >>> apply_writes(packed, writes); read_codes(packed, np.arange(8)).tolist()
    [2, 2, 3, 3, 3, 2, 3, 3]
    """
    where, bits = writes
    bits &= packed[where]
    np.subtract.at(packed, where, bits)


#: each byte's entries (2 or 4 bits each) as the bytes of one word, for :func:`unpack`
_ENTRIES = {bits: np.array([[(v >> (bits * k)) & ((1 << bits) - 1) for k in range(8 // bits)]
                            for v in range(256)], dtype=np.uint8).view(f"<u{8 // bits}").ravel()
            for bits in (2, 4)}


def unpack(block: np.ndarray, bits: int = 2) -> np.ndarray:
    """Every entry of a run of bytes of ``bits``-bit entries (see :func:`read_codes`).

    >>> unpack(np.array([0b11100100, 0xFF], dtype=np.uint8)).tolist()
    [0, 1, 2, 3, 3, 3, 3, 3]
    >>> unpack(np.array([0x21], dtype=np.uint8), 4).tolist()
    [1, 2]
    """
    # each byte's entries gathered as one word: 15 ms against 25 for a shift and a
    # mask a place (each writing every fourth byte) over a torus's 16 MB table; an
    # index of bytes keeps numpy's conversion of it to a buffer, where ``take``
    # would widen it whole to 8 bytes an entry
    return _ENTRIES[bits][block].view(np.uint8)


def count_code(packed: np.ndarray, code: int) -> int:
    """How many entries of a 2-bit table hold ``code``, eight bytes at a time: a
    place holding ``code`` is one whose two bits both match it.

    >>> codes = np.array([0b11100100, 0b01010101] + [0b00001001] * 7, dtype=np.uint8)
    >>> [count_code(codes, code) for code in range(3)]
    [15, 12, 8]
    """
    n = len(packed) // 8 * 8
    words = packed[:n].view(np.uint64)
    one = np.uint64(1)
    fives, threes, fifteens = (np.uint64(0x5555555555555555), np.uint64(0x3333333333333333),
                               np.uint64(0x0F0F0F0F0F0F0F0F))
    total = 0
    # a histogram of the bytes took five times as long (bincount widens them to 64
    # bits); blocks of 256 kB keep the temporaries far below a table's size
    for lo in range(0, len(words), COUNT_BLOCK // 128):
        x = words[lo:lo + COUNT_BLOCK // 128] ^ np.uint64(code * 0x5555555555555555)
        x |= x >> one
        x = ~x & fives                                         # a bit at each match
        x = (x & threes) + ((x >> np.uint64(2)) & threes)      # the bits summed
        x = (x + (x >> np.uint64(4))) & fifteens               # per byte
        total += int(((x * np.uint64(0x0101010101010101)) >> np.uint64(56)).sum())
    return total + int(np.count_nonzero(unpack(packed[n:]) == code))


def pack(codes: np.ndarray, bits: int = 2) -> np.ndarray:
    """Inverse of :func:`unpack`, the last byte padded with ones (unseen).

    >>> pack(np.array([0, 1, 2, 3], dtype=np.uint8)).tolist()
    [228]
    >>> pack(np.array([1, 2, 3], dtype=np.uint8), 4).tolist()
    [33, 243]
    """
    per_byte = 8 // bits
    codes = np.ascontiguousarray(codes, dtype=np.uint8)
    if len(codes) % per_byte:
        codes = np.append(codes, np.full(-len(codes) % per_byte, (1 << bits) - 1, np.uint8))
    # a byte's entries read as one little-endian word and shifted into its low
    # byte, entries doubling each shift: four times as fast as a pass a place
    word = codes.view(f"<u{per_byte}")
    step, done = 8 - bits, 1
    while done < per_byte:
        word = word | (word >> (step * done))
        done *= 2
    return word.astype(np.uint8)


def pack_depths(depths: np.ndarray) -> np.ndarray:
    """The 2-bit table of a one-byte depth table (``UNSEEN`` stays unseen),
    converted a block at a time.

    >>> unpack(pack_depths(np.array([0, 1, 2, 3, 4, UNSEEN], dtype=np.uint8))).tolist()
    [0, 1, 2, 0, 1, 3, 3, 3]
    """
    codes = np.append(np.arange(UNSEEN) % 3, UNSEEN_CODE).astype(np.uint8)  # of each byte
    packed = empty_packed(len(depths))
    for lo in range(0, len(depths), COUNT_BLOCK):
        block = pack(codes[depths[lo:lo + COUNT_BLOCK]])
        packed[lo // 4:lo // 4 + len(block)] = block
    return packed


def unpack_depths(packed: np.ndarray, size: int, depth: int) -> np.ndarray:
    """A one-byte depth table from a 2-bit one whose levels are complete up to
    ``depth``: each code becomes the deepest level at most ``depth`` with that
    residue.  Levels below ``depth - 2`` come back wrong, but with the right
    code, and a BFS going on from ``depth`` reads only the last level and the
    unseen states (how an interrupted build resumes).

    >>> unpack_depths(pack_depths(np.array([0, 1, 2, 3, 4, UNSEEN], dtype=np.uint8)), 6, 4
    ...               ).tolist()
    [3, 4, 2, 3, 4, 255]
    """
    values = np.array([depth - (depth - code) % 3 for code in range(3)] + [UNSEEN]).astype(np.uint8)
    depths = np.empty(size, dtype=np.uint8)
    for lo in range(0, len(packed), COUNT_BLOCK // 4):
        block = values[unpack(packed[lo:lo + COUNT_BLOCK // 4])[:size - 4 * lo]]
        depths[4 * lo:4 * lo + len(block)] = block
    return depths


def inverse_closed(space) -> bool:
    """Whether every move of ``space`` is undone by some move, checked on 64
    random ranks (walking a mod-3 table down needs it).

    >>> from permgroup.spaces.product import FactorSpace
    >>> from permgroup.spaces.space import Factor
    >>> one_way = FactorSpace([Factor("cell", 3, np.array([[1, 2, 0]]))])
    >>> both = FactorSpace([Factor("cell", 3, np.array([[1, 2, 0], [2, 0, 1]]))])
    >>> inverse_closed(one_way), inverse_closed(both)
    (False, True)
    """
    ranks = np.random.default_rng(0).integers(0, space.size, min(64, space.size))
    for m in range(space.n_moves):
        after = space.step(ranks, m)
        legal = after >= 0
        if not any(np.array_equal(space.step(after[legal], k), ranks[legal])
                   for k in range(space.n_moves)):
            return False
    return True


class PackedTable(DepthTable):
    """A 2-bit depth table of ``space`` from ``sources``, with its distribution;
    the moves of ``space`` must be closed under inverses.

    >>> from permgroup.spaces.product import FactorSpace
    >>> from permgroup.spaces.space import Factor
    >>> from permgroup.tables.bfs import packed_depths
    >>> ring = FactorSpace([Factor("cell", 8, np.array([[1, 2, 3, 4, 5, 6, 7, 0],
    ...                                                 [7, 0, 1, 2, 3, 4, 5, 6]]))])
    >>> t = packed_depths(ring, [0])
    >>> t.distribution(), t.packed.nbytes, t.depths_of(np.arange(8)).tolist()
    ([1, 2, 2, 2, 1], 2, [0, 1, 2, 3, 4, 3, 2, 1])
    >>> t.depth(3), t.diameter, t.reachable, t.path(5)
    (3, 4, 8, [1, 1, 1])
    """

    def __init__(self, space, sources: Sequence[int], packed: np.ndarray, levels: list[int]):
        self.space = space
        self.sources = np.unique(np.asarray(sources, dtype=np.int64))
        self.packed = packed
        self.levels = list(levels)

    def distribution(self) -> list[int]:
        """Number of states at each depth (recorded by the BFS)."""
        return list(self.levels)

    def depths_of(self, ranks: np.ndarray) -> np.ndarray:
        """Exact depths of an array of ranks (``-1`` if unreachable), all walked
        down together."""
        ranks = np.asarray(ranks, dtype=np.int64)
        out = np.full(len(ranks), -1, dtype=np.int64)
        seen = np.flatnonzero(read_codes(self.packed, ranks) != UNSEEN_CODE)
        out[seen] = self._walk(ranks[seen], lengths=True)
        return out

    def depth(self, rank: int) -> int:
        """The exact depth of one rank, ``-1`` if unreachable."""
        return int(self.depths_of(np.array([rank]))[0])

    def path(self, rank: int) -> list[int]:
        """Move indices of a shortest path from a source to ``rank``."""
        if read_codes(self.packed, np.array([rank]))[0] == UNSEEN_CODE:
            raise ValueError(f"rank {rank} is not reachable from the sources")
        return self._walk(np.array([rank], dtype=np.int64))[0][::-1]

    def _walk(self, ranks: np.ndarray, lengths: bool = False):
        return descend(ranks, self.space.n_moves, self.space.back_step,
                       lambda r: read_codes(self.packed, r), lambda code: (code + 2) % 3,
                       lambda r, _: np.isin(r, self.sources), lengths=lengths)


def distinct(ranks: np.ndarray, overwrite: bool = False) -> np.ndarray:
    """The distinct values of ``ranks``, sorted (a sort and a comparison: numpy
    2's ``unique`` is ten times slower on large integer arrays); with
    ``overwrite``, ``ranks`` is sorted in place rather than copied.

    >>> distinct(np.array([3, 1, 3, 2])).tolist()
    [1, 2, 3]
    """
    if overwrite:
        ranks.sort()
        s = ranks
    else:
        s = np.sort(ranks)
    if len(s) < 2:
        return s
    keep = np.empty(len(s), dtype=bool)
    keep[0] = True
    if s.dtype.kind == "V":  # rows as bytes (levels.row_keys) have no ufunc
        keep[1:] = s[1:] != s[:-1]
    else:
        np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]


def reached(todo: np.ndarray, left: np.ndarray) -> np.ndarray:
    """The entries of ``todo`` that a bottom-up step did not leave (``left``
    a sorted part of the sorted ``todo``): the next level's.

    >>> reached(np.array([2, 3, 4]), np.array([3])).tolist()
    [2, 4]
    """
    keep = np.ones(len(todo), dtype=bool)
    keep[np.searchsorted(todo, left)] = False
    return todo[keep]
