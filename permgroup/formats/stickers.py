"""A definition's sticker view, and the way back from a sticker puzzle.

Piece slot ``p`` of an orbit with ``k`` orientations becomes ``k`` stickers, so
every move is a permutation of sticker indices (sympy's array form,
:mod:`permgroup.perm`) and the whole engine (orders, tables, Cayley graphs,
export) works on it.  A definition read from a file numbers them orbit after
orbit (``offset + k*p + r``); the view is :attr:`Definition.puzzle
<permgroup.formats.definition.Definition.puzzle>`, computed once
(:func:`to_puzzle`), and the numbering functions live beside the model
(:func:`~permgroup.formats.definition.sticker_permutation`,
:func:`~permgroup.formats.definition.sticker_colours`).  The solved colouring
gives sticker ``(i, r)`` the colour of facelet ``r - o`` of the piece in slot
``i`` (``o`` its solved orientation): identical pieces show the same colours,
so their states are colourings.

The way back: :func:`definition_of` makes the one model of a puzzle given as
sticker permutations (a built-in puzzle, a family member, a Santa type, a GAP
file): its pieces (declared, else found from the moves), alike pieces where
the solved colours make them alike, its symmetries as rotations, and the
puzzle itself as the view, so that its own numbering and colours stay.
:func:`from_puzzle` gives only what a definition file would hold.

>>> from permgroup.formats.ksolve import read_ksolve
>>> d = read_ksolve("Set P 2 3\\nMove A\\nP\\n2 1\\n1 0\\nEnd\\n")
>>> p = to_puzzle(d)
>>> p.degree, p.generators["A"], p.group().order()
(6, (4, 5, 3, 0, 1, 2), 6)
>>> from_puzzle(p).moves["A"] == d.moves["A"]
True
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from permgroup.formats.definition import (  # noqa: F401 (the sticker numbering, re-exported)
    Definition,
    Orbit,
    OrbitState,
    Position,
    puzzle_name,
    sticker_colours,
    sticker_count,
    sticker_layout,
    sticker_permutation,
)
from permgroup.perm import Perm
from permgroup.puzzle import Puzzle


def sticker_offsets(definition: Definition) -> dict[str, int]:
    """The first sticker index of each orbit, numbered orbit after orbit (a
    definition file's numbering).

    >>> sticker_offsets(Definition("t", (Orbit("C", 8, 3), Orbit("E", 12, 2)), {}, {}))
    {'C': 0, 'E': 24}
    """
    offsets, at = {}, 0
    for o in definition.orbits:
        offsets[o.name] = at
        at += o.size * o.orientations
    return offsets


def to_puzzle(definition: Definition) -> Puzzle:
    """The engine's :class:`~permgroup.puzzle.Puzzle` of a definition, its
    sticker view (:attr:`Definition.puzzle
    <permgroup.formats.definition.Definition.puzzle>`, computed once)."""
    return definition.puzzle


def file_puzzle(definition: Definition) -> Puzzle:
    """The sticker view a definition file of this definition would give:
    stickers numbered orbit after orbit, whatever view the definition brings.

    >>> file_puzzle(definition_of(Puzzle("p", 3, {"A": (0, 2, 1)}))).generators
    {'A': (1, 0)}
    """
    return Definition(definition.name, definition.orbits, definition.solved, definition.moves,
                      definition.derived, definition.rotations).puzzle


def _places(puzzle: Puzzle, pieces: dict[str, tuple[tuple[int, ...], ...]]
            ) -> dict[int, tuple[str, int, int]]:
    """sticker -> (kind, slot, which of the piece's stickers)."""
    return {s: (kind, slot, r) for kind, kind_pieces in pieces.items()
            for slot, stickers in enumerate(kind_pieces) for r, s in enumerate(stickers)}


def _position(puzzle: Puzzle, pieces: dict[str, tuple[tuple[int, ...], ...]],
              where: dict[int, tuple[str, int, int]], name: str, g: Perm, what: str) -> Position:
    """A sticker permutation (a move, a symmetry) as a position of the pieces."""
    moved = [s for s in range(puzzle.degree) if g[s] != s and s not in where]
    if moved:
        raise ValueError(f"{puzzle.name}: {what} {name!r} moves sticker {moved[0]}, "
                         "which is in no piece")
    position = {}
    for kind, kind_pieces in pieces.items():
        slots, twists = [0] * len(kind_pieces), [0] * len(kind_pieces)
        for j, stickers in enumerate(kind_pieces):
            other, i, r = where[g[stickers[0]]]
            if other != kind:
                raise ValueError(f"{puzzle.name}: {what} {name!r} takes a {kind} to a {other}")
            slots[i], twists[i] = j, r
        position[kind] = OrbitState(tuple(slots), tuple(twists))
    return position


def _orbits(puzzle: Puzzle, pieces: dict[str, tuple[tuple[int, ...], ...]]) -> tuple[Orbit, ...]:
    orbits = []
    for kind, kind_pieces in pieces.items():
        sizes = {len(p) for p in kind_pieces}
        if len(sizes) != 1:
            raise ValueError(f"{puzzle.name}: the {kind} pieces have different sticker counts")
        orbits.append(Orbit(kind, len(kind_pieces), sizes.pop()))
    return tuple(orbits)


def from_puzzle(puzzle: Puzzle, name: str | None = None) -> Definition:
    """What a definition file of a sticker puzzle holds: one orbit per kind of
    piece (its pieces must carry every sticker a move displaces), pieces all
    distinct and unturned, the moves; no view of its own.

    >>> from permgroup.perm import from_cycles
    >>> corners = Puzzle("c", 6, {"T": from_cycles([(0, 1, 2)], 6), "S": (3, 4, 5, 0, 1, 2)},
    ...                  pieces={"corner": ((0, 1, 2), (3, 4, 5))})
    >>> d = from_puzzle(corners)
    >>> [(o.name, o.size, o.orientations) for o in d.orbits], d.moves["T"]["corner"]
    ([('corner', 2, 3)], OrbitState(pieces=(0, 1), orientation=(1, 0)))
    """
    where = _places(puzzle, puzzle.pieces)
    orbits = _orbits(puzzle, puzzle.pieces)
    moves = {m: _position(puzzle, puzzle.pieces, where, m, g, "move")
             for m, g in puzzle.generators.items()}
    solved = {o.name: OrbitState(tuple(range(o.size)), (0,) * o.size) for o in orbits}
    return Definition(name or puzzle.name, orbits, solved, moves)


def _alike(colours: list[tuple], k: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Labels and solved orientations of pieces showing ``colours`` (each
    piece's stickers' colours in its cyclic order): pieces whose colours are
    the same up to a turn are alike, turned as that turn says.

    >>> _alike([("U", "R"), ("R", "U"), ("U", "F")], 2)
    ((0, 0, 1), (0, 1, 0))
    """
    first: dict[tuple, int] = {}   # the colours of each label's first piece, unturned
    labels, turns = [], []
    for c in colours:
        for t in range(k):  # sticker r shows facelet r - t
            unturned = tuple(c[(f + t) % k] for f in range(k))
            if unturned in first:
                labels.append(first[unturned])
                turns.append(t)
                break
        else:
            first[c] = len(first)
            labels.append(first[c])
            turns.append(0)
    return tuple(labels), tuple(turns)


def definition_of(puzzle: Puzzle, *, name: str | None = None,
                  derived: dict[str, str] | None = None,
                  hooks: dict[str, Callable[..., Any]] | None = None, partial=None
                  ) -> Definition:
    """The one model of a puzzle given as sticker permutations: one orbit per
    kind of piece (the puzzle's own, else those its moves show,
    :func:`permgroup.pieces.find_pieces`), alike pieces where the solved
    colours make them alike (colourings: a Rubik's-revenge board's cells),
    the puzzle's symmetries as rotations, and the puzzle itself as the view
    (:attr:`Definition.puzzle <permgroup.formats.definition.Definition.puzzle>`),
    with what it adds (``derived`` moves, ``hooks``, ``partial``); its
    name is ``name``, else the puzzle's.

    >>> ring = Puzzle("ring", 4, {"T": (1, 2, 3, 0), "S": (1, 0, 2, 3)}, solved="aabb")
    >>> d = definition_of(ring)
    >>> d.orbits, d.solved["P1"].pieces, d.puzzle is ring
    ((Orbit(name='P1', size=4, orientations=1),), (0, 0, 1, 1), True)
    >>> from permgroup.formats.definition import apply_alg
    >>> sticker_colours(d, apply_alg(d, "T"))   # the position T makes, in the ring's colours
    ('b', 'a', 'a', 'b')
    """
    pieces = dict(puzzle.pieces)
    if not pieces:
        from permgroup.pieces import find_pieces, piece_kinds

        pieces = piece_kinds(find_pieces(puzzle.degree, list(puzzle.generators.values())))
    where = _places(puzzle, pieces)
    orbits = _orbits(puzzle, pieces)
    moves = {m: _position(puzzle, pieces, where, m, g, "move")
             for m, g in puzzle.generators.items()}
    colours = puzzle.solved or tuple(range(puzzle.degree))
    solved = {}
    for o in orbits:
        labels, turns = _alike([tuple(colours[s] for s in p) for p in pieces[o.name]],
                               o.orientations)
        solved[o.name] = OrbitState(labels, turns)
    rotations = {}
    for rotation, g in puzzle.symmetries.items():
        try:
            rotations[rotation] = _position(puzzle, pieces, where, rotation, g, "symmetry")
        except ValueError:  # it turns stickers of no piece (a cube's centres): not a rotation of the pieces
            continue
    return Definition(name or puzzle.name, orbits, solved, moves, dict(derived or {}), rotations,
                      view=puzzle, layout=pieces, hooks=dict(hooks or {}), partial=partial)
