"""Exact search for groups too large for a table: meet in the middle and IDA*.

Both run from a start state (a column of digits of a
:class:`~permgroup.spaces.digits.DigitSpace`) towards a
:class:`~permgroup.search.ball.Ball` of radius ``r`` around the goal, in which
every depth is exact, and both return an optimal word (move indices), or
``None`` when more than ``max_depth`` moves are needed: never a longer answer.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from permgroup.budget import Budget
from permgroup.errors import Stopped
from permgroup.search.ball import Ball, key_levels
from permgroup.search.dfs import Bound, MovePruning, Stage, bounded_paths
from permgroup.tables.store import UNSEEN
from permgroup.spaces.digits import DigitSpace


@dataclass
class SearchStats:
    """What a search did: nodes generated per bound (IDA*) or level (meet in
    the middle), and ball look-ups (see :func:`ida_star`)."""

    generated: list[int] = field(default_factory=list)
    lookups: int = 0


def meet_in_the_middle(space: DigitSpace, start: np.ndarray, ball: Ball, max_depth: int,
                       stats: SearchStats | None = None) -> list[int] | None:
    """Breadth-first levels from the start, each looked up in the ball: the
    first level ``f`` holding a ball state is ``max(0, d - r)`` for the
    distance ``d``, and the least ``f + depth`` on it is ``d``.

    >>> from permgroup.search.ball import build_ball
    >>> from permgroup.spaces.digits import ring_space
    >>> from permgroup.perm import power
    >>> space, t = ring_space(8)
    >>> ball = build_ball(space, space.of_elements([tuple(range(8))]), radius=1)
    >>> meet_in_the_middle(space, space.of_elements([power(t, 5)]), ball, max_depth=3)
    [0, 0, 0]
    >>> meet_in_the_middle(space, space.of_elements([power(t, 4)]), ball, max_depth=3) is None
    True
    """
    stats = stats if stats is not None else SearchStats()
    level_states, level_keys = start, space.keys(start)
    levels = key_levels(space, start, level_keys)
    parents: list[tuple[np.ndarray, np.ndarray]] = []
    for f in range(max(0, max_depth - ball.radius) + 1):
        if f:
            grown = next(levels, None)
            if grown is None:  # every state reachable from the start is seen
                return None
            level_states, level_keys, parent, move = grown
            parents.append((parent, move))
        depth = ball.depth_of_keys(level_keys).astype(np.int64)
        stats.lookups += len(depth)
        stats.generated.append(len(depth))
        reach = np.where(depth == UNSEEN, np.iinfo(np.int64).max, depth + f)
        best = int(np.argmin(reach))
        if reach[best] <= max_depth:
            word = ball.walk(space, level_states[:, best:best + 1])[0]
            for parent, move in reversed(parents):
                word.insert(0, int(move[best]))
                best = int(parent[best])
            return word
    return None


def ida_star(space: DigitSpace, start: np.ndarray, ball: Ball, max_depth: int,
             bounds: Sequence[Bound] = (), pruning: MovePruning | None = None,
             batch: int = 1 << 16, stats: SearchStats | None = None,
             budget: Budget | None = None) -> list[int] | None:
    """Iterative deepening of a bound ``L`` over
    :func:`~permgroup.search.dfs.bounded_paths` (batches of at most ``batch``
    states, the sequences ``pruning`` allows, children pruned by the admissible
    ``bounds``), looking the states ``r`` moves short of ``L`` up in the ball: no
    bound below ``L`` succeeded, so a hit is optimal.  :class:`~permgroup.errors.Stopped`
    once the ``budget`` (a :class:`~permgroup.budget.Budget`) has run out.

    >>> from permgroup.search.ball import build_ball
    >>> from permgroup.spaces.digits import ring_space
    >>> from permgroup.perm import power
    >>> space, t = ring_space(8)
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
    >>> stats = SearchStats()
    >>> ida_star(space, space.of_elements([power(t, 3)]), ball, max_depth=4, stats=stats)
    [1, 1, 1]
    >>> stats  # bound 2 fails after 2 nodes, bound 3 succeeds
    SearchStats(generated=[2, 6], lookups=6)
    """
    stats = stats if stats is not None else SearchStats()
    d0 = int(ball.depth(space, start)[0])
    if d0 != UNSEEN:
        return ball.walk(space, start)[0] if d0 <= max_depth else None
    stage = Stage(space, None, bounds, ball)
    lower = max(ball.radius + 1, int(stage.bound(start)[0]) if bounds else 0)
    pruning = pruning or MovePruning.every(space.n_moves)

    def stop() -> bool:
        return budget is not None and budget.expired

    for limit in range(lower, max_depth + 1):
        stage.generated = stage.lookups = 0
        hits = bounded_paths(pruning, stage, start, np.array([pruning.start]), np.array([limit]),
                             stop=stop, batch=batch)
        word = next((paths[:, 0].tolist() for _, paths, _ in hits), None)
        stats.generated.append(stage.generated)
        stats.lookups += stage.lookups
        if word is not None:
            return word
        if stop():
            raise Stopped(budget.stop_reason() or "the time limit", limit - 1)
    return None
