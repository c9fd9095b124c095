"""Distance tables over colourings with repeated colours: for every colouring (by
its rank, :mod:`permgroup.spaces.colouring`) the least number of moves taking it
to the puzzle's solved colouring, by the engine's breadth-first search with the
moves run backwards.  A distance is a lookup when the target is solved up to
renaming colours (:meth:`ColouringTable.as_source`); other targets are searched
(:func:`permgroup.search.meet.search_distance`).
"""
from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from permgroup.progress import Progress
from permgroup.spaces.space import Reversed
from permgroup.tables.bfs import bfs
from permgroup.tables.store import UNSEEN, DepthTable
from permgroup.tables.walk import descend
from permgroup.tables.colouring_lookup import renamed
from permgroup.errors import UnreachableError
from permgroup.metric import Metric, metric_moves
from permgroup.spaces.colouring import ColouringSpace
from permgroup.puzzle import Puzzle


def colouring_space(puzzle: Puzzle, metric: Metric = "qtm") -> ColouringSpace:
    """The colourings of the puzzle's solved state, moved by the metric's moves.

    >>> p = Puzzle("necklace", 6, {"turn": (1, 2, 3, 4, 5, 0)}, solved="aaabbb")
    >>> s = colouring_space(p)
    >>> s.size, s.move_names, s.decode(s.solved)
    (20, ['turn', "turn'"], ('a', 'a', 'a', 'b', 'b', 'b'))
    """
    first: dict = {}
    for name, p in metric_moves(puzzle, metric).items():  # equal moves count once
        first.setdefault(tuple(p), name)
    return ColouringSpace(puzzle.solved, {name: p for p, name in first.items()})


def colouring_depths(space: ColouringSpace, sources: Sequence[int], *,
                     progress: Progress | None = None, max_depth: int = UNSEEN - 1
                     ) -> np.ndarray:
    """Moves from every colouring (by rank) to the nearest source word;
    ``UNSEEN`` where none is reached within ``max_depth``.

    >>> p = Puzzle("necklace", 6, {"turn": (1, 2, 3, 4, 5, 0)}, solved="aaabbb")
    >>> s = colouring_space(p)
    >>> depths = colouring_depths(s, [s.solved])
    >>> reached = np.flatnonzero(depths < UNSEEN)  # 6 of the 20 colourings
    >>> {"".join(s.decode(w)): int(depths[r]) for r, w in zip(reached, s.unrank(reached))}
    {'aaabbb': 0, 'aabbba': 1, 'abbbaa': 2, 'baaabb': 1, 'bbaaab': 2, 'bbbaaa': 3}
    >>> int((colouring_depths(s, [s.solved], max_depth=1) < UNSEEN).sum())
    3
    """
    start = space.rank(np.asarray(sources, dtype=space.dtype))
    return bfs(Reversed(space), start, progress=progress, max_depth=max_depth).depths


class ColouringTable(DepthTable):
    """The depth of every rank of a colouring space to its solved word.

    >>> p = Puzzle("necklace", 6, {"turn": (1, 2, 3, 4, 5, 0)}, solved="aaabbb")
    >>> t = build_colouring_table(p)
    >>> t.depth("baaabb"), t.depth("aababb"), t.path("bbaaab")
    (1, -1, ["turn'", "turn'"])
    >>> t.word_depths(np.array([t.space.encode("aaabbb"), t.space.encode("bbbaaa")])).tolist()
    [0, 3]
    >>> t.depth(t.as_source("yxxxyy", "xxxyyy"))  # colours renamed onto the source
    1
    >>> t.path("ababab")
    Traceback (most recent call last):
    ...
    permgroup.errors.UnreachableError: no sequence of moves reaches the solved state
    """

    def word_depths(self, words: np.ndarray) -> np.ndarray:
        """Depths of many packed words (``UNSEEN`` where unreachable)."""
        return self.depths[self.space.rank(words)]

    def depth(self, colouring: Sequence[Hashable]) -> int:
        """Moves from ``colouring`` to the source; ``-1`` if unreachable."""
        return super().depth(int(self.space.rank(np.array([self.space.encode(colouring)]))[0]))

    def path(self, colouring: Sequence[Hashable]) -> list[str]:
        """An optimal list of move names from ``colouring`` to the source."""
        here = np.array([self.space.encode(colouring)], dtype=self.space.dtype)
        if self.word_depths(here)[0] == UNSEEN:
            raise UnreachableError("no sequence of moves reaches the solved state")
        # the table holds distances *to* the source, so moves forward go down
        moves = descend(here, self.space.n_moves, self.space.apply, self.word_depths)[0]
        return [self.space.move_names[m] for m in moves]

    def as_source(self, a: Sequence[Hashable], b: Sequence[Hashable]) -> list | None:
        """``a`` with colours renamed so that ``b`` becomes the source, if it can."""
        return renamed(a, b, self.space.decode(self.space.solved))


def build_colouring_table(puzzle: Puzzle, metric: Metric = "qtm", *,
                          progress: Progress | None = None) -> ColouringTable:
    """Build the table by BFS from the solved colouring (no cache).

    >>> p = Puzzle("necklace", 6, {"turn": (1, 2, 3, 4, 5, 0)}, solved="aaabbb")
    >>> levels = []
    >>> t = build_colouring_table(p, progress=lambda depth, count: levels.append(count))
    >>> len(t.depths), levels, t.distribution()
    (20, [1, 2, 2, 1], [1, 2, 2, 1])
    """
    space = colouring_space(puzzle, metric)
    return ColouringTable(space, space.rank(np.array([space.solved], dtype=space.dtype)),
                          colouring_depths(space, [space.solved], progress=progress))
