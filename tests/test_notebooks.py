"""Every notebook in notebooks/ runs top to bottom without error, and what is
committed is what a fresh run shows: a code cell that should show something
shows it, and its outputs are the fresh run's in everything but timings.

Compared after leaving out what changes from run to run by nature: execution
counts, times (``0.21 s``, ``[00:03<00:01]``), progress bars (on stderr and
as notebook widgets: they appear only when work takes a second), memory
addresses and widget model ids; pictures from matplotlib are compared by
their size in pixels (the bytes depend on the matplotlib version installed).
"""
from __future__ import annotations

import base64
import copy
import os
import re
import struct
import tempfile
from pathlib import Path

import nbclient
import nbformat
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))

_TIMES = re.compile(r"\d+(?:\.\d+)?\s?(?:s|ms|µs|us|sec|seconds|min)\b")
_CLOCKS = re.compile(r"\[\d\d:\d\d(?:<[^\]]*)?\]")
_ADDRESSES = re.compile(r"0x[0-9a-f]{6,}")
_PROGRESS = re.compile(r"\d+%\||\d[\d.]*[kMG]? [a-z ]*/s\b|[a-z]+/s\]")
WIDGET = "application/vnd.jupyter.widget-view+json"


def _masked(text: str) -> str:
    return _ADDRESSES.sub("0x…", _CLOCKS.sub("[clock]", _TIMES.sub("<time>", text)))


def _png_size(data: str) -> tuple[int, int]:
    width, height = struct.unpack(">II", base64.b64decode(data)[16:24])
    return width, height


def _is_progress(output) -> bool:
    if output.output_type == "stream":
        return output.name == "stderr" and bool(_PROGRESS.search(output.text))
    data = output.get("data", {})
    plain = str(data.get("text/plain", ""))
    return WIDGET in data and ("FloatProgress" in plain or bool(_PROGRESS.search(plain)))


def comparable(outputs) -> list:
    """The outputs of a cell as they are compared (see the module docstring)."""
    shown = []
    for output in outputs:
        if _is_progress(output):
            continue
        if output.output_type == "stream":
            if shown and shown[-1][0] == output.name:  # a stream may arrive in pieces
                shown[-1] = (output.name, shown[-1][1] + _masked(output.text))
            else:
                shown.append((output.name, _masked(output.text)))
        elif output.output_type == "error":
            shown.append(("error", output.ename, _masked(output.evalue)))
        else:
            data = {}
            for kind, value in output.get("data", {}).items():
                if kind == "image/png":
                    data[kind] = _png_size(value)
                elif kind == WIDGET:
                    data[kind] = "widget"
                else:
                    data[kind] = _masked(value if isinstance(value, str) else str(value))
            shown.append((output.output_type, data))
    return shown


def run(path: Path):
    """A fresh run of the notebook at ``path`` (the committed file is left as it
    is), over an empty cache of tables: what a reader who opens it first sees
    (a warm cache says "cached table" where a first run shows the build)."""
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(copy.deepcopy(nb), timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(path.parent.parent)}})
    with tempfile.TemporaryDirectory(prefix="notebook-cache-") as cache:
        return nb, client.execute(env={**os.environ, "PERMGROUP_CACHE": cache})


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_and_shows_what_a_fresh_run_shows(path):
    committed, fresh = run(path)
    stale = []
    for number, (old, new) in enumerate(zip(committed.cells, fresh.cells), 1):
        if old.cell_type != "code":
            continue
        if comparable(old.outputs) != comparable(new.outputs):
            what = "has no outputs" if not old.outputs else "shows outputs a fresh run does not"
            stale.append(f"cell {number} ({old.source.splitlines()[0][:50]!r}) {what}")
    assert not stale, (f"{path.name} is stale; re-execute it (python tests/test_notebooks.py "
                       f"{path.relative_to(path.parents[1])}): "
                       + "; ".join(stale))


def test_there_are_notebooks():
    assert NOTEBOOKS, "notebooks/ holds no notebook"


def test_comparison_ignores_timings_but_not_results():
    def stream(text: str, name: str = "stdout"):
        return nbformat.v4.new_output("stream", name=name, text=text)

    assert comparable([stream("built in 0.21 s\n")]) == comparable([stream("built in 3 s\n")])
    assert comparable([stream("x: 40%|████ | 4/10 [00:01<00:02, 3.1 states/s]", "stderr"),
                       stream("14\n")]) == comparable([stream("14\n")])
    assert comparable([stream("diameter 14\n")]) != comparable([stream("diameter 13\n")])
    assert comparable([]) != comparable([stream("14\n")])  # a cell left without its output


def refresh(path: Path) -> None:
    """Execute the notebook at ``path`` and write it back with its outputs."""
    _, fresh = run(path)
    nbformat.write(fresh, path)


if __name__ == "__main__":  # python tests/test_notebooks.py notebooks/NAME.ipynb ...
    import sys

    for name in sys.argv[1:] or map(str, NOTEBOOKS):
        refresh(Path(name).resolve())
        print("executed", name)
