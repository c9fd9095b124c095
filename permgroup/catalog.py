"""The puzzles the engine can name: a catalog that plugins fill.

The engine knows no particular puzzle.  A package of puzzles declares, in its
``pyproject.toml``, an entry point in the group ``permgroup.catalog``::

    [project.entry-points."permgroup.catalog"]
    mypuzzles = "mypuzzles.catalog:register"

naming a function that takes the :class:`Catalog` and adds to it, each in one
call: a puzzle (:meth:`Catalog.add_puzzle`: a name, a factory returning its
:class:`~permgroup.formats.definition.Definition`, a one-line summary), a
family of puzzles (:meth:`Catalog.add_family`: ``lrx-N`` and a function from a
name to its member), a contest format (:meth:`Catalog.add_format`: the module
whose ``solve_text`` answers it), and a recogniser of pictures
(:meth:`Catalog.add_recogniser`: a function from a
:class:`~permgroup.puzzle.Puzzle` to the renderer of its shape, ``""`` for
none).  :func:`catalog` reads the entry points once, the way Python plugins
are found (:mod:`importlib.metadata`), and, when permgroup runs from a source
checkout, installed or not, the entry points its ``pyproject.toml`` declares
(:func:`declared_plugins`); a name is looked up in those first
(:func:`catalogs`), so that a command naming a built-in puzzle or format
never reads the installed ones.  A plugin that fails to load is skipped
with a warning naming it.

:func:`permgroup.formats.resolve` is the one door: every PUZZLE argument (a
name of the catalog, a family member, the path of a definition file,
``PATH#TYPE`` of a Santa ``puzzle_info.csv``) becomes one
:class:`~permgroup.formats.definition.Definition`, whose sticker view is its
:attr:`~permgroup.formats.definition.Definition.puzzle`.  This module imports
nothing of the engine's but its errors, so that any layer may ask it.

>>> c = Catalog()
>>> c.add_puzzle("flip", lambda: None, "A coin.")
>>> c.add_format("coin", "mycoins.format")
>>> list(c.puzzles), c.puzzles["flip"].describe(), c.formats
(['flip'], 'A coin.', {'coin': 'mycoins.format'})
"""
from __future__ import annotations

import ast
import importlib
import importlib.util
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from permgroup.errors import InputError

if TYPE_CHECKING:  # pragma: no cover
    from permgroup.formats.definition import Definition
    from permgroup.puzzle import Puzzle

#: the entry-point group of catalog plugins
GROUP = "permgroup.catalog"

#: what a PUZZLE argument may also be
FILE_HINT = ("or the path of a definition file (.tws, .def, .kpuzzle.json, .gap) or "
             "PUZZLE_INFO.csv#TYPE (a Santa 2023 type)")

Summary = str | Callable[[], str]


@dataclass(frozen=True)
class Entry:
    """A puzzle of the catalog: ``make()`` returns its definition; the summary
    is one line (or a function giving it, called only for a listing)."""

    name: str
    make: Callable[[], Definition]
    summary: Summary = ""

    def describe(self) -> str:
        return self.summary if isinstance(self.summary, str) else self.summary()


@dataclass(frozen=True)
class Family:
    """A family of puzzles: ``usage`` (``lrx-N``) and ``member(name)``, the
    definition of a name of the family, ``None`` for a name of no member
    (:class:`~permgroup.errors.InputError` for one with wrong parameters)."""

    usage: str
    member: Callable[[str], Definition | None]
    summary: Summary = ""

    def describe(self) -> str:
        return self.summary if isinstance(self.summary, str) else self.summary()


@dataclass
class Catalog:
    """Names, families, contest formats and picture recognisers, as plugins
    add them (see the module docstring)."""

    puzzles: dict[str, Entry] = field(default_factory=dict)
    families: dict[str, Family] = field(default_factory=dict)
    formats: dict[str, str] = field(default_factory=dict)
    recognisers: list[Callable[[Puzzle], str]] = field(default_factory=list)

    def add_puzzle(self, name: str, make: Callable[[], Definition], summary: Summary = ""
                   ) -> None:
        """Name a puzzle: ``make()`` returns its definition (called when the name
        is used)."""
        self.puzzles[name] = Entry(name, make, summary)

    def add_family(self, usage: str, member: Callable[[str], Definition | None],
                   summary: Summary = "") -> None:
        """A family, written ``usage`` (``lrx-N``); ``member(name)`` as in :class:`Family`."""
        self.families[usage] = Family(usage, member, summary)

    def add_format(self, name: str, module: str) -> None:
        """A contest format of ``permgroup solve``: the module (imported when
        used) whose ``solve_text(text, **options)`` answers it; its docstring's
        first sentence is its summary."""
        self.formats[name] = module

    def add_recogniser(self, recognise: Callable[[Puzzle], str]) -> None:
        """A function naming the renderer of the shapes it knows (``""`` else),
        asked for puzzles that bring none (:func:`renderer_for`)."""
        self.recognisers.append(recognise)

    def load(self, plugins: list[tuple[str, str]]) -> Catalog:
        """The catalog with each plugin ``(name, "module:function")`` called on it."""
        for name, value in plugins:
            try:
                _entry_point(value)(self)
            except Exception as exc:  # a broken plugin must not take the engine down
                warnings.warn(f"the {GROUP} plugin {name} ({value}) failed to load: "
                              f"{type(exc).__name__}: {exc}", stacklevel=2)
        return self


def declared_plugins(root: str | Path | None = None) -> list[tuple[str, str]]:
    """The ``permgroup.catalog`` entry points that the ``pyproject.toml`` of a
    source checkout declares (``root``: the folder holding it, by default the
    one above this package), ``[]`` when there is none or it is another
    project's: the catalog of a checkout used without installing it.

    >>> declared_plugins("/nonexistent")
    []
    """
    root = Path(__file__).resolve().parent.parent if root is None else Path(root)
    try:
        text = (root / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        return []
    if 'name = "permgroup"' not in text:
        return []
    plugins, inside = [], False
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("["):
            inside = line == f'[project.entry-points."{GROUP}"]'
        elif inside and "=" in line and not line.startswith("#"):
            name, value = line.split("=", 1)
            plugins.append((name.strip().strip('"'), value.split("#")[0].strip().strip("\"'")))
    return plugins


def installed_plugins() -> list[tuple[str, str]]:
    """The ``permgroup.catalog`` entry points of the installed distributions."""
    from importlib.metadata import entry_points

    return [(ep.name, ep.value) for ep in entry_points(group=GROUP)]


def _entry_point(value: str) -> Callable:
    """The object an entry point's value names (``module:attr.attr``, extras in
    brackets ignored), as :meth:`importlib.metadata.EntryPoint.load` finds it,
    without importing :mod:`importlib.metadata` (a tenth of a second of a
    command's start-up).

    >>> _entry_point("os.path:join")("a", "b")
    'a/b'
    """
    module, _, attrs = value.split("[")[0].partition(":")
    found = importlib.import_module(module.strip())
    for attr in filter(None, attrs.strip().split(".")):
        found = getattr(found, attr)
    return found


_CATALOGS: dict[bool, Catalog] = {}


def catalog(complete: bool = True) -> Catalog:
    """The catalog, filled once by the plugins installed and, in a source
    checkout, declared (each plugin once); without ``complete``, by the
    declared ones alone, the puzzles and formats of this checkout: read
    without the installed entry points (:mod:`importlib.metadata` and a scan
    of the installed distributions take a quarter of a second), and empty
    where permgroup is installed from a wheel (:func:`catalogs`).

    >>> "minicube" in catalog().puzzles and "santa2023" in catalog().formats
    True
    """
    if complete not in _CATALOGS:
        plugins: dict[str, str] = {}  # each "module:function" once
        for name, value in (installed_plugins() if complete else []) + declared_plugins():
            plugins.setdefault(value, name)
        _CATALOGS[complete] = Catalog().load([(name, value) for value, name in plugins.items()])
    return _CATALOGS[complete]


def catalogs() -> Iterator[Catalog]:
    """Where to look a name up: the built-in catalog (``catalog(False)``)
    first, then, only when the caller has not found it there, the complete
    one, which reads the installed entry points.

    >>> next(c for c in catalogs() if "zoj2477" in c.formats) is catalog(False)
    True
    """
    built_in = catalog(False)
    if built_in.puzzles or built_in.formats:
        yield built_in
    yield catalog()


def module_summary(module: str) -> str:
    """The first sentence of a module's docstring, read without importing it (so
    that a help text costs no numpy import).

    >>> module_summary("permgroup.catalog")
    'The puzzles the engine can name: a catalog that plugins fill.'
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

    >>> from permgroup.formats.definition import Definition, Orbit
    >>> definition_summary(Definition("coin", (Orbit("face", 1, 2),), {}, {"F": {}}))
    'coin: 1 face (2 orientations); moves F'
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
    the catalog's puzzles, then its families (``lrx-N``...).

    >>> names = puzzle_names()
    >>> names["minicube"], names["poj3131"] == names["cubic-eight"]
    ('The 2x2x2 mini cube.', True)
    """
    found = catalog()
    names = {}
    for name, entry in found.puzzles.items():
        try:
            names[name] = entry.describe()
        except InputError as exc:  # pragma: no cover - the library is tested
            names[name] = f"(cannot be read: {exc})"
    names.update({usage: family.describe() for usage, family in found.families.items()})
    return names


def format_names() -> dict[str, str]:
    """Every contest format of ``permgroup solve``, with its module's first sentence."""
    return {name: module_summary(module) for name, module in catalog().formats.items()}


def format_module(name: str):
    """The module answering contest format ``name`` (imported now)."""
    return importlib.import_module(next(c for c in catalogs() if name in c.formats
                                        or c is catalog()).formats[name])


class FormatNames:
    """The formats' names as a command line's choices: a name is looked up
    built-in first (:func:`catalogs`), all of them listed only for a message.

    >>> "zoj2477" in FormatNames(), "nope" in FormatNames()
    (True, False)
    """

    def __contains__(self, name: object) -> bool:
        return any(name in c.formats for c in catalogs())

    def __iter__(self) -> Iterator[str]:
        return iter(catalog().formats)


def renderer_for(puzzle: Puzzle) -> str:
    """The renderer of a puzzle that brings none (a definition read by hand, a
    puzzle of your own) whose shape a plugin knows, else ``""``."""
    for found in catalogs():
        for recognise in found.recognisers:
            renderer = recognise(puzzle)
            if renderer:
                return renderer
    return ""
