"""States that are colourings with repeated colours: packed words, ranks, moves.

Why colourings are not group elements: the state of ``g`` is the colouring
``act(solved, g)``, the same for every ``h g`` with ``h`` in the
colour-preserving subgroup ``H``, so a state is a coset ``H g`` and the words
from the state of ``p`` to that of ``q`` are the ``|H|`` elements of
``p⁻¹ H q``, not one ``p⁻¹q``; the cosets form no group, and the graph is not
vertex-transitive.  A table over colourings (:mod:`permgroup.tables.colouring_table`)
therefore holds each colouring's distance *to one source colouring*.

Packed words: a colouring of ``n`` cells with ``k`` colours (numbered by first
appearance in the solved colouring) is one unsigned integer of ``bits(k - 1)``
bits a cell, cell 0 most significant, so that numeric order is lexicographic
order.  A move (:mod:`permgroup.perm`'s array form) acts on whole arrays of
words with a few masks and shifts: cells that move by the same offset share
one mask.

Ranks: a colouring's place in lexicographic order among the
``n! / (c_1! ... c_k!)`` arrangements (each cell adds the arrangements that
put a smaller colour there).  The sum splits over *chunks* of 16 bits of the
word, a chunk's share read from a table indexed by its value (and, for middle
chunks, by the histogram of the colours before it): for 16 cells of 2 bits,
``FIRST[w >> 16] + LAST[w & 0xFFFF]``.  Unranking runs the same tables
backwards with binary searches, and :meth:`MultisetRanking.block` lists the
words of a whole rank range in order without any search.
"""
from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import cached_property
from math import prod

import numpy as np

from permgroup.errors import InputError
from permgroup.perm import Perm, inverse
from permgroup.spaces.ranking import multinomial, palette_and_counts
from permgroup.spaces.space import STATES_OF

MAX_WORD_BITS = 64
#: ranks listed at once by :meth:`ColouringSpace.states_of`
LIST_PIECE = 1 << 14


def bits_per_cell(colours: int) -> int:
    """Bits needed for one cell's colour index (at least 1).

    >>> bits_per_cell(4), bits_per_cell(3), bits_per_cell(2)
    (2, 2, 1)
    """
    return max(1, (colours - 1).bit_length())


def word_layout(cells: int, colours: int) -> tuple[int, int, np.dtype]:
    """Cells, bits a cell and the word type of packed colourings.

    >>> word_layout(16, 4)
    (16, 2, dtype('uint32'))
    """
    bits = bits_per_cell(colours)
    if cells * bits > MAX_WORD_BITS:
        raise ValueError(f"{cells} cells of {bits} bits do not fit in a {MAX_WORD_BITS}-bit word")
    return cells, bits, np.dtype(np.uint32 if cells * bits <= 32 else np.uint64)


class MultisetRanking:
    """Lexicographic ranks of the arrangements of a multiset (``counts[c]``
    cells of colour ``c``), on packed words.

    >>> r = MultisetRanking([2, 2])
    >>> r.rank(np.array([0b0011, 0b0101, 0b1100])).tolist()
    [0, 1, 5]
    >>> r.unrank(np.array([0, 1, 5])).tolist()
    [3, 5, 12]
    >>> r.pack(np.array([[0, 1, 1, 0]])).tolist(), r.unpack(np.array([6])).tolist()
    ([6], [[0, 1, 1, 0]])
    """

    def __init__(self, counts: Sequence[int], chunk_bits: int = 16):
        self.counts = tuple(int(c) for c in counts)
        if not self.counts or min(self.counts) < 0 or sum(self.counts) == 0:
            raise ValueError(f"bad colour counts {self.counts}")
        self.n, self.bits, self.dtype = word_layout(sum(self.counts), len(self.counts))
        self.size = multinomial(self.counts)
        self.cell_shifts = (self.bits * np.arange(self.n - 1, -1, -1)).astype(self.dtype)
        per_chunk = max(1, chunk_bits // self.bits)
        self.widths = [min(per_chunk, self.n - start) for start in range(0, self.n, per_chunk)]
        after = np.cumsum(self.widths[::-1])[::-1].tolist()[1:] + [0]
        self.shifts = [self.bits * cells for cells in after]
        # histograms are coded in mixed radix (counts[c] + 1); codes of disjoint
        # cell sets add without carries
        self.weights = [prod(c + 1 for c in self.counts[:i]) for i in range(len(self.counts))]
        self.n_codes = prod(c + 1 for c in self.counts)
        self.full = sum(c * w for c, w in zip(self.counts, self.weights))
        # the histogram of every code, first colour fastest
        digits = np.unravel_index(np.arange(self.n_codes), [c + 1 for c in reversed(self.counts)])
        self._hist_of_code = np.stack(digits[::-1], axis=1)
        self._arrangements = np.array([multinomial(h) for h in self._hist_of_code],
                                      dtype=np.int64)
        self._chunk_hist = {w: self._chunk_histograms(w) for w in set(self.widths)}
        self.chunk_code = {w: code for w, (_, code, _) in self._chunk_hist.items()}
        self._build_tables()

    # --- tables --------------------------------------------------------------
    def _chunk_histograms(self, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each value of a chunk of ``width`` cells: histogram, code, all colours?"""
        shifts = self.bits * np.arange(width - 1, -1, -1)
        cells = (np.arange(1 << (self.bits * width))[:, None] >> shifts) & ((1 << self.bits) - 1)
        hist = (cells[:, :, None] == np.arange(len(self.counts))).sum(axis=1)
        return hist, hist @ np.array(self.weights), (cells < len(self.counts)).all(axis=1)

    def _completions(self, width: int, remaining: int) -> np.ndarray:
        """For each chunk value: arrangements of the cells after it, given the
        colours ``remaining`` (a code) for this chunk and the cells after it."""
        hist, code, valid = self._chunk_hist[width]
        left = self._hist_of_code[remaining]
        fits = valid & (hist <= left).all(axis=1)
        out = np.zeros(len(code), dtype=np.int64)
        out[fits] = self._arrangements[remaining - code[fits]]
        return out

    def _build_tables(self) -> None:
        widths = self.widths
        first = self._completions(widths[0], self.full)
        self.first_table = _exclusive_cumsum(first)
        self.first_values = np.flatnonzero(first)
        self.first_starts = self.first_table[self.first_values]
        # middle chunks: one row per histogram of the cells before the chunk
        self.middle = []
        prefixes = np.unique(self.chunk_code[widths[0]][self.first_values])
        for width in widths[1:-1]:
            dense = np.full(self.n_codes, -1, dtype=np.int64)
            dense[prefixes] = np.arange(len(prefixes))
            rows = np.stack([self._completions(width, self.full - p) for p in prefixes])
            table = np.stack([_exclusive_cumsum(row) for row in rows])
            state, value = np.nonzero(rows)
            span = int(rows.sum(axis=1).max())
            count = np.count_nonzero(rows, axis=1)
            self.middle.append({
                "dense": dense, "table": table.ravel(), "stride": table.shape[1],
                "keys": state * span + table[state, value], "values": value,
                "span": span, "count": count, "offset": _exclusive_cumsum(count),
            })
            prefixes = np.unique(prefixes[state] + self.chunk_code[width][value])
        if len(widths) > 1:
            # the last chunk's values grouped by their colours, each group in order
            code = self.chunk_code[widths[-1]]
            fits = self._completions(widths[-1], self.full) > 0
            self.last_sorted = np.flatnonzero(fits)[np.argsort(code[fits], kind="stable")]
            self.last_group_size = np.bincount(code[fits], minlength=self.n_codes)
            self.last_group_start = _exclusive_cumsum(self.last_group_size)
            self.last_table = np.zeros(len(code), dtype=np.int64)
            self.last_table[self.last_sorted] = (np.arange(len(self.last_sorted))
                                                 - self.last_group_start[code[self.last_sorted]])

    # --- words ---------------------------------------------------------------
    def pack(self, colours: np.ndarray) -> np.ndarray:
        """Words of colourings given as rows of colour indices."""
        colours = np.atleast_2d(np.asarray(colours)).astype(self.dtype)
        return np.bitwise_or.reduce(colours << self.cell_shifts, axis=1)

    def unpack(self, words: np.ndarray) -> np.ndarray:
        """Rows of colour indices of words (inverse of :meth:`pack`)."""
        words = np.atleast_1d(np.asarray(words, dtype=self.dtype))
        mask = self.dtype.type((1 << self.bits) - 1)
        return ((words[:, None] >> self.cell_shifts) & mask).astype(np.uint8)

    # --- ranks ---------------------------------------------------------------
    def rank(self, words: np.ndarray) -> np.ndarray:
        """Ranks of valid words (the result is meaningless for other words)."""
        words = np.asarray(words)
        # chunks as int64: a uint64 word's chunk mixed with int64 tables would
        # make float indices (more than 32 bits of cells: a 17-cell ring in 3 colours)
        chunk = (words >> self.shifts[0]).astype(np.int64)
        ranks = self.first_table[chunk]
        if len(self.widths) == 1:
            return ranks
        if self.middle:
            code = self.chunk_code[self.widths[0]][chunk]
        for j, mid in enumerate(self.middle, 1):
            chunk = self._chunk(words, j)
            ranks += mid["table"][mid["dense"][code] * mid["stride"] + chunk]
            code += self.chunk_code[self.widths[j]][chunk]
        ranks += self.last_table[self._chunk(words, len(self.widths) - 1)]
        return ranks

    def _chunk(self, words: np.ndarray, j: int) -> np.ndarray:
        mask = (1 << (self.bits * self.widths[j])) - 1
        if self.shifts[j] == 0:
            return (words & mask).astype(np.int64)
        return ((words >> self.shifts[j]) & mask).astype(np.int64)

    def unrank(self, ranks: np.ndarray) -> np.ndarray:
        """Words of ranks in ``0..size-1`` (inverse of :meth:`rank`)."""
        rest = np.asarray(ranks, dtype=np.int64)
        if rest.size and (rest.min() < 0 or rest.max() >= self.size):
            raise ValueError(f"ranks must lie in 0..{self.size - 1}")
        idx = np.searchsorted(self.first_starts, rest, "right") - 1
        value = self.first_values[idx]
        rest = rest - self.first_starts[idx]
        words = value.astype(self.dtype) << self.dtype.type(self.shifts[0])
        if len(self.widths) == 1:
            return words
        code = self.chunk_code[self.widths[0]][value]
        for j, mid in enumerate(self.middle, 1):
            state = mid["dense"][code]
            idx = np.searchsorted(mid["keys"], state * mid["span"] + rest, "right") - 1
            value = mid["values"][idx]
            rest = rest - (mid["keys"][idx] - state * mid["span"])
            words |= value.astype(self.dtype) << self.dtype.type(self.shifts[j])
            code = code + self.chunk_code[self.widths[j]][value]
        value = self.last_sorted[self.last_group_start[self.full - code] + rest]
        return words | value.astype(self.dtype)

    # --- whole rank ranges ---------------------------------------------------
    def block_bounds(self, states: int, lo: int = 0, hi: int | None = None
                     ) -> list[tuple[int, int]]:
        """The ranks ``lo..hi-1`` (all by default) in blocks of about ``states``
        ranks, as ranges of first-chunk indices for :meth:`block` (the first
        and the last may reach past ``lo`` and ``hi``).

        >>> r = MultisetRanking([4, 4, 4, 4])
        >>> r.block_bounds(40_000_000)
        [(0, 36771), (36771, 58380)]
        >>> [(int(r.first_starts[a]), int(r.first_starts[b])) for a, b in r.block_bounds(20, 100, 160)]
        [(70, 350)]
        """
        hi = self.size if hi is None else hi
        first = int(np.searchsorted(self.first_starts, lo, side="right")) - 1
        last = int(np.searchsorted(self.first_starts, hi, side="left"))
        cuts = np.searchsorted(self.first_starts, np.arange(lo, hi, max(1, states)))
        cuts = np.unique(np.concatenate([[first], cuts, [last]]))
        return list(zip(cuts[:-1].tolist(), cuts[1:].tolist()))

    def block(self, lo: int, hi: int) -> tuple[int, np.ndarray]:
        """``(first rank, words)``: the words of consecutive ranks whose first
        chunk is ``first_values[lo:hi]``, in rank order.

        >>> r = MultisetRanking([2, 2])
        >>> r.block_bounds(3)
        [(0, 3), (3, 6)]
        >>> start, words = r.block(3, 6)
        >>> start, words.tolist()
        (3, [9, 10, 12])
        """
        value = self.first_values[lo:hi]
        words = value.astype(self.dtype) << self.dtype.type(self.shifts[0])
        start = int(self.first_starts[lo]) if lo < len(self.first_starts) else self.size
        if len(self.widths) == 1:
            return start, words
        code = self.chunk_code[self.widths[0]][value]
        for j, mid in enumerate(self.middle, 1):
            state = mid["dense"][code]
            pick, ramp = _expand(mid["count"][state])
            value = mid["values"][mid["offset"][state][pick] + ramp]
            words = words[pick] | (value.astype(self.dtype) << self.dtype.type(self.shifts[j]))
            code = code[pick] + self.chunk_code[self.widths[j]][value]
        left = self.full - code
        pick, ramp = _expand(self.last_group_size[left])
        value = self.last_sorted[self.last_group_start[left][pick] + ramp]
        return start, words[pick] | value.astype(self.dtype)


def _exclusive_cumsum(x: np.ndarray) -> np.ndarray:
    out = np.zeros(len(x), dtype=np.int64)
    np.cumsum(x[:-1], out=out[1:])
    return out


def _expand(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For group sizes ``counts``: the group of each item and its place in it."""
    pick = np.repeat(np.arange(len(counts)), counts)
    ramp = np.arange(len(pick)) - np.repeat(_exclusive_cumsum(counts), counts)
    return pick, ramp


class WordMove:
    """A permutation of cells acting on packed words by masks and shifts: the
    colour at cell ``i`` moves to cell ``perm[i]`` (as :func:`permgroup.perm.act`).

    >>> m = WordMove((1, 2, 0, 3), bits=2)
    >>> r = MultisetRanking([1, 1, 1, 1])
    >>> r.unpack(m(r.pack(np.array([[0, 1, 2, 3]])))).tolist()
    [[2, 0, 1, 3]]
    """

    def __init__(self, perm: Sequence[int], bits: int):
        n = len(perm)
        cell_mask = (1 << bits) - 1
        groups: dict[int, int] = {}
        for i, target in enumerate(perm):
            shift = bits * (i - target)  # cell 0 is most significant
            groups[shift] = groups.get(shift, 0) | (cell_mask << (bits * (n - 1 - i)))
        self.still = groups.pop(0, 0)
        self.shifted = [(mask, abs(s), s > 0) for s, mask in sorted(groups.items())]

    def __call__(self, words: np.ndarray) -> np.ndarray:
        words = np.asarray(words)
        out = words & self.still
        part = np.empty_like(words)
        for mask, amount, left in self.shifted:
            np.bitwise_and(words, mask, out=part)
            if left:
                np.left_shift(part, amount, out=part)
            else:
                np.right_shift(part, amount, out=part)
            out |= part
        return out


class ColouringSpace:
    """Colourings with the colour counts of ``solved``, and moves on them:
    ``step`` and ``back_step`` on ranks, ``apply`` and ``unapply`` on words.

    >>> s = ColouringSpace("aabb", {"rot": (1, 2, 3, 0)})
    >>> s.size, s.decode(s.apply(s.encode("aabb"), 0)), s.decode(s.unapply(s.encode("baab"), 0))
    (6, ('b', 'a', 'a', 'b'), ('a', 'a', 'b', 'b'))
    >>> s.states_of(2, 6, np.array([0, 3])).tolist() == s.unrank(np.array([2, 5])).tolist()
    True
    """

    capabilities = frozenset({STATES_OF})

    def __init__(self, solved: Sequence[Hashable], moves: dict[str, Perm]):
        self.index, counts = palette_and_counts(solved)
        self.palette = tuple(self.index)
        self.counts = tuple(counts)
        self.n, self.bits, self.dtype = word_layout(len(solved), len(counts))
        self.size = multinomial(counts)
        self.move_names = list(moves)
        self.n_moves = len(self.move_names)
        self.forward = [WordMove(p, self.bits) for p in moves.values()]
        self.backward = [WordMove(inverse(p), self.bits) for p in moves.values()]
        self.solved = self.encode(solved)

    @cached_property
    def ranking(self) -> MultisetRanking:
        """The ranks of the colourings (built on first use: a search needs none)."""
        return MultisetRanking(self.counts)

    def encode(self, colouring: Sequence[Hashable]) -> int:
        """The word of one colouring (raises :class:`InputError` if its colours
        differ from the solved colouring's)."""
        counts = [0] * len(self.palette)
        word = 0
        for c in colouring:
            d = self.index.get(c)
            if d is None:
                raise InputError(f"unknown colour {c!r}; the colours are "
                                 f"{' '.join(map(str, self.palette))}")
            counts[d] += 1
            word = (word << self.bits) | d
        if tuple(counts) != self.counts:
            raise InputError(f"colour counts {counts} differ from the solved "
                             f"colouring's {list(self.counts)}")
        return word

    def decode(self, word: int) -> tuple:
        """The colouring of one word."""
        word, mask = int(word), (1 << self.bits) - 1
        return tuple(self.palette[(word >> (self.bits * (self.n - 1 - i))) & mask]
                     for i in range(self.n))

    def apply(self, words: np.ndarray, m: int) -> np.ndarray:
        """Words after move ``m``."""
        return self.forward[m](words)

    def unapply(self, words: np.ndarray, m: int) -> np.ndarray:
        """Words that move ``m`` takes to ``words``."""
        return self.backward[m](words)

    def rank(self, words: np.ndarray) -> np.ndarray:
        """Ranks of words (see :class:`MultisetRanking`)."""
        return self.ranking.rank(words)

    def unrank(self, ranks: np.ndarray) -> np.ndarray:
        """Words of ranks."""
        return self.ranking.unrank(ranks)

    def step(self, ranks: np.ndarray, m: int) -> np.ndarray:
        return self.rank(self.apply(self.unrank(ranks), m))

    def back_step(self, ranks: np.ndarray, m: int) -> np.ndarray:
        return self.rank(self.unapply(self.unrank(ranks), m))

    def states_of(self, lo: int, hi: int, offsets: np.ndarray) -> np.ndarray:
        """Words of the ranks ``lo + offsets`` (all below ``hi``): the range is
        listed in order when they are a good share of it, else they are unranked."""
        if 4 * len(offsets) < hi - lo:
            return self.unrank(offsets + lo)
        ranks = offsets + lo
        out = np.empty(len(ranks), dtype=self.dtype)
        done = 0
        # listed a piece at a time: a listing's working arrays take about 30
        # bytes a state, and small ones are reused, where a whole block's are
        # handed back to the system and faulted in again, block after block
        for a, b in self.ranking.block_bounds(LIST_PIECE, lo, hi):
            start, words = self.ranking.block(a, b)
            upto = int(np.searchsorted(ranks, start + len(words)))
            out[done:upto] = words[ranks[done:upto] - start]
            done = upto
        return out

    def step_states(self, words: np.ndarray, m: int) -> np.ndarray:
        return self.rank(self.apply(words, m))

    def back_step_states(self, words: np.ndarray, m: int) -> np.ndarray:
        return self.rank(self.unapply(words, m))
