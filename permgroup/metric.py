"""Metrics: which derived moves count as one step.

* ``"qtm"`` (quarter turns): each generator ``X`` and its inverse ``X'``;
* ``"htm"`` (half turns / face turns): every non-trivial power of each
  generator, ``X``, ``X2``, ..., ``X'``;
* a sequence of move names (``["R", "R'", "U2"]``): exactly those moves.

>>> from permgroup.perm import from_cycles
>>> from permgroup.puzzle import Puzzle
>>> p = Puzzle("square", 4, {"T": from_cycles([(0, 1, 2, 3)], 4)})
>>> list(metric_moves(p, "htm"))
['T', 'T2', "T'"]
>>> list(metric_moves(p, "qtm"))
['T', "T'"]
"""
from __future__ import annotations

from collections.abc import Sequence

from permgroup.errors import InputError
from permgroup.formats.alg import power_name
from permgroup.perm import Perm, order, power
from permgroup.puzzle import Puzzle

Metric = str | Sequence[str]


def metric_moves(puzzle: Puzzle, metric: Metric = "qtm") -> dict[str, Perm]:
    """The moves that count as one step in ``metric``, by name, in array form.

    >>> from permgroup.puzzle import Puzzle
    >>> hexagon = Puzzle("hexagon", 6, {"S": (1, 2, 3, 4, 5, 0)})
    >>> list(metric_moves(hexagon, "htm"))
    ['S', 'S2', 'S3', "S2'", "S'"]
    >>> metric_moves(hexagon, ["S3"])
    {'S3': (3, 4, 5, 0, 1, 2)}
    """
    if isinstance(metric, str):
        if metric not in ("qtm", "htm"):
            raise InputError(f"unknown metric {metric!r}: use 'qtm', 'htm' or a list of moves")
        moves: dict[str, Perm] = {}
        for name, g in puzzle.generators.items():
            n = order(g)
            powers = htm_powers(name, n) if metric == "htm" else sorted({1, n - 1})
            for k in powers:
                if n > 1:
                    moves[power_name(name, k, n)] = power(g, k)
        return moves
    return {name: puzzle.move_array(name) for name in metric}


#: the most powers of one move counted as moves in htm (a move of order n has
#: n - 1 of them; a move's order may be astronomically large)
MAX_POWERS = 10_000


def htm_powers(name: str, n: int) -> range:
    """The powers ``1..n-1`` of move ``name`` of order ``n``, each one move in
    htm; :class:`InputError` past :data:`MAX_POWERS` of them.

    >>> htm_powers("S", 6)
    range(1, 6)
    >>> htm_powers("T", 10 ** 20)
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: htm counts each power of a move as one move, and move T has order 100000000000000000000: too many powers (at most 10,000); use qtm
    """
    if n - 1 > MAX_POWERS:
        raise InputError(f"htm counts each power of a move as one move, and move {name} has "
                         f"order {n}: too many powers (at most {MAX_POWERS:,}); use qtm")
    return range(1, n)


def metric_label(metric: Metric) -> str:
    """A short text naming the metric, for file names and messages.

    >>> metric_label(["R", "U'"])
    "R,U'"
    """
    return metric if isinstance(metric, str) else ",".join(metric)
