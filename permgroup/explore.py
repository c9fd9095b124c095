"""Questions about a puzzle's group: define, count, orbits, tables, shortest words.

A puzzle is a :class:`permgroup.puzzle.Puzzle`; a subgroup is the same puzzle
with fewer generators (:func:`subgroup`); a puzzle of your own is a few sympy
permutations (:func:`define_puzzle`).  Orders, membership, random elements
and subgroups come from the group's stabilizer chain (:func:`chain`, built
orbit by orbit in numpy); distributions,
diameters, distances and optimal words come from the BFS distance table
(:mod:`permgroup.tables.table`), which is built only when it fits: its size is the
coordinate size, known before anything is built (:func:`table_size`).

>>> from sympy.combinatorics import Permutation
>>> rings = define_puzzle("rings", {"A": Permutation(0, 1, 2, 3), "B": Permutation(0, 4, 2, 5)})
>>> order(rings), distribution(rings).counts, diameter(rings, "htm")
(24, [1, 4, 10, 8, 1], 3)
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from html import escape
from typing import TYPE_CHECKING

from permgroup.elements import Element, State, piece_form
from permgroup.errors import InputError, InputTypeError, require_positive, require_whole
from permgroup.metric import Metric, metric_label
from permgroup.normalize import orbit
from permgroup.puzzle import Puzzle
from permgroup.tables.registry import (MAX_ENTRIES, choose_anchor, element_space, state_count,
                                       symmetries_inside, table, table_size,
                                       working_puzzle)
from permgroup.words import parse_word, word_names, word_text

if TYPE_CHECKING:  # pragma: no cover
    from permgroup.formats.definition import Definition
    from permgroup.commutator_finder import CommutatorTable
    from permgroup.reachability import Reachability
    from permgroup.orbit_chain import OrbitChain
    from permgroup.structure import Structure
    from sympy.combinatorics import Permutation

# --- defining ---------------------------------------------------------------

def define_puzzle(name: str, moves: Mapping[str, Permutation | Sequence[int]], *,
                  solved: Sequence | None = None,
                  pieces: Mapping[str, Sequence[Sequence[int]]] | None = None,
                  symmetries: Mapping[str, Permutation | Sequence[int]] | None = None,
                  degree: int | None = None, renderer: str = "") -> Puzzle:
    """A puzzle from named sympy permutations (or array forms).

    The degree is the largest permutation size unless given; without ``pieces``
    each position is a piece of its own (kind ``"point"``), and without
    ``solved`` each position has its own colour (its number).

    >>> from sympy.combinatorics import Permutation
    >>> p = define_puzzle("swap", {"S": Permutation(0, 1), "C": Permutation(0, 1, 2)})
    >>> p.degree, p.generators["C"], p.pieces["point"]
    (3, (1, 2, 0), ((0,), (1,), (2,)))
    """
    def array(move, p) -> list[int]:
        if hasattr(p, "array_form"):
            return list(p.array_form)
        try:
            return [int(i) for i in p]
        except (TypeError, ValueError):
            raise InputError(f"{name}: move {move!r} must be a sympy Permutation or a list of "
                             f"positions 0..n-1, got {p!r}") from None

    if not isinstance(moves, Mapping) or not moves:
        raise InputError(f"{name}: moves must be a dict of at least one name -> permutation, "
                         f"got {moves!r}")
    forms = {k: array(k, p) for k, p in moves.items()}
    sym_forms = {k: array(k, p) for k, p in (symmetries or {}).items()}
    n = max(len(f) for f in [*forms.values(), *sym_forms.values()])
    if degree is not None:
        n = max(n, require_whole(degree, "degree", 1))
    pad = {k: tuple(f + list(range(len(f), n))) for k, f in forms.items()}
    sym_pad = {k: tuple(f + list(range(len(f), n))) for k, f in sym_forms.items()}
    piece_data = ({k: tuple(tuple(p) for p in v) for k, v in pieces.items()} if pieces
                  else {"point": tuple((i,) for i in range(n))})
    return Puzzle(name, n, pad, tuple(solved) if solved is not None else tuple(range(n)),
                  sym_pad, piece_data, renderer)


def load_definition(name_or_path: str) -> Definition:
    """The one model of a puzzle (:func:`permgroup.formats.resolve`): the
    :class:`~permgroup.formats.definition.Definition` of a name (a built-in
    puzzle, the library: ``skewb``, ``pyraminx``, ``dino``...), a family member
    (``lrx-11``, ``cube-4``), a definition file or ``PATH#TYPE``; its sticker
    view is its ``.puzzle``.

    >>> d = load_definition("skewb")
    >>> [(o.name, o.size, o.orientations) for o in d.orbits], list(d.moves)
    ([('corner', 8, 3), ('centre', 6, 1)], ['URF', 'URB', 'DRF', 'ULF'])
    >>> [(o.name, o.size) for o in load_definition("cube3").orbits]
    [('corner', 8), ('edge', 12)]
    """
    from permgroup.formats import resolve

    return resolve(_name(name_or_path, "load_definition"))


def load_puzzle(name_or_path: str) -> Puzzle:
    """A puzzle by name (a built-in: ``minicube``, ``cube3``...; the library:
    ``skewb``...; a family member) or from a definition file, as the engine's
    :class:`~permgroup.puzzle.Puzzle` (moves over sticker indices): the
    sticker view of its one model (:func:`load_definition`), drawn from its
    geometry where a plugin of the catalog knows its shape.

    >>> order(load_puzzle("pyraminx-notips")), load_puzzle("minicube").degree
    (933120, 24)
    """
    from permgroup.catalog import renderer_for

    puzzle = load_definition(_name(name_or_path, "load_puzzle")).puzzle
    return puzzle if puzzle.renderer else replace(puzzle, renderer=renderer_for(puzzle))


def _name(name_or_path: object, function: str) -> str:
    """A puzzle's name or a definition file's path, as text."""
    if isinstance(name_or_path, os.PathLike):
        return os.fspath(name_or_path)
    if not isinstance(name_or_path, str):
        raise InputTypeError(f"{function}: expected a puzzle's name or a definition file's "
                             f"path, got {type(name_or_path).__name__}")
    return name_or_path


def as_puzzle(puzzle: Puzzle | str, function: str = "explore") -> Puzzle:
    """The puzzle a public function was given: a :class:`Puzzle`, or a name or
    path :func:`load_puzzle` reads; :class:`InputTypeError` naming
    ``function`` for anything else.

    >>> as_puzzle("skewb").degree
    30
    >>> as_puzzle(None, "order")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputTypeError: order: expected a Puzzle or a puzzle's name, got NoneType
    """
    if isinstance(puzzle, Puzzle):
        return puzzle
    if isinstance(puzzle, (str, os.PathLike)):
        return load_puzzle(puzzle)
    raise InputTypeError(f"{function}: expected a Puzzle or a puzzle's name, got "
                         f"{type(puzzle).__name__}")


def _element(element: object, function: str) -> Element:
    if not isinstance(element, Element):
        raise InputTypeError(f"{function}: expected an Element (such as Element.from_word("
                             f"puzzle, \"R U\")), got {type(element).__name__}")
    return element


def subgroup(puzzle: Puzzle | str, moves: str | Sequence[str], name: str | None = None
             ) -> Puzzle:
    """The puzzle restricted to some moves: ``subgroup(puzzle, "R U")`` is ``<R, U>``.

    Moves are read as words (``"R2 U2"`` gives ``<R2, U2>``); everything else
    (solved colouring, pieces, symmetries, renderer) is kept.

    >>> p = Puzzle("p", 3, {"A": (1, 0, 2), "B": (0, 2, 1)})
    >>> q = subgroup(p, "A")
    >>> q.name, list(q.generators)
    ('p<A>', ['A'])
    """
    puzzle = as_puzzle(puzzle, "subgroup")
    word_text(moves, "subgroup")  # text or a list of names: nothing else
    names = moves.split() if isinstance(moves, str) else list(moves)
    for m in names:
        word = parse_word(puzzle, m)
        if len(word) != 1:
            raise InputError(f"{m!r} is not a single move of {puzzle.name}")
    names = [word_names(puzzle, parse_word(puzzle, m))[0] for m in names]
    return puzzle.restricted(names, name or f"{puzzle.name}<{','.join(names)}>")


# --- counting and orbits ----------------------------------------------------

def order(puzzle: Puzzle | str) -> int:
    """The order of the group the puzzle's moves generate, from its stabilizer
    chain built orbit by orbit (:func:`chain`).

    >>> order(Puzzle("p", 3, {"A": (1, 0, 2), "B": (0, 2, 1)}))
    6
    """
    return chain(as_puzzle(puzzle, "order")).order


def structure(puzzle: Puzzle | str) -> Structure:
    """What the puzzle's group is (:mod:`permgroup.structure`): the orbits of
    pieces found from the moves, each orbit's permutations (``S_n``/``A_n``)
    and orientations, the constraints tying them, each proven from the
    generators, and the one-line description; ``.order`` is the order it
    implies, ``.text()`` the whole account; in Jupyter it draws a table.

    >>> s = structure("cube3")
    >>> str(s), s.ascii()
    ('(C3^7 × C2^11) ⋊ ((A8 × A12) ⋊ C2)', '(C3^7 x C2^11) : ((A8 x A12) : C2)')
    >>> s.order == order(load_puzzle("cube3")), s.proven
    (True, True)
    >>> [c.text for c in s.constraints]
    ['corner parity = edge parity', 'corner twist sum ≡ 0 (mod 3)', 'edge flip sum ≡ 0 (mod 2)']
    """
    from permgroup.structure import structure as analyse

    return analyse(as_puzzle(puzzle, "structure"))


def sticker_orbits(puzzle: Puzzle | str) -> list[tuple[int, ...]]:
    """The orbits of positions under the moves, fixed positions included.

    >>> sticker_orbits(Puzzle("p", 4, {"A": (1, 0, 2, 3)}))
    [(0, 1), (2,), (3,)]
    """
    puzzle = as_puzzle(puzzle, "sticker_orbits")
    moves = list(puzzle.generators.values())
    seen: set[int] = set()
    result = []
    for x in range(puzzle.degree):
        if x not in seen:
            o = orbit(x, moves)
            seen |= o
            result.append(tuple(sorted(o)))
    return result


def piece_orbits(puzzle: Puzzle | str) -> dict[str, list[tuple[int, ...]]]:
    """For each kind of piece, the orbits of the pieces (by index) under the moves.

    >>> p = Puzzle("p", 4, {"A": (1, 0, 2, 3)}, pieces={"dot": ((0,), (1,), (2,), (3,))})
    >>> piece_orbits(p)
    {'dot': [(0, 1), (2,), (3,)]}
    """
    puzzle = as_puzzle(puzzle, "piece_orbits")
    result = {}
    for kind, pieces in puzzle.pieces.items():
        actions = [piece_form(pieces, m, kind).where for m in puzzle.generators.values()]
        seen: set[int] = set()
        orbits = []
        for k in range(len(pieces)):
            if k not in seen:
                o = orbit(k, actions)
                seen |= o
                orbits.append(tuple(sorted(o)))
        result[kind] = orbits
    return result


# --- tables -----------------------------------------------------------------

@dataclass(frozen=True)
class Distribution:
    """Number of states at each distance from the identity; draws a bar chart
    in Jupyter.

    >>> Distribution("p", "qtm", [1, 2]).diameter
    1
    """

    puzzle: str
    metric: str
    counts: list[int]

    @property
    def diameter(self) -> int:
        return len(self.counts) - 1

    @property
    def total(self) -> int:
        return sum(self.counts)

    def _repr_html_(self) -> str:
        peak = max(self.counts)
        bar_w, height = 28, 120
        bars = []
        for d, c in enumerate(self.counts):
            h = max(1, round(height * c / peak)) if c else 0
            x = d * bar_w
            bars.append(f'<rect x="{x + 2}" y="{height - h + 14}" width="{bar_w - 4}" '
                        f'height="{h}" fill="#4a78b5"><title>{d}: {c:,}</title></rect>'
                        f'<text x="{x + bar_w / 2}" y="{height + 28}" font-size="10" '
                        f'text-anchor="middle">{d}</text>')
        width = bar_w * len(self.counts)
        svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 34}">'
               f'{"".join(bars)}</svg>')
        rows = "".join(f"<td>{c:,}</td>" for c in self.counts)
        heads = "".join(f"<th>{d}</th>" for d in range(len(self.counts)))
        return (f"<div><b>{escape(self.puzzle)}</b>, {escape(self.metric)}: {self.total:,} "
                f"states, diameter {self.diameter}<br>{svg}<table><tr><th>depth</th>{heads}"
                f"</tr><tr><th>states</th>{rows}</tr></table></div>")


def distribution(puzzle: Puzzle | str, metric: Metric = "qtm", **options) -> Distribution:
    """How many states lie at each distance (up to whole-puzzle symmetry).

    >>> distribution(Puzzle("p", 3, {"A": (1, 2, 0)}, pieces={"dot": ((0,), (1,), (2,))})).counts
    [1, 2]
    """
    puzzle = as_puzzle(puzzle, "distribution")
    return Distribution(puzzle.name, metric_label(metric), table(puzzle, metric, **options)
                        .distribution())


def diameter(puzzle: Puzzle | str, metric: Metric = "qtm", **options) -> int:
    """The largest distance: God's number in ``metric``.

    >>> diameter(Puzzle("p", 4, {"A": (1, 2, 3, 0)}, pieces={"dot": ((0,), (1,), (2,), (3,))}))
    2
    """
    return table(as_puzzle(puzzle, "diameter"), metric, **options).diameter


# --- elements ---------------------------------------------------------------

def shortest_word(element: Element, metric: Metric = "qtm", **options) -> Element:
    """An optimal word for ``element`` in its puzzle's generators (GAP's
    ``Factorization``, but optimal), as an element built from that word: the
    one solve path (:func:`permgroup.solve`, ``optimal=True``; ``options`` such
    as ``time_limit`` and ``memory`` go to it).

    With whole-puzzle symmetries the word's product equals ``element`` up to a
    symmetry (``.normalized()`` of both agree).

    >>> p = Puzzle("p", 4, {"A": (1, 2, 3, 0)}, pieces={"dot": ((0,), (1,), (2,), (3,))})
    >>> shortest_word(Element.from_word(p, "A A A")).word
    ("A'",)
    """
    from permgroup.solution import solve as solve_path

    puzzle = _element(element, "shortest_word").puzzle
    found = solve_path(puzzle, Element.identity(puzzle), Element(puzzle, element.perm),
                       metric=metric, optimal=True, **{"time_limit": None, **options})
    return Element.from_word(puzzle, " ".join(found.word))


def distance(a: Element, b: Element, metric: Metric = "qtm", **options) -> int:
    """Moves from the state of ``a`` to the state of ``b`` (the depth of ``a⁻¹ b``),
    ``-1`` when the moves cannot get there: the one solve path
    (:func:`permgroup.solution.distance`; ``options`` such as ``time_limit``
    and ``memory`` go to it).

    >>> p = Puzzle("p", 4, {"A": (1, 2, 3, 0)}, pieces={"dot": ((0,), (1,), (2,), (3,))})
    >>> distance(Element.from_word(p, "A"), Element.from_word(p, "A'"))
    2
    """
    from permgroup.solution import distance as distance_path

    _element(a, "distance"), _element(b, "distance")
    if a.puzzle.degree != b.puzzle.degree:
        raise InputError(f"distance: elements of {a.puzzle.name} and {b.puzzle.name} act on "
                         "different stickers")
    return distance_path(a.puzzle, a, b, metric=metric, **options)


def solve(puzzle: Puzzle | str, start, goal=None, *, mismatches: int = 0,
          time_limit: float = 60.0, metric: Metric = "qtm") -> list[str]:
    """A word taking ``start`` to ``goal`` (default: solved), checked by applying it
    before it is returned: the one solve path (:func:`permgroup.solve`),
    optimal when an exact method answers in part of the time (a table or an
    exact search), else a chain of subgroups' or the generic solver's.  States
    are words, elements, :class:`State` colourings or sequences of colours; at
    most ``mismatches`` positions may differ at the end.  :class:`InputError`
    when the goal cannot be reached (the law named) or no word is found
    within ``time_limit`` seconds.

    >>> p = define_puzzle("ring", {"T": [1, 2, 3, 0]}, solved="aabb")
    >>> solve(p, "abba")
    ['T']
    >>> solve(p, "abab")
    Traceback (most recent call last):
    ...
    permgroup.errors.UnreachableError: ring: the goal cannot be reached from the start: ...
    """
    from permgroup.budget import parse_time_limit
    from permgroup.solution import solve as solve_path

    if not isinstance(puzzle, (str, os.PathLike)):
        puzzle = as_puzzle(puzzle, "solve")
    return solve_path(puzzle, start, goal, metric=metric,
                      mismatches=require_whole(mismatches, "mismatches"),
                      time_limit=parse_time_limit(time_limit)).word


def reachable(puzzle: Puzzle | Element, state=None) -> Reachability:
    """Whether a state can be reached from solved and, if not, why: which
    orbit, which invariant (parity, twist sum, flip sum), a piece that cannot
    reach a place, a colour count that differs (:mod:`permgroup.reachability`).
    ``state`` is an :class:`Element`, a :class:`State` or a sequence of colours;
    ``reachable(element)`` asks about the element's own puzzle.  ``bool()`` of
    the answer is the yes or no.

    >>> p = Puzzle("p", 3, {"A": (1, 2, 0)})
    >>> bool(reachable(Element(p, (1, 2, 0)))), bool(reachable(Element(p, (1, 0, 2))))
    (True, False)
    >>> print(reachable("cube3", Element.from_word(load_puzzle("cube3"), "R").state()))
    reachable
    """
    from permgroup.reachability import reachable as decide

    if state is None and isinstance(puzzle, Element):
        puzzle, state = puzzle.puzzle, puzzle
    puzzle = as_puzzle(puzzle, "reachable")
    if state is None:
        raise InputError(f"reachable({puzzle.name!r}): which state?  Give an Element, a State "
                         f"or a sequence of {puzzle.degree} colours")
    return decide(puzzle, state)


# --- the group: its stabilizer chain -----------------------------------------

def chain(puzzle: Puzzle | str) -> OrbitChain:
    """The stabilizer chain of the puzzle's group, built orbit by orbit
    (:mod:`permgroup.orbit_chain`): its ``order`` (proven), ``contains`` and
    ``why_not`` (membership, GAP's ``g in G``), ``random_elements``, and its
    ``factors``, one per orbit of pieces: the pieces and their stickers, the
    subgroup of elements that move that orbit alone (``A24``, or a chain), its
    index.  In Jupyter it draws a table.

    >>> c = chain("cube3")
    >>> c.order, [f.describe() for f in c.factors], c.glue.order
    (43252003274489856000, ['order 44,089,920 (index 2)', 'order 490,497,638,400 (index 2)'], 2)
    """
    from permgroup.orbit_chain import puzzle_chain

    return puzzle_chain(as_puzzle(puzzle, "chain"))


def contains(puzzle: Puzzle | str, element: Element | Sequence[int]) -> bool:
    """Whether an element (an :class:`Element`, or a permutation of the
    stickers in array form) is in the puzzle's group: GAP's ``g in G``, from
    the chain (:func:`reachable` says why not, and reads colourings).

    >>> cube = load_puzzle("cube3")
    >>> contains(cube, Element.from_word(cube, "R U R'")), contains(cube, (1, 0) + tuple(range(2, 54)))
    (True, False)
    """
    import numpy as np

    perm = element.perm if isinstance(element, Element) else element
    return bool(chain(puzzle).contains(np.asarray(perm)))


def random_element(puzzle: Puzzle | str, seed: int | None = None) -> Element:
    """A uniformly random element of the puzzle's group (GAP's
    ``Random(G)``), from its chain.

    >>> cube = load_puzzle("cube3")
    >>> contains(cube, random_element(cube, seed=1))
    True
    """
    import numpy as np

    p = as_puzzle(puzzle, "random_element")
    perm = chain(p).random_elements(1, np.random.default_rng(seed))[0]
    return Element(p, tuple(int(x) for x in perm))


def stabilizer(puzzle: Puzzle | str, points: int | Sequence[int], name: str | None = None,
               *, setwise: bool = False) -> Puzzle:
    """The subgroup of elements that fix each of ``points`` (stickers), or
    with ``setwise`` that map the set of them onto itself, as a puzzle whose
    moves generate it (``s1``, ``s2``...): GAP's ``Stabilizer`` (of a point,
    of several one after another, of a set ``OnSets``).  Proven: its order is
    ``|G|`` over the size of the orbit (:mod:`permgroup.subgroups`).

    >>> cube = load_puzzle("cube3")
    >>> corner = stabilizer(cube, cube.pieces["corner"][0])
    >>> order(corner), order(cube) // order(corner)
    (1802166803103744000, 24)
    >>> order(cube) // order(stabilizer(cube, cube.pieces["corner"][0], setwise=True))
    8
    """
    from permgroup.subgroups import set_stabilizer
    from permgroup.subgroups import stabilizer as stabilize

    p = as_puzzle(puzzle, "stabilizer")
    where = _points(p, points, "stabilizer")
    found = (set_stabilizer if setwise else stabilize)(chain(p), where)
    gens = [tuple(int(x) for x in g) for g in found.generators]
    sub = define_puzzle(name or f"{p.name}_{{{','.join(map(str, where))}}}",
                        {f"s{i + 1}": g for i, g in enumerate(gens)} or {"s1": tuple(range(p.degree))},
                        solved=p.solved, degree=p.degree)
    from permgroup.orbit_chain import remember

    remember(sub, found)
    return sub


def _points(puzzle: Puzzle, points: int | Sequence[int], function: str) -> list[int]:
    """A point or points of the puzzle (stickers ``0..degree-1``), checked."""
    from numbers import Integral

    where = [points] if isinstance(points, Integral) else list(points) \
        if isinstance(points, Sequence) or hasattr(points, "__array__") else None
    if not where or any(not isinstance(x, Integral) or not 0 <= x < puzzle.degree
                        for x in where):
        raise InputError(f"{function}: expected a point or points (stickers) 0 to "
                         f"{puzzle.degree - 1} of {puzzle.name}, got {points!r}")
    return [int(x) for x in where]


def blocks(puzzle: Puzzle | str, points: Sequence[int]) -> list[tuple[int, ...]]:
    """The finest block system of the puzzle's group in which ``points`` lie
    in one block (GAP's ``Blocks`` with a seed): every element maps a block
    onto a block.  Only the orbits of ``points`` are divided.

    >>> cube = load_puzzle("cube3")
    >>> blocks(cube, cube.pieces["corner"][0][:2])[:2]
    [(0, 36, 47), (2, 11, 45)]
    """
    from permgroup.perm_arrays import moves_of
    from permgroup.pieces import minimal_blocks

    p = as_puzzle(puzzle, "blocks")
    label = minimal_blocks(moves_of(p), _points(p, points, "blocks"))
    found: dict[int, list[int]] = {}
    for x, b in enumerate(label.tolist()):
        if b >= 0:
            found.setdefault(b, []).append(x)
    return [tuple(v) for v in found.values()]


def derived_series(puzzle: Puzzle | str) -> list[int]:
    """The orders of ``G ≥ G' ≥ G'' ≥ ...`` (GAP's ``DerivedSeries``), down to
    the first term that is its own derived subgroup; a chain a term, so for
    groups up to about a Rubik's cube's size.

    >>> derived_series("minicube")
    [88179840, 44089920]
    """
    from permgroup.subgroups import derived_series as derive

    return [c.order for c in derive(chain(puzzle))]


def is_solvable(puzzle: Puzzle | str) -> bool:
    """Whether the puzzle's group is solvable (GAP's ``IsSolvable``): at once
    ``False`` when an orbit's local subgroup is ``A_n`` (``n ≥ 5``), else by
    the derived series.

    >>> is_solvable("cube3"), is_solvable(Puzzle("p", 4, {"A": (1, 2, 3, 0), "B": (1, 0, 2, 3)}))
    (False, True)
    """
    from permgroup.subgroups import is_solvable as solvable

    return solvable(chain(puzzle))


@dataclass(frozen=True)
class ElementOrders:
    """The orders of ``samples`` uniformly random elements: an *estimate* of
    the share of the group's elements of each order (in Jupyter, a table)."""

    puzzle: str
    samples: int
    counts: dict[int, int]

    def share(self, order_: int) -> float:
        """The estimated share of elements of this order."""
        return self.counts.get(order_, 0) / self.samples

    def text(self) -> str:
        rows = [f"element orders of {self.puzzle}, estimated from {self.samples:,} uniformly "
                "random elements:"]
        rows += [f"  {o:>12,}  {c / self.samples:7.2%}" for o, c in
                 sorted(self.counts.items(), key=lambda oc: (-oc[1], oc[0]))]
        return "\n".join(rows)

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><td>{o:,}</td><td>{c / self.samples:.2%}</td></tr>"
                       for o, c in sorted(self.counts.items(), key=lambda oc: (-oc[1], oc[0])))
        return (f"<div><b>{escape(self.puzzle)}</b>: element orders estimated from "
                f"{self.samples:,} uniformly random elements<table><tr><th>order</th>"
                f"<th>share</th></tr>{rows}</table></div>")


def element_orders(puzzle: Puzzle | str, samples: int = 1000, seed: int = 0) -> ElementOrders:
    """The distribution of element orders, estimated from ``samples``
    uniformly random elements (from the chain).

    >>> found = element_orders(Puzzle("p", 3, {"A": (1, 2, 0), "B": (1, 0, 2)}), 600)
    >>> sorted(found.counts), round(found.share(2), 1)
    ([1, 2, 3], 0.5)
    """
    import numpy as np

    from permgroup.perm_arrays import orders

    p = as_puzzle(puzzle, "element_orders")
    rng = np.random.default_rng(seed)
    c = chain(p)
    counts: dict[int, int] = {}
    for start in range(0, samples, 256):
        for o in orders(c.random_elements(min(256, samples - start), rng)):
            counts[o] = counts.get(o, 0) + 1
    return ElementOrders(p.name, samples, counts)


def commutators(puzzle: Puzzle | str, *, metric: Metric = "qtm", max_pieces: int = 4,
                per_effect: int = 3) -> CommutatorTable:
    """Short words that touch at most ``max_pieces`` pieces, grouped by what they
    do ("3-cycle of corners", "2 edges flipped"), shortest first: commutators
    ``[A, B]``, conjugates ``[S: [A, B]]`` and plain words, each with its length
    in ``metric`` (:mod:`permgroup.commutator_finder`, built on the solver's
    tools); in Jupyter a table with each effect drawn on the puzzle.

    >>> table = commutators("cube3")
    >>> [(f.length, f.form) for f in table.groups()["3-cycle of corners"]][:1]
    [(8, "[R, U L U']")]
    >>> table.groups()["3-cycle of edges"][0].length
    12
    """
    from permgroup.commutator_finder import commutators as find

    return find(as_puzzle(puzzle, "commutators"), metric=metric,
                max_pieces=require_whole(max_pieces, "max_pieces", 1),
                per_effect=require_whole(per_effect, "per_effect", 1))


def commutator_for(target: Element, *, metric: Metric = "qtm", time_limit: float = 10.0):
    """The shortest word found with exactly ``target``'s effect (say, these three
    corners cycled), a known commutator conjugated into place
    (:func:`permgroup.commutator_finder.commutator_for`).

    >>> cube = load_puzzle("cube3")
    >>> a, b, s = (Element.from_word(cube, w) for w in ("R", "U L U'", "D"))
    >>> found = commutator_for(a.commutator(b).conjugate(s))
    >>> found.element == a.commutator(b).conjugate(s), found.length
    (True, 10)
    """
    from permgroup.budget import Budget
    from permgroup.commutator_finder import commutator_for as find

    return find(_element(target, "commutator_for"), metric=metric,
                budget=Budget.of(time_limit))


# --- pictures ----------------------------------------------------------------

class Svg:
    """A picture: Jupyter shows it (``_repr_svg_``), ``str()`` gives its SVG
    text, and a console shows a line saying so, not the text itself.

    >>> svg = Svg('<svg width="10" height="20"></svg>')
    >>> svg
    <SVG picture, 10 x 20 px: str() gives its text, Jupyter shows it>
    >>> "<svg" in svg, svg.count("svg"), len(str(svg))
    (True, 2, 34)
    """

    def __init__(self, text: str):
        self.text = text

    def _repr_svg_(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        import re

        size = re.search(r'width="([^"]*)" height="([^"]*)"', self.text)
        shown = f", {size.group(1)} x {size.group(2)} px" if size else ""
        return f"<SVG picture{shown}: str() gives its text, Jupyter shows it>"

    def __contains__(self, part: str) -> bool:
        return part in self.text

    def __eq__(self, other: object) -> bool:
        return str(other) == self.text if isinstance(other, (Svg, str)) else NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)

    def count(self, part: str) -> int:
        """How many times ``part`` occurs in the SVG text."""
        return self.text.count(part)


def draw(puzzle_or_state: Puzzle | State | Element | str,
         moves: str | Sequence[str] | None = None,
         *, width: float = 900, frame: float = 200) -> Svg:
    """The picture of a state (a puzzle solved, a :class:`State` or an
    :class:`Element`'s colouring), drawn from the puzzle's geometry
    (:mod:`permgroup.drawing`); with ``moves`` (a word), the state and each
    step of the word side by side, each labelled with the move that made it,
    at most ``frame`` pixels wide, wrapped at ``width`` pixels.

    >>> p = define_puzzle("ring", {"T": [1, 2, 3, 0]}, solved="aabb")
    >>> svg = draw(p, "T T'")
    >>> svg.count("<svg"), svg.count("data-position="), ">1: T<" in svg
    (1, 12, True)
    """
    from permgroup.drawing import picture, sequence_svg
    from permgroup.perm import act

    width, frame = require_positive(width, "width"), require_positive(frame, "frame")
    if isinstance(puzzle_or_state, (Puzzle, str, os.PathLike)):
        puzzle = as_puzzle(puzzle_or_state, "draw")
        colours = tuple(puzzle.solved)
    elif isinstance(puzzle_or_state, State):
        puzzle, colours = puzzle_or_state.puzzle, tuple(puzzle_or_state.colours)
    elif isinstance(puzzle_or_state, Element):
        puzzle, colours = puzzle_or_state.puzzle, tuple(puzzle_or_state.state().colours)
    else:
        raise InputTypeError(f"draw: expected a Puzzle, a puzzle's name, a State or an "
                             f"Element, got {type(puzzle_or_state).__name__}")
    colours = colours or tuple(range(puzzle.degree))
    if moves is None:
        return Svg(picture(puzzle, colours))
    names = word_names(puzzle, parse_word(puzzle, word_text(moves, "draw")))
    states, labels = [colours], ["start"]
    for k, name in enumerate(names, 1):
        states.append(act(states[-1], puzzle.move_array(name)))
        labels.append(f"{k}: {name}")
    return Svg(sequence_svg(puzzle, states, labels, width, frame))


# --- interactive -------------------------------------------------------------

#: what to do when the widget's dependency is missing (permgroup is not on PyPI:
#: the extra is installed from a clone)
WIDGET_MISSING = ("explore.widget needs anywidget ({error}): in the folder of your permgroup "
                  "clone run  pip install '.[widget]'  (or just  pip install anywidget)")

def widget(puzzle_or_state: Puzzle | Element | str, metric: Metric = "qtm", **options):
    """A puzzle to turn in Jupyter, with live distances
    (:class:`permgroup.widget.PuzzleWidget`); needs ``anywidget`` (from a clone
    of permgroup: ``pip install '.[widget]'``, or ``pip install anywidget``).
    Starts solved for a puzzle, at the
    given state or element otherwise.

    >>> w = widget(Puzzle("p", 3, {"A": (1, 2, 0)}))
    >>> w.history = "A A"
    >>> w.state, w.element.order(), w.wait().distance
    ((1, 2, 0), 3, 1)
    """
    try:
        from permgroup.widget import widget as make
    except ImportError as error:
        raise ImportError(WIDGET_MISSING.format(error=error)) from error
    if isinstance(puzzle_or_state, (str, os.PathLike)):
        puzzle_or_state = as_puzzle(puzzle_or_state, "widget")
    return make(puzzle_or_state, metric, **options)


__all__ = ["define_puzzle", "load_definition", "load_puzzle", "subgroup", "order", "structure",
           "chain", "contains", "random_element", "stabilizer", "blocks", "derived_series",
           "is_solvable", "element_orders", "ElementOrders",
           "commutators", "commutator_for",
           "symmetries_inside", "state_count", "sticker_orbits",
           "piece_orbits", "choose_anchor", "working_puzzle", "element_space", "table_size", "table", "Distribution",
           "distribution", "diameter", "shortest_word", "distance", "reachable", "draw", "Svg",
           "widget", "MAX_ENTRIES"]
