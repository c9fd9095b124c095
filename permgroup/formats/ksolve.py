"""The ksolve / twsearch text format (``.tws``, ``.def``).

Line oriented; ``#`` starts a comment; tokens are separated by blanks::

    Name NAME
    Set ORBIT n k                  one per orbit: n pieces, k orientations
    Solved                         (or StartState)
    ORBIT
    p1 ... pn                      1-based; repeated numbers: identical pieces
    o1 ... on                      optional (all 0)
    End
    Move NAME                      one block per generator; an orbit left out
    ...                            is left alone; pieces must be 1..n once each
    End
    MoveSequence NAME M1 M2 ...    a named sequence (any alg is accepted)
    MoveAlias NAME OTHER

Moves named ``x``, ``y``, ``z`` are whole-puzzle rotations, not moves.
A move's orientation line gives each piece's twist at the slot it comes *from*
(twsearch: "ksolve move representation maps cubies to orientation"), so the
reader turns it into the twist at the slot it lands in, the convention of
:mod:`permgroup.formats.definition` and KPuzzle, and the writer turns it back.
``Ignore`` and ``Illegal`` blocks are refused with a message naming the line.
Every fault names the file, the line and what is wrong.

>>> text = '''
... Name swap2
... Set P 2 3
... Solved
... P
... 1 2
... End
... Move A
... P
... 2 1
... 1 0
... End
... '''
>>> d = read_ksolve(text)
>>> d.moves["A"]["P"]  # the piece from slot 1 gains the twist, landing in slot 2
OrbitState(pieces=(1, 0), orientation=(0, 1))
>>> read_ksolve(to_ksolve(d)).fingerprint() == d.fingerprint()
True
"""
from __future__ import annotations

import re

from permgroup.errors import InputError
from permgroup.formats.definition import (
    Definition,
    Orbit,
    OrbitState,
    Position,
    identity,
    named_positions,
)

ROTATION = re.compile(r"^[xyz](2|')?$")
SOLVED_WORDS = ("Solved", "StartState")


class _Lines:
    """The meaningful lines of a file, each with its 1-based number."""

    def __init__(self, text: str, source: str):
        self.source = source
        self.items: list[tuple[int, list[str]]] = []
        for number, line in enumerate(text.splitlines(), 1):
            tokens = line.split("#", 1)[0].split()
            if tokens:
                self.items.append((number, tokens))
        self.i = 0

    def error(self, number: int | None, message: str) -> InputError:
        where = f"{self.source}, line {number}" if number else self.source
        return InputError(f"{where}: {message}")

    def next(self) -> tuple[int, list[str]] | None:
        if self.i >= len(self.items):
            return None
        self.i += 1
        return self.items[self.i - 1]

    def peek(self) -> tuple[int, list[str]] | None:
        return self.items[self.i] if self.i < len(self.items) else None


def _numbers(lines: _Lines, number: int, tokens: list[str], what: str) -> list[int]:
    values = []
    for t in tokens:
        if not re.fullmatch(r"\d+", t):
            raise lines.error(number, f"{what}: {t!r} is not a number")
        values.append(int(t))
    return values


def _block(lines: _Lines, orbits: dict[str, Orbit], title: str, start: int,
           is_move: bool) -> Position:
    """The orbits listed up to ``End``; checks every number against its orbit."""
    found: dict[str, OrbitState] = {}
    while True:
        item = lines.next()
        if item is None:
            raise lines.error(start, f"{title} has no End (the file ends inside the block)")
        number, tokens = item
        if tokens[0] == "End":
            return found
        name = tokens[0]
        if name in ("Move", "Set", "Solved", "StartState", "Name", "MoveSequence", "MoveAlias"):
            raise lines.error(start, f"{title} has no End before line {number}")
        if len(tokens) != 1:
            raise lines.error(number, f"{title}: expected a set name alone on its line, "
                                      f"got {' '.join(tokens)!r}")
        if name not in orbits:
            raise lines.error(number, f"{title}: unknown set {name!r} "
                                      f"(sets: {', '.join(orbits) or 'none'})")
        if name in found:
            raise lines.error(number, f"{title}: set {name!r} is given twice")
        orbit = orbits[name]
        item = lines.next()
        if item is None:
            raise lines.error(start, f"{title} has no End (the file ends inside the block)")
        number, tokens = item
        pieces = _numbers(lines, number, tokens, f"{title}, set {name}")
        if len(pieces) != orbit.size:
            raise lines.error(number, f"{title}, set {name}: expected {orbit.size} numbers, "
                                      f"got {len(pieces)}")
        for p in pieces:
            if not 1 <= p <= orbit.size:
                raise lines.error(number, f"{title}, set {name}: number {p} is out of range "
                                          f"1..{orbit.size}")
        if is_move:
            repeated = sorted({p for p in pieces if pieces.count(p) > 1})
            if repeated:
                raise lines.error(number, f"{title}, set {name}: {repeated[0]} appears "
                                          f"{pieces.count(repeated[0])} times: a move must be a "
                                          f"permutation of 1..{orbit.size}")
        orientation = [0] * orbit.size
        following = lines.peek()
        if following and all(re.fullmatch(r"\d+", t) for t in following[1]):
            number, tokens = lines.next()
            orientation = _numbers(lines, number, tokens, f"{title}, set {name}")
            if len(orientation) != orbit.size:
                raise lines.error(number, f"{title}, set {name}: expected {orbit.size} "
                                          f"orientations, got {len(orientation)}")
            for o in orientation:
                if o >= orbit.orientations:
                    raise lines.error(number, f"{title}, set {name}: orientation {o} is out of "
                                              f"range 0..{orbit.orientations - 1}")
        if is_move:  # a ksolve move lists each piece's twist at its source slot
            orientation = [orientation[p - 1] for p in pieces]
        found[name] = OrbitState(tuple(p - 1 for p in pieces), tuple(orientation))


def _renumbered(state: OrbitState) -> OrbitState:
    """Piece numbers in order of first appearance: ``1 1 3 3`` is ``1 1 2 2``."""
    labels: dict[int, int] = {}
    for p in state.pieces:
        labels.setdefault(p, len(labels))
    return OrbitState(tuple(labels[p] for p in state.pieces), state.orientation)


def read_ksolve(text: str, source: str = "<string>") -> Definition:
    """The :class:`Definition` in a ksolve/twsearch text (``source`` names the
    file in messages).

    >>> read_ksolve("Set P 2 1\\nMove A\\nP\\n1 1\\nEnd\\n", "two.tws")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: two.tws, line 4: Move A, set P: 1 appears 2 times: a move must be a permutation of 1..2
    """
    lines = _Lines(text, source)
    name = ""
    orbits: dict[str, Orbit] = {}
    solved: Position | None = None
    moves: dict[str, Position] = {}
    rotations: dict[str, Position] = {}
    derived: dict[str, str] = {}
    derived_lines: dict[str, int] = {}
    while (item := lines.next()) is not None:
        number, tokens = item
        word = tokens[0]
        if word == "Name":
            name = " ".join(tokens[1:])
        elif word == "Set":
            if len(tokens) not in (3, 4):
                raise lines.error(number, "expected 'Set NAME PIECES [ORIENTATIONS]'")
            if tokens[1] in orbits:
                raise lines.error(number, f"set {tokens[1]!r} is defined twice")
            if moves or solved is not None:
                raise lines.error(number, "Set lines must come before Solved and Move blocks")
            size, *k = _numbers(lines, number, tokens[2:], f"Set {tokens[1]}")
            k = k[0] if k else 1
            if size < 1 or k < 1:
                raise lines.error(number, f"Set {tokens[1]}: needs at least one piece and one "
                                          "orientation")
            orbits[tokens[1]] = Orbit(tokens[1], size, k)
        elif word in SOLVED_WORDS:
            if solved is not None:
                raise lines.error(number, f"a second {word} block")
            solved = _block(lines, orbits, word, number, is_move=False)
        elif word == "Move":
            if len(tokens) != 2:
                raise lines.error(number, "expected 'Move NAME'")
            move = tokens[1]
            if move in moves or move in rotations or move in derived:
                raise lines.error(number, f"move {move!r} is defined twice")
            block = _block(lines, orbits, f"Move {move}", number, is_move=True)
            (rotations if ROTATION.match(move) else moves)[move] = block
        elif word in ("MoveSequence", "MoveAlias"):
            if len(tokens) < 3 or (word == "MoveAlias" and len(tokens) != 3):
                raise lines.error(number, f"expected '{word} NAME " +
                                  ("OTHER'" if word == "MoveAlias" else "MOVE ...'"))
            if tokens[1] in moves or tokens[1] in derived or tokens[1] in rotations:
                raise lines.error(number, f"move {tokens[1]!r} is defined twice")
            derived[tokens[1]] = " ".join(tokens[2:])
            derived_lines[tokens[1]] = number
        elif word in ("Ignore", "Illegal", "ForbiddenPairs", "ForbiddenGroups", "Block"):
            raise lines.error(number, f"{word} blocks are not supported (permgroup builds the "
                                      "whole group; remove the block)")
        elif word == "End":
            raise lines.error(number, "End without a block to close")
        else:
            raise lines.error(number, f"unknown keyword {word!r} (expected Name, Set, Solved, "
                                      "Move, MoveSequence or MoveAlias)")
    if not orbits:
        raise lines.error(None, "no Set lines: a puzzle needs at least one set of pieces")
    if not moves:
        raise lines.error(None, "no Move blocks: a puzzle needs at least one move")
    ordered = tuple(orbits.values())
    one = identity(Definition(name, ordered, {}, {}))
    full_solved = {o: _renumbered((solved or {}).get(o, one[o])) for o in orbits}
    definition = Definition(
        name or source, ordered, full_solved,
        {m: {o: p.get(o, one[o]) for o in orbits} for m, p in moves.items()},
        derived,
        {m: {o: p.get(o, one[o]) for o in orbits} for m, p in rotations.items()},
    )
    try:
        named_positions(definition)
    except InputError as exc:
        bad = next((m for m in derived if repr(m) in str(exc)), None)
        raise lines.error(derived_lines.get(bad), str(exc)) from None
    return definition


def to_ksolve(definition: Definition) -> str:
    """The definition as ksolve/twsearch text (:func:`read_ksolve` reads it back to
    the same fingerprint).  Orbits a move leaves alone are left out.

    >>> from permgroup.formats.definition import Definition, Orbit, OrbitState
    >>> d = Definition("flip", (Orbit("E", 2, 2),), {"E": OrbitState((0, 0), (0, 0))},
    ...                {"F": {"E": OrbitState((1, 0), (1, 1))}})
    >>> print(to_ksolve(d))
    Name flip
    <BLANKLINE>
    Set E 2 2
    <BLANKLINE>
    Solved
    E
    1 1
    0 0
    End
    <BLANKLINE>
    Move F
    E
    2 1
    1 1
    End
    <BLANKLINE>
    """
    out = [f"Name {definition.name}", ""]
    out += [f"Set {o.name} {o.size} {o.orientations}" for o in definition.orbits]
    one = identity(definition)

    def block(title: str, position: Position, everything: bool) -> list[str]:
        is_move = not everything
        lines = ["", title]
        for o in definition.orbits:
            state = position[o.name]
            if not everything and state == one[o.name]:
                continue
            lines += [o.name, " ".join(str(p + 1) for p in state.pieces)]
            if o.orientations > 1:
                twists = list(state.orientation)
                if is_move:  # back to the twist at each piece's source slot
                    for i, j in enumerate(state.pieces):
                        twists[j] = state.orientation[i]
                lines.append(" ".join(map(str, twists)))
        return lines + ["End"]

    out += block("Solved", definition.solved, True)
    for name, position in {**definition.moves, **definition.rotations}.items():
        out += block(f"Move {name}", position, False)
    if definition.derived:
        out.append("")
        out += [f"MoveSequence {name} {alg}" for name, alg in definition.derived.items()]
    return "\n".join(out) + "\n"
