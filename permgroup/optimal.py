"""Optimal solutions of positions of a puzzle defined piece by piece.

Each position is given as the move sequence that makes it from solved (alg
notation: ``R U2 R'``, ``[R, U]``, derived moves by name).  The answers come
from the puzzle's God's-algorithm table (:mod:`permgroup.tables.orbit_table`) when it
is cached or small enough to build on the spot, all positions walked down at
once; otherwise from a bidirectional search (:mod:`permgroup.oracle`), one
position at a time, each within ``time_limit`` seconds and ``memory`` bytes:
a position the search gives up on is answered with :class:`Unanswered`,
which says why and how many moves were ruled out.

>>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
>>> from permgroup.formats.ksolve import read_ksolve
>>> swap = read_ksolve("Set P 2 3\\nMove A\\nP\\n2 1\\n1 0\\nEnd\\n")
>>> optimal_solutions(swap, ["A", "A A A", ""], "htm")
[["A'"], ['A3'], []]
"""
from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

from permgroup.errors import InputError, counted
from permgroup.formats.definition import Definition, Position, apply_alg, named_positions
from permgroup.progress import Progress
from permgroup.tables.registry import rotated

#: the largest table (entries) built on the spot to answer a question
MAX_BUILD = 300_000_000
#: past this many positions (a bound) no table is tried at all
MAX_TABLE = 10 ** 13
#: seconds a search may take per position by default
TIME_LIMIT = 60.0


@dataclass(frozen=True)
class Unanswered:
    """A position whose optimal solution was not found: ``reason`` (the time
    limit, the memory budget) and ``ruled_out``, the moves it is known to
    need more than.

    >>> str(Unanswered("the time limit of 60 s", 12))
    'no optimal solution within the time limit of 60 s (every word of up to 12 moves ruled out)'
    """

    reason: str
    ruled_out: int

    def __str__(self) -> str:
        return (f"no optimal solution within {self.reason} (every word of up to "
                f"{counted(self.ruled_out, 'move')} ruled out)")


def position_bound(definition: Definition) -> int:
    """An upper bound on the number of positions: each orbit's arrangements of its
    pieces (identical ones counted once) times its orientations.

    >>> from permgroup.formats.definition import Orbit, OrbitState
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


def read_positions(definition: Definition, lines: Sequence[str]) -> tuple[list[Position],
                                                                           InputError | None]:
    """The positions the lines' move sequences make from solved, up to the first
    bad line, and the error naming that line (``None`` if all are good)."""
    named = named_positions(definition)
    positions = []
    for number, line in enumerate(lines, 1):
        try:
            positions.append(apply_alg(definition, line, named=named))
        except InputError as exc:
            return positions, InputError(f"line {number}: {exc}")
    return positions, None


def cached_table_exists(definition: Definition, metric: str) -> bool:
    """Whether a table of this definition and metric is in the cache."""
    from permgroup.tables.registry import cache_path

    return cache_path(definition, metric).exists()


def optimal_solutions(definition: Definition, lines: Sequence[str], metric: str = "qtm", *,
                      progress: Progress | None = None, max_build: int = MAX_BUILD,
                      time_limit: float = TIME_LIMIT, memory: int | None = None
                      ) -> list[list[str] | Unanswered]:
    """One optimal move list per line (see the module docstring), or an
    :class:`Unanswered` where the search ran out of ``time_limit`` seconds (per
    line) or ``memory`` bytes (:data:`permgroup.oracle.MEMORY` by default).  A
    bad line raises :class:`InputError` naming it, with the answers before it
    in ``answered`` (one line each)."""
    from permgroup.oracle import MEMORY

    positions, error = read_positions(definition, lines)
    answers = _solve(definition, positions, metric, progress, max_build, time_limit,
                     MEMORY if memory is None else memory) if positions else []
    if error is not None:
        error.answered = "".join(answer_line(a, n) for n, a in enumerate(answers, 1))
        raise error
    return answers


def answer_line(answer: list[str] | Unanswered, number: int) -> str:
    """An answer as a line of output: the moves, or a ``#`` line naming the
    input line left unanswered.

    >>> answer_line(["R", "U"], 1), answer_line(Unanswered("the time limit of 1 s", 9), 2)
    ('R U\\n', '# line 2: no optimal solution within the time limit of 1 s (every word of up to 9 moves ruled out)\\n')
    """
    if isinstance(answer, Unanswered):
        return f"# line {number}: {answer}\n"
    return " ".join(answer) + "\n"


def _solve(definition: Definition, positions: list[Position], metric: str,
           progress: Progress | None, max_build: int, time_limit: float, memory: int
           ) -> list[list[str] | Unanswered]:
    from permgroup.budget import MemoryBudgetError

    bound = position_bound(definition)
    normalized = rotated(definition)
    refused = None
    if not normalized and (bound <= max_build or (bound <= MAX_TABLE and
                                                  cached_table_exists(definition, metric))):
        from permgroup.tables.registry import load_or_build

        try:
            return load_or_build(definition, metric, "byte", progress=progress,
                                 memory=memory).solve_many(positions)
        except MemoryBudgetError as exc:  # past the memory: a search may answer instead
            refused = exc
    identical = any(len(set(definition.solved[o.name].pieces)) < o.size
                    for o in definition.orbits)
    if identical and not normalized and refused is not None:
        raise refused
    if identical and not normalized:
        raise InputError(f"{definition.name}: up to {bound:,} positions with identical pieces: "
                         "too many for a table here, and the search needs distinct pieces")
    from permgroup.tables import registry
    from permgroup.elements import Element
    from permgroup.formats.stickers import sticker_permutation, to_puzzle
    from permgroup.metric import metric_moves
    from permgroup.oracle import MAX_BUILD as ORACLE_BUILD, TimeUp, oracle
    from permgroup.perm import compose, identity, inverse

    puzzle = to_puzzle(definition)
    # up to rotation, the table over the classes (as the built-in puzzles'), if it fits
    way = oracle(puzzle, metric, max_build=ORACLE_BUILD if normalized else 0)
    start = sticker_permutation(definition, definition.solved)
    moves, model = metric_moves(puzzle, metric), registry.element_space(puzzle, metric)
    solved = model.normalize(identity(puzzle.degree))
    answers: list[list[str] | Unanswered] = []
    for position in positions:
        # the element taking solved to the position, as stickers
        g = compose(inverse(start), sticker_permutation(definition, position))
        try:
            word = way.solve(Element(puzzle, g), Element.identity(puzzle),
                             time.monotonic() + time_limit, memory)
        except TimeUp as exc:
            reason = (f"the time limit of {time_limit:g} s" if "time" in exc.reason
                      else exc.reason)
            answers.append(Unanswered(reason, exc.ruled_out))
            continue
        word = word or []
        done = g
        for m in word:
            done = compose(done, moves[m])
        if model.normalize(done) != solved:  # pragma: no cover - a word is checked
            raise RuntimeError(f"{definition.name}: the {way.way}'s word {' '.join(word)} "
                               "does not solve its position")
        answers.append(word)
    return answers
