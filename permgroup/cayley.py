"""Cayley graphs as networkx ``DiGraph``: a whole small group, or a ball in a big one;
and state graphs of colourings, for puzzles whose moves have guards.

In :func:`cayley_graph` nodes are normalized elements (array-form tuples: the
canonical element of each class under whole-puzzle symmetries, see
:mod:`permgroup.normalize`; when no symmetry lies in the group, each class
holds one element of the group and the nodes are those plain elements), with a
``depth`` attribute (distance from the identity); an edge ``g -> g m`` carries
the move's name in ``move``.  Moves that coincide after normalization (two
moves that differ by a whole-puzzle symmetry) give one edge, named after a move
that needs no re-orientation when there is one.

In :func:`state_graph` nodes are colourings (tuples of colours) and an edge is
a legal move; with a :class:`permgroup.spaces.partial.PartialPuzzle` (pieces that
move into a hole) a move is legal only where its guard holds.

The search is a level-by-level BFS in numpy: a level is an array of rows (one
permutation or colouring each), a move is one fancy-indexing step, and new rows
are found by sorting them as byte strings, so no Python loop runs per row
until the graph itself is filled in.

>>> from permgroup.puzzle import Puzzle
>>> g = cayley_graph(Puzzle("s3", 3, {"a": (1, 0, 2), "b": (0, 2, 1)}))
>>> g.number_of_nodes(), g.number_of_edges(), g.edges[(0, 1, 2), (1, 0, 2)]["move"]
(6, 12, 'a')
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from permgroup.errors import InputError
from permgroup.levels import levels, row_keys
from permgroup.metric import Metric, metric_label, metric_moves
from permgroup.normalize import Normalizer
from permgroup.perm import identity, inverse
from permgroup.puzzle import Puzzle
from permgroup.spaces.ranking import sorted_positions
from permgroup.tables.registry import choose_anchor, state_count, working_puzzle

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx

    from permgroup.spaces.partial import PartialPuzzle

#: a move on many rows: (indices of the rows where it is legal, the rows after it)
RowStep = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]


@dataclass
class RowGraph:
    """The BFS result in arrays: node ``i`` is ``rows[i]`` at ``depths[i]``;
    edge ``e`` goes from node ``sources[e]`` to ``targets[e]`` by move
    ``move_names[moves[e]]``.

    >>> from permgroup.puzzle import Puzzle
    >>> b = ball(Puzzle("c3", 3, {"t": (1, 2, 0)}))  # a RowGraph
    >>> b.rows.tolist(), b.depths.tolist(), b.move_names
    ([[0, 1, 2], [1, 2, 0], [2, 0, 1]], [0, 1, 1], ['t', "t'"])
    >>> [(s, t, b.move_names[m]) for s, t, m
    ...  in zip(b.sources.tolist(), b.targets.tolist(), b.moves.tolist())][:3]
    [(0, 1, 't'), (0, 2, "t'"), (1, 2, 't')]
    """

    rows: np.ndarray
    depths: np.ndarray
    sources: np.ndarray
    targets: np.ndarray
    moves: np.ndarray
    move_names: list[str]


def search_rows(start: np.ndarray, steps: Sequence[RowStep], move_names: list[str],
                radius: int | None, limit: int, what: str) -> RowGraph:
    """Breadth-first search over rows from the rows of ``start``, level by level
    (the levels generator, :func:`permgroup.levels.levels`), then every edge.

    Raises ``ValueError`` once more than ``limit`` rows are found (``what``
    names them in the message).

    >>> turn = np.array([1, 2, 0])
    >>> b = search_rows(np.array([[0, 1, 2]]), [lambda r: (np.arange(len(r)), turn[r])],
    ...                 ["t"], None, 10, "elements")
    >>> b.rows.tolist(), b.targets.tolist()
    ([[0, 1, 2], [1, 2, 0], [2, 0, 1]], [1, 2, 0])
    """
    width = start.shape[1]

    def children(rows: np.ndarray):
        parts = [step(rows) for step in steps]
        return (np.concatenate([r.reshape(-1, width) for _, r in parts]),
                np.concatenate([which for which, _ in parts]),
                np.concatenate([np.full(len(which), j) for j, (which, _) in enumerate(parts)]))

    # the nodes: the levels generator's levels, each in key order
    found, depth_list, count = [start], [np.zeros(len(start), dtype=np.int64)], len(start)
    for level in ([] if radius == 0 else levels(start, children, row_keys)):
        count += len(level.states)
        if count > limit:
            within = "reachable" if radius is None else f"within {radius} moves"
            raise InputError(
                f"the {what} {within} number more than limit={limit:,} "
                f"({count:,} found by depth {level.depth}); pass a "
                "smaller radius or a larger limit")
        found.append(level.states)
        depth_list.append(np.full(len(level.states), level.depth, dtype=np.int64))
        if level.depth == radius:  # asked no further: the next level is not grown
            break
    rows = np.concatenate(found)
    # the edges: every node's moves, those that stay among the nodes, by source and move
    keys = row_keys(rows)
    order = np.argsort(keys, kind="stable")
    images, sources, labels = children(rows)
    at = sorted_positions(keys[order], row_keys(images))
    keep = np.flatnonzero(at >= 0)
    keep = keep[np.lexsort((labels[keep], sources[keep]))]
    return RowGraph(rows, np.concatenate(depth_list), sources[keep].astype(np.int64),
                    order[at[keep]].astype(np.int64), labels[keep].astype(np.int64), move_names)


def _dtype(values: int) -> type:
    return np.uint8 if values <= 256 else np.uint32


def ball(puzzle: Puzzle, metric: Metric = "qtm", radius: int | None = None,
         limit: int = 100_000) -> RowGraph:
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
    dtype = _dtype(puzzle.degree)
    moves = [np.array(m, dtype=dtype) for m in named.values()]
    # compose(p, m)[i] = m[p[i]]: one fancy index per move
    steps = [lambda rows, m=m: (np.arange(len(rows)), m[rows]) for m in moves]
    start = np.array([normalizer.normalize(identity(puzzle.degree))], dtype=dtype)
    return search_rows(start, steps, list(named), radius, limit,
                       f"elements of {puzzle.name} ({metric_label(metric)})")


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
    permgroup.errors.InputError: the group of c5 has 5 elements (up to symmetry), more than limit=3; pass radius=r for the ball of radius r around the identity, or a larger limit
    """
    if radius is None:
        size = state_count(puzzle)
        if size > limit:
            raise InputError(
                f"the group of {puzzle.name} has {size:,} elements (up to symmetry), more "
                f"than limit={limit:,}; pass radius=r for the ball of radius r around the "
                "identity, or a larger limit")
    b = ball(puzzle, metric, radius, limit)
    nodes = [tuple(row) for row in b.rows.tolist()]
    return _graph(b, nodes, puzzle=puzzle.name, metric=metric_label(metric), radius=radius)


def _graph(b: RowGraph, nodes: list, **attributes) -> nx.DiGraph:
    import networkx as nx

    graph = nx.DiGraph(**attributes)
    graph.add_nodes_from((node, {"depth": d}) for node, d in zip(nodes, b.depths.tolist()))
    labels = [{"move": name} for name in b.move_names]
    graph.add_edges_from(
        (nodes[s], nodes[t], labels[m])
        for s, t, m in zip(b.sources.tolist(), b.targets.tolist(), b.moves.tolist()))
    return graph


def state_graph(puzzle: Puzzle | PartialPuzzle, start: Sequence | None = None,
                radius: int | None = None, limit: int = 100_000,
                metric: Metric = "qtm") -> nx.DiGraph:
    """The graph of colourings reachable from ``start`` (the solved colouring
    by default), or within ``radius`` moves of it.

    For a plain puzzle the moves are ``metric``'s; for a
    :class:`~permgroup.spaces.partial.PartialPuzzle` its generators, each legal only
    where its guard holds.  Raises ``ValueError`` past ``limit`` states.

    >>> from permgroup.puzzle import Puzzle
    >>> swap = Puzzle("swap", 3, {"s": (1, 0, 2), "t": (0, 2, 1)}, solved="aab")
    >>> sorted(state_graph(swap).nodes)
    [('a', 'a', 'b'), ('a', 'b', 'a'), ('b', 'a', 'a')]
    """
    guards = getattr(puzzle, "guards", None)
    base: Puzzle = puzzle.puzzle if guards is not None else puzzle  # type: ignore[union-attr]
    moves = dict(base.generators) if guards is not None else metric_moves(base, metric)
    start = tuple(base.solved if start is None else start)
    if len(start) != base.degree:
        raise InputError(f"a state of {base.name} has {base.degree} positions, not {len(start)}")
    colours = list(dict.fromkeys(start))
    for guard in (guards or {}).values():
        colours += [c for c in guard.values() if c not in colours]
    code = {c: i for i, c in enumerate(colours)}
    dtype = _dtype(len(colours))
    steps = []
    for name, m in moves.items():
        pull = np.array(inverse(m))  # act(s, m)[m[i]] = s[i]: the new row reads s[m⁻¹]
        guard = (guards or {}).get(name, {})
        where = np.array(list(guard), dtype=np.int64)
        need = np.array([code[c] for c in guard.values()], dtype=dtype)

        def step(rows, pull=pull, where=where, need=need):
            legal = np.flatnonzero((rows[:, where] == need).all(axis=1)) if len(where) \
                else np.arange(len(rows))
            return legal, rows[legal][:, pull]

        steps.append(step)
    b = search_rows(np.array([[code[c] for c in start]], dtype=dtype), steps, list(moves),
                    radius, limit, f"states of {base.name}")
    nodes = [tuple(colours[i] for i in row) for row in b.rows.tolist()]
    return _graph(b, nodes, puzzle=base.name, radius=radius)
