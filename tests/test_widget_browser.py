"""The widget's JavaScript in a real browser: headless chromium loads a page
with the ES module and a stand-in for anywidget's model wired to the Python
widget through a loopback server (tests/widget_page.py); a script in the page
clicks a move button, types words and reports what the page then shows."""
from __future__ import annotations

import re
import subprocess

import pytest

pytest.importorskip("anywidget", reason="the widget needs anywidget: pip install anywidget")

from permgroup import explore# noqa: E402
from permgroup.drawing import drawing_of, picture  # noqa: E402
from puzzles import minicube  # noqa: E402
from tests.widget_page import Page, chromium_command  # noqa: E402

SOLVED = "UUUURRRRFFFFDDDDLLLLBBBB"


def fills(svg: str) -> list[str]:
    return re.findall(r'data-position="\d+" fill="([^"]+)"', svg)


def test_clicking_a_move_redraws_the_net_and_the_distance(chromium, tmp_path):
    w = explore.widget(minicube.PUZZLE)
    with Page(w, drive=True) as page:
        command = chromium_command(chromium, str(tmp_path / "profile"), "--dump-dom",
                                   "--virtual-time-budget=60000", page.url)
        browser = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True)
        try:
            reported = page.done.wait(120)
            dom, errors = browser.communicate(timeout=60)
        finally:
            if browser.poll() is None:
                browser.kill()
                browser.communicate()
    assert reported, f"the page reported nothing; chromium said:\n{errors[-3000:]}"
    result = page.result
    assert "error" not in result, result
    before, after_r = result["before"], result["afterR"]
    assert before["buttons"] == w.moves
    assert before["distance"].startswith("distance to solved: 0 ")
    assert fills(before["svg"]) == fills(picture(minicube.PUZZLE, SOLVED))
    # one click on R: the net shows the state after R, the read-outs follow
    assert after_r["history"] == "R"
    assert fills(after_r["svg"]) == fills(picture(minicube.PUZZLE,
                                                  minicube.apply_moves(SOLVED, "R")))
    assert fills(after_r["svg"]) != fills(before["svg"])
    assert after_r["distance"].startswith("distance to solved: 1 ")
    assert after_r["solution"] == "▶ R'"
    assert after_r["element"].startswith("order 4 ")
    played = result["played"]
    assert played["history"] == "R R'" and played["distance"].startswith("distance to solved: 0 ")
    assert fills(played["svg"]) == fills(before["svg"])
    typed = result["typed"]
    assert typed["history"] == "R U R' U'"
    assert typed["distance"].startswith(
        f"distance to solved: {minicube.distance(SOLVED, minicube.apply_moves(SOLVED, typed['history']))} ")
    bad = result["bad"]
    assert "unknown move 'Q' at character 3 (token 2)" in bad["message"]
    assert bad["history"] == "R Q" and bad["distance"] == typed["distance"]  # nothing moved
    undone = result["undone"]
    assert undone["history"] == "R U R'" and undone["message"] == ""
    assert result["key"]["history"] == "R U R' U'" == w.history
    # the page as chromium left it shows the same
    assert 'class="pg-distance">distance to solved: 4 ' in dom


def test_a_solid_in_the_widget_shows_nothing_clipped(chromium, tmp_path):
    """The Megaminx's net in the widget, in a 700-pixel window: every sticker
    lies inside the picture, the picture inside the widget's frame and the
    frame inside the window (measured in the page), and the screenshot shows
    every face's colour inside the frame and no sticker colour outside it."""
    from matplotlib.image import imread

    from permgroup.drawing import position_fills
    from tests.widget_page import MEASURE

    puzzle = explore.load_puzzle("megaminx")
    w = explore.widget(puzzle, time_limit=0.2)
    w.history = "U R F'"
    shot = tmp_path / "megaminx.png"
    with Page(w, driver=MEASURE) as page:
        command = chromium_command(chromium, str(tmp_path / "profile"), f"--screenshot={shot}",
                                   "--window-size=700,900", "--virtual-time-budget=20000", page.url)
        run = subprocess.run(command, capture_output=True, text=True, timeout=180)
        assert page.done.wait(60), f"the page reported nothing; chromium said:\n{run.stderr[-3000:]}"
    result = page.result
    assert "error" not in result, result

    def inside(inner, outer, slack=0.5):
        return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack
                and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack)

    assert len(result["shapes"]) == puzzle.degree
    assert all(inside(box, result["svg"]) for box in result["shapes"])
    assert inside(result["svg"], result["widget"]) and inside(result["widget"], result["page"])

    pixels = (imread(shot)[:, :, :3] * 255).round().astype(int)
    colours = w.element.state().colours
    fills = set(position_fills(drawing_of(puzzle).home, puzzle.solved, colours))
    left, top, right, bottom = (round(v) for v in result["widget"])
    frame = pixels[top:bottom, left:right]
    for fill in fills:
        rgb = [int(fill[k:k + 2], 16) for k in (1, 3, 5)]
        assert (abs(frame - rgb).sum(axis=2) <= 6).any(), f"{fill} is not in the picture"
        outside = pixels.copy()
        outside[top:bottom, left:right] = 255
        if fill not in ("#ffffff",):
            assert not (abs(outside - rgb).sum(axis=2) <= 6).any(), f"{fill} outside the frame"
