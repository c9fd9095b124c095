"""Benchmark of solving any 3x3x3 cube: the two-phase chain search.

    python benchmarks/bench_cube3_any.py [--cubes N] [--skip-slow]

* tables built from an empty cache (whole process: time and peak memory);
* tables loaded from the cache (whole process, and the load alone);
* ``permgroup solve cube3-facelets`` on N uniformly random cubes (random
  permutations of equal parity, random twists and flips with the sums fixed,
  fixed seed), whole process with a warm cache, with the default 1 s budget
  per cube and with ``--time-limit 0.1``: wall time and mean length; every
  printed solution is applied and checked;
* the superflip (20 face turns optimal) with the default budget;
* baseline measured in the same run: the same chain searched in one direction,
  without the phase-two ball and cap (the plain two-phase search), 0.1 s.

Figures are single runs or medians; the machine may be shared.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import scratch_dir, machine_note, peak_memory_mb, run_process  # noqa: E402
from permgroup.budget import Budget  # noqa: E402
from puzzles import cube3  # noqa: E402

SUPERFLIP = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"
LOAD = ("import time; t = time.perf_counter(); from puzzles import cube3; cube3.two_phase(); "
        "print(time.perf_counter() - t)")


def random_cubes(n: int, seed: int = 1111) -> list[str]:
    rng = np.random.default_rng(seed)
    return [cube3.facelets(cube3.random_element(rng)) for _ in range(n)]


def checked_lengths(cubes: list[str], output: str) -> list[int]:
    lines = output.split("\n")[:-1]
    assert len(lines) == len(cubes), (len(lines), len(cubes))
    for state, line in zip(cubes, lines):
        assert cube3.apply_moves(state, line.split()) == cube3.SOLVED, line
    return [len(line.split()) for line in lines]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cubes", type=int, default=100)
    parser.add_argument("--skip-slow", action="store_true", help="no 1 s run, no cold build")
    args = parser.parse_args()
    cache = scratch_dir("bench-cube3-any-")
    os.environ["PERMGROUP_CACHE"] = cache  # this process too: never the user's cache
    env = dict(os.environ)

    if not args.skip_slow:
        start = time.perf_counter()
        peak = peak_memory_mb(LOAD, env)
        print(f"tables built from an empty cache (whole process)   {time.perf_counter() - start:7.1f} s"
              f"   peak {peak:.0f} MB", flush=True)
    else:
        subprocess.run([sys.executable, "-c", LOAD], env=env, cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    loads, inner = [], []
    for _ in range(3):
        wall, out = run_process([sys.executable, "-c", LOAD], env=env)
        loads.append(wall)
        inner.append(float(out))
    print(f"tables loaded from the cache: whole process {statistics.median(loads):.2f} s, "
          f"the load alone {statistics.median(inner):.2f} s (median of 3)", flush=True)

    cubes = random_cubes(args.cubes)
    path = Path(cache) / "cubes.txt"
    path.write_text("\n".join(cubes) + "\n")
    budgets = [("0.1", ["--time-limit", "0.1"])] + ([] if args.skip_slow else
                                                    [("1 (default)", [])])
    for label, extra in budgets:
        cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall, out = run_process([sys.executable, "-m", "permgroup", "solve", "cube3-facelets",
                                 str(path)] + extra, env=env)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime
        lengths = checked_lengths(cubes, out)
        print(f"{len(cubes)} random cubes, --time-limit {label}: mean "
              f"{statistics.mean(lengths):.2f} "
              f"moves, max {max(lengths)}, whole process {wall:.1f} s wall, {used:.1f} s CPU "
              "(the budget is wall time: a loaded machine gives less search)", flush=True)

    chain = cube3.two_phase()
    state = cube3.apply_moves(cube3.SOLVED, SUPERFLIP)
    start = time.perf_counter()
    word = cube3.solve(state)
    assert cube3.apply_moves(state, word) == cube3.SOLVED
    print(f"superflip: {len(word)} moves in {time.perf_counter() - start:.2f} s", flush=True)

    # baseline: one direction, no ball, no cap
    saved = chain.last_stage_cap, chain.first_answer_cap, chain.stages[-1].ball
    chain.last_stage_cap, chain.first_answer_cap, chain.stages[-1].ball = None, None, None
    plain = [len(chain.solve(cube3.element(c), budget=Budget.of(0.1), directions=1)) for c in cubes]
    chain.last_stage_cap, chain.first_answer_cap, chain.stages[-1].ball = saved
    print(f"baseline, plain two-phase (one direction, no ball), 0.1 s: mean "
          f"{statistics.mean(plain):.2f} moves, max {max(plain)}", flush=True)
    print(machine_note())


if __name__ == "__main__":
    main()
