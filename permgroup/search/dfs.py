"""One bounded depth-first search over batches of states (:func:`bounded_paths`),
the canonical-sequence pruner every search shares (:class:`MovePruning`), and
the ``Bound`` protocol.  What the caller's loop does with the paths the search
yields is the search: IDA* (:func:`permgroup.search.exact.ida_star`) returns
the first, a subgroup chain continues each batch into its next stage.

>>> from permgroup.search.ball import build_ball
>>> from permgroup.spaces.digits import ring_space
>>> from permgroup.perm import power
>>> space, t = ring_space(6)
>>> goal = space.of_elements([tuple(range(6))])
>>> stage = Stage(space, goal, ball=build_ball(space, goal, radius=1))
>>> pruning = MovePruning.of([t, power(t, -1)])
>>> start = space.of_elements([power(t, 3)])
>>> [p[:, 0].tolist() for _, p, _ in bounded_paths(pruning, stage, start,
...                                                np.array([pruning.start]), np.array([3]))]
[[0, 0, 0]]
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Protocol

import numpy as np

from permgroup.perm import Perm, compose, identity
from permgroup.search.pattern import PatternDatabase
from permgroup.spaces.digits import DigitSpace

#: columns per batch in the depth-first searches
BATCH = 1 << 14


class Bound(Protocol):
    """A lower bound on the moves from each state of a ``(k, N)`` batch of
    digits to the goal (pattern databases, symmetric tables, chain stages)."""

    def __call__(self, states: np.ndarray) -> np.ndarray: ...


@dataclass(frozen=True)
class MovePruning:
    """Which move may follow the last two: only *canonical* sequences survive.

    A sequence is canonical when every window of at most three moves is the
    least word (shortest, then first in move order) with its product.  Each
    element's least word is canonical, so a search over canonical sequences
    still finds an optimal one; it skips ``X X'``, ``X X X`` (when ``X`` has order 4)
    and one order of every pair of commuting moves.

    ``allowed[h, m]`` says whether move ``m`` may follow history ``h``, where
    ``h = before_last * (M + 1) + last`` and ``M`` stands for "no move".

    >>> p = MovePruning.of([(1, 2, 3, 0), (3, 0, 1, 2)])  # a 4-cycle and its inverse
    >>> p.allowed[p.start].tolist(), p.allowed[p.after(p.start, 0)].tolist()
    ([True, True], [True, False])
    >>> p.count_sequences(3)
    [1, 2, 1, 0]
    """

    n_moves: int
    allowed: np.ndarray

    @property
    def start(self) -> int:
        """The history before any move (``M`` twice)."""
        return self.n_moves * (self.n_moves + 2)

    @classmethod
    def of(cls, moves: Sequence[Perm], costs: Sequence[int] | None = None) -> MovePruning:
        """Derive the table from the moves' products (words of length up to 3).
        With ``costs`` (one per move), the least word is the cheapest first,
        then the shortest, then the first in move order: a window is dropped
        only for a word that costs no more.

        >>> t, t2 = (1, 2, 3, 0), (2, 3, 0, 1)      # a quarter turn and a half turn
        >>> p = MovePruning.of([t, t2])               # t t is the longer word for t2
        >>> bool(p.allowed[p.after(p.start, 0), 0])
        False
        >>> p = MovePruning.of([t, t2], costs=[1, 3])  # but the cheaper one here
        >>> bool(p.allowed[p.after(p.start, 0), 0]), bool(p.allowed[p.start, 1])
        (True, False)
        """
        moves = [tuple(m) for m in moves]
        m_count = len(moves)
        price = [1] * m_count if costs is None else [int(c) for c in costs]

        products: dict[tuple[int, ...], Perm] = {(): identity(len(moves[0]))}
        for length in (1, 2, 3):
            for word in product(range(m_count), repeat=length):
                products[word] = compose(products[word[:-1]], moves[word[-1]])
        least: dict[Perm, tuple[int, ...]] = {}
        for word in sorted(products, key=lambda w: (sum(price[m] for m in w), len(w), w)):
            least.setdefault(products[word], word)
        canonical = set(least.values())
        none = m_count
        allowed = np.zeros(((m_count + 1) ** 2, m_count), dtype=bool)
        for before, last, m in product(range(m_count + 1), repeat=3):
            if m == none or (before != none and last == none):
                continue
            window = tuple(x for x in (before, last, m) if x != none)
            ok = all(window[i:] in canonical for i in range(len(window)))
            allowed[before * (m_count + 1) + last, m] = ok
        return cls(m_count, allowed)

    @classmethod
    def every(cls, n_moves: int) -> MovePruning:
        """No pruning: any move may follow any.

        >>> MovePruning.every(2).count_sequences(2)
        [1, 2, 4]
        """
        return cls(n_moves, np.ones(((n_moves + 1) ** 2, n_moves), dtype=bool))

    def after(self, history: np.ndarray | int, move: np.ndarray | int) -> np.ndarray | int:
        """The history after ``move``."""
        return (history % (self.n_moves + 1)) * (self.n_moves + 1) + move

    def count_sequences(self, length: int) -> list[int]:
        """How many canonical sequences there are of each length up to ``length``."""
        history, move = np.nonzero(self.allowed)
        counts = np.zeros(len(self.allowed), dtype=np.int64)
        counts[self.start] = 1
        out = [1]
        for _ in range(length):
            counts, before = np.zeros_like(counts), counts
            np.add.at(counts, self.after(history, move), before[history])
            out.append(int(counts.sum()))
        return out


class Stage:
    """What a bounded search walks: the ``space``'s moves (``moves``: their
    indices among the caller's moves, all of them by default), its ``goal``
    (a ``(k, 1)`` column), the ``bounds`` that prune, and a ``ball`` of exact
    depths around the goal, if any.  :attr:`generated` and :attr:`lookups`
    count what searches did.  Pattern databases are kept a byte an entry (a
    search looks entries up millions of times a second).

    >>> from permgroup.spaces.digits import ring_space
    >>> space, t = ring_space(4)
    >>> stage = Stage(space, space.of_elements([tuple(range(4))]))
    >>> which, kids = stage.children(stage.goal, np.array([0, 0]), np.array([0, 1]),
    ...                              np.array([5, 5]))
    >>> which.tolist(), stage.at_goal(kids).tolist()
    ([0, 1], [False, False])
    """

    def __init__(self, space: DigitSpace | None, goal: np.ndarray | None,
                 bounds: Sequence[Bound] = (), ball=None, moves: Sequence[int] | None = None):
        self.space, self.goal, self.ball = space, goal, ball
        self.moves = np.asarray(range(space.n_moves) if moves is None else moves, dtype=np.int64)
        self.others: list[Bound] = []  # bounds that are not pattern databases
        # 32-bit entries: digits come out ready for the databases' ranks
        self._flat = [] if space is None else [np.ascontiguousarray(t, dtype=np.int32).ravel()
                                               for t in space.tables]
        self._databases: list[tuple[np.ndarray, list[int]]] = []  # (depths, digits)
        for bound in bounds:
            self.add_bound(bound)
        self.generated = self.lookups = 0

    def add_bound(self, bound: Bound) -> None:
        """Prune by ``bound`` too."""
        if not isinstance(bound, PatternDatabase):
            self.others.append(bound)
            return
        # a projection the moves never reach from the goal (UNSEEN): no path at all
        self._databases.append((bound.depths, bound.which))

    def bound(self, states: np.ndarray) -> np.ndarray | None:
        """The largest of the bounds on each state (``None`` without bounds)."""
        values = [table[self.space.project(states, which)] for table, which in self._databases]
        values += [bound(states) for bound in self.others]
        return np.maximum.reduce(values) if values else None

    def _step_digit(self, i: int, states: np.ndarray, parent: np.ndarray,
                    local: np.ndarray) -> np.ndarray:
        """Digit ``i`` of columns ``parent`` moved by local moves ``local``: flat
        int32 tables and np.take of index arrays, several times faster than
        numpy's fancy indexing on these sizes."""
        size = self.space.sizes[i]
        return np.take(self._flat[i], local * np.int32(size) + np.take(states[i], parent))

    def children(self, states: np.ndarray, parent: np.ndarray, local: np.ndarray,
                 room: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The children of columns ``parent`` of ``states`` by the stage's moves
        ``local`` whose bound is at most ``room``: ``(which, their digits)``.
        Pattern databases go first, each asked only about the children the
        ones before let through, and a digit is computed when one first needs it."""
        which, local = np.arange(len(parent)), local.astype(np.int32)
        digits: dict[int, np.ndarray] = {}
        for table, which_digits in self._databases:
            for i in which_digits:
                if i not in digits:
                    digits[i] = self._step_digit(i, states, parent, local)
            ok = np.flatnonzero(np.take(table, self.space.project(digits, which_digits)) <= room)
            which, parent, local, room = (np.take(a, ok) for a in (which, parent, local, room))
            digits = {i: np.take(d, ok) for i, d in digits.items()}
        out = np.empty((len(self.space.tables), len(which)), dtype=states.dtype)
        for i in range(len(out)):
            out[i] = digits[i] if i in digits else self._step_digit(i, states, parent, local)
        if self.others:
            ok = np.flatnonzero(np.maximum.reduce([b(out) for b in self.others]) <= room)
            which, out = np.take(which, ok), np.take(out, ok, axis=1)
        return which, out

    def at_goal(self, states: np.ndarray) -> np.ndarray:
        return (states == self.goal).all(axis=0)


def bounded_paths(pruning: MovePruning, stage: Stage, states: np.ndarray, history: np.ndarray,
                  limit: np.ndarray, last_moves: np.ndarray | None = None,
                  stop: Callable[[], bool] | None = None, costs: np.ndarray | None = None,
                  batch: int = BATCH
                  ) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray | None]]:
    """Every canonical path of ``stage``'s moves costing exactly ``limit[i]``
    (``costs`` by move index) from column ``i`` of ``states`` to the stage's
    goal (ending with a move allowed by ``last_moves``, if given), depth first
    in batches: yields ``(origin columns, paths (moves x hits), histories after
    them)``; the paths of one yield have the same number of moves.  ``stop()``
    ends the search early; ``costs`` default to one a move.

    With a ball (``stage.ball``), the last ``radius`` moves are looked up
    instead of searched, and the first path found (which may be shorter than
    ``limit``, never longer) is yielded alone, without a history."""
    if not states.shape[1]:
        return
    origin = np.arange(states.shape[1])
    ball = stage.ball
    if costs is None:
        costs = np.ones(int(stage.moves.max(initial=0)) + 1, dtype=np.int64)
    radius = ball.radius if ball is not None else 0
    near = np.flatnonzero(limit <= radius)
    if ball is not None:
        hit = _in_ball(stage, states, near, limit[near])
        if hit is not None:
            yield np.array([hit[0]]), np.array(hit[1], dtype=np.uint8)[:, None], None
            return
    else:
        at = near[stage.at_goal(states[:, near])]
        if len(at):
            yield at, np.zeros((0, len(at)), dtype=np.uint8), history[at]
    keep = np.flatnonzero(limit > radius)
    allowed = pruning.allowed[:, stage.moves]
    stage_costs = costs[stage.moves]
    stack = [(states[:, keep], history[keep], origin[keep], limit[keep],
              np.zeros(len(keep), dtype=np.int64), np.zeros((0, len(keep)), dtype=np.uint8))]
    while stack:
        if stop is not None and stop():
            return
        states, history, origin, limit, spent, paths = stack.pop()
        parent, local = np.nonzero(allowed[history])
        if not len(parent):
            continue
        stage.generated += len(parent)
        paid = np.take(spent, parent) + np.take(stage_costs, local)
        room = np.take(limit, parent) - paid
        kept, children = stage.children(states, parent, local, room)
        parent, move = np.take(parent, kept), np.take(stage.moves, np.take(local, kept))
        paid, room = np.take(paid, kept), np.take(room, kept)
        done = room == radius
        leaf = np.flatnonzero(done)
        if len(leaf):
            if last_moves is not None:
                leaf = leaf[last_moves[move[leaf]]]
            if ball is not None:
                stage.lookups += len(leaf)
                hit = _in_ball(stage, children, leaf, radius)
                if hit is not None:
                    i, tail = hit
                    path = paths[:, parent[i]].tolist() + [int(move[i])] + tail
                    yield origin[parent[i:i + 1]], np.array(path, dtype=np.uint8)[:, None], None
                    return
            else:
                leaf = leaf[stage.at_goal(children[:, leaf])]
                p = parent[leaf]
                if len(leaf):
                    yield (origin[p], np.concatenate([paths[:, p], move[leaf][None, :].astype(
                        np.uint8)]), pruning.after(history[p], move[leaf]))
        inner = np.flatnonzero(~done)
        if not len(inner):
            continue
        p, step = np.take(parent, inner), np.take(move, inner)
        child = (np.take(children, inner, axis=1), pruning.after(np.take(history, p), step),
                 np.take(origin, p), np.take(limit, p), np.take(paid, inner),
                 np.concatenate([np.take(paths, p, axis=1), step[None, :].astype(np.uint8)]))
        # push batches last-first so the search goes on in move order
        for lo in reversed(range(0, len(inner), batch)):
            stack.append(tuple(a[..., lo:lo + batch] for a in child))


def _in_ball(stage: Stage, states: np.ndarray, columns: np.ndarray, room
             ) -> tuple[int, list[int]] | None:
    """The first of ``columns`` of ``states`` within ``room`` moves of the goal
    by the stage's ball, with an optimal tail of moves there; ``None`` if none."""
    depth = stage.ball.depth(stage.space, states[:, columns]).astype(np.int64)
    inside = columns[depth <= room]
    if not len(inside):
        return None
    i = int(inside[0])
    tail = stage.ball.walk(stage.space, states[:, i:i + 1])[0]
    return i, stage.moves[np.array(tail, dtype=np.int64)].tolist()
