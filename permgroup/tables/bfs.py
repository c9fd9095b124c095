"""One breadth-first search over ranked states, level by level, in numpy.

The space (:class:`~permgroup.spaces.space.StateSpace`) moves ranks; a *store*
keeps what the search knows of each rank: :class:`ByteStore` the depth in a
byte, :class:`PackedStore` the depth mod 3 in two bits.  Each level takes the
cheapest step by one cost model (:data:`COSTS`): *top-down* (the frontier's
unseen images are the next level), *bottom-up* (each unseen state asks whether
a predecessor is on the last level, leaving at its first hit; once few are
left unseen, they are listed once), or, one byte a state, *dense*
(:data:`~permgroup.spaces.space.DENSE_STEP`) or *pull*
(:data:`~permgroup.spaces.space.ROW_PULL`).  Blocks are shared by threads
(numpy releases the GIL in its loops): they write disjoint bytes, or take
turns where they may not.  :func:`load_state_table` caches a space's table.
"""
from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import numpy as np

from permgroup.cache import cached_array
from permgroup.progress import Progress
from permgroup.spaces.space import DENSE_STEP, ROW_PULL, STATES_OF, rank_dtype
from permgroup.tables.packed import (PackedTable, apply_writes, code_writes, count_code, distinct,
                                     empty_packed, pack, read_codes, reached, unpack)
from permgroup.tables.store import THREADS, UNSEEN, UNSEEN_CODE, DepthTable, table_cache

#: table entries times moves a breadth-first search builds per second on two
#: shared cores (about 1e8 measured, a third of that when the moves' costs
#: differ): what a table costs to build, known before building it (the solve
#: path's tables, a chain's databases)
BUILD_RATE = 5e7
#: ranks handled at once by a block of a level (a multiple of 4): bounds its
#: working memory, tens of bytes a state
BLOCK = 1 << 19
#: the cost model, per state and move (per state for dense and pull, which
#: read every rank once), measured on the 2x2x2: a step costs about 4, reading
#: a byte 2, marking a byte 2 and a 2-bit code 3 (read first, then its bits
#: taken from its byte under a lock: 5 when each place was a mask over all the
#: codes); a bottom-up state usually stops after half its moves
COSTS = {"step": 4, "read": 2, "dense": 1 / 2, "pull": 1 / 2}
#: a level lists its unseen states, or keeps its frontier as ranks, while they
#: are at most this share of the space
LISTED = 1 / 32
#: working memory of a level beside its store and listed ranks, per rank of a
#: block: each thread's block of states, their images and masks, rows pulled
BLOCK_BYTES_PER_RANK = 64


class ByteStore:
    """One byte a state: the depth, ``UNSEEN`` where not reached.

    >>> s = ByteStore(4); s.mark(np.array([2]), 0); s.depths.tolist()
    [255, 255, 0, 255]
    """

    mark_cost, empty, modulus = 2, UNSEEN, UNSEEN + 1
    one_byte = True  # dense and pull steps write it in place

    def __init__(self, size: int, depths: np.ndarray | None = None):
        self.size = size
        self.depths = np.full(size, UNSEEN, dtype=np.uint8) if depths is None else depths

    def code(self, depth: int) -> int:
        """What the store keeps for ``depth``: the depth mod :attr:`modulus`."""
        return depth % self.modulus

    def read(self, ranks: np.ndarray) -> np.ndarray:
        return self.depths[ranks]

    def on(self, ranks: np.ndarray, depth: int) -> np.ndarray:
        # an unseen state's predecessors are at the last level or deeper, so
        # the last level's code there means that level
        return self.read(ranks) == self.code(depth)

    def fresh(self, ranks: np.ndarray) -> np.ndarray:
        return ranks[self.read(ranks) == self.empty]

    def mark(self, ranks: np.ndarray, depth: int) -> None:
        self.write(self.writes(ranks, depth))

    def writes(self, ranks: np.ndarray, depth: int):
        """What :meth:`mark` writes, worked out apart from the writing
        (:meth:`write`), which threads sharing the store do in turns."""
        return ranks, depth

    def write(self, writes) -> None:
        ranks, depth = writes
        self.depths[ranks] = depth

    def level(self, depth: int, lo: int, hi: int, dtype) -> np.ndarray:
        return (np.flatnonzero(self.view(lo, hi)[:hi - lo] == self.code(depth)) + lo).astype(dtype)

    def view(self, lo: int, hi: int) -> np.ndarray:
        """Ranks ``lo..hi-1`` as the store keeps them, to read and write in place."""
        return self.depths[lo:hi]

    def unseen(self, view: np.ndarray, n: int) -> np.ndarray:
        return np.flatnonzero(view[:n] == self.empty)

    def put(self, lo: int, view: np.ndarray, todo: np.ndarray, left: np.ndarray,
            depth: int) -> None:
        """Give the states ``todo`` but ``left`` (offsets into ``view``) ``depth``."""
        view[todo] = self.code(depth)
        view[left] = self.empty

    def count(self, depth: int, levels: Sequence[int]) -> int:
        return sum(int(np.count_nonzero(self.depths[lo:lo + 8 * BLOCK] == depth))
                   for lo in range(0, self.size, 8 * BLOCK))

    def expanded(self, depth: int, levels: Sequence[int]) -> int:
        """States a top-down level expands when it finds its frontier in the store."""
        return sum(levels[self.code(depth)::self.modulus])


class PackedStore(ByteStore):
    """Two bits a state: the depth mod 3, ``UNSEEN_CODE`` where not reached;
    a block is viewed unpacked, a byte a state.

    >>> s = PackedStore(5); s.mark(np.array([1]), 0); s.packed.tolist()
    [243, 255]
    """

    mark_cost, empty, modulus = 3, UNSEEN_CODE, 3
    one_byte = False

    def __init__(self, size: int, packed: np.ndarray | None = None):
        self.size = size
        self.packed = empty_packed(size) if packed is None else packed

    def read(self, ranks: np.ndarray) -> np.ndarray:
        return read_codes(self.packed, ranks)

    def writes(self, ranks: np.ndarray, depth: int):
        return code_writes(ranks, self.code(depth))

    def write(self, writes) -> None:
        apply_writes(self.packed, writes)

    def view(self, lo: int, hi: int) -> np.ndarray:
        return unpack(self.packed[lo // 4:(hi + 3) // 4])  # lo is a multiple of 4

    def put(self, lo: int, view: np.ndarray, todo: np.ndarray, left: np.ndarray,
            depth: int) -> None:
        super().put(lo, view, todo, left, depth)
        # a block starts at a multiple of 4 ranks: its bytes are its own
        self.packed[lo // 4:lo // 4 + len(view) // 4] = pack(view)

    def count(self, depth: int, levels: Sequence[int]) -> int:
        # every place holding the code, less the levels 3, 6... before
        code = self.code(depth)
        return count_code(self.packed, code) - sum(levels[code::3])


def bfs(space, sources: Sequence[int] | np.ndarray, store=None, *,
        progress: Progress | None = None, max_depth: int = UNSEEN - 1,
        top_down_only: bool = False, levels: list[int] | None = None,
        level_done: Callable[[int, object], None] | None = None):
    """The store (a new :class:`ByteStore` by default) filled with every rank's
    depth from the sources, level by level; ``store.levels`` the states at
    each depth, kept up to date as levels complete.  ``progress(depth, count)``
    for each level, ``level_done(depth, store)`` after each complete one (a
    checkpoint, which saves ``store.levels`` with the depths);
    ``levels`` goes on from a store complete up to depth ``len(levels) - 1``.
    ``top_down_only`` where most ranks are unreachable (parity and other
    invariants): bottom-up would mostly scan states that never come.

    A step of ``-1`` is an illegal move (here the last cell has no successor):

    >>> from permgroup.spaces.space import GraphSpace
    >>> line = GraphSpace(4, 1, lambda r, m: np.array([[1, 2, 3, -1]])[m][r])
    >>> bfs(line, [0], top_down_only=True).depths.tolist()
    [0, 1, 2, 3]
    >>> store = ByteStore(4, np.array([0, 1, 255, 255], dtype=np.uint8))
    >>> bfs(line, [], store, top_down_only=True, levels=[1, 1]).depths.tolist()
    [0, 1, 2, 3]
    """
    size, dtype = space.size, rank_dtype(space.size)
    store = ByteStore(size) if store is None else store
    frontier: np.ndarray | None = None
    if levels is None:
        frontier = distinct(np.asarray(sources, dtype=np.int64)).astype(dtype)
        store.mark(frontier, 0)
        levels = [len(frontier)]
    levels = store.levels = list(levels)
    if progress:
        for d, n in enumerate(levels):  # a resumed store's levels too
            progress(d, n)
    depth, count, seen = len(levels) - 1, levels[-1], sum(levels)
    unseen: np.ndarray | None = None  # listed once few are left
    while count and depth < max_depth:
        expanded = count if frontier is not None else store.expanded(depth, levels)
        method = _cheapest(space, store, expanded, size - seen, top_down_only)
        if method == "bottom":
            count, unseen = _bottom_up(space, store, depth, unseen, size - seen <= size * LISTED)
        elif method == "dense":
            count = _dense(space, store.depths, depth)
        elif method == "pull":
            count = _pull(space, store.depths, depth)
        else:
            growth = count / levels[-2] if len(levels) > 1 else space.n_moves
            frontier, count = _top_down(space, store, frontier, depth, levels,
                                        count * growth <= size * LISTED)
        if method != "top":
            frontier = None
        if method != "bottom":
            unseen = None
        depth += 1
        seen += count
        if count:
            levels.append(count)
            if progress:
                progress(depth, count)
            if level_done:
                level_done(depth, store)
    return store


def bfs_memory(size: int, bits: int = 8) -> int:
    """Bytes :func:`bfs` takes at its peak over ``size`` ranks with a store of
    ``bits`` a state (8: :class:`ByteStore`, 2: :class:`PackedStore`), beside the
    space's own tables: the store; a frontier or the unseen states listed as
    ranks (at most :data:`LISTED` of the space, the last list, the parts of the
    next and their join); the blocks (:data:`BLOCK_BYTES_PER_RANK`).

    >>> bfs_memory(10**9) // 10**6, bfs_memory(10**9, bits=2) // 10**6, bfs_memory(100)
    (1408, 658, 6548)
    """
    itemsize = np.dtype(rank_dtype(size)).itemsize
    return (-(-size * bits // 8) + 3 * math.ceil(size * LISTED) * itemsize
            + BLOCK_BYTES_PER_RANK * min(size, BLOCK))


def packed_depths(space, sources: Sequence[int], *, progress: Progress | None = None
                  ) -> PackedTable:
    """The 2-bit table of ``space`` from ``sources``: :func:`bfs` with a
    :class:`PackedStore`, never holding a byte a state.

    >>> from permgroup.spaces.product import FactorSpace
    >>> from permgroup.spaces.space import Factor
    >>> a = np.array([[1, 2, 3, 4, 0], [4, 0, 1, 2, 3], [0, 1, 2, 3, 4]])
    >>> s = FactorSpace([Factor("a", 5, a),
    ...                  Factor("b", 3, np.array([[0, 1, 2], [0, 1, 2], [1, 2, 0]]))])
    >>> packed_depths(s, [0]).distribution() == bfs(s, [0]).levels
    True
    """
    store = bfs(space, sources, PackedStore(space.size), progress=progress)
    return PackedTable(space, sources, store.packed, store.levels)


def load_state_table(space, sources: Sequence[int], label: str,
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
    >>> uncached = load_state_table(space, [4], "other", cache=False)
    >>> uncached.reachable, table_cache(space, [4], "other")[0].exists()
    (3, False)
    """
    depths = cached_depths(space, sources, *table_cache(space, sources, label),
                           f"{label} table", progress, cache=cache, top_down_only=True)
    return DepthTable(space, sources, depths)


def cached_depths(space, sources: Sequence[int], path: Path, key: dict, title: str,
                  progress: Progress | None = None, build: bool = True, cache: bool = True,
                  **options) -> np.ndarray | None:
    """The one-byte depths of ``space`` from ``sources`` (the BFS with
    ``options``) cached at ``path`` under ``key``, or built and saved there;
    ``None`` when nothing is cached and ``build`` is false."""
    return cached_array(path, key, space.size,
                        (lambda report: bfs(space, list(sources), progress=report,
                                            **options).depths) if build else None,
                        title=title, size=space.size, progress=progress, cache=cache)[1]


def _cheapest(space, store, expanded: int, unseen: int, top_down_only: bool) -> str:
    """The step of least cost for a level that expands ``expanded`` states
    top-down or asks ``unseen`` states bottom-up."""
    moves = space.n_moves
    costs = {"top": expanded * moves * (COSTS["step"] + store.mark_cost)}
    if not top_down_only:
        costs["bottom"] = unseen * moves / 2 * (COSTS["step"] + COSTS["read"])
        if store.one_byte:
            if DENSE_STEP in space.capabilities:
                costs["dense"] = space.size * moves * COSTS["dense"]
            if ROW_PULL in space.capabilities:
                costs["pull"] = space.size * moves * COSTS["pull"]
    return min(costs, key=costs.get)


def _states(space, lo: int, hi: int, offsets: np.ndarray):
    """The states of ranks ``lo + offsets`` (in the space's own form where it
    has :data:`~permgroup.spaces.space.STATES_OF`), their steps and ranks back."""
    if STATES_OF not in space.capabilities:
        return ((offsets + lo).astype(rank_dtype(space.size)), space.step, space.back_step,
                np.asarray)
    return (space.states_of(lo, hi, offsets), space.step_states, space.back_step_states,
            space.rank)


def _in_threads(work: Callable, parts) -> list:
    with ThreadPoolExecutor(THREADS) as pool:
        return list(pool.map(work, parts))


def _top_down(space, store, frontier: np.ndarray | None, depth: int, levels: list[int],
              list_next: bool) -> tuple[np.ndarray | None, int]:
    """Mark the unseen images of the frontier (``None``: every state the store
    has at ``depth``, in 2 bits with those of levels 3, 6... before, whose images
    are all seen); the next frontier, as ranks if ``list_next`` and while it
    holds at most :data:`LISTED` of the space, and its size."""
    size, dtype = space.size, rank_dtype(space.size)
    fresh: list[np.ndarray] | None = [] if list_next else None
    held = 0
    lock = threading.Lock()  # a byte may hold states of two threads; the list is shared

    def one_part(part: tuple[int, int]) -> None:
        nonlocal fresh, held
        lo, hi = part
        ranks = store.level(depth, lo, hi, dtype) if frontier is None else frontier[lo:hi]
        base, top = (lo, hi) if frontier is None else (0, size)
        for first in range(0, len(ranks), BLOCK // 4):
            states, step, _, _ = _states(space, base, top, ranks[first:first + BLOCK // 4]
                                         - dtype(base))
            for m in range(space.n_moves):
                nxt = step(states, m)
                if len(nxt) and nxt.min() < 0:  # some moves are illegal here
                    nxt = nxt[nxt >= 0]
                nxt = store.fresh(np.asarray(nxt).astype(dtype, copy=False))
                writes = store.writes(nxt, depth + 1)  # apart: only the writing takes turns
                with lock:
                    store.write(writes)
                    if fresh is not None:
                        fresh.append(nxt)
                        held += len(nxt)
                        if held > size * LISTED:
                            fresh = None  # the next level is found in the store

    if frontier is None:
        parts = [(lo, min(size, lo + BLOCK)) for lo in range(0, size, BLOCK)]
    else:
        part = max(1024, min(BLOCK // 4, -(-len(frontier) // (4 * THREADS))))  # all busy
        parts = [(lo, min(len(frontier), lo + part)) for lo in range(0, len(frontier), part)]
    _in_threads(one_part, parts)
    if fresh is None:
        return None, store.count(depth + 1, levels)
    ranks = distinct(np.concatenate(fresh), overwrite=True) if fresh else np.zeros(0, dtype)
    return ranks, len(ranks)


def _still_unseen(space, lo: int, hi: int, todo: np.ndarray, on_last) -> np.ndarray:
    """The offsets in ``todo`` (unseen ranks ``lo + todo``, sorted) of the
    states no move reaches from a state ``on_last(ranks)`` says is on the
    last level: the rest are the next level.  A state leaves the list at its
    first move from the last level; those left are ranked back at the end."""
    states, _, back_step, rank = _states(space, lo, hi, todo)
    whole = len(states)
    for m in range(space.n_moves):
        before = np.asarray(back_step(states, m))
        if len(before) and before.min() < 0:
            keep = before < 0
            keep[~keep] = ~on_last(before[~keep])
        else:
            keep = ~on_last(before)
        states = states[keep]
        if not len(states):
            break
    if len(states) == whole:
        return todo
    return np.asarray(rank(states)) - lo


def bottom_up_block(space, store, lo: int, hi: int, depth: int, on_last,
                    offset: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Store ranks ``lo..hi-1`` (``lo`` a multiple of 4; space ranks
    ``offset + lo...``) one level bottom-up: the unseen ones with a
    predecessor ``on_last`` get ``depth + 1``.  The offsets from ``lo`` of the
    states unseen before and of those still unseen after (the new level is
    :func:`~permgroup.tables.packed.reached` of the two).

    >>> from permgroup.spaces.product import FactorSpace
    >>> from permgroup.spaces.space import Factor
    >>> ring = FactorSpace([Factor("cell", 4, np.array([[1, 2, 3, 0], [3, 0, 1, 2]]))])
    >>> store = ByteStore(4, np.array([0, UNSEEN, UNSEEN, UNSEEN], dtype=np.uint8))
    >>> todo, left = bottom_up_block(ring, store, 0, 4, 0, lambda r: store.on(r, 0))
    >>> todo.tolist(), left.tolist(), store.depths.tolist()
    ([1, 2, 3], [2], [0, 1, 255, 1])
    """
    view = store.view(lo, hi)
    todo = store.unseen(view, hi - lo)
    if not len(todo):
        return todo, todo
    left = _still_unseen(space, offset + lo, offset + hi, todo, on_last)
    if len(left) < len(todo):
        store.put(lo, view, todo, left, depth + 1)
    return todo, left


def _bottom_up(space, store, depth: int, unseen: np.ndarray | None, list_unseen: bool
               ) -> tuple[int, np.ndarray | None]:
    """One level bottom-up over blocks of ranks or, once few states are left
    (``list_unseen``), over the sorted array of those still ``unseen``, listed
    once; how many states it reached, and the ranks it left unseen if listed."""
    size, lock = space.size, threading.Lock()
    on_last = partial(store.on, depth=depth)
    if unseen is None and list_unseen:
        # each block's offsets narrowed before they are joined: int64 arrays of
        # every unseen state would double the list's memory
        unseen = np.concatenate([
            (store.unseen(store.view(lo, min(size, lo + BLOCK)), min(size, lo + BLOCK) - lo)
             + lo).astype(rank_dtype(size)) for lo in range(0, size, BLOCK)])

    def one_part(lo: int) -> tuple[int, np.ndarray | None]:
        if unseen is None:
            # blocks write their own bytes and read only the last level, which
            # no block writes: the threads share them
            todo, left = bottom_up_block(space, store, lo, min(size, lo + BLOCK // 4), depth,
                                         on_last)
            return len(todo) - len(left), None
        part = unseen[lo:lo + BLOCK // 4]
        left = _still_unseen(space, 0, size, part, on_last)
        writes = store.writes(reached(part, left), depth + 1)
        with lock:  # a byte may hold ranks of two parts
            store.write(writes)
        return len(part) - len(left), left.astype(unseen.dtype, copy=False)

    parts = _in_threads(one_part, range(0, size if unseen is None else len(unseen), BLOCK // 4))
    if unseen is not None and parts:
        unseen = np.concatenate([left for _, left in parts])
    return sum(count for count, _ in parts), unseen


def _dense(space, depths: np.ndarray, depth: int) -> int:
    frontier = depths == depth
    found = np.zeros_like(frontier)
    for m in range(space.n_moves):
        found |= space.dense_step(frontier, m)
    found &= depths == UNSEEN
    depths[found] = depth + 1
    return int(np.count_nonzero(found))


def _pull(space, depths: np.ndarray, depth: int) -> int:
    """One level by rows: every unseen state with a predecessor at ``depth`` gets
    ``depth + 1``.  A block's moves stop once all its unseen states are found."""
    table = depths.reshape(space.outer_size, space.inner_size)
    per_block = max(1, 4 * BLOCK // space.inner_size)
    found = 0
    for first in range(0, space.outer_size, per_block):
        last = min(space.outer_size, first + per_block)
        block = table[first:last]
        todo = block == UNSEEN
        if not todo.any():
            continue
        hit = np.zeros_like(todo)
        for m in range(space.n_moves):
            hit |= space.row_pull(table, first, last, m) == depth
            if m % 4 == 3 and not (todo & ~hit).any():
                break
        hit &= todo
        block[hit] = depth + 1
        found += int(np.count_nonzero(hit))
    return found


def weighted_depths(space, sources: Sequence[int] | np.ndarray, costs: Sequence[int],
                    progress: Progress | None = None) -> np.ndarray:
    """Least total cost of every rank from the sources when move ``m`` costs
    ``costs[m]`` (small positive integers; all ones is :func:`bfs`);
    ``UNSEEN`` where unreachable or beyond 254.

    Level ``d`` is every unseen image of level ``d - costs[m]`` under move
    ``m``, so a state's first level is its least cost (Dijkstra with integer
    costs, one array per level).

    >>> from permgroup.spaces.product import FactorSpace
    >>> from permgroup.spaces.space import Factor
    >>> ring = FactorSpace([Factor("cell", 6, np.array([[1, 2, 3, 4, 5, 0],
    ...                                                  [2, 3, 4, 5, 0, 1]]))])
    >>> weighted_depths(ring, [0], [1, 3]).tolist()
    [0, 1, 2, 3, 4, 5]
    >>> weighted_depths(ring, [0], [1, 1]).tolist()
    [0, 1, 1, 2, 2, 3]
    """
    costs = [int(c) for c in costs]
    if min(costs) < 1:
        raise ValueError("move costs must be positive integers")
    store, dtype = bfs(space, sources, progress=progress, max_depth=0), rank_dtype(space.size)
    level = {0: store.level(0, 0, space.size, dtype)}  # the sources, marked by bfs
    depth = 0
    while any(len(level.get(depth - k, ())) for k in range(max(costs))) and depth < UNSEEN - 1:
        depth += 1
        for m, cost in enumerate(costs):
            source = level.get(depth - cost, ())
            for start in range(0, len(source), BLOCK):
                nxt = space.step(source[start:start + BLOCK], m)
                store.mark(store.fresh(nxt[nxt >= 0]), depth)  # -1: illegal here
        level[depth] = store.level(depth, 0, space.size, dtype)
        level.pop(depth - max(costs), None)
        if progress and len(level[depth]):
            progress(depth, len(level[depth]))
    return store.depths
