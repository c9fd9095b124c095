"""The Cayley graphs the literature studies beside puzzles, by name.

Every family member is a :class:`~permgroup.formats.definition.Definition`
(one orbit of ``n`` pieces; signed pieces for the burnt pancakes; the pieces
its moves show for the cube), so it works
wherever a puzzle name does: ``permgroup table lrx-11``, ``permgroup order
pancake-9``, ``explore.load_puzzle("coxeter-6")``.  A move says, for each
position ``i``, which position the piece now at ``i`` came from.  In ``qtm``
a generator and its inverse count one move each (an involution is one move).

=========================  ==================================================
name                       generators
=========================  ==================================================
``lrx-N``                  ``L`` (shift left), its inverse ``L'`` (also
                           named ``R``), ``X`` (swap positions 0 and 1)
``lx-N``                   ``L`` and ``X`` (in ``qtm``, ``L'`` counts too:
                           the graph of ``lrx-N``)
``pancake-N``              ``Rk``: reverse the first ``k``, ``k = 2..N``
``burnt-pancake-N``        ``Rk``: reverse and flip the first ``k``,
                           ``k = 1..N``
``topspin-N[-K]``          ``L``, ``L'`` (``R``) and ``T``: reverse the first
                           ``K`` (default 4)
``coxeter-N``              ``Si``: swap positions ``i-1`` and ``i``,
                           ``i = 1..N-1``
``transpositions-N``       ``Ti_j``: swap positions ``i < j``
``hungarian-A-I-B-J``      ``A`` and ``B`` turn two rings of ``A`` and ``B``
                           points one step; they share point 0 and, when
                           ``I, J > 0``, a point ``I`` steps along ring ``A``
                           and ``J`` steps along ring ``B`` (``I = J = 0``:
                           one shared point)
``globe-A-B``              ``r0..rA`` turn the ``A+1`` rows of ``2B`` cells,
                           ``f0..f(2B-1)`` turn a half of the globe over
``wreath-N``               ``l``, ``r`` turn two rings of ``N`` cells that
                           share two (Santa's ``wreath_N/N``)
``cube-N``                 ``fi``, ``ri``, ``di`` turn layer ``i`` of the
                           ``N x N x N`` cube (every slice): Santa 2023's
                           ``cube_N/N/N``, sticker for sticker
=========================  ==================================================

>>> d = family_definition("pancake-4")
>>> list(d.moves), d.orbits[0].size
(['R2', 'R3', 'R4'], 4)
>>> family_definition("skewb") is None
True
"""
from __future__ import annotations

import functools
import numbers as numbers_
import re
from collections.abc import Callable

from permgroup.errors import InputError, InputTypeError
from permgroup.formats.definition import Definition, Orbit, OrbitState

#: the most points a family member may have (its moves are listed in full:
#: ``transpositions-N`` has N(N-1)/2 of them)...
MAX_POINTS = 256
#: ... and the most cells of a globe, wreath or cube, whose moves are a few a
#: row or layer (Santa's 33x33x33 has 6,534 stickers; the engine's stabilizer
#: chains take puzzles of 10^4 points)
MAX_CELLS = 10_000

_NAME = re.compile(r"([a-z]+(?:-[a-z]+)*)-(\d+(?:-\d+)*)")


def _definition(name: str, n: int, moves: dict[str, list[int]], *,
                flips: dict[str, list[int]] | None = None,
                derived: dict[str, str] | None = None, piece: str = "point") -> Definition:
    """One orbit of ``n`` pieces called ``piece`` (two orientations when
    ``flips`` is given)."""
    k = 2 if flips is not None else 1
    zero = (0,) * n
    return Definition(
        name, (Orbit(piece, n, k),), {piece: OrbitState(tuple(range(n)), zero)},
        {m: {piece: OrbitState(tuple(p), tuple(flips[m]) if flips else zero)}
         for m, p in moves.items()},
        derived=dict(derived or {}))


def _shift(n: int) -> list[int]:
    return [(i + 1) % n for i in range(n)]


def _swap(n: int, i: int, j: int) -> list[int]:
    p = list(range(n))
    p[i], p[j] = j, i
    return p


def _reversal(n: int, k: int) -> list[int]:
    return list(range(k - 1, -1, -1)) + list(range(k, n))


def _whole_numbers(family: Callable[..., Definition]) -> Callable[..., Definition]:
    """A family's constructor, its arguments checked to be whole numbers of at
    most :data:`MAX_POINTS` (every family has at least as many points as its
    largest argument) before it builds anything (``lrx("x")``, ``lrx(10**9)``)."""
    @functools.wraps(family)
    def checked(*args: int, **kwargs: int) -> Definition:
        numbers = [*args, *kwargs.values()]
        name = "-".join([family.__name__.replace("_", "-"), *map(str, numbers)])
        for n in numbers:
            if isinstance(n, bool) or not isinstance(n, numbers_.Integral):
                raise InputTypeError(f"{name}: the parameters are whole numbers, got "
                                     f"{type(n).__name__}")
        _need(name, max(numbers, default=0) <= MAX_POINTS,
              f"families here have at most {MAX_POINTS} points")
        return family(*args, **kwargs)
    return checked


def _need(name: str, ok: bool, rule: str) -> None:
    if not ok:
        raise InputError(f"{name}: {rule}")


@_whole_numbers
def lrx(n: int) -> Definition:
    """LRX: the permutations of ``n`` points generated by the two shifts and one
    transposition; its growth for n = 3..11 is the published one (CayleyPy's
    growth tables), e.g. n = 5: 1, 3, 6, 10, 16, 24, 29, 21, 6, 3, 1.

    >>> from permgroup.tables.orbit_table import build_orbit_table
    >>> build_orbit_table(lrx(5), "qtm").distribution()
    [1, 3, 6, 10, 16, 24, 29, 21, 6, 3, 1]
    """
    name = f"lrx-{n}"
    _need(name, n >= 3, "lrx-N needs N >= 3")
    return _definition(name, n, {"L": _shift(n), "X": _swap(n, 0, 1)}, derived={"R": "L'"})


@_whole_numbers
def lx(n: int) -> Definition:
    """LX: the shift ``L`` and the transposition ``X`` of the first two points;
    counted in the metric ``gens`` (the generators alone: a directed graph) its
    growth is the published one (CayleyPy's growth tables; OEIS A039745 its
    diameters), e.g. n = 5: 1, 2, 3, 5, 8, 12, 15, 20, 22, 19, 11, 2; in ``qtm``
    ``L'`` is a move too, and the graph is LRX's.

    >>> from permgroup.tables.orbit_table import build_orbit_table
    >>> build_orbit_table(lx(5), "gens").distribution()
    [1, 2, 3, 5, 8, 12, 15, 20, 22, 19, 11, 2]
    >>> build_orbit_table(lx(4), "qtm").distribution()
    [1, 3, 5, 6, 5, 3, 1]
    """
    name = f"lx-{n}"
    _need(name, n >= 3, "lx-N needs N >= 3")
    return _definition(name, n, {"L": _shift(n), "X": _swap(n, 0, 1)})


@_whole_numbers
def pancake(n: int) -> Definition:
    """The pancake graph: reversals of the first ``k`` of ``n`` points,
    ``k = 2..n``; its diameters are the pancake numbers (OEIS A058986:
    0, 1, 3, 4, 5, 7, 8, 9, 10, 11 for n = 1..10).

    >>> from permgroup.tables.orbit_table import build_orbit_table
    >>> build_orbit_table(pancake(6), "qtm").diameter
    7
    """
    name = f"pancake-{n}"
    _need(name, n >= 2, "pancake-N needs N >= 2")
    return _definition(name, n, {f"R{k}": _reversal(n, k) for k in range(2, n + 1)})


@_whole_numbers
def burnt_pancake(n: int) -> Definition:
    """The burnt pancake graph: reversals of the first ``k`` of ``n`` signed
    points that also flip each point reversed, ``k = 1..n``; its diameters are
    the burnt pancake numbers (OEIS A078941: 1, 4, 6, 8, 10, 12, 14, 15, 17,
    18 for n = 1..10).

    >>> from permgroup.tables.orbit_table import build_orbit_table
    >>> build_orbit_table(burnt_pancake(4), "qtm").distribution()
    [1, 4, 12, 36, 90, 124, 96, 18, 3]
    """
    name = f"burnt-pancake-{n}"
    _need(name, n >= 1, "burnt-pancake-N needs N >= 1")
    moves = {f"R{k}": _reversal(n, k) for k in range(1, n + 1)}
    flips = {f"R{k}": [1] * k + [0] * (n - k) for k in range(1, n + 1)}
    return _definition(name, n, moves, flips=flips, piece="pancake")


@_whole_numbers
def topspin(n: int, k: int = 4) -> Definition:
    """Top spin: a ring of ``n`` points turned both ways and a turntable
    reversing the first ``k`` (4 on the toy); its growth for n = 4..11 is the
    published one (CayleyPy's growth tables), e.g. n = 6: 1, 3, 6, 11, 20,
    37, 63, 103, 165, 152, 106, 46, 7.

    >>> from permgroup.tables.orbit_table import build_orbit_table
    >>> build_orbit_table(topspin(6), "qtm").distribution()
    [1, 3, 6, 11, 20, 37, 63, 103, 165, 152, 106, 46, 7]
    """
    name = f"topspin-{n}" if k == 4 else f"topspin-{n}-{k}"
    _need(name, n >= k >= 2, "topspin-N-K needs N >= K >= 2")
    return _definition(name, n, {"L": _shift(n), "T": _reversal(n, k)}, derived={"R": "L'"})


@_whole_numbers
def coxeter(n: int) -> Definition:
    """The bubble-sort graph: the adjacent transpositions (the Coxeter
    generators of S_n); the distance is the number of inversions, so the
    growth is a row of the Mahonian numbers (OEIS A008302), n = 4:
    1, 3, 5, 6, 5, 3, 1.

    >>> from permgroup.tables.orbit_table import build_orbit_table
    >>> build_orbit_table(coxeter(4), "qtm").distribution()
    [1, 3, 5, 6, 5, 3, 1]
    """
    name = f"coxeter-{n}"
    _need(name, n >= 2, "coxeter-N needs N >= 2")
    return _definition(name, n, {f"S{i}": _swap(n, i - 1, i) for i in range(1, n)})


@_whole_numbers
def transpositions(n: int) -> Definition:
    """The transposition graph: every transposition of ``n`` points; the
    distance is ``n`` minus the number of cycles, so the growth is a row of
    the unsigned Stirling numbers of the first kind (OEIS A094638),
    n = 5: 1, 10, 35, 50, 24.

    >>> from permgroup.tables.orbit_table import build_orbit_table
    >>> build_orbit_table(transpositions(5), "qtm").distribution()
    [1, 10, 35, 50, 24]
    """
    import numpy as np

    name = f"transpositions-{n}"
    _need(name, n >= 2, "transpositions-N needs N >= 2")
    # every swap at once (32,640 of them for n = 256)
    i, j = np.triu_indices(n, 1)
    swaps = np.tile(np.arange(n), (len(i), 1))
    rows = np.arange(len(i))
    swaps[rows, i], swaps[rows, j] = j, i
    return _definition(name, n, {f"T{a}_{b}": p
                                 for a, b, p in zip(i.tolist(), j.tolist(), swaps.tolist())})


@_whole_numbers
def hungarian(a: int, i: int, b: int, j: int) -> Definition:
    """Hungarian rings: two rings of ``a`` and ``b`` points, each turned one
    step either way; they share point 0 and, when ``i`` and ``j`` are both
    positive, the point ``i`` steps along the first ring and ``j`` steps
    along the second.  Its growth is the published one (CayleyPy's growth
    tables), e.g. ``hungarian-5-2-5-2``: 1, 4, 12, 32, 86, 228, 594, 1485,
    3337, 5692, 5860, 2520, 296, 13.

    >>> from permgroup.tables.orbit_table import build_orbit_table
    >>> build_orbit_table(hungarian(5, 2, 5, 2), "qtm").distribution()[-4:]
    [5860, 2520, 296, 13]
    """
    name = f"hungarian-{a}-{i}-{b}-{j}"
    _need(name, a >= 2 and b >= 2, "ring sizes must be at least 2")
    _need(name, (i == 0) == (j == 0), "I and J are both 0 (one shared point) or both positive")
    _need(name, i < a and j < b, "I must be below A and J below B")
    shared = 1 if i == 0 else 2
    n = a + b - shared
    first = list(range(a))
    second = [0] + list(range(a, n))  # the points of ring B in order, then the second
    if shared == 2:                   # shared point put in place j
        second = second[:j] + [i] + second[j:]
    moves = {}
    for ring_name, ring in (("A", first), ("B", second)):
        p = list(range(n))
        for k, x in enumerate(ring):  # the piece at ring[k - 1] steps to ring[k]
            p[x] = ring[k - 1]
        moves[ring_name] = p
    return _definition(name, n, moves)


def globe_moves(a: int, b: int) -> dict[str, list[int]]:
    """The moves of :func:`globe` (gather form, no size limit): ``r0..ra``
    turn a row one cell, ``f0..f(2b-1)`` turn half of the globe over.

    >>> globe_moves(1, 1)["f0"]   # row 0's cell 0 and row 1's cell 0 swap
    [2, 1, 0, 3]
    """
    width, rows = 2 * b, a + 1
    n = width * rows
    moves = {}
    for r in range(rows):
        p = list(range(n))
        for c in range(width):
            p[r * width + c] = r * width + (c + 1) % width
        moves[f"r{r}"] = p
    for f in range(width):
        p = list(range(n))
        for r in range(rows // 2):
            top = [r * width + (f + c) % width for c in range(b)]
            bottom = [(a - r) * width + (f + c) % width for c in range(b)]
            for x, y in zip(top, reversed(bottom)):
                p[x], p[y] = y, x
        moves[f"f{f}"] = p
    return moves


@_whole_numbers
def globe(a: int, b: int) -> Definition:
    """The globe: ``a + 1`` rows of ``2b`` cells (Kaggle Santa 2023's
    ``globe_a/b``); ``r0..ra`` turn a row one cell, ``f0..f(2b-1)`` turn over
    the half of the globe starting at column ``j``: the ``b`` cells of row
    ``i`` and of row ``a - i`` swap, reversed.  Its growth is the published
    one (CayleyPy's growth tables), e.g. ``globe-2-1``: 1, 5, 14, 18, 9, 1.

    >>> from permgroup.tables.orbit_table import build_orbit_table
    >>> build_orbit_table(globe(2, 1), "qtm").distribution()
    [1, 5, 14, 18, 9, 1]
    """
    name = f"globe-{a}-{b}"
    _need(name, a >= 1 and b >= 1, "globe-A-B needs A >= 1 and B >= 1")
    n = 2 * b * (a + 1)
    _need(name, n <= MAX_CELLS, f"{n} cells; a globe here has at most {MAX_CELLS:,}")
    return _definition(name, n, globe_moves(a, b))


def wreath_moves(n: int) -> dict[str, list[int]]:
    """The moves of :func:`wreath` (gather form, no size limit).

    >>> wreath_moves(6)["r"]
    [6, 1, 8, 3, 4, 5, 7, 2, 9, 0]
    """
    d = -(-n // 4)          # the second shared cell: a quarter of the way round
    cells = 2 * n - 2
    left = [(i + 1) % n for i in range(n)] + list(range(n, cells))
    # the second ring, each cell followed by the one its piece comes from
    new = list(range(n, cells))
    ring = [0, *new[:n - d - 2], d, *new[n - d - 2:]]
    right = list(range(cells))
    for k, x in enumerate(ring):
        right[x] = ring[(k + 1) % n]
    return {"l": left, "r": right}


@_whole_numbers
def wreath(n: int) -> Definition:
    """The wreath: two rings of ``n`` cells sharing two (Kaggle Santa 2023's
    ``wreath_n/n``): ``l`` turns the first ring (cells ``0..n-1``) one cell,
    ``r`` the second, which meets the first at cells 0 and ``ceil(n/4)``.

    >>> from permgroup.formats.stickers import to_puzzle
    >>> to_puzzle(wreath(6)).group().order()   # every arrangement of the ten cells
    3628800
    """
    name = f"wreath-{n}"
    _need(name, n >= 4, "wreath-N needs N >= 4")
    _need(name, 2 * n - 2 <= MAX_CELLS, f"{2 * n - 2} cells; a wreath here has at most "
          f"{MAX_CELLS:,}")
    return _definition(name, 2 * n - 2, wreath_moves(n))


def cube_moves(n: int) -> dict[str, list[int]]:
    """The moves of :func:`cube`, Santa's ``cube_n/n/n`` (gather form, as in
    ``puzzle_info.csv``: ``new[i] = old[p[i]]``; no size limit).

    >>> len(cube_moves(2)), cube_moves(2)["f0"][:4]
    (6, [0, 1, 19, 17])
    """
    from permgroup.perm import inverse
    from puzzles.cube_geometry import santa_cube_moves

    return {name: list(inverse(p)) for name, p in santa_cube_moves(n).items()}


@_whole_numbers
def cube(n: int) -> Definition:
    """The ``n x n x n`` cube with every layer turned (Kaggle Santa 2023's
    ``cube_n/n/n``, sticker for sticker).  ``fi``, ``ri``, ``di`` turn the
    layer ``i`` deep from F, R and D a quarter clockwise, seen from that face;
    the ``6 n²`` stickers are numbered face by face in Santa's order U F R B L
    D, each face row by row.  Its pieces are found from the
    moves (corners, edges or wings, centres), every sticker distinct, as in
    Santa's ``puzzle_info.csv``; the faces' colours are its picture's.

    >>> d = cube(2)
    >>> [(o.size, o.orientations) for o in d.orbits], d.puzzle.group().order()
    ([(8, 3)], 88179840)
    """
    from permgroup.formats.stickers import definition_of
    from permgroup.puzzle import Puzzle
    from puzzles.cube_geometry import santa_cube_moves

    name = f"cube-{n}"
    _need(name, n >= 2, "cube-N needs N >= 2")
    degree = 6 * n * n
    _need(name, degree <= MAX_CELLS, f"{degree} stickers; a cube here has at most "
          f"{MAX_CELLS:,}")
    return definition_of(Puzzle(name, degree, dict(santa_cube_moves(n)),
                                solved=tuple(range(degree))))


#: family name -> (the function, its parameter count range, usage)
FAMILIES: dict[str, tuple[Callable[..., Definition], tuple[int, int], str]] = {
    "lrx": (lrx, (1, 1), "lrx-N"),
    "lx": (lx, (1, 1), "lx-N"),
    "pancake": (pancake, (1, 1), "pancake-N"),
    "burnt-pancake": (burnt_pancake, (1, 1), "burnt-pancake-N"),
    "topspin": (topspin, (1, 2), "topspin-N[-K]"),
    "coxeter": (coxeter, (1, 1), "coxeter-N"),
    "transpositions": (transpositions, (1, 1), "transpositions-N"),
    "hungarian": (hungarian, (4, 4), "hungarian-A-I-B-J"),
    "globe": (globe, (2, 2), "globe-A-B"),
    "wreath": (wreath, (1, 1), "wreath-N"),
    "cube": (cube, (1, 1), "cube-N"),
}


def family_definition(name: str) -> Definition | None:
    """The definition of a family member (``"lrx-11"``, ``"topspin-9-4"``),
    ``None`` for a name of no family; :class:`InputError` for a family name
    with the wrong parameters.

    >>> family_definition("coxeter-3").moves["S1"]["point"].pieces
    (1, 0, 2)
    >>> family_definition("pancake-1")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: pancake-1: pancake-N needs N >= 2
    >>> family_definition("globe-3")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: globe-3: write globe-A-B
    """
    match = _NAME.fullmatch(name)
    if match is None or match.group(1) not in FAMILIES:
        return None
    return family_member(match.group(1), name)


def family_member(family: str, name: str) -> Definition | None:
    """The definition of ``name`` if it names a member of ``family`` (a key of
    :data:`FAMILIES`), else ``None``; :class:`InputError` for wrong parameters.

    >>> family_member("lrx", "lrx-4").name, family_member("lrx", "lx-4")
    ('lrx-4', None)
    """
    match = _NAME.fullmatch(name)
    if match is None or match.group(1) != family:
        return None
    make, (low, high), usage = FAMILIES[family]
    numbers = [int(x) for x in match.group(2).split("-")]
    if not low <= len(numbers) <= high:
        raise InputError(f"{name}: write {usage}")
    return make(*numbers)


def family_names() -> list[str]:
    """How to write a member of each family.

    >>> family_names()[:3]
    ['lrx-N', 'lx-N', 'pancake-N']
    """
    return [usage for _, _, usage in FAMILIES.values()]
