"""Puzzle definition files: twsearch/ksolve text, cubing.js KPuzzle JSON, GAP files.

:func:`read_definition` reads any of them by its file name (``.tws``/``.def``,
``.json``, ``.gap``/``.g``: PuzzleGeometry's ``--gap`` output, :mod:`permgroup.formats.gap`); the model both formats
share is :mod:`permgroup.formats.definition`, the engine's sticker view of it
:mod:`permgroup.formats.stickers`.

A Kaggle Santa 2023 ``puzzle_info.csv`` is one too, one type at a time:
``PATH#TYPE`` (:mod:`permgroup.formats.santa`).

:func:`resolve` is the one door from a PUZZLE argument to its definition: a
definition file or ``PATH#TYPE`` read here, a name or family member of the
catalog (:mod:`permgroup.catalog`) made by its plugin.

>>> is_definition_path("skewb.tws"), is_definition_path("x.kpuzzle.json"), is_definition_path("minicube")
(True, True, False)
>>> is_definition_path("megaminx.gap")
True
>>> is_definition_path("puzzle_info.csv#cube_4/4/4"), is_definition_path("puzzle_info.csv")
(True, False)
"""
from __future__ import annotations

import os
import re

from permgroup.formats.definition import Definition

SUFFIXES = (".tws", ".def", ".kpuzzle.json", ".json", ".gap", ".g")


def is_definition_path(name: str | os.PathLike) -> bool:
    """Whether ``name`` names a definition file (by its suffix), or a type in a
    Santa ``puzzle_info.csv`` (``PATH#TYPE``)."""
    from permgroup.formats.santa import type_and_path

    return str(name).lower().endswith(SUFFIXES) or type_and_path(name) is not None


def read_definition(path: str | os.PathLike) -> Definition:
    """The definition in a ``.tws``/``.def`` (ksolve), ``.json`` (KPuzzle) or
    ``.gap``/``.g`` (GAP) file,
    or of one type of a Santa ``puzzle_info.csv`` (``PATH#TYPE``);
    :class:`InputError` naming the file for one that cannot be read or is wrong.

    >>> read_definition("/nonexistent/skewb.tws")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: cannot read /nonexistent/skewb.tws: No such file or directory
    """
    from permgroup.formats.gap import read_gap
    from permgroup.formats.kpuzzle import read_kpuzzle
    from permgroup.formats.ksolve import read_ksolve
    from permgroup.formats.santa import santa_definition, type_and_path
    from permgroup.formats.text import read_text

    santa = type_and_path(path)
    if santa is not None:
        return santa_definition(*santa)

    text = read_text(path)
    source = os.fspath(path)
    if source.lower().endswith(".json"):
        return read_kpuzzle(text, source)
    if source.lower().endswith((".gap", ".g")):
        return read_gap(text, source)
    return read_ksolve(text, source)


def _member(found, name: str) -> Definition | None:
    """The member ``name`` of a family of the catalog ``found``, else ``None``."""
    for family in found.families.values():
        definition = family.member(name)
        if definition is not None:
            return definition
    return None


def _named(found, name: str) -> Definition | None:
    """The definition ``name`` stands for in the catalog ``found``: a puzzle's
    name, a family member, either in any case; ``None`` for none."""
    if name in found.puzzles:
        return found.puzzles[name].make()
    definition = _member(found, name)
    if definition is not None:
        return definition
    # no two names differ only in case: 'Skewb' and 'LRX-5' can mean one puzzle only
    by_case = {known.lower(): known for known in found.puzzles}
    if name.lower() in by_case:
        return found.puzzles[by_case[name.lower()]].make()
    return _member(found, name.lower())


def resolve(name: str) -> Definition:
    """The one door: what a PUZZLE argument stands for, as one
    :class:`~permgroup.formats.definition.Definition` (its sticker view is its
    ``.puzzle``; what a built-in adds, its ``hooks`` and ``partial``): the
    definition of a definition file's path or of ``PATH#TYPE`` (one type of a
    Santa 2023 ``puzzle_info.csv``), of a name of the catalog (a built-in puzzle,
    the library), or of a family member (``lrx-11``, ``cube-4``);
    :class:`~permgroup.errors.InputError` naming the choices for anything else.

    >>> resolve("minicube").puzzle.degree, resolve("skewb").name, resolve("pancake-4").name
    (24, 'skewb', 'pancake-4')
    >>> resolve("gigaminx")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: unknown puzzle 'gigaminx'; choose from minicube, cube3, ..., a family (lrx-N, ...), or the path of a definition file (.tws, .def, .kpuzzle.json, .gap) or PUZZLE_INFO.csv#TYPE (a Santa 2023 type)
    >>> resolve("Skewb").name, resolve("LRX-5").name  # names are read whatever their case
    ('skewb', 'lrx-5')
    >>> resolve("megamix")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: unknown puzzle 'megamix' (did you mean 'megaminx'?); choose from ...
    """
    from permgroup.catalog import FILE_HINT, catalogs
    from permgroup.errors import InputError, did_you_mean

    if is_definition_path(name):
        return read_definition(name)
    for found in catalogs():  # the built-in names first: no installed plugin read for them
        definition = _named(found, name)
        if definition is not None:
            return definition
    hint = did_you_mean(name, found.puzzles)
    dashed = re.sub(r"([a-z])(\d+)$", r"\1-\2", name.lower())  # 'lrx5' for 'lrx-5'
    if not hint and dashed != name.lower() and _member(found, dashed) is not None:
        hint = f" (did you mean {dashed!r}?)"
    raise InputError(f"unknown puzzle {name!r}{hint}; choose from {', '.join(found.puzzles)} "
                     f"(permgroup table --help says what each is), a family "
                     f"({', '.join(found.families)}), {FILE_HINT}")
