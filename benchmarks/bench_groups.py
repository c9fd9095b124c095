"""Issue 35's figures: group orders at GAP's scale, and membership.

``python benchmarks/bench_groups.py [--full] [--sympy] [--repeat N]``

Each figure is a whole process (imports and reading included) with an empty
cache, median of ``--repeat`` runs (1), its wall time and, beside it, the
processor time it took (user and system: on a machine shared with other work
the wall time grows with the load, the processor time much less):

* ``permgroup order`` of Santa 2023 types (their ``puzzle_info.csv`` rows
  written by :mod:`puzzles.santa_types` into a scratch folder): by default the
  small ones, the 10x10x10 and the 33x33x33; ``--full`` all 26 and four types
  Santa does not have;
* ``permgroup order`` of the Megaminx, ``transpositions-256``, and GAP files
  written here: a 100,000-point cycle with a transposition, and alone; with ``--full``
  also the NxNxN cubes (every layer a move) for N = 9..13, 20, 30, 40, and the
  dodecahedra from the Gigaminx to the Yottaminx (:mod:`puzzles.minx`);
* membership on the 10x10x10: 200 uniformly random elements of its group and
  200 of them with two stickers swapped, each classified by
  ``explore.reachable`` (with its reasons), then all 400 at once by the chain;
  every answer checked (two stickers swapped is never in the group: it breaks
  a piece, or changes one orbit's parity alone, which the parities tied to the
  slices forbid);
* beside each order, with ``--sympy``, sympy's ``order()`` of the same
  permutations in its own process, cut at 600 s (``--sympy-limit``): its time
  (a whole process too, reading the puzzle included), the ratio of the two
  times, and whether the orders agree; at the end the
  median ratio over the rows sympy answered, and how many it did not.
  Without ``--sympy`` the orders are checked against published ones where
  there are (S_n, the Megaminx) and the command itself checks its
  structure's order against its chain's.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from math import factorial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.common import machine_note, scratch_dir  # noqa: E402

QUICK_TYPES = ["cube_2/2/2", "cube_3/3/3", "cube_4/4/4", "cube_10/10/10", "cube_33/33/33",
               "wreath_6/6", "wreath_100/100", "globe_3/4", "globe_8/25"]
SANTA_TYPES = ["cube_2/2/2", "cube_3/3/3", "cube_4/4/4", "cube_5/5/5", "cube_6/6/6",
               "cube_7/7/7", "cube_8/8/8", "cube_9/9/9", "cube_10/10/10", "cube_19/19/19",
               "cube_33/33/33", "wreath_6/6", "wreath_7/7", "wreath_12/12", "wreath_21/21",
               "wreath_33/33", "wreath_100/100", "globe_1/8", "globe_1/16", "globe_2/6",
               "globe_3/4", "globe_6/4", "globe_6/8", "globe_6/10", "globe_3/33", "globe_8/25"]
#: types Santa 2023 does not have
UNSEEN_TYPES = ["cube_11/11/11", "cube_15/15/15", "globe_5/7", "wreath_50/50"]
#: published orders: the Megaminx's (20!/2 · 3^19 · 30!/2 · 2^29), S_n's n!
PUBLISHED = {"megaminx": 100669616553523347122516032313645505168688116411019768627200000000000,
             "transpositions-256": factorial(256),
             "a 100,000-cycle and a transposition (GAP file)": factorial(100_000),
             "a 100,000-cycle alone (GAP file)": 100_000}

SYMPY = """
import sys, time
from permgroup.explore import load_puzzle
puzzle = load_puzzle(sys.argv[1])
start = time.perf_counter()
order = puzzle.group().order()
print(time.perf_counter() - start)
print(order)
"""
MEMBERSHIP = """
import sys, time
import numpy as np
start = time.perf_counter()
from permgroup import explore
from permgroup.elements import Element
puzzle = explore.load_puzzle(sys.argv[1])
rng = np.random.default_rng(7)
members = explore.chain(puzzle).random_elements(200, rng)
swapped = members.copy()
for row in swapped:
    a, b = rng.choice(puzzle.degree, 2, replace=False)
    row[[a, b]] = row[[b, a]]
inside = sum(bool(explore.reachable(puzzle, Element(puzzle, g))) for g in members)
outside = sum(not explore.reachable(puzzle, Element(puzzle, g)) for g in swapped)
took = time.perf_counter() - start
start = time.perf_counter()
chain = explore.chain(puzzle)
both = chain.contains(np.concatenate([members, swapped]))
batch = time.perf_counter() - start
print(took, inside, outside, batch, int(both[:200].sum()), int((~both[200:]).sum()))
"""


def gap_text(puzzle) -> str:
    """A GAP file of a puzzle's moves (PuzzleGeometry's form: M_name lines)."""
    from permgroup.elements import cycle_notation

    lines = [f"# {puzzle.name}: written by benchmarks/bench_groups.py"]
    for name, g in puzzle.generators.items():
        lines.append(f"M_{name}:=" + cycle_notation(g, one_based=True, separator=",") + ";")
    lines.append("Gen:=[" + ",".join(f"M_{n}" for n in puzzle.generators) + "];")
    return "\n".join(lines) + "\n"


def env() -> dict:
    return dict(os.environ, PERMGROUP_CACHE=scratch_dir("bench-groups-cache-"),
                PYTHONPATH=str(ROOT))


def cpu_of_children() -> float:
    """User and system seconds of the finished child processes so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def order_of(puzzle: str, repeat: int) -> tuple[float, float, str, str]:
    """Median wall and processor time of ``permgroup order``, the order it
    printed (decimal text: 100000! has 456,574 digits) and its chain line."""
    times, cpus, first = [], [], ""
    for _ in range(repeat):
        start, cpu = time.perf_counter(), cpu_of_children()
        out = subprocess.run([sys.executable, "-m", "permgroup", "order", puzzle],
                             capture_output=True, text=True, env=env(), cwd=ROOT)
        times.append(time.perf_counter() - start)
        cpus.append(cpu_of_children() - cpu)
        if out.returncode:
            raise RuntimeError(f"permgroup order {puzzle} failed: {out.stderr[-400:]}")
        first = out.stdout.splitlines()[0].removeprefix("order: ")
        chain_line = next(line for line in out.stdout.splitlines() if line.startswith("chain:"))
    return statistics.median(times), statistics.median(cpus), first, chain_line


def sympy_order(puzzle: str, limit: float) -> tuple[float | None, int | None]:
    """The wall time of a whole process reading the puzzle and printing
    sympy's ``order()`` (as permgroup's is timed), and that order; ``None``s
    past ``limit`` seconds."""
    start = time.perf_counter()
    try:
        out = subprocess.run([sys.executable, "-c", SYMPY, puzzle], capture_output=True,
                             text=True, env=env(), cwd=ROOT, timeout=limit)
    except subprocess.TimeoutExpired:
        return None, None
    if out.returncode:
        return None, None
    return time.perf_counter() - start, int(out.stdout.split()[1])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true",
                        help="every Santa type, four more, the big cubes and dodecahedra")
    parser.add_argument("--sympy", action="store_true", help="time sympy's order() beside")
    parser.add_argument("--sympy-limit", type=float, default=600.0, metavar="S",
                        help="seconds before sympy's run is cut (default 600)")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--seeds", help=argparse.SUPPRESS)  # benchmarks/run.py passes it on
    args = parser.parse_args(argv)
    from puzzles.santa_types import puzzle_info

    folder = Path(scratch_dir("bench-groups-"))
    types = SANTA_TYPES + UNSEEN_TYPES if args.full else QUICK_TYPES
    info = folder / "puzzle_info.csv"
    info.write_text(puzzle_info(types))
    cases = [(kind, f"{info}#{kind}") for kind in types]
    cases += [("megaminx", "megaminx"), ("transpositions-256", "transpositions-256")]
    n = 100_000
    cycle = folder / "cycle-100000.gap"
    cycle.write_text("M_C:=(" + ",".join(map(str, range(1, n + 1))) + ");\nM_T:=(1,2);\n")
    cases.append(("a 100,000-cycle and a transposition (GAP file)", str(cycle)))
    alone = folder / "cycle-alone-100000.gap"
    alone.write_text("M_C:=(" + ",".join(map(str, range(1, n + 1))) + ");\n")
    cases.append(("a 100,000-cycle alone (GAP file)", str(alone)))
    from permgroup.cli import _decimal
    if args.full:
        from permgroup.explore import load_puzzle
        from puzzles.minx import NAMES, minx

        for size in (9, 10, 11, 12, 13, 20, 30, 40):
            kind = f"cube_{size}/{size}/{size}"
            (folder / "cube.csv").write_text(puzzle_info([kind]))
            path = folder / f"cube{size}.gap"
            path.write_text(gap_text(load_puzzle(f"{folder / 'cube.csv'}#{kind}")))
            cases.append((f"{size}x{size}x{size} (GAP file, every layer)", str(path)))
        for layers in (5, 7, 9, 11, 13, 15):
            path = folder / f"{NAMES[layers]}.gap"
            path.write_text(gap_text(minx(layers)))
            cases.append((f"{NAMES[layers]} (GAP file)", str(path)))
    print(f"{'puzzle':<48} {'permgroup order':>16} {'(processor)':>12} {'sympy order()':>14}"
          f" {'ratio':>8}  orders checked", flush=True)
    status, ratios, beyond, mine_all = 0, [], 0, []
    for label, puzzle in cases:
        took, cpu, order, chain_line = order_of(puzzle, args.repeat)
        mine_all.append(took)
        mine = f"{took:.2f} s"
        theirs, agree, ratio = "-", "", "-"
        if args.sympy:
            their_time, their_order = sympy_order(puzzle, args.sympy_limit)
            if their_time is None:
                theirs, ratio = f">{args.sympy_limit:.0f} s", f">{args.sympy_limit / took:.0f}x"
                beyond += 1
            else:
                theirs, ratio = f"{their_time:.2f} s", f"{their_time / took:.2f}x"
                ratios.append(their_time / took)
                agree = "sympy: yes" if _decimal(their_order) == order else "sympy: NO"
        if label in PUBLISHED:
            agree = (agree + " " if agree else "") + (
                "published: yes" if _decimal(PUBLISHED[label]) == order else "published: NO")
        proven = "proven" if "is proven" in chain_line else "NOT PROVEN"
        print(f"{label:<48} {mine:>16} {f'{cpu:.2f} s':>12} {theirs:>14} {ratio:>8}  {agree} "
              f"{proven}", flush=True)
        if "NO" in agree or proven != "proven":
            status = 1
    print(f"median permgroup order: {statistics.median(mine_all):.2f} s over {len(mine_all)} "
          "rows", flush=True)
    if args.sympy:
        print(f"median ratio sympy / permgroup: "
              + (f"{statistics.median(ratios):.2f}x over the {len(ratios)} rows sympy answered"
                 if ratios else "none answered")
              + f"; {beyond} rows past sympy's {args.sympy_limit:.0f} s", flush=True)
    ten = f"{info}#cube_10/10/10"
    if "cube_10/10/10" not in types:  # pragma: no cover
        info.write_text(puzzle_info(types + ["cube_10/10/10"]))
    out = subprocess.run([sys.executable, "-c", MEMBERSHIP, ten], capture_output=True,
                         text=True, env=env(), cwd=ROOT, check=True).stdout.split()
    took, inside, outside = float(out[0]), int(out[1]), int(out[2])
    batch, inside2, outside2 = float(out[3]), int(out[4]), int(out[5])
    print(f"membership on the 10x10x10, 200 elements and 200 one swap away, whole process "
          f"with explore.reachable (reasons): {took:.2f} s, {inside}/200 reachable, "
          f"{outside}/200 not", flush=True)
    print(f"  the same 400 sifted at once through the chain (chain.contains): {batch:.3f} s, "
          f"{inside2}/200 in the group, {outside2}/200 not", flush=True)
    if (inside, outside, inside2, outside2) != (200, 200, 200, 200):
        status = 1
    print(machine_note(), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
