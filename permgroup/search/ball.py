"""A ball: every state of a :class:`~permgroup.spaces.digits.DigitSpace`
within ``radius`` moves of the goal, as sorted packed keys
(:meth:`~permgroup.spaces.digits.DigitSpace.keys`) with each state's depth
beside them.  Inside the ball the depth is the exact distance to the goal, so
the ball answers short questions outright and ends every deeper search
(:mod:`permgroup.search.exact`).
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from permgroup.cache import cache_dir, cached_arrays, table_file
from permgroup.levels import by_moves, levels
from permgroup.progress import Progress
from permgroup.spaces.digits import DigitSpace
from permgroup.tables.store import UNSEEN, descend

#: look-ups of more keys than this sort them first
SORT_QUERIES_FROM = 2048


class KeySet:
    """A set of packed keys (``(W, N)`` ``uint64``), sorted for look-ups.

    The first word is kept as ``uint64``; the others in the smallest unsigned
    type their bits allow.  ``max_run`` is the longest run of equal first words,
    so a look-up compares at most that many rows.

    >>> keys = np.array([[3, 1, 3], [7, 0, 2]], dtype=np.uint64)  # three 2-word keys
    >>> s, order = KeySet.of(keys)
    >>> len(s), order.tolist(), s.max_run
    (3, [1, 2, 0], 2)
    >>> s.find(np.array([[3, 3, 1], [7, 9, 0]], dtype=np.uint64)).tolist()
    [2, -1, 0]
    """

    def __init__(self, primary: np.ndarray, rest: Sequence[np.ndarray], max_run: int | None = None):
        self.primary = primary
        self.rest = list(rest)
        self.max_run = _longest_run(primary) if max_run is None else max_run

    @classmethod
    def of(cls, keys: np.ndarray, word_bits: Sequence[int] | None = None,
           order: np.ndarray | None = None) -> tuple[KeySet, np.ndarray]:
        """The set of ``keys`` (distinct) and the order that sorts them
        (computed unless given)."""
        if order is None:
            order = lex_order(keys)
        rest = []
        for w in range(1, len(keys)):
            dtype = np.min_scalar_type((1 << (word_bits[w] if word_bits else 64)) - 1)
            rest.append(keys[w][order].astype(dtype))
        return cls(keys[0][order], rest), order

    def __len__(self) -> int:
        return len(self.primary)

    def find(self, keys: np.ndarray, ordered: bool = False) -> np.ndarray:
        """Index of each key in the sorted set, ``-1`` where absent
        (``ordered``: the keys are already sorted by their first word)."""
        n = len(self.primary)
        found = np.full(keys.shape[1], -1, dtype=np.int64)
        if n == 0:
            return found
        if keys.shape[1] > SORT_QUERIES_FROM and not ordered:
            # in sorted order consecutive searches share their path through the
            # array, which stays in the processor cache: ten times faster
            order = np.argsort(keys[0])
            start = np.empty(len(order), dtype=np.int64)
            start[order] = np.searchsorted(self.primary, keys[0][order])
        else:
            start = np.searchsorted(self.primary, keys[0])
        for j in range(self.max_run):
            index = np.minimum(start + j, n - 1)
            hit = self.primary[index] == keys[0]
            for w, words in enumerate(self.rest, 1):
                hit &= words[index] == keys[w].astype(words.dtype)
            hit &= found < 0
            found[hit] = index[hit]
        return found


def _longest_run(sorted_words: np.ndarray) -> int:
    if len(sorted_words) == 0:
        return 0
    starts = np.flatnonzero(np.diff(sorted_words) != 0)
    bounds = np.concatenate(([-1], starts, [len(sorted_words) - 1]))
    return int(np.diff(bounds).max())


def lex_order(keys: np.ndarray) -> np.ndarray:
    """The order sorting the columns of ``keys`` by first word, then the others.

    One sort of the first word does nearly all the work: equal first words
    with different other words are rare (a few runs), and only those runs are
    sorted again on every word.

    >>> lex_order(np.array([[2, 1, 2, 1], [5, 9, 3, 9]], dtype=np.uint64)).tolist()
    [1, 3, 2, 0]
    """
    order = np.argsort(keys[0])
    if len(keys) == 1 or keys.shape[1] < 2:
        return order
    first = keys[0][order]
    tie = first[1:] == first[:-1]
    mixed = tie & ~_equal_to_previous(keys, order)
    if mixed.any():
        run = np.concatenate(([0], np.cumsum(~tie)))
        members = np.flatnonzero(np.isin(run, run[1:][mixed]))
        inner = order[members]
        order[members] = inner[np.lexsort(keys[::-1][:, inner])]
    return order


def _equal_to_previous(keys: np.ndarray, order: np.ndarray, first_word: int = 1) -> np.ndarray:
    """Whether each sorted column equals the previous one in the words from ``first_word`` on."""
    equal = np.ones(max(len(order) - 1, 0), dtype=bool)
    for words in keys[first_word:]:
        ordered = words[order]
        equal &= ordered[1:] == ordered[:-1]
    return equal


def unique_columns(keys: np.ndarray) -> np.ndarray:
    """Index of the first of each distinct key (columns of ``keys``), in sorted key order.

    >>> unique_columns(np.array([[3, 1, 3, 2]], dtype=np.uint64)).tolist()
    [1, 3, 0]
    """
    order = lex_order(keys)
    fresh = np.ones(len(order), dtype=bool)
    fresh[1:] = ~_equal_to_previous(keys, order, 0)
    starts = np.flatnonzero(fresh)
    # the first index of each key, whatever order the unstable sort left equal keys in
    return np.minimum.reduceat(order, starts) if len(starts) else order


class Ball:
    """States within ``radius`` moves of the goal, with their exact depths.

    Built by :func:`build_ball`; on a six-cell ring (moves ``t``, ``t'``),
    the state two turns away walks back by ``t' t'``, and a state outside the
    ball has no depth:

    >>> from permgroup.spaces.digits import ring_space
    >>> space, turn = ring_space(6)
    >>> goal = space.of_elements([tuple(range(6))])
    >>> ball = build_ball(space, goal, radius=2)
    >>> two = space.step(space.step(goal, 0), 0)
    >>> three = space.step(two, 0)
    >>> states = np.concatenate([goal, two, three], axis=1)
    >>> len(ball), ball.depth(space, states).tolist(), ball.walk(space, states)
    (5, [0, 2, 255], [[], [1, 1], None])
    """

    def __init__(self, radius: int, keys: KeySet, depths: np.ndarray):
        self.radius = radius
        self.keys = keys
        self.depths = depths

    def __len__(self) -> int:
        return len(self.depths)

    def distribution(self) -> list[int]:
        """Number of states at each depth, 0 to ``radius``."""
        return np.bincount(self.depths, minlength=self.radius + 1)[: self.radius + 1].tolist()

    def depth_of_keys(self, keys: np.ndarray) -> np.ndarray:
        """Depth of each packed key, ``UNSEEN`` (255) outside the ball."""
        index = self.keys.find(keys)
        out = np.full(len(index), UNSEEN, dtype=np.uint8)
        inside = index >= 0
        out[inside] = self.depths[index[inside]]
        return out

    def depth(self, space: DigitSpace, states: np.ndarray) -> np.ndarray:
        """Depth of each state (columns of digits), ``UNSEEN`` outside the ball."""
        return self.depth_of_keys(space.keys(states))

    def walk(self, space: DigitSpace, states: np.ndarray) -> list[list[int] | None]:
        """For each state, an optimal list of moves (indices) to the goal, or
        ``None`` outside the ball."""
        inside = np.flatnonzero(self.depth(space, states) != UNSEEN)
        words: list[list[int] | None] = [None] * states.shape[1]
        paths = descend(states[:, inside], space.n_moves, space.step,
                        lambda s: self.depth(space, s))
        for i, path in zip(inside.tolist(), paths):
            words[i] = path
        return words


def build_ball(space: DigitSpace, goals: np.ndarray, radius: int,
               progress: Progress | None = None) -> Ball:
    """Breadth-first search from ``goals`` (columns of digits) to ``radius``;
    ``progress(depth, count)`` hears each level's size.

    >>> from permgroup.spaces.digits import ring_space
    >>> space, turn = ring_space(6)
    >>> levels = []
    >>> ball = build_ball(space, space.of_elements([tuple(range(6))]), radius=3,
    ...                   progress=lambda depth, count: levels.append((depth, count)))
    >>> ball.distribution(), levels
    ([1, 2, 2, 1], [(0, 1), (1, 2), (2, 2), (3, 1)])
    """
    goal_keys = space.keys(goals)
    first = unique_columns(goal_keys)
    levels = [goal_keys[:, first]]
    later = key_levels(space, goals[:, first], levels[0])
    while True:
        if progress:
            progress(len(levels) - 1, levels[-1].shape[1])
        if len(levels) > radius or not levels[-1].shape[1]:
            break
        grown = next(later, None)
        levels.append(grown[1] if grown is not None else levels[-1][:, :0])
    all_keys = np.concatenate(levels, axis=1)
    depths = np.concatenate([np.full(k.shape[1], d, dtype=np.uint8) for d, k in enumerate(levels)])
    keys, order = KeySet.of(all_keys, space.word_bits)
    return Ball(radius, keys, depths[order])


class RecentKeys:
    """The last two levels' keys, for moves that come with their inverses: a
    child seen before is on its parent's level or the one before.  Keys are
    ``(W, N)`` packed words (:class:`permgroup.search.ball.KeySet` keeps them),
    ``word_bits`` the bits each word uses."""

    def __init__(self, keys: np.ndarray, word_bits=None):
        self._of = lambda k, order=None: KeySet.of(k, word_bits, order)[0]
        self.previous = self._of(keys[:, :0])
        self.current = self._of(keys)

    def novel(self, keys: np.ndarray) -> np.ndarray:
        first = unique_columns(keys)  # in sorted order, so the look-ups below are fast
        ordered = keys[:, first]
        new = ((self.current.find(ordered, ordered=True) < 0)
               & (self.previous.find(ordered, ordered=True) < 0))
        return first[new]

    def add(self, keys: np.ndarray) -> None:
        self.previous = self.current
        self.current = self._of(keys, np.arange(keys.shape[1]))


def key_levels(space: DigitSpace, states: np.ndarray, keys: np.ndarray):
    """The breadth-first levels after ``states`` (distinct columns of digits,
    with their ``keys``), each as ``(states, keys, parent, move)`` in sorted key
    order: ``move[i]`` takes column ``parent[i]`` of the level before to state
    ``i``.  Moves come with their inverses, so a child already seen is on
    this level or the one before (:class:`RecentKeys`).  The one levels
    generator (:func:`permgroup.levels.levels`) over the space's columns; it
    ends after the last level.

    >>> from permgroup.spaces.digits import ring_space
    >>> space, turn = ring_space(6)
    >>> goal = space.of_elements([tuple(range(6))])
    >>> levels = key_levels(space, goal, space.keys(goal))
    >>> [next(levels)[0].shape[1] for _ in range(3)]
    [2, 2, 1]
    """
    seen = RecentKeys(keys, space.word_bits)
    for level in levels(states, by_moves(space.step, space.n_moves, axis=1), space.keys, seen,
                        axis=1):
        yield level.states, level.keys, level.parent, level.move


def load_ball(space: DigitSpace, goals: np.ndarray, radius: int, key: dict, name: str,
              progress: Progress | None = None, cache: bool = True, build: bool = True
              ) -> Ball | None:
    """The ball from the cache when its files check out, else built and cached
    (``None`` instead with ``build=False``).

    ``key`` must identify the space and goal (a puzzle fingerprint, the metric,
    the digit layout); the radius is added here.

    The second call below reads the cache, so no level is searched:

    >>> import os, tempfile
    >>> from permgroup.spaces.digits import ring_space
    >>> os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> space, turn = ring_space(6)
    >>> goal = space.of_elements([tuple(range(6))])
    >>> levels = []
    >>> def note(depth, count):
    ...     levels.append(count)
    >>> load_ball(space, goal, 2, {"puzzle": "ring"}, "ring", note).distribution(), levels
    ([1, 2, 2], [1, 2, 2])
    >>> sorted(f.suffix for f in cache_dir().iterdir())
    ['.depths', '.primary', '.run']
    >>> load_ball(space, goal, 2, {"puzzle": "ring"}, "ring", note).distribution(), levels
    ([1, 2, 2], [1, 2, 2])
    """
    key = dict(key, radius=radius, kind="ball", words=space.word_bits)
    parts = ["primary", "depths", "run"] + [f"word{w}" for w in range(1, space.n_words)]

    def make(report) -> list[np.ndarray]:
        ball = build_ball(space, goals, radius, report)
        return [ball.keys.primary, ball.depths, np.array([ball.keys.max_run])] + ball.keys.rest

    arrays = cached_arrays(
        table_file(f"{name}-ball{radius}", key, ""), key, parts, make if build else None,
        title=f"{name}: positions within {radius} moves", progress=progress, cache=cache)
    if arrays is None:
        return None
    primary, depths, run, *rest = arrays
    return Ball(radius, KeySet(primary, rest, int(run[0])), depths)
