"""Shared timing helpers for the benchmarks: medians, whole-process runs, seed baselines.

The seed programs (C++ solutions written by others) are compiled into a
temporary folder only to be timed in the same run; none of their code is part of
permgroup.  Their folder is ``--seeds PATH`` on any benchmark's command line
(``benchmarks/run.py`` passes it on), by default ``../shared/seeds`` beside the
repository when that exists.  Without it every benchmark still runs and prints
its own figures, and says which comparisons it left out.
"""
from __future__ import annotations

import argparse
import atexit
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SEEDS = ROOT.parent / "shared" / "seeds"


def add_seeds_option(parser: argparse.ArgumentParser) -> None:
    """Give a benchmark's own parser the ``--seeds PATH`` option (read by :data:`SEEDS`)."""
    parser.add_argument("--seeds", metavar="PATH",
                        help="folder of the seed programs (default: ../shared/seeds if present)")


def _seeds_folder() -> Path | None:
    parser = argparse.ArgumentParser(add_help=False)
    add_seeds_option(parser)
    given = parser.parse_known_args()[0].seeds
    if given:
        return Path(given)
    return DEFAULT_SEEDS if DEFAULT_SEEDS.is_dir() else None


SEEDS = _seeds_folder()


def left_out(what: str, prefix: str) -> None:
    """Say that a comparison with seed ``prefix`` was left out, and why."""
    if SEEDS is None:
        why = "no seeds folder (pass --seeds PATH)"
    elif not shutil.which("g++"):
        why = "no g++ on this machine"
    else:
        why = f"seed {prefix} not found or did not compile in {SEEDS}"
    print(f"# left out: {what}: {why}", flush=True)


def median_time(fn, repeat: int = 5) -> float:
    """Median wall time of ``fn()`` over ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run_process(args: list[str], stdin_path: Path | None = None, env: dict | None = None
                ) -> tuple[float, str]:
    """Wall time and stdout of one whole process."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        start = time.perf_counter()
        out = subprocess.run(args, stdin=stdin, stdout=subprocess.PIPE, check=True,
                             env=env).stdout
        return time.perf_counter() - start, out.decode()
    finally:
        if stdin_path:
            stdin.close()


def peak_memory_mb(code: str, env: dict | None = None) -> float:
    """Peak resident memory (MB) of a Python process running ``code``.

    Read from ``VmHWM``: ``ru_maxrss`` survives ``exec``, so a child started by
    a big benchmark process would report the parent's peak.
    """
    probe = code + ("\nprint([line.split()[1] for line in open('/proc/self/status')"
                    " if line.startswith('VmHWM')][0])")
    out = subprocess.run([sys.executable, "-c", probe], stdout=subprocess.PIPE, check=True,
                         env=env, cwd=ROOT).stdout.split()
    return int(out[-1]) / 1024


def permgroup_command() -> list[str]:
    return [sys.executable, "-m", "permgroup"]


def seed_program(prefix: str, fixes: dict[str, str] | None = None) -> Path | None:
    """Compile the C++ of seed ``prefix`` (from its first ``#include`` to the end
    of ``main``) into a temporary folder; ``None`` if that is not possible here."""
    compiler = shutil.which("g++")
    matches = sorted(SEEDS.glob(f"{prefix}_*.txt")) if SEEDS else []
    if not compiler or not matches:
        return None
    lines = matches[0].read_text(encoding="utf-8").splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("#include")), None)
    main = next((i for i, line in enumerate(lines) if re.match(r"int main\s*\(", line)), None)
    if start is None or main is None:
        return None
    ret = next((i for i in range(main, len(lines)) if "return 0;" in lines[i]), None)
    end = next((i for i in range(ret or main, len(lines)) if lines[i].startswith("}")), None)
    if end is None:
        return None
    source = "\n".join(lines[start:end + 1]) + "\n"
    for old, new in (fixes or {}).items():
        source = source.replace(old, new)
    folder = Path(scratch_dir(f"seed{prefix}-"))
    (folder / "main.cpp").write_text(source)
    binary = folder / "main"
    result = subprocess.run([compiler, "-O2", "-o", str(binary), str(folder / "main.cpp")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return binary if result.returncode == 0 else None


def scratch_dir(prefix: str = "permgroup-bench-") -> str:
    """A new temporary folder, removed when the benchmark exits: a run's caches
    and inputs take hundreds of megabytes, and benchmarks are run many times."""
    folder = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, folder, True)
    return folder


def fresh_cache_env() -> dict:
    env = dict(os.environ)
    env["PERMGROUP_CACHE"] = scratch_dir()
    # an installed package runs from compiled bytecode; without it every child
    # would compile each module it imports, and more code would look slower
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def machine_note(extra: str = "") -> str:
    """A closing line for a benchmark's output: when, how many cores, how loaded."""
    note = (f"# {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, "
            f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return f"{note}, {extra}" if extra else note


def report(rows: list[tuple[str, float, str, float | None]]) -> None:
    """Print ``name, value, unit, ratio-to-baseline`` rows."""
    for name, value, unit, ratio in rows:
        ratio_text = f"   ratio {ratio:.3f}" if ratio is not None else ""
        print(f"{name:<58} {value:>10.4g} {unit:<3}{ratio_text}", flush=True)
