"""GAP puzzle files, as PuzzleGeometry's ``--gap`` writes them (read by GAP and CayleyPy).

The file is GAP code.  ``#`` starts a comment; statements end with ``;``.
Each move is a permutation of the stickers, numbered from 1, in cycle
notation, bound to a name that starts with ``M_``::

    M_F:=(1,20,10,5)(2,21,11,6)(3,19,12,4);

``Gen:=[M_F, M_U, ...];`` lists the generators (all the moves when it is
missing); ``ip:=[[1], [4, 7], ...];``, optional, lists one sticker of each
piece, grouped into sets of pieces that look alike (``[4, 7]``: the pieces
holding stickers 4 and 7 are identical, so the states are colourings).  A set
may span several orbits of pieces: it only colours them, and the group is
that of the moves.
Other statements (``Size(Group(Gen));``) are GAP commands and are skipped.

The file says nothing of pieces: they are found from the moves
(:mod:`permgroup.pieces`), and the puzzle becomes a
:class:`~permgroup.formats.definition.Definition` (one orbit per orbit of
pieces), so tables, optimal solutions and structure work on it.  Stickers no
move displaces are left out.  Move names lose their ``M_`` (PuzzleGeometry
writes ``M_M_F`` for ``M_F`` in some versions: both prefixes go when every
name has them).

>>> d = read_gap('M_A:=(1,2,3);\\nM_B:=(1,4)(2,5)(3,6);\\nGen:=[M_A,M_B];\\n')
>>> [(o.name, o.size, o.orientations) for o in d.orbits], list(d.moves)
([('P3', 2, 3)], ['A', 'B'])
>>> print(write_gap(d))
# gap: written by permgroup
M_A:=(1,2,3);
M_B:=(1,4)(2,5)(3,6);
Gen:=[
M_A,M_B
];
ip:=[[1],[4]];
"""
from __future__ import annotations

import os
import re

from permgroup.errors import InputError
from permgroup.formats.definition import Definition, OrbitState

_ASSIGN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*:=\s*(.*)", re.DOTALL)
_CALL = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*\s*\(.*\)", re.DOTALL)
_CYCLES = re.compile(r"(\(\s*\))|(\(\s*\d+(\s*,\s*\d+)*\s*\))")
_NAME = re.compile(r"[A-Za-z0-9_]+")


def _statements(text: str) -> list[tuple[int, str]]:
    """``(line, statement)`` pairs, comments removed, in order."""
    lines = [line.split("#", 1)[0] for line in text.splitlines()]
    result, current, start = [], [], None
    for number, line in enumerate(lines, 1):
        for part in re.split(r"(;)", line):
            if part == ";":
                statement = " ".join(current).strip()
                if statement:
                    result.append((start, statement))
                current, start = [], None
            elif part.strip():
                if start is None:
                    start = number
                current.append(part.strip())
    if " ".join(current).strip():
        raise InputError(f"line {start}: statement {' '.join(current)[:40]!r} has no closing ';'")
    return result


def _cycles(value: str, where: str) -> list[list[int]]:
    compact = value.strip()
    at = 0
    cycles = []
    while at < len(compact):
        if compact[at].isspace():
            at += 1
            continue
        match = _CYCLES.match(compact, at)
        if match is None:
            raise InputError(f"{where}: not cycle notation at character {at + 1} of "
                             f"{compact[:60]!r} (expected (a,b,...))")
        numbers = [int(x) for x in re.findall(r"\d+", match.group(0))]
        if numbers:
            cycles.append(numbers)
        at = match.end()
    return cycles


def _list_of_names(value: str, where: str) -> list[str]:
    inner = value.strip()
    if not (inner.startswith("[") and inner.endswith("]")):
        raise InputError(f"{where}: Gen must be a list [M_a, M_b, ...]")
    names = [n.strip() for n in inner[1:-1].split(",") if n.strip()]
    for n in names:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", n):
            raise InputError(f"{where}: {n!r} in Gen is not a name")
    return names


def _list_of_sets(value: str, where: str) -> list[list[int]]:
    inner = value.strip()
    if not re.fullmatch(r"\[\s*(\[\s*\d+(\s*,\s*\d+)*\s*\]\s*(,\s*\[\s*\d+(\s*,\s*\d+)*\s*\]\s*)*)?\]",
                        inner):
        raise InputError(f"{where}: ip must be a list of lists of sticker numbers "
                         "[[1], [4, 7], ...]")
    return [[int(x) for x in re.findall(r"\d+", part)]
            for part in re.findall(r"\[([^\[\]]*)\]", inner)]


def read_gap(text: str, source: str = "<gap>") -> Definition:
    """The definition in a GAP puzzle file (see the module docstring);
    :class:`InputError` naming the file, the line and the fault.

    >>> read_gap("M_A:=(1,2)(2,3);", "bad.gap")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: bad.gap, line 1: move M_A: point 2 appears twice in '(1,2)(2,3)'
    >>> read_gap("M_A:=(1,2);\\nGen:=[M_A,M_B];", "bad.gap")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: bad.gap, line 2: Gen names M_B, which no line defines
    """
    from permgroup.formats.stickers import from_puzzle
    from permgroup.pieces import find_pieces, piece_kinds
    from permgroup.puzzle import Puzzle

    try:
        statements = _statements(text)
    except InputError as exc:
        raise InputError(f"{source}, {exc}") from None
    raw: dict[str, tuple[int, str, list[list[int]]]] = {}
    gen: tuple[int, list[str]] | None = None
    identical: tuple[int, list[list[int]]] | None = None
    for line, statement in statements:
        where = f"{source}, line {line}"
        match = _ASSIGN.fullmatch(statement)
        if match is None:
            if _CALL.fullmatch(statement):
                continue  # a GAP command: nothing to read
            raise InputError(f"{where}: {statement[:40]!r} is not NAME:=VALUE")
        name, value = match.groups()
        if name == "Gen":
            gen = (line, _list_of_names(value, where))
        elif name == "ip":
            identical = (line, _list_of_sets(value, where))
        elif value.strip().startswith("("):
            if name in raw:
                raise InputError(f"{where}: move {name} is defined twice")
            raw[name] = (line, value.strip(), _cycles(value, f"{where}: move {name}"))
        else:
            raise InputError(f"{where}: {name} is neither a move (cycles), Gen nor ip")
    if gen is not None:
        for n in gen[1]:
            if n not in raw:
                raise InputError(f"{source}, line {gen[0]}: Gen names {n}, which no line "
                                 "defines")
        chosen = gen[1]
    else:
        chosen = list(raw)
    if not chosen:
        raise InputError(f"{source}: no moves (lines M_name:=(cycles);)")
    # stickers no move displaces are left out, so the ones moved are numbered
    # 0..degree-1 in order: a file's numbering (a point 30,000,000) costs nothing
    points = sorted({x for n in chosen for c in raw[n][2] for x in c})
    if not points or points[0] < 1:
        raise InputError(f"{source}: stickers are numbered from 1")
    degree, number = len(points), {x: i for i, x in enumerate(points)}
    moves = {}
    for n in chosen:
        line, value, cycles = raw[n]
        moves[n] = _permutation(cycles, number, degree, f"{source}, line {line}: move {n}",
                                value)
    names = _move_names(list(moves))
    pieces = find_pieces(degree, list(moves.values()))
    kinds = piece_kinds(pieces)
    stem = os.path.basename(source)
    title = re.sub(r"\.(gap|g)$|[<>]", "", stem, flags=re.IGNORECASE) or "gap"
    puzzle = Puzzle(title, degree, {names[n]: g for n, g in moves.items()}, pieces=kinds)
    definition = from_puzzle(puzzle)
    if identical is not None:
        definition = _with_identical(definition, kinds, identical[1],
                                     f"{source}, line {identical[0]}", points)
    return definition


def _permutation(cycles: list[list[int]], number, degree: int, where: str, value: str):
    """The permutation of ``degree`` points whose cycles are ``cycles`` (a file's
    point ``x`` is point ``number[x]``), each point at most once."""
    from permgroup.perm import from_cycles

    seen: set[int] = set()
    for x in (x for c in cycles for x in c):
        if x in seen:
            raise InputError(f"{where}: point {x} appears twice in {value!r}")
        seen.add(x)
    return from_cycles([[number[x] for x in c] for c in cycles], degree)


def _arguments(value: str) -> list[str]:
    """The arguments of a call's text ``Name(a, b, ...)``, split at the commas
    outside parentheses."""
    inner = value[value.index("(") + 1:value.rindex(")")]
    items, depth, current = [], 0, []
    for ch in inner:
        if ch == "," and depth == 0:
            items.append("".join(current))
            current = []
            continue
        depth += ch == "("
        depth -= ch == ")"
        current.append(ch)
    items.append("".join(current))
    return [item.strip() for item in items if item.strip()]


def read_group(text: str, degree: int | None = None, name: str | None = None,
               source: str = "<gap>"):
    """The :class:`~permgroup.puzzle.Puzzle` (generators only, the sticker
    numbering kept) of GAP text that builds a group: ``G := Group((1,2,3), ...);``
    with the move names of a ``FreeGroup("A", ...)`` when there is one (else
    ``g1, g2, ...``), and the name and degree of a ``# name: N points`` comment
    (:func:`permgroup.export.to_gap` writes such text).  Read by the same
    statements and cycles as :func:`read_gap`'s puzzle files.

    >>> read_group("G := Group((1,2,3), (1,2));").generators
    {'g1': (1, 2, 0), 'g2': (1, 0, 2)}
    >>> read_group("G := Group((1,2)(2,3));")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: <gap>, line 1: generator g1: point 2 appears twice in '(1,2)(2,3)'
    >>> read_group("G := Group((1,30000000000));")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    permgroup.budget.MemoryBudgetError: <gap>, line 1: a group of 30,000,000,000 points and 1 generators needs 4.2 TB, ...
    """
    import json

    from permgroup.puzzle import Puzzle

    try:
        statements = _statements(text)
    except InputError as exc:
        raise InputError(f"{source}, {exc}") from None
    group = free = None
    for line, statement in statements:
        match = _ASSIGN.fullmatch(statement)
        value = match.group(2).strip() if match else ""
        if re.match(r"Group\s*\(", value):
            group = (line, value)
        elif re.match(r"FreeGroup\s*\(", value):
            free = (line, value)
    if group is None:
        raise InputError(f"{source}: no Group( ... ) in the GAP text")
    line, value = group
    if value.count("(") != value.count(")") or not value.endswith(")"):
        raise InputError(f"{source}, line {line}: the Group( ... ) in the GAP text is not closed")
    items = _arguments(value)
    where = f"{source}, line {line}"
    cycles = [_cycles(item, f"{where}: generator {i + 1}") for i, item in enumerate(items)]
    header = re.search(r"#\s*(.*?):\s*(\d+) points", text)
    if degree is None:
        degree = int(header.group(2)) if header else \
            max((x for c in cycles for cycle in c for x in cycle), default=1)
    if free is not None:
        names = [json.loads(f'"{n}"')
                 for n in re.findall(r'"((?:[^"\\]|\\.)*)"', free[1])]
        if len(names) != len(items):
            raise InputError(f"{source}, line {free[0]}: FreeGroup names {len(names)} moves "
                             f"but Group has {len(items)}")
    else:
        names = [f"g{i + 1}" for i in range(len(items))]
    from permgroup.budget import Budget

    # the numbering and each generator's tuple hold a Python int a point
    Budget.of().require(degree * (100 + 40 * len(items)),
                        f"{where}: a group of {degree:,} points and {len(items)} generators",
                        "number the points 1..N with N the points the generators move")
    number = {x: x - 1 for x in range(1, degree + 1)}
    gens = {}
    for n, item, c in zip(names, items, cycles):
        outside = [x for cycle in c for x in cycle if x not in number]
        if outside:
            raise InputError(f"{where}: generator {n}: point {outside[0]} is outside "
                             f"1..{degree}")
        gens[n] = _permutation(c, number, degree, f"{where}: generator {n}", item)
    return Puzzle(name or (header.group(1) if header else "gap"), degree, gens)


def _move_names(names: list[str]) -> dict[str, str]:
    """File names to move names: ``M_`` dropped (twice when every name has ``M_M_``)."""
    prefix = "M_M_" if all(n.startswith("M_M_") and len(n) > 4 for n in names) else "M_"
    result = {n: n[len(prefix):] if n.startswith(prefix) and len(n) > len(prefix) else n
              for n in names}
    if len(set(result.values())) < len(result):
        return {n: n for n in names}
    return result


def _with_identical(definition: Definition, kinds: dict, sets: list[list[int]],
                    where: str, numbers: list[int]) -> Definition:
    """The solved position with the pieces of each ``ip`` set made alike, each
    turned so that its listed sticker shows the same facelet (stickers of
    pieces no move displaces are skipped); ``numbers[x]`` is the file's number
    of sticker ``x`` of ``kinds``."""
    place = {}  # sticker (the file's number) -> (orbit, slot, position in the piece)
    for kind, pieces in kinds.items():
        for slot, piece in enumerate(pieces):
            for r, x in enumerate(piece):
                place[numbers[x]] = (kind, slot, r)
    labels = {o.name: [None] * o.size for o in definition.orbits}
    turns = {o.name: [0] * o.size for o in definition.orbits}
    for number, stickers in enumerate(sets):
        # a set may span orbits of the group (a helicopter's centres): no move
        # carries a piece from one orbit to another, so within each orbit its
        # pieces are alike, and the group is the same
        for x in stickers:
            if x not in place:
                continue  # a piece no move displaces is not part of the state
            kind, slot, r = place[x]
            if labels[kind][slot] is not None:
                raise InputError(f"{where}: the piece of sticker {x} is listed twice in ip")
            labels[kind][slot] = number
            turns[kind][slot] = r
    solved = {}
    for o in definition.orbits:
        first: dict = {}
        pieces = []
        for slot, label in enumerate(labels[o.name]):
            key = ("set", label) if label is not None else ("slot", slot)
            pieces.append(first.setdefault(key, len(first)))
        solved[o.name] = OrbitState(tuple(pieces), tuple(turns[o.name]))
    return Definition(definition.name, definition.orbits, solved, definition.moves,
                      definition.derived, definition.rotations)


def write_gap(definition: Definition) -> str:
    """The definition as a GAP puzzle file (see the module docstring): one
    ``M_name`` line per generator on the stickers of
    :func:`permgroup.formats.stickers.to_puzzle`, ``Gen`` and ``ip``.  Derived
    moves and rotations are not written; a move name GAP cannot take is an
    :class:`InputError`."""
    from permgroup.elements import cycle_notation
    from permgroup.formats.stickers import sticker_offsets, sticker_permutation

    lines = [f"# {definition.name}: written by permgroup"]
    for name, move in definition.moves.items():
        if not _NAME.fullmatch(name):
            raise InputError(f"{definition.name}: move {name!r} cannot be a GAP name "
                             "(letters, digits and _ only)")
        lines.append(f"M_{name}:=" + cycle_notation(sticker_permutation(definition, move),
                                                   one_based=True, separator=",") + ";")
    lines += ["Gen:=[", ",".join(f"M_{n}" for n in definition.moves), "];"]
    offsets = sticker_offsets(definition)
    sets = []
    for o in definition.orbits:
        solved = definition.solved[o.name]
        groups: dict[int, list[int]] = {}
        for slot, (label, turn) in enumerate(zip(solved.pieces, solved.orientation)):
            groups.setdefault(label, []).append(offsets[o.name] + o.orientations * slot
                                                + turn + 1)
        sets += list(groups.values())
    lines.append("ip:=[" + ",".join("[" + ",".join(map(str, s)) + "]" for s in sets) + "];")
    return "\n".join(lines)
