"""A first stretch of the word built a piece at a time, each by exact search.

On a puzzle of distinct turning pieces (every sticker its own label: a
Megaminx), the 3-cycles of :mod:`~permgroup.solver.cycles` cost at least
their base commutator per two pieces: on a Megaminx 8 moves for corners, 12
for edges, so its 30 edges alone take 180 moves or more.  While few pieces are
home, a piece is brought home in a few moves by a search that keeps only the
pieces already home: the colouring masked to those pieces and the new one,
solved by the bidirectional search (:func:`~permgroup.solver.exact.exact_word`).
So the pieces of the orbits whose 3-cycles cost more than the cheapest orbit's
are placed this way first, far from one *last* class of moves first (a class's
distance is in the graph of classes that move a piece in common), each time
the cheapest of a few candidates; the stretch ends when no candidate is found
within the search's states, or at its share of the time.  The greedy and its
3-cycles finish from there.

>>> import numpy as np
>>> from permgroup.moves import MoveSet
>>> from permgroup.solver.pieces import Pieces
>>> t = np.array([1, 2, 3, 0, 4, 5]); u = np.array([0, 1, 2, 4, 5, 3])
>>> moves = {"t": t, "-t": np.argsort(t), "u": u, "-u": np.argsort(u)}
>>> ms = MoveSet.from_moves(moves)
>>> start = np.array([3, 0, 1, 2, 4, 5]); goal = np.arange(6)
>>> word = block_word(moves, Pieces.of(ms), [0, 1, 2, 3], start, goal, Budget.of(5))
>>> state = start
>>> for name in word:
...     state = state[moves[name]]
>>> state[:4].tolist()
[0, 1, 2, 3]
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from permgroup.budget import Budget
from permgroup.errors import InputError, Stopped
from permgroup.levels import DenseKeys, levels
from permgroup.solver.pieces import Pieces

#: states one search for a piece may see (on a Megaminx, 200,000 placed 14 or
#: 15 edges in 22 to 26 s a row; 60,000 placed 11 or 12 in 11 to 13 s)
STATES = 200_000
#: candidates tried for the next piece (the farthest not home), the shortest kept
CANDIDATES = 4
#: the most seconds one search may take
SEARCH_SECONDS = 5.0


def costly_pieces(pieces: Pieces, cycles) -> list[int]:
    """The pieces worth placing by search first: those of the :attr:`oriented`
    orbits of ``cycles`` (:class:`~permgroup.solver.cycles.OrbitCycles`) whose
    cheapest 3-cycle costs more than the cheapest orbit's, far from the last
    class first (:func:`piece_order`); none when all cost the same."""
    cost = {k: cycles.ms.cost(cycles.base_word(k)) for k in cycles.oriented}
    if len(set(cost.values())) < 2:
        return []
    least = min(cost.values())
    wanted = {b for k, c in cost.items() if c > least for b in pieces.orbits[k]}
    return [b for b in piece_order(pieces) if b in wanted]


def piece_order(pieces: Pieces) -> list[int]:
    """The moved pieces, far from the last class first (see the module
    docstring); the last class is the one moving the most pieces (the first
    such).

    >>> import numpy as np
    >>> from permgroup.moves import MoveSet
    >>> t = np.array([1, 0, 2, 3]); u = np.array([0, 2, 1, 3]); v = np.array([0, 1, 3, 2])
    >>> piece_order(Pieces.of(MoveSet.from_moves({"t": t, "u": u, "v": v})))
    [3, 2, 1, 0]
    """
    moves = pieces.block_moves
    nblocks = moves.shape[1]
    moved = moves != np.arange(nblocks)[None, :]          # [class, piece]
    share = (moved.astype(np.int64) @ moved.T.astype(np.int64)) > 0
    last = int(np.argmax(moved.sum(1)))
    dist = np.full(len(moves), -1, dtype=np.int64)
    dist[last] = 0

    def neighbours(classes: np.ndarray):
        parent, image = np.nonzero(share[classes])
        return image, parent, np.zeros_like(parent)  # one kind of step: sharing a piece

    start = np.array([last])
    for depth, level in enumerate(levels(start, neighbours, seen=DenseKeys(len(moves), start)), 1):
        dist[level.states] = depth
    keyed = []
    for b in range(nblocks):
        by = dist[moved[:, b]]
        if len(by):
            keyed.append((-int(by.min()), -int(by.sum()), b))
    return [b for *_, b in sorted(keyed)]


def block_word(moves: Mapping[str, np.ndarray], pieces: Pieces, order: Sequence[int],
               start: np.ndarray, goal: np.ndarray, budget: Budget) -> list[str]:
    """Move names bringing the pieces ``order`` lists home one at a time and
    keeping them there (see the module docstring), within ``budget``; the goal
    gives every position its own label."""
    blocks = [np.array(pieces.blocks[b]) for b in order]
    todo = list(range(len(blocks)))
    kept = np.zeros(len(goal), dtype=bool)
    blank = int(goal.max()) + 1
    state = np.asarray(start).copy()
    word: list[str] = []
    while todo and not budget.expired:
        for i in [i for i in todo if (state[blocks[i]] == goal[blocks[i]]).all()]:
            kept[blocks[i]] = True
            todo.remove(i)
        if not todo:
            break
        found = None
        for i in todo[:CANDIDATES]:
            mask = kept.copy()
            mask[blocks[i]] = True
            a = np.where(np.isin(state, goal[mask]), state, blank)
            b = np.where(mask, goal, blank)
            try:
                w = _search(moves, a, b, budget)
            except (InputError, Stopped):
                continue
            if found is None or len(w) < len(found[1]):
                found = (i, w)
        if found is None:
            break
        i, w = found
        for name in w:
            state = state[moves[name]]
        word += w
        kept[blocks[i]] = True
        todo.remove(i)
    return word


def _search(moves: Mapping[str, np.ndarray], a: np.ndarray, b: np.ndarray,
            budget: Budget) -> list[str]:
    """The exact search's word from ``a`` to ``b`` within :data:`STATES`
    states and the budget's time (:data:`SEARCH_SECONDS` at most);
    :class:`~permgroup.errors.Stopped` when they run out."""
    from permgroup.solver.exact import exact_word

    return exact_word(moves, a, b, budget=budget.share(1.0, at_most=SEARCH_SECONDS),
                      max_states=STATES)
