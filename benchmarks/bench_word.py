"""Benchmark of the one solve path (``permgroup.solve``): word lengths and times.

    python benchmarks/bench_word.py [--lines N] [--time-limit S] [--skip-slow] [--long-only]

Cases, each on scrambles made with a fixed seed, every word applied and checked:

* the 2x2x2 through ``cube-2`` and through Santa's ``cube_2/2/2`` (the
  competition's ``puzzle_info.csv`` lines in ``tests/data/santa2023``):
  lengths equal, all proven optimal;
* ``cube-4`` scrambles of 6 moves: proven optimal;
* ``cube3`` 15-move scrambles (quarter turns), the Megaminx 16-move scrambles:
  never longer than the scramble reversed;
* ``cube-5`` and the Megaminx, 100-move scrambles: lengths and seconds a line
  (the most and the first, which builds the generic solver's model);
* ``cube3`` uniformly random positions in face turns at ``--time-limit 5``:
  mean length (the issue's goal: at most 20.0);
* refusals: a 3x3x3 with one corner twisted, a Santa ``cube_4/4/4`` row with
  two stickers swapped (``UnreachableError`` naming the law).

The baseline, measured in the same run on the same positions and limits, is
the generic solver alone (:func:`permgroup.solver.find_word`, what ``permgroup
word`` answered with when no exact method did): printed are this path's mean
length and seconds, the baseline's, and their ratios (below 1: shorter,
quicker).  The tables it needs are built in a scratch cache first, outside the
timings.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import machine_note, scratch_dir  # noqa: E402

#: Santa's cube_2/2/2, cube_3/3/3 and cube_4/4/4 lines, byte for byte (test data)
INFO = ROOT / "tests" / "data" / "santa2023" / "puzzle_info.csv"
CUBE2_MOVES = [f"{m}{i}" for m in "frd" for i in range(2)]


def scramble(rng: random.Random, names: list[str], length: int, primes: str = "'") -> str:
    return " ".join(rng.choice(names) + rng.choice(["", primes]) for _ in range(length))


def baseline(door, start: str, time_limit: float) -> tuple[int | None, float]:
    """The generic solver alone on the position the word ``start`` makes:
    (moves, seconds), ``None`` moves when it gives up."""
    from permgroup.errors import InputError
    from permgroup.budget import Budget
    from permgroup.solution import _gather, _labels, task
    from permgroup.solver import find_word

    t = task(door, start)
    began = time.perf_counter()
    try:
        word = find_word(_gather(t), *_labels(t), budget=Budget.of(time_limit))
    except InputError:
        return None, time.perf_counter() - began
    return len(word), time.perf_counter() - began


def measure(label: str, door_name: str, lines: list[str], time_limit: float, *,
            metric: str = "qtm", compare: bool = True) -> list:
    """One case: this path's words (checked by the path itself, and here
    against the scramble reversed), the baseline's, one printed line."""
    import permgroup
    from permgroup.solution import door

    d = door(door_name)
    found, seconds = [], []
    for line in lines:
        began = time.perf_counter()
        found.append(permgroup.solve(d, line, metric=metric, time_limit=time_limit))
        seconds.append(time.perf_counter() - began)
        assert len(found[-1].word) <= len(line.split()) or metric != "qtm", (label, line)
    lengths = [len(s.word) for s in found]
    proven = sum(s.optimal for s in found)
    text = (f"{label}: mean {statistics.mean(lengths):.2f} moves (min / median / max "
            f"{min(lengths)} / {statistics.median(lengths):g} / {max(lengths)}), "
            f"{proven}/{len(found)} proven "
            f"optimal, median {statistics.median(seconds):.2f} s a line (max {max(seconds):.2f} s, "
            f"the first {seconds[0]:.2f} s)")
    if compare:
        base = [baseline(d, line, time_limit) for line in lines]
        solved = [b for b in base if b[0] is not None]
        if solved:
            mean_base = statistics.mean(b[0] for b in solved)
            time_base = statistics.median(b[1] for b in base)
            text += (f"; generic solver alone: mean {mean_base:.2f} moves ({len(solved)}/"
                     f"{len(base)} solved), median {time_base:.2f} s; ratio length "
                     f"{statistics.mean(lengths) / mean_base:.3f}, time "
                     f"{statistics.median(seconds) / time_base:.3f}")
        else:
            text += "; generic solver alone: none solved"
    print(text, flush=True)
    return found


def refusal(label: str, door_name: str, start, goal=None) -> None:
    """How long an impossible target takes to be refused, and the reason."""
    import permgroup
    from permgroup.errors import UnreachableError

    began = time.perf_counter()
    try:
        permgroup.solve(door_name, start, goal, time_limit=60)
    except UnreachableError as exc:
        print(f"{label}: refused in {time.perf_counter() - began:.2f} s: {exc}", flush=True)
        return
    raise AssertionError(f"{label}: not refused")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=10, help="scrambles per case (default 10)")
    parser.add_argument("--time-limit", type=float, default=10.0,
                        help="seconds per line (default 10; the cube3 face-turn case uses 5)")
    parser.add_argument("--skip-slow", action="store_true",
                        help="leave out the baseline on the cube3 and Megaminx cases")
    parser.add_argument("--long-only", action="store_true",
                        help="only the 100-move scrambles of cube-5 and the Megaminx")
    args = parser.parse_known_args()[0]  # benchmarks/run.py passes --seeds to all
    folder = Path(scratch_dir("bench-word-"))
    os.environ["PERMGROUP_CACHE"] = str(folder / "cache")  # never the user's cache
    rng = random.Random(33)
    info = INFO

    import permgroup

    # long scrambles of big puzzles: the input reversed is the answer to beat, and
    # a line must end by its time limit (the README's figures)
    for name in ("cube-5", "megaminx"):
        names = list(permgroup.solution.door(name).puzzle.generators)
        seeded = random.Random(name)
        long = [scramble(seeded, names, 100) for _ in range(args.lines)]
        measure(f"{name}, 100-move scrambles (qtm, --time-limit {args.time_limit:g})", name, long,
                args.time_limit, compare=False)
    if args.long_only:
        print(machine_note(f"--time-limit {args.time_limit:g}, {args.lines} lines a case"))
        return

    from puzzles import cube3

    # tables and chains built once, outside the timings
    permgroup.solve("cube3", "R U", metric="htm", time_limit=600)
    cube3.two_phase()

    lines = [scramble(rng, CUBE2_MOVES, 8) for _ in range(args.lines)]
    family = measure("cube-2, 8-move scrambles", "cube-2", lines, args.time_limit)
    santa = measure(f"{info.name}#cube_2/2/2, the same", f"{info}#cube_2/2/2", lines,
                    args.time_limit, compare=False)
    assert [len(a.word) for a in family] == [len(b.word) for b in santa], "cube-2 differs"
    assert all(a.optimal and b.optimal for a, b in zip(family, santa))
    print("  cube-2 and cube_2/2/2: equal lengths, all proven optimal", flush=True)

    cube4 = [scramble(rng, [f"{m}{i}" for m in "frd" for i in range(4)], 6)
             for _ in range(args.lines)]
    measure("cube-4, 6-move scrambles", "cube-4", cube4, args.time_limit)

    faces = [scramble(rng, list("URFDLB"), 15) for _ in range(args.lines)]
    measure("cube3, 15-move scrambles (qtm)", "cube3", faces, args.time_limit,
            compare=not args.skip_slow)
    mega = [scramble(rng, list(permgroup.solution.door("megaminx").puzzle.generators), 16)
            for _ in range(args.lines)]
    measure("megaminx, 16-move scrambles (qtm)", "megaminx", mega, args.time_limit,
            compare=not args.skip_slow)


    import numpy as np

    generator = np.random.default_rng(5)
    states = [cube3.facelets(cube3.random_element(generator)) for _ in range(args.lines)]
    began = time.perf_counter()
    words = [permgroup.solve("cube3", s, metric="htm", time_limit=5.0) for s in states]
    print(f"cube3, uniformly random positions, htm, --time-limit 5: mean "
          f"{statistics.mean(len(w.word) for w in words):.2f} face turns (max "
          f"{max(len(w.word) for w in words)}), {time.perf_counter() - began:.1f} s for "
          f"{len(states)} (goal: mean at most 20.0)", flush=True)

    twisted = list(cube3.SOLVED)
    corner = cube3.CORNERS[0]
    for i, j in zip(corner, corner[1:] + corner[:1]):
        twisted[j] = cube3.SOLVED[i]
    refusal("cube3, one corner twisted", "cube3", "".join(twisted))
    # the competition's cube_4/4/4 row (test data), two of its stickers swapped
    row = next(line.split(",") for line in (INFO.parent / "puzzles.csv").read_text().splitlines()
               if line.split(",")[1] == "cube_4/4/4")
    colours, goal = row[3].split(";"), row[2]
    k = next(k for k in range(1, len(colours)) if colours[k] != colours[0])
    colours[0], colours[k] = colours[k], colours[0]
    refusal("Santa cube_4/4/4 row, two stickers swapped", f"{INFO}#cube_4/4/4",
            ";".join(colours), goal)
    print(machine_note(f"--time-limit {args.time_limit:g}, {args.lines} lines a case"))


if __name__ == "__main__":
    main()
