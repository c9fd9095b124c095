"""The second, simplest algorithm the tests compare the engine against."""
from __future__ import annotations

from collections.abc import Sequence

from permgroup.perm import Perm, compose


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
