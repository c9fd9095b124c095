"""A definition's sticker view, and the way back.

Piece slot ``p`` of an orbit with ``k`` orientations becomes the ``k`` stickers
``offset + k*p + r`` (``r = 0..k-1``), orbits one after another, so every move
is a permutation of sticker indices (sympy's array form, :mod:`permgroup.perm`)
and the whole engine (orders, tables, Cayley graphs, export) works on it.  A
move that brings the piece of slot ``j`` to slot ``i`` with a twist ``t`` sends
sticker ``(j, r)`` to ``(i, r + t)``.  The solved colouring gives sticker
``(i, r)`` the colour of facelet ``r - o`` of the piece in slot ``i`` (``o`` its
solved orientation): identical pieces show the same colours, so their states
are colourings.

>>> from permgroup.formats.ksolve import read_ksolve
>>> d = read_ksolve("Set P 2 3\\nMove A\\nP\\n2 1\\n1 0\\nEnd\\n")
>>> p = to_puzzle(d)
>>> p.degree, p.generators["A"], p.group().order()
(6, (4, 5, 3, 0, 1, 2), 6)
>>> from_puzzle(p).moves["A"] == d.moves["A"]
True
"""
from __future__ import annotations

import re

from permgroup.formats.definition import Definition, Orbit, OrbitState, Position
from permgroup.perm import Perm
from permgroup.puzzle import Puzzle


def sticker_offsets(definition: Definition) -> dict[str, int]:
    """The first sticker index of each orbit.

    >>> sticker_offsets(Definition("t", (Orbit("C", 8, 3), Orbit("E", 12, 2)), {}, {}))
    {'C': 0, 'E': 24}
    """
    offsets, at = {}, 0
    for o in definition.orbits:
        offsets[o.name] = at
        at += o.size * o.orientations
    return offsets


def sticker_permutation(definition: Definition, move: Position) -> Perm:
    """A move (or any position) as a permutation of sticker indices."""
    offsets = sticker_offsets(definition)
    image = [0] * sum(o.size * o.orientations for o in definition.orbits)
    for o in definition.orbits:
        k, base, state = o.orientations, offsets[o.name], move[o.name]
        for i, (j, t) in enumerate(zip(state.pieces, state.orientation)):
            for r in range(k):
                image[base + k * j + r] = base + k * i + (r + t) % k
    return tuple(image)


def sticker_colours(definition: Definition, position: Position) -> tuple[str, ...]:
    """The colour at each sticker of ``position``: orbit, piece label and, for
    oriented pieces, which of its facelets shows there.

    >>> d = Definition("t", (Orbit("E", 2, 2),), {}, {})
    >>> sticker_colours(d, {"E": OrbitState((0, 0), (0, 1))})
    ('E0.0', 'E0.1', 'E0.1', 'E0.0')
    """
    colours = []
    for o in definition.orbits:
        k, state = o.orientations, position[o.name]
        for label, twist in zip(state.pieces, state.orientation):
            for r in range(k):
                colours.append(f"{o.name}{label}" + (f".{(r - twist) % k}" if k > 1 else ""))
    return tuple(colours)


def puzzle_name(name: str) -> str:
    """A name fit for cache file names.

    >>> puzzle_name("Jing's pyraminx")
    'Jing-s-pyraminx'
    """
    return re.sub(r"[^A-Za-z0-9_.+-]+", "-", name).strip("-") or "puzzle"


def to_puzzle(definition: Definition) -> Puzzle:
    """The engine's :class:`~permgroup.puzzle.Puzzle` of a definition: moves as
    sticker permutations, one kind of piece per orbit, the solved colouring,
    and the file's whole-puzzle rotations as its symmetries (so that states
    are normalized by them, as the built-in puzzles' are)."""
    offsets = sticker_offsets(definition)
    pieces = {}
    for o in definition.orbits:
        k, base = o.orientations, offsets[o.name]
        pieces[o.name] = tuple(tuple(base + k * p + r for r in range(k)) for p in range(o.size))
    return Puzzle(
        puzzle_name(definition.name),
        sum(o.size * o.orientations for o in definition.orbits),
        {m: sticker_permutation(definition, p) for m, p in definition.moves.items()},
        solved=sticker_colours(definition, definition.solved),
        symmetries={r: sticker_permutation(definition, p)
                    for r, p in definition.rotations.items()},
        pieces=pieces,
    )


def from_puzzle(puzzle: Puzzle, name: str | None = None) -> Definition:
    """The definition of a sticker puzzle, one orbit per kind of piece (its pieces
    must carry every sticker a move displaces); pieces all distinct, unturned.

    >>> from puzzles import minicube
    >>> d = from_puzzle(minicube.PUZZLE)
    >>> [(o.name, o.size, o.orientations) for o in d.orbits]
    [('corner', 8, 3)]
    >>> to_puzzle(d).group().order()
    88179840
    """
    orbits, moves = [], {}
    where: dict[int, tuple[str, int, int]] = {}
    for kind, kind_pieces in puzzle.pieces.items():
        sizes = {len(p) for p in kind_pieces}
        if len(sizes) != 1:
            raise ValueError(f"{puzzle.name}: the {kind} pieces have different sticker counts")
        orbits.append(Orbit(kind, len(kind_pieces), sizes.pop()))
        for slot, stickers in enumerate(kind_pieces):
            for r, s in enumerate(stickers):
                where[s] = (kind, slot, r)
    for move, g in puzzle.generators.items():
        moved = [s for s in range(puzzle.degree) if g[s] != s and s not in where]
        if moved:
            raise ValueError(f"{puzzle.name}: move {move!r} moves sticker {moved[0]}, "
                             "which is in no piece")
        position = {}
        for o in orbits:
            pieces, twists = [0] * o.size, [0] * o.size
            for j, stickers in enumerate(puzzle.pieces[o.name]):
                kind, i, r = where[g[stickers[0]]]
                if kind != o.name:
                    raise ValueError(f"{puzzle.name}: move {move!r} takes a {o.name} to a {kind}")
                pieces[i], twists[i] = j, r
            position[o.name] = OrbitState(tuple(pieces), tuple(twists))
        moves[move] = position
    solved = {o.name: OrbitState(tuple(range(o.size)), (0,) * o.size) for o in orbits}
    return Definition(name or puzzle.name, tuple(orbits), solved, moves)
