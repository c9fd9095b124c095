"""One door to every answer: :func:`solve` takes any puzzle, a start and a goal
given any way, and returns a checked word (:class:`Solution`).

Every caller takes this one path (the command line's ``word`` and ``optimal``,
the contest formats, :mod:`permgroup.explore`, the puzzle modules' ``solve``
and ``distance``, the widget's read-outs):

1. the puzzle is resolved once (:func:`door`): a name (built-in, library,
   family member such as ``lrx-11``, a definition file, ``PATH#TYPE``) or a
   definition or puzzle already at hand;
2. the start and goal are read (:func:`task`): a word (``"R U R'"``), an
   :class:`~permgroup.elements.Element`, a :class:`~permgroup.elements.State`
   or a colouring (a sequence, or stickers separated by ``;`` as in Santa
   2023's files);
3. reachability is checked first, from the laws the moves obey
   (:func:`permgroup.reachability.reachable`, quick): an impossible target
   raises :class:`~permgroup.errors.UnreachableError` naming the law (a twist
   sum, a parity, a piece that cannot be there), with no table built;
4. the methods of :data:`METHODS` are tried in order under one
   :class:`~permgroup.budget.Budget`, until one proves its word optimal:
   ``table`` (a cached table, or one small enough to build in the time),
   ``search`` (the puzzle's own exact search, else a bidirectional one),
   ``chain`` (a subgroup chain: the puzzle's own two-phase, else
   :mod:`permgroup.solver.chain`) and ``greedy``
   (:func:`permgroup.solver.find_word`); once a method that proves nothing
   has answered, the rest are skipped.  When the input is a word, its reduced
   inverse is always a candidate (an exact search that rules out every
   shorter word proves it optimal);
5. the shortest candidate, its repeated moves merged where the metric counts
   a power as one move, is checked once, at the exit, by applying it; its
   move names keep the puzzle's own spelling (``X'``, or ``-X`` in Santa's
   files).

A built-in puzzle's definition may lend the path its own means (its
``hooks``: ``solve_exact`` and ``solve_chain``, see :class:`Door`); adding a
method is one entry in :data:`METHODS`.

>>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
>>> from permgroup.puzzle import Puzzle
>>> pair = Puzzle("pair", 4, {"A": (1, 2, 0, 3), "B": (0, 2, 3, 1)}, solved="abcd")
>>> found = solve(pair, "cabd")        # a colouring
>>> found.word, found.optimal, found.method
(["A'"], True, 'table')
>>> solve(pair, "A B").word            # a word: the position it makes from solved
["B'", "A'"]
>>> solve(pair, "bacd")                # two stickers swapped
Traceback (most recent call last):
...
permgroup.errors.UnreachableError: pair: the goal cannot be reached from the start: the pieces would be an odd permutation; every move is even on them
"""
from __future__ import annotations

import os
import time
import weakref
from collections import Counter, deque
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from permgroup.budget import Budget, MemoryBudgetError
from permgroup.elements import Element
from permgroup.errors import InputError, Stopped, TooLong, UnreachableError
from permgroup.formats.alg import Letter, power_name
from permgroup.metric import Metric, metric_label, metric_moves
from permgroup.perm import Perm, act, compose, identity, inverse, order, power
from permgroup.progress import Progress
from permgroup.puzzle import Puzzle

#: the share of the time left within which a table may be built
TABLE_SHARE = 0.5
#: the share of the time left an exact search may take when other methods follow;
#: it is tried where it fits (its space is small enough to search through, or a
#: word in hand bounds the depth it must reach: :func:`_search_fits`), else once
#: a heuristic word bounds it, or always when the puzzle lends its own
SEARCH_SHARE = 0.3
#: states an exact search may keep, per byte of its memory budget (a state, its
#: key and its place in the levels: about 200 bytes)
SEARCH_STATE_BYTES = 200
#: puzzles past this many stickers are not checked for reachability (reading
#: their laws takes longer than the answer is worth)
MAX_CHECKED = 2500


class NoWord(InputError):
    """No method found a word within the budget: the message says what each tried."""


@dataclass(frozen=True)
class Solution:
    """A checked word taking the start to the goal: ``word`` (move names, in the
    puzzle's own spelling), ``optimal`` (whether a method proved it shortest
    in the metric) and ``method`` (the one that found it: ``"table"``,
    ``"search"``, ``"chain"``, ``"greedy"``, ``"inverse"`` for the input's own
    word reversed, ``"solved"`` when there was nothing to do); ``notes``, what
    each method tried came to, and in how many seconds.

    >>> print(Solution(["R", "U"], False, "chain"))
    R U
    """

    word: list[str]
    optimal: bool
    method: str
    notes: tuple[str, ...] = field(default=(), compare=False)

    def __len__(self) -> int:
        return len(self.word)

    def __str__(self) -> str:
        return " ".join(self.word)


# --- the puzzle -------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Door:
    """What a puzzle argument stands for, as the solve path needs it: the
    sticker ``puzzle`` the engine works on and the one model, the
    ``definition``, whose view it is (none for a bare puzzle): its derived
    names keep the input's spelling, and its ``hooks`` lend a built-in's own
    table, exact search ``solve_exact(position, metric, max_depth, budget)``
    and chain ``solve_chain(position, metric, max_length, budget)``, each
    taking the element that makes the start from the goal."""

    puzzle: Puzzle
    definition: object = None
    #: what is worked out once per puzzle (each metric's moves and letters)
    known: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def name(self) -> str:
        return self.puzzle.name

    def __reduce__(self):
        # to another process without what was worked out here (tables, spaces)
        return (Door, (self.puzzle, self.definition))

    def hook(self, name: str) -> Callable | None:
        """The definition's own ``name`` function, if it lends one."""
        return self.definition.hooks.get(name) if self.definition is not None else None

    def spelling(self) -> dict[str, str]:
        """Engine move names printed otherwise: a definition's derived move that
        only renames one (Santa's ``-X`` for ``X'``)."""
        if self.definition is None:
            return {}
        return {text: name for name, text in self.definition.derived.items()
                if " " not in text.strip()}


_DOORS: dict[str, Door] = {}
_PUZZLE_DOORS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def door(puzzle) -> Door:
    """The :class:`Door` of a puzzle argument: a name or path
    (:func:`permgroup.formats.resolve`, the one door from a name to its
    :class:`~permgroup.formats.definition.Definition`), a definition, or a
    bare :class:`~permgroup.puzzle.Puzzle`.

    >>> door("skewb").definition.name, sorted(door("cube3").definition.hooks)
    ('skewb', ['solve_chain', 'solve_exact', 'table'])
    """
    from permgroup.formats.definition import Definition

    if isinstance(puzzle, Door):
        return puzzle
    if isinstance(puzzle, Puzzle):
        if puzzle not in _PUZZLE_DOORS:
            _PUZZLE_DOORS[puzzle] = Door(puzzle)
        return _PUZZLE_DOORS[puzzle]
    if isinstance(puzzle, Definition):
        if puzzle.partial is not None:
            raise InputError(f"{puzzle.name}'s moves depend on the position; "
                             "use permgroup solve for it")
        key = f"definition {id(puzzle)}"  # the door keeps it: the id stays its own
        if key not in _DOORS:
            if len(_DOORS) > 64:
                _DOORS.clear()
            _DOORS[key] = Door(puzzle.puzzle, puzzle)
        return _DOORS[key]
    if isinstance(puzzle, (str, os.PathLike)):
        name = os.fspath(puzzle)
        if name not in _DOORS:
            from permgroup.formats import resolve

            _DOORS[name] = door(resolve(name))
        return _DOORS[name]
    raise TypeError(f"a puzzle is a name, a Puzzle or a Definition, not {type(puzzle).__name__}")


# --- the start and the goal ---------------------------------------------------

Letters = tuple[Letter, ...]


@dataclass
class Task:
    """One question: take colouring ``start`` to colouring ``goal`` in
    ``metric`` (``mismatches`` positions may differ at the end).
    ``position`` is the element that makes the start from the goal
    (``act(goal, position) == start``) when the input or the colours tell it;
    ``given`` a word making the goal from the start, read from the input."""

    door: Door
    metric: Metric
    start: tuple
    goal: tuple
    position: Perm | None = None
    given: Letters | None = None
    mismatches: int = 0
    moves: dict[str, Perm] = field(default_factory=dict)
    letters: dict[str, tuple[str, int]] = field(default_factory=dict)
    progress: Progress | None = None
    #: whether the question is one of colourings whose pieces look alike (else
    #: ``position`` says all: two elements given, or colours that tell it)
    colourings: bool = False

    @property
    def puzzle(self) -> Puzzle:
        return self.door.puzzle


def _solved(puzzle: Puzzle) -> tuple:
    return tuple(puzzle.solved) if puzzle.solved else tuple(range(puzzle.degree))


def _letters(d: Door, text: str) -> Letters:
    """A word as letters ``(generator, exponent)`` (symmetries too), read in the
    puzzle's notation: alg notation with a definition's derived names (Santa's
    ``-X``, ``.`` between moves), else the engine's words (``RUR'U'``)."""
    from permgroup.words import parse_word

    text = text.replace(".", " ")
    if d.definition is None:
        return parse_word(d.puzzle, text, symmetries=True)
    from permgroup.formats.alg import expand

    definition = d.definition
    known = [*definition.moves, *definition.rotations, *definition.derived]
    out: list[tuple[str, int]] = []

    def add(name: str, k: int, depth: int) -> None:
        if name in definition.derived and name not in definition.moves:
            if depth > 20:
                raise InputError(f"derived move {name!r} refers to itself")
            inner = expand(definition.derived[name], known, f"derived move {name!r}")
            if k < 0:
                inner = [(m, -e) for m, e in reversed(inner)]
            for _ in range(abs(k)):
                for m, e in inner:
                    add(m, e, depth + 1)
            return
        out.append((name, k))

    for name, k in expand(text, known, "moves"):
        add(name, k, 0)
    letters = {**d.puzzle.generators, **d.puzzle.symmetries}
    return tuple((m, k % order(letters[m])) for m, k in out if k % order(letters[m]))


def _letters_perm(puzzle: Puzzle, letters: Letters) -> Perm:
    g = identity(puzzle.degree)
    table = {**puzzle.generators, **puzzle.symmetries}
    for name, k in letters:
        g = compose(g, power(table[name], k))
    return g


def _evaluated(d: Door, text: str, what: str) -> Perm:
    """The element of a word too long to expand (:class:`TooLong`): each
    bracket's power taken by cycles, whatever its exponent.

    >>> from permgroup.puzzle import Puzzle
    >>> ring = Puzzle("ring", 4, {"T": (1, 2, 3, 0)})
    >>> _evaluated(door(ring), "(T T)1000001", "start")   # T^2000002 = T^2
    (2, 3, 0, 1)
    """
    from permgroup.formats.alg import Algebra, evaluate
    from permgroup.words import alphabet

    puzzle = d.puzzle
    if d.definition is None:
        names = alphabet(puzzle, True)
    else:
        definition = d.definition
        names = [*definition.moves, *definition.rotations, *definition.derived]
    known: dict[str, Perm] = {}

    def element(name: str) -> Perm:
        if name not in known:
            known[name] = _letters_perm(puzzle, _letters(d, name))
        return known[name]

    algebra = Algebra(identity(puzzle.degree), compose, inverse, power)
    try:
        return evaluate(text.replace(".", " "), element, algebra, names, "moves")
    except InputError as exc:
        raise InputError(f"{what}: {exc}") from None


def _colours(d: Door, text: str) -> tuple | None:
    """A state written as text: stickers separated by ``;`` (Santa 2023's
    files), or one character per sticker, each a colour of the puzzle's
    (a facelet string); ``None`` when the text is not a state (a word)."""
    puzzle = d.puzzle
    if ";" in text:
        return tuple(c.strip() for c in text.strip().split(";"))
    solved = _solved(puzzle)
    if (len(text) == puzzle.degree and all(isinstance(c, str) and len(c) == 1 for c in solved)
            and set(text) <= set(solved)):
        return tuple(text)
    return None


def _read(d: Door, x, what: str) -> tuple[tuple, Letters | None, Perm | None]:
    """``(colouring, letters of the word it was given as, element)``."""
    from permgroup.elements import state_colours

    puzzle = d.puzzle
    solved = _solved(puzzle)
    if x is None and what == "goal":
        return solved, (), identity(puzzle.degree)
    if isinstance(x, Element):
        if x.puzzle.degree != puzzle.degree:
            raise InputError(f"{what}: an element of {x.puzzle.name}, not of {puzzle.name}")
        return act(solved, x.perm), x.letters, x.perm
    if isinstance(x, str):
        colours = _colours(d, x)
        if colours is None:
            try:
                letters = _letters(d, x)
            except TooLong:  # (R U)5000000: its element, nothing expanded
                g = _evaluated(d, x, what)
                return act(solved, g), None, g
            except InputError as exc:
                solved = _solved(puzzle)
                if x and all(isinstance(c, str) and len(c) == 1 for c in solved) and \
                        set(x) <= set(solved):  # meant as a state, one colour a sticker
                    raise InputError(f"{what}: a state of {len(x)} positions; {puzzle.name} "
                                     f"has {puzzle.degree}") from None
                raise InputError(f"{what}: {exc}") from None
            g = _letters_perm(puzzle, letters)
            return act(solved, g), letters, g
    else:  # a State, a sequence of colours, or 0..n-1 for a family's points
        colours = state_colours(puzzle, x)
    if len(colours) != puzzle.degree:
        raise InputError(f"{what}: a state of {len(colours)} stickers; {puzzle.name} has "
                         f"{puzzle.degree}")
    return colours, None, None


def task(puzzle, start, goal=None, *, metric: Metric | None = None, mismatches: int = 0
         ) -> Task:
    """The :class:`Task` of a question, reachability checked:
    :class:`UnreachableError` names why the goal cannot be reached.

    >>> from permgroup.puzzle import Puzzle
    >>> ring = Puzzle("ring", 4, {"T": (1, 2, 3, 0)}, solved="abcd")
    >>> t = task(ring, "T")
    >>> t.start, t.position, t.given
    (('d', 'a', 'b', 'c'), (1, 2, 3, 0), (('T', 3),))
    """
    d = door(puzzle)
    metric = metric or "qtm"
    x, x_word, a = _read(d, start, "start")
    y, y_word, b = _read(d, goal, "goal")
    given = None
    if x_word is not None and y_word is not None:
        from permgroup.words import invert_word, reduce_word

        given = reduce_word(d.puzzle, invert_word(d.puzzle, x_word) + tuple(y_word))
    moves, letters = _metric(d, metric)
    found = Task(d, metric, x, y, None, given, mismatches, moves, letters)
    elements = isinstance(start, Element) and isinstance(goal, Element)
    if elements:  # a question about elements: every sticker told apart
        found.start, found.goal = act(range(d.puzzle.degree), a), act(range(d.puzzle.degree), b)
    if a is not None and b is not None:
        found.position = compose(inverse(b), a)
    if mismatches == 0:
        _check(found, elements)
    else:
        found.colourings = True
    return found


def _metric(d: Door, metric: Metric) -> tuple[dict[str, Perm], dict[str, tuple[str, int]]]:
    """The metric's moves by name, and each as the power of a generator it is
    (worked out once per puzzle and metric)."""
    key = ("metric", metric_label(metric))
    if key not in d.known:
        try:
            moves = metric_moves(d.puzzle, metric)
        except (KeyError, ValueError) as exc:
            raise InputError(f"{d.name}: metric {metric_label(metric)!r}: {exc}") from None
        letters = {}
        for g, p in d.puzzle.generators.items():
            n = order(p)
            for k in range(1, n):
                letters.setdefault(power_name(g, k, n), (g, k))
        d.known[key] = moves, {name: letters[name] for name in moves if name in letters}
    return d.known[key]


def _check(t: Task, elements: bool) -> None:
    """Decide reachability by the laws the moves obey (quick, no table).  For
    ``elements`` (two elements given), the element between them; else the
    start colouring read against the goal's, piece by piece: when the colours
    tell every piece apart the reading is the position, else the question is
    one of colourings.  With whole-puzzle symmetries a start may be turned as
    a whole first."""
    from permgroup.reachability import reachable

    puzzle = t.puzzle
    if elements:
        found = reachable(puzzle, Element(puzzle, t.position), quick=True)
        if not found:
            raise UnreachableError(f"{t.door.name}: the goal cannot be reached from the start: "
                                   + "; ".join(found.reasons))
        return
    t.colourings = True
    if Counter(map(str, t.start)) != Counter(map(str, t.goal)):
        have, want = Counter(map(str, t.start)), Counter(map(str, t.goal))
        diff = [f"{c!r}: {have.get(c, 0)} in the start, {want.get(c, 0)} in the goal"
                for c in sorted(set(have) | set(want)) if have.get(c, 0) != want.get(c, 0)]
        raise UnreachableError(f"{t.door.name}: the start and the goal have different colours "
                               f"({'; '.join(diff[:4])})")
    if puzzle.degree > MAX_CHECKED:
        return
    working = puzzle if tuple(t.goal) == _solved(puzzle) else replace(puzzle, solved=t.goal)
    found = reachable(working, t.start, quick=True)
    if not found and puzzle.symmetries:
        for s in puzzle.symmetry_elements()[1:]:  # the start turned as a whole
            turned = reachable(working, act(t.start, s), quick=True)
            if turned:
                t.start, found = act(t.start, s), turned
                break
    if not found:
        raise UnreachableError(f"{t.door.name}: the goal cannot be reached from the start: "
                               + "; ".join(found.reasons))
    if found.element is not None:  # the colours tell the position
        t.position, t.colourings = found.element, False


# --- the methods --------------------------------------------------------------

def _fits(entries: int, n_moves: int, budget: Budget, cached: bool) -> bool:
    """Whether a table of ``entries`` may be used (cached: it fits in memory) or
    built (its breadth-first search, :func:`~permgroup.tables.bfs.bfs_memory`,
    fits in memory, and in the table's share of the time)."""
    from permgroup.tables.bfs import BUILD_RATE, bfs_memory

    if not budget.fits(entries if cached else bfs_memory(entries)):
        return False
    return cached or entries * n_moves / BUILD_RATE <= TABLE_SHARE * budget.left()


@contextmanager
def _building(t: Task, budget: Budget, title: str):
    """The progress callback of a table build: the caller's (``t.progress``),
    else a bar of its own, the budget checked after each level."""
    from permgroup.progress import building

    with building(t.progress, title) as report:
        yield budget.watch(report)


def _by_table(t: Task, budget: Budget, bound: int | None) -> list[str] | None:
    """A word down a table (:func:`_table`)."""
    found = _table(t, budget)
    if found is None:
        return None
    table, kind, key = found
    if kind == "positions":
        return table.solve_many([key])[0]
    return table.word(key) if kind == "elements" else table.path(key)


def _table_depth(t: Task, budget: Budget) -> int | None:
    """The distance read off a table (:func:`_table`) without walking a word."""
    found = _table(t, budget)
    if found is None:
        return None
    table, kind, key = found
    return table.distance(key) if kind == "positions" else table.depth(key)


def _table(t: Task, budget: Budget) -> tuple[object, str, object] | None:
    """``(table, kind, key)`` of the question: a definition's table over its
    positions (what ``permgroup table`` builds), the puzzle's own (its hooks), the
    Cayley table of the elements, or the colourings' table, whichever is
    cached or fits the budget; ``key`` is what to look up in it (a position,
    the element a word must make, the start colouring)."""
    from permgroup.tables import registry

    puzzle, metric, d = t.puzzle, t.metric, t.door
    title = f"{d.name} {metric_label(metric)} table"
    if d.definition is not None and not registry.rotated(d.definition) and \
            tuple(t.goal) == _solved(puzzle):
        from permgroup.formats.definition import position_bound

        position = (_definition_position(d, t.start) if t.position is None
                    else _position_of(d.definition, t.position))
        size = position_bound(d.definition)
        if position is not None and size > registry.MAX_ENTRIES:
            # the bound counts every twist and parity; the table, those the moves make
            size = _position_count(d, metric) or size
        if position is not None and size <= registry.MAX_ENTRIES:
            cached = registry.cache_path(d.definition, metric).exists()
            if cached or _fits(size, len(t.moves), budget, False):
                try:
                    with _building(t, budget, title) as report:
                        table = registry.load_or_build(d.definition, metric, "byte",
                                                       progress=report)
                except InputError:  # positions it cannot rank (the torus's alike cells)
                    table = None   # its colourings below
                if table is not None:
                    return table, "positions", position
    if t.position is not None and not t.colourings and \
            not (d.definition is not None and registry.beyond_any_table(d.definition)):
        space = _element_space(d, metric)
        if space is not None and space.size <= registry.MAX_ENTRIES:
            own = d.hook("table")
            if own is not None and puzzle.symmetries and metric in ("qtm", "htm") and \
                    _fits(space.size, space.n_moves, budget, False):
                from permgroup.tables.table import CayleyTable

                with _building(t, budget, title) as report:
                    found = own(metric, progress=report)  # the puzzle's own, at its anchor
                if isinstance(found, CayleyTable):
                    return found, "elements", inverse(t.position)
            cached = registry.table(puzzle, metric, build=False)
            if cached is not None or _fits(space.size, space.n_moves, budget, False):
                if cached is None:
                    with _building(t, budget, title) as report:
                        cached = registry.table(puzzle, metric, progress=report)
                return cached, "elements", inverse(t.position)
    if t.colourings:
        space = _colouring_space(t)
        if space is not None and space.size <= registry.MAX_ENTRIES:
            working = replace(puzzle, solved=tuple(t.goal))
            table = registry.load_or_build(working, metric, states="colourings", build=False)
            if table is None and _fits(space.size, space.n_moves, budget, False):
                with _building(t, budget, title) as report:
                    table = registry.load_or_build(working, metric, states="colourings",
                                                   progress=report)
            if table is not None:
                return table, "colourings", t.start
    return None


def _element_space(d: Door, metric: Metric):
    """The puzzle's :func:`~permgroup.tables.registry.element_space` (made once
    per puzzle: a large puzzle's takes a second), ``None`` where it cannot be made."""
    from permgroup.tables.registry import element_space

    key = ("elements", metric_label(metric))
    if key not in d.known:
        try:
            d.known[key] = element_space(d.puzzle, metric)
        except (ValueError, MemoryError):
            d.known[key] = None
    return d.known[key]


def _position_count(d: Door, metric: Metric) -> int | None:
    """The definition's :func:`~permgroup.tables.registry.position_count` (made
    once per puzzle and metric: it plans the space, a second or two on the
    3x3x3, every line of a file else)."""
    from permgroup.tables.registry import position_count

    key = ("positions", metric_label(metric))
    if key not in d.known:
        d.known[key] = position_count(d.definition, metric)
    return d.known[key]


def _definition_position(d: Door, colours: Sequence):
    """The definition's position whose sticker colouring is ``colours``
    (:func:`permgroup.formats.definition.sticker_colours`), ``None`` when the
    colours are not in that form."""
    from permgroup.formats.definition import colouring_position

    return colouring_position(d.definition, colours)


def _position_of(definition, g: Perm):
    """The definition's position whose stickers the element ``g`` makes from
    solved."""
    from permgroup.formats.definition import element_position

    return element_position(definition, g)


def _colouring_space(t: Task):
    """The colourings of the goal's colours (a
    :class:`~permgroup.spaces.colouring.ColouringSpace`), when they fit in a word."""
    from permgroup.spaces.colouring import MAX_WORD_BITS, bits_per_cell
    from permgroup.tables.colouring_table import colouring_space

    if t.puzzle.degree * bits_per_cell(len(set(t.goal))) > MAX_WORD_BITS:
        return None
    return colouring_space(replace(t.puzzle, solved=tuple(t.goal)), t.metric)


def _search_fits(t: Task, budget: Budget, bound: int | None) -> bool:
    """Whether an exact search can be expected to end within the memory: the
    states it may meet (the element space's size, or the colourings of the
    goal's colours) fit, or a word in hand of ``bound`` moves limits each side
    to half the depth of a shorter one (``bound // 2`` levels, each move
    followed by any but its own inverse)."""
    from math import factorial, prod

    most = budget.memory // SEARCH_STATE_BYTES
    if bound is not None:
        n, depth = len(t.moves), bound // 2
        if (n * (n - 1) ** (depth - 1) if depth else 1) <= most:
            return True
    if not t.colourings and t.position is not None:
        space = _element_space(t.door, t.metric)
        return space is not None and space.size <= most
    counts = Counter(t.goal).values()
    return factorial(len(t.goal)) // prod(factorial(c) for c in counts) <= most


def _by_search(t: Task, budget: Budget, bound: int | None) -> list[str] | None:
    """An optimal word by exact search: the puzzle's own (its hooks: a cube's IDA*), else
    bidirectional over elements, colourings in a word, or any colourings.
    :class:`Stopped` with what it ruled out when the budget ends or no word
    shorter than ``bound`` exists."""
    from permgroup.search.meet import element_path, search_path

    max_depth = None if bound is None else bound - 1
    own = t.door.hook("solve_exact")
    if own is not None and t.position is not None:
        found = own(t.position, t.metric, max_depth, budget)
    elif (t.position is not None and not t.colourings and t.puzzle.degree <= 255
          and (elements := _element_space(t.door, t.metric)) is not None):
        found = element_path(elements, inverse(t.position), max_depth, budget)
    elif (space := _colouring_space(t)) is not None:
        try:
            found = search_path(space, t.start, t.goal, max_depth, budget=budget)
        except UnreachableError:
            found = None
    else:
        from permgroup.solver.exact import exact_word

        found = exact_word(_gather(t), *_labels(t), budget=budget, max_depth=max_depth)
    if found is None:
        if max_depth is None:
            raise UnreachableError(f"{t.door.name}: no sequence of moves joins the two "
                                   "states (an exhaustive search)")
        raise Stopped("no shorter word", max_depth)
    return list(found)


def _by_chain(t: Task, budget: Budget, bound: int | None, max_length: int | None = None
              ) -> list[str] | None:
    """A word through a chain of subgroups: the puzzle's own (its hooks: a cube's
    two-phase), else the one :mod:`permgroup.solver.chain` finds."""
    own = t.door.hook("solve_chain")
    if own is not None and t.position is not None:
        found = own(t.position, t.metric, max_length, budget)
        if found is not None:
            return found
    from permgroup.solver.chain import chain_word

    start, goal = _labels(t)
    return chain_word(_gather(t), start, goal, budget=budget)


def _by_greedy(t: Task, budget: Budget, bound: int | None, chain: bool = True
               ) -> list[str] | None:
    """The generic solver's word (:func:`permgroup.solver.find_word`; ``chain``:
    its own try of a chain first, when the path has not tried one).  With a
    word in hand (``bound``) it is held to the budget; without, it answers
    even past it (a limit trades length, never the answer)."""
    from permgroup.solver import find_word

    start, goal = _labels(t)
    try:
        # checked once, at solve's exit
        return find_word(_gather(t), start, goal, mismatches=t.mismatches, budget=budget,
                         owed=bound is None, chain=chain or t.mismatches > 0, check=False)
    except InputError as exc:
        raise Stopped(str(exc)) from None


Method = Callable[[Task, Budget, "int | None"], "list[str] | None"]

#: the methods, in the order they are tried: name, function, whether its word is
#: proven optimal, and the share of the time left it may take.  The one place a
#: solving method is added.
METHODS: tuple[tuple[str, Method, bool, float], ...] = (
    ("table", _by_table, True, 1.0),
    ("search", _by_search, True, SEARCH_SHARE),
    ("chain", _by_chain, False, 1.0),
    ("greedy", _by_greedy, False, 1.0),
)


def gather_moves(puzzle: Puzzle, metric: Metric = "qtm") -> dict:
    """The moves of ``metric`` as gather arrays (``new = old[g]``), the form
    :func:`permgroup.solver.find_word` takes (:func:`permgroup.moves.gather_of`).

    >>> {k: v.tolist() for k, v in gather_moves(Puzzle("p", 3, {"T": (1, 2, 0)})).items()}
    {'T': [2, 0, 1], "T'": [1, 2, 0]}
    """
    from permgroup.moves import gather_of

    return {name: gather_of(p) for name, p in metric_moves(puzzle, metric).items()}


def _gather(t: Task) -> dict:
    from permgroup.moves import gather_of

    return {name: gather_of(p) for name, p in t.moves.items()}


def _labels(t: Task):
    """The start and the goal as arrays of small integers (one labelling)."""
    import numpy as np

    labels = {c: i for i, c in enumerate(dict.fromkeys([*t.start, *t.goal]))}
    return (np.array([labels[c] for c in t.start], dtype=np.int64),
            np.array([labels[c] for c in t.goal], dtype=np.int64))


# --- words ---------------------------------------------------------------------

def _spell(t: Task, letters: Sequence[tuple[str, int]]) -> list[str] | None:
    """Letters as the metric's move names, each power by its fewest moves;
    ``None`` when a letter is no power of a generator in the metric."""
    out: list[str] = []
    for name, k in letters:
        if name not in t.puzzle.generators:
            return None
        n = order(t.puzzle.generators[name])
        k %= n
        if not k:
            continue
        one = power_name(name, k, n)
        if one in t.moves:
            out.append(one)
            continue
        forward, back = name, power_name(name, n - 1, n)
        if k <= n - k and forward in t.moves:
            out += [forward] * k
        elif back in t.moves:
            out += [back] * (n - k)
        elif forward in t.moves:
            out += [forward] * k
        else:
            return None
    return out


def _tidy(t: Task, word: Sequence[str]) -> list[str]:
    """The word with its powers merged by the one move model
    (:meth:`permgroup.moves.MoveSet.reduce`: ``L L`` is ``L2`` where the metric
    counts a power as one move, ``L L'`` nothing, across commuting moves
    too), when that makes it shorter; else the word as it came."""
    key = ("move set", metric_label(t.metric))
    if key not in t.door.known:
        from permgroup.moves import MoveSet

        t.door.known[key] = MoveSet.from_moves(_gather(t))
    ms = t.door.known[key]
    index = ms.named_letters()
    if any(name not in index for name in word):
        return list(word)
    shorter = ms.names(ms.reduce([index[name] for name in word]))
    return shorter if len(shorter) < len(word) else list(word)


#: a word is applied with numpy once its moves times the positions reach this
#: (a 33x33x33's word of 11,000 moves took 10 s a check move by move, twice a row)
ARRAY_APPLY = 100_000


def _apply(t: Task, word: Sequence[str]) -> tuple:
    def move(name: str):
        p = t.moves.get(name)
        return t.puzzle.move_array(name) if p is None else p

    if len(word) * len(t.start) >= ARRAY_APPLY:
        try:
            codes: dict = {}
            coded = [codes.setdefault(x, len(codes)) for x in t.start]
        except TypeError:  # unhashable items: move by move below
            codes = {}
        if codes:
            import numpy as np

            from permgroup.moves import gather_of

            state = np.array(coded, dtype=np.int64)
            gathers: dict[str, np.ndarray] = {}
            for name in word:
                if name not in gathers:
                    gathers[name] = gather_of(move(name))
                state = state[gathers[name]]
            items = list(codes)
            return tuple(items[i] for i in state.tolist())
    state = t.start
    for name in word:
        state = act(state, move(name))
    return state


def _wrong(t: Task, word: Sequence[str]) -> int:
    """How many positions differ from the goal after the word (up to a
    whole-puzzle symmetry, with which the puzzle's states are the same)."""
    final = _apply(t, word)
    wrong = sum(1 for a, b in zip(final, t.goal) if a != b)
    if wrong and t.puzzle.symmetries:
        for s in t.puzzle.symmetry_elements()[1:]:
            wrong = min(wrong, sum(1 for a, b in zip(act(final, s), t.goal) if a != b))
    return wrong


# --- the door -------------------------------------------------------------------

def solve(puzzle, start, goal=None, *, metric: Metric | None = None,
          time_limit: float | None = 10, memory: int | str | None = None,
          mismatches: int = 0, optimal: bool = False, methods: Sequence[str] | None = None,
          max_length: int | None = None, budget: Budget | None = None,
          progress: Progress | None = None) -> Solution:
    """A checked word taking ``start`` to ``goal`` (default: solved) on
    ``puzzle`` (see the module docstring), within ``time_limit`` seconds
    (``None``: no limit) and ``memory`` (``"2GB"``; the default budget) or a
    ``budget`` given whole (a :class:`~permgroup.budget.Budget`, cancelled from
    outside).  ``metric``: ``"qtm"`` (the default), ``"htm"`` or a list of moves.

    ``mismatches``: positions allowed to differ at the end (Santa's
    wildcards).  ``optimal``: only methods that prove their word shortest;
    ``methods``: only these of :data:`METHODS`; ``max_length``: a word this
    short is enough (a chain stops at it); ``progress``: a callback for the
    levels of a table built on the way (else a bar shows them).

    :class:`~permgroup.errors.UnreachableError` when the goal cannot be
    reached (the law named); :class:`~permgroup.errors.Stopped` when
    ``optimal`` and no method proved a word in time (its ``ruled_out`` says
    how many moves a word needs more than); :class:`NoWord` when no method
    found any word.

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> from permgroup.puzzle import Puzzle
    >>> square = Puzzle("square", 4, {"A": (1, 2, 3, 0), "B": (1, 0, 2, 3)})
    >>> found = solve(square, "A B A'", "B", optimal=True)
    >>> found.word, found.optimal, solve(square, "A B A'", "B", metric="htm").word
    (['A', 'A', 'B', 'A'], True, ['A2', 'B', 'A'])
    """
    if budget is None:
        budget = Budget.of(time_limit, memory)
    t = task(puzzle, start, goal, metric=metric, mismatches=mismatches)
    t.progress = progress
    best: tuple[list[str], bool, str] | None = None
    if _wrong(t, []) <= mismatches:
        best = ([], True, "solved")
    elif t.given is not None:
        spelled = _spell(t, t.given)
        if spelled is not None:
            best = (spelled, False, "inverse")
    tried: list[str] = []
    ruled_out, stopped = 0, None
    chosen = [m for m in METHODS if (methods is None or m[0] in methods)
              and (not optimal or m[2])]
    if mismatches:
        chosen = [m for m in chosen if m[0] == "greedy"]
    answered = False  # a method that proves nothing has given a word: enough of those
    waiting = None  # an exact search that did not fit: tried again once a word bounds it
    queue = list(chosen)
    while queue:
        entry = queue.pop(0)
        name, method, proves, share = entry
        if best is not None and best[1]:
            break
        if answered and not proves:
            continue
        if budget.expired:
            # the last method that answers still answers when only the time ran
            # out and no word is in hand (the generic solver's last-resort finish
            # is bounded by the puzzle's size, permgroup.solver.finish; a chain
            # asked alone gives its first answer): a limit trades length, never
            # the answer
            last = not proves and not any(not later[2] for later in queue)
            if not last or best is not None or budget.cancel.is_set():
                tried.append(f"{name}: {budget.stop_reason()}")
                if budget.cancel.is_set():
                    break
                continue
        bound = None if best is None else len(best[0])
        if name == "search" and not (optimal or t.door.hook("solve_exact") is not None
                                     or _search_fits(t, budget, bound)):
            if waiting is None and not answered:
                waiting = entry
                tried.append("search: does not fit without a shorter word in hand")
            continue
        # an exact search leaves time for the methods after it that always answer
        follows = any(not later[2] for later in queue)
        part = budget.share(share) if share < 1 and follows else budget
        began = time.monotonic()
        try:
            if name == "chain":
                word = _by_chain(t, part, bound, max_length)
            elif name == "greedy":
                word = _by_greedy(t, part, bound, chain=not any(m[0] == "chain" for m in chosen))
            else:
                word = method(t, part, bound)
        except Stopped as exc:
            ruled_out, stopped = max(ruled_out, exc.ruled_out), exc.reason
            if best is not None and exc.ruled_out >= len(best[0]) - 1:
                best = (best[0], True, best[2])  # nothing shorter exists
            tried.append(f"{name}: {exc} ({time.monotonic() - began:.2f} s)")
            continue
        except MemoryBudgetError as exc:
            tried.append(f"{name}: {exc}")
            continue
        if word is None:
            tried.append(f"{name}: no answer ({time.monotonic() - began:.2f} s)")
            continue
        word = _tidy(t, word)
        tried.append(f"{name}: {len(word)} moves ({time.monotonic() - began:.2f} s)")
        if best is None or len(word) < len(best[0]) or (len(word) == len(best[0]) and proves):
            best = (word, proves, name)
        if not proves:
            answered = True
            if waiting is not None:  # its turn again, bounded by the word found
                queue.insert(0, waiting)
                waiting = None
    if best is None or (optimal and not best[1]):
        if optimal:
            raise Stopped(budget.stop_reason() or stopped or "no exact method applies", ruled_out)
        raise NoWord(f"{t.door.name}: no word found (" + "; ".join(tried or ["no method applies"])
                     + ")")
    word, proven, how = best
    wrong = _wrong(t, word)
    if wrong > mismatches:  # pragma: no cover - every method's word is right
        raise AssertionError(f"{t.door.name}: the {how} word {' '.join(word)} leaves {wrong} "
                             f"positions wrong")
    names = t.door.spelling()
    return Solution([names.get(m, m) for m in word], proven, how, tuple(tried))


#: starts answered together at most (:func:`solve_many`): a run of lines is
#: read, walked down its table and checked as a few arrays of this many rows
BATCH = 4096


def solve_many(puzzle, starts: Iterable, goal=None, *, metric: Metric | None = None,
               time_limit: float | None = 10, memory: int | str | None = None,
               optimal: bool = False, progress: Progress | None = None
               ) -> Iterator[Solution | InputError | Stopped]:
    """:func:`solve` for each of ``starts`` (to the one ``goal``), lazily and in
    order: each start's :class:`Solution`, or the :class:`InputError` or
    :class:`Stopped` that :func:`solve` raises for it, given in its place so
    that the caller keeps the answers before it (``time_limit`` is per start;
    ``progress`` reports a table built on the way).

    The same answers, found faster for a run of starts given as words of the
    puzzle's moves, to solved, on a definition whose table of positions is at
    hand (the one :func:`solve` would walk down): each word's position is
    reached by stepping ranks from solved, every word of the run one array
    operation a move (a word's position is reachable: the word reaches it);
    the table is walked down for all of them at once; every word found is
    applied to its start's colouring and checked, all at once.  A start that
    is not such a word, or that the run cannot answer, goes through
    :func:`solve` alone.

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> from permgroup.formats.ksolve import read_ksolve
    >>> twist = read_ksolve("Set P 3 3\\nMove A\\nP\\n2 3 1\\n1 0 2\\nEnd\\n"
    ...                     "Move B\\nP\\n2 1 3\\n0 0 0\\nEnd\\n")
    >>> lines = ["A", "A B A'", "", "[A, B]", "A Q"]
    >>> answers = list(solve_many(twist, lines))
    >>> [(a.word, a.method) for a in answers[:4]]   # the first alone: it builds the table
    [(["A'"], 'table'), (["A'", 'B'], 'table'), ([], 'solved'), (['A'], 'table')]
    >>> type(answers[4]).__name__
    'InputError'
    >>> [s.word for s in answers[:4]] == [solve(twist, x).word for x in lines[:4]]
    True
    """
    d = door(puzzle)
    one = dict(metric=metric, time_limit=time_limit, memory=memory, optimal=optimal,
               progress=progress)

    def alone(start) -> Solution | InputError | Stopped:
        try:
            return solve(d, start, goal, **one)
        except (InputError, Stopped) as exc:
            return exc

    starts = list(starts)
    i = end = 0  # starts[i:end] are words of moves, their letters in run
    run: deque[Letters] = deque()
    while i < len(starts):
        while goal is None and end < len(starts) and end - i < BATCH:
            letters = _plain_letters(d, starts[end])
            if letters is None:
                break
            run.append(letters)
            end += 1
        answers = _by_table_run(d, metric or "qtm", run, time_limit, memory) if run else None
        if answers is None:  # the first alone (it may build the table the next run reads)
            yield alone(starts[i])
            i += 1
            if run:
                run.popleft()
            end = max(end, i)
            continue
        for k, answer in enumerate(answers):
            yield answer if answer is not None else alone(starts[i + k])
        i += len(run)
        run.clear()


#: characters of alg notation that join moves into more than a word of moves
_GROUPING = set("[](),:*/")


def _plain_letters(d: Door, start) -> Letters | None:
    """The letters of ``start`` when it is a word of the puzzle's generators,
    each of its moves read once per puzzle (:func:`_letters`); ``None`` for
    anything else (a colouring, a bracket, a rotation, a bad move)."""
    if not isinstance(start, str) or _colours(d, start) is not None:
        return None
    known = d.known.setdefault(("move words",), {})
    out: list[tuple[str, int]] = []
    for token in start.replace(".", " ").split():
        if token not in known:
            letters = None
            if not _GROUPING.intersection(token):
                try:
                    letters = _letters(d, token)
                except InputError:
                    pass
                if letters is not None and any(g not in d.puzzle.generators for g, _ in letters):
                    letters = None
            known[token] = letters
        if known[token] is None:
            return None
        out += known[token]
    return tuple(out)


def _by_table_run(d: Door, metric: Metric, run: Collection[Letters], time_limit, memory
                  ) -> list[Solution | None] | None:
    """The :class:`Solution` of each word of ``run`` (letters, to solved) down
    the definition's table of positions (:func:`solve_many`), ``None`` for a
    word the run cannot answer; ``None`` for the whole run when no such table
    is cached (the words go one by one: the first may build it)."""
    import numpy as np

    from permgroup.formats.definition import colours_tell_positions
    from permgroup.moves import gather_of
    from permgroup.tables import registry
    from permgroup.tables.store import UNSEEN

    definition = d.definition
    key = ("table run", metric_label(metric))
    if definition is None or d.known.get(key) is False:
        return None
    if key not in d.known:
        if registry.rotated(definition) or not colours_tell_positions(definition):
            d.known[key] = False  # the one-by-one path reads positions otherwise
            return None
    if not registry.cache_path(definition, metric).exists():
        return None
    if key not in d.known:
        d.known[key] = task(d, "", metric=metric)
    t = d.known[key]
    # the table the one-by-one path finds, found as it finds it (kept in memory
    # by the registry while its file is the same)
    found = _table(t, Budget.of(time_limit, memory))
    if found is None or found[1] != "positions":
        d.known[key] = False
        return None
    table = found[0]
    space, puzzle = table.space, d.puzzle
    index = {name: i for i, name in enumerate(space.move_names)}
    rows, letters = _coded_rows(run)
    steps = []  # each letter as moves of the table's space, and as a gather of stickers
    for letter in letters:
        names = _spell(t, [letter])
        if names is None or any(n not in index for n in names):
            return None
        steps.append(([index[n] for n in names], gather_of(_letters_perm(puzzle, [letter]))))
    ranks = np.full(len(run), space.rank(definition.solved), dtype=np.int64)
    codes = {c: i for i, c in enumerate(dict.fromkeys(t.goal))}
    goal = np.array([codes[c] for c in t.goal], dtype=np.int32)
    colours = np.tile(goal, (len(run), 1))  # each start's colouring
    for which, u in _by_column(rows):
        moves, gather = steps[u]
        for m in moves:
            ranks[which] = space.step(ranks[which], m)
        colours[which] = colours[which][:, gather]
    depths = table.depths[ranks]
    answers: list[Solution | None] = [None] * len(run)
    solved = np.flatnonzero(depths == 0)
    for r in solved.tolist():
        answers[r] = Solution([], True, "solved")
    walk = np.flatnonzero((depths != 0) & (depths != UNSEEN))
    if puzzle.symmetries:  # a start that is the goal turned as a whole: solved, one by one
        for s in puzzle.symmetry_elements()[1:]:
            turned = colours[walk][:, gather_of(s)]
            walk = walk[~(turned == goal).all(axis=1)]
    words = [_tidy(t, w) for w in table.words(ranks[walk])] if len(walk) else []
    # each word applied to its start's colouring, all at once: what leaves it
    # anything but the goal is not answered here
    ends = colours[walk]
    path, used = _coded_rows(words)
    gathers = [gather_of(t.moves[m] if m in t.moves else puzzle.move_array(m)) for m in used]
    for which, u in _by_column(path):
        ends[which] = ends[which][:, gathers[u]]
    right = (ends == goal).all(axis=1)
    names = d.spelling()
    for r, word, ok in zip(walk.tolist(), words, right.tolist()):
        if ok:
            answers[r] = Solution([names.get(m, m) for m in word], True, "table",
                                  (f"table: {len(word)} moves (one of {len(run)} walked down "
                                   "together)",))
    return answers


def _coded_rows(words: Collection[Sequence]) -> tuple:
    """The words as rows of codes, padded with ``-1``, and the distinct items
    in the order of their codes.

    >>> rows, items = _coded_rows([["a", "b"], ["b"]])
    >>> rows.tolist(), items
    ([[0, 1], [1, -1]], ['a', 'b'])
    """
    import numpy as np

    codes: dict = {}
    rows = np.full((len(words), max(map(len, words), default=0)), -1, dtype=np.int64)
    for r, word in enumerate(words):
        rows[r, :len(word)] = [codes.setdefault(x, len(codes)) for x in word]
    return rows, list(codes)


def _by_column(rows) -> Iterator[tuple]:
    """Column by column of :func:`_coded_rows`, left to right: the rows whose
    code there is ``code``, and ``code`` (a batch of words applied one array
    operation per distinct move of each column).

    >>> [(which.tolist(), u) for which, u in _by_column(_coded_rows([["a", "b"], ["b"]])[0])]
    [([0], 0), ([1], 1), ([0], 1)]
    """
    import numpy as np

    for column in rows.T:
        for u in np.unique(column[column >= 0]).tolist():
            yield np.flatnonzero(column == u), u


def distance(puzzle, start, goal=None, *, metric: Metric | None = None,
             time_limit: float | None = None, memory: int | str | None = None) -> int:
    """The least number of moves from ``start`` to ``goal`` (see :func:`solve`,
    optimal methods only); ``-1`` when the goal cannot be reached.

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> from permgroup.puzzle import Puzzle
    >>> pair = Puzzle("pair", 4, {"A": (1, 2, 0, 3), "B": (0, 2, 3, 1)}, solved="abcd")
    >>> distance(pair, "A B A"), distance(pair, "A B", "B A"), distance(pair, "bacd")
    (1, 3, -1)
    """
    try:
        t = task(puzzle, start, goal, metric=metric)
        # a table, when one is at hand or fits, answers without walking a word
        depth = _table_depth(t, Budget.of(time_limit, memory))
        if depth is not None:
            return depth
        return len(solve(t.door, start, goal, metric=metric, time_limit=time_limit,
                         memory=memory, optimal=True).word)
    except UnreachableError:
        return -1


__all__ = ["solve", "solve_many", "distance", "Solution", "Door", "door", "Task", "task", "METHODS",
           "NoWord", "gather_moves"]
