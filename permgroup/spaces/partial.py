"""Puzzles whose moves apply only in some states (partial moves).

A move is still a permutation of positions (array form), so the group the
moves generate is there for algebra; a *guard* says when the move is legal:
every position it names must show the given colour.  This module works on
whole colourings one state at a time in plain Python: the reference the
vectorized :mod:`permgroup.spaces.hole` is checked against.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from permgroup.errors import InputError
from permgroup.perm import act
from permgroup.puzzle import Puzzle

#: position -> the colour it must show for the move to be legal
Guard = dict[int, Hashable]


@dataclass(frozen=True, eq=False)
class PartialPuzzle:
    """A puzzle and, for each of its moves, the guard that makes it legal
    (an empty guard: always legal).

    >>> from permgroup.puzzle import Puzzle
    >>> slide = Puzzle("slide", 2, {"L": (1, 0)})
    >>> p = PartialPuzzle(slide, {"L": {0: "."}})
    >>> p.move_names, p.legal("x.", "L"), p.legal(".x", "L")
    (['L'], False, True)
    >>> p.successors(("x", ".")), p.successors((".", "x"))
    ([], [('L', ('x', '.'))])
    >>> PartialPuzzle(slide, {})
    Traceback (most recent call last):
    ...
    ValueError: slide: guards missing for ['L'], given for unknown moves []
    """

    puzzle: Puzzle
    guards: dict[str, Guard]

    def __post_init__(self) -> None:
        missing = [m for m in self.puzzle.generators if m not in self.guards]
        unknown = [m for m in self.guards if m not in self.puzzle.generators]
        if missing or unknown:
            raise ValueError(f"{self.puzzle.name}: guards missing for {missing}, "
                             f"given for unknown moves {unknown}")
        for move, guard in self.guards.items():
            bad = [p for p in guard if not 0 <= p < self.puzzle.degree]
            if bad:
                raise ValueError(f"{self.puzzle.name}: guard of {move!r} names positions {bad} "
                                 f"outside 0..{self.puzzle.degree - 1}")

    @property
    def move_names(self) -> list[str]:
        return list(self.puzzle.generators)

    def legal(self, state: Sequence, move: str) -> bool:
        """Whether ``move`` may be made in ``state`` (see the class example)."""
        return all(state[p] == colour for p, colour in self.guards[move].items())

    def successors(self, state: Sequence) -> list[tuple[str, tuple]]:
        """Every legal move from ``state`` with the state it leads to."""
        return [(name, act(state, perm)) for name, perm in self.puzzle.generators.items()
                if self.legal(state, name)]

    def apply(self, state: Sequence, moves: Iterable[str]) -> tuple:
        """The state after making ``moves`` in order; ``ValueError`` at an illegal one.

        >>> from permgroup.puzzle import Puzzle
        >>> p = PartialPuzzle(Puzzle("s", 2, {"L": (1, 0)}), {"L": {0: "."}})
        >>> p.apply(".x", ["L"])
        ('x', '.')
        """
        state = tuple(state)
        for k, move in enumerate(moves):
            if move not in self.guards:
                raise InputError(f"{self.puzzle.name} has no move {move!r}")
            if not self.legal(state, move):
                raise InputError(f"move {k + 1} ({move}) is not legal here")
            state = act(state, self.puzzle.generators[move])
        return state

    def definition(self) -> dict:
        """The puzzle's definition with the guards, as JSON-ready data."""
        return {
            "puzzle": self.puzzle.definition(),
            "guards": {m: sorted([p, c] for p, c in g.items()) for m, g in self.guards.items()},
        }
