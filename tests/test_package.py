"""The package as Python meets it: ``help(permgroup)``, its modules reachable
after ``import permgroup`` without an import cycle, the widget's advice when
anywidget is missing."""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys

import pytest

import permgroup
from tests.conftest import ROOT


def test_the_package_says_where_to_start():
    doc = permgroup.__doc__
    assert doc and "permgroup.explore" in doc and "permgroup --help" in doc
    assert permgroup.__version__


def test_explore_is_reachable_after_import_permgroup_in_a_fresh_process():
    code = ("import sys, permgroup; assert 'numpy' not in sys.modules; "
            "print(permgroup.explore.order(permgroup.explore.load_puzzle('skewb')))")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=env, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "3149280\n"
    with pytest.raises(AttributeError, match="no attribute 'nonesuch'"):
        permgroup.nonesuch  # noqa: B018


def _imports(path, inside_functions: bool = True) -> set[str]:
    """The project modules a file imports, at its top and (unless told not to)
    inside functions; imports under ``if TYPE_CHECKING:`` are never run."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {id(n) for node in ast.walk(tree)
               if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
               for n in ast.walk(node)}
    found = set()
    for node in (ast.walk(tree) if inside_functions else tree.body):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return {m for m in found if m.split(".")[0] in ("permgroup", "puzzles")}


def _import_graph(packages=("permgroup",), inside_functions: bool = True
                  ) -> dict[str, set[str]]:
    modules = {}
    for package in packages:
        for path in (ROOT / package).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            modules[name.removesuffix(".__init__")] = path
    # a package's own name (``from permgroup import explore``) runs only its
    # ``__init__``, which imports nothing of the project's
    return {m: {i for i in _imports(p, inside_functions) if i in modules and i != m
                and i not in ("permgroup", "puzzles")}
            for m, p in modules.items()}


def _assert_acyclic(graph: dict[str, set[str]]) -> None:
    state: dict[str, int] = {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for other in sorted(graph[module]):
            assert state.get(other) != 1, f"import cycle: {' -> '.join(path + [other])}"
            if other not in state:
                visit(other, path + [other])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])


def test_no_import_cycles():
    """No module of permgroup and puzzles together imports, even inside a
    function, one that imports it back."""
    _assert_acyclic(_import_graph(("permgroup", "puzzles")))


#: a module path of the puzzles package (``puzzles.csv`` is a Santa file's name)
PUZZLES_MODULE = re.compile(r"\bpuzzles\.(?!csv\b)[A-Za-z_]")


def test_the_engine_knows_no_puzzle():
    """permgroup imports nothing of the puzzles package, even inside a function,
    names none of its modules in a string (a docstring included), and no
    example in it imports it: puzzles come to the engine only through the
    catalog's plugins (permgroup/catalog.py)."""
    found = []
    for path in sorted((ROOT / "permgroup").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                names = []
            found += [f"{path.name}:{node.lineno} imports {n}" for n in names
                      if n.split(".")[0] == "puzzles"]
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                if PUZZLES_MODULE.search(text) or re.search(r"(from|import) puzzles\b", text):
                    found.append(f"{path.name}:{node.lineno} names puzzles in a string")
    assert not found, "\n".join(found)


def test_the_catalog_is_declared_as_an_entry_point_and_found():
    """The puzzles package is the engine's plugin: pyproject.toml declares it in
    the group permgroup.catalog, the installed metadata has it (the package
    is installed, as CI installs it), and a checkout that is not installed
    finds it in pyproject.toml alone."""
    from permgroup import catalog

    declared = catalog.declared_plugins(ROOT)
    assert declared == [("puzzles", "puzzles.catalog:register")]
    assert set(declared) <= set(catalog.installed_plugins())
    alone = catalog.Catalog().load(declared)
    assert {"minicube", "skewb"} <= set(alone.puzzles) and "lrx-N" in alone.families
    assert "santa2023" in alone.formats and alone.recognisers


def test_a_checkout_without_installing_finds_its_puzzles(tmp_path):
    """python -m permgroup from a copy of the source tree, the installed
    distribution's metadata hidden: the catalog comes from pyproject.toml."""
    import shutil

    for name in ("permgroup", "puzzles"):
        shutil.copytree(ROOT / name, tmp_path / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    code = ("import importlib.metadata as m, sys; m.entry_points = lambda **k: []; "
            "sys.argv = ['permgroup', 'order', 'skewb']; import runpy; "
            "runpy.run_module('permgroup', run_name='__main__')")
    env = dict(os.environ, PYTHONPATH=str(tmp_path), PERMGROUP_CACHE=str(tmp_path / "cache"))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=env, cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "order: 3149280"


def test_a_built_in_name_is_found_without_reading_the_installed_entry_points():
    """Start-up: a command naming a built-in format or puzzle looks it up in the
    catalog the checkout declares and never imports importlib.metadata (a
    tenth of a second or more)."""
    code = ("import sys; from permgroup.cli import parser; "
            "parser().parse_args(['solve', 'zoj2477']); "
            "from permgroup.formats import resolve; resolve('skewb'); resolve('lrx-5'); "
            "print('importlib.metadata' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, timeout=60)
    assert result.stdout.split() == ["False"], result.stderr
    from permgroup import catalog

    # a miss is looked up in the complete catalog too, before it is refused
    assert "zoj2477" in catalog.FormatNames() and "no-such-format" not in catalog.FormatNames()


#: the layers of ``permgroup``, lowest first; a module imports only its own
#: layer and those below (``docs/architecture.md``)
LAYERS = {
    "group algebra": ("perm", "moves", "levels", "puzzle", "metric", "words", "errors", "budget",
                      "cache", "progress", "pieces", "normalize", "elements", "export", "drawing",
                      "formats", "perm_arrays", "stabilizer_chain", "orbit_chain", "subgroups",
                      "catalog"),
    "spaces": ("spaces",),
    "tables": ("tables",),
    "search": ("search",),
}


def _layer(module: str) -> int:
    parts = module.split(".")
    if parts[0] != "permgroup" or len(parts) == 1:
        return len(LAYERS)  # the puzzles package and the toolkit: the top
    for rank, names in enumerate(LAYERS.values()):
        if parts[1] in names:
            return rank
    return len(LAYERS)


def test_layers_import_only_downwards():
    """Group algebra, then spaces, tables, search, then the toolkit (explore,
    solution, the command line...): the engine never reaches up."""
    graph = _import_graph()
    upward = [f"{m} -> {i}" for m, imports in sorted(graph.items()) for i in sorted(imports)
              if _layer(i) > _layer(m)]
    assert not upward, "imports that reach up a layer:\n" + "\n".join(upward)


def test_the_widget_names_the_command_that_installs_it_from_a_clone(monkeypatch):
    from permgroup import explore

    monkeypatch.setitem(sys.modules, "anywidget", None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, "permgroup.widget", raising=False)
    with pytest.raises(ImportError) as caught:
        explore.widget(explore.load_puzzle("minicube"))
    assert "pip install '.[widget]'" in str(caught.value)
    assert "permgroup[widget]" not in str(caught.value)  # not on PyPI
