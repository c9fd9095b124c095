"""Puzzle definition files: twsearch/ksolve text and cubing.js KPuzzle JSON.

:func:`read_definition` reads either by its file name; the model both formats
share is :mod:`permgroup.formats.definition`, the engine's sticker view of it
:mod:`permgroup.formats.stickers`.

>>> is_definition_path("skewb.tws"), is_definition_path("x.kpuzzle.json"), is_definition_path("minicube")
(True, True, False)
"""
from __future__ import annotations

import os

from permgroup.errors import InputError
from permgroup.formats.definition import Definition

SUFFIXES = (".tws", ".def", ".kpuzzle.json", ".json")


def is_definition_path(name: str | os.PathLike) -> bool:
    """Whether ``name`` names a definition file (by its suffix)."""
    return str(name).lower().endswith(SUFFIXES)


def read_definition(path: str | os.PathLike) -> Definition:
    """The definition in a ``.tws``/``.def`` (ksolve) or ``.json`` (KPuzzle) file;
    :class:`InputError` naming the file for one that cannot be read or is wrong.

    >>> read_definition("/nonexistent/skewb.tws")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: cannot read /nonexistent/skewb.tws: No such file or directory
    """
    from permgroup.formats.kpuzzle import read_kpuzzle
    from permgroup.formats.ksolve import read_ksolve

    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", errors="replace")
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    source = os.fspath(path)
    if source.lower().endswith(".json"):
        return read_kpuzzle(text, source)
    return read_ksolve(text, source)
