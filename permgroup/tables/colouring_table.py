"""Distance tables over colourings with repeated colours: for every colouring (by
its rank, :mod:`permgroup.spaces.colouring`) the least number of moves taking it
to the puzzle's solved colouring, by the engine's breadth-first search with the
moves run backwards.  A distance is a lookup when the target is solved up to
renaming colours (:func:`renamed`); other targets are searched
(:func:`permgroup.search.meet.search_distance`).  numpy is imported by the
functions that build or walk a table: :func:`cached_distance` reads one byte
without it.
"""
from __future__ import annotations

from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from permgroup.cache import load_byte
from permgroup.errors import InputError, UnreachableError
from permgroup.metric import Metric, metric_label, metric_moves
from permgroup.progress import Progress
from permgroup.puzzle import Puzzle
from permgroup.spaces.ranking import multinomial, multiset_rank, palette_and_counts
from permgroup.spaces.space import Reversed
from permgroup.tables.store import UNSEEN, DepthTable, descend, puzzle_cache_file

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from permgroup.spaces.colouring import ColouringSpace


def renamed(a: Sequence[Hashable], b: Sequence[Hashable], source: Sequence[Hashable]
            ) -> list | None:
    """``a`` with its colours renamed the way that turns ``b`` into ``source``;
    ``None`` if no renaming does.

    >>> renamed("xyyx", "yyxx", "aabb")
    ['b', 'a', 'a', 'b']
    >>> renamed("xyyx", "xyxy", "aabb") is None
    True
    """
    forward: dict = {}
    backward: dict = {}
    if len(b) != len(source):
        return None
    for x, y in zip(b, source):
        if forward.setdefault(x, y) != y or backward.setdefault(y, x) != x:
            return None
    try:
        return [forward[c] for c in a]
    except KeyError as exc:
        raise InputError(f"colour {exc.args[0]!r} is not used by the target") from None


def cache_key(puzzle: Puzzle, metric: Metric) -> dict:
    """What identifies a colouring table (its file, its header).

    >>> p = Puzzle("necklace", 6, {"turn": (1, 2, 3, 4, 5, 0)}, solved="aaabbb")
    >>> key = cache_key(p, "qtm")
    >>> key["puzzle"] == p.fingerprint(), key["metric"], key["kind"]
    (True, 'qtm', 'colourings')
    """
    return {"puzzle": puzzle.fingerprint(), "metric": metric_label(metric), "kind": "colourings"}


def cache_file(puzzle: Puzzle, metric: Metric = "qtm") -> tuple[Path, dict]:
    """Where the colouring table of ``puzzle`` in ``metric`` is cached, and the
    key its header holds (found without numpy: the size is a multinomial).

    >>> import os, tempfile
    >>> os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> p = Puzzle("necklace", 6, {"turn": (1, 2, 3, 4, 5, 0)}, solved="aaabbb")
    >>> path, key = cache_file(p, "htm")
    >>> path.name, key["size"], path.parent == Path(os.environ["PERMGROUP_CACHE"])
    ('necklace-htm-51cf5b55a093e321.colourings', 20, True)
    """
    return puzzle_cache_file(puzzle.name, cache_key(puzzle, metric), "byte",
                             multinomial(palette_and_counts(puzzle.solved)[1]))


def cached_distance(puzzle: Puzzle, metric: Metric, a: Sequence[Hashable],
                    b: Sequence[Hashable]) -> int | None:
    """Moves from colouring ``a`` to ``b`` read from one byte of the cached
    table, when there is one and ``b`` is the solved colouring up to renaming
    colours; ``None`` otherwise (the caller then searches), also when the file
    was built for another definition or is cut short
    (:func:`permgroup.cache.load_byte`).  ``-1`` if unreachable.

    >>> import os, tempfile, warnings
    >>> from permgroup.tables.registry import load_or_build
    >>> os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> p = Puzzle("necklace", 6, {"turn": (1, 2, 3, 4, 5, 0)}, solved="aaabbb")
    >>> cached_distance(p, "qtm", "baaabb", "aaabbb") is None  # nothing cached yet
    True
    >>> _ = load_or_build(p)
    >>> [cached_distance(p, "qtm", a, b) for a, b in [("baaabb", "aaabbb"), ("yxxxyy", "xxxyyy")]]
    [1, 1]
    >>> cached_distance(p, "qtm", "aababb", "aaabbb")  # a turn keeps the a's together
    -1
    >>> cached_distance(p, "qtm", "ababab", "bababa") is None  # target not the source
    True
    """
    colours = renamed(a, b, puzzle.solved)
    if colours is None:
        return None
    index, counts = palette_and_counts(puzzle.solved)
    depth = load_byte(*cache_file(puzzle, metric), multiset_rank([index[c] for c in colours],
                                                                 counts))
    if depth is None:
        return None
    return -1 if depth == UNSEEN else depth


def colouring_space(puzzle: Puzzle, metric: Metric = "qtm") -> ColouringSpace:
    """The colourings of the puzzle's solved state, moved by the metric's moves.

    >>> p = Puzzle("necklace", 6, {"turn": (1, 2, 3, 4, 5, 0)}, solved="aaabbb")
    >>> s = colouring_space(p)
    >>> s.size, s.move_names, s.decode(s.solved)
    (20, ['turn', "turn'"], ('a', 'a', 'a', 'b', 'b', 'b'))
    """
    from permgroup.spaces.colouring import ColouringSpace

    first: dict = {}
    for name, p in metric_moves(puzzle, metric).items():  # equal moves count once
        first.setdefault(tuple(p), name)
    return ColouringSpace(puzzle.solved, {name: p for p, name in first.items()})


def colouring_depths(space: ColouringSpace, sources: Sequence[int], *,
                     progress: Progress | None = None, max_depth: int = UNSEEN - 1
                     ) -> np.ndarray:
    """Moves from every colouring (by rank) to the nearest source word;
    ``UNSEEN`` where none is reached within ``max_depth``.

    >>> import numpy as np
    >>> p = Puzzle("necklace", 6, {"turn": (1, 2, 3, 4, 5, 0)}, solved="aaabbb")
    >>> s = colouring_space(p)
    >>> depths = colouring_depths(s, [s.solved])
    >>> reached = np.flatnonzero(depths < UNSEEN)  # 6 of the 20 colourings
    >>> {"".join(s.decode(w)): int(depths[r]) for r, w in zip(reached, s.unrank(reached))}
    {'aaabbb': 0, 'aabbba': 1, 'abbbaa': 2, 'baaabb': 1, 'bbaaab': 2, 'bbbaaa': 3}
    >>> int((colouring_depths(s, [s.solved], max_depth=1) < UNSEEN).sum())
    3
    """
    import numpy as np

    from permgroup.tables.bfs import bfs

    start = space.rank(np.asarray(sources, dtype=space.dtype))
    return bfs(Reversed(space), start, progress=progress, max_depth=max_depth).depths


class ColouringTable(DepthTable):
    """The depth of every rank of a colouring space to its solved word.

    >>> p = Puzzle("necklace", 6, {"turn": (1, 2, 3, 4, 5, 0)}, solved="aaabbb")
    >>> t = build_colouring_table(p)
    >>> t.depth("baaabb"), t.depth("aababb"), t.path("bbaaab")
    (1, -1, ["turn'", "turn'"])
    >>> t.depth(t.as_source("yxxxyy", "xxxyyy"))  # colours renamed onto the source
    1
    >>> t.path("ababab")
    Traceback (most recent call last):
    ...
    permgroup.errors.UnreachableError: no sequence of moves reaches the solved state
    """

    def rank(self, colouring: Sequence[Hashable]) -> int:
        """The rank of one colouring."""
        import numpy as np

        return int(self.space.rank(np.array([self.space.encode(colouring)]))[0])

    def depth(self, colouring: Sequence[Hashable]) -> int:
        """Moves from ``colouring`` to the source; ``-1`` if unreachable."""
        return super().depth(self.rank(colouring))

    def path(self, colouring: Sequence[Hashable]) -> list[str]:
        """An optimal list of move names from ``colouring`` to the source."""
        import numpy as np

        rank = self.rank(colouring)
        if self.depths[rank] == UNSEEN:
            raise UnreachableError("no sequence of moves reaches the solved state")
        # the table holds distances *to* the source, so moves forward go down
        moves = descend(np.array([rank]), self.space.n_moves, self.space.step,
                        lambda ranks: self.depths[ranks])[0]
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
    import numpy as np

    space = colouring_space(puzzle, metric)
    return ColouringTable(space, space.rank(np.array([space.solved], dtype=space.dtype)),
                          colouring_depths(space, [space.solved], progress=progress))
