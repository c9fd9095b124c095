"""How long a first line takes against its time limit: for each Santa type,
one fresh process with an empty cache solves the type's first row (its start
and goal colourings, as ``permgroup word 'puzzle_info.csv#TYPE' --states``
does) through :func:`permgroup.solve` at ``--time-limit`` seconds; the line's
time (after the process's start and the puzzle's reading, timed apart), how
far past the limit it ended and its ratio to the limit (the baseline).

Run: ``python benchmarks/bench_first_line.py --santa PATH [--time-limit S]
[--only TYPE...] [--cap S]``, PATH the folder holding ``puzzles.csv`` and
``puzzle_info.csv`` (default: the few rows in ``tests/data/santa2023``); a
process still running after ``--cap`` seconds is stopped and shown as such.
"""
from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import fresh_cache_env, machine_note

ROOT = Path(__file__).resolve().parent.parent

#: the child: reads the puzzle, then times one solve
CHILD = r'''
import json, sys, time
began = time.monotonic()
from permgroup.solution import door, solve
d = door(sys.argv[1])
read = time.monotonic()
out = {"start": read - began}
try:
    found = solve(d, sys.argv[2], sys.argv[3], time_limit=float(sys.argv[4]))
    out.update(moves=len(found.word), method=found.method)
except Exception as exc:
    out.update(error=f"{type(exc).__name__}: {exc}"[:200])
out["line"] = time.monotonic() - read
print(json.dumps(out))
'''


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--santa", type=Path, default=ROOT / "tests" / "data" / "santa2023",
                        help="folder of puzzles.csv and puzzle_info.csv")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds for the line")
    parser.add_argument("--only", nargs="+", metavar="TYPE", help="these types only")
    parser.add_argument("--cap", type=float, default=300.0, help="seconds before a process is stopped")
    args, _ = parser.parse_known_args()  # (run.py passes every benchmark --seeds)
    first: dict[str, dict] = {}
    with open(args.santa / "puzzles.csv", newline="") as f:
        for row in csv.DictReader(f):
            first.setdefault(row["puzzle_type"], row)
    kinds = args.only or list(first)
    print(f"{'type':16s} {'line s':>7s} {'past':>6s} {'ratio':>6s} {'start':>6s} {'moves':>7s}  method")
    for kind in kinds:
        row = first[kind]
        command = [sys.executable, "-c", CHILD, f"{args.santa / 'puzzle_info.csv'}#{kind}",
                   row["initial_state"], row["solution_state"], str(args.time_limit)]
        try:
            run = subprocess.run(command, capture_output=True, text=True, env=fresh_cache_env(),
                                 cwd=ROOT, timeout=args.cap)
            lines = run.stdout.strip().splitlines()
            out = json.loads(lines[-1]) if lines else {"error": run.stderr.strip()[-200:]}
        except subprocess.TimeoutExpired:
            out = {"error": f"stopped after {args.cap:g} s"}
        line = out.get("line")
        shown = (f"{line:7.1f} {line - args.time_limit:+6.1f} {line / args.time_limit:6.2f}"
                 if line is not None else f"{'-':>7s} {'-':>6s} {'-':>6s}")
        print(f"{kind:16s} {shown} {out.get('start', 0):6.1f} {out.get('moves', '-')!s:>7s}  "
              f"{out.get('method', '')} {out.get('error', '')}", flush=True)
    print(machine_note(f"--time-limit {args.time_limit:g}"))


if __name__ == "__main__":
    main()
