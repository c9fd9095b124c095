"""What this package adds to the engine's catalog: its puzzles, library, families, contest formats and pictures.

The engine (:mod:`permgroup.catalog`) finds :func:`register` through the entry
point ``puzzles`` of the group ``permgroup.catalog`` that ``pyproject.toml``
declares, and calls it once, when a name is first resolved or listed.  It
imports nothing heavy: each puzzle's module is imported when its name is
used, each summary read when a listing is shown.

To add a puzzle written in code, give its module a ``definition()``
returning its one model (:func:`permgroup.formats.stickers.definition_of` of
its sticker puzzle, with its hooks and guards) and name it in
:data:`puzzles.PUZZLES`; a
definition file goes in ``puzzles/definitions`` (:data:`puzzles.LIBRARY`); a
family in :data:`puzzles.families.FAMILIES`; a contest format in
:data:`puzzles.formats.FORMATS`.

>>> from permgroup.catalog import Catalog
>>> c = Catalog()
>>> register(c)
>>> c.puzzles["minicube"].make().name, "lrx-N" in c.families, c.families["cube-N"].member("cube-2").name
('minicube', True, 'cube-2')
"""
from __future__ import annotations

import importlib
from functools import partial

from permgroup.catalog import Catalog, definition_summary, module_summary


def _built_in(module: str):
    return importlib.import_module(module).definition()


def _library(name: str):
    from permgroup.formats import read_definition
    from puzzles import LIBRARY

    return read_definition(LIBRARY[name])


def _library_summary(name: str) -> str:
    return definition_summary(_library(name))


def _family_summary(make) -> str:
    """The first sentence of the family function's docstring, up to a ``;``.

    >>> from puzzles.families import cube
    >>> _family_summary(cube)
    "The n x n x n cube with every layer turned (Kaggle Santa 2023's cube_n/n/n, sticker for sticker)."
    """
    paragraph = (make.__doc__ or "").split("\n\n")[0].split(";")[0]
    return " ".join(paragraph.split(". ")[0].split()).replace("``", "").rstrip(".") + "."


def _renderer(puzzle) -> str:
    from puzzles.pictures import renderer_for

    return renderer_for(puzzle)


def register(catalog: Catalog) -> None:
    """Add this package's puzzles, library, families, formats and pictures to ``catalog``."""
    from puzzles import LIBRARY, PUZZLES
    from puzzles.families import FAMILIES, family_member
    from puzzles.formats import FORMATS

    for name, module in PUZZLES.items():
        catalog.add_puzzle(name, partial(_built_in, module), partial(module_summary, module))
    for name in LIBRARY:
        catalog.add_puzzle(name, partial(_library, name), partial(_library_summary, name))
    for key, (make, _, usage) in FAMILIES.items():
        catalog.add_family(usage, partial(family_member, key), partial(_family_summary, make))
    for name, module in FORMATS.items():
        catalog.add_format(name, module)
    catalog.add_recogniser(_renderer)
