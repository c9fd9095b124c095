"""Benchmark of the cubic eight-puzzle (POJ 3131): whole-process solves, table builds.

Run: ``python benchmarks/bench_cubic_eight.py`` (two to three minutes).  Prints
medians and ratios against baselines measured in the same run: the seed-002
C++ program (bidirectional BFS per dataset, compiled into a temporary folder)
on the same 15-dataset file, and the targets of issue 5 (60 s and 1 GB for a
run with an empty cache).
"""
from __future__ import annotations

import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import (  # noqa: E402
    scratch_dir,
    fresh_cache_env,
    left_out,
    machine_note,
    median_time,
    peak_memory_mb,
    permgroup_command,
    report,
    run_process,
    seed_program,
)
from permgroup.tables.bfs import load_state_table  # noqa: E402
from puzzles import cubic_eight as ce  # noqa: E402
from puzzles.formats import poj3131  # noqa: E402

DATASETS = 15
COLD_TARGET_S = 60.0
MEMORY_TARGET_MB = 1024.0


def random_datasets(rng: random.Random, count: int) -> list[tuple[int, str]]:
    """Random starts; a third of the goals any pattern at all, the rest the tops
    after a random walk of 10 to 300 rolls (answers from 0 to beyond 30)."""
    datasets = []
    for _ in range(count):
        empty = rng.randrange(ce.CELLS)
        if rng.random() < 1 / 3:
            cells = [rng.choice("WRB") for _ in range(ce.CELLS)]
            cells[rng.randrange(ce.CELLS)] = ce.EMPTY
            datasets.append((empty, "".join(cells)))
        else:
            state = ce.start_state(empty)
            for _ in range(rng.randrange(10, 300)):
                state = rng.choice(ce.PARTIAL.successors(state))[1]
            datasets.append((empty, ce.tops(state)))
    return datasets


def hard_datasets(rng: random.Random, count: int) -> list[tuple[int, str]]:
    """Datasets whose answer is 28, 29, 30 or -1 (deeper than 30, or never):
    the slow ones for a search, drawn from the pattern tables."""
    import numpy as np

    datasets = []
    for _ in range(count):
        empty = rng.randrange(ce.CELLS)
        depths = np.frombuffer(ce.pattern_table(empty), dtype=np.uint8)
        deep = np.flatnonzero(depths >= 28)
        datasets.append((empty, "".join(ce.VIEW.unrank(int(rng.choice(deep.tolist()))))))
    return datasets


def median_process(args: list[str], stdin: Path | None = None, env: dict | None = None,
                   repeat: int = 5) -> tuple[float, str]:
    runs = [run_process(args, stdin, env) for _ in range(repeat)]
    outputs = {out for _, out in runs}
    assert len(outputs) == 1, "a program gave different outputs on the same input"
    return sorted(t for t, _ in runs)[repeat // 2], outputs.pop()


def main() -> None:
    rng = random.Random(3131)
    folder = Path(scratch_dir("permgroup-inputs-"))
    datasets = random_datasets(rng, DATASETS)
    path = folder / "poj3131-15.txt"
    path.write_text(poj3131.write_datasets(datasets))
    solve = permgroup_command() + ["solve", "poj3131", str(path)]
    starts = len({empty for empty, _ in datasets})

    rows = []
    python_start, _ = median_process([sys.executable, "-c", "pass"], repeat=7)
    rows.append(("python -c pass (start-up, for scale)", python_start, "s", None))
    seed = seed_program("002")
    if not seed:
        left_out("poj3131 against seed-002 C++", "002")
    warm_env = fresh_cache_env()
    os.environ["PERMGROUP_CACHE"] = warm_env["PERMGROUP_CACHE"]
    hard_path = folder / "poj3131-15-hard.txt"
    hard_path.write_text(poj3131.write_datasets(hard_datasets(rng, DATASETS)))
    answers = {}
    for label, file in (("random", path), ("hard: 28-30 or -1", hard_path)):
        command = permgroup_command() + ["solve", "poj3131", str(file)]
        seed_seconds = None
        if seed:
            seed_seconds, seed_out = median_process([str(seed)], file)
            rows.append((f"seed-002 C++, {DATASETS} datasets, {label} (baseline)",
                         seed_seconds, "s", None))
        run_process(command, env=warm_env)
        warm, warm_out = median_process(command, env=warm_env, repeat=7)
        rows.append(("permgroup solve poj3131, same file, tables cached", warm, "s",
                     warm / seed_seconds if seed_seconds else None))
        if seed:
            assert warm_out == seed_out, f"permgroup and the seed disagree ({label})"
        answers[label] = warm_out.split()
    report(rows)

    rows = []
    cold_runs = [run_process(solve, env=fresh_cache_env()) for _ in range(3)]
    cold = sorted(t for t, _ in cold_runs)[1]
    assert all(out.split() == answers["random"] for _, out in cold_runs)
    rows.append((f"permgroup solve poj3131, {DATASETS} datasets, empty cache "
                 f"({starts} start cells)", cold, "s", cold / COLD_TARGET_S))
    memory = peak_memory_mb(
        "from puzzles.formats import poj3131\n"
        f"poj3131.solve_text(open({str(path)!r}).read())", env=fresh_cache_env())
    rows.append(("peak memory of that run (ratio to 1 GB)", memory, "MB",
                 memory / MEMORY_TARGET_MB))
    build = median_time(lambda: load_state_table(ce.SPACE, [ce.start_rank(ce.CENTRE)], "centre",
                                                 cache=False), 3)
    rows.append(("one depth table: BFS over 9 * 6**8 ranks (centre start)", build, "s", None))

    def searches():
        for empty, pattern in datasets:
            ce.search_distance(empty, pattern)

    search = median_time(searches, 3)
    rows.append((f"bidirectional search, no table, the {DATASETS} random datasets in-process",
                 search, "s", None))
    report(rows)
    for label, values in answers.items():
        print(f"# answers, {label}: {' '.join(values)}")
    print(machine_note("the machine is shared with other agents"))


if __name__ == "__main__":
    main()
