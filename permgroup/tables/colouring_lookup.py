"""One entry of a cached colouring table, looked up without numpy: a process that
answers one question (``permgroup solve``) ranks its colouring in plain Python,
checks the file's header and reads one byte (:func:`cached_distance`).  The key
and file of a colouring table are defined here, for the builder and this reader.

>>> renamed("abba", "baab", "abba")
['b', 'a', 'a', 'b']
"""
from __future__ import annotations

from collections.abc import Hashable, Sequence
from pathlib import Path

from permgroup.cache import load_byte
from permgroup.errors import InputError
from permgroup.metric import Metric, metric_label
from permgroup.puzzle import Puzzle
from permgroup.spaces.ranking import multinomial, multiset_rank, palette_and_counts
from permgroup.tables.statetable import puzzle_cache_file
from permgroup.tables.store import UNSEEN


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
