"""Issue 21's figures: growth functions of the families against CayleyPy, the
structure of the Megaminx, ``permgroup order megaminx``, a corner 3-cycle.

``python benchmarks/bench_structure.py [--repeat N] [--quick]``

Every figure is a whole process (imports included), median of ``--repeat``
runs (3), taking turns with its baseline in the same run:

* the growth function (the ``table`` distribution) of ``lrx-11`` and
  ``pancake-11`` (39,916,800 states each) by ``permgroup table NAME`` with an
  empty cache, against CayleyPy 0.2 on the CPU (``CayleyGraph(...,
  device="cpu").bfs()``; ``pip install cayleypy torch``: an optional benchmark
  dependency, left out with a line saying so when missing); both distributions
  are compared;
* ``explore.structure`` of the Megaminx and ``permgroup order megaminx``, against
  sympy's ``order()`` of the same group;
* the shortest corner 3-cycle of the 3x3x3 (``explore.commutators``).

``--quick`` uses 9 points instead of 11 (a check that the script runs).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.common import scratch_dir  # noqa: E402

OURS_GROWTH = """
import json, sys
from permgroup.cli import main
sys.exit(main(["table", sys.argv[1], "--metric", "qtm"]))
"""
CAYLEYPY_GROWTH = """
import json, sys
from cayleypy import CayleyGraph, PermutationGroups
family, n = sys.argv[1].rsplit("-", 1)
graph = getattr(PermutationGroups, family)(int(n))
print(json.dumps(list(CayleyGraph(graph, device="cpu").bfs().layer_sizes)))
"""
STRUCTURE = """
from permgroup import explore
s = explore.structure("megaminx")
print(s.order, s.proven)
"""
SYMPY_ORDER = """
from permgroup import explore
print(explore.load_puzzle("megaminx").group().order())
"""
CORNER_CYCLE = """
from permgroup import explore
best = explore.commutators("cube3").groups()["3-cycle of corners"][0]
print(best.length, best.form)
"""


def run(args: list[str], env: dict) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT)
    took = time.perf_counter() - start
    if out.returncode:
        raise RuntimeError(f"{' '.join(args[:3])}... failed: {out.stderr[-500:]}")
    return took, out.stdout


def python(code: str, *argv: str) -> list[str]:
    return [sys.executable, "-c", code, *argv]


def fresh_env() -> dict:
    return dict(os.environ, PERMGROUP_CACHE=scratch_dir("bench-structure-"),
                PYTHONPATH=str(ROOT))


def has_cayleypy() -> bool:
    return subprocess.run([sys.executable, "-c", "import cayleypy, torch"],
                          capture_output=True).returncode == 0


def compare(label: str, ours: list[str], theirs: list[str] | None, repeat: int,
            parse=lambda out: out, baseline: str = "baseline") -> None:
    """Median times of two whole processes taking turns, and their ratio."""
    mine, base, answers = [], [], {}
    for _ in range(repeat):
        took, out = run(ours, fresh_env())
        mine.append(took)
        answers["ours"] = parse(out)
        if theirs is not None:
            took, out = run(theirs, fresh_env())
            base.append(took)
            answers["theirs"] = out.strip()
    line = f"{label}: {statistics.median(mine):.2f} s"
    if base:
        line += (f"; {baseline} {statistics.median(base):.2f} s (ratio "
                 f"{statistics.median(mine) / statistics.median(base):.2f})")
    print(line, flush=True)
    return answers


def table_counts(out: str) -> str:
    return json.dumps([int(line.split("\t")[1]) for line in out.splitlines() if "\t" in line])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="9 points instead of 11")
    parser.add_argument("--seeds", help=argparse.SUPPRESS)  # benchmarks/run.py passes it on
    args = parser.parse_args(argv)
    n = 9 if args.quick else 11
    cayleypy = has_cayleypy()
    if not cayleypy:
        print("# left out: CayleyPy 0.2 (pip install cayleypy torch): the growth functions "
              "are timed alone", flush=True)
    for family, theirs in (("lrx", "lrx"), ("pancake", "pancake")):
        name = f"{family}-{n}"
        answers = compare(f"growth of {name} (permgroup table, empty cache)",
                          python(OURS_GROWTH, name),
                          python(CAYLEYPY_GROWTH, f"{theirs}-{n}") if cayleypy else None,
                          args.repeat, parse=table_counts, baseline="CayleyPy 0.2 CPU bfs()")
        if "theirs" in answers:
            same = json.loads(answers["ours"]) == json.loads(answers["theirs"])
            print(f"  same distribution as CayleyPy: {same}", flush=True)
            if not same:
                return 1
    compare("explore.structure(megaminx), whole process", python(STRUCTURE),
            python(SYMPY_ORDER), args.repeat, baseline="sympy order()")
    compare("permgroup order megaminx, whole process",
            [sys.executable, "-m", "permgroup", "order", "megaminx"], None, args.repeat)
    answers = compare("shortest corner 3-cycle of the 3x3x3 (explore.commutators), whole "
                      "process", python(CORNER_CYCLE), None, args.repeat)
    print(f"  found: {answers['ours'].strip()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
