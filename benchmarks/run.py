"""Run every benchmark in this folder: ``python benchmarks/run.py [NAME ...]``.

Each ``bench_*.py`` prints medians and ratios against a baseline it measures in
the same run; give names (``minicube``, ``torus``...) to run only those.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(names: list[str]) -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    if names:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in names]
    status = 0
    for script in scripts:
        print(f"== {script.stem}", flush=True)
        status |= subprocess.run([sys.executable, str(script)], cwd=HERE.parent).returncode
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
