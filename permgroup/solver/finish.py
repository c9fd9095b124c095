"""The last-resort finish: a word for a reachable position whatever the time
limit, in work bounded up front by the puzzle's size, whatever the load.

A time limit trades length, never the answer.  When the greedy descent has not
solved a position by its deadline (a big puzzle on a loaded machine), the
position it reached is finished here with no deadline: the parities of the
orbits of distinct pieces made right with single moves, every orbit's pieces
brought home by 3-cycles (:class:`~permgroup.solver.cycles.OrbitCycles`), and
what is left (pieces to turn in place) by the greedy's tools while they gain;
then, for orbits no commutator of two moves gives a 3-cycle of, the same with
3-cycles made of commutators of commutators (:func:`rescue_cycles`).
No deadline governs it: its work is counted instead, one GF(2) system
for the parities; for each orbit, one breadth-first search over its ordered
triples of pieces (at most :data:`~permgroup.solver.cycles.MAX_PIECES` cubed),
then at most one 3-cycle per wrong piece, each a scan of the triples; the
descent at most :data:`STEPS_PER_WRONG` steps per wrong sticker and
:data:`EXTRA_STEPS` more, each a scan of a tool table kept under
:data:`~permgroup.solver.greedy.MAX_TABLE_ROWS` rows; and the commutators of
commutators, a fixed number of them (:mod:`~permgroup.solver.descent`).  The
model itself is completed first when its build was cut short by the deadline
(its parts are bounded alike).

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

import time

import numpy as np

from permgroup.budget import Budget
from permgroup.solver.cycles import MAX_PIECES, OrbitCycles
from permgroup.solver.descent import descent_cycles
from permgroup.solver.greedy import greedy
from permgroup.moves import Letter, MoveSet

#: the descent's steps in a pass of the finish: this many per wrong sticker ...
STEPS_PER_WRONG = 2
#: ... and this many more (the parity fix, the 3-cycles, growing the table)
EXTRA_STEPS = 32


def finish(ms: MoveSet, model, state: np.ndarray, goal: np.ndarray, *,
           mismatches: int = 0) -> list[Letter]:
    """A word taking ``state`` to within ``mismatches`` positions of ``goal``
    with no deadline (see the module docstring), with the tools and 3-cycles
    of ``model`` (:class:`permgroup.solver.Model`, built with no deadline), and
    then, for orbits those have no 3-cycle for, the 3-cycles of
    :func:`rescue_cycles`; the word reached when the position is not reachable
    (the caller checks it, as every word is)."""
    word: list[Letter] = []
    passes = [model.cycles]
    rescue = rescue_cycles(ms, model)
    if rescue is not None:
        # first when a wrong position lies in an orbit only the rescue serves (the
        # model's pass would search its tools to the end for nothing)
        wrong = state != goal
        first = any(wrong[rescue.slots(k)].any() for k in rescue.orbits)
        passes = [rescue, model.cycles] if first else [model.cycles, rescue]
    for cycles in passes:
        wrong = int(np.count_nonzero(state != goal))
        found, state = greedy(ms, model.table, state, goal, mismatches=mismatches,
                              hurry=Budget(time.monotonic()), budget=Budget(),
                              max_steps=STEPS_PER_WRONG * wrong + EXTRA_STEPS,
                              pieces=model.pieces, position_orbit=model.position_orbit,
                              shapes=None, cycles=cycles, compete=False)
        word = ms.extend(word, found)
        if np.count_nonzero(state != goal) <= mismatches:
            break
    return word


def rescue_cycles(ms: MoveSet, model) -> OrbitCycles | None:
    """3-cycles for the orbits of pieces that the model's have none for, from
    commutators of commutators (:mod:`~permgroup.solver.descent`: rings sharing
    two cells); made once per model.  They cost many moves (108 on Santa's
    largest wreath), so the greedy does not weigh them against its tools: they
    only finish what nothing else can.  ``None`` when there are none."""
    if model.rescue is None:
        lacking = [k for k, orbit in enumerate(model.pieces.orbits)
                   if 3 <= len(orbit) <= MAX_PIECES and k not in model.cycles.orbits]
        tools = descent_cycles(ms, model.pieces, lacking) if lacking else []
        model.rescue = OrbitCycles.of(ms, model.pieces, model.position_orbit, tools)
    return model.rescue if model.rescue.orbits else None
