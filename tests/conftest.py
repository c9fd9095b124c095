"""Where the tests find their data (the cache fixture is in the root conftest.py).

``tests/data`` holds the public judge data the tests check against (contest
samples, the official Kattis rubiksrevenge files, the HDU 2691 sample), copied
into the repository so that a bare clone tests itself.
"""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's headless chromium (or ``$CHROMIUM``); the test that needs it is
    skipped, saying how to install it, where it is missing."""
    from tests.widget_page import find_chromium

    binary = find_chromium()
    if binary is None:
        pytest.skip("headless chromium not found: install it (Debian/Ubuntu: "
                    "apt-get install chromium) or set CHROMIUM=/path/to/chrome")
    return binary
