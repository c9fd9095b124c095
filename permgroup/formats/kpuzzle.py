"""cubing.js KPuzzle JSON (``*.kpuzzle.json``).

::

    {"name": ..., "orbits": [{"orbitName": "CORNERS", "numPieces": 8, "numOrientations": 3}],
     "defaultPattern": {"CORNERS": {"pieces": [...], "orientation": [...]}},
     "moves": {"U": {"CORNERS": {"permutation": [...], "orientationDelta": [...]}}},
     "derivedMoves": {"Uw": "U E'", ...}}

0-based; a move's ``permutation``/``orientationDelta`` compose as in
:mod:`permgroup.formats.definition` (older files say ``orientation``; ``orbits``
may be an object keyed by name).  As in cubing.js, derived moves are moves
like the others (its own 2x2x2 gives only ``U``, ``x`` and ``y`` and derives
``L F R B D``), except whole-puzzle rotations: ``x``, ``y``, ``z`` and names
ending in ``v`` (``Uv``) rotate the puzzle, they do not turn it.  Faults name
the file, the JSON path and, where it can be found, the line.

>>> text = '''{"name": "swap2",
...  "orbits": [{"orbitName": "P", "numPieces": 2, "numOrientations": 3}],
...  "defaultPattern": {"P": {"pieces": [0, 1], "orientation": [0, 0]}},
...  "moves": {"A": {"P": {"permutation": [1, 0], "orientationDelta": [1, 0]}}},
...  "derivedMoves": {"B": "A2'"}}'''
>>> d = read_kpuzzle(text)
>>> d.moves["A"]["P"], d.moves["B"]["P"]  # a derived move is a move
(OrbitState(pieces=(1, 0), orientation=(1, 0)), OrbitState(pieces=(0, 1), orientation=(2, 2)))
>>> read_kpuzzle(to_kpuzzle(d)).fingerprint() == d.fingerprint()
True
"""
from __future__ import annotations

import json

from permgroup.errors import InputError
from permgroup.formats.definition import (
    Definition,
    Orbit,
    OrbitState,
    Position,
    identity,
    named_positions,
)
from permgroup.formats.ksolve import ROTATION, _renumbered


def is_rotation(name: str) -> bool:
    """Whether a KPuzzle move name is a whole-puzzle rotation (cubing.js's rule).

    >>> [is_rotation(n) for n in ("x", "y2", "z'", "Uv", "Rv'", "U", "Uw", "v")]
    [True, True, True, True, True, False, False, False]
    """
    return bool(ROTATION.match(name)) or (len(name) > 1 and name.rstrip("'2").endswith("v"))


class _Place:
    """Where a value sits in the file, for messages: the JSON path and a line."""

    def __init__(self, text: str, source: str):
        self.text, self.source = text, source

    def error(self, path: list, message: str) -> InputError:
        where = self.source
        line = self._line(path)
        if line:
            where += f", line {line}"
        shown = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
        return InputError(f"{where}: {shown + ': ' if shown else ''}{message}")

    def _line(self, path: list) -> int | None:
        """The line of the last key of ``path`` found after the previous ones."""
        at = 0
        for key in path:
            if isinstance(key, int):
                continue
            found = self.text.find(json.dumps(key), at)
            if found < 0:
                return None
            at = found
        return self.text.count("\n", 0, at) + 1 if path and self.text else None


def _integers(place: _Place, path: list, value, size: int, limit: int, what: str) -> tuple:
    if not isinstance(value, list):
        raise place.error(path, f"expected a list of {size} {what}")
    if len(value) != size:
        raise place.error(path, f"expected {size} {what}, got {len(value)}")
    for i, v in enumerate(value):
        if not isinstance(v, int) or isinstance(v, bool):
            raise place.error(path + [i], f"{v!r} is not an integer")
        if not 0 <= v < limit:
            raise place.error(path + [i], f"{v} is out of range 0..{limit - 1}")
    return tuple(value)


def _position(place: _Place, path: list, value, orbits: dict[str, Orbit], is_move: bool,
              one: Position) -> Position:
    if not isinstance(value, dict):
        raise place.error(path, "expected an object keyed by orbit name")
    found = {}
    pieces_key = "permutation" if is_move else "pieces"
    for name, entry in value.items():
        if name not in orbits:
            raise place.error(path + [name], f"unknown orbit {name!r} "
                                             f"(orbits: {', '.join(orbits)})")
        orbit = orbits[name]
        if not isinstance(entry, dict) or pieces_key not in entry:
            raise place.error(path + [name], f"expected an object with {pieces_key!r}")
        pieces = _integers(place, path + [name, pieces_key], entry[pieces_key], orbit.size,
                           orbit.size, "piece numbers")
        if is_move and len(set(pieces)) != len(pieces):
            repeated = next(p for p in pieces if pieces.count(p) > 1)
            raise place.error(path + [name, pieces_key],
                              f"{repeated} appears {pieces.count(repeated)} times: a move must "
                              f"be a permutation of 0..{orbit.size - 1}")
        key = next((k for k in ("orientationDelta", "orientation") if k in entry), None)
        orientation = (0,) * orbit.size if key is None else _integers(
            place, path + [name, key], entry[key], orbit.size, orbit.orientations,
            "orientations")
        found[name] = OrbitState(pieces, orientation)
    return {o: found.get(o, one[o]) for o in orbits}


def read_kpuzzle(data: str | dict, source: str = "<string>") -> Definition:
    """The :class:`Definition` in KPuzzle JSON (text or already parsed).

    >>> read_kpuzzle('{"orbits": [}', "bad.kpuzzle.json")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: bad.kpuzzle.json, line 1, column 13: invalid JSON: Expecting value
    """
    text = data if isinstance(data, str) else json.dumps(data, indent=1)
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise InputError(f"{source}, line {exc.lineno}, column {exc.colno}: invalid JSON: "
                             f"{exc.msg}") from None
    place = _Place(text, source)
    if not isinstance(data, dict):
        raise place.error([], "expected a JSON object")
    for key in ("orbits", "moves"):
        if key not in data:
            raise place.error([], f"no {key!r}")
    raw = data["orbits"]
    if isinstance(raw, dict):  # older files: keyed by name
        raw = [dict(v, orbitName=k) for k, v in raw.items() if isinstance(v, dict)]
    if not isinstance(raw, list) or not raw:
        raise place.error(["orbits"], "expected a non-empty list of orbits")
    orbits: dict[str, Orbit] = {}
    for i, o in enumerate(raw):
        if not isinstance(o, dict) or not isinstance(o.get("orbitName"), str):
            raise place.error(["orbits", i], "expected {'orbitName', 'numPieces', "
                                             "'numOrientations'}")
        size, k = o.get("numPieces"), o.get("numOrientations", 1)
        if not isinstance(size, int) or not isinstance(k, int) or size < 1 or k < 1:
            raise place.error(["orbits", i], "numPieces and numOrientations must be positive "
                                             "integers")
        if o["orbitName"] in orbits:
            raise place.error(["orbits", i], f"orbit {o['orbitName']!r} is given twice")
        orbits[o["orbitName"]] = Orbit(o["orbitName"], size, k)
    ordered = tuple(orbits.values())
    one = identity(Definition("", ordered, {}, {}))
    pattern = data.get("defaultPattern", data.get("startStateData", {}))
    solved = _position(place, ["defaultPattern"], pattern, orbits, False, one)
    moves: dict[str, Position] = {}
    rotations: dict[str, Position] = {}
    if not isinstance(data["moves"], dict) or not data["moves"]:
        raise place.error(["moves"], "expected a non-empty object of moves")
    for name, value in data["moves"].items():
        position = _position(place, ["moves", name], value, orbits, True, one)
        (rotations if is_rotation(name) else moves)[name] = position
    derived = data.get("derivedMoves") or {}
    if not isinstance(derived, dict) or not all(isinstance(v, str) for v in derived.values()):
        raise place.error(["derivedMoves"], "expected an object of alg strings")
    solved = {o: _renumbered(s) for o, s in solved.items()}
    name = str(data.get("name", source))
    try:
        named = named_positions(Definition(name, ordered, solved, moves, dict(derived),
                                           rotations))
    except InputError as exc:
        bad = next((m for m in derived if repr(m) in str(exc)), None)
        raise place.error(["derivedMoves"] + ([bad] if bad else []), str(exc)) from None
    for move in derived:  # cubing.js: derived moves turn the puzzle, rotations rotate it
        (rotations if is_rotation(move) else moves)[move] = named[move]
    if not moves:
        raise place.error(["moves"], "only whole-puzzle rotations: a puzzle needs a move")
    return Definition(name, ordered, solved, moves, {}, rotations)


def to_kpuzzle(definition: Definition) -> str:
    """The definition as KPuzzle JSON (:func:`read_kpuzzle` reads it back to the
    same fingerprint).

    >>> from permgroup.formats.definition import Definition, Orbit, OrbitState
    >>> d = Definition("t", (Orbit("E", 2),), {"E": OrbitState((0, 1), (0, 0))},
    ...                {"F": {"E": OrbitState((1, 0), (0, 0))}})
    >>> json.loads(to_kpuzzle(d))["moves"]
    {'F': {'E': {'permutation': [1, 0], 'orientationDelta': [0, 0]}}}
    """
    def position(p: Position, pieces_key: str, orientation_key: str) -> dict:
        return {o.name: {pieces_key: list(p[o.name].pieces),
                         orientation_key: list(p[o.name].orientation)}
                for o in definition.orbits}

    data = {
        "name": definition.name,
        "orbits": [{"orbitName": o.name, "numPieces": o.size, "numOrientations": o.orientations}
                   for o in definition.orbits],
        "defaultPattern": position(definition.solved, "pieces", "orientation"),
        "moves": {m: position(p, "permutation", "orientationDelta")
                  for m, p in {**definition.moves, **definition.rotations}.items()},
    }
    if definition.derived:
        data["derivedMoves"] = dict(definition.derived)
    return json.dumps(data, indent=1) + "\n"
