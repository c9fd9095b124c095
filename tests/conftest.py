"""Where the tests find their data (the cache fixture is in the root conftest.py).

``tests/data`` holds the public judge data the tests check against (contest
samples, the official Kattis rubiksrevenge files, the HDU 2691 sample), copied
into the repository so that a bare clone tests itself.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
