"""A puzzle defined piece by piece, as twsearch/ksolve and cubing.js KPuzzle files do.

A :class:`Definition` is plain data: *orbits* (twsearch's sets) of pieces, each
piece with ``k`` orientations; a solved position; named generating moves.  A
position, and a move (the position it makes from solved), gives for each orbit
and slot ``i`` which piece sits in slot ``i`` and its orientation there.
Composition, 0-based, for a position ``a`` followed by a move ``b``::

    (a·b).pieces[i]      = a.pieces[b.pieces[i]]
    (a·b).orientation[i] = (a.orientation[b.pieces[i]] + b.orientation[i]) mod k

so a move says, for each slot, where the piece that ends up there came from and
what orientation it gains.  Repeated numbers in ``solved`` mean identical
pieces: the states are then colourings of the slots, not group elements.

The readers and writers of the file formats live beside this module.  The
engine works on a definition's *sticker view*, :attr:`Definition.puzzle` (a
:class:`~permgroup.puzzle.Puzzle`, computed once): every move a permutation of
sticker indices.  A definition read from a file numbers its stickers orbit
after orbit, ``k`` a slot (slot ``p`` in orientation ``r`` is sticker
``offset + k*p + r``); a puzzle built in code brings its own view and
numbering (:func:`permgroup.formats.stickers.definition_of`), and
:func:`sticker_permutation` and :func:`sticker_colours` speak that numbering.

>>> swap = Definition(
...     "swap2", (Orbit("P", 2, 3),),
...     {"P": OrbitState((0, 1), (0, 0))},
...     {"A": {"P": OrbitState((1, 0), (1, 0))}})
>>> a = swap.moves["A"]
>>> compose(swap, a, a)["P"]
OrbitState(pieces=(0, 1), orientation=(1, 1))
>>> move_order(swap, "A")
6
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from permgroup.puzzle import Puzzle, digest
from permgroup.perm import repeated

Position = dict[str, "OrbitState"]  # orbit name -> its pieces and orientations


@dataclass(frozen=True)
class Orbit:
    """``size`` slots (and pieces) with ``orientations`` orientations each (1: none)."""

    name: str
    size: int
    orientations: int = 1


@dataclass(frozen=True)
class OrbitState:
    """One orbit of a position or move: the piece in each slot (0-based) and its
    orientation there."""

    pieces: tuple[int, ...]
    orientation: tuple[int, ...]


@dataclass(frozen=True, eq=False)
class Definition:
    """A puzzle as orbits of oriented pieces.

    Parameters
    ----------
    name:
        The puzzle's name (``Name`` line, KPuzzle ``name``).
    orbits:
        The orbits in file order.
    solved:
        The solved position, every orbit present; ``pieces`` may repeat
        (identical pieces), but are renumbered ``0, 1, ...`` in order of first
        appearance by the readers.
    moves:
        The generators, in file order; every orbit present (identity where the
        file leaves one out).  Powers and inverses are derived, never listed.
    derived:
        Named moves defined by an alg over other moves (twsearch
        ``MoveSequence``/``MoveAlias``, KPuzzle ``derivedMoves``), kept as text
        in file order so that a writer can give them back.
    rotations:
        Whole-puzzle rotations (twsearch and cubing.js name them ``x``, ``y``,
        ``z``): positions, like moves, that are not counted as moves.

    What a puzzle built in code adds to its model (none of it is part of
    :meth:`data` or :meth:`fingerprint`; a file never holds it):

    view:
        Its own sticker view (numbering, colours, symmetries, renderer), which
        :attr:`puzzle` then is; ``layout`` says where each slot's stickers
        are in it (stickers of no slot are fixed by every move).
    hooks:
        What it lends the engine by name, each used instead of the generic
        way: ``table(metric, progress=None)``, its own distance table (over
        its classes up to rotation, or a ball); ``solve_exact(position,
        metric, max_depth, budget)`` and ``solve_chain(position, metric,
        max_length, budget)``, its own exact search and chain of subgroups
        (:mod:`permgroup.solution`), each given the element that makes the
        start from the goal.
    partial:
        Moves with guards (:class:`permgroup.spaces.partial.PartialPuzzle`): a
        move may be made only in some positions, so the group of the moves
        bounds the positions from above.
    """

    name: str
    orbits: tuple[Orbit, ...]
    solved: Position
    moves: dict[str, Position]
    derived: dict[str, str] = field(default_factory=dict)
    rotations: dict[str, Position] = field(default_factory=dict)
    view: Puzzle | None = field(default=None, repr=False)
    layout: Mapping[str, tuple[tuple[int, ...], ...]] | None = field(default=None, repr=False)
    hooks: Mapping[str, Callable[..., Any]] = field(default_factory=dict, repr=False)
    partial: Any = field(default=None, repr=False)

    @cached_property
    def puzzle(self) -> Puzzle:
        """The sticker view, computed once: the view the definition brings, else
        its moves as permutations of the stickers numbered orbit after orbit,
        one kind of piece per orbit, the solved colouring, its rotations as
        the symmetries (so that states are normalized by them).

        >>> d = Definition("t", (Orbit("P", 2, 3),), {"P": OrbitState((0, 1), (0, 0))},
        ...                {"A": {"P": OrbitState((1, 0), (1, 0))}})
        >>> d.puzzle.generators["A"], d.puzzle.pieces, d.puzzle is d.puzzle
        ((3, 4, 5, 1, 2, 0), {'P': ((0, 1, 2), (3, 4, 5))}, True)
        """
        if self.view is not None:
            return self.view
        return Puzzle(
            puzzle_name(self.name), sticker_count(self),
            sticker_permutations(self, self.moves),
            solved=sticker_colours(self, self.solved),
            symmetries={r: sticker_permutation(self, p) for r, p in self.rotations.items()},
            pieces=sticker_layout(self))

    def orbit(self, name: str) -> Orbit:
        """The orbit called ``name``.

        >>> Definition("t", (Orbit("E", 2),), {}, {}).orbit("E").size
        2
        """
        for o in self.orbits:
            if o.name == name:
                return o
        raise KeyError(f"{self.name} has no orbit {name!r}")

    def data(self) -> dict:
        """The definition as plain JSON-ready data (what :meth:`fingerprint` hashes)."""

        def position(p: Position) -> dict:
            return {o.name: [list(p[o.name].pieces), list(p[o.name].orientation)]
                    for o in self.orbits if o.name in p}

        return {
            "name": self.name,
            "orbits": [[o.name, o.size, o.orientations] for o in self.orbits],
            "solved": position(self.solved),
            "moves": {m: position(p) for m, p in self.moves.items()},
            "derived": dict(self.derived),
            "rotations": {m: position(p) for m, p in self.rotations.items()},
        }

    def fingerprint(self) -> str:
        """A hash of :meth:`data`: two files that define the same puzzle the same
        way (whatever their format) have the same fingerprint."""
        return self._fingerprint

    @cached_property
    def _fingerprint(self) -> str:
        # once per object (it is frozen): every table lookup asks for it
        return digest(self.data())


def position_bound(definition: Definition) -> int:
    """An upper bound on the number of positions: each orbit's arrangements of its
    pieces (identical ones counted once) times its orientations.

    >>> d = Definition("t", (Orbit("C", 4, 3),), {"C": OrbitState((0, 0, 1, 1), (0,) * 4)}, {})
    >>> position_bound(d)  # 4!/(2! 2!) arrangements, 3^4 orientations
    486
    """
    bound = 1
    for o in definition.orbits:
        pieces = definition.solved[o.name].pieces
        arrangements = math.factorial(o.size)
        for label in set(pieces):
            arrangements //= math.factorial(pieces.count(label))
        bound *= arrangements * o.orientations ** o.size
    return bound


def puzzle_name(name: str) -> str:
    """A name fit for cache file names.

    >>> puzzle_name("Jing's pyraminx")
    'Jing-s-pyraminx'
    """
    return re.sub(r"[^A-Za-z0-9_.+-]+", "-", name).strip("-") or "puzzle"


def sticker_layout(definition: Definition) -> dict[str, tuple[tuple[int, ...], ...]]:
    """For each orbit, each slot's stickers in the sticker view (orientation 0,
    1, ...): the definition's own layout, else orbit after orbit, ``k``
    stickers a slot.

    >>> sticker_layout(Definition("t", (Orbit("C", 2, 3), Orbit("E", 1, 2)), {}, {}))
    {'C': ((0, 1, 2), (3, 4, 5)), 'E': ((6, 7),)}
    """
    if definition.layout is not None:
        return {o.name: tuple(definition.layout[o.name]) for o in definition.orbits}
    layout, at = {}, 0
    for o in definition.orbits:
        k = o.orientations
        layout[o.name] = tuple(tuple(range(at + k * p, at + k * p + k)) for p in range(o.size))
        at += o.size * k
    return layout


def sticker_count(definition: Definition) -> int:
    """The number of stickers of the sticker view."""
    if definition.view is not None:
        return definition.view.degree
    return sum(o.size * o.orientations for o in definition.orbits)


def sticker_permutation(definition: Definition, move: Position) -> tuple[int, ...]:
    """A move (or any position of distinct pieces) as a permutation of the
    sticker view's stickers: the move that brings the piece of slot ``j`` to
    slot ``i`` with a twist ``t`` sends sticker ``(j, r)`` to ``(i, r + t)``.

    >>> d = Definition("t", (Orbit("P", 2, 3),), {}, {})
    >>> sticker_permutation(d, {"P": OrbitState((1, 0), (1, 0))})
    (3, 4, 5, 1, 2, 0)
    """
    layout = sticker_layout(definition)
    image = list(range(sticker_count(definition)))
    for o in definition.orbits:
        k, slots, state = o.orientations, layout[o.name], move[o.name]
        if k == 1:  # one sticker a piece: no turn to work out
            for i, j in enumerate(state.pieces):
                image[slots[j][0]] = slots[i][0]
            continue
        for i, (j, t) in enumerate(zip(state.pieces, state.orientation)):
            for r in range(k):
                image[slots[j][r]] = slots[i][(r + t) % k]
    return tuple(image)


def sticker_permutations(definition: Definition, moves: Mapping[str, Position]
                         ) -> dict[str, tuple[int, ...]]:
    """:func:`sticker_permutation` of many moves at once: the layout found
    once and each orbit converted for all moves in one numpy step (the
    32,640 moves of ``transpositions-256`` take a second, not half a minute).

    >>> d = Definition("t", (Orbit("P", 2, 3),), {}, {})
    >>> sticker_permutations(d, {"A": {"P": OrbitState((1, 0), (1, 0))}})
    {'A': (3, 4, 5, 1, 2, 0)}
    """
    from itertools import chain

    import numpy as np

    names = list(moves)
    if not names:
        return {}

    def table(field: str, orbit: Orbit) -> np.ndarray:  # (moves, slots), flat: fast
        return np.fromiter(chain.from_iterable(getattr(moves[m][orbit.name], field)
                                               for m in names),
                           dtype=np.int64, count=len(names) * orbit.size
                           ).reshape(len(names), orbit.size)

    layout = sticker_layout(definition)
    image = np.tile(np.arange(sticker_count(definition), dtype=np.int64), (len(names), 1))
    rows = np.arange(len(names))[:, None, None]
    for o in definition.orbits:
        k = o.orientations
        slots = np.array(layout[o.name], dtype=np.int64).reshape(o.size, k)
        j = table("pieces", o)
        if k == 1:  # nothing turns
            image[rows[:, :, 0], slots[j, 0]] = slots[:, 0]
            continue
        t = table("orientation", o)
        r = np.arange(k)
        # sticker (j, r) goes to (i, r + t)
        image[rows, slots[j][:, :, r]] = slots[np.arange(o.size)[None, :, None],
                                               (r + t[:, :, None]) % k]
    return dict(zip(names, map(tuple, image.tolist())))


def sticker_colours(definition: Definition, position: Position) -> tuple:
    """The colour at each sticker of ``position``: the colour its facelet shows
    when solved.  Without a view of its own, that is the orbit, the piece's
    label and, for oriented pieces, which of its facelets shows there (alike
    pieces show alike colours, so their states are colourings).

    >>> d = Definition("t", (Orbit("E", 2, 2),), {}, {})
    >>> sticker_colours(d, {"E": OrbitState((0, 0), (0, 1))})
    ('E0.0', 'E0.1', 'E0.1', 'E0.0')
    """
    if definition.view is None:
        colours = []
        for o in definition.orbits:
            k, state = o.orientations, position[o.name]
            for label, twist in zip(state.pieces, state.orientation):
                for r in range(k):
                    colours.append(f"{o.name}{label}" + (f".{(r - twist) % k}" if k > 1 else ""))
        return tuple(colours)
    view, layout = definition.view, sticker_layout(definition)
    home_colours = tuple(view.solved or range(view.degree))
    shown = list(home_colours)  # stickers of no slot never move
    for o in definition.orbits:
        k, slots, solved, state = (o.orientations, layout[o.name], definition.solved[o.name],
                                   position[o.name])
        home = {}  # piece label -> a slot it is solved in, and its orientation there
        for s, (label, twist) in enumerate(zip(solved.pieces, solved.orientation)):
            home.setdefault(label, (s, twist))
        for i, (label, twist) in enumerate(zip(state.pieces, state.orientation)):
            s, solved_twist = home[label]
            for r in range(k):  # facelet r - twist of the piece, shown at home
                shown[slots[i][r]] = home_colours[slots[s][(r - twist + solved_twist) % k]]
    return tuple(shown)


def element_position(definition: Definition, g: tuple[int, ...]) -> Position:
    """The position the element ``g`` (a permutation of the sticker view's
    stickers, :mod:`permgroup.perm`'s convention) makes from solved: the
    inverse of :func:`sticker_permutation` after the solved position.

    >>> d = Definition("t", (Orbit("P", 2, 3),), {"P": OrbitState((0, 0), (0, 0))},
    ...                {"A": {"P": OrbitState((1, 0), (1, 0))}})
    >>> element_position(d, d.puzzle.generators["A"]) == apply_alg(d, "A")
    True
    """
    layout = sticker_layout(definition)
    position = {}
    for o in definition.orbits:
        k, slots, solved = o.orientations, layout[o.name], definition.solved[o.name]
        where = {s[0]: j for j, s in enumerate(slots)}
        turned = {x: (i, r) for i, s in enumerate(slots) for r, x in enumerate(s)}
        pieces, twists = [0] * o.size, [0] * o.size
        for x, j in where.items():  # the piece of slot j goes to slot i, turned by r
            i, r = turned[g[x]]
            pieces[i], twists[i] = solved.pieces[j], (solved.orientation[j] + r) % k
        position[o.name] = OrbitState(tuple(pieces), tuple(twists))
    return position


def colouring_position(definition: Definition, colours) -> Position | None:
    """The position whose sticker colouring (:func:`sticker_colours`) is
    ``colours``, ``None`` when no position shows them.

    >>> d = Definition("t", (Orbit("P", 2, 3),), {"P": OrbitState((0, 1), (0, 0))},
    ...                {"A": {"P": OrbitState((1, 0), (1, 0))}})
    >>> p = apply_alg(d, "A")
    >>> colouring_position(d, sticker_colours(d, p)) == p, colouring_position(d, "abcdef")
    (True, None)
    """
    colours = tuple(map(str, colours))
    if len(colours) != sticker_count(definition):
        return None
    layout = sticker_layout(definition)
    position = {}
    for o in definition.orbits:
        slots, solved = layout[o.name], definition.solved[o.name]
        shows = {}  # what a slot shows -> the piece label and its twist there
        for seen, piece in _slot_views(definition, o):
            shows.setdefault(seen, piece)
        pieces, twists = [], []
        for stickers in slots:
            found = shows.get(tuple(colours[x] for x in stickers))
            if found is None:
                return None
            pieces.append(found[0])
            twists.append(found[1])
        if sorted(pieces) != sorted(solved.pieces):
            return None  # a piece shown more often than there are of it
        position[o.name] = OrbitState(tuple(pieces), tuple(twists))
    if tuple(map(str, sticker_colours(definition, position))) != colours:
        return None  # a sticker of no slot differs
    return position


def _slot_views(definition: Definition, o: Orbit) -> list[tuple[tuple, tuple]]:
    """What a slot of orbit ``o`` shows (its stickers' colours) with each piece
    label and twist there: ``(seen, (label, twist))``."""
    layout = sticker_layout(definition)
    home = tuple(map(str, sticker_colours(definition, definition.solved)))
    k, slots, solved = o.orientations, layout[o.name], definition.solved[o.name]
    return [(tuple(home[slots[s][(r - t + turn) % k]] for r in range(k)), (label, t))
            for s, (label, turn) in enumerate(zip(solved.pieces, solved.orientation))
            for t in range(k)]


def colours_tell_positions(definition: Definition) -> bool:
    """Whether every position shows colours of its own: no two pieces, or
    twists of a piece, look alike in a slot (identical pieces are one label),
    so that :func:`colouring_position` gives back the position that showed
    them.

    >>> d = Definition("t", (Orbit("P", 2, 3),), {"P": OrbitState((0, 1), (0, 0))}, {})
    >>> colours_tell_positions(d)
    True
    """
    for o in definition.orbits:
        shown: dict[tuple, set] = {}  # what a slot shows -> the pieces and twists showing it
        for seen, piece in _slot_views(definition, o):
            shown.setdefault(seen, set()).add(piece)
        if any(len(pieces) > 1 for pieces in shown.values()):
            return False
    return True


def identity(definition: Definition) -> Position:
    """The position every move leaves alone: each piece in its own slot, unturned.

    >>> identity(Definition("t", (Orbit("E", 2, 2),), {}, {}))
    {'E': OrbitState(pieces=(0, 1), orientation=(0, 0))}
    """
    return {o.name: OrbitState(tuple(range(o.size)), (0,) * o.size) for o in definition.orbits}


def compose(definition: Definition, a: Position, b: Position) -> Position:
    """``a`` followed by ``b``, by the formula in the module docstring.

    >>> d = Definition("t", (Orbit("E", 2, 2),), {}, {})
    >>> flip = {"E": OrbitState((1, 0), (1, 0))}
    >>> compose(d, flip, flip)
    {'E': OrbitState(pieces=(0, 1), orientation=(1, 1))}
    """
    result = {}
    for o in definition.orbits:
        x, y = a[o.name], b[o.name]
        k = o.orientations
        result[o.name] = OrbitState(
            tuple(x.pieces[j] for j in y.pieces),
            tuple((x.orientation[j] + t) % k for j, t in zip(y.pieces, y.orientation)),
        )
    return result


def invert(definition: Definition, a: Position) -> Position:
    """The move that undoes ``a``: ``compose(a, invert(a))`` is the identity.

    >>> d = Definition("t", (Orbit("E", 3, 2),), {}, {})
    >>> a = {"E": OrbitState((1, 2, 0), (1, 0, 0))}
    >>> compose(d, a, invert(d, a)) == identity(d)
    True
    """
    result = {}
    for o in definition.orbits:
        x = a[o.name]
        pieces = [0] * o.size
        orientation = [0] * o.size
        for i, j in enumerate(x.pieces):
            pieces[j] = i
            orientation[j] = -x.orientation[i] % o.orientations
        result[o.name] = OrbitState(tuple(pieces), tuple(orientation))
    return result


def position_order(definition: Definition, a: Position) -> int:
    """How often ``a`` is applied to give the identity, from its cycles: a cycle
    of ``L`` pieces whose twists add up to ``t`` (mod ``k`` orientations) comes
    back after ``L * k / gcd(t, k)`` turns.

    >>> d = Definition("t", (Orbit("E", 3, 2),), {}, {})
    >>> position_order(d, {"E": OrbitState((1, 2, 0), (1, 0, 0))})
    6
    """
    from math import gcd, lcm

    result = 1
    for o in definition.orbits:
        x, seen = a[o.name], [False] * o.size
        for start in range(o.size):
            length = twist = 0
            i = start
            while not seen[i]:
                seen[i] = True
                twist += x.orientation[i]
                i = x.pieces[i]
                length += 1
            if length:
                k = o.orientations
                result = lcm(result, length * (k // gcd(twist % k, k)))
    return result


def move_order(definition: Definition, move: str) -> int:
    """The order of generator ``move`` (how often it is applied to give the identity)."""
    return position_order(definition, definition.moves[move])


def power(definition: Definition, a: Position, k: int) -> Position:
    """``a`` applied ``k`` times (``k < 0``: the inverse ``-k`` times), by
    repeated squaring: ``log2 k`` compositions for any ``k``.

    >>> d = Definition("t", (Orbit("E", 3),), {}, {})
    >>> power(d, {"E": OrbitState((1, 2, 0), (0, 0, 0))}, -1)
    {'E': OrbitState(pieces=(2, 0, 1), orientation=(0, 0, 0))}
    >>> power(d, {"E": OrbitState((1, 2, 0), (0, 0, 0))}, 10 ** 20)["E"].pieces  # 10^20 = 1 mod 3
    (1, 2, 0)
    """
    base = a if k >= 0 else invert(definition, a)
    return repeated(base, abs(k), lambda x, y: compose(definition, x, y), identity(definition))


def named_positions(definition: Definition) -> dict[str, Position]:
    """Every name a move sequence may use: generators, rotations, and derived
    moves evaluated (in any order; a derived move may use another).

    Raises :class:`~permgroup.errors.InputError` for a derived move that uses an
    unknown name or, through others, itself.

    >>> d = Definition("t", (Orbit("E", 3),), {}, {"A": {"E": OrbitState((1, 2, 0), (0,) * 3)}},
    ...                derived={"B": "A2", "C": "[B: A]"})
    >>> named_positions(d)["B"]["E"].pieces
    (2, 0, 1)
    >>> bad = Definition("t", (Orbit("E", 3),), {}, {}, derived={"P": "Q", "Q": "P'"})
    >>> named_positions(bad)
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: derived move 'P' refers to itself (P -> Q -> P)
    """
    from permgroup.errors import InputError
    from permgroup.formats.alg import evaluate

    named: dict[str, Position] = {**definition.moves, **definition.rotations}

    def resolve(name: str, path: tuple[str, ...]) -> Position:
        if name in named:
            return named[name]
        if name in path:
            chain = " -> ".join(path[path.index(name):] + (name,))
            raise InputError(f"derived move {path[path.index(name)]!r} refers to itself ({chain})")
        known = [*named, *(d for d in definition.derived if d not in named)]
        position = evaluate(definition.derived[name], lambda m: resolve(m, path + (name,)),
                            algebra(definition), known, f"derived move {name!r}")
        named[name] = position
        return position

    for name in definition.derived:
        resolve(name, ())
    return named


def apply_alg(definition: Definition, text: str, start: Position | None = None,
              named: dict[str, Position] | None = None) -> Position:
    """The position an alg makes from ``start`` (default: solved).

    >>> d = Definition("t", (Orbit("E", 3),), {"E": OrbitState((0, 1, 2), (0,) * 3)},
    ...                {"A": {"E": OrbitState((1, 2, 0), (0,) * 3)}})
    >>> apply_alg(d, "A2'")["E"].pieces
    (1, 2, 0)
    """
    from permgroup.formats.alg import evaluate

    named = named_positions(definition) if named is None else named
    position = dict(definition.solved if start is None else start)
    return compose(definition, position,
                   evaluate(text, named.__getitem__, algebra(definition), named, "moves"))


def algebra(definition: Definition):
    """The definition's positions as an :class:`~permgroup.formats.alg.Algebra`,
    for evaluating algs without expanding them.

    >>> d = Definition("t", (Orbit("E", 3),), {}, {"A": {"E": OrbitState((1, 2, 0), (0,) * 3)}})
    >>> algebra(d).power(d.moves["A"], 10 ** 20)["E"].pieces
    (1, 2, 0)
    """
    from permgroup.formats.alg import Algebra

    return Algebra(identity(definition), lambda a, b: compose(definition, a, b),
                   lambda a: invert(definition, a), lambda a, k: power(definition, a, k))
