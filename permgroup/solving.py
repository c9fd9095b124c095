"""A word between two states of any puzzle, optimal when an exact method answers
in time, else from the generic solver (:func:`permgroup.solver.find_word`).

The exact method is the puzzle's :func:`~permgroup.oracle.oracle` (a cached or
small table, else a bidirectional search), given part of the time; the solver
gets the rest.  Every word is applied to the start and compared with the goal
before it is returned.

>>> from permgroup.puzzle import Puzzle
>>> ring = Puzzle("ring", 4, {"T": (1, 2, 3, 0)}, solved="abcd")
>>> found = word_between(ring, "dabc", "abcd")
>>> found.word, found.optimal
(["T'"], True)
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from permgroup.elements import Element, State, state_colours
from permgroup.errors import InputError, UnreachableError, counted
from permgroup.metric import Metric, metric_moves
from permgroup.moves import gather_of
from permgroup.perm import act
from permgroup.puzzle import Puzzle

#: table entries built per second of time limit (a table is built only well within it)
BUILD_RATE = 50_000
#: the share of the time limit the exact method may take before the solver's turn
EXACT_SHARE = 0.3


@dataclass(frozen=True)
class Found:
    """A checked word; ``optimal`` when an exact method proved it shortest."""

    word: list[str]
    optimal: bool


def colours(puzzle: Puzzle, state: Element | State | Sequence) -> tuple:
    """The colour at each position of a state given as an element (acting on the
    solved colouring, or on the positions when there is none), a
    :class:`~permgroup.elements.State` or a sequence of colours.

    >>> from permgroup.puzzle import Puzzle
    >>> colours(Puzzle("p", 3, {"T": (1, 2, 0)}), Element(Puzzle("p", 3, {"T": (1, 2, 0)}), (1, 2, 0)))
    (2, 0, 1)
    """
    if isinstance(state, Element):
        return tuple(act(puzzle.solved or tuple(range(puzzle.degree)), state.perm))
    out = state_colours(puzzle, state)
    if len(out) != puzzle.degree:
        raise InputError(f"{puzzle.name}: a state of {counted(len(out), 'position')}, the puzzle "
                         f"has {puzzle.degree}")
    return out


def gather_moves(puzzle: Puzzle, metric: Metric = "qtm") -> dict[str, np.ndarray]:
    """The moves of ``metric`` as gather arrays (``new = old[g]``), the form
    :func:`permgroup.solver.find_word` takes: the inverse of each sticker map.

    >>> from permgroup.puzzle import Puzzle
    >>> {k: v.tolist() for k, v in gather_moves(Puzzle("p", 3, {"T": (1, 2, 0)})).items()}
    {'T': [2, 0, 1], "T'": [1, 2, 0]}
    """
    return {name: gather_of(p) for name, p in metric_moves(puzzle, metric).items()}


def mismatches_after(start: Sequence, goal: Sequence, moves: dict[str, np.ndarray],
                     word: Sequence[str]) -> int:
    """How many positions differ from ``goal`` once ``word`` is applied to ``start``."""
    labels = {c: i for i, c in enumerate(dict.fromkeys([*start, *goal]))}
    state = np.array([labels[c] for c in start])
    for name in word:
        state = state[moves[name]]
    return int(np.count_nonzero(state != np.array([labels[c] for c in goal])))


def find_word(moves: dict[str, np.ndarray], start: np.ndarray, goal: np.ndarray, *,
              mismatches: int = 0, time_limit: float = 60.0) -> list[str]:
    """The generic solver's word (:func:`permgroup.solver.find_word`)."""
    try:
        from permgroup.solver import find_word as engine
    except ImportError:  # until the generic solver is merged: the exact search alone
        from permgroup.solver.exact import exact_word as engine
    return engine(moves, start, goal, mismatches=mismatches, time_limit=time_limit)


def _element(puzzle: Puzzle, state) -> Element | None:
    """The element whose state this is, when the colours tell it (all distinct)."""
    if isinstance(state, Element):
        return state
    solved = puzzle.solved or tuple(range(puzzle.degree))
    where = {c: i for i, c in enumerate(colours(puzzle, state))}
    if len(set(solved)) < len(solved) or len(where) < len(solved) or set(where) != set(solved):
        return None
    return Element(puzzle, [where[c] for c in solved])


_ORACLES: dict = {}


def _exact(puzzle: Puzzle, start, goal, metric: Metric, deadline: float, time_limit: float
           ) -> list[str] | None:
    """The oracle's optimal word, ``None`` when it cannot answer in time;
    :class:`UnreachableError` when it proves that no word exists."""
    from permgroup.oracle import TimeUp, oracle

    try:
        key = (puzzle.fingerprint(), str(metric))
        if key not in _ORACLES:
            _ORACLES.clear()  # one puzzle at a time: a table may be large
            # a table is built on the spot only when that fits well in the time
            _ORACLES[key] = oracle(puzzle, metric, max_build=int(BUILD_RATE * time_limit))
        way = _ORACLES[key]
        if way.way.startswith("colouring"):
            word = way.solve_colourings(colours(puzzle, start), colours(puzzle, goal), deadline)
        else:
            a, b = _element(puzzle, start), _element(puzzle, goal)
            if a is None or b is None:
                return None
            word = way.solve(a, b, deadline)
    except (TimeUp, ValueError, MemoryError):
        return None
    if word is None:
        raise UnreachableError(f"{puzzle.name}: no sequence of moves joins the two states "
                               "(an exhaustive search)")
    return list(word)


def word_between(puzzle: Puzzle, start, goal=None, *, metric: Metric = "qtm",
                 mismatches: int = 0, time_limit: float = 60.0) -> Found:
    """A checked word taking ``start`` to ``goal`` (default: solved), each given
    as :func:`colours` takes them; at most ``mismatches`` positions may differ at
    the end.  :class:`InputError` (``NoSolution``) when no word is found in time
    or none exists."""
    began = time.monotonic()
    goal = Element.identity(puzzle) if goal is None else goal
    moves = gather_moves(puzzle, metric)
    x, y = colours(puzzle, start), colours(puzzle, goal)
    if mismatches_after(x, y, moves, []) <= mismatches:
        return Found([], True)
    if mismatches == 0:
        word = _exact(puzzle, start, goal, metric, began + EXACT_SHARE * time_limit, time_limit)
        if word is not None and mismatches_after(x, y, moves, word) == 0:
            return Found(word, True)
    labels = {c: i for i, c in enumerate(dict.fromkeys([*x, *y]))}
    word = find_word(moves, np.array([labels[c] for c in x]), np.array([labels[c] for c in y]),
                     mismatches=mismatches,
                     time_limit=max(time_limit - (time.monotonic() - began), 0.1))
    wrong = mismatches_after(x, y, moves, word)
    if wrong > mismatches:
        raise InputError(f"{puzzle.name}: the solver's word leaves {wrong} positions wrong "
                         f"({mismatches} allowed)")
    return Found(list(word), False)
