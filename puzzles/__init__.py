"""Concrete puzzles built on the :mod:`permgroup` engine, and their formats.

``PUZZLES`` maps a puzzle's command-line name to its module; each module has a
``PUZZLE`` (:class:`permgroup.puzzle.Puzzle`) and ``table(metric, progress=None)``
returning an object with ``distribution()``.  ``LIBRARY`` maps the names of the
definition files in ``puzzles/definitions`` (written from geometry by
:mod:`puzzles.solids`) to their paths.

:func:`resolve` is the one place a PUZZLE name (a built-in name, a library
name, a member of a family of :mod:`puzzles.families` such as ``lrx-11``, or a
definition file's path) is turned into what it stands for, and
:func:`puzzle_names` lists every name with one line saying what it is (the
command line's help and error messages show it).

>>> sorted(LIBRARY)[:3], LIBRARY["skewb"].name
(['2x2x2', '2x2x2-layers', '3p1'], 'skewb.tws')
"""
from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from permgroup.formats.definition import Definition

PUZZLES = {
    "minicube": "puzzles.minicube",
    "cube3": "puzzles.cube3",
    "rubiksrevenge": "puzzles.torus",
    "torus": "puzzles.torus",
    "cubic-eight": "puzzles.cubic_eight",
    "poj3131": "puzzles.cubic_eight",
}

DEFINITIONS = Path(__file__).resolve().parent / "definitions"
LIBRARY = {p.name.split(".")[0]: p for p in sorted(DEFINITIONS.glob("*"))
           if p.name.endswith((".tws", ".kpuzzle.json"))}

#: what a PUZZLE argument may also be
FILE_HINT = ("or the path of a definition file (.tws, .def, .kpuzzle.json, .gap) or "
             "PUZZLE_INFO.csv#TYPE (a Santa 2023 type)")


def module_summary(module: str) -> str:
    """The first sentence of a module's docstring, read without importing it (so
    that a help text costs no numpy import).

    >>> module_summary("puzzles.minicube")
    'The 2x2x2 mini cube.'
    """
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return ""
    doc = ast.get_docstring(ast.parse(Path(spec.origin).read_text(encoding="utf-8"))) or ""
    paragraph = doc.strip().split("\n\n")[0].replace("\n", " ").replace("``", "")
    sentence = paragraph.split(". ")[0]
    return sentence if sentence.endswith(".") or sentence == paragraph else sentence + "."


def definition_summary(definition: Definition) -> str:
    """One line on a definition: its name, orbits and moves.

    >>> from permgroup.formats import read_definition
    >>> definition_summary(read_definition(LIBRARY["skewb"]))
    'skewb: 8 corner (3 orientations), 6 centre; moves URF URB DRF ULF'
    """
    orbits = ", ".join(f"{o.size} {o.name}" + (f" ({o.orientations} orientations)"
                                               if o.orientations > 1 else "")
                       for o in definition.orbits)
    text = f"{definition.name}: {orbits}; moves {' '.join(definition.moves)}"
    if definition.rotations:
        text += f"; rotations {' '.join(definition.rotations)}"
    return text


def puzzle_names() -> dict[str, str]:
    """Every name a PUZZLE argument accepts, with one line saying what it is:
    the built-in puzzles, the library, then the families (``lrx-N``...).

    >>> names = puzzle_names()
    >>> names["minicube"], names["poj3131"] == names["cubic-eight"]
    ('The 2x2x2 mini cube.', True)
    >>> names["pyraminx-notips"]
    'pyraminx-notips: 4 centre (3 orientations), 6 edge (2 orientations); moves U L R B'
    """
    from permgroup.errors import InputError
    from permgroup.formats import read_definition

    names = {name: module_summary(module) for name, module in PUZZLES.items()}
    for name, path in LIBRARY.items():
        try:
            names[name] = definition_summary(read_definition(path))
        except InputError as exc:  # pragma: no cover - the library is tested
            names[name] = f"(cannot be read: {exc})"
    from puzzles.families import FAMILIES

    for make, _, usage in FAMILIES.values():  # the first sentence, up to a ";"
        paragraph = (make.__doc__ or "").split("\n\n")[0].split(";")[0]
        first = " ".join(paragraph.split(". ")[0].split()).replace("``", "")
        names[usage] = first.rstrip(".") + "."
    return names


def resolve(name: str) -> ModuleType | Definition:
    """What a PUZZLE name stands for: a built-in puzzle's module, or the
    :class:`~permgroup.formats.definition.Definition` of a library name, of a
    family member (``pancake-9``) or of a definition file;
    :class:`~permgroup.errors.InputError` naming the choices for a name that is
    none of these.

    >>> resolve("minicube").__name__, resolve("skewb").name
    ('puzzles.minicube', 'skewb')
    >>> resolve("gigaminx")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: unknown puzzle 'gigaminx'; choose from minicube, cube3, ..., a family (lrx-N, ...), or the path of a definition file (.tws, .def, .kpuzzle.json, .gap) or PUZZLE_INFO.csv#TYPE (a Santa 2023 type)
    >>> resolve("pancake-4").name
    'pancake-4'
    """
    from permgroup.errors import InputError, did_you_mean
    from permgroup.formats import is_definition_path, read_definition

    if is_definition_path(name):
        return read_definition(name)
    if name in LIBRARY:
        return read_definition(LIBRARY[name])
    if name in PUZZLES:
        return importlib.import_module(PUZZLES[name])
    from puzzles.families import family_definition, family_names

    member = family_definition(name)
    if member is not None:
        return member
    hint = did_you_mean(name, [*PUZZLES, *LIBRARY])
    if not hint and name != name.lower() and family_definition(name.lower()) is not None:
        hint = did_you_mean(name, [name.lower()])
    raise InputError(f"unknown puzzle {name!r}{hint}; choose from "
                     f"{', '.join([*PUZZLES, *LIBRARY])} "
                     f"(permgroup table --help says what each is), a family "
                     f"({', '.join(family_names())}), {FILE_HINT}")
