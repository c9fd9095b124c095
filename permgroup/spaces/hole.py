"""Ranked states of a partial-move puzzle with one hole, for vectorized search.

The positions fall into *blocks* of equal size (the cells of a board).  Every
block holds either the *hole* (the colouring the guards ask for) or a *piece*,
whose colouring is one of ``K`` *local states*.  Each move carries the piece of
one block ``a`` into the hole at block ``b`` (its guard is "block ``b`` is the
hole"), permuting the piece's positions on the way, and leaves every other
block alone.  Pieces are told apart only by their local state.

The hole's colouring is read off the guards, the local states are the
closure of the solved pieces under the moves' carrying maps.  The rank of a
state is ``hole * K**(n-1) + sum(d[s] * K**s)``, ``d`` the local states of the
other ``n - 1`` blocks in block order: a move shifts the digits between ``a``
and ``b`` by one place and sends the carried piece's digit through its local
table, a few integer operations on numpy arrays (``-1`` where the hole is
elsewhere: the move is illegal).

numpy is imported inside the methods that use it: ranking a handful of states
(answering from a cached table) then starts without it.
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import TYPE_CHECKING

from permgroup.errors import InputError
from permgroup.perm import act, inverse
from permgroup.puzzle import digest
from permgroup.spaces.partial import PartialPuzzle
from permgroup.spaces.ranking import digits_rank, palette_and_counts
from permgroup.spaces.space import rank_dtype

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

LocalState = tuple


class HoleSpace:
    """The ranked states of a one-hole partial puzzle (see the module docstring;
    :func:`_demo_space` builds the one below).

    >>> s = _demo_space()  # three cells, two flipping tokens
    >>> s.n, s.k, s.size, s.local_states
    (3, 2, 12, [('x', 'o'), ('o', 'x')])
    >>> r = s.rank("xo..xo")
    >>> s.unrank(s.step([r], s.move_names.index("01"))[0])
    ('.', '.', 'o', 'x', 'x', 'o')
    >>> s.step([r], s.move_names.index("10")).tolist()  # the hole is not at block 0
    [-1]
    """

    capabilities: frozenset[str] = frozenset()

    def __init__(self, partial: PartialPuzzle, blocks: Sequence[Sequence[int]]):
        puzzle = partial.puzzle
        self.partial = partial
        self.blocks = tuple(tuple(b) for b in blocks)
        self.n = len(self.blocks)
        self.width = len(self.blocks[0])
        self.block_of, self.place_of = _partition(self.blocks, puzzle.degree)
        self.move_names = partial.move_names
        self.n_moves = len(self.move_names)
        self.hole = self._hole_colouring()
        #: (source block a, hole block b, local map u -> place in b) per move
        self.carries = [self._carry(name) for name in self.move_names]
        if not puzzle.solved:
            raise ValueError(f"{puzzle.name}: a hole space needs the solved colouring")
        solved = [tuple(puzzle.solved[p] for p in block) for block in self.blocks]
        holes = [j for j, c in enumerate(solved) if c == self.hole]
        if len(holes) != 1:
            raise ValueError(f"{puzzle.name}: the solved colouring has {len(holes)} holes, "
                             "expected one")
        self.local_states = _closure([c for c in solved if c != self.hole],
                                     [sigma for _, _, sigma in self.carries])
        if self.hole in self.local_states:
            raise ValueError(f"{puzzle.name}: a move turns a piece into the hole")
        self.local_index = {c: i for i, c in enumerate(self.local_states)}
        self.k = len(self.local_states)
        self.weight = self.k ** (self.n - 1)
        self.size = self.n * self.weight
        #: tables[m][i]: local state of the piece carried by move m from local state i
        self.tables = [[self.local_index[act(c, sigma)] for c in self.local_states]
                       for _, _, sigma in self.carries]

    # --- derivation ----------------------------------------------------------
    def _hole_colouring(self) -> LocalState:
        holes = set()
        for name in self.move_names:
            guard = self.partial.guards[name]
            blocks = {self.block_of[p] for p in guard}
            if len(blocks) != 1 or len(guard) != self.width:
                raise ValueError(f"move {name!r}: its guard must name exactly the positions "
                                 "of one block (the hole it fills)")
            (b,) = blocks
            holes.add(tuple(guard[p] for p in self.blocks[b]))
        if len(holes) != 1:
            raise ValueError(f"the guards ask for {len(holes)} different hole colourings")
        return holes.pop()

    def _carry(self, name: str) -> tuple[int, int, tuple[int, ...]]:
        perm = self.partial.puzzle.generators[name]
        b = self.block_of[next(iter(self.partial.guards[name]))]
        moved = {}
        for j, block in enumerate(self.blocks):
            target = self.block_of[perm[block[0]]]
            sigma = tuple(self.place_of[perm[p]] for p in block)
            if any(self.block_of[perm[p]] != target for p in block):
                raise ValueError(f"move {name!r} splits block {j}")
            if target != j or sigma != tuple(range(self.width)):
                moved[j] = (target, sigma)
        # blocks are permuted, so a source a != b moving into b and nothing else
        # moved means b goes to a: the piece and the hole trade places
        sources = [j for j, (target, _) in moved.items() if target == b and j != b]
        if len(sources) != 1 or not set(moved) <= {b, sources[0]}:
            raise ValueError(f"move {name!r} must carry one block into the hole at block {b} "
                             "and leave the other blocks alone")
        a = sources[0]
        if b in moved and act(self.hole, moved[b][1]) != self.hole:
            raise ValueError(f"move {name!r} does not leave a hole behind")
        return a, b, moved[a][1]

    # --- single states (plain Python) ------------------------------------------
    def rank(self, state: Sequence) -> int:
        """The rank of a colouring; ``ValueError`` if it is not a state of the space."""
        return _rank_blocks(state, self.blocks, self.hole, self.local_index, self.weight,
                            "the colouring has")

    def unrank(self, rank: int) -> tuple:
        """The colouring of a rank."""
        return _unrank_blocks(rank, self.weight, self.blocks, self.local_states, self.hole)

    def fingerprint(self) -> str:
        """A hash of the puzzle, its guards and the blocks."""
        return digest({"partial": self.partial.definition(), "blocks": self.blocks})

    # --- many states (numpy) ---------------------------------------------------
    def step(self, ranks: np.ndarray, m: int) -> np.ndarray:
        a, b, _ = self.carries[m]
        return self._slide(ranks, a, b, self.tables[m])

    def back_step(self, ranks: np.ndarray, m: int) -> np.ndarray:
        a, b, _ = self.carries[m]
        # undoing the move carries the piece from b back into the hole at a
        return self._slide(ranks, b, a, inverse(self.tables[m]))

    def _slide(self, ranks: np.ndarray, src: int, dst: int, table: list[int]) -> np.ndarray:
        """The piece at block ``src`` goes into the hole at block ``dst``."""
        import numpy as np

        # 32-bit arithmetic where every rank fits: integer division is much faster
        dtype = rank_dtype(self.size)
        ranks = np.asarray(ranks).astype(dtype, copy=False)
        out = np.full(ranks.shape, -1, dtype=dtype)
        low_rank = dst * self.weight
        legal = (ranks >= low_rank) & (ranks < low_rank + self.weight)
        rest = ranks[legal] - low_rank
        k = self.k
        low = k ** min(src, dst)
        span = k ** abs(src - dst)
        segment = (rest // low) % span
        local = np.asarray(table, dtype=dtype)
        if src < dst:
            # hole at dst: blocks src..dst-1 hold digits src..dst-1; afterwards
            # blocks src+1..dst do, the carried piece (block dst) on top
            moved = segment // k + local[segment % k] * (span // k)
        else:
            # hole at dst: blocks dst+1..src hold digits dst..src-1, block src on
            # top; afterwards the carried piece (block dst) is the lowest digit
            moved = (segment % (span // k)) * k + local[segment // (span // k)]
        out[legal] = src * self.weight + rest + (moved - segment) * low
        return out


class View:
    """Patterns: the colours a state shows at ``positions`` (the same places
    in every block), ranked ``hole * L**(n-1) + sum(label[s] * L**s)``, the
    ``L`` labels (what a piece shows) numbered as the local states first show them.

    >>> s = _demo_space()
    >>> v = View(s, [0, 2, 4])
    >>> v.labels, v.rank("x.o"), v.unrank(6)
    ([('x',), ('o',)], 6, ('x', '.', 'o'))
    >>> [s.unrank(r) for r in v.states(6)]
    [('x', 'o', '.', '.', 'o', 'x')]
    """

    def __init__(self, space: HoleSpace, positions: Sequence[int]):
        self.space = space
        self.positions = tuple(positions)
        by_block: dict[int, list[tuple[int, int]]] = {}
        for k, p in enumerate(self.positions):
            by_block.setdefault(space.block_of[p], []).append((space.place_of[p], k))
        places = {tuple(sorted(u for u, _ in v)) for v in by_block.values()}
        if len(by_block) != space.n or len(places) != 1:
            raise ValueError("a view needs the same places in every block")
        (self.places,) = places
        #: for each block, the indices into ``positions`` in place order
        self.slots = [[k for _, k in sorted(by_block[j])] for j in range(space.n)]
        self.hole_label = tuple(space.hole[u] for u in self.places)
        shown = [tuple(c[u] for u in self.places) for c in space.local_states]
        if self.hole_label in shown:
            raise ValueError(f"a piece can show the hole's pattern {self.hole_label}")
        self.label_index = palette_and_counts(shown)[0]
        self.labels = list(self.label_index)
        self.n_labels = len(self.labels)
        #: the local states showing each label
        self.members = [[i for i, x in enumerate(shown) if x == label] for label in self.labels]
        self.weight = self.n_labels ** (space.n - 1)
        self.size = space.n * self.weight

    def rank(self, colours: Sequence) -> int:
        """The rank of a pattern: the colours at the view's positions, in their order."""
        return _rank_blocks(colours, self.slots, self.hole_label, self.label_index, self.weight,
                            "the pattern shows")

    def unrank(self, pattern_rank: int) -> tuple:
        """The colours a pattern shows at the view's positions, in their order."""
        return _unrank_blocks(pattern_rank, self.weight, self.slots, self.labels, self.hole_label)

    def states(self, pattern_rank: int) -> list[int]:
        """Ranks of all states showing the pattern."""
        hole, rest = divmod(pattern_rank, self.weight)
        choices = []
        for _ in range(self.space.n - 1):
            rest, label = divmod(rest, self.n_labels)
            choices.append(self.members[label])
        return sorted(hole * self.space.weight + digits_rank(digits, self.space.k)
                      for digits in product(*choices))

    def minimum(self, depths: np.ndarray) -> np.ndarray:
        """For each pattern, the least entry of ``depths`` (indexed by state
        rank) over the states showing it."""
        import numpy as np

        space = self.space
        table = np.asarray(depths).reshape((space.n,) + (space.k,) * (space.n - 1))
        for axis in range(1, space.n):
            table = np.concatenate(
                [table.take(m, axis=axis).min(axis=axis, keepdims=True) for m in self.members],
                axis=axis)
        return table.reshape(-1)


def _partition(blocks: tuple[tuple[int, ...], ...], degree: int) -> tuple[list[int], list[int]]:
    block_of, place_of = [-1] * degree, [-1] * degree
    if len({len(b) for b in blocks}) != 1:
        raise ValueError("blocks must have equal sizes")
    for j, block in enumerate(blocks):
        for u, p in enumerate(block):
            if not 0 <= p < degree or block_of[p] >= 0:
                raise ValueError(f"position {p} is outside 0..{degree - 1} or in two blocks")
            block_of[p], place_of[p] = j, u
    if -1 in block_of:
        raise ValueError(f"position {block_of.index(-1)} is in no block")
    return block_of, place_of


def _closure(start: list[LocalState], maps: list[tuple[int, ...]]) -> list[LocalState]:
    found = list(dict.fromkeys(start))
    seen = set(found)
    for c in found:
        for sigma in maps:
            d = act(c, sigma)
            if d not in seen:
                seen.add(d)
                found.append(d)
    return found


def _rank_blocks(colours: Sequence, places: Sequence[Sequence[int]], hole, index: dict,
                 weight: int, what: str) -> int:
    """The rank of the colours, block ``j`` showing those at ``places[j]``
    (``index``: what a piece shows to its digit)."""
    labels = [tuple(colours[k] for k in where) for where in places]
    holes = [j for j, label in enumerate(labels) if label == hole]
    if len(holes) != 1:
        raise InputError(f"{what} {len(holes)} holes, expected one")
    digits = []
    for j, label in enumerate(labels):
        if j != holes[0]:
            if label not in index:
                raise ValueError(f"block {j} shows {label}, which no piece can show")
            digits.append(index[label])
    return holes[0] * weight + digits_rank(digits, len(index))


def _unrank_blocks(rank: int, weight: int, places: Sequence[Sequence[int]], labels: Sequence,
                   hole) -> tuple:
    """The colours at ``rank`` (inverse of :func:`_rank_blocks`), block ``j``'s at ``places[j]``."""
    at, rest = divmod(int(rank), weight)
    out = [None] * sum(len(where) for where in places)
    for j, where in enumerate(places):
        if j == at:
            shown = hole
        else:
            rest, digit = divmod(rest, len(labels))
            shown = labels[digit]
        for k, colour in zip(where, shown):
            out[k] = colour
    return tuple(out)


def _demo_space() -> HoleSpace:
    """Three cells in a row, two identical two-sided tokens that flip when they slide."""
    from permgroup.puzzle import Puzzle

    def slide(a: int, b: int) -> tuple[int, ...]:
        p = list(range(6))
        p[2 * a], p[2 * a + 1], p[2 * b], p[2 * b + 1] = 2 * b + 1, 2 * b, 2 * a, 2 * a + 1
        return tuple(p)

    pairs = [(0, 1), (1, 0), (1, 2), (2, 1)]
    puzzle = Puzzle("tokens", 6, {f"{a}{b}": slide(a, b) for a, b in pairs},
                    solved=("x", "o", ".", ".", "x", "o"))
    guards = {f"{a}{b}": {2 * b: ".", 2 * b + 1: "."} for a, b in pairs}
    return HoleSpace(PartialPuzzle(puzzle, guards), [(0, 1), (2, 3), (4, 5)])
