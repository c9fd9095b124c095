"""The package as Python meets it: ``help(permgroup)``, its modules reachable
after ``import permgroup`` without an import cycle, the widget's advice when
anywidget is missing."""
from __future__ import annotations

import ast
import os
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
    """No permgroup module imports, even inside a function, one that imports it
    back; with the puzzles package, none at load time."""
    _assert_acyclic(_import_graph())
    _assert_acyclic(_import_graph(("permgroup", "puzzles"), inside_functions=False))


#: the layers of ``permgroup``, lowest first; a module imports only its own
#: layer and those below (``docs/architecture.md``)
LAYERS = {
    "group algebra": ("perm", "moves", "levels", "puzzle", "metric", "words", "errors", "budget", "cache", "progress",
                      "pieces", "normalize", "elements", "export", "drawing", "formats",
                      "perm_arrays", "stabilizer_chain", "orbit_chain"),
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
    oracle, the command line...): the engine never reaches up."""
    graph = _import_graph()
    upward = [f"{m} -> {i}" for m, imports in sorted(graph.items()) for i in sorted(imports)
              if _layer(i) > _layer(m)]
    assert not upward, "imports that reach up a layer:\n" + "\n".join(upward)


def test_the_widget_names_the_command_that_installs_it_from_a_clone(monkeypatch):
    from permgroup import explore
    from puzzles import minicube

    monkeypatch.setitem(sys.modules, "anywidget", None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, "permgroup.widget", raising=False)
    with pytest.raises(ImportError) as caught:
        explore.widget(minicube.PUZZLE)
    assert "pip install '.[widget]'" in str(caught.value)
    assert "permgroup[widget]" not in str(caught.value)  # not on PyPI
