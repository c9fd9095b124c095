"""The definition of a puzzle: stickers, named moves, solved colouring, symmetry.

A :class:`Puzzle` is plain data.  Its moves are permutations of sticker
positions in array form (see :mod:`permgroup.perm` for the convention); the
sympy view of the same moves is one call away (:func:`Puzzle.permutation`,
:func:`Puzzle.group`), so that sympy is imported only by code that does algebra,
never on the hot path of a solver.

>>> from permgroup.perm import from_cycles
>>> spin = Puzzle("triangle", 3, {"T": from_cycles([(0, 1, 2)], 3)}, solved="abc")
>>> spin.group().order()
3
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING

from permgroup.errors import InputError, counted
from permgroup.perm import Perm, closure, compose, identity, inverse, order, power

if TYPE_CHECKING:  # pragma: no cover
    from sympy.combinatorics import Permutation, PermutationGroup

DEFINITION_VERSION = 1


def digest(data) -> str:
    """The SHA-256 of plain data written as canonical JSON: a fingerprint
    stable across runs and machines.

    >>> digest({"b": 1, "a": [2]}) == digest({"a": [2], "b": 1})
    True
    """
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True, eq=False)
class Puzzle:
    """A permutation puzzle.

    Parameters
    ----------
    name:
        Short identifier, used in cache file names.
    degree:
        Number of stickers (points moved by the permutations).
    generators:
        Named moves in array form; inverses and powers are derived
        (:func:`permgroup.metric.metric_moves`), never typed in.
    solved:
        The colour at each position of the solved puzzle.
    symmetries:
        Named generators of the whole-puzzle symmetry group (rotations); states
        that differ by one of these count as the same state.  Empty for none.
    pieces:
        For each kind of piece (``"corner"``...), the pieces as tuples of sticker
        positions listed in an order every move preserves cyclically.
    renderer:
        ``"module:function"`` or ``"module:function(arguments)"`` naming a
        function that returns the puzzle's :class:`permgroup.drawing.Drawing`
        (where each position is drawn).  Imported only when a state is
        displayed; not part of the definition or fingerprint.

    >>> p = Puzzle("swap", 3, {"F": (1, 0, 2), "C": (1, 2, 0)}, solved="aab")
    >>> p.move_array("C'"), p.generator_order("C"), p.group().order()
    ((2, 0, 1), 3, 6)
    >>> Puzzle("bad", 3, {"F": (0, 0, 1)})
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: bad: move 'F' is not a permutation of 3 points
    """

    name: str
    degree: int
    generators: dict[str, Perm]
    solved: tuple = ()
    symmetries: dict[str, Perm] = field(default_factory=dict)
    pieces: dict[str, tuple[tuple[int, ...], ...]] = field(default_factory=dict)
    renderer: str = ""

    def __post_init__(self) -> None:
        moves = {} if _permutations_in_bulk(self) else self.generators
        for kind, perms in (("move", moves), ("symmetry", self.symmetries)):
            for move_name, p in perms.items():
                if sorted(p) != list(range(self.degree)):
                    raise InputError(
                        f"{self.name}: {kind} {move_name!r} is not a permutation "
                        f"of {self.degree} points"
                    )
        if self.solved and len(self.solved) != self.degree:
            raise InputError(
                f"{self.name}: solved colouring has "
                f"{counted(len(self.solved), 'entry', 'entries')}, expected {self.degree}"
            )

    def permutation(self, move: str) -> Permutation:
        """The sympy permutation of a generator or derived move (``"R'"``, ``"R2"``).

        >>> from permgroup.perm import from_cycles
        >>> Puzzle("t", 3, {"T": from_cycles([(0, 1, 2)], 3)}).permutation("T'")
        Permutation(0, 2, 1)
        """
        from sympy.combinatorics import Permutation

        return Permutation(list(self.move_array(move)))

    def move_array(self, move: str) -> Perm:
        """The array form of a generator or of a derived move name.

        ``"X'"`` (or ``"-X"``) is the inverse of generator ``X``, ``"Xk"`` its
        ``k``-th power, ``"Xk'"`` the inverse of that; any alg is read
        (:mod:`permgroup.formats.alg`) and evaluated without expanding it.

        >>> p = Puzzle("five", 5, {"F": (1, 2, 3, 4, 0)})
        >>> p.move_array("F2'") == p.move_array("F3")
        True
        """
        if move in self.generators:
            return self.generators[move]
        from permgroup.errors import InputError
        from permgroup.formats.alg import Algebra, evaluate

        algebra = Algebra(identity(self.degree), compose, inverse, power)
        try:
            return evaluate(move, self.generators.__getitem__, algebra, self.generators)
        except InputError as error:
            raise KeyError(f"{self.name} has no move {move!r} ({error})") from None

    def group(self, moves: list[str] | None = None) -> PermutationGroup:
        """The sympy group generated by the puzzle's moves (or the named ones)."""
        from sympy.combinatorics import PermutationGroup

        names = list(self.generators) if moves is None else moves
        return PermutationGroup([self.permutation(m) for m in names])

    def symmetry_group(self) -> PermutationGroup:
        """The sympy group of whole-puzzle symmetries."""
        from sympy.combinatorics import Permutation, PermutationGroup

        if not self.symmetries:
            return PermutationGroup([Permutation(list(range(self.degree)))])
        return PermutationGroup([Permutation(list(p)) for p in self.symmetries.values()])

    def symmetry_elements(self) -> list[Perm]:
        """Every element of the symmetry group, identity first."""
        return closure(self.symmetries.values(), self.degree)

    def definition(self) -> dict:
        """The puzzle as plain JSON-ready data (what the cache key hashes)."""
        return {
            "version": DEFINITION_VERSION,
            "name": self.name,
            "degree": self.degree,
            "generators": {k: list(v) for k, v in self.generators.items()},
            "solved": list(self.solved),
            "symmetries": {k: list(v) for k, v in self.symmetries.items()},
            "pieces": {k: [list(p) for p in v] for k, v in self.pieces.items()},
        }

    def fingerprint(self) -> str:
        """A hash of the definition, stable across runs and machines."""
        return self._fingerprint

    @cached_property
    def _fingerprint(self) -> str:
        # once per object (it is frozen): every table lookup asks for it
        return digest(self.definition())

    def restricted(self, moves: list[str], name: str | None = None) -> Puzzle:
        """The same puzzle with only some generators, e.g. ``<R, U>``.

        >>> from permgroup.perm import from_cycles
        >>> p = Puzzle("p", 3, {"A": (1, 0, 2), "B": (0, 2, 1)})
        >>> list(p.restricted(["A"]).generators)
        ['A']
        """
        gens = {m: self.move_array(m) for m in moves}
        return replace(self, name=name or f"{self.name}<{','.join(moves)}>", generators=gens)

    def generator_order(self, move: str) -> int:
        """The order of a generator."""
        return order(self.generators[move])


def _permutations_in_bulk(puzzle: Puzzle) -> bool:
    """Whether a puzzle of many moves has only permutations of its points,
    checked in one numpy sort (a family's 32,640 moves: a tenth of a second,
    and the batch kept for :func:`permgroup.perm_arrays.moves_of`); ``False``
    for few moves, or when one is not (the caller names it).

    >>> _permutations_in_bulk(Puzzle("p", 2, {f"m{i}": (1, 0) for i in range(300)}))
    True
    """
    if len(puzzle.generators) <= 256 or any(len(p) != puzzle.degree
                                            for p in puzzle.generators.values()):
        return False
    import numpy as np

    from permgroup.perm_arrays import moves_of

    try:
        batch = moves_of(puzzle)
    except (TypeError, ValueError, OverflowError):  # not numbers: the caller says which
        return False
    return bool((np.sort(batch, axis=1) == np.arange(puzzle.degree)).all())

