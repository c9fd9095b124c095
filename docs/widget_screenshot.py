"""Make docs/widget.png: the puzzle widget in headless chromium.

    python docs/widget_screenshot.py

The page is the one the browser test uses (tests/widget_page.py): the widget's
ES module with a stand-in model wired to the Python widget.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from permgroup import explore# noqa: E402
from puzzles import minicube  # noqa: E402
from tests.widget_page import Page, chromium_command, find_chromium  # noqa: E402


def main() -> None:
    binary = find_chromium()
    if binary is None:
        sys.exit("headless chromium not found: apt-get install chromium")
    w = explore.widget(minicube.PUZZLE)
    w.history = "R U R' F"
    w.target = "R U"
    w.wait(60)
    out = ROOT / "docs" / "widget.png"
    with Page(w) as page, tempfile.TemporaryDirectory() as profile:
        subprocess.run(chromium_command(binary, profile, f"--screenshot={out}",
                                        "--window-size=510,450", "--virtual-time-budget=5000",
                                        page.url),
                       capture_output=True, timeout=120, check=True)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
