"""The puzzle widget outside Jupyter, for the browser test and the README's
screenshot: a loopback HTTP server on 127.0.0.1 serves a page that loads the
widget's ES module with a small stand-in for anywidget's ``model`` (get, set,
on, off, save_changes, send); ``send`` posts the message to the server, which
hands it to the Python widget, as the Jupyter kernel would, and answers with
every synced trait.

A driver script added to the page reports to ``/result``: :data:`DRIVER`
clicks, types and reports what the page shows, :data:`MEASURE` where the
picture's shapes are on the screen (see tests/test_widget_browser.py).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - imported by the callers, which need anywidget
    from permgroup.widget import PuzzleWidget

ESM = Path(__file__).resolve().parent.parent / "permgroup" / "widget.js"

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>permgroup widget</title>
<style>body { margin: 12px; background: #fff; }</style></head>
<body><div id="root"></div>
<script type="module">
import widget from "/widget.js";
const state = %(state)s;
const listeners = {};
const fire = (name) => (listeners[name] || []).slice().forEach((f) => f());
window.model = {
  get: (k) => state[k],
  set: (k, v) => { state[k] = v; },
  save_changes: () => {},
  on: (name, f) => { (listeners[name] ||= []).push(f); },
  off: (name, f) => { listeners[name] = (listeners[name] || []).filter((g) => g !== f); },
  send: async (content) => {
    const answer = await fetch("/msg", { method: "POST", body: JSON.stringify(content) });
    const next = await answer.json();
    for (const [k, v] of Object.entries(next)) {
      if (JSON.stringify(state[k]) !== JSON.stringify(v)) { state[k] = v; fire("change:" + k); }
    }
    window.answered = (window.answered || 0) + 1;
  },
};
widget.render({ model: window.model, el: document.getElementById("root") });
window.rendered = true;
</script>
%(driver)s
</body></html>
"""

#: what the browser test does in the page: press R, type a word, type a bad one
DRIVER = """<script type="module">
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const q = (s) => document.querySelector(s);
async function until(test) {
  for (let i = 0; i < 400 && !test(); i++) await sleep(25);
}
async function answered(action) {  // do something, wait for Python's answer
  const n = window.answered || 0;
  action();
  await until(() => (window.answered || 0) > n);
}
function look() {
  return { svg: q(".pg-net").innerHTML, distance: q(".pg-distance").textContent,
           history: q(".pg-history").value, message: q(".pg-message").textContent,
           solution: q(".pg-play").textContent, element: q(".pg-element").textContent,
           buttons: [...document.querySelectorAll(".pg-moves button")].map((b) => b.textContent) };
}
async function run() {
  await until(() => window.rendered);
  const report = { before: look() };
  await answered(() => q('.pg-moves button[data-move="R"]').click());
  report.afterR = look();
  q(".pg-speed").value = "8";
  q(".pg-play").click();  // the solution, R', played back
  await until(() => q(".pg-history").value === "R R'");
  await sleep(600);  // a longer word would go on playing
  report.played = look();
  q(".pg-history").value = "R U R' U'";
  await answered(() => q(".pg-apply").click());
  report.typed = look();
  q(".pg-history").value = "R Q";
  await answered(() => q(".pg-apply").click());
  report.bad = look();
  await answered(() => q(".pg-undo").click());
  report.undone = look();
  await answered(() => q(".pg-widget").dispatchEvent(
    new KeyboardEvent("keydown", { key: "U", bubbles: true })));  // shift-u: U'
  report.key = look();
  await fetch("/result", { method: "POST", body: JSON.stringify(report) });
  document.title = "done";
}
run().catch((e) => fetch("/result", { method: "POST", body: JSON.stringify({ error: String(e) }) }));
</script>"""


#: what the screenshot test measures: the page's, the widget's, the picture's
#: and every position's box on the screen
MEASURE = """<script type="module">
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function run() {
  for (let i = 0; i < 400 && !window.rendered; i++) await sleep(25);
  await sleep(200);
  const box = (e) => { const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  const report = { page: [0, 0, document.documentElement.clientWidth, window.innerHeight],
    widget: box(document.querySelector(".pg-widget")),
    svg: box(document.querySelector(".pg-net svg")),
    shapes: [...document.querySelectorAll(".pg-net [data-position]")].map(box) };
  await fetch("/result", { method: "POST", body: JSON.stringify(report) });
}
run().catch((e) => fetch("/result", { method: "POST", body: JSON.stringify({ error: String(e) }) }));
</script>"""


def snapshot(w: PuzzleWidget) -> dict:
    """Every synced trait of the widget (what the kernel would send)."""
    return {k: v for k, v in w.get_state().items() if not k.startswith("_")}


class Page:
    """A loopback server showing one widget; ``result`` holds what a driven
    page reported (``done`` is set then)."""

    def __init__(self, widget: PuzzleWidget, drive: bool = False, driver: str = ""):
        self.widget = widget
        self.driver = DRIVER if drive else driver
        self.result: dict | None = None
        self.done = threading.Event()
        self.lock = threading.Lock()
        page = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep the test output quiet
                pass

            def _send(self, body: bytes, kind: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                if self.path.startswith("/widget.js"):
                    self._send(ESM.read_bytes(), "text/javascript")
                elif self.path == "/" or self.path.startswith("/?"):
                    self._send(page.html().encode(), "text/html; charset=utf-8")
                else:
                    self.send_error(404)

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                content = json.loads(body or b"{}")
                if self.path == "/msg":
                    with page.lock:
                        page.widget._handle_custom_msg(content, [])
                        page.widget.wait(60)
                        answer = snapshot(page.widget)
                    self._send(json.dumps(answer).encode(), "application/json")
                elif self.path == "/result":
                    page.result = content
                    page.done.set()
                    self._send(b"{}", "application/json")
                else:
                    self.send_error(404)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def html(self) -> str:
        state = json.dumps(snapshot(self.widget.wait(60))).replace("</", "<\\/")
        return PAGE % {"state": state, "driver": self.driver}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/"

    def __enter__(self) -> Page:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def find_chromium() -> str | None:
    """The chromium (or chrome) binary: ``$CHROMIUM``, else one on the PATH."""
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def chromium_command(binary: str, profile: str, *extra: str) -> list[str]:
    """Headless chromium with a fresh profile and nothing phoning home."""
    return [binary, "--headless", "--no-sandbox", "--disable-gpu",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--no-first-run", "--disable-extensions", "--hide-scrollbars",
            f"--user-data-dir={profile}", *extra]


def run_chromium(args: list[str], timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout)
