"""What a state space is: the :class:`StateSpace` protocol, the capabilities a
space declares in ``capabilities`` (the drivers read that set, never guess from
attributes), and the :class:`Factor` digit most spaces are products of.

* :data:`DENSE_STEP`: ``dense_step(mask, m)`` moves a boolean set of every rank;
* :data:`ROW_PULL`: ranks are rows of ``inner_size`` cells and
  ``row_pull(values, first, last, m)`` reads ``values`` at the predecessors of
  whole rows;
* :data:`STATES_OF`: ``states_of(lo, hi, offsets)`` lists the states of a rank
  range faster than unranking, ``step_states``/``back_step_states`` move them
  to ranks, ``rank`` ranks them back.

numpy is imported by the code that moves many ranks, never by this module.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

#: the capabilities a space may declare (see the module docstring)
DENSE_STEP, ROW_PULL, STATES_OF = "dense_step", "row_pull", "states_of"


class StateSpace(Protocol):  # pragma: no cover - a description, not code
    """What the breadth-first search, the tables and the walks need of a space."""

    size: int
    n_moves: int
    capabilities: frozenset[str]

    def step(self, ranks: np.ndarray, m: int) -> np.ndarray:
        """Ranks after move ``m`` (``-1`` where it is not legal).  A move is
        one-to-one where it is legal (``back_step`` undoes it): the 2-bit
        store writes one move's images of distinct ranks without sorting them,
        so two ranks with one image would spoil a neighbour's code."""

    def back_step(self, ranks: np.ndarray, m: int) -> np.ndarray:
        """Ranks from which move ``m`` leads to ``ranks`` (``-1`` where none does)."""


@dataclass(frozen=True)
class GraphSpace:
    """A space given by its functions (examples, tests, one-off projections).

    >>> import numpy as np
    >>> ring = GraphSpace(4, 1, lambda ranks, m: (ranks + 1) % 4)
    >>> ring.step(np.array([3]), 0).tolist(), ring.capabilities
    ([0], frozenset())
    """

    size: int
    n_moves: int
    step: Callable
    back_step: Callable | None = None
    capabilities: frozenset = frozenset()


@dataclass(frozen=True)
class Factor:
    """One digit of a mixed-radix coordinate and its move table.

    ``table[m, v]`` is the digit after move ``m`` from digit value ``v``.

    >>> import numpy as np
    >>> ring = Factor("ring", 3, np.array([[1, 2, 0]]))  # one move: v -> v + 1 mod 3
    >>> ring.size, int(ring.table[0, ring.table[0, 2]])
    (3, 1)
    """

    name: str
    size: int
    table: np.ndarray


def rank_dtype(size: int) -> type:
    """The integer type of ranks below ``size``: 32 bits where they fit (half
    the bytes make stepping and gathering faster).

    >>> rank_dtype(2**31).__name__, rank_dtype(2**31 + 1).__name__
    ('int32', 'int64')
    """
    import numpy as np

    return np.int32 if size <= 2**31 else np.int64


class Reversed:
    """``space`` with every move run backwards: a breadth-first search of it
    finds each state's distance *to* the sources.

    >>> import numpy as np
    >>> line = GraphSpace(3, 1, lambda r, m: np.minimum(r + 1, 2), lambda r, m: np.maximum(r - 1, 0))
    >>> Reversed(line).step(np.array([2]), 0).tolist()
    [1]
    """

    def __init__(self, space):
        self.space = space

    def __getattr__(self, name: str):
        return getattr(self.space, name)

    @property
    def capabilities(self) -> frozenset[str]:
        # only the states' steps are turned around here: dense and row steps would run forwards
        return self.space.capabilities & {STATES_OF}

    def step(self, ranks, m: int):
        return self.space.back_step(ranks, m)

    def back_step(self, ranks, m: int):
        return self.space.step(ranks, m)

    def step_states(self, states, m: int):
        return self.space.back_step_states(states, m)

    def back_step_states(self, states, m: int):
        return self.space.step_states(states, m)
