"""Exact search for groups too large for a table: meet in the middle and IDA*.

Both searches run from a start state (a column of digits in a
:class:`~permgroup.spaces.digits.DigitSpace`) towards a :class:`~permgroup.search.ball.Ball`
of radius ``r`` around the goal, in which every depth is exact:

* :func:`meet_in_the_middle` grows breadth-first levels from the start
  (deduplicated by packed key) and looks each level up in the ball.  The first
  level ``f`` holding a ball state is ``max(0, d - r)`` for the distance ``d``,
  and the least ``f + depth`` on it is ``d``.
* :func:`ida_star` deepens a bound ``L`` one move at a time and walks the move
  tree depth first, in batches, keeping only children whose lower bounds
  (pattern databases, :mod:`permgroup.search.pattern`) allow a solution within ``L``;
  at depth ``L - r`` the survivors are looked up in the ball.  Since no bound
  below ``L`` succeeded, a hit there is optimal.

Both walk only *canonical* move sequences (:class:`MovePruning`), which
loses no optimal solution, and both return ``None`` when more than
``max_depth`` moves are needed: never a longer answer.

>>> from permgroup.search.ball import build_ball
>>> from permgroup.spaces.digits import ring_space
>>> space, t = ring_space(8)
>>> from permgroup.perm import from_cycles, power
>>> goal = space.of_elements([tuple(range(8))])
>>> ball = build_ball(space, goal, radius=1)
>>> start = space.of_elements([from_cycles([(0, 3, 6, 1, 4, 7, 2, 5)], 8)])
>>> ida_star(space, start, ball, max_depth=4, pruning=MovePruning.of([t, power(t, -1)]))
[1, 1, 1]
>>> meet_in_the_middle(space, start, ball, max_depth=2) is None
True
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import product

import numpy as np

from permgroup.errors import Stopped
from permgroup.search.ball import Ball, KeySet, unique_columns
from permgroup.tables.store import UNSEEN
from permgroup.spaces.digits import DigitSpace
from permgroup.perm import Perm, compose, identity

#: a lower bound on the distance to the goal of each state (columns of digits)
Bound = Callable[[np.ndarray], np.ndarray]


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
    start: int = field(default=0)

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
        n = len(moves[0])
        m_count = len(moves)
        price = [1] * m_count if costs is None else [int(c) for c in costs]

        def order(word: tuple[int, ...]) -> tuple:
            return sum(price[m] for m in word), len(word), word

        least: dict[Perm, tuple[int, ...]] = {identity(n): ()}
        products: dict[tuple[int, ...], Perm] = {(): identity(n)}
        for length in (1, 2, 3):
            for word in product(range(m_count), repeat=length):
                p = compose(products[word[:-1]], moves[word[-1]])
                products[word] = p
                best = least.get(p)
                if best is None or order(word) < order(best):
                    least[p] = word
        canonical = {w for w, p in products.items() if least[p] == w}
        none = m_count
        allowed = np.zeros(((m_count + 1) ** 2, m_count), dtype=bool)
        for before, last, m in product(range(m_count + 1), repeat=3):
            if m == none or (before != none and last == none):
                continue
            window = tuple(x for x in (before, last, m) if x != none)
            ok = all(window[i:] in canonical for i in range(len(window)))
            allowed[before * (m_count + 1) + last, m] = ok
        return cls(m_count, allowed, none * (m_count + 1) + none)

    def after(self, history: np.ndarray | int, move: np.ndarray | int) -> np.ndarray | int:
        """The history after ``move``."""
        return (history % (self.n_moves + 1)) * (self.n_moves + 1) + move

    def count_sequences(self, length: int) -> list[int]:
        """How many canonical sequences there are of each length up to ``length``."""
        counts = np.zeros(self.allowed.shape[0], dtype=np.int64)
        counts[self.start] = 1
        out = [1]
        for _ in range(length):
            nxt = np.zeros_like(counts)
            for h in np.flatnonzero(counts):
                for m in np.flatnonzero(self.allowed[h]):
                    nxt[self.after(h, m)] += counts[h]
            counts = nxt
            out.append(int(counts.sum()))
        return out


@dataclass
class SearchStats:
    """What a search did: nodes generated per bound (IDA*) or level (meet in
    the middle), and ball look-ups.

    >>> from permgroup.search.ball import build_ball
    >>> from permgroup.spaces.digits import ring_space
    >>> space, t = ring_space(8)
    >>> from permgroup.perm import power
    >>> goal = space.of_elements([tuple(range(8))])
    >>> ball = build_ball(space, goal, radius=1)
    >>> stats = SearchStats()
    >>> ida_star(space, space.of_elements([power(t, 3)]), ball, max_depth=4, stats=stats)
    [1, 1, 1]
    >>> stats  # bound 2 fails after 2 nodes, bound 3 succeeds
    SearchStats(generated=[2, 6], lookups=6)
    """

    generated: list[int] = field(default_factory=list)
    lookups: int = 0


def meet_in_the_middle(space: DigitSpace, start: np.ndarray, ball: Ball, max_depth: int,
                       stats: SearchStats | None = None) -> list[int] | None:
    """An optimal word (move indices) from ``start`` (one column of digits) to
    the goal, or ``None`` if it needs more than ``max_depth`` moves.

    Breadth-first levels from the start, deduplicated by key, each looked up
    in the ball; see the module docstring.

    >>> from permgroup.search.ball import build_ball
    >>> from permgroup.spaces.digits import ring_space
    >>> space, t = ring_space(8)
    >>> from permgroup.perm import power
    >>> goal = space.of_elements([tuple(range(8))])
    >>> ball = build_ball(space, goal, radius=1)
    >>> meet_in_the_middle(space, space.of_elements([power(t, 5)]), ball, max_depth=3)
    [0, 0, 0]
    >>> meet_in_the_middle(space, space.of_elements([power(t, 4)]), ball, max_depth=3) is None
    True
    """
    stats = stats if stats is not None else SearchStats()
    level_states = start
    level_keys = space.keys(start)
    current = KeySet.of(level_keys, space.word_bits)[0]
    previous = KeySet.of(level_keys[:, :0], space.word_bits)[0]
    parents: list[tuple[np.ndarray, np.ndarray]] = []
    for f in range(max(0, max_depth - ball.radius) + 1):
        depth = ball.depth_of_keys(level_keys).astype(np.int64)
        stats.lookups += len(depth)
        stats.generated.append(len(depth))
        reach = np.where(depth == UNSEEN, np.iinfo(np.int64).max, depth + f)
        best = int(np.argmin(reach))
        if reach[best] <= max_depth:
            word = []
            i = best
            for parent, move in reversed(parents):
                word.append(int(move[i]))
                i = int(parent[i])
            tail = ball.walk(space, level_states[:, best:best + 1])[0]
            return word[::-1] + tail
        if f == max(0, max_depth - ball.radius):
            break
        n = level_states.shape[1]
        children = np.concatenate([space.step(level_states, m) for m in range(space.n_moves)],
                                  axis=1)
        parent = np.tile(np.arange(n), space.n_moves)
        move = np.repeat(np.arange(space.n_moves), n)
        keys = space.keys(children)
        new = ~(current.contains(keys) | previous.contains(keys))
        first = np.flatnonzero(new)[unique_columns(keys[:, new])]
        level_states, level_keys = children[:, first], keys[:, first]
        parents.append((parent[first], move[first]))
        previous, current = current, KeySet.of(level_keys, space.word_bits)[0]
    return None


def ida_star(space: DigitSpace, start: np.ndarray, ball: Ball, max_depth: int,
             bounds: Sequence[Bound] = (), pruning: MovePruning | None = None,
             batch: int = 1 << 16, stats: SearchStats | None = None,
             deadline: float | None = None) -> list[int] | None:
    """An optimal word (move indices) from ``start`` (one column of digits) to
    the goal, or ``None`` if it needs more than ``max_depth`` moves;
    :class:`~permgroup.errors.Stopped` once ``deadline`` (a
    ``time.monotonic()`` time) has passed.

    Iterative deepening, depth first over batches of at most ``batch`` states;
    see the module docstring.  ``bounds`` are admissible lower bounds.

    >>> from permgroup.search.ball import build_ball
    >>> from permgroup.spaces.digits import ring_space
    >>> space, t = ring_space(8)
    >>> from permgroup.perm import power
    >>> goal = space.of_elements([tuple(range(8))])
    >>> ball = build_ball(space, goal, radius=1)
    >>> from permgroup.search.pattern import build_pattern_database
    >>> pdb = build_pattern_database(space, [0], goal)
    >>> start = space.of_elements([power(t, 4)])
    >>> ida_star(space, start, ball, max_depth=4, bounds=[pdb],
    ...          pruning=MovePruning.of([t, power(t, -1)]))
    [0, 0, 0, 0]
    >>> ida_star(space, start, ball, max_depth=3) is None
    True
    """
    stats = stats if stats is not None else SearchStats()
    d0 = int(ball.depth(space, start)[0])
    if d0 != UNSEEN:
        return ball.walk(space, start)[0] if d0 <= max_depth else None
    lower = ball.radius + 1
    for bound_fn in bounds:
        lower = max(lower, int(bound_fn(start)[0]))
    for limit in range(lower, max_depth + 1):
        stats.generated.append(0)
        word = _bounded_search(space, start, ball, limit, bounds, pruning, batch, stats,
                               deadline)
        if word is not None:
            return word
    return None


def _bounded_search(space: DigitSpace, start: np.ndarray, ball: Ball, limit: int,
                    bounds: Sequence[Bound], pruning: MovePruning | None, batch: int,
                    stats: SearchStats, deadline: float | None = None) -> list[int] | None:
    """A word of exactly ``limit`` moves through a ball state at depth
    ``limit - radius``, if there is one (``limit > radius``)."""
    leaf = limit - ball.radius
    history = np.array([pruning.start if pruning else 0], dtype=np.int64)
    stack = [(start, history, np.zeros((0, 1), dtype=np.uint8))]
    while stack:
        if deadline is not None and time.monotonic() > deadline:
            raise Stopped("the time limit", limit - 1)
        states, history, paths = stack.pop()
        g = paths.shape[0] + 1
        parts = []
        for m in range(space.n_moves):
            chosen = np.flatnonzero(pruning.allowed[history, m]) if pruning else \
                np.arange(states.shape[1])
            if len(chosen):
                parts.append((m, chosen, space.step(states[:, chosen], m)))
        if not parts:
            continue
        children = np.concatenate([c for _, _, c in parts], axis=1)
        parent = np.concatenate([p for _, p, _ in parts])
        move = np.concatenate([np.full(len(p), m, dtype=np.int64) for m, p, _ in parts])
        stats.generated[-1] += len(parent)
        for bound_fn in bounds:
            keep = np.flatnonzero(bound_fn(children).astype(np.int64) + g <= limit)
            children, parent, move = children[:, keep], parent[keep], move[keep]
        if g == leaf:
            stats.lookups += len(parent)
            depth = ball.depth(space, children)
            hits = np.flatnonzero(depth.astype(np.int64) + g <= limit)
            if len(hits):
                i = hits[0]
                word = paths[:, parent[i]].tolist() + [int(move[i])]
                return word + ball.walk(space, children[:, i:i + 1])[0]
            continue
        child_history = pruning.after(history[parent], move) if pruning else history[parent]
        child_paths = np.concatenate([paths[:, parent], move[None, :].astype(np.uint8)])
        # push batches last-first so the search goes on in move order
        for lo in reversed(range(0, len(parent), batch)):
            hi = lo + batch
            stack.append((children[:, lo:hi], child_history[lo:hi], child_paths[:, lo:hi]))
    return None
