"""Benchmark on Kaggle's Santa 2023 puzzles: ``permgroup solve santa2023`` on a
whole ``puzzles.csv``, its totals per puzzle type against the published ones.

Run: ``python benchmarks/bench_santa.py --santa PATH [--jobs N] [--time-limit S]
[--only TYPE|ID...]``, PATH the folder holding ``puzzles.csv`` and
``puzzle_info.csv`` (default: the few rows in ``tests/data/santa2023``).  One
fresh process with an empty cache; its wall time and peak memory; every row of
its submission checked here by a plain applier of the competition's rule
(``new[i] = old[p[i]]``, ``-name`` the inverse, at most ``num_wildcards``
positions wrong); then a table per type of rows, valid rows and moves, and the
published totals over all 398 puzzles (the score: lower is better) as ratios
to ours.  The published figures are totals only: per-type ones were not found.

``--fresh TYPE... [--rows N] [--seed S]`` solves fresh rows of those types
instead (:mod:`puzzles.santa_types`, as ``benchmarks/santa_fresh.py`` writes
them; e.g. ``--fresh megaminx --rows 6``: the Megaminx, a type Kaggle never
had, each row 1,200 random moves from solved, every sticker its own label).
"""
from __future__ import annotations

import argparse
import ast
import csv
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import ROOT, fresh_cache_env, machine_note, permgroup_command

#: published totals of moves over all 398 puzzles (Santa 2023's score)
PUBLISHED = [
    ("sample submission", 1_200_000),  # about
    ("one team's final submission", 207_144),
    ("21st place of 1,067 teams", 134_963),
    ("KMCoders (top team, write-up)", 53_770),
]


def read_rows(path: Path) -> list[dict]:
    csv.field_size_limit(1 << 30)
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def moves_of(info: Path) -> dict[str, dict[str, np.ndarray]]:
    out = {}
    for row in read_rows(info):
        try:
            moves = json.loads(row["allowed_moves"].replace("'", '"'))
        except ValueError:
            moves = ast.literal_eval(row["allowed_moves"])
        arrays = {}
        for name, p in moves.items():
            p = np.array(p)
            inverse = np.empty_like(p)
            inverse[p] = np.arange(len(p))
            arrays[name], arrays["-" + name] = p, inverse
        out[row["puzzle_type"]] = arrays
    return out


def valid(row: dict, solution: str, moves: dict[str, np.ndarray]) -> bool:
    state = np.array(row["initial_state"].split(";"))
    for name in solution.split(".") if solution else []:
        if name not in moves:
            return False
        state = state[moves[name]]
    wrong = np.count_nonzero(state != np.array(row["solution_state"].split(";")))
    return wrong <= int(row["num_wildcards"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--santa", type=Path, default=ROOT / "tests" / "data" / "santa2023",
                        help="folder with puzzles.csv and puzzle_info.csv")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per row")
    parser.add_argument("--only", nargs="+", metavar="TYPE|ID")
    parser.add_argument("--keep", type=Path, help="write the submission to this file")
    parser.add_argument("--fresh", nargs="+", metavar="TYPE",
                        help="solve fresh rows of these types instead (see the docstring)")
    parser.add_argument("--rows", type=int, default=6, help="rows per type and colouring (--fresh)")
    parser.add_argument("--seed", type=int, default=0, help="the rows' seed (--fresh)")
    args = parser.parse_args()
    if args.fresh:
        import tempfile

        from puzzles.santa_types import colourings, puzzle_info, puzzles_csv, random_rows

        rows: list[dict] = []
        for kind in args.fresh:
            for distinct in colourings(kind):
                rows += random_rows(kind, args.rows, seed=args.seed, distinct=distinct,
                                    first_id=len(rows))
        args.santa = Path(tempfile.mkdtemp(prefix="bench-santa-"))
        (args.santa / "puzzle_info.csv").write_text(puzzle_info(args.fresh))
        (args.santa / "puzzles.csv").write_text(puzzles_csv(rows))
    puzzles, info = args.santa / "puzzles.csv", args.santa / "puzzle_info.csv"
    command = [*permgroup_command(), "solve", "santa2023", str(puzzles), "--info", str(info),
               "--jobs", str(args.jobs)]
    if args.time_limit is not None:
        command += ["--time-limit", str(args.time_limit)]
    if args.only:
        command += ["--only", *args.only]
    print("# " + " ".join(command[1:]), flush=True)
    began = time.perf_counter()
    run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=fresh_cache_env(), cwd=ROOT)
    wall = time.perf_counter() - began
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    errors = [line for line in run.stderr.splitlines() if line.startswith("permgroup: error")]
    if args.keep:
        args.keep.write_text(run.stdout)

    lines = run.stdout.splitlines()
    answers = dict(line.split(",", 1) for line in lines[1:]) if lines else {}
    rows = read_rows(puzzles)
    if args.only:
        rows = [r for r in rows if r["puzzle_type"] in args.only or r["id"] in args.only]
    moves = moves_of(info)
    kinds: dict[str, list] = {}
    for row in rows:
        kinds.setdefault(row["puzzle_type"], []).append(row)
    # the solver's own table on stderr gives the seconds spent per type (all processes)
    seconds = {parts[0]: parts[-1] for parts in map(str.split, run.stderr.splitlines())
               if len(parts) == 6 and (parts[0] in kinds or parts[0] == "total")}
    print(f"{'type':<16} {'rows':>5} {'valid':>6} {'moves':>10} {'mean':>8} {'seconds':>8}")
    total_moves = total_valid = 0
    for kind, members in kinds.items():
        good = [r for r in members if r["id"] in answers and valid(r, answers[r["id"]],
                                                                   moves[kind])]
        count = sum(len(answers[r["id"]].split(".")) if answers[r["id"]] else 0 for r in good)
        total_moves += count
        total_valid += len(good)
        mean = f"{count / len(good):8.1f}" if good else f"{'-':>8}"
        print(f"{kind:<16} {len(members):>5} {len(good):>6} {count:>10,} {mean} "
              f"{seconds.get(kind, '-'):>8}")
    print(f"{'total':<16} {len(rows):>5} {total_valid:>6} {total_moves:>10,} {'':>8} "
          f"{seconds.get('total', '-'):>8}")
    print(f"# exit status {run.returncode}, {len(errors)} error lines, wall {wall:.0f} s, "
          f"peak memory {peak:,.0f} MB (largest process)")
    for line in errors[:10]:
        print(f"#   {line}")
    if run.returncode != 0 and not errors:
        # no error line: the process itself failed; what it said last tells why
        for line in run.stderr.splitlines()[-15:]:
            print(f"#   {line}")
    if total_valid == len(rows) == 398:
        for name, published in PUBLISHED:
            print(f"# published {name:<32} {published:>10,}   ours / theirs "
                  f"{total_moves / published:.3f}")
    else:
        print("# the published totals are over all 398 puzzles: no ratio for a part, or "
              "with rows missing")
    print(machine_note(f"--jobs {args.jobs}"))


if __name__ == "__main__":
    main()
