"""Puzzle types in Kaggle Santa 2023's format, of any size: ``cube_N/N/N``,
``globe_A/B`` and ``wreath_N/N``, and a type Kaggle never had, ``megaminx``
(the library's Megaminx, :func:`puzzles.solids.megaminx`, its twelve face turns
in Santa's array form, every sticker its own label), with the moves Santa's ``puzzle_info.csv``
gives for the sizes it has (checked move for move in the tests) and the same
rules for every other size; and fresh rows of them for ``puzzles.csv``.

The moves come from the families (:mod:`puzzles.families`: ``cube-N``, which
is Santa's cube sticker for sticker; ``globe-A-B``; ``wreath-N``),
without the families' size limit.  Colours: a cube's faces ``A..F``; a
wreath's shared cells ``C``, the rest of the first ring ``A``, of the second
``B`` (as Santa's); a globe's upper rows, middle row (an even ``A``) and lower
rows in bands of columns, a letter each (Santa's pattern; the band width here
is ``ceil(2B/8)`` columns, Santa's own types chose theirs one by one); or every
position its own label ``N0, N1, ...``.

>>> info = puzzle_info(["wreath_5/5"])
>>> print(info.splitlines()[1][:40])
wreath_5/5,"{'l': [1, 2, 3, 4, 0, 5, 6, 
>>> solved_colours("wreath_5/5")
['C', 'A', 'C', 'A', 'A', 'B', 'B', 'B']
>>> rows = random_rows("wreath_5/5", 1, seed=3, steps=20)
>>> rows[0]["puzzle_type"], rows[0]["num_wildcards"]
('wreath_5/5', 0)
"""
from __future__ import annotations

import random
import re
from collections.abc import Sequence

from permgroup.errors import InputError
from puzzles.families import cube_moves, globe_moves, wreath_moves

_KIND = re.compile(r"(cube)_(\d+)/\2/\2|(globe)_(\d+)/(\d+)|(wreath)_(\d+)/\7")
#: types of a fixed size, with no colouring of Santa's (their labels are distinct)
FIXED = ("megaminx",)


def _parse(kind: str) -> tuple[str, tuple[int, ...]]:
    if kind in FIXED:
        return kind, ()
    match = _KIND.fullmatch(kind)
    if match is None:
        raise InputError(f"{kind!r}: expected cube_N/N/N, globe_A/B, wreath_N/N or megaminx")
    if match.group(1):
        n = int(match.group(2))
        if n < 2:
            raise InputError(f"{kind}: a cube needs N >= 2")
        return "cube", (n,)
    if match.group(3):
        a, b = int(match.group(4)), int(match.group(5))
        if a < 1 or b < 1:
            raise InputError(f"{kind}: a globe needs A >= 1 and B >= 1")
        return "globe", (a, b)
    n = int(match.group(7))
    if n < 4:
        raise InputError(f"{kind}: a wreath needs N >= 4")
    return "wreath", (n,)


def moves(kind: str) -> dict[str, list[int]]:
    """The type's moves, name -> permutation in Santa's array form (gather:
    ``new[i] = old[p[i]]``), inverses not listed (as in ``puzzle_info.csv``).

    >>> moves("globe_1/1")
    {'r0': [1, 0, 2, 3], 'r1': [0, 1, 3, 2], 'f0': [2, 1, 0, 3], 'f1': [0, 3, 2, 1]}
    """
    family, size = _parse(kind)
    if family == "megaminx":
        from puzzles.solids import megaminx

        # the library's arrays are images (i goes to p[i]); Santa's gather
        return {name: _inverse(list(p)) for name, p in megaminx().generators.items()}
    if family == "globe":
        return globe_moves(*size)
    if family == "wreath":
        return wreath_moves(*size)
    return cube_moves(*size)   # cube-N numbers its stickers as Santa does


def solved_colours(kind: str, distinct: bool = False) -> list[str]:
    """The solved state's labels (see the module docstring).

    >>> solved_colours("cube_2/2/2")[:6], len(solved_colours("cube_2/2/2"))
    (['A', 'A', 'A', 'A', 'B', 'B'], 24)
    >>> colours = solved_colours("globe_1/16")   # bands of four columns
    >>> "".join(colours[:32]), "".join(colours[32:36])
    ('AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHH', 'QQQQ')
    """
    family, size = _parse(kind)
    if distinct:
        return [f"N{i}" for i in range(len(next(iter(moves(kind).values()))))]
    if family in FIXED:
        raise InputError(f"{kind}: no colouring but distinct labels (distinct=True)")
    if family == "cube":
        return [chr(ord("A") + s // (size[0] ** 2)) for s in range(6 * size[0] ** 2)]
    if family == "wreath":
        n = size[0]
        return ["C" if i in (0, -(-n // 4)) else "A" for i in range(n)] + ["B"] * (n - 2)
    a, b = size
    width = 2 * b
    band = -(-width // 8)
    bands = (width + band - 1) // band
    out = []
    for r in range(a + 1):
        # the upper half, the middle row (an even A) and the lower half
        part = 0 if 2 * r < a else (1 if 2 * r == a else 2)
        out += [_label(part * bands + c // band) for c in range(width)]
    return out


def colourings(kind: str) -> tuple[bool, ...]:
    """The ``distinct`` values :func:`solved_colours` takes for the type.

    >>> colourings("cube_2/2/2"), colourings("megaminx")
    ((False, True), (True,))
    """
    return (True,) if _parse(kind)[0] in FIXED else (False, True)


def _label(k: int) -> str:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    return letters[k] if k < len(letters) else f"X{k}"


def puzzle_info(kinds: Sequence[str]) -> str:
    """``puzzle_info.csv`` text for these types."""
    lines = ["puzzle_type,allowed_moves"]
    for kind in kinds:
        body = ", ".join(f"'{name}': {p}" for name, p in moves(kind).items())
        lines.append(f'{kind},"{{{body}}}"')
    return "\n".join(lines) + "\n"


def random_rows(kind: str, count: int, *, seed: int = 0, steps: int | None = None,
                distinct: bool = False, wildcards: int = 0, first_id: int = 0) -> list[dict]:
    """``count`` rows of ``puzzles.csv`` (as dicts of its columns): each start
    made from the solved state by ``steps`` random moves (default: ten per
    position, enough to mix), so each is reachable."""
    goal = solved_colours(kind, distinct)
    table = moves(kind)
    table.update({f"-{k}": _inverse(p) for k, p in list(table.items())})
    names = sorted(table)
    rng = random.Random(f"{kind}-{seed}-{distinct}")
    steps = 10 * len(goal) if steps is None else steps
    out = []
    for i in range(count):
        state = list(goal)
        for _ in range(steps):
            p = table[rng.choice(names)]
            state = [state[j] for j in p]
        out.append({"id": first_id + i, "puzzle_type": kind, "solution_state": ";".join(goal),
                    "initial_state": ";".join(state), "num_wildcards": wildcards})
    return out


def _inverse(p: list[int]) -> list[int]:
    out = [0] * len(p)
    for i, x in enumerate(p):
        out[x] = i
    return out


def puzzles_csv(rows: Sequence[dict]) -> str:
    """``puzzles.csv`` text for rows made by :func:`random_rows`."""
    head = "id,puzzle_type,solution_state,initial_state,num_wildcards"
    return "\n".join([head, *(f"{r['id']},{r['puzzle_type']},{r['solution_state']},"
                              f"{r['initial_state']},{r['num_wildcards']}" for r in rows)]) + "\n"
