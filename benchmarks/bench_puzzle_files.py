"""Benchmark of puzzles from definition files: God's-algorithm table builds and
``permgroup optimal``.

Run: ``python benchmarks/bench_puzzle_files.py [--repeat N] [--optimal-only]`` (a
few minutes; a minute with ``--optimal-only``, ``permgroup optimal`` alone).
Each table is built by ``permgroup table FILE --metric htm`` as a whole process
with an empty cache; time and peak memory (``VmHWM`` of the process) are
medians.  Baselines: the sticker-level engine (``permgroup.tables.table`` on the same
puzzle as stickers, normalized pieces) where it can run, measured in the same
run; and twsearch's own God's-algorithm (``twsearch -g``) figures on this kind
of machine, as fixed references (twsearch cannot be built here):
Skewb 37,791,360 states 9.1 s; Jing's pyraminx 44,789,760 states 7.3 s;
Pyraminx sample 302,330,880 states 122 s;
Dino cube 239,500,800 states 160 s.  The library's ``jing-pyraminx``,
``pyraminx-faces`` and ``dino`` have the same state counts as twsearch's samples; the all-turns Skewb
is written into a temporary folder from :mod:`puzzles.solids`.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import (  # noqa: E402
    scratch_dir,
    ROOT,
    fresh_cache_env,
    machine_note,
    permgroup_command,
    report,
    run_process,
)
from permgroup.formats.ksolve import to_ksolve  # noqa: E402
from permgroup.formats.stickers import from_puzzle  # noqa: E402
from puzzles import LIBRARY, solids  # noqa: E402

#: published God's-algorithm distributions (face turns) the builds must reproduce
PUBLISHED = {
    "2x2x2 (six faces)": [1, 18, 243, 2874, 28000, 205416, 1168516, 5402628, 20776176,
                          45391616, 15139616, 64736],
    "skewb (fixed corner)": [1, 8, 48, 288, 1728, 10248, 59304, 315198, 1225483, 1455856,
                             81028, 90],
}

#: twsearch -g on this kind of machine: (states, seconds), by puzzle
TWSEARCH = {"skewb": (37_791_360, 9.1), "jing's pyraminx": (44_789_760, 7.3),
            "pyraminx": (302_330_880, 122.0), "dino": (239_500_800, 160.0)}

PEAK_WRAPPER = """
import runpy, sys
sys.argv = ["permgroup"] + sys.argv[1:]
try:
    runpy.run_module("permgroup", run_name="__main__")
except SystemExit as exc:
    code = exc.code
else:
    code = 0
peak = [line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM")][0]
print(f"# peak {peak}", file=sys.stderr)
sys.exit(code)
"""


def build(path: Path) -> tuple[float, float, str, int]:
    """Seconds, peak MB, stdout and exit status of one table build, empty cache."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK_WRAPPER, "table", str(path), "--metric",
                           "htm"], capture_output=True, text=True, env=fresh_cache_env(),
                          cwd=ROOT)
    seconds = time.perf_counter() - start
    peaks = [line.split()[2] for line in done.stderr.splitlines() if line.startswith("# peak")]
    peak = int(peaks[0]) / 1024 if peaks else float("nan")
    return seconds, peak, done.stdout if done.returncode == 0 else done.stderr, done.returncode


def sticker_engine(name: str, repeat: int) -> float | None:
    """Median in-process time of the sticker-level engine's table of a library puzzle
    (``None`` where it refuses: more entries than it builds)."""
    code = ("import time; from permgroup import explore; "
            f"p = explore.load_puzzle({name!r}); t = time.perf_counter(); "
            "explore.table(p, 'htm'); print(time.perf_counter() - t)")
    times = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=fresh_cache_env(), cwd=ROOT)
        if out.returncode != 0:
            return None
        times.append(float(out.stdout.split()[-1]))
    return statistics.median(times)


#: the baseline of ``permgroup optimal``: each line through ``permgroup.solve`` alone,
#: as the command answered before lines went down the table together
ONE_BY_ONE = """
import sys
from permgroup.solution import door, solve
d = door(sys.argv[1])
for line in open(sys.argv[2]).read().splitlines():
    print(" ".join(solve(d, line, optimal=True, time_limit=60).word), flush=True)
"""


def optimal_lines(folder: Path, repeat: int, lines: int = 5000, baseline: int = 1000) -> None:
    """``permgroup optimal skewb`` on ``lines`` random lines of 14 moves on stdin,
    cached table, whole process: lines per second against the one-by-one path on the
    first ``baseline`` of them, measured in the same run (outputs compared)."""
    import random

    env = fresh_cache_env()
    subprocess.run(permgroup_command() + ["table", "skewb"], env=env, check=True,
                   capture_output=True)
    rng = random.Random(1)
    names = ["URF", "URB", "DRF", "ULF"]
    text = [" ".join(rng.choice(names) + rng.choice(["", "'"]) for _ in range(14))
            for _ in range(lines)]
    moves, first = folder / "skewb-5000.txt", folder / "skewb-first.txt"
    moves.write_text("\n".join(text) + "\n")
    first.write_text("\n".join(text[:baseline]) + "\n")
    times, base_times, out, base_out = [], [], "", ""
    for _ in range(repeat):
        seconds, out = run_process(permgroup_command() + ["optimal", "skewb"], moves, env=env)
        assert len(out.splitlines()) == len(text)
        times.append(seconds)
        seconds, base_out = run_process([sys.executable, "-c", ONE_BY_ONE, "skewb", str(first)],
                                        env=env)
        base_times.append(seconds)
    assert out.splitlines()[:baseline] == base_out.splitlines(), "the answers differ"
    rate, base_rate = lines / statistics.median(times), baseline / statistics.median(base_times)
    report([(f"permgroup optimal skewb, {lines:,} lines, cached table", statistics.median(times),
             "s", None),
            ("  lines per second (goal 1,000), ratio to one by one", rate, "/s",
             rate / base_rate),
            (f"  one by one through permgroup.solve, first {baseline:,} lines (baseline)",
             base_rate, "/s", None)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per median")
    parser.add_argument("--optimal-only", action="store_true",
                        help="only permgroup optimal's lines per second (no table builds)")
    args = parser.parse_known_args()[0]  # benchmarks/run.py passes --seeds to all
    folder = Path(scratch_dir("definitions-"))
    if args.optimal_only:
        optimal_lines(folder, args.repeat)
        print(machine_note(f"{args.repeat} runs per median"))
        return
    files = {
        "skewb": folder / "skewb-all-turns.tws",
        "jing's pyraminx": LIBRARY["jing-pyraminx"],
        "pyraminx": LIBRARY["pyraminx-faces"],
        "pyraminx (vertex turns)": LIBRARY["pyraminx"],
        "skewb (fixed corner)": LIBRARY["skewb"],
        "pyraminx (no tips)": LIBRARY["pyraminx-notips"],
        "2x2x2 (six faces)": LIBRARY["2x2x2"],
        "dino": LIBRARY["dino"],
    }
    files["skewb"].write_text(to_ksolve(from_puzzle(solids.skewb(fixed_corner=False), "skewb")))
    rows = []
    for label, path in files.items():
        runs = [build(path) for _ in range(args.repeat)]
        if runs[0][3] != 0:
            why = [line for line in runs[0][2].splitlines() if line.startswith("permgroup:")]
            print(f"# {label}: not built: {(why or ['?'])[-1]}", flush=True)
            continue
        seconds = statistics.median(r[0] for r in runs)
        peak = statistics.median(r[1] for r in runs)
        states = int(runs[0][2].splitlines()[-1].split()[2].rstrip(","))
        counts = [int(line.split("\t")[1]) for line in runs[0][2].splitlines()[:-1]]
        assert counts == PUBLISHED.get(label, counts), f"{label}: {counts}"
        reference = TWSEARCH.get(label)
        ratio = None
        if reference:  # time per state against twsearch's, where the state counts differ
            ratio = (seconds / states) / (reference[1] / reference[0])
        rows.append((f"{label}: table build, whole process ({states:,} states)", seconds, "s",
                     ratio))
        budget = 1.5 * states / 2**20 + 300
        rows.append((f"{label}: peak memory (budget 1.5 B/state + 300 MB = {budget:.0f} MB)",
                     peak, "MB", peak / budget))
        if label in ("skewb (fixed corner)", "pyraminx (no tips)"):
            base = sticker_engine("skewb" if label.startswith("skewb") else "pyraminx-notips",
                                  args.repeat)
            if base is not None:
                rows.append((f"{label}: sticker-level engine, in process (baseline)", base, "s",
                             None))
        report(rows)
        rows = []
    optimal_lines(folder, args.repeat)
    print(machine_note(f"{args.repeat} runs per median; ratio of a build: its time per state "
                       "over twsearch's; of memory: peak over the budget"))


if __name__ == "__main__":
    main()
