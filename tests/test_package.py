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


def _top_level_imports(path) -> set[str]:
    """The project modules a file imports when it is loaded (not inside functions)."""
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.If):  # TYPE_CHECKING blocks are not run
            continue
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return {m for m in found if m.split(".")[0] in ("permgroup", "puzzles")}


def test_no_import_cycles():
    modules = {}
    for package in ("permgroup", "puzzles"):
        for path in (ROOT / package).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            modules[name.removesuffix(".__init__")] = path
    graph = {m: {i for i in _top_level_imports(p) if i in modules and i != m}
             for m, p in modules.items()}
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


def test_the_widget_names_the_command_that_installs_it_from_a_clone(monkeypatch):
    from permgroup import explore
    from puzzles import minicube

    monkeypatch.setitem(sys.modules, "anywidget", None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, "permgroup.widget", raising=False)
    with pytest.raises(ImportError) as caught:
        explore.widget(minicube.PUZZLE)
    assert "pip install '.[widget]'" in str(caught.value)
    assert "permgroup[widget]" not in str(caught.value)  # not on PyPI
