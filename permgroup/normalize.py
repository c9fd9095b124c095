"""Normalization by a symmetry group: one canonical element per class.

States that differ by a whole-puzzle symmetry (a cube held another way up) are
the same state.  With the symmetry group ``C`` acting on the right, the state of
element ``g`` is the class ``gC``.  Pick an *anchor* sticker ``x`` whose orbit
under the puzzle group ``G`` is acted on regularly by ``C``; then every class
``gC`` holds exactly one element fixing ``x``, and those elements form the
stabilizer ``G_x`` (for the 2x2x2 cube, the fixed-corner subgroup).  That element
is the canonical representative.

Moves act on classes: the class of ``g`` followed by ``m`` is ``(g m) C``.  For
``g`` in ``G_x`` its representative is ``g m r_m``, where the rotation ``r_m``
depends on ``m`` only; so each move has a *normalized* form ``m r_m`` inside
``G_x``, and the canonical elements with the normalized moves form the quotient
Cayley graph.

>>> from permgroup.puzzle import Puzzle
>>> turn = (1, 2, 3, 0)  # a 4-cycle, standing in for a rotation
>>> p = Puzzle("spin", 4, {"t": turn}, symmetries={"r": turn})
>>> n = Normalizer.from_puzzle(p)
>>> n.normalize(turn)
(0, 1, 2, 3)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from permgroup.perm import Perm, compose, identity, inverse
from permgroup.puzzle import Puzzle


def orbit(point: int, generators: Sequence[Sequence[int]]) -> set[int]:
    """The orbit of a point under the group the generators span.

    >>> sorted(orbit(0, [(1, 0, 2, 3), (0, 2, 1, 3)]))
    [0, 1, 2]
    """
    seen = {point}
    todo = [point]
    while todo:
        x = todo.pop()
        for g in generators:
            y = g[x]
            if y not in seen:
                seen.add(y)
                todo.append(y)
    return seen


@dataclass(frozen=True)
class Normalizer:
    """Maps an element to the canonical element of its symmetry class.

    ``rotation_at[y]`` is the symmetry that brings position ``y`` back to the
    anchor; ``None`` where ``y`` is outside the anchor's orbit.

    >>> turn = (1, 2, 3, 0)
    >>> n = Normalizer.from_puzzle(Puzzle("spin", 4, {"t": turn}, symmetries={"r": turn}))
    >>> n.anchor, n.rotation_at[1]
    (0, (3, 0, 1, 2))
    >>> n.normalize((2, 3, 0, 1))  # a half turn is a rotation: its class is the identity's
    (0, 1, 2, 3)
    """

    anchor: int
    rotation_at: tuple[Perm | None, ...]

    @classmethod
    def from_puzzle(cls, puzzle: Puzzle, anchor: int | None = None) -> Normalizer:
        """Choose an anchor (the first sticker that works) and tabulate rotations."""
        n = puzzle.degree
        symmetries = puzzle.symmetry_elements()
        if len(symmetries) == 1:
            return cls(0, (identity(n),) * n)
        candidates = [anchor] if anchor is not None else range(n)
        moves = list(puzzle.generators.values()) + list(puzzle.symmetries.values())
        for x in candidates:
            images = {s[x] for s in symmetries}
            if len(images) != len(symmetries):
                continue
            if orbit(x, moves) != images:
                continue
            rotation_at: list[Perm | None] = [None] * n
            for s in symmetries:
                # s maps x to s[x]; the rotation bringing s[x] back is s's inverse
                rotation_at[s[x]] = inverse(s)
            return cls(x, tuple(rotation_at))
        raise ValueError(
            f"{puzzle.name}: no sticker on which the symmetry group acts regularly "
            "within its orbit; normalization needs one"
        )

    def normalize(self, element: Sequence[int]) -> Perm:
        """The canonical element of ``element``'s class (it fixes the anchor)."""
        rotation = self.rotation_at[element[self.anchor]]
        if rotation is None:
            raise ValueError("element moves the anchor outside its orbit")
        return compose(element, rotation)

    def normalize_moves(self, moves: dict[str, Perm]) -> dict[str, Perm]:
        """Each move's normalized form; moves that coincide keep one name.

        The name kept is one whose move already fixes the anchor when there is
        one (``U`` rather than ``D`` on a cube held by its down-back-left
        corner): its normalized form is the move itself, so a word of kept
        names, turned one move after another without re-orienting, is a real
        move sequence.

        >>> turn = (1, 2, 3, 0)
        >>> n = Normalizer.from_puzzle(Puzzle("spin", 4, {"t": turn}, symmetries={"r": turn}))
        >>> n.normalize_moves({"t": turn, "e": (0, 1, 2, 3)})
        {'e': (0, 1, 2, 3)}
        """
        kept: dict[Perm, str] = {}
        for name, m in moves.items():
            normal = self.normalize(m)
            if normal not in kept or (moves[kept[normal]][self.anchor] != self.anchor
                                      and m[self.anchor] == self.anchor):
                kept[normal] = name
        order = {name: i for i, name in enumerate(moves)}
        return {name: m for m, name in sorted(kept.items(), key=lambda item: order[item[1]])}
