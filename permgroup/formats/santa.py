"""Kaggle's Santa 2023 files: ``puzzle_info.csv`` (moves) and ``puzzles.csv`` (rows).

``puzzle_info.csv`` has the columns ``puzzle_type,allowed_moves``; a type's
moves are a Python dict literal, move name -> permutation in array form, applied
to a state by *gathering*: ``new[i] = old[p[i]]``.  ``-name`` is the inverse of
``name`` and counts as one move, like every listed move.  ``puzzles.csv`` has
``id,puzzle_type,solution_state,initial_state,num_wildcards``; states are
``;``-separated colour labels (equal labels: identical pieces), and a row is
solved when the final state differs from ``solution_state`` in at most
``num_wildcards`` positions.

Every reader checks what it reads and raises
:class:`~permgroup.errors.InputError` naming the file, line and column.

>>> info = read_puzzle_info('puzzle_type,allowed_moves\\nring_3,"{\\'t\\': [1, 2, 0]}"\\n')
>>> moves = with_inverses(info["ring_3"])
>>> sorted(moves), apply_word(np.array([5, 6, 7]), moves, ["t", "t"]).tolist()
(['-t', 't'], [7, 5, 6])
>>> rows = read_puzzles("id,puzzle_type,solution_state,initial_state,num_wildcards\\n"
...                     "0,ring_3,A;B;C,C;A;B,0\\n", info)
>>> rows[0].id, rows[0].mismatches(apply_word(rows[0].start, moves, ["t"]))
('0', 0)
"""
from __future__ import annotations

import ast
import csv
import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from permgroup.errors import InputError
from permgroup.formats.text import read_text

#: the columns each file must have
INFO_COLUMNS = ("puzzle_type", "allowed_moves")
PUZZLE_COLUMNS = ("id", "puzzle_type", "solution_state", "initial_state", "num_wildcards")

Moves = dict[str, np.ndarray]


def _rows(text: str, source: str, columns: Sequence[str]) -> Iterable[tuple[int, dict]]:
    """The rows of a CSV text as ``(line number, {column: value})``, after checking
    that the header has every column needed."""
    csv.field_size_limit(1 << 30)  # a cube_33/33/33 line holds 4 MB of moves
    reader = csv.reader(text.splitlines(keepends=True))
    try:
        header = next(reader)
    except StopIteration:
        raise InputError(f"{source}: empty file (expected the header {','.join(columns)})") from None
    missing = [c for c in columns if c not in header]
    if missing:
        raise InputError(f"{source}, line 1: missing column{'s' * (len(missing) > 1)} "
                         f"{', '.join(missing)} (the header is {','.join(header)!r})")
    where = {c: header.index(c) for c in columns}
    for fields in reader:
        if not fields:
            continue
        if len(fields) != len(header):
            raise InputError(f"{source}, line {reader.line_num}: {len(fields)} fields, the header "
                             f"has {len(header)}")
        yield reader.line_num, {c: fields[i] for c, i in where.items()}


def _literal(text: str) -> object:
    try:  # the files' dicts are JSON but for their quotes; json is ten times faster
        return json.loads(text.replace("'", '"'))
    except ValueError:
        return ast.literal_eval(text)


def read_moves(text: str, where: str) -> Moves:
    """One type's ``allowed_moves`` cell: name -> gather permutation (int array).

    >>> read_moves("{'a': [1, 0, 2], 'b': [0, 2, 1]}", "t")["b"].tolist()
    [0, 2, 1]
    >>> read_moves("{'a': [1, 1, 2]}", "t")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: t: move 'a' is not a permutation of 0..2 (1 appears twice, 0 is missing)
    >>> read_moves("{'a': [1, 2 ** 63, 2]}".replace("2 ** 63", str(2 ** 63)), "t")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: t: move 'a' is not a permutation of 0..2 (9223372036854775808 is out of range)
    """
    try:
        value = _literal(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        raise InputError(f"{where}: not a Python dict literal of moves") from None
    if not isinstance(value, dict) or not value:
        raise InputError(f"{where}: expected a non-empty dict of move name -> permutation")
    moves: Moves = {}
    degree = None
    for name, image in value.items():
        if not isinstance(name, str) or not name or name.startswith("-") or "." in name:
            raise InputError(f"{where}: bad move name {name!r} (a name may not start with '-' "
                             "or hold a '.')")
        if not isinstance(image, list) or not all(type(x) is int for x in image):
            raise InputError(f"{where}: move {name!r} is not a list of integers")
        degree = len(image) if degree is None else degree
        if len(image) != degree:
            raise InputError(f"{where}: move {name!r} has {len(image)} entries, the first move "
                             f"has {degree}")
        try:
            p = np.array(image, dtype=np.int64)
        except OverflowError:  # past 64 bits: out of range, whatever the degree
            bad = next(x for x in image if not -2 ** 63 <= x < 2 ** 63)
            raise InputError(f"{where}: move {name!r} is not a permutation of 0..{degree - 1} "
                             f"({bad} is out of range)") from None
        counts = np.bincount(p[(p >= 0) & (p < degree)], minlength=degree)
        if len(p) and ((p < 0) | (p >= degree)).any():
            bad = int(p[(p < 0) | (p >= degree)][0])
            raise InputError(f"{where}: move {name!r} is not a permutation of 0..{degree - 1} "
                             f"({bad} is out of range)")
        if (counts != 1).any():
            twice, missing = int(np.argmax(counts > 1)), int(np.argmax(counts == 0))
            raise InputError(f"{where}: move {name!r} is not a permutation of 0..{degree - 1} "
                             f"({twice} appears twice, {missing} is missing)")
        moves[name] = p.astype(np.int32)
    return moves


def read_puzzle_info(text: str, source: str = "puzzle_info.csv",
                     types: Iterable[str] | None = None) -> dict[str, Moves]:
    """puzzle type -> its moves, from the text of a ``puzzle_info.csv``; only the
    ``types`` asked for (all without it) are parsed."""
    wanted = None if types is None else set(types)
    info: dict[str, Moves] = {}
    lines: dict[str, int] = {}
    for line, row in _rows(text, source, INFO_COLUMNS):
        name = row["puzzle_type"]
        if name in lines:
            raise InputError(f"{source}, line {line}, column puzzle_type: type {name!r} already "
                             f"defined on line {lines[name]}")
        lines[name] = line
        if wanted is None or name in wanted:
            info[name] = read_moves(row["allowed_moves"],
                                    f"{source}, line {line}, column allowed_moves ({name})")
    return info


@dataclass(frozen=True)
class SantaPuzzle:
    """One row of ``puzzles.csv``: colours as small integers (one labelling shared
    by the two states), and the number of positions allowed to differ."""

    id: str
    type: str
    start: np.ndarray
    goal: np.ndarray
    wildcards: int
    labels: tuple[str, ...]

    def mismatches(self, state: np.ndarray) -> int:
        """How many positions of ``state`` differ from the goal."""
        return int(np.count_nonzero(np.asarray(state) != self.goal))


def read_puzzles(text: str, info: Mapping[str, Moves], source: str = "rows.csv"
                 ) -> list[SantaPuzzle]:
    """The rows of a ``puzzles.csv`` text, checked against the types in ``info``."""
    rows = []
    seen: dict[str, int] = {}
    for line, row in _rows(text, source, PUZZLE_COLUMNS):
        at = f"{source}, line {line}"
        kind, ident = row["puzzle_type"], row["id"]
        if not ident:
            raise InputError(f"{at}, column id: empty id")
        if ident in seen:
            raise InputError(f"{at}, column id: id {ident!r} already used on line {seen[ident]}")
        seen[ident] = line
        if kind not in info:
            known = ", ".join(sorted(info)) or "none"
            raise InputError(f"{at}, column puzzle_type: unknown type {kind!r} (the puzzle info "
                             f"has {known})")
        degree = len(next(iter(info[kind].values())))
        states = {}
        for column in ("solution_state", "initial_state"):
            colours = row[column].split(";")
            if len(colours) != degree or not all(colours):
                what = (f"{len(colours)} colours" if all(colours) else "an empty colour")
                raise InputError(f"{at}, column {column}: {what}, {kind} has {degree} positions")
            states[column] = colours
        try:
            wildcards = int(row["num_wildcards"])
        except ValueError:
            wildcards = -1
        if wildcards < 0:
            raise InputError(f"{at}, column num_wildcards: {row['num_wildcards']!r} is not a "
                             "number >= 0")
        goal, start = Counter(states["solution_state"]), Counter(states["initial_state"])
        short = goal - start  # every goal colour missing from the start is a mismatch
        if sum(short.values()) > wildcards:
            colour = sorted(short)[0]
            raise InputError(f"{at}: the colours cannot match: solution_state has {goal[colour]} "
                             f"{colour!r}, initial_state {start[colour]} "
                             f"({sum(short.values())} positions must differ, "
                             f"{wildcards} wildcards)")
        labels = tuple(dict.fromkeys(states["solution_state"] + states["initial_state"]))
        code = {c: i for i, c in enumerate(labels)}
        dtype = np.uint8 if len(labels) <= 256 else np.uint16
        rows.append(SantaPuzzle(
            ident, kind,
            np.array([code[c] for c in states["initial_state"]], dtype=dtype),
            np.array([code[c] for c in states["solution_state"]], dtype=dtype),
            wildcards, labels))
    return rows


def with_inverses(moves: Mapping[str, np.ndarray]) -> Moves:
    """Every move that counts as one: each listed move ``name`` and its inverse
    ``-name`` (gather form, like the file's)."""
    out: Moves = {}
    for name, p in moves.items():
        out[name] = p
        out["-" + name] = np.argsort(p).astype(p.dtype)
    return out


def apply_word(state: np.ndarray, moves: Mapping[str, np.ndarray], word: Iterable[str]
               ) -> np.ndarray:
    """The state after the moves of ``word``, one gather each (:class:`InputError`
    for an unknown move)."""
    state = np.asarray(state)
    for name in word:
        try:
            state = state[moves[name]]
        except KeyError:
            raise InputError(f"unknown move {name!r}") from None
    return state


def type_and_path(source: str) -> tuple[str, str] | None:
    """``(path, type)`` of a ``PATH#TYPE`` source naming a Santa puzzle type.

    >>> type_and_path("data/puzzle_info.csv#cube_4/4/4")
    ('data/puzzle_info.csv', 'cube_4/4/4')
    >>> type_and_path("skewb.tws") is None
    True
    """
    path, sep, kind = str(source).rpartition("#")
    if not sep or not kind or not path.lower().endswith(".csv"):
        return None
    return path, kind


def read_type(path: str | os.PathLike, kind: str) -> Moves:
    """The moves of one type in a ``puzzle_info.csv`` file (:class:`InputError`
    naming the types the file has when it has not this one)."""
    source = os.fspath(path)
    text = read_text(source)
    info = read_puzzle_info(text, source, [kind])
    if kind not in info:
        known = ", ".join(read_puzzle_info_types(text, source))
        raise InputError(f"{source}: no puzzle type {kind!r} (it has {known})")
    return info[kind]


def read_puzzle_info_types(text: str, source: str = "puzzle_info.csv") -> list[str]:
    """The type names a ``puzzle_info.csv`` text defines, in file order."""
    return [row["puzzle_type"] for _, row in _rows(text, source, INFO_COLUMNS)]


def santa_definition(path: str | os.PathLike, kind: str):
    """The :class:`~permgroup.formats.definition.Definition` of type ``kind`` of a
    ``puzzle_info.csv``: its pieces found from the moves
    (:func:`~permgroup.formats.stickers.definition_of`), every position
    distinct in the solved state, the moves named as in the file, ``-name``
    their inverses; its sticker view numbers the positions as the file does.

    >>> import os
    >>> d = santa_definition(os.path.join("tests", "data", "santa2023", "puzzle_info.csv"),
    ...                      "cube_2/2/2")
    >>> d.name, [(o.size, o.orientations) for o in d.orbits], list(d.moves)[:3], d.derived["-f0"]
    ('cube_2/2/2', [(8, 3)], ['f0', 'f1', 'r0'], "f0'")
    >>> d.puzzle.degree, d.puzzle.name
    (24, 'cube_2-2-2')
    """
    return moves_definition(kind, read_type(path, kind))


def moves_definition(kind: str, moves: Mapping[str, np.ndarray]):
    """The :class:`~permgroup.formats.definition.Definition` of a type's moves
    (as :func:`read_puzzle_info` reads them): see :func:`santa_definition`.

    >>> d = moves_definition("ring_3", {"t": np.array([1, 2, 0])})
    >>> list(d.moves), d.derived
    (['t'], {'-t': "t'"})
    """
    from permgroup.formats.stickers import definition_of, puzzle_name
    from permgroup.puzzle import Puzzle

    degree = len(next(iter(moves.values())))
    # the file's moves gather (new[i] = old[p[i]]); the engine's send sticker i to p⁻¹[i]
    view = Puzzle(puzzle_name(kind), degree,
                  {name: tuple(int(x) for x in np.argsort(p)) for name, p in moves.items()},
                  solved=tuple(range(degree)))
    return definition_of(view, name=kind, derived={"-" + name: f"{name}'" for name in moves})
