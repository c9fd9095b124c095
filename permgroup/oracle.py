"""Optimal words between two elements of any puzzle, by the cheapest exact
means at hand, within a time limit (for live read-outs such as the widget's).

:func:`oracle` picks one of four ways for a puzzle and metric:

* the Cayley table of the elements (:func:`permgroup.tables.registry.load_or_build`) when it is
  in the cache or small enough to build in a moment (``max_build`` entries);
* else a bidirectional search over elements (:mod:`permgroup.search.meet`), each
  element packed into one Python integer;
* for a puzzle whose colours do not tell its pieces apart (no pieces declared
  and repeated colours: a torus of rows, two rings of balls), the same two
  ways on colourings instead: a cached or small colouring table
  (:mod:`permgroup.tables.colouring_table`), else a bidirectional search on them.

Distances are up to whole-puzzle symmetry, as in :func:`permgroup.explore.distance`.
A search checks its *deadline* before each move of a level and gives up with
:class:`TimeUp` once it has passed; the deadline is a ``time.monotonic()``
time, or a function saying whether to stop (a caller that has moved on can
cancel this way).  It also stays within a *memory* budget (bytes,
:data:`MEMORY` by default), giving up the same way before a level that would
pass it.  A table lookup never stops.

>>> from permgroup.elements import Element
>>> from permgroup.puzzle import Puzzle
>>> p = Puzzle("p", 4, {"A": (1, 2, 3, 0)}, pieces={"dot": ((0,), (1,), (2,), (3,))})
>>> o = oracle(p)
>>> o.way, o.solve(Element.identity(p), Element.from_word(p, "A A A"))
('table', ["A'"])
>>> q = Puzzle("q", 4, {"A": (1, 2, 3, 0)}, pieces={"dot": ((0,), (1,), (2,), (3,))})
>>> by_search = oracle(q, max_build=0)   # no table of q is cached
>>> by_search.way, by_search.solve(Element.identity(q), Element.from_word(q, "A A"))
('search', ['A', 'A'])
>>> by_search.solve(Element.identity(q), Element.from_word(q, "A A"), lambda: True)
Traceback (most recent call last):
...
permgroup.oracle.TimeUp: the deadline
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from permgroup.metric import Metric, metric_label
from permgroup.perm import compose, inverse
from permgroup.puzzle import Puzzle
from permgroup.errors import Stopped

if TYPE_CHECKING:  # pragma: no cover
    from permgroup.elements import Element

#: largest table (entries) built on the spot; a larger one is used only when cached
MAX_BUILD = 5_000_000
#: the memory a search may take by default (bytes)
MEMORY = 2 * 10 ** 9
#: elements a search moves between two looks at its deadline
CHUNK = 50_000


class TimeUp(Stopped):
    """A search gave up: its deadline passed or its memory budget would have;
    ``ruled_out`` says how many moves a word needs more than."""

    def __init__(self, reason: str = "the time limit", ruled_out: int = 0):
        super().__init__(reason, ruled_out)


#: when a search must stop: a ``time.monotonic()`` time, or a function that says so
Deadline = float | Callable[[], bool] | None


def _stop(deadline: Deadline) -> Callable[[], str | None] | None:
    """The search's question "stop now?", answered with the reason."""
    if deadline is None:
        return None
    if callable(deadline):
        return lambda: "the deadline" if deadline() else None
    return lambda: "the time limit" if time.monotonic() > deadline else None


def _bounded(run: Callable[[], object]):
    """``run()``, its search's :class:`Stopped` given back as :class:`TimeUp`."""
    try:
        return run()
    except Stopped as exc:
        raise TimeUp(exc.reason, exc.ruled_out) from None


def by_colouring(puzzle: Puzzle) -> bool:
    """Whether states are best compared as colourings: the solved colouring
    repeats colours and the puzzle declares no pieces of two or more stickers
    (so the colours cannot tell which piece is where).

    >>> by_colouring(Puzzle("t", 4, {"S": (1, 0, 3, 2)}, solved="aabb"))
    True
    >>> by_colouring(Puzzle("t", 4, {"S": (1, 0, 3, 2)}, solved="aabb", pieces={"bar": ((0, 1), (2, 3))}))
    False
    """
    solved = puzzle.solved
    if not solved or len(set(solved)) == len(solved):
        return False
    return all(len(p) == 1 for pieces in puzzle.pieces.values() for p in pieces)


@dataclass
class Oracle:
    """Answers ``solve(a, b)``: an optimal list of move names taking the state
    of element ``a`` to the state of ``b`` (``None`` when no word does).

    ``way`` says how: ``"table"``, ``"search"``, ``"colouring table"`` or
    ``"colouring search"``.
    """

    puzzle: Puzzle
    metric: Metric
    way: str
    _table: object = None
    _elements: object = None
    _space: object = None
    _packed: dict = field(default_factory=dict)

    def solve(self, a: Element, b: Element, deadline: Deadline = None,
              memory: int = MEMORY) -> list[str] | None:
        """An optimal word from ``a``'s state to ``b``'s (``None`` if unreachable);
        :class:`TimeUp` when a search passes its ``deadline`` or would take
        more than ``memory`` bytes."""
        if self.way == "table":
            # words for a⁻¹b (whose product lies in the class a⁻¹bC) apply to a's
            # state as they are; the table's solve(a, b) is for normalized a
            g = compose(inverse(a.perm), b.perm)
            return None if self._table.depth(g) < 0 else self._table.word(g)
        if self.way == "search":
            return _bounded(lambda: self._search_elements(a.perm, b.perm, deadline, memory))
        return self.solve_colourings(a.state().colours, b.state().colours, deadline, memory)

    def solve_colourings(self, x: Sequence, y: Sequence, deadline: Deadline = None,
                         memory: int = MEMORY) -> list[str] | None:
        """An optimal word from colouring ``x`` to colouring ``y`` (for the
        colouring ways only); :class:`~permgroup.errors.InputError` when their
        colours differ from the solved colouring's."""
        if not self.way.startswith("colouring"):
            raise ValueError(f"{self.puzzle.name} is answered {self.way!r}, not on colourings")
        if self.way == "colouring table" and tuple(y) == tuple(self.puzzle.solved):
            return None if self._table.depth(x) < 0 else self._table.path(x)
        return _bounded(lambda: self._search_colourings(x, y, deadline, memory))

    def _search_elements(self, p, q, deadline, memory):
        return search_elements(self._elements, compose(inverse(p), q), _stop(deadline), memory)

    def _search_colourings(self, x, y, deadline, memory):
        return search_colourings(self._space, x, y, _stop(deadline), memory)


def search_elements(space, g, stop: Callable[[], str | None] | None = None,
                    memory: int | None = MEMORY, max_depth: int | None = None
                    ) -> list[str] | None:
    """An optimal word (move names of ``space``, an
    :class:`~permgroup.spaces.element.ElementSpace`) for the element ``g`` up
    to whole-puzzle symmetry, by bidirectional search over elements, each
    packed into one Python integer; ``None`` when no word of at most
    ``max_depth`` moves (or none at all) makes it.  ``stop()`` (a reason, or
    ``None`` to go on) is asked between chunks; :class:`Stopped` when it
    answers, or when a level would take more than ``memory`` bytes.

    >>> from permgroup.tables.registry import element_space
    >>> p = Puzzle("p", 4, {"A": (1, 2, 3, 0)}, pieces={"dot": ((0,), (1,), (2,), (3,))})
    >>> search_elements(element_space(p), (2, 3, 0, 1))
    ['A', 'A']
    """
    from permgroup.search.meet import search

    n = space.puzzle.degree
    goal = space.normalize(tuple(g))
    moves = [tuple(x) for x in space.moves]
    backs = [inverse(x) for x in moves]

    def pack(perm) -> int:
        return int.from_bytes(bytes(perm), "big")

    def stepper(table):
        def step(states, k):
            mv = table[k]
            out = []
            states = states.tolist()
            for at in range(0, len(states), CHUNK):  # a level may take minutes
                reason = stop() if stop is not None and at else None
                if reason:
                    raise Stopped(reason, 0)
                out += [pack(compose(tuple(s.to_bytes(n, "big")), mv))
                        for s in states[at:at + CHUNK]]
            return _objects(out)
        return step

    if n > 255:
        raise ValueError(f"{space.puzzle.name}: search packs elements of at most 255 stickers")
    # a Python integer of n bytes and its place in an object array
    result = search(_objects([pack(range(n))]), _objects([pack(goal)]), len(moves),
                    stepper(moves), stepper(backs), max_depth, dtype=object, stop=stop,
                    memory=memory, state_bytes=36 + n + 8)
    return None if result is None else [space.move_names[k] for k in result]


def search_colourings(space, x: Sequence, y: Sequence,
                      stop: Callable[[], str | None] | None = None,
                      memory: int | None = MEMORY, max_depth: int | None = None
                      ) -> list[str] | None:
    """An optimal word (move names) from colouring ``x`` to colouring ``y`` of a
    :class:`~permgroup.spaces.colouring.ColouringSpace`, by bidirectional
    search; ``None`` when none of at most ``max_depth`` moves (or none at all)
    joins them; ``stop`` and ``memory`` as in :func:`search_elements`.

    >>> from permgroup.spaces.colouring import ColouringSpace
    >>> search_colourings(ColouringSpace("aabb", {"turn": (1, 2, 3, 0)}), "abba", "aabb")
    ['turn']
    """
    from permgroup.search.meet import search

    result = search(space.encode(x), space.encode(y), space.n_moves, space.apply,
                    space.unapply, max_depth, dtype=space.dtype, stop=stop, memory=memory)
    return None if result is None else [space.move_names[k] for k in result]


def _objects(values: list) -> "np.ndarray":
    import numpy as np

    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def oracle(puzzle: Puzzle, metric: Metric = "qtm", *, max_build: int = MAX_BUILD,
           tables: bool = True) -> Oracle:
    """The way to answer distance questions about ``puzzle`` (see the module
    docstring); a table is loaded or built here, so this may take a moment.
    With ``tables=False`` it always searches (to compare the two ways).

    >>> from permgroup.puzzle import Puzzle
    >>> oracle(Puzzle("t", 4, {"S": (1, 2, 3, 0)}, solved="aabb")).way
    'colouring table'
    """
    from permgroup.budget import MemoryBudgetError
    from permgroup.tables import registry

    if by_colouring(puzzle):
        from permgroup.tables.colouring_table import colouring_space
        from permgroup.spaces.colouring import MAX_WORD_BITS, bits_per_cell

        if puzzle.degree * bits_per_cell(len(set(puzzle.solved))) <= MAX_WORD_BITS:
            space = colouring_space(puzzle, metric)
            found = None
            if tables:
                try:
                    found = registry.load_or_build(puzzle, metric, states="colourings",
                                                   build=space.size <= max_build)
                except MemoryBudgetError:  # past the free memory: search instead
                    found = None
            if found is not None:
                return Oracle(puzzle, metric, "colouring table", _table=found, _space=space)
            return Oracle(puzzle, metric, "colouring search", _space=space)
    m = registry.element_space(puzzle, metric)
    size = m.size
    found = None
    if tables and size <= registry.MAX_ENTRIES:
        try:
            found = registry.table(puzzle, metric, build=size <= max_build)
        except MemoryBudgetError:
            found = None
    if found is not None:
        return Oracle(puzzle, metric, "table", _table=found, _elements=m)
    return Oracle(puzzle, metric, "search", _elements=m)


def describe(o: Oracle) -> str:
    """A few words on how distances are found, for a read-out.

    >>> from permgroup.puzzle import Puzzle
    >>> describe(oracle(Puzzle("p", 2, {"A": (1, 0)}), "qtm"))
    'from the qtm table'
    """
    label = metric_label(o.metric)
    return {"table": f"from the {label} table", "search": f"by {label} search",
            "colouring table": f"from the {label} colouring table",
            "colouring search": f"by {label} search on colourings"}[o.way]


__all__ = ["oracle", "Oracle", "TimeUp", "Deadline", "by_colouring", "describe", "MAX_BUILD",
           "MEMORY", "search_elements", "search_colourings"]
