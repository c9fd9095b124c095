"""Kaggle Santa 2023: ``puzzles.csv`` in, a submission (``id,moves``) out.

Each row is solved by the one solve path (:func:`permgroup.solve`) from the
row's moves (as :mod:`permgroup.formats.santa` reads them), start and goal
(its wildcards the positions allowed to differ), then applied
again here and compared with its goal before it is written: a row that is not
solved in its time is an error line on stderr naming its id, never a wrong row.
Progress, and a table per puzzle type of rows, moves and seconds, go to stderr.

>>> import os
>>> data = os.path.join("tests", "data", "santa2023")
>>> with open(os.path.join(data, "puzzles.csv")) as f:
...     text = f.read()
>>> import io
>>> out = solve_text(text, info=os.path.join(data, "puzzle_info.csv"), only=["wreath_6/6"],
...                  stream=io.StringIO())
>>> print(out, end="")  # doctest: +ELLIPSIS
id,moves
284,...
285,...
"""
from __future__ import annotations

import multiprocessing
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import TextIO

from permgroup.errors import InputError, Interrupted, Stopped
from permgroup.formats.santa import (Moves, SantaPuzzle, apply_word, moves_definition,
                                     read_puzzle_info, read_puzzles, with_inverses)
from permgroup.solution import Door, door, solve
from permgroup.formats.text import read_text

#: seconds each row may take by default...
TIME_LIMIT = 60.0
#: ... and a row of more stickers than this, TIME_LIMIT for each this many: a
#: big puzzle's word keeps shortening with time (the 33x33x33's insertions ran
#: 172 s to their end), where a small one's is done in seconds
STICKERS_PER_LIMIT = 1500


@dataclass(frozen=True)
class Answer:
    """One row's outcome: its word (``None`` when not solved) or why not, and time."""

    index: int
    word: list[str] | None
    error: str
    seconds: float


def default_time_limit(stickers: int) -> float:
    """Seconds a row of ``stickers`` positions may take when no limit is given:
    :data:`TIME_LIMIT`, more in proportion past :data:`STICKERS_PER_LIMIT`.

    >>> default_time_limit(54), default_time_limit(2166), default_time_limit(6534)
    (60.0, 86.64, 261.36)
    """
    return TIME_LIMIT * max(1.0, stickers / STICKERS_PER_LIMIT)


def _ignore_interrupt() -> None:
    """A worker leaves Ctrl-C to the parent, which writes the rows solved and
    ends the pool (each worker printed its own traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _solve_one(job: tuple[int, SantaPuzzle, Door], time_limit: float | None) -> Answer:
    """One row's answer, by the one solve path (:func:`permgroup.solve`)."""
    index, row, door = job
    if time_limit is None:
        time_limit = default_time_limit(len(row.start))
    began = time.perf_counter()
    try:
        word = solve(door, tuple(row.start.tolist()), tuple(row.goal.tolist()),
                     mismatches=row.wildcards, time_limit=time_limit).word
        error = ""
    except InputError as exc:
        word, error = None, str(exc)
    except Stopped as exc:  # the solve path owes a word; said, should it not give one
        word, error = None, f"no word found in {time_limit:g} s ({exc})"
    except Exception as exc:  # noqa: BLE001 - one row's failure must not lose the others
        word, error = None, f"internal error on this row: {type(exc).__name__}: {exc}"
    return Answer(index, word, error, time.perf_counter() - began)


def check(row: SantaPuzzle, moves: Moves, word: Sequence[str]) -> str:
    """Why ``word`` does not solve ``row`` (``""`` when it does), by applying it."""
    try:
        final = apply_word(row.start, moves, word)
    except InputError as exc:
        return f"the solver's word has an {exc}"
    wrong = row.mismatches(final)
    if wrong > row.wildcards:
        return (f"the solver's word leaves {wrong} positions wrong "
                f"({row.wildcards} wildcards): not written")
    return ""


def _select(rows: list[SantaPuzzle], only: Sequence[str] | None) -> list[SantaPuzzle]:
    if not only:
        return rows
    wanted = set(only)
    unknown = wanted - {r.type for r in rows} - {r.id for r in rows}
    if unknown:
        raise InputError(f"--only: no row has the type or id {sorted(unknown)[0]!r}")
    return [r for r in rows if r.type in wanted or r.id in wanted]


def _bar(done: int, total: int, moves: int, began: float, stream: TextIO) -> None:
    width = 30
    filled = width * done // max(total, 1)
    print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} rows, {moves:,} moves, "
          f"{time.perf_counter() - began:.0f} s", end="", file=stream, flush=True)


def summary(rows: Sequence[SantaPuzzle], answers: dict[int, Answer]) -> str:
    """The per-type table: rows, solved, moves, mean moves, seconds; the total last.

    >>> import numpy as np
    >>> r = SantaPuzzle("0", "ring_3", np.zeros(3), np.zeros(3), 0, ("A",))
    >>> print(summary([r], {0: Answer(0, ["t"], "", 0.5)}))
    type                 rows  solved       moves     mean  seconds
    ring_3                  1       1           1      1.0      0.5
    total                   1       1           1      1.0      0.5
    """
    lines = [f"{'type':<18} {'rows':>6} {'solved':>7} {'moves':>11} {'mean':>8} {'seconds':>8}"]
    kinds: dict[str, list[int]] = {}
    for i, r in enumerate(rows):
        kinds.setdefault(r.type, []).append(i)
    kinds["total"] = list(range(len(rows)))
    for kind, members in kinds.items():
        done = [answers[i] for i in members if i in answers]  # all but after a Ctrl-C
        solved = [a for a in done if a.word is not None]
        moves = sum(len(a.word) for a in solved)
        mean = f"{moves / len(solved):8.1f}" if solved else f"{'-':>8}"
        seconds = sum(a.seconds for a in done)
        lines.append(f"{kind:<18} {len(members):>6} {len(solved):>7} {moves:>11,} {mean} "
                     f"{seconds:>8.1f}")
    return "\n".join(lines)


def solve_rows(rows: Sequence[SantaPuzzle], info: dict[str, Moves], *,
               time_limit: float | None = None, jobs: int = 1,
               stream: TextIO | None = None) -> dict[int, Answer]:
    """Each row's :class:`Answer` by index, every word checked (a word that fails
    the check becomes an error).  ``time_limit``: seconds a row (``None``: each
    row's :func:`default_time_limit`).  ``jobs`` processes; progress on ``stream``
    (default stderr).  Ctrl-C ends the work: the answers so far are returned,
    fewer than the rows."""
    stream = sys.stderr if stream is None else stream
    moves = {kind: with_inverses(m) for kind, m in info.items()}
    doors = {kind: door(moves_definition(kind, m)) for kind, m in info.items()}
    # the largest puzzles first, so that the processes finish together
    order = sorted(range(len(rows)), key=lambda i: -len(rows[i].start))
    jobs_in_order = ((i, rows[i], doors[rows[i].type]) for i in order)
    one = partial(_solve_one, time_limit=time_limit)
    answers: dict[int, Answer] = {}
    began, total_moves = time.perf_counter(), 0
    pool = None
    try:
        if jobs > 1 and len(rows) > 1:
            pool = multiprocessing.get_context("fork").Pool(jobs, _ignore_interrupt)
            results = pool.imap_unordered(one, jobs_in_order)
        else:
            results = map(one, jobs_in_order)
        for answer in results:
            row = rows[answer.index]
            if answer.word is not None:
                error = check(row, moves[row.type], answer.word)
                if error:
                    answer = Answer(answer.index, None, error, answer.seconds)
            answers[answer.index] = answer
            if answer.word is None:
                print(f"{chr(10) if len(answers) > 1 else ''}permgroup: error: id {row.id} "
                      f"({row.type}): {answer.error}", file=stream, flush=True)
            else:
                total_moves += len(answer.word)
            _bar(len(answers), len(rows), total_moves, began, stream)
    except KeyboardInterrupt:
        pass  # the rows answered are kept; solve_text writes them
    finally:
        if pool is not None:
            pool.terminate()
    print(file=stream)
    return answers


def solve_text(text: str, *, info: str | None = None, time_limit: float | None = None,
               only: Sequence[str] | None = None, jobs: int | None = None,
               source: str = "puzzles.csv", stream: TextIO | None = None) -> str:
    """The submission for the ``puzzles.csv`` text: ``id,moves`` and a line per
    row solved, moves joined by ``.``.  ``info`` is the ``puzzle_info.csv`` path;
    ``only`` keeps the rows of those types or ids.  When some rows are not
    solved, :class:`InputError` names them, with the solved rows in ``answered``."""
    if info is None:
        raise InputError("santa2023 needs --info PUZZLE_INFO.csv (the moves of each type)")
    moves = read_puzzle_info(read_text(info), info)
    rows = _select(read_puzzles(text, moves, source), only)
    answers = solve_rows(rows, {k: moves[k] for k in {r.type for r in rows}},
                         time_limit=time_limit,
                         jobs=jobs or 1, stream=stream)
    print(summary(rows, answers), file=sys.stderr if stream is None else stream, flush=True)
    out = "id,moves\n" + "".join(f"{r.id},{'.'.join(answers[i].word)}\n"
                                 for i, r in enumerate(rows)
                                 if i in answers and answers[i].word is not None)
    if len(answers) < len(rows):
        solved = sum(a.word is not None for a in answers.values())
        raise Interrupted(f"{solved} of {len(rows)} rows solved before Ctrl-C, written; "
                          f"{len(rows) - len(answers)} not finished", out)
    failed = [r.id for i, r in enumerate(rows) if answers[i].word is None]
    if failed:
        error = InputError(f"{len(failed)} of {len(rows)} rows not solved (ids "
                           f"{', '.join(failed[:20])}{', ...' if len(failed) > 20 else ''}); "
                           "the others are written")
        error.answered = out
        raise error
    return out
