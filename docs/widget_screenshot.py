"""Make docs/widget.png and docs/widget-megaminx.png: the puzzle widget in
headless chromium, on the 2x2x2 and on the Megaminx (its net cut from the
dodecahedron).

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


def shoot(w, out: Path, size: str, binary: str) -> None:
    """A screenshot of widget ``w`` in a window of ``size`` (``"W,H"``)."""
    with Page(w) as page, tempfile.TemporaryDirectory() as profile:
        subprocess.run(chromium_command(binary, profile, f"--screenshot={out}",
                                        f"--window-size={size}", "--virtual-time-budget=5000",
                                        page.url),
                       capture_output=True, timeout=120, check=True)
    print(f"wrote {out}")


def main() -> None:
    binary = find_chromium()
    if binary is None:
        sys.exit("headless chromium not found: apt-get install chromium")
    w = explore.widget(minicube.PUZZLE)
    w.history = "R U R' F"
    w.target = "R U"
    shoot(w.wait(60), ROOT / "docs" / "widget.png", "520,470", binary)
    w = explore.widget(explore.load_puzzle("megaminx"), time_limit=2)
    w.history = "U R F'"
    shoot(w.wait(60), ROOT / "docs" / "widget-megaminx.png", "700,560", binary)


if __name__ == "__main__":
    main()
