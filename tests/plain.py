"""The second, simplest algorithm the tests compare the engine against."""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from permgroup.perm import Perm, compose
from permgroup.spaces.partial import PartialPuzzle


def plain_bfs(moves: Sequence[Perm], start: Perm) -> dict[Perm, int]:
    """Distance of every element reachable from ``start``: a dictionary BFS on
    array-form tuples, one Python step per element and move."""
    depth = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for g in frontier:
            for m in moves:
                h = compose(g, m)
                if h not in depth:
                    depth[h] = depth[g] + 1
                    nxt.append(h)
        frontier = nxt
    return depth


def plain_partial_bfs(partial: PartialPuzzle, sources: Iterable[Sequence], max_depth: int
                      ) -> dict[tuple, int]:
    """Depth of every state of a partial-move puzzle within ``max_depth`` moves
    of the sources, one state and legal move at a time."""
    depths = {tuple(s): 0 for s in sources}
    frontier = list(depths)
    for depth in range(1, max_depth + 1):
        nxt = []
        for state in frontier:
            for _, after in partial.successors(state):
                if after not in depths:
                    depths[after] = depth
                    nxt.append(after)
        if not nxt:
            break
        frontier = nxt
    return depths
