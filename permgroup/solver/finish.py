"""The last-resort finish: a word for a reachable position whatever the time
limit, in time bounded by the puzzle's size.

A time limit trades length, never the answer.  When the greedy descent has not
solved a position by its deadline (a big puzzle on a loaded machine), the
position it reached is finished here with no deadline: the parities of the
orbits of distinct pieces made right with single moves, every orbit's pieces
brought home by 3-cycles (:class:`~permgroup.solver.cycles.OrbitCycles`), and
what is left (pieces to turn in place) by the greedy's tools while they gain.
Each of these steps either fixes stickers or stops, so the finish ends after
at most a few steps per wrong sticker, each of them a scan of the model's
tables; the model itself is completed first when its build was cut short by
the deadline.

>>> import numpy as np
>>> from permgroup.solver import model
>>> from permgroup.moves import MoveSet
>>> t = np.array([1, 2, 3, 4, 0]); u = np.array([1, 0, 2, 3, 4])
>>> ms = MoveSet.from_moves({"t": t, "-t": np.argsort(t), "u": u})
>>> start, goal = np.array([3, 0, 4, 1, 2]), np.arange(5)
>>> word = finish(ms, model(ms), start, goal)
>>> ms.apply(start, word).tolist()
[0, 1, 2, 3, 4]
"""
from __future__ import annotations

import math
import time

import numpy as np

from permgroup.solver.greedy import greedy
from permgroup.moves import Letter, MoveSet


def finish(ms: MoveSet, model, state: np.ndarray, goal: np.ndarray, *,
           mismatches: int = 0) -> list[Letter]:
    """A word taking ``state`` to within ``mismatches`` positions of ``goal``
    with no deadline (see the module docstring), with the tools and 3-cycles
    of ``model`` (:class:`permgroup.solver.Model`, built with no deadline); the
    word reached when the position is not reachable (the caller checks it, as
    every word is)."""
    word, _ = greedy(ms, model.table, state, goal, mismatches=mismatches,
                     deadline=time.monotonic(), finish_by=math.inf, pieces=model.pieces,
                     position_orbit=model.position_orbit, shapes=None, cycles=model.cycles,
                     compete=False)
    return word
