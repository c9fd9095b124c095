"""The engine's README figures side by side with another checkout of permgroup.

    nice python benchmarks/bench_engine.py --base PATH [--repeat N] [--large] [--only NAME,...]

``PATH`` is a checkout to compare with (e.g. ``git worktree add /tmp/base
COMMIT``).  Each case is one whole process (``python -m permgroup ...``, run
from the checkout's folder with it first on ``PYTHONPATH``), the two checkouts
taking turns, ``--repeat`` runs each (default 3); the table builds start from
an empty cache, the solving cases from a cache each checkout has filled
first.  Printed: median seconds and peak memory (``VmHWM``) of each, and the
ratio of this checkout's median to the base's (below 1: faster).  Both
outputs are compared and must be equal (for the two-phase solver, whose
words depend on the time left, the mean length is printed instead).

Cases: the 88,179,840-state 2x2x2 (six faces, HTM) and the 63,063,000-colouring
torus, built; the Skewb (all 8 turns, written as a ``.tws``), the Pyraminx
(face turns) and the Dino cube from definition files; uva11007 on 3,000
cases; ``permgroup optimal skewb`` on 5,000 lines (lines per second);
two-phase on 100 random cubes (``--time-limit 0.1``, ``--timeout 0.1`` for a
base that still spells it so).  ``--large`` adds UFO and
twsearch's 2x3x3 cuboid with ``--memory 4GB`` (by rows in memory with
checkpoints; minutes each).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_cube3_any import random_cubes  # noqa: E402
from benchmarks.bench_scale import cuboid_definition  # noqa: E402
from benchmarks.common import scratch_dir, fresh_cache_env, machine_note  # noqa: E402

#: runs ``python -m permgroup`` and reports its peak memory on stderr
PEAK = """
import runpy, sys
sys.argv = ["permgroup"] + sys.argv[1:]
try:
    runpy.run_module("permgroup", run_name="__main__")
    code = 0
except SystemExit as exc:
    code = exc.code or 0
peak = [line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM")][0]
print(f"# peak {peak}", file=sys.stderr)
sys.exit(code)
"""


#: stands for the option of a case's time limit, spelled as the checkout spells it
TIME_LIMIT = "{time limit}"


def run(tree: Path, args: list[str], env: dict) -> tuple[float, float, str]:
    """Seconds, peak MB and stdout of ``permgroup ARGS`` run from ``tree``."""
    older = "--timeout" in (tree / "permgroup" / "cli.py").read_text(encoding="utf-8")
    args = [("--timeout" if older else "--time-limit") if a == TIME_LIMIT else a for a in args]
    env = dict(env, PYTHONPATH=str(tree))
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK, *args], capture_output=True, text=True,
                          env=env, cwd=tree)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{tree}: permgroup {' '.join(args)}: {done.stderr[-1500:]}")
    peak = [int(line.split()[2]) / 1024 for line in done.stderr.splitlines()
            if line.startswith("# peak")][0]
    return seconds, peak, done.stdout


def cases(folder: Path, large: bool) -> list[tuple[str, list[str], bool, str | None]]:
    """(label, arguments, from an empty cache, table to fill first)."""
    from permgroup.formats.ksolve import to_ksolve
    from permgroup.formats.stickers import from_puzzle
    from puzzles import LIBRARY, minicube, solids
    from puzzles.formats import uva11007

    skewb = folder / "skewb-all-turns.tws"
    skewb.write_text(to_ksolve(from_puzzle(solids.skewb(fixed_corner=False), "skewb")))
    rng = random.Random(11007)
    uva = folder / "uva11007-3000.txt"
    uva.write_text(uva11007.write_cases([minicube.scramble(rng, solved="WWWWYYYYRRRRBBBBGGGGOOOO")
                                         for _ in range(3000)]))
    rng = random.Random(1)
    names = ["URF", "URB", "DRF", "ULF"]
    lines = folder / "skewb-5000.txt"
    lines.write_text("\n".join(" ".join(rng.choice(names) + rng.choice(["", "'"])
                                        for _ in range(14)) for _ in range(5000)) + "\n")
    cubes = folder / "cubes.txt"
    cubes.write_text("\n".join(random_cubes(100)) + "\n")
    out = [
        ("2x2x2, six faces (88,179,840), table --metric htm", ["table", str(LIBRARY["2x2x2"]),
                                                               "--metric", "htm"], True, None),
        ("torus 4x4 (63,063,000 colourings), table", ["table", "torus"], True, None),
        ("Skewb, all 8 turns (.tws), table --metric htm", ["table", str(skewb), "--metric",
                                                          "htm"], True, None),
        ("Pyraminx, face turns (definition file), table --metric htm",
         ["table", str(LIBRARY["pyraminx-faces"]), "--metric", "htm"], True, None),
        ("Dino cube (definition file), table --metric htm",
         ["table", str(LIBRARY["dino"]), "--metric", "htm"], True, None),
        ("uva11007, 3,000 cases, whole process, cached table", ["solve", "uva11007", str(uva)],
         False, "minicube"),
        ("permgroup optimal skewb, 5,000 lines, cached table", ["optimal", "skewb", str(lines)],
         False, "skewb"),
        ("two-phase, 100 random cubes, --time-limit 0.1, cached tables",
         ["solve", "cube3-facelets", str(cubes), TIME_LIMIT, "0.1"], False, "two-phase"),
    ]
    if large:
        cuboid = folder / "2x3x3.tws"
        cuboid.write_text(to_ksolve(cuboid_definition()))
        out += [("UFO (479,001,600), --memory 4GB", ["table", str(LIBRARY["ufo"]), "--metric",
                                                     "htm", "--memory", "4GB"], True, None),
                ("2x3x3 cuboid (1,625,702,400), --memory 4GB",
                 ["table", str(cuboid), "--metric", "htm", "--memory", "4GB"], True, None)]
    return out


def warm(tree: Path, table: str, env: dict) -> None:
    """Fill ``env``'s cache with what a solving case reads."""
    if table == "two-phase":
        subprocess.run([sys.executable, "-c", "from puzzles import cube3; cube3.two_phase()"],
                       env=dict(env, PYTHONPATH=str(tree)), cwd=tree, check=True)
    else:
        run(tree, ["table", table], env)


def mean_length(out: str) -> float:
    return statistics.mean(len(line.split()) for line in out.splitlines())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, help="checkout to compare with")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--large", action="store_true", help="add UFO and the cuboid")
    parser.add_argument("--only", default="", help="comma-separated words of case labels")
    args = parser.parse_known_args()[0]  # benchmarks/run.py passes --seeds to all
    if args.base is None:
        print("# left out: the engine side by side: pass --base PATH, a checkout to compare "
              "with (git worktree add /tmp/base COMMIT)", flush=True)
        return
    trees = {"this": ROOT, "base": args.base.resolve()}
    folder = Path(scratch_dir("bench-engine-"))
    warm_env = {name: fresh_cache_env() for name in trees}
    for label, command, cold, table in cases(folder, args.large):
        if args.only and not any(w.lower() in label.lower() for w in args.only.split(",")):
            continue
        if table:
            for name, tree in trees.items():
                warm(tree, table, warm_env[name])
        runs: dict[str, list] = {name: [] for name in trees}
        for _ in range(args.repeat):
            for name, tree in trees.items():
                runs[name].append(run(tree, command, fresh_cache_env() if cold else
                                      warm_env[name]))
        outs = {name: r[0][2] for name, r in runs.items()}
        if table == "two-phase":
            check = " ".join(f"{name} mean {mean_length(o):.2f} moves" for name, o in outs.items())
        else:
            assert outs["this"] == outs["base"], f"{label}: the outputs differ"
            check = "same output"
        this, base = ({k: statistics.median(r[i] for r in runs[n]) for k, i in
                       (("s", 0), ("mb", 1))} for n in ("this", "base"))
        rate = ""
        if "optimal" in command:
            rate = (f", {5000 / this['s']:,.0f} / {5000 / base['s']:,.0f} lines/s")
        print(f"{label}: {this['s']:.2f} s / base {base['s']:.2f} s (ratio "
              f"{this['s'] / base['s']:.2f}); peak {this['mb']:.0f} / {base['mb']:.0f} MB"
              f"{rate}; {check}", flush=True)
    print(machine_note(f"medians of {args.repeat}, whole processes, the two checkouts taking "
                       "turns; base: " + str(trees["base"])))


if __name__ == "__main__":
    main()
