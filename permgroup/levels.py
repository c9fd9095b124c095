"""Breadth-first levels over states told apart by keys: the one search for sets
of states that have no ranked table.

In the manner of networkx's ``generic_bfs_edges``, :func:`levels` owns the loop
and the caller says the rest: how a batch of states grows (``children``, often
:func:`by_moves` over a step function), how a state is told apart (``key``)
and which record of states seen to keep (``seen``).  It yields each level's new
states with a state of the level before and the move that reached each
from it, and ends when a level is empty; a caller that wants fewer levels, a time
limit or a memory budget stops asking.

The records of states seen:

* :class:`SortedKeys`: every key seen, sorted (any sortable keys: ranks,
  packed words, rows viewed as bytes);
* :class:`DenseKeys`: integer keys below a known size, one flag each;
* :class:`permgroup.search.ball.RecentKeys`: for moves that come with their
  inverses, only the last two levels (a child seen before is on one of them),
  multi-word keys.

The project's other breadth-first searches are the ranked table's
(:mod:`permgroup.tables.bfs`: stores, the cost model, bottom-up steps) and the
out-of-core level loop (:func:`permgroup.tables.sharded.run`).

>>> ring = by_moves(lambda s, m: (s + (1, -1)[m]) % 6, 2)
>>> [level.states.tolist() for level in levels(np.array([0]), ring)]
[[1, 5], [2, 4], [3]]
>>> level = next(levels(np.array([0]), ring))
>>> level.parent.tolist(), level.move.tolist()
([0, 0], [0, 1])
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

#: a batch of states grown by every move: ``(images, parent, move)``, image
#: ``i`` reached from state ``parent[i]`` of the batch by move ``move[i]``
#: (both ``None`` when the caller wants no way back)
Children = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]]


def row_keys(rows: np.ndarray) -> np.ndarray:
    """Each row of a 2-D array as one sortable key (its bytes, ``np.void``): a
    state of many small digits (a colouring) kept and compared as one value.

    >>> keys = row_keys(np.array([[1, 2], [0, 5], [1, 2]], dtype=np.uint8))
    >>> len(np.unique(keys)), rows_of(keys[:1], np.uint8).tolist()
    (2, [[1, 2]])
    """
    rows = np.ascontiguousarray(rows)
    return rows.view(np.dtype((np.void, rows.shape[1] * rows.itemsize))).ravel()


def rows_of(keys: np.ndarray, dtype) -> np.ndarray:
    """The rows whose :func:`row_keys` these are."""
    dtype = np.dtype(dtype)
    keys = np.ascontiguousarray(keys)
    return keys.view(dtype).reshape(len(keys), keys.dtype.itemsize // dtype.itemsize)


@dataclass
class Level:
    """One level: its states (along ``axis`` of the search), their keys, and
    for each the index of the state of the level before that reached it and
    the move that did (``None`` when ``children`` gives none: a search that
    only wants the states)."""

    depth: int
    states: np.ndarray
    keys: np.ndarray
    parent: np.ndarray | None
    move: np.ndarray | None


def by_moves(step: Callable[[np.ndarray, int], np.ndarray], n_moves: int, axis: int = 0,
             legal: bool = False) -> Children:
    """The children of a batch by each of ``n_moves`` moves, ``step(states, m)``
    giving the images of the batch under move ``m`` (along ``axis``); with
    ``legal``, integer images below 0 mean the move is not legal there and
    are dropped.

    >>> grow = by_moves(lambda s, m: s * 2 + m, 2)
    >>> [a.tolist() for a in grow(np.array([1, 3]))]
    [[2, 6, 3, 7], [0, 1, 0, 1], [0, 0, 1, 1]]
    >>> [a.tolist() for a in by_moves(None, 0)(np.array([1, 3]))]
    [[], [], []]
    """
    def children(states: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n = states.shape[axis]
        images = np.concatenate([step(states, m) for m in range(n_moves)]
                                or [np.take(states, [], axis=axis)], axis=axis)
        parent = np.tile(np.arange(n, dtype=np.int64), n_moves)
        move = np.repeat(np.arange(n_moves, dtype=np.int64), n)
        if legal:
            ok = np.flatnonzero(images >= 0)
            return images[ok], parent[ok], move[ok]
        return images, parent, move
    return children


class SortedKeys:
    """Every key seen, in one sorted array.

    >>> seen = SortedKeys(np.array([5, 1]))
    >>> np.array([7, 1, 7, 3])[seen.novel(np.array([7, 1, 7, 3]))].tolist()
    [3, 7]
    """

    def __init__(self, keys: np.ndarray):
        self.keys = np.sort(keys)

    def novel(self, keys: np.ndarray) -> np.ndarray:
        """The index of the first of each distinct key not seen, in key order (a sort
        and a comparison: numpy 2's ``unique`` is ten times slower on large
        integer arrays)."""
        order = np.argsort(keys)
        ordered = keys[order]
        keep = np.empty(len(ordered), dtype=bool)
        keep[:1] = True
        if ordered.dtype.kind == "V":  # rows as bytes (row_keys) have no ufunc
            keep[1:] = ordered[1:] != ordered[:-1]
        else:
            np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
        # the sort is not stable (numpy's sorts differ by version and processor):
        # each key's first index is taken, so the parents, hence the words, are
        # the same on every machine
        starts = np.flatnonzero(keep)
        order = np.minimum.reduceat(order, starts) if len(starts) else order[:0]
        ordered = ordered[starts]
        if len(self.keys) and len(ordered):
            at = np.minimum(np.searchsorted(self.keys, ordered), len(self.keys) - 1)
            order = order[self.keys[at] != ordered]
        return order

    def add(self, keys: np.ndarray) -> None:
        """Mark distinct, unseen ``keys`` seen (a merge of two sorted arrays)."""
        merged = np.concatenate([self.keys, keys])
        merged.sort(kind="stable")
        self.keys = merged

    def contains(self, keys: np.ndarray) -> np.ndarray:
        """Whether each of ``keys`` is seen.

        >>> SortedKeys(np.array([5, 1])).contains(np.array([1, 2, 5, 9])).tolist()
        [True, False, True, False]
        """
        if not len(self.keys):
            return np.zeros(len(keys), dtype=bool)
        at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        return self.keys[at] == keys


class KeyCounts:
    """How many times each key was counted, in sorted arrays (a dict's loop in
    Python, one key at a time, is what this replaces).

    >>> counts = KeyCounts(np.array([5, 1, 5]))
    >>> counts.count(np.array([5, 1, 7])).tolist()
    [2, 1, 0]
    >>> KeyCounts.rank(np.array([7, 3, 7, 7, 3])).tolist()
    [0, 0, 1, 2, 1]
    >>> counts.add(np.array([7, 5])); counts.count(np.array([5, 7])).tolist()
    [3, 1]
    """

    def __init__(self, keys: np.ndarray):
        self.keys, self.counts = np.unique(keys, return_counts=True)

    def count(self, keys: np.ndarray) -> np.ndarray:
        """How many times each of ``keys`` was counted."""
        if not len(self.keys):
            return np.zeros(len(keys), dtype=np.int64)
        at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        return np.where(self.keys[at] == keys, self.counts[at], 0)

    @staticmethod
    def rank(keys: np.ndarray) -> np.ndarray:
        """Each key's place among the equal keys before it in ``keys``."""
        order = np.argsort(keys, kind="stable")
        ordered = keys[order]
        starts = np.ones(len(keys), dtype=bool)
        np.not_equal(ordered[1:], ordered[:-1], out=starts[1:])
        first = np.maximum.accumulate(np.where(starts, np.arange(len(keys)), 0))
        out = np.empty(len(keys), dtype=np.int64)
        out[order] = np.arange(len(keys)) - first
        return out

    def add(self, keys: np.ndarray) -> None:
        """Count each of ``keys`` once more (a merge of sorted arrays)."""
        new, counts = np.unique(keys, return_counts=True)
        merged = np.concatenate([self.keys, new])
        order = np.argsort(merged, kind="stable")
        merged, counts = merged[order], np.concatenate([self.counts, counts])[order]
        starts = np.ones(len(merged), dtype=bool)
        np.not_equal(merged[1:], merged[:-1], out=starts[1:])
        at = np.flatnonzero(starts)
        self.keys = merged[at]
        self.counts = np.add.reduceat(counts, at) if len(at) else counts


#: :meth:`DenseKeys.novel` sorts the unseen keys when they are fewer than the
#: flags over this (a sort of k keys against a pass over every flag)
SPARSE = 8


class DenseKeys:
    """Integer keys below ``size``, one flag each: marking is linear, where
    hashing or sorting the images would be most of the cost.

    >>> seen = DenseKeys(8, np.array([5, 1]))
    >>> seen.novel(np.array([7, 1, 7, 3])).tolist()
    [3, 0]
    """

    def __init__(self, size: int, keys: np.ndarray):
        self.seen = np.zeros(size, dtype=bool)
        self.seen[keys] = True
        # eight bytes a key, made only when asked for the first occurrences
        # (novel_keys, the usual call, needs none)
        self._first: np.ndarray | None = None

    def novel(self, keys: np.ndarray) -> np.ndarray:
        unseen = np.flatnonzero(~self.seen[keys])
        if len(unseen) * SPARSE < len(self.seen):
            # few new keys against the flags: sorting them beats two passes over
            # every flag (the same indices, in the same order: by key)
            fresh = keys[unseen]
            order = np.argsort(fresh, kind="stable")
            fresh = fresh[order]
            starts = np.ones(len(fresh), dtype=bool)
            np.not_equal(fresh[1:], fresh[:-1], out=starts[1:])
            return unseen[order[starts]]
        if self._first is None:
            self._first = np.full(len(self.seen), -1, dtype=np.int64)
        first = self._first
        # written backwards, so the first occurrence of a key is what stays
        first[keys[::-1]] = np.arange(len(keys) - 1, -1, -1, dtype=np.int64)
        fresh = np.zeros(len(self.seen), dtype=bool)
        fresh[keys] = True
        fresh &= ~self.seen
        found = first[np.flatnonzero(fresh)]
        first[keys] = -1
        return found

    def novel_keys(self, keys: np.ndarray) -> np.ndarray:
        """The distinct keys not seen, in order: a mask, no index kept."""
        fresh = np.zeros(len(self.seen), dtype=bool)
        fresh[keys] = True
        fresh &= ~self.seen
        return np.flatnonzero(fresh)

    def add(self, keys: np.ndarray) -> None:
        self.seen[keys] = True

    def unseen(self) -> np.ndarray:
        """The keys not seen, in order."""
        return np.flatnonzero(~self.seen)


def _from_below(states: np.ndarray, seen: DenseKeys, back: Children, step: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The next level after ``states`` found bottom-up: each unseen key whose
    states one move before (``back``, as :func:`by_moves` gives them: each
    move's in turn) include one of ``states``; its parent and move those the
    top-down way keeps (the first batch of ``step`` states holding a parent,
    then the first move), the level in its order (by that batch, then by key)."""
    where = np.full(len(seen.seen), -1, dtype=np.int64)
    where[states] = np.arange(len(states))
    unseen = seen.unseen()
    found, parents, moves = [], [], []
    for low in range(0, len(unseen), max(1, step)):
        keys = unseen[low:low + max(1, step)]
        before, _, _ = back(keys)
        at = where[before].reshape(-1, len(keys))   # [move, key]
        # each key's first (batch, move): the one the top-down way meets first
        rank = np.where(at >= 0, at // step * len(at) + np.arange(len(at))[:, None],
                        np.iinfo(np.int64).max)
        move = rank.argmin(axis=0)
        column = np.arange(len(keys))
        hit = np.flatnonzero(at[move, column] >= 0)
        found.append(keys[hit])
        parents.append(at[move[hit], hit])
        moves.append(move[hit])
    found, parent, move = (np.concatenate(a) if a else np.zeros(0, dtype=np.int64)
                           for a in (found, parents, moves))
    order = np.lexsort((found, parent // step))
    return found[order], parent[order], move[order]


def levels(start: np.ndarray, children: Children, key: Callable[[np.ndarray], np.ndarray]
           | None = None, seen=None, axis: int = 0, batch: int | None = None,
           back: Children | None = None) -> Iterator[Level]:
    """The breadth-first levels after ``start`` (distinct states along ``axis``),
    each the states not seen before (see the module docstring); ``key`` tells
    states apart (the states themselves by default), ``seen`` records them
    (:class:`SortedKeys` of the start by default).  With ``batch``, a level is
    grown ``batch`` states at a time, each batch's new states marked seen
    before the next is grown (so its children, often many times the level,
    are never all held at once); ``seen`` must then take several additions a
    level (:class:`SortedKeys`, :class:`DenseKeys`).

    ``back``, where the states are integer keys of a :class:`DenseKeys` and
    every move is a permutation of them, gives a batch's states one move
    before (as ``children`` does: state ``i`` is the one that move ``move[i]``
    takes to the batch's ``parent[i]``); a level larger than the keys not yet
    seen is then found from those, bottom-up (each unseen key's states before
    it looked up in the level: on the 3-cycles' search of a 132-piece orbit,
    15 M look-ups where the level had 82 M children), the same states,
    parents, moves and order as top-down.

    >>> ring = by_moves(lambda s, m: (s + (1, -1)[m]) % 6, 2)
    >>> [level.states.tolist() for level in levels(np.array([0]), ring, batch=1)]
    [[1, 5], [2, 4], [3]]
    >>> back = by_moves(lambda s, m: (s - (1, -1)[m]) % 6, 2)
    >>> down = levels(np.array([0]), ring, seen=DenseKeys(6, np.array([0])), batch=1, back=back)
    >>> [(v.states.tolist(), v.parent.tolist(), v.move.tolist()) for v in down]
    [([1, 5], [0, 0], [0, 1]), ([2, 4], [0, 1], [0, 1]), ([3], [0], [0])]
    """
    plain = key is None  # the states are their own keys
    key = key if key is not None else (lambda states: states)
    states = start
    seen = seen if seen is not None else SortedKeys(key(start))
    depth = 0
    while states.shape[axis]:
        size = states.shape[axis]
        step = size if batch is None else max(1, batch)
        parts = []
        if back is not None and size > len(seen.seen) - np.count_nonzero(seen.seen):
            found, parent, move = _from_below(states, seen, back, step)
            seen.add(found)
            parts.append((found, found, parent, move))
        for low in range(0, size if not parts else 0, step):
            part = states if step >= size else \
                np.take(states, np.arange(low, min(low + step, size)), axis=axis)
            images, parent, move = children(part)
            if parent is None and plain and hasattr(seen, "novel_keys"):
                # no parents wanted: the new states alone, as cheaply as the record can
                found = keys = seen.novel_keys(images)
            else:
                keys = key(images)
                first = seen.novel(keys)
                keys = np.take(keys, first, axis=-1)
                found = np.take(images, first, axis=axis)
                if parent is not None:
                    parent, move = parent[first] + low, move[first]
            seen.add(keys)
            parts.append((found, keys, parent, move))
        if len(parts) == 1:
            states, keys, parent, move = parts[0]
        else:
            states = np.concatenate([p[0] for p in parts], axis=axis)
            keys = np.concatenate([p[1] for p in parts], axis=-1)
            parent = None if parts[0][2] is None else np.concatenate([p[2] for p in parts])
            move = None if parts[0][3] is None else np.concatenate([p[3] for p in parts])
        depth += 1
        if not states.shape[axis]:
            return
        yield Level(depth, states, keys, parent, move)
