"""A puzzle's definition as GAP code and as plain JSON, and back.

GAP numbers points from 1, so sticker ``i`` is GAP point ``i + 1``.
:func:`to_gap` writes the generators as a group, a free group with the moves'
names, and the homomorphism between them, ready for GAP's ``Factorization``::

    # name: 24 points, moves A B C
    G := Group((1,2,4,3)(5,9,17,21), ...);
    F := FreeGroup("A", "B", "C");
    hom := GroupHomomorphismByImages(F, G, GeneratorsOfGroup(F), GeneratorsOfGroup(G));

JSON holds the whole definition (:meth:`permgroup.puzzle.Puzzle.definition`):
name, degree, named generators, solved colouring, symmetries and pieces.
Generators may be written by hand in 0-based cycle notation (``"(0 1 2)(3 4)"``)
as well as in array form.  A renderer is a code reference, so it is not shared.

>>> from permgroup.puzzle import Puzzle
>>> p = Puzzle("tri", 3, {"T": (1, 2, 0)}, solved="abc")
>>> print(to_gap(p))
# tri: 3 points, moves T
G := Group((1,2,3));
F := FreeGroup("T");
hom := GroupHomomorphismByImages(F, G, GeneratorsOfGroup(F), GeneratorsOfGroup(G));
>>> from_json(to_json(p)).fingerprint() == p.fingerprint()
True
"""
from __future__ import annotations

import json
import re

from permgroup.elements import cycle_notation
from permgroup.errors import InputError
from permgroup.perm import Perm, from_cycles
from permgroup.puzzle import DEFINITION_VERSION, Puzzle


def to_gap(puzzle: Puzzle, group: str = "G", names: bool = True) -> str:
    """GAP code defining the puzzle's group (1-based points), with a free group
    and homomorphism carrying the move names when ``names`` is true.

    >>> from permgroup.puzzle import Puzzle
    >>> p = Puzzle("two", 4, {"A": (1, 0, 2, 3), "B": (0, 1, 3, 2)})
    >>> print(to_gap(p, group="H", names=False))
    # two: 4 points, moves A B
    H := Group((1,2), (3,4));
    >>> from_gap(to_gap(p)).generators == p.generators
    True
    """
    perms = ", ".join(cycle_notation(g, one_based=True, separator=",")
                      for g in puzzle.generators.values())
    lines = [f"# {puzzle.name}: {puzzle.degree} points, moves {' '.join(puzzle.generators)}",
             f"{group} := Group({perms});"]
    if names:
        quoted = ", ".join(json.dumps(n) for n in puzzle.generators)
        lines += [f"F := FreeGroup({quoted});",
                  f"hom := GroupHomomorphismByImages(F, {group}, GeneratorsOfGroup(F), "
                  f"GeneratorsOfGroup({group}));"]
    return "\n".join(lines)


_CYCLE = re.compile(r"\(([^()]*)\)")


def parse_cycles(text: str, degree: int, one_based: bool = False, what: str = "permutation"
                 ) -> Perm:
    """A permutation from cycle notation (``"(0 1 2)(3 4)"``, or GAP's ``"(1,2,3)"``
    with ``one_based``); ``"()"`` is the identity.

    >>> parse_cycles("(0 1 2)(3 4)", 5)
    (1, 2, 0, 4, 3)
    >>> parse_cycles("(1,2)", 3, one_based=True)
    (1, 0, 2)
    """
    stripped = text.strip()
    rest = _CYCLE.sub("", stripped)
    if rest.strip() or not stripped:
        raise InputError(f"{what}: {text!r} is not in cycle notation (stray {rest.strip()!r})"
                         if rest.strip() else f"{what}: empty cycle notation")
    cycles = []
    seen: set[int] = set()
    shift = 1 if one_based else 0
    for match in _CYCLE.finditer(stripped):
        body = match.group(1).replace(",", " ").split()
        try:
            points = [int(x) - shift for x in body]
        except ValueError:
            raise InputError(f"{what}: cycle {match.group(0)!r} holds something that is not "
                             "a number") from None
        for x in points:
            if not 0 <= x < degree:
                raise InputError(f"{what}: point {x + shift} in {match.group(0)!r} is outside "
                                 f"{shift}..{degree - 1 + shift}")
            if x in seen:
                raise InputError(f"{what}: point {x + shift} appears twice in {text!r}")
            seen.add(x)
        if points:
            cycles.append(points)
    return from_cycles(cycles, degree)


def from_gap(text: str, degree: int | None = None, name: str | None = None) -> Puzzle:
    """A puzzle (generators only) from :func:`to_gap`'s text or any
    ``Group((..), ...)`` line, read by the one GAP reader
    (:func:`permgroup.formats.gap.read_group`); the names come from a
    ``FreeGroup`` line when there is one, else ``g1, g2, ...``.

    >>> from_gap("G := Group((1,2,3), (1,2));").generators
    {'g1': (1, 2, 0), 'g2': (1, 0, 2)}
    """
    from permgroup.formats.gap import read_group

    return read_group(text, degree, name)


def to_json(puzzle: Puzzle) -> str:
    """The puzzle's definition as JSON text, one field (or one move) per line
    (see :func:`from_json`).

    >>> from permgroup.puzzle import Puzzle
    >>> print(to_json(Puzzle("flip", 2, {"F": (1, 0)}, solved="ab")))
    {
     "version": 1,
     "name": "flip",
     "degree": 2,
     "generators": {
      "F": [1, 0]
     },
     "solved": ["a", "b"],
     "symmetries": {},
     "pieces": {}
    }
    """
    fields = []
    for key, value in puzzle.definition().items():
        if isinstance(value, dict) and value:
            entries = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v, separators=(', ', ': '))}"
                                  for k, v in value.items())
            fields.append(f" {json.dumps(key)}: {{\n{entries}\n }}")
        else:
            fields.append(f" {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(fields) + "\n}"


def from_json(text: str) -> Puzzle:
    """A puzzle from JSON: ``name``, ``generators`` required; ``degree``,
    ``solved``, ``symmetries``, ``pieces`` optional.  Generators and symmetries
    are array forms or 0-based cycle notation strings.  Faults raise
    :class:`InputError` naming the field.

    >>> p = from_json('{"name": "tri", "generators": {"T": "(0 1 2)"}, "solved": "abc"}')
    >>> p.degree, p.generators, p.solved
    (3, {'T': (1, 2, 0)}, ('a', 'b', 'c'))
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
                         ) from None
    if not isinstance(data, dict):
        raise InputError("a puzzle definition is a JSON object")
    unknown = set(data) - {"version", "name", "degree", "generators", "solved", "symmetries",
                           "pieces"}
    if unknown:
        raise InputError(f"unknown field(s) {', '.join(sorted(unknown))}")
    if data.get("version", DEFINITION_VERSION) != DEFINITION_VERSION:
        raise InputError(f"definition version {data['version']!r}; this permgroup reads "
                         f"{DEFINITION_VERSION}")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise InputError("field 'name' must be a non-empty string")
    for field in ("generators", "symmetries", "pieces"):
        if not isinstance(data.get(field, {}), dict):
            raise InputError(f"field {field!r} must be an object of named entries")
    if not isinstance(data.get("generators"), dict) or not data["generators"]:
        raise InputError("field 'generators' must name at least one move")
    degree = data.get("degree")
    if degree is None:
        degree = _infer_degree(data)
    if not isinstance(degree, int) or isinstance(degree, bool) or degree < 1:
        raise InputError(f"field 'degree' must be a positive integer, got {degree!r}")
    gens = {k: _perm(v, degree, f"generators.{k}") for k, v in data["generators"].items()}
    syms = {k: _perm(v, degree, f"symmetries.{k}")
            for k, v in data.get("symmetries", {}).items()}
    solved = data.get("solved", [])
    if not isinstance(solved, (str, list)):
        raise InputError("field 'solved' must be a string or a list of colours")
    pieces = {}
    for kind, items in data.get("pieces", {}).items():
        if not isinstance(items, list) or not all(
                isinstance(p, list) and p and all(_is_point(x, degree) for x in p)
                for p in items):
            raise InputError(f"pieces.{kind} must be a list of lists of points 0..{degree - 1}")
        pieces[kind] = tuple(tuple(p) for p in items)
    try:
        return Puzzle(name, degree, gens, tuple(solved), syms, pieces)
    except ValueError as exc:
        raise InputError(str(exc)) from None


def _is_point(x, degree: int) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < degree


def _infer_degree(data: dict) -> int:
    sizes = [len(data["solved"])] if data.get("solved") else []
    for field in ("generators", "symmetries"):
        for v in data.get(field, {}).values():
            if isinstance(v, list):
                sizes.append(len(v))
            elif isinstance(v, str):
                sizes.append(max((int(x) + 1 for x in re.findall(r"\d+", v)), default=1))
    return max(sizes, default=1)


def _perm(value, degree: int, what: str) -> Perm:
    if isinstance(value, str):
        return parse_cycles(value, degree, what=what)
    if isinstance(value, list) and all(_is_point(x, degree) for x in value):
        if len(value) != degree or sorted(value) != list(range(degree)):
            raise InputError(f"{what}: array form {value} is not a permutation of "
                             f"0..{degree - 1}")
        return tuple(value)
    raise InputError(f"{what}: expected an array form (list of 0..{degree - 1}) or a cycle "
                     "string like \"(0 1 2)\"")
