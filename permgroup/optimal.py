"""Optimal solutions of positions of a puzzle defined piece by piece.

Each position is given as the move sequence that makes it from solved (alg
notation: ``R U2 R'``, ``[R, U]``, derived moves by name).  The answers come
from the puzzle's God's-algorithm table (:mod:`permgroup.tables.orbit_table`) when it
is cached or small enough to build on the spot, all positions walked down at
once; otherwise from a bidirectional search (:mod:`permgroup.oracle`), one
position at a time.

>>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
>>> from permgroup.formats.ksolve import read_ksolve
>>> swap = read_ksolve("Set P 2 3\\nMove A\\nP\\n2 1\\n1 0\\nEnd\\n")
>>> optimal_solutions(swap, ["A", "A A A", ""], "htm")
[["A'"], ['A3'], []]
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from permgroup.errors import InputError
from permgroup.formats.definition import Definition, Position, apply_alg, named_positions
from permgroup.tables.statetable import Progress

#: the largest table (entries) built on the spot to answer a question
MAX_BUILD = 300_000_000
#: past this many positions (a bound) no table is tried at all
MAX_TABLE = 10 ** 13


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
    from permgroup.cache import cache_dir

    pattern = f"*-{metric}-{definition.fingerprint()[:16]}.orbit.table"
    return any(cache_dir().glob(pattern))


def optimal_solutions(definition: Definition, lines: Sequence[str], metric: str = "qtm", *,
                      progress: Progress | None = None, max_build: int = MAX_BUILD
                      ) -> list[list[str]]:
    """One optimal move list per line (see the module docstring).  A bad line
    raises :class:`InputError` naming it, with the answers before it in
    ``answered`` (one line each)."""
    positions, error = read_positions(definition, lines)
    answers = _solve(definition, positions, metric, progress, max_build) if positions else []
    if error is not None:
        error.answered = "".join(" ".join(a) + "\n" for a in answers)
        raise error
    return answers


def _solve(definition: Definition, positions: list[Position], metric: str,
           progress: Progress | None, max_build: int) -> list[list[str]]:
    bound = position_bound(definition)
    if bound <= max_build or (bound <= MAX_TABLE and cached_table_exists(definition, metric)):
        from permgroup.tables.orbit_table import load_orbit_table

        return load_orbit_table(definition, metric, progress=progress).solve_many(positions)
    identical = any(len(set(definition.solved[o.name].pieces)) < o.size
                    for o in definition.orbits)
    if identical:
        raise InputError(f"{definition.name}: up to {bound:,} positions with identical pieces: "
                         "too many for a table here, and the search needs distinct pieces")
    from permgroup.elements import Element
    from permgroup.formats.stickers import sticker_permutation, to_puzzle
    from permgroup.oracle import oracle
    from permgroup.perm import compose, inverse

    puzzle = to_puzzle(definition)
    way = oracle(puzzle, metric, max_build=0)
    start = sticker_permutation(definition, definition.solved)
    answers = []
    for position in positions:
        # the element taking solved to the position, as stickers
        g = compose(inverse(start), sticker_permutation(definition, position))
        word = way.solve(Element(puzzle, g), Element.identity(puzzle))
        answers.append(word or [])
    return answers
