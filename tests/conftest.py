"""Where the tests find the shared data (the cache fixture is in the root conftest.py)."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
DATA = SHARED / "data"
