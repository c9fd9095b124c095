"""Cayley graphs as networkx ``DiGraph``: a whole small group, or a ball in a big one.

Nodes are normalized elements (array-form tuples: the canonical element of
each class under whole-puzzle symmetries, see :mod:`permgroup.normalize`; when
no symmetry lies in the group, each class holds one element of the group and
the nodes are those plain elements), with
a ``depth`` attribute (distance from the identity); an edge ``g -> g m`` carries
the move's name in ``move``.  Moves that coincide after normalization (``R``
and ``L'`` on a cube held still) give one edge, named after the first.

The search is a level-by-level BFS in numpy: a level is an array of
permutations, a move is one fancy-indexing step, and new elements are found by
sorting the rows as byte strings, so no Python loop runs per element until the
graph itself is filled in.

>>> from permgroup.puzzle import Puzzle
>>> g = cayley_graph(Puzzle("s3", 3, {"a": (1, 0, 2), "b": (0, 2, 1)}))
>>> g.number_of_nodes(), g.number_of_edges(), g.edges[(0, 1, 2), (1, 0, 2)]["move"]
(6, 12, 'a')
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from permgroup.explore import choose_anchor, state_count, working_puzzle
from permgroup.metric import Metric, metric_label, metric_moves
from permgroup.normalize import Normalizer
from permgroup.perm import identity
from permgroup.puzzle import Puzzle

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx


@dataclass
class Ball:
    """The BFS result in arrays: ``elements[i]`` (a row per node) at ``depths[i]``;
    edge ``e`` goes from node ``sources[e]`` to ``targets[e]`` by move
    ``move_names[moves[e]]``."""

    elements: np.ndarray
    depths: np.ndarray
    sources: np.ndarray
    targets: np.ndarray
    moves: np.ndarray
    move_names: list[str]


def _keys(rows: np.ndarray) -> np.ndarray:
    rows = np.ascontiguousarray(rows)
    return rows.view(np.dtype((np.void, rows.shape[1] * rows.itemsize))).ravel()


def ball(puzzle: Puzzle, metric: Metric = "qtm", radius: int | None = None,
         limit: int = 100_000) -> Ball:
    """The elements within ``radius`` moves of the identity (all of them when
    ``radius`` is ``None``) and the edges between them, as arrays.

    Raises ``ValueError`` once more than ``limit`` elements are found.

    >>> from permgroup.puzzle import Puzzle
    >>> b = ball(Puzzle("c4", 4, {"t": (1, 2, 3, 0)}), radius=1)
    >>> b.depths.tolist(), len(b.sources)
    ([0, 1, 1], 4)
    """
    puzzle = working_puzzle(puzzle)
    normalizer = Normalizer.from_puzzle(puzzle, choose_anchor(puzzle, metric))
    named = normalizer.normalize_moves(metric_moves(puzzle, metric))
    names = list(named)
    dtype = np.uint8 if puzzle.degree <= 256 else np.uint32
    moves = np.array(list(named.values()), dtype=dtype).reshape(len(names), puzzle.degree)
    start = np.array([normalizer.normalize(identity(puzzle.degree))], dtype=dtype)
    elements = [start]
    depth_list = [np.zeros(1, dtype=np.int64)]
    sorted_keys = _keys(start)
    sorted_ids = np.zeros(1, dtype=np.int64)
    frontier, frontier_ids = start, np.zeros(1, dtype=np.int64)
    count, depth = 1, 0
    sources, targets, labels = [], [], []
    while len(frontier):
        last = radius is not None and depth >= radius
        # compose(p, m)[i] = m[p[i]]: one fancy index per move
        candidates = moves[:, frontier].reshape(-1, puzzle.degree)
        cand_src = np.tile(frontier_ids, len(names))
        cand_move = np.repeat(np.arange(len(names)), len(frontier))
        keys = _keys(candidates)
        pos = np.searchsorted(sorted_keys, keys)
        pos_c = np.minimum(pos, len(sorted_keys) - 1)
        known = sorted_keys[pos_c] == keys
        cand_dst = np.where(known, sorted_ids[pos_c], -1)
        fresh = ~known
        new_rows = np.empty((0, puzzle.degree), dtype=dtype)
        new_ids = np.empty(0, dtype=np.int64)
        if fresh.any() and not last:
            new_keys, first, inverse = np.unique(keys[fresh], return_index=True,
                                                 return_inverse=True)
            if count + len(new_keys) > limit:
                raise ValueError(
                    f"the ball of radius {depth + 1} around the identity in {puzzle.name} "
                    f"({metric_label(metric)}) has more than limit={limit:,} elements "
                    f"({count + len(new_keys):,} found so far); pass a smaller radius "
                    "or a larger limit")
            new_ids = np.arange(count, count + len(new_keys))
            cand_dst[np.flatnonzero(fresh)] = new_ids[inverse.ravel()]
            new_rows = candidates[np.flatnonzero(fresh)[first]]
            count += len(new_keys)
            merged_keys = np.concatenate([sorted_keys, new_keys])
            merged_ids = np.concatenate([sorted_ids, new_ids])
            order = np.argsort(merged_keys, kind="stable")
            sorted_keys, sorted_ids = merged_keys[order], merged_ids[order]
            elements.append(new_rows)
            depth_list.append(np.full(len(new_keys), depth + 1, dtype=np.int64))
        keep = cand_dst >= 0
        sources.append(cand_src[keep])
        targets.append(cand_dst[keep])
        labels.append(cand_move[keep])
        if last:
            break
        frontier, frontier_ids = new_rows, new_ids
        depth += 1
    return Ball(np.concatenate(elements), np.concatenate(depth_list), np.concatenate(sources),
                np.concatenate(targets), np.concatenate(labels), names)


def cayley_graph(puzzle: Puzzle, metric: Metric = "qtm", limit: int = 100_000,
                 radius: int | None = None) -> nx.DiGraph:
    """The Cayley graph of the puzzle's group (up to whole-puzzle symmetry) in
    ``metric``'s moves, or the ball of ``radius`` around the identity.

    Without ``radius`` the group's size (sympy) is checked first: a group with
    more than ``limit`` elements is refused with a ``ValueError`` naming both.

    >>> from permgroup.puzzle import Puzzle
    >>> cycle = Puzzle("c5", 5, {"t": (1, 2, 3, 4, 0)})
    >>> sorted(d for _, d in cayley_graph(cycle).nodes(data="depth"))
    [0, 1, 1, 2, 2]
    >>> cayley_graph(cycle, limit=3)
    Traceback (most recent call last):
    ...
    ValueError: the group of c5 has 5 elements (up to symmetry), more than limit=3; pass radius=r for the ball of radius r around the identity, or a larger limit
    """
    import networkx as nx

    if radius is None:
        size = state_count(puzzle)
        if size > limit:
            raise ValueError(
                f"the group of {puzzle.name} has {size:,} elements (up to symmetry), more "
                f"than limit={limit:,}; pass radius=r for the ball of radius r around the "
                "identity, or a larger limit")
    b = ball(puzzle, metric, radius, limit)
    nodes = [tuple(row) for row in b.elements.tolist()]
    graph = nx.DiGraph(puzzle=puzzle.name, metric=metric_label(metric), radius=radius)
    graph.add_nodes_from((node, {"depth": d}) for node, d in zip(nodes, b.depths.tolist()))
    graph.add_edges_from(
        (nodes[s], nodes[t], {"move": b.move_names[m]})
        for s, t, m in zip(b.sources.tolist(), b.targets.tolist(), b.moves.tolist()))
    return graph
