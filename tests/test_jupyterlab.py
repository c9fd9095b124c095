"""The widget where users run it: a JupyterLab server (JupyterLab from PyPI) on
127.0.0.1 opens a notebook showing ``explore.widget(minicube.PUZZLE)``;
Debian's headless chromium, driven over its DevTools protocol (no browser is
downloaded), runs the cell with Shift+Enter, clicks the R button and reads the
distance read-out from the rendered page, which the Python kernel computed.

Skipped, saying so, only where chromium is missing (``.ci/run`` installs it).
"""
from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest
import websocket  # websocket-client, which jupyter_server depends on

from tests.conftest import ROOT

pytestmark = pytest.mark.slow

CELL = "from permgroup import explore\nfrom puzzles import minicube\nexplore.widget(minicube.PUZZLE)"


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:  # pragma: no cover
        process.kill()
        process.wait()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_url(url: str, timeout: float, process: subprocess.Popen) -> bytes:
    end = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read()
        except OSError:
            if process.poll() is not None or time.monotonic() > end:
                raise
            time.sleep(0.3)


class DevTools:
    """One page of chromium, over the DevTools protocol's websocket."""

    def __init__(self, url: str):
        self.socket = websocket.create_connection(url, timeout=120, suppress_origin=True)
        self.count = 0

    def call(self, method: str, **params) -> dict:
        self.count += 1
        self.socket.send(json.dumps({"id": self.count, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.count:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def js(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")

    def wait_for(self, expression: str, what: str, timeout: float = 120):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            value = self.js(expression)
            if value:
                return value
            time.sleep(0.25)
        page = self.js("(document.querySelector('.pg-widget') || document.body || "
                       "{innerText: ''}).innerText.slice(0, 3000)")
        raise AssertionError(f"timed out waiting for {what}; the page shows:\n{page}")

    def click(self, element: str) -> None:
        """A real (trusted) mouse click on the middle of the element that the
        JavaScript expression ``element`` finds."""
        x, y = self.js(f"(() => {{ const e = {element}; e.scrollIntoView({{block: 'center'}});"
                       " const r = e.getBoundingClientRect();"
                       " return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left",
                      clickCount=1)

    def press(self, key: str, code: int, modifiers: int = 0) -> None:
        for kind in ("rawKeyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=key,
                      windowsVirtualKeyCode=code, nativeVirtualKeyCode=code,
                      modifiers=modifiers)


@pytest.fixture
def lab(tmp_path):
    """A JupyterLab server on 127.0.0.1 serving a notebook with the widget's cell;
    its URL (with the token) for that notebook."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(CELL)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, tmp_path / "widget.ipynb")
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ, PYTHONPATH=str(ROOT), JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
               JUPYTER_CONFIG_DIR=str(tmp_path / "config"))
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
         f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={tmp_path}",
         "--allow-root"],
        env=env, stdout=subprocess.DEVNULL, stderr=open(tmp_path / "lab.log", "wb"))
    try:
        wait_for_url(f"http://127.0.0.1:{port}/api/status?token={token}", 120, server)
        yield f"http://127.0.0.1:{port}/lab/tree/widget.ipynb?token={token}"
    finally:
        stop(server)


def test_clicking_a_move_in_jupyterlab_updates_the_distance(chromium, lab, tmp_path):
    debug_port = free_port()
    browser = subprocess.Popen(
        [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-dev-shm-usage", f"--remote-debugging-port={debug_port}",
         f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1280,1000", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        targets = json.loads(wait_for_url(f"http://127.0.0.1:{debug_port}/json/list", 60,
                                          browser))
        page = DevTools(next(t for t in targets if t["type"] == "page")["webSocketDebuggerUrl"])
        page.call("Page.enable")
        page.call("Page.navigate", url=lab)
        editor = "document.querySelector('.jp-Notebook .jp-Cell .cm-content')"
        page.wait_for(f"!!{editor} && document.querySelector('.jp-Notebook').innerText"
                      ".includes('explore.widget')", "the notebook to open")
        prompt = "document.querySelector('.jp-Notebook .jp-CodeCell .jp-InputPrompt')"
        for attempt in range(4):  # the kernel may still be starting: try again
            page.wait_for("!!document.querySelector('.jp-Notebook-ExecutionIndicator"
                          "[data-status=idle]')", "the kernel to start")
            if page.js("!!document.querySelector('.jp-Dialog .jp-mod-accept')"):
                page.click("document.querySelector('.jp-Dialog .jp-mod-accept')")  # its kernel
                continue
            page.click(editor)
            page.press("Enter", 13, modifiers=8)  # Shift+Enter runs the cell
            try:
                page.wait_for(f"/\\[(\\*|\\d+)\\]/.test({prompt}.textContent)", "the cell to run",
                              timeout=20)
                break
            except AssertionError:
                if attempt == 3:
                    raise
        distance = "document.querySelector('.pg-distance')"
        before = page.wait_for(f"{distance} && /^distance to solved: \\d/.test("
                               f"{distance}.textContent) && {distance}.textContent",
                               "the widget and its first distance")
        assert before.startswith("distance to solved: 0 "), before
        buttons = page.js("[...document.querySelectorAll('.pg-moves button')]"
                          ".map(b => b.textContent)")
        assert buttons[:2] == ["U", "U'"] and "R" in buttons, buttons
        page.click("[...document.querySelectorAll('.pg-moves button')]"
                   ".find(b => b.textContent === 'R')")
        after = page.wait_for(f"{distance}.textContent.startsWith('distance to solved: 1 ')"
                              f" && {distance}.textContent", "the distance after R")
        assert page.js("document.querySelector('.pg-history').value") == "R"
        assert page.js("document.querySelector('.pg-solution').textContent").endswith("R'")
        assert after.startswith("distance to solved: 1 ")
    finally:
        stop(browser)
