"""Benchmark of tables past one machine's memory: 2-bit tables, symmetry classes,
out-of-core and Dask builds, each against the plain one-byte table measured in
the same run.

Run: ``nice python benchmarks/bench_scale.py`` (about ten minutes; ``--quick``
skips the 4x4 torus's symmetry classes and the out-of-core run in 20 MB;
``--only=2bit,uva,outofcore,symmetry,dask`` picks sections; ``--only=large``
builds UFO (479,001,600), twsearch's 2x3x3 cuboid (1,625,702,400) and 3x3x3
phase 1 (2,217,093,120) whole with ``--memory 4GB``, not in the default run).
Builds run in child processes, taking turns (five times each in the 2-bit
section): the figures are medians of wall time, of CPU time (every thread's,
which a shared machine's load moves much less) and of peak resident memory
(``VmHWM``).
"""
from __future__ import annotations

import json
import random
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
    median_time,
    permgroup_command,
    report,
    run_process,
)

SETUP = {
    "cube": ("from dataclasses import replace\n"
             "from puzzles import minicube\n"
             "from permgroup.tables.registry import table_space\n"
             "puzzle = replace(minicube.PUZZLE, symmetries={})  # 88,179,840 states\n"
             "space, sources, key = table_space(puzzle)\n"),
    "torus": ("from puzzles import torus\n"
              "from permgroup.tables.registry import table_space\n"
              "space, sources, key = table_space(torus.PUZZLE)  # 63,063,000 colourings\n"),
}
PLAIN = {
    "cube": ("from permgroup.tables.table import build_table\n"
             "t = build_table(puzzle, 'qtm')\n"),
    "torus": ("from permgroup.tables.colouring_table import build_colouring_table\n"
              "t = build_colouring_table(torus.PUZZLE)\n"),
}
PACKED = ("from permgroup.tables.bfs import packed_depths\n"
          "t = packed_depths(space, sources)\n")
OUT_OF_CORE = ("import atexit, shutil, tempfile\n"
               "from permgroup.tables.outofcore import build_out_of_core\n"
               "folder = tempfile.mkdtemp()\n"
               "atexit.register(shutil.rmtree, folder, True)\n"
               "t = build_out_of_core(space, sources, folder, memory='{memory}')\n")
PROBE = ("import json, time\n"
         "start, cpu = time.perf_counter(), time.process_time()\n"
         "{setup}{build}"
         "seconds, cpu = time.perf_counter() - start, time.process_time() - cpu\n"
         "hwm = [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0]\n"
         "print(json.dumps({{'seconds': seconds, 'cpu': cpu, 'mb': int(hwm) / 1024,"
         " 'distribution': t.distribution()}}))\n")


def child(setup: str, build: str) -> dict:
    code = PROBE.format(setup=setup, build=build)
    out = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, check=True,
                         cwd=ROOT, env=fresh_cache_env()).stdout
    return json.loads(out.splitlines()[-1])


def medians(setup: str, builds: list[str], repeat: int = 3
            ) -> list[tuple[float, float, list[int], float]]:
    """Median seconds and peak MB of each build, with its distribution, and
    its median CPU seconds (every thread's: on a shared machine the wall time
    of one run moves with the others' load, its CPU time much less); the
    builds take turns, run by run, so that a change in the machine's load
    falls on all of them alike."""
    runs: list[list[dict]] = [[] for _ in builds]
    for _ in range(repeat):
        for build, done in zip(builds, runs):
            done.append(child(setup, build))
    out = []
    for done in runs:
        dists = {json.dumps(r["distribution"]) for r in done}
        assert len(dists) == 1
        out.append((statistics.median(r["seconds"] for r in done),
                    statistics.median(r["mb"] for r in done), done[0]["distribution"],
                    statistics.median(r["cpu"] for r in done)))
    return out


def two_bit_tables(rows: list) -> None:
    for name in ("cube", "torus"):
        (base_s, base_mb, base_d, base_cpu), (s, mb, d, cpu) = medians(
            SETUP[name], [PLAIN[name], PACKED], 5)
        assert d == base_d, f"{name}: the 2-bit table's distribution differs"
        rows.append((f"{name}: build, one byte per state (baseline)", base_s, "s", None))
        rows.append((f"{name}: build, 2 bits per state", s, "s", s / base_s))
        rows.append((f"{name}: build CPU, one byte per state (baseline)", base_cpu, "s", None))
        rows.append((f"{name}: build CPU, 2 bits per state", cpu, "s", cpu / base_cpu))
        rows.append((f"{name}: peak memory, one byte per state (baseline)", base_mb, "MB", None))
        rows.append((f"{name}: peak memory, 2 bits per state", mb, "MB", mb / base_mb))
        report(rows[-6:])


def out_of_core(rows: list, quick: bool) -> None:
    [(base_s, base_mb, base_d, _)] = medians(SETUP["cube"], [PACKED], 1)
    for memory in (["100MB"] if quick else ["100MB", "20MB"]):
        [(s, mb, d, _)] = medians(SETUP["cube"], [OUT_OF_CORE.format(memory=memory)], 1)
        assert d == base_d
        rows.append((f"cube: out of core, --memory {memory} (vs 2-bit in memory)", s, "s",
                     s / base_s))
        rows.append((f"cube: out of core, --memory {memory}: peak memory", mb, "MB",
                     mb / base_mb))
        report(rows[-2:])


def uva_file(rows: list) -> None:
    from puzzles import minicube
    from puzzles.formats import uva11007

    rng = random.Random(11007)
    solved = "WWWWYYYYRRRRBBBBGGGGOOOO"
    states = [minicube.scramble(rng, solved=solved) for _ in range(3000)]
    text = uva11007.write_cases(states)
    path = Path(scratch_dir()) / "uva11007-3000.txt"
    path.write_text(text)
    import os

    os.environ["PERMGROUP_CACHE"] = scratch_dir("permgroup-bench-")
    plain = uva11007.solve_text(text)
    base = median_time(lambda: uva11007.solve_text(text), 5)
    rows.append(("uva11007, 3,000 cases in process, one-byte table (baseline)", base, "s", None))
    for fmt, label in (("nibbles", "4-bit"), ("packed", "2-bit")):
        assert uva11007.solve_text(text, fmt) == plain
        seconds = median_time(lambda: uva11007.solve_text(text, fmt), 5)
        rows.append((f"uva11007, 3,000 cases in process, {label} table", seconds, "s",
                     seconds / base))
    env = fresh_cache_env()
    assert run_process(permgroup_command() + ["solve", "uva11007", str(path)],
                       env=env)[1] == plain  # and the one-byte table cached
    env["PYTHONPATH"] = str(ROOT)
    whole = {}
    for fmt, label in (("bytes", "one-byte"), ("nibbles", "4-bit"), ("packed", "2-bit")):
        run = [sys.executable, "-c", "import sys\nfrom puzzles.formats import uva11007\n"
               "sys.stdout.write(uva11007.solve_text(open(sys.argv[1]).read(), sys.argv[2]))",
               str(path), fmt]
        assert run_process(run, env=env)[1] == plain
        whole[fmt] = statistics.median(run_process(run, env=env)[0] for _ in range(5))
        rows.append((f"uva11007, 3,000 cases, whole process, {label} table"
                     + (" (baseline)" if fmt == "bytes" else ""), whole[fmt], "s",
                     None if fmt == "bytes" else whole[fmt] / whole["bytes"]))
    report(rows[-6:])


def symmetry(rows: list, quick: bool) -> None:
    import numpy as np

    from permgroup.tables.symmetry_table import (class_depths, colouring_symmetry_map,
                                          conjugation_map, inversion_map, symmetry_classes)
    from permgroup.tables.table import build_table
    from puzzles import minicube, torus

    for metric in ("qtm", "htm"):
        plain = build_table(minicube.PUZZLE, metric, anchor=minicube.ANCHOR)
        space = plain.space
        identity = space.identity
        start = time.perf_counter()
        g = minicube.GEOMETRY
        maps = [conjugation_map(space, s) for s in
                (g.rotation("U"), g.rotation("R"), g.reflection())]
        by_48 = symmetry_classes(maps)
        inverse = inversion_map(space.ranking, identity)
        by_96 = symmetry_classes(maps + [inverse])
        t = class_depths(space, [identity], by_96, also_from=inverse)
        seconds = time.perf_counter() - start
        assert t.distribution() == plain.distribution()
        full = 88_179_840
        print(f"2x2x2 {metric}: entries {full:,} (every element) -> {space.size:,} "
              f"(up to orientation, {full / space.size:.0f}x) -> {len(by_48):,} "
              f"(48 symmetries, {space.size / len(by_48):.1f}x more) -> "
              f"{len(by_96):,} (and inversion, {len(by_48) / len(by_96):.2f}x more; "
              f"{full / len(by_96):,.0f}x in all); classes per depth {t.class_distribution()}",
              flush=True)
        rows.append((f"2x2x2 {metric}: symmetry maps, classes and class table", seconds, "s",
                     None))
    # the three conjugation maps by pieces against the same by stickers (the baseline)
    timed = {}
    for by_pieces in (False, True):
        start = time.perf_counter()
        timed[by_pieces] = [conjugation_map(space, s, by_pieces=by_pieces) for s in
                            (g.rotation("U"), g.rotation("R"), g.reflection())]
        timed[by_pieces].append(time.perf_counter() - start)
    assert all(np.array_equal(a, b) for a, b in zip(timed[True][:3], timed[False][:3]))
    rows.append(("2x2x2: 3 conjugation maps by stickers (baseline)", timed[False][3], "s", None))
    rows.append(("2x2x2: the same by pieces, equal", timed[True][3], "s",
                 timed[True][3] / timed[False][3]))
    small_torus_maps(rows)
    if quick:
        report(rows[-6:])
        return
    from permgroup.tables.registry import table_space

    space = table_space(torus.PUZZLE)[0]
    from permgroup.perm import from_cycles
    cell = torus.cell
    right = from_cycles([[cell(i, j, 4) for j in range(4)] for i in range(4)], 16)
    down = from_cycles([[cell(i, j, 4) for i in range(4)] for j in range(4)], 16)
    mirror = tuple(cell(k // 4, 3 - k % 4, 4) for k in range(16))
    flip = tuple(cell(3 - k // 4, k % 4, 4) for k in range(16))
    source = int(space.rank(np.array([space.solved], dtype=space.dtype))[0])
    start = time.perf_counter()
    maps = [colouring_symmetry_map(space, s) for s in (right, down, mirror, flip)]
    classes = symmetry_classes(maps)
    del maps
    t = class_depths(space, [source], classes)
    seconds = time.perf_counter() - start
    print(f"torus 4x4: entries {space.size:,} -> {len(classes):,} under the board's 64 "
          f"symmetries (shifts, mirrors; {space.size / len(classes):.1f}x); classes per "
          f"depth {t.class_distribution()}", flush=True)
    rows.append(("torus 4x4: symmetry maps, classes and class table", seconds, "s", None))
    report(rows[-7:])


def small_torus_maps(rows: list) -> None:
    """The 3x4 torus's 24 board symmetries (shifts, the mirror): symmetry_maps,
    which searches the generators' maps and composes the rest, against every
    map searched and checked (the baseline), the same run."""
    import numpy as np

    from permgroup.perm import closure, from_cycles, inverse
    from permgroup.tables.registry import table_space
    from permgroup.tables.symmetry_table import _checked_maps, conjugate_moves, symmetry_maps
    from puzzles import torus

    puzzle = torus.torus_puzzle(3, 4)
    space, sources, _ = table_space(puzzle)
    moves = [puzzle.generators[n] if not n.endswith("'") else inverse(puzzle.generators[n[:-1]])
             for n in space.move_names]
    cell = torus.cell
    board = closure([from_cycles([[cell(i, j, 4) for j in range(4)] for i in range(3)], 12),
                     tuple(cell(k // 4, 3 - k % 4, 4) for k in range(12)),
                     from_cycles([[cell(i, j, 4) for i in range(3)] for j in range(4)], 12)], 12)
    relabellings = conjugate_moves(moves, sorted(board))
    start = time.perf_counter()
    searched = _checked_maps(space, sources[0], relabellings)
    baseline = time.perf_counter() - start
    start = time.perf_counter()
    composed = symmetry_maps(space, sources[0], relabellings)
    seconds = time.perf_counter() - start
    assert np.array_equal(searched, composed)
    rows.append((f"torus 3x4: {len(board)} symmetry maps, each searched (baseline)", baseline, "s",
                 None))
    rows.append(("the same, generators searched, the rest composed, equal", seconds, "s",
                 seconds / baseline))


DASK = ("from permgroup.tables.dask_bfs import dask_depths\n"
        "from permgroup.tables.registry import table_space\n"
        "from puzzles import minicube\n"
        "import json, sys, time\n"
        "space, sources, key = table_space(minicube.PUZZLE, '{metric}')\n"
        "start, stats = time.perf_counter(), []\n"
        "t = dask_depths(space, sources, workers={workers}, level_report=stats.append)\n"
        "print(json.dumps({{'seconds': time.perf_counter() - start,"
        " 'distribution': t.distribution(),"
        " 'levels': [[s.depth, s.seconds, s.shuffled] for s in stats]}}))\n")


def dask_runs(rows: list) -> None:
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        print("# Dask is not installed: pip install 'permgroup[distributed]'")
        return
    from permgroup.tables.table import build_table
    from puzzles import minicube

    for metric in ("qtm", "htm"):
        plain = build_table(minicube.PUZZLE, metric, anchor=minicube.ANCHOR).distribution()
        runs = {}
        for workers in (1, 2):
            out = subprocess.run([sys.executable, "-c", DASK.format(metric=metric,
                                                                   workers=workers)],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 check=True, cwd=ROOT, env=fresh_cache_env()).stdout
            runs[workers] = json.loads(out.splitlines()[-1])
            assert runs[workers]["distribution"] == plain
        one, two = runs[1]["seconds"], runs[2]["seconds"]
        rows.append((f"dask 2x2x2 {metric}: 1 local worker, with start-up (baseline)", one,
                     "s", None))
        rows.append((f"dask 2x2x2 {metric}: 2 local workers, with start-up", two, "s",
                     two / one))
        levels = [sum(s for _, s, _ in runs[w]["levels"]) for w in (1, 2)]
        rows.append((f"dask 2x2x2 {metric}: 1 local worker, levels only (baseline)",
                     levels[0], "s", None))
        rows.append((f"dask 2x2x2 {metric}: 2 local workers, levels only (1/speed-up)",
                     levels[1], "s", levels[1] / levels[0]))
        rows.append((f"dask 2x2x2 {metric}: bytes shuffled, all levels, 2 workers",
                     sum(b for _, _, b in runs[2]["levels"]), "B", None))
        report(rows[-5:])
        print(f"  per level with 2 workers (depth, seconds, bytes shuffled): "
              + ", ".join(f"{d}: {s:.2f} s {b:,} B" for d, s, b in runs[2]["levels"]),
              flush=True)


#: twsearch -g on this kind of machine: (states, diameter, seconds), by library name
TWSEARCH_LARGE = {"ufo": (479_001_600, 14, 339.0), "2x3x3": (1_625_702_400, 18, 82.0),
                  "3p1": (2_217_093_120, 12, 117.0)}
PEAK = ("import runpy, sys\n"
        "sys.argv = ['permgroup'] + sys.argv[1:]\n"
        "try:\n    runpy.run_module('permgroup', run_name='__main__')\n"
        "finally:\n"
        "    hwm = [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0]\n"
        "    print(f'# peak {hwm}', file=sys.stderr)\n")


def cuboid_definition():
    """twsearch's 2x3x3 cuboid sample, derived from geometry (not from its file):
    8 corners and 8 edges, U and D turning the 3x3 faces, R2 L2 F2 B2 the 2x3 ones;
    8!·8! = 1,625,702,400 positions."""
    import itertools

    from permgroup.formats.definition import Definition, Orbit, OrbitState

    corners = [c for c in itertools.product((-1, 1), repeat=3)]
    edges = [(x, y, z) for y in (-1, 1) for (x, z) in ((1, 0), (-1, 0), (0, 1), (0, -1))]
    def quarter_y(v):  # 90 degrees about the y axis
        x, y, z = v
        return (-z, y, x)
    turns = {
        "U": (lambda v: v[1] > 0, quarter_y),
        "D": (lambda v: v[1] < 0, quarter_y),
        "R2": (lambda v: v[0] > 0, lambda v: (v[0], -v[1], -v[2])),
        "L2": (lambda v: v[0] < 0, lambda v: (v[0], -v[1], -v[2])),
        "F2": (lambda v: v[2] > 0, lambda v: (-v[0], -v[1], v[2])),
        "B2": (lambda v: v[2] < 0, lambda v: (-v[0], -v[1], v[2])),
    }
    moves = {}
    for name, (inside, rot) in turns.items():
        state = {}
        for orbit, slots in (("CORNERS", corners), ("EDGES", edges)):
            pieces = list(range(len(slots)))
            for j, p in enumerate(slots):
                if inside(p):
                    pieces[slots.index(rot(p))] = j
            state[orbit] = OrbitState(tuple(pieces), (0,) * len(slots))
        moves[name] = state
    solved = {o: OrbitState(tuple(range(8)), (0,) * 8) for o in ("CORNERS", "EDGES")}
    return Definition("cuboid233", (Orbit("CORNERS", 8), Orbit("EDGES", 8)), solved, moves)


def large(rows: list) -> None:
    """UFO, the 2x3x3 cuboid and 3x3x3 phase 1 whole, ``permgroup table PATH
    --metric htm --memory 4GB`` as a whole process (one run each), against
    twsearch's God's-algorithm figures."""
    from permgroup.formats.ksolve import to_ksolve
    from puzzles import LIBRARY

    folder = Path(scratch_dir("large-"))
    paths = {"ufo": LIBRARY["ufo"], "2x3x3": folder / "2x3x3.tws", "3p1": LIBRARY["3p1"]}
    paths["2x3x3"].write_text(to_ksolve(cuboid_definition()))
    for name, path in paths.items():
        states, diameter, reference = TWSEARCH_LARGE[name]
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", PEAK, "table", str(path), "--metric", "htm",
                               "--memory", "4GB"], capture_output=True, text=True, cwd=ROOT,
                              env=fresh_cache_env())
        seconds = time.perf_counter() - start
        assert done.returncode == 0, done.stderr[-2000:]
        last = done.stdout.splitlines()[-1]
        assert last == f"# total {states}, diameter {diameter}", last
        peak = [int(line.split()[2]) / 1024 for line in done.stderr.splitlines()
                if line.startswith("# peak")][0]
        print(f"  {name}: {' '.join(l.split()[1] for l in done.stdout.splitlines()[:-1])}",
              flush=True)
        rows.append((f"{name} ({states:,}, diameter {diameter}), --memory 4GB, "
                     f"whole process (vs twsearch {reference:.0f} s)", seconds, "s",
                     seconds / reference))
        rows.append((f"{name}: peak memory (of 4 GB)", peak, "MB", peak * 2**20 / 4e9))
        report(rows[-2:])


def main() -> None:
    quick = "--quick" in sys.argv
    only = next((a.split("=", 1)[1].split(",") for a in sys.argv if a.startswith("--only=")),
                ["2bit", "uva", "outofcore", "symmetry", "dask"])
    rows: list = []
    if "2bit" in only:
        two_bit_tables(rows)
    if "uva" in only:
        uva_file(rows)
    if "outofcore" in only:
        out_of_core(rows, quick)
    if "symmetry" in only:
        symmetry(rows, quick)
    if "dask" in only:
        dask_runs(rows)
    if "large" in only:  # not in the default run: about five minutes
        large(rows)
    print(machine_note("builds in child processes taking turns, medians of 5 (out of core: 1 run)"))


if __name__ == "__main__":
    main()
