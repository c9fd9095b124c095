"""Run every benchmark in this folder: ``python benchmarks/run.py [NAME ...]``.

Each ``bench_*.py`` prints medians and ratios against a baseline it measures in
the same run; give names (``minicube``, ``torus``...) to run only those.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
    parser.add_argument("--seeds", metavar="PATH", help="folder of the seed programs")
    args = parser.parse_args(argv)
    scripts = sorted(HERE.glob("bench_*.py"))
    if args.names:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in args.names]
    passed_on = ["--seeds", args.seeds] if args.seeds else []
    status = 0
    for script in scripts:
        print(f"== {script.stem}", flush=True)
        status |= subprocess.run([sys.executable, str(script)] + passed_on,
                                 cwd=HERE.parent).returncode
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
