"""God's algorithm for a puzzle defined piece by piece: the depth of every position
(one byte each) over the ranks of :class:`permgroup.spaces.orbit.OrbitSpace`,
from the solved position; :func:`permgroup.tables.registry.load_or_build` caches it.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from permgroup.tables.bfs import bfs
from permgroup.errors import InputError
from permgroup.formats.definition import Definition, Position
from permgroup.spaces.orbit import OrbitSpace
from permgroup.progress import Progress
from permgroup.tables.store import UNSEEN, DepthTable, descend


class OrbitTable(DepthTable):
    """The depth of every position of ``space`` from solved."""

    def distance(self, position: Position) -> int:
        """Moves needed to solve ``position`` (an error if no sequence reaches it)."""
        return int(self.depths[self._ranks([position])[0]])

    def _ranks(self, positions: Sequence[Position]) -> np.ndarray:
        ranks = self.space.ranks(positions)
        bad = (ranks < 0) | (self.depths[np.maximum(ranks, 0)] == UNSEEN)
        if bad.any():
            which = int(np.flatnonzero(bad)[0])
            raise InputError(f"{self.space.definition.name}: position {which + 1} is not "
                             "reachable with these moves")
        return ranks

    def solve(self, position: Position) -> list[str]:
        """An optimal move sequence taking ``position`` to solved."""
        return self.solve_many([position])[0]

    def solve_many(self, positions: Sequence[Position]) -> list[list[str]]:
        """:meth:`solve` for many positions at once: every position steps down one
        level per round, all of them in one array operation per move."""
        return self.words(self._ranks(positions))

    def words(self, ranks: np.ndarray) -> list[list[str]]:
        """:meth:`solve_many` for positions given by their ranks (each in the
        table: its depth known)."""
        space = self.space
        if space.metric == "gens":
            raise InputError(f"{space.definition.name}: a table in the directed metric gens "
                             "holds distances from solved, not ways back; solve in qtm or htm")
        paths = descend(ranks, space.n_moves, space.step, lambda ranks: self.depths[ranks])
        names = space.move_names
        return [[names[m] for m in path] for path in paths]


def build_orbit_table(definition: Definition, metric: str = "qtm", *,
                      progress: Progress | None = None) -> OrbitTable:
    """The table by one breadth-first search (no cache).

    >>> from permgroup.formats.definition import Orbit, OrbitState
    >>> turn = OrbitState((1, 2, 3, 0), (1, 0, 0, 0))
    >>> wheel = Definition("wheel", (Orbit("P", 4, 2),),
    ...     {"P": OrbitState((0, 1, 2, 3), (0,) * 4)}, {"T": {"P": turn}})
    >>> table = build_orbit_table(wheel, "htm")
    >>> table.distribution(), table.diameter
    ([1, 7], 1)
    >>> scrambled = table.space.position_of(["T", "T2"])
    >>> table.distance(scrambled), table.solve(scrambled)
    (1, ["T3'"])
    """
    space = OrbitSpace(definition, metric)
    sources = [space.rank(definition.solved)]
    return OrbitTable(space, sources, bfs(space, sources, progress=progress).depths)
