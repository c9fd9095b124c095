"""Benchmarks of the 3x3x3 cube: the ZOJ 2477 contest path, deep optimal search,
and the shallow distribution.

    python benchmarks/bench_cube3.py [--quick] [--cold] [--no-seed]

* ZOJ 2477: a 1,500-case file from random scrambles (fixed seed, about a
  quarter of the cases need more than five turns), whole process against whole
  process: ``permgroup solve zoj2477`` against the seed-001 C++ program, which
  is compiled from ``../shared/seeds/001_*.txt`` into a temporary folder (never
  into the repository).  Both outputs are checked: same counts case by case.
* ``--max-depth 12``: positions at exact distance 12 solved, positions beyond
  12 proven so, one at a time with warm caches; a plain meet in the middle over
  a ball of radius 6 on the same positions as the baseline.
* Time and memory against depth (10 to 16 quarter turns), each depth in its
  own process so that the peak memory is its own.
* The shallow distribution (balls of radius 5 in both metrics) and, with
  ``--cold``, the build times of the cached ball and pattern database.

Figures are medians; the machine may be shared, so compare ratios.
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import (scratch_dir, add_seeds_option, left_out, machine_note, run_process,  # noqa: E402
                               seed_program)
from permgroup.search.exact import SearchStats, ida_star, meet_in_the_middle  # noqa: E402
from puzzles import cube3  # noqa: E402
from puzzles.formats.zoj2477 import format_case  # noqa: E402

QTM = [1, 12, 114, 1068, 10011, 93840]
HTM = [1, 18, 243, 3240, 43239, 574908]


def canonical_scramble(rng: random.Random, length: int, metric: str = "qtm") -> list[str]:
    pruning = cube3.pruning(metric)
    names = list(cube3.moves(metric))
    word, history = [], pruning.start
    while len(word) < length:
        m = rng.randrange(len(names))
        if pruning.allowed[history, m]:
            word.append(names[m])
            history = pruning.after(history, m)
    return word


def zoj_file(path: Path, cases: int = 1500, seed: int = 2477) -> None:
    rng = random.Random(seed)
    names = list(cube3.moves("qtm"))
    out = [str(cases)]
    for _ in range(cases):
        length = rng.choice([0, 1, 2, 3, 4, 5, 5, 5, 6, 7, 8, 9])
        state = cube3.apply_moves(cube3.SOLVED, [rng.choice(names) for _ in range(length)])
        out.append(format_case(state.translate(str.maketrans("URFDLB", "wbgyro"))).rstrip("\n"))
    path.write_text("\n".join(out) + "\n")


def counts(output: str) -> list[int]:
    """The count line of each case of a ZOJ 2477 output."""
    out, i = [], 0
    lines = output.splitlines()
    while i < len(lines):
        n = int(lines[i])
        out.append(n)
        i += 1 + max(n, 0)
    return out


def bench_zoj(folder: Path, repeats: int, use_seed: bool) -> None:
    print("== ZOJ 2477: 1,500 cases, whole process ==")
    path = folder / "zoj2477-1500.in"
    zoj_file(path)
    ours_cmd = [sys.executable, "-m", "permgroup", "solve", "zoj2477"]
    run_process(ours_cmd, path)  # warm the cache (ball of radius 5)
    seed = seed_program("001") if use_seed else None
    if use_seed and not seed:
        left_out("zoj2477 against seed-001 C++", "001")
    ours_times, seed_times = [], []
    for _ in range(repeats):
        t, ours = run_process(ours_cmd, path)
        ours_times.append(t)
        if seed:
            t, theirs = run_process([str(seed)], path)
            seed_times.append(t)
    answer_counts = counts(ours)
    print(f"cases: {len(answer_counts)}, of which -1: {answer_counts.count(-1)} "
          f"({answer_counts.count(-1) / len(answer_counts):.0%})")
    print(f"permgroup solve zoj2477: median {statistics.median(ours_times):.3f} s "
          f"(min {min(ours_times):.3f})")
    if seed:
        same = counts(theirs) == answer_counts
        print(f"seed-001 C++ (g++ -O2):  median {statistics.median(seed_times):.3f} s "
              f"(min {min(seed_times):.3f}); same counts: {same}")
        print(f"ratio: {statistics.median(ours_times) / statistics.median(seed_times):.2f}x "
              "(target: at most 5x)")
    startup = [run_process([sys.executable, "-c", "import numpy"], path)[0] for _ in range(repeats)]
    print(f"for scale, python -c 'import numpy': median {statistics.median(startup):.3f} s")


def positions(rng: random.Random, length: int, want, count: int, max_tries: int = 200):
    """Scrambles whose distance satisfies ``want`` (checked with a deep search)."""
    found = []
    for _ in range(max_tries):
        word = canonical_scramble(rng, length)
        state = cube3.apply_moves(cube3.SOLVED, word)
        if want(state):
            found.append(state)
            if len(found) == count:
                break
    return found


def bench_depth12(count: int) -> None:
    print("\n== --max-depth 12: one position at a time, warm caches ==")
    cube3.ball(7)
    rng = random.Random(12)
    exact = positions(rng, 12, lambda s: cube3.distance(s, 12) == 12, count)
    beyond = positions(rng, 20, lambda s: cube3.distance(s, 12) == -1, count)
    space = cube3.search_space()
    six = cube3.ball(6)
    for label, states in (("distance exactly 12", exact), ("beyond 12 (-1)", beyond)):
        ours, plain = [], []
        for state in states:
            start = time.perf_counter()
            word = cube3.solve(state, max_depth=12)
            ours.append(time.perf_counter() - start)
            assert (word is None) == (label != "distance exactly 12")
            if word is not None:
                assert len(word) == 12 and cube3.apply_moves(state, word) == cube3.SOLVED
            digits = cube3.digits([cube3.element(state)])
            start = time.perf_counter()
            other = meet_in_the_middle(space, digits, six, 12)
            plain.append(time.perf_counter() - start)
            assert (other is None) == (word is None)
        print(f"{label}: {len(states)} positions, median {statistics.median(ours):.3f} s "
              f"(max {max(ours):.3f}); plain meet in the middle over the radius-6 ball: "
              f"median {statistics.median(plain):.3f} s; ratio "
              f"{statistics.median(plain) / statistics.median(ours):.1f}x faster")


def depth_worker(depth: int, count: int) -> None:
    """Solve ``count`` positions at exact distance ``depth``; print one line."""
    rng = random.Random(depth)
    space = cube3.search_space()
    cube3.ball(7)
    bounds = [cube3.corner_database()] if depth - 7 > cube3.PATTERN_FROM else []
    times, nodes, found = [], [], 0
    for _ in range(count * 3):
        word = canonical_scramble(rng, depth)
        state = cube3.apply_moves(cube3.SOLVED, word)
        digits = cube3.digits([cube3.element(state)])
        stats = SearchStats()
        start = time.perf_counter()
        answer = ida_star(space, digits, cube3.ball(7), depth, bounds=bounds,
                          pruning=cube3.pruning(), stats=stats)
        elapsed = time.perf_counter() - start
        if answer is None or len(answer) != depth:
            continue  # shorter than its scramble: not at this depth
        times.append(elapsed)
        nodes.append(sum(stats.generated))
        found += 1
        if found == count:
            break
    rss = peak_memory_mb()
    print(f"depth {depth:2d}: {found} positions, median {statistics.median(times):7.3f} s, "
          f"max {max(times):7.3f} s, median nodes {int(statistics.median(nodes)):>11,}, "
          f"corner bound: {'yes' if bounds else 'no '}, peak memory {rss:6.0f} MB")


def peak_memory_mb() -> float:
    """This process's peak resident memory (VmHWM; unlike ``ru_maxrss`` it does
    not carry over the parent's peak through ``exec``)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench_scaling(depths: list[int], count: int) -> None:
    print("\n== optimal search against depth (quarter turns), each depth its own process ==")
    for depth in depths:
        subprocess.run([sys.executable, __file__, "--depth-worker", str(depth),
                        "--count", str(count)], check=True)


def bench_shallow(cold: bool) -> None:
    print("\n== shallow distribution (balls over digit states) ==")
    for metric, radius, expected in (("qtm", 5, QTM), ("htm", 5, HTM)):
        start = time.perf_counter()
        from permgroup.search.ball import build_ball

        ball = build_ball(cube3.search_space(metric), cube3.digits([tuple(range(54))], metric),
                          radius)
        elapsed = time.perf_counter() - start
        print(f"{metric} radius {radius}: {ball.distribution()} in {elapsed:.2f} s "
              f"(published: {'match' if ball.distribution() == expected else 'MISMATCH'})")
    if cold:
        for label, build in (("ball radius 7 (qtm)", lambda: cube3.ball(7)),
                             ("corner pattern database (qtm)", cube3.corner_database)):
            start = time.perf_counter()
            build()
            print(f"cold build of the {label}: {time.perf_counter() - start:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and positions")
    parser.add_argument("--cold", action="store_true",
                        help="build the caches from scratch in a temporary folder")
    parser.add_argument("--no-seed", action="store_true", help="skip the C++ baseline")
    add_seeds_option(parser)
    parser.add_argument("--only", choices=["zoj", "depth12", "scaling", "shallow"],
                        help="run one part only")
    parser.add_argument("--depth-worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.depth_worker:
        depth_worker(args.depth_worker, args.count)
        return
    if args.cold:
        os.environ["PERMGROUP_CACHE"] = scratch_dir("permgroup-cold-")
    print(machine_note("shared with other work"))
    part = args.only
    if args.cold and part in (None, "shallow"):
        bench_shallow(cold=True)
    if part in (None, "zoj"):
        with tempfile.TemporaryDirectory() as folder:
            bench_zoj(Path(folder), 3 if args.quick else 9, not args.no_seed)
    if part in (None, "depth12"):
        bench_depth12(3 if args.quick else 9)
    if part in (None, "scaling"):
        bench_scaling([10, 12, 13, 14] if args.quick else [10, 12, 13, 14, 15, 16],
                      2 if args.quick else 5)
    if not args.cold and part in (None, "shallow"):
        bench_shallow(cold=False)


if __name__ == "__main__":
    main()
