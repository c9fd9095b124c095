"""Benchmark of the 2x2x2 mini cube: table build, cache load, distance, whole-process solves.

Run: ``python benchmarks/bench_minicube.py`` (about a minute).  Prints medians
and ratios against baselines measured in the same run: a plain top-down numpy
BFS (no bottom-up or dense steps) for the table, and the seed C++ programs
(compiled into a temporary folder) for the contest commands.
"""
from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import (  # noqa: E402
    scratch_dir,
    fresh_cache_env,
    machine_note,
    median_time,
    peak_memory_mb,
    permgroup_command,
    report,
    left_out,
    run_process,
    seed_program,
)
from permgroup.spaces.element import ElementSpace  # noqa: E402
from permgroup.tables.table import build_table, load_table  # noqa: E402
from puzzles import minicube  # noqa: E402
from puzzles.formats import minicube_pair, uva11007  # noqa: E402

SEED_004_FIXES = {
    "gets( rubcan );": "if(!fgets(rubcan, 100, stdin)) return 0;",
    "rep( i, 0, 5 ) gets( str[i] );": "rep( i, 0, 5 ) if(!fgets(str[i], 20, stdin)) return 0;",
}


def plain_bfs(metric: str) -> np.ndarray:
    """The baseline: top-down only, one sparse step per move and level, each
    level's frontier found by scanning the depths (no threads, no bottom-up)."""
    space = ElementSpace(minicube.PUZZLE, metric, anchor=minicube.ANCHOR)
    depths = np.full(space.size, 255, dtype=np.uint8)
    depths[space.identity] = 0
    depth = 0
    while True:
        frontier = np.flatnonzero(depths == depth).astype(np.int32)
        if not len(frontier):
            return depths
        for m in range(space.n_moves):
            nxt = space.step(frontier, m)
            depths[nxt[depths[nxt] == 255]] = depth + 1
        depth += 1


def main() -> None:
    os.environ["PERMGROUP_CACHE"] = scratch_dir("permgroup-bench-")
    rng = random.Random(2026)
    rows = []
    for metric in ("qtm", "htm"):
        base = median_time(lambda: plain_bfs(metric), 3)
        fast = median_time(lambda: build_table(minicube.PUZZLE, metric, anchor=minicube.ANCHOR), 5)
        rows.append((f"table build {metric} (plain top-down BFS baseline)", base, "s", None))
        rows.append((f"table build {metric}", fast, "s", fast / base))
    report(rows)
    rows = []
    baseline_mem = peak_memory_mb("import numpy")
    build_mem = peak_memory_mb(
        "from permgroup.tables.table import build_table\nfrom puzzles import minicube\n"
        "build_table(minicube.PUZZLE, 'qtm', anchor=minicube.ANCHOR)\n"
        "build_table(minicube.PUZZLE, 'htm', anchor=minicube.ANCHOR)")
    rows.append(("peak memory: python + numpy only (baseline)", baseline_mem, "MB", None))
    rows.append(("peak memory: build QTM and HTM tables", build_mem, "MB",
                 build_mem / baseline_mem))
    load_table(minicube.PUZZLE, "qtm", anchor=minicube.ANCHOR)
    load = median_time(lambda: load_table(minicube.PUZZLE, "qtm", anchor=minicube.ANCHOR), 9)
    rows.append(("load QTM table from cache", load, "s", None))

    table = minicube.table("qtm")
    reachable = np.flatnonzero(table.depths != 255)
    gen = np.random.default_rng(1)
    p, q = gen.choice(reachable, 1_000_000), gen.choice(reachable, 1_000_000)
    batch = median_time(lambda: table.distances(p, q), 5)
    rows.append(("batched distance, 1,000,000 random pairs", batch, "s", None))
    pairs = [(minicube.scramble(rng), minicube.scramble(rng)) for _ in range(3000)]

    def singles():
        for a, b in pairs:
            minicube.distance(a, b)

    single = median_time(singles, 5) / len(pairs)
    rows.append(("one distance(a, b) on facelet strings", single * 1e6, "us", None))
    report(rows)

    rows = []
    folder = Path(scratch_dir("permgroup-inputs-"))
    pair_file = folder / "pairs40.txt"
    pair_scheme = minicube_pair.SCHEME.solved
    pair_file.write_text(minicube_pair.write_cases(
        [(minicube.scramble(rng, solved=pair_scheme), minicube.scramble(rng, solved=pair_scheme))
         for _ in range(40)]))
    uva_file = folder / "uva3000.txt"
    uva_file.write_text(uva11007.write_cases(
        [minicube.scramble(rng, solved=uva11007.SCHEME.solved) for _ in range(3000)]))

    cold_times, cold_out = [], None
    for _ in range(3):
        seconds, cold_out = run_process(permgroup_command() + ["solve", "minicube-pair",
                                                               str(pair_file)],
                                        env=fresh_cache_env())
        cold_times.append(seconds)
    cold = sorted(cold_times)[1]
    seed4 = seed_program("004", SEED_004_FIXES)
    if seed4:
        seed_seconds, seed_out = run_process([str(seed4)], pair_file)
        rows.append(("seed-004 C++, 40-case minicube-pair (baseline)", seed_seconds, "s", None))
        assert seed_out == cold_out, "permgroup and the seed disagree on minicube-pair"
        rows.append(("permgroup solve minicube-pair, 40 cases, empty cache", cold, "s",
                     cold / seed_seconds))
    else:
        left_out("minicube-pair against seed-004 C++", "004")
        rows.append(("permgroup solve minicube-pair, 40 cases, empty cache", cold, "s", None))

    warm_env = fresh_cache_env()
    run_process(permgroup_command() + ["solve", "uva11007", str(uva_file)], env=warm_env)
    warm_times = []
    for _ in range(5):
        seconds, warm_out = run_process(permgroup_command() + ["solve", "uva11007",
                                                               str(uva_file)], env=warm_env)
        warm_times.append(seconds)
    warm = sorted(warm_times)[2]
    seed0 = seed_program("000")
    if seed0:
        seed_times = []
        for _ in range(3):
            seconds, seed_out = run_process([str(seed0)], uva_file)
            seed_times.append(seconds)
        seed_seconds = sorted(seed_times)[1]
        assert seed_out == warm_out, "permgroup and the seed disagree on uva11007"
        rows.append(("seed-000 C++, 3000 UVa 11007 cases (baseline)", seed_seconds, "s", None))
        rows.append(("permgroup solve uva11007, 3000 cases, warm cache", warm, "s",
                     warm / seed_seconds))
    else:
        left_out("uva11007 against seed-000 C++", "000")
        rows.append(("permgroup solve uva11007, 3000 cases, warm cache", warm, "s", None))
    report(rows)
    print(machine_note())


if __name__ == "__main__":
    main()
