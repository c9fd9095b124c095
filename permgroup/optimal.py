"""Optimal solutions of positions of a puzzle defined piece by piece.

Each position is given as the move sequence that makes it from solved (alg
notation: ``R U2 R'``, ``[R, U]``, derived moves by name).  Each is answered
by the one solve path (:func:`permgroup.solve`, its exact methods only: the
puzzle's God's-algorithm table when it is cached or fits in the time, else an
exact search), within ``time_limit`` seconds and ``memory`` bytes: a position
the search gives up on is answered with :class:`Unanswered`, which says why
and how many moves were ruled out.

>>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
>>> from permgroup.formats.ksolve import read_ksolve
>>> swap = read_ksolve("Set P 2 3\\nMove A\\nP\\n2 1\\n1 0\\nEnd\\n")
>>> optimal_solutions(swap, ["A", "A A A", ""], "htm")
[["A'"], ['A3'], []]
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from permgroup.errors import InputError, counted
from permgroup.formats.definition import Definition, position_bound  # noqa: F401 (re-exported)
from permgroup.progress import Progress

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


def optimal_solutions(definition: Definition, lines: Sequence[str], metric: str = "qtm", *,
                      progress: Progress | None = None, time_limit: float = TIME_LIMIT,
                      memory: int | str | None = None) -> list[list[str] | Unanswered]:
    """One optimal move list per line (see the module docstring), or an
    :class:`Unanswered` where it ran out of ``time_limit`` seconds (per line)
    or ``memory`` (:func:`optimal_answers`, all of them)."""
    return list(optimal_answers(definition, lines, metric, progress=progress,
                                time_limit=time_limit, memory=memory))


def optimal_answers(definition, lines: Sequence[str], metric: str = "qtm", *,
                    progress: Progress | None = None, time_limit: float = TIME_LIMIT,
                    memory: int | str | None = None) -> Iterator[list[str] | Unanswered]:
    """:func:`optimal_solutions` one line at a time, from
    :func:`permgroup.solution.solve_many` with ``optimal=True`` (lines of
    moves answered together where a table allows).  A bad line raises
    :class:`InputError` naming it, with the answers before it in ``answered``
    (one line each)."""
    from permgroup.errors import Stopped
    from permgroup.solution import door, solve_many

    answers: list[list[str] | Unanswered] = []
    for number, found in enumerate(solve_many(door(definition), lines, metric=metric,
                                              time_limit=time_limit, memory=memory,
                                              optimal=True, progress=progress), 1):
        if isinstance(found, Stopped):
            reason = (f"the time limit of {time_limit:g} s" if "time" in found.reason
                      else found.reason)
            found = Unanswered(reason, found.ruled_out)
        elif isinstance(found, InputError):
            error = InputError(f"line {number}: {found}")
            error.answered = "".join(answer_line(a, n) for n, a in enumerate(answers, 1))
            raise error from None
        else:
            found = found.word
        answers.append(found)
        yield found


def answer_line(answer: list[str] | Unanswered, number: int) -> str:
    """An answer as a line of output: the moves, or a ``#`` line naming the
    input line left unanswered.

    >>> answer_line(["R", "U"], 1), answer_line(Unanswered("the time limit of 1 s", 9), 2)
    ('R U\\n', '# line 2: no optimal solution within the time limit of 1 s (every word of up to 9 moves ruled out)\\n')
    """
    if isinstance(answer, Unanswered):
        return f"# line {number}: {answer}\n"
    return " ".join(answer) + "\n"
