"""Benchmark of the 4x4 torus (Kattis rubiksrevenge): table build, whole-process solves.

Run: ``python benchmarks/bench_torus.py [--repeat N]`` (about three minutes).
Prints medians and ratios against baselines measured in the same run:

* the table: the full 63,063,000-colouring build (``permgroup table
  rubiksrevenge`` in a fresh process and an empty cache: wall time and peak
  memory from ``resource.getrusage``), and on smaller instances a plain BFS
  that keeps each level as ``np.unique`` of packed words (no ranks, no
  bottom-up steps), against the engine's builder on the same instances;
* the contest command: every official file (27 secret + 2 sample), one
  process each, with the table cached, with an empty cache (bidirectional
  search), and the faster seed-003 C++ program (the bidirectional BFS quoted
  in the seed, compiled into a temporary folder only to be timed here).
"""
from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import (
    scratch_dir,
    ROOT,
    SEEDS,
    add_seeds_option,
    fresh_cache_env,
    left_out,
    machine_note,
    median_time,
    permgroup_command,
    report,
    run_process,
)
from permgroup.tables.colouring_table import colouring_depths
from puzzles import torus

DATA = ROOT / "tests" / "data" / "rubiksrevenge"
BUILD_PROBE = """
import resource, subprocess, sys, time
start = time.perf_counter()
subprocess.run([sys.executable, "-m", "permgroup", "table", "rubiksrevenge"], check=True,
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(time.perf_counter() - start,
      resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)
"""


def plain_unique_bfs(space, max_depth: int = 255) -> list[int]:
    """The baseline: each level is ``np.unique`` of the packed words one move from
    the last level, minus the two levels before (moves come with inverses)."""
    last, before = np.array([space.solved], dtype=space.dtype), np.array([], space.dtype)
    counts = [1]
    while len(last) and len(counts) <= max_depth:
        nxt = np.unique(np.concatenate([space.apply(last, m) for m in range(space.n_moves)]))
        nxt = nxt[~np.isin(nxt, last) & ~np.isin(nxt, before)]
        before, last = last, nxt
        if len(nxt):
            counts.append(len(nxt))
    return counts


def seed_003_fast() -> Path | None:
    """Compile the seed's second program (the quoted bidirectional BFS)."""
    compiler = shutil.which("g++")
    matches = sorted(SEEDS.glob("003_*.txt")) if SEEDS else []
    if not compiler or not matches:
        return None
    blocks = re.findall(r"```cpp\n(.*?)```", matches[0].read_text(encoding="utf-8"), re.DOTALL)
    if len(blocks) < 2:
        return None
    folder = Path(scratch_dir("seed003-"))
    (folder / "main.cpp").write_text(blocks[1])
    binary = folder / "main"
    done = subprocess.run([compiler, "-O2", "-o", str(binary), str(folder / "main.cpp")],
                          check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return binary if done.returncode == 0 else None


def per_file(command, files: list[Path], repeat: int, env: dict | None = None,
             stdin: bool = False) -> dict[str, float]:
    """Median whole-process time of ``command`` on each file; checks the answers."""
    out = {}
    for path in files:
        times = []
        for _ in range(repeat):
            if stdin:
                seconds, text = run_process(command, path, env=env)
            else:
                seconds, text = run_process(command + [str(path)], env=env)
            times.append(seconds)
            expected = path.with_suffix(".ans").read_text().strip()
            assert text.strip() == expected, f"{path.name}: got {text.strip()}, want {expected}"
        out[path.name] = statistics.median(times)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement")
    add_seeds_option(parser)
    args = parser.parse_args()
    repeat = args.repeat

    # --- the table -------------------------------------------------------------------
    rows = []
    builds = []
    for _ in range(repeat):
        probe = subprocess.run([sys.executable, "-c", BUILD_PROBE], env=fresh_cache_env(),
                               cwd=ROOT, stdout=subprocess.PIPE, check=True, text=True)
        builds.append([float(x) for x in probe.stdout.split()])
    build_time = statistics.median(b[0] for b in builds)
    build_mem = statistics.median(b[1] for b in builds)
    rows.append(("full 4x4 table, permgroup table (whole process)", build_time, "s", None))
    rows.append(("full 4x4 table, peak memory (ru_maxrss)", build_mem, "MB", None))
    for (rows_, cols_), depth in (((3, 5), 255), ((4, 4), 7)):
        space = torus.space(torus.torus_puzzle(rows_, cols_))
        label = f"{rows_}x{cols_}" + (f" to depth {depth}" if depth < 255 else "")
        base = median_time(lambda s=space, d=depth: plain_unique_bfs(s, d), repeat)
        ours = median_time(
            lambda s=space, d=depth: colouring_depths(s, [s.solved], max_depth=d), repeat)
        depths = colouring_depths(space, [space.solved], max_depth=depth)
        counts = np.bincount(depths, minlength=256)[:depth + 1]
        assert plain_unique_bfs(space, depth) == counts[:len(np.trim_zeros(counts, "b"))].tolist()
        rows.append((f"{label}: plain np.unique BFS on words (baseline)", base, "s", None))
        rows.append((f"{label}: engine builder (ranks, blocks, bottom-up)", ours, "s",
                     ours / base))
    report(rows)

    # --- the contest command ----------------------------------------------------------
    files = sorted(DATA.glob("secret/*.in"))
    samples = sorted(DATA.glob("sample/*.in"))
    local = Path(scratch_dir("rubiksrevenge-data-"))
    copies = []
    for path in files + samples:  # local copies, so that every run reads the same disk
        for suffix in (".in", ".ans"):
            shutil.copy(path.with_suffix(suffix), local / (path.stem + suffix))
        copies.append(local / (path.stem + ".in"))
    secret = copies[:len(files)]
    command = permgroup_command() + ["solve", "rubiksrevenge"]
    warm_env = fresh_cache_env()
    subprocess.run(permgroup_command() + ["table", "rubiksrevenge"], env=warm_env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cold_env = fresh_cache_env()
    warm = per_file(command, copies, repeat, env=warm_env)
    cold = per_file(command, copies, repeat, env=cold_env)
    assert not any(Path(cold_env["PERMGROUP_CACHE"]).iterdir()), "solve built a table"
    seed = seed_003_fast()
    fast = per_file([str(seed)], secret, repeat, stdin=True) if seed else None
    if not seed:
        left_out("rubiksrevenge against seed-003 C++", "003")

    twelve = [p.name for p in secret if p.with_suffix(".ans").read_text().strip() == "12"]
    print(f"\n{'file':<22}{'answer':>7}{'cached':>10}{'no cache':>10}"
          + (f"{'seed C++':>10}" if fast else ""))
    for p in copies:
        line = (f"{p.name:<22}{p.with_suffix('.ans').read_text().strip():>7}"
                f"{warm[p.name]:>10.3f}{cold[p.name]:>10.3f}")
        if fast and p.name in fast:
            line += f"{fast[p.name]:>10.3f}"
        print(line)
    print()
    rows = []
    names = [p.name for p in secret]
    seed_total = sum(fast[n] for n in names) if fast else None
    for label, times in (("table cached", warm), ("empty cache, bidirectional search", cold)):
        total = sum(times[n] for n in names)
        rows.append((f"27 secret files, {label}: total", total, "s",
                     total / seed_total if seed_total else None))
        rows.append((f"27 secret files, {label}: median per file",
                     statistics.median(times[n] for n in names), "s", None))
    rows.append(("12-move files, empty cache: slowest", max(cold[n] for n in twelve), "s",
                 None))
    if fast:
        rows.append(("27 secret files, seed-003 fast C++ (baseline): total", seed_total, "s",
                     None))
        rows.append(("12-move files, seed-003 fast C++: slowest", max(fast[n] for n in twelve),
                     "s", None))
    python_only = median_time(lambda: subprocess.run([sys.executable, "-c", "pass"],
                                                     check=True), 5)
    rows.append(("bare python start-up (for scale)", python_only, "s", None))
    report(rows)
    print(machine_note(f"{repeat} runs per median"))


if __name__ == "__main__":
    main()
