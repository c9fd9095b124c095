"""The bad-input corpus of issue 36, run as a user runs it: ``python
benchmarks/bad_inputs.py [NAME-PART ...]``.

Each case is one whole process (``permgroup ...``, or a few lines of Python
for the API), in a fresh cache folder shared by the run.  A case passes when:

* it ends with a ``permgroup: error: ...`` line and exit status 2, or with
  exit status 0 and an answer this script checks where it can (``check``), or
  (for a Ctrl-C case) with exit status 130 and one ``permgroup: interrupted``
  line;
* within its time limit plus 10 s (60 s for commands that take no limit);
* under 2 GB of peak memory (the process and its children, measured by
  ``wait4`` and by polling; a case past 3 GB is stopped);
* with no traceback on stderr.

It prints one row per case (outcome, wall seconds, peak MB, whether stderr
holds a traceback, the verdict, and the error line, the answer's last line or
why it failed) and a summary; the exit status is the number of failed cases
(capped at 100).  The inputs are made from ``tests/data``: nothing is read
from outside the repository.  It is not a speed benchmark: it checks bounds.
"""
from __future__ import annotations

import argparse
import math
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.set_int_max_str_digits(0)  # the order of S2000 has 5,736 digits
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.common import ROOT, machine_note, scratch_dir  # noqa: E402

PEAK = 2 * 10 ** 9  # bytes a case may take at its peak
STOP = 3 * 10 ** 9  # a case past this is stopped
SLACK = 10.0  # seconds past its time limit a case may take
NO_LIMIT = 60.0  # the time limit of a command that takes none

DATA = ROOT / "tests" / "data"
SANTA_INFO = (DATA / "santa2023" / "puzzle_info.csv").read_text(encoding="utf-8")
SANTA_PUZZLES = (DATA / "santa2023" / "puzzles.csv").read_text(encoding="utf-8")
CUBE2 = ";".join(c for c in "ABCDEF" for _ in range(4))


@dataclass
class Case:
    """One bad input: ``args`` of ``permgroup`` (or ``code``, Python run with
    the API's errors printed as the command line prints them)."""

    name: str
    args: list[str] = field(default_factory=list)
    stdin: str = ""
    limit: float = NO_LIMIT
    code: str = ""
    interrupt: float | None = None  # seconds before a Ctrl-C to the process group
    check: Callable[[str, str], str | None] | None = None  # why an answer is wrong
    accept: tuple[str, ...] = ("error", "answer")


# Python cases run this first: an InputError becomes the command line's line
API = """
import sys
from permgroup.errors import InputError
from permgroup import explore
try:
{body}
except InputError as exc:
    print(f"permgroup: error: {{exc}}", file=sys.stderr)
    sys.exit(2)
"""


def files(folder: Path) -> dict[str, Path]:
    """The input files the cases read, written into ``folder``."""
    made = {}

    def write(name: str, data: bytes) -> None:
        made[name] = folder / name
        made[name].write_bytes(data)

    rows = SANTA_PUZZLES.splitlines()
    latin = "\n".join([rows[0]] + [r.replace("A;", "è;").replace("B;", "é;") for r in rows[1:4]])
    write("latin1.csv", (latin + "\n").encode("latin-1"))
    write("info.csv", SANTA_INFO.encode())
    write("puzzles.csv", SANTA_PUZZLES.encode())
    write("bom.csv", b"\xef\xbb\xbf" + "\n".join(rows[:2]).encode() + b"\n")
    swapped = CUBE2.split(";")
    swapped[0], swapped[4] = swapped[4], swapped[0]  # one sticker swap: never reachable
    write("unreachable.csv", (f"{rows[0]}\n0,cube_2/2/2,{CUBE2},{';'.join(swapped)},0\n").encode())
    big = SANTA_INFO.replace("[0, 1, 19,", "[9223372036854775808, 1, 19,", 1)
    write("bigindex.csv", big.encode())
    write("ring.gap", (DATA / "gap" / "ring.gap").read_bytes())
    write("far.gap", b"M_A:=(1,30000000);\nGen:=[M_A];\n")
    cycle = ",".join(map(str, range(1, 2001)))
    write("s2000.gap", f"M_S:=(1,2);\nM_C:=({cycle});\nGen:=[M_S,M_C];\n".encode())
    write("bom.tws", b"\xef\xbb\xbf" + (ROOT / "puzzles/definitions/skewb.tws").read_bytes())
    return made


def order_is(n: int) -> Callable[[str, str], str | None]:
    def check(out: str, err: str) -> str | None:
        found = re.search(r"^order: (\d+)$", out, re.M)
        return None if found and int(found.group(1)) == n else f"expected order: {n}"
    return check


def positions_below_order(out: str, err: str) -> str | None:
    """'at most X of them, fewer than the order' must have X below the order."""
    order = int(re.search(r"^order: (\d+)$", out, re.M).group(1))
    said = re.search(r"at most ([\d,]+) of them, fewer than the order", out)
    if said and int(said.group(1).replace(",", "")) >= order:
        return f"says at most {said.group(1)}, fewer than the order {order}"
    return None


def total_is(n: int) -> Callable[[str, str], str | None]:
    def check(out: str, err: str) -> str | None:
        counts = [int(line.split("\t")[1]) for line in out.splitlines() if "\t" in line]
        return None if sum(counts) == n else f"total {sum(counts)}, expected {n}"
    return check


def contains(text: str, where: str = "out") -> Callable[[str, str], str | None]:
    def check(out: str, err: str) -> str | None:
        return None if text in (out if where == "out" else err) else f"no {text!r} on std{where}"
    return check


def cases(f: dict[str, Path]) -> list[Case]:
    def api(name: str, body: str, **options) -> Case:
        indented = "\n".join("    " + line for line in body.splitlines())
        return Case(name, code=API.format(body=indented), **options)

    huge = "100000000000000000000"
    info = str(f["info.csv"])
    return [
        # silently wrong
        Case("Latin-1 puzzles.csv", ["solve", "santa2023", str(f["latin1.csv"]), "--info", info,
                                     "--time-limit", "5"], limit=15, accept=("error",)),
        Case("order ring.gap: positions below the order", ["order", str(f["ring.gap"])],
             check=positions_below_order),
        Case("order cube-2: positions below the order", ["order", "cube-2"],
             check=positions_below_order),
        # memory
        Case("table lrx-13", ["table", "lrx-13"], check=total_is(math.factorial(13))),
        Case("table lrx-13 --packed", ["table", "lrx-13", "--packed"],
             check=total_is(math.factorial(13))),
        Case("table pancake-13", ["table", "pancake-13"], check=total_is(math.factorial(13))),
        Case("table lrx-14", ["table", "lrx-14"], check=total_is(math.factorial(14))),
        Case("GAP point 30,000,000", ["order", str(f["far.gap"])], check=order_is(2)),
        Case("word (R U)5000000", ["word", "minicube", "--time-limit", "10"],
             stdin="(R U)5000000\n", limit=10, check=contains("# 1 line")),
        Case("word ((R U)100000)100000", ["word", "minicube", "--time-limit", "10"],
             stdin="((R U)100000)100000\n", limit=10, check=contains("# 1 line")),
        # the first word on a cube3 builds (and caches) its two-phase tables
        Case("word cube3 on a fresh cache", ["word", "cube3", "--time-limit", "10"],
             stdin="((R U)100000)100000\n", limit=10, check=contains("# 1 line")),
        api("draw(lrx-200, 'L ' * 10000)",
            "svg = explore.draw(explore.load_puzzle('lrx-200'), 'L ' * 10000)\n"
            "print(len(str(svg)))"),
        Case("unreachable Santa row", ["solve", "santa2023", str(f["unreachable.csv"]), "--info",
                                       info, "--time-limit", "10"], limit=10, accept=("error",)),
        # hangs past a time limit
        Case("word minicube R10^20", ["word", "minicube", "--time-limit", "10"],
             stdin=f"R{huge}\n", limit=10, check=contains("# 1 line")),
        Case("word cube3 R10^20", ["word", "cube3", "--time-limit", "10"],
             stdin=f"R{huge}\n", limit=10, check=contains("# 1 line")),
        Case("optimal minicube R10^20", ["optimal", "minicube", "--time-limit", "5"],
             stdin=f"R{huge}\n", limit=5,  # 10^20 quarter turns: solved, an empty line
             check=lambda out, err: None if out == "\n" else f"{out!r}, not an empty line"),
        Case("word skewb URF10^20", ["word", "skewb", "--time-limit", "10"],
             stdin=f"URF{huge}\n", limit=10, check=contains("# 1 line")),
        Case("table skewb --memory 0", ["table", "skewb", "--memory", "0"], accept=("error",)),
        Case("table skewb --memory 0.5", ["table", "skewb", "--memory", "0.5"],
             accept=("error",)),
        Case("order transpositions-200", ["order", "transpositions-200"],
             check=order_is(math.factorial(200))),
        api("structure(transpositions-200)",
            "print(explore.structure('transpositions-200').order)"),
        Case("word transpositions-200", ["word", "transpositions-200", "--time-limit", "10"],
             stdin="T0_1 T1_2\n", limit=10, check=contains("# 1 line")),
        api("commutators(transpositions-200)",
            "print(explore.commutators('transpositions-200'))"),
        Case("table topspin-6 --dask --workers 100",
             ["table", "topspin-6", "--dask", "--workers", "100"]),
        Case("word skewb, a deep position", ["word", "skewb", "--time-limit", "10"],
             stdin="ULF2' [URF [URB, ULF2' ULF]3: ULF2 URB]2\n", limit=10,
             check=contains("# 1 line; proven optimal: all")),
        Case("word pancake-256, 3 moves", ["word", "pancake-256", "--time-limit", "10"],
             stdin="R2 R3 R4\n", limit=10, check=contains("# 1 line")),
        # tracebacks
        Case("move index 2^63 in puzzle_info.csv", ["order", f"{f['bigindex.csv']}#cube_2/2/2"],
             accept=("error",)),
        Case("table lrx-200", ["table", "lrx-200"], accept=("error",)),
        Case("table pancake-256", ["table", "pancake-256"], accept=("error",)),
        Case("order S2000 (GAP)", ["order", str(f["s2000.gap"])],
             check=order_is(math.factorial(2000))),
        Case("5,000 nested brackets", ["word", "minicube", "--time-limit", "10"],
             stdin="(" * 5000 + "R" + ")" * 5000 + "\n", limit=10, check=contains("# 1 line")),
        Case("Dask scheduler unreachable", ["table", "lrx-6", "--dask", "--scheduler",
                                            "tcp://127.0.0.1:9"], limit=30, accept=("error",)),
        # lrx-12 (479 M states): lrx-11's table is built in about 3 s now, before the signal
        Case("Ctrl-C in table lrx-12", ["table", "lrx-12"], interrupt=4.0,
             accept=("interrupted",)),
        Case("Ctrl-C in solve santa2023 --jobs 2",
             ["solve", "santa2023", str(f["puzzles.csv"]), "--info", info, "--jobs", "2"],
             interrupt=25.0, accept=("interrupted",), check=contains("id,moves")),
        api("explore.structure(None)", "explore.structure(None)", accept=("error",)),
        api("explore.reachable(None)", "explore.reachable(None)", accept=("error",)),
        api("explore.reachable('cube3')", "explore.reachable('cube3')", accept=("error",)),
        api("explore.commutators(42)", "explore.commutators(42)", accept=("error",)),
        api("explore.draw(p, 42)", "explore.draw(explore.load_puzzle('skewb'), 42)",
            accept=("error",)),
        api("explore.draw(..., width=nan)",
            "explore.draw(explore.load_puzzle('skewb'), 'URF', width=float('nan'))",
            accept=("error",)),
        # accepted silently
        *[Case(f"solve santa2023 {option} {value}",
               ["solve", "santa2023", str(f["bom.csv"]), "--info", info, option, value],
               accept=("error",))
          for option, value in (("--jobs", "0"), ("--jobs", "-1"), ("--time-limit", "0"),
                                ("--time-limit", "-1"))],
        Case("table skewb --memory ''", ["table", "skewb", "--memory", ""], accept=("error",)),
        Case("table skewb --workers 0", ["table", "skewb", "--workers", "0"], accept=("error",)),
        # friction
        Case("a UTF-8 BOM (.tws)", ["order", str(f["bom.tws"])], check=order_is(3149280)),
        Case("a UTF-8 BOM (puzzles.csv)", ["solve", "santa2023", str(f["bom.csv"]), "--info",
                                           info, "--time-limit", "10"], limit=10,
             check=contains("\n0,"), accept=("answer",)),
        Case("the hint's f02", ["optimal", f"{info}#cube_2/2/2"], stdin="f02\n", limit=60,
             check=contains("f0"), accept=("answer",)),
        api("from_gap: a group on point 30,000,000,000",
            "from permgroup.export import from_gap\n"
            "from_gap('G := Group((1,30000000000));')", accept=("error",)),
        api("reachable('lrx-5', [0, 1, 2, 3, 4])",
            "print(explore.reachable('lrx-5', [0, 1, 2, 3, 4]))", check=contains("reachable\n"),
            accept=("answer",)),
        api("draw in a console", "print(repr(explore.draw('skewb')))",
            check=lambda out, err: "shows the SVG text" if "<svg" in out else None,
            accept=("answer",)),
        Case("'1 line', not '1 lines'", ["word", "skewb"], stdin="URF\n",
             check=contains("# 1 line;"), accept=("answer",)),
        Case("a name in another case (order Skewb)", ["order", "Skewb"], accept=("answer",),
             check=order_is(3149280)),
        Case("did you mean (order lrx5)", ["order", "lrx5"], accept=("error",),
             check=contains("did you mean 'lrx-5'", "err")),
        Case("table skewb --workers 2 (no --dask)", ["table", "skewb", "--workers", "2"],
             accept=("error",)),
        Case("order transpositions-256", ["order", "transpositions-256"],
             check=order_is(math.factorial(256))),
        Case("order --help says no '(sympy)'", ["order", "--help"], accept=("answer",),
             check=lambda out, err: "says '(sympy)'" if "(sympy)" in out else None),
        Case("table --help names PATH#TYPE", ["table", "--help"], accept=("answer",),
             check=contains("PUZZLE_INFO.csv#TYPE")),
        # an out-of-core build stopped by Ctrl-C: its shards counted, then cleared
        Case("Ctrl-C in table lrx-11 --memory 20MB", ["table", "lrx-11", "--memory", "20MB"],
             interrupt=6.0, accept=("interrupted",)),
        Case("cache lists the stopped build", ["cache"], accept=("answer",),
             check=contains("unfinished out-of-core build")),
        Case("cache clear lrx-11", ["cache", "clear", "lrx-11"], accept=("answer",),
             check=contains("# removed 1 table")),
    ]


def _rss(pid: int) -> int:
    """Resident bytes of a process and its children now (0 once it is gone)."""
    try:
        import psutil
    except ImportError:  # the process alone, from /proc
        try:
            with open(f"/proc/{pid}/status") as f:
                return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS"))
        except (OSError, StopIteration):
            return 0
    try:
        root = psutil.Process(pid)
        return sum(p.memory_info().rss for p in [root, *root.children(recursive=True)])
    except psutil.Error:
        return 0


def run(case: Case, env: dict) -> dict:
    """Run one case; its outcome, seconds, peak bytes and verdict."""
    command = ([sys.executable, "-c", case.code] if case.code
               else [sys.executable, "-m", "permgroup", *case.args])
    began = time.monotonic()
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env, cwd=ROOT,
                               start_new_session=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    peak, stopped = 0, ""
    output: dict[str, bytes] = {}

    def read(name, stream) -> None:
        output[name] = stream.read()
    readers = [threading.Thread(target=read, args=(n, s), daemon=True)
               for n, s in (("out", process.stdout), ("err", process.stderr))]
    for r in readers:
        r.start()
    process.stdin.write(case.stdin.encode())
    process.stdin.close()
    interrupted = False
    while process.poll() is None:
        peak = max(peak, _rss(process.pid))
        elapsed = time.monotonic() - began
        if case.interrupt is not None and not interrupted and elapsed > case.interrupt:
            os.killpg(process.pid, signal.SIGINT)
            interrupted = True
        if peak > STOP or elapsed > case.limit + SLACK + 60:
            stopped = "stopped: past 3 GB" if peak > STOP else "stopped: far past its limit"
            os.killpg(process.pid, signal.SIGKILL)
        time.sleep(0.1)
    seconds = time.monotonic() - began
    for r in readers:
        r.join(10)
    try:
        usage = os.wait4(process.pid, 0)[2]  # already reaped by poll(): fall back
        peak = max(peak, usage.ru_maxrss * 1024)
    except ChildProcessError:
        pass
    out = output.get("out", b"").decode("utf-8", "replace")
    err = output.get("err", b"").decode("utf-8", "replace")
    code = process.returncode
    outcome = {0: "answer", 2: "error", 130: "interrupted"}.get(code, f"exit {code}")
    why = stopped or ""
    errors = [line for line in err.splitlines() if line.startswith("permgroup: error:")]
    if not why and "Traceback" in err:
        why = "traceback: " + err.strip().splitlines()[-1][:80]
    if not why and outcome not in case.accept:
        why = f"{outcome}, expected {' or '.join(case.accept)}"
    if not why and outcome == "error" and (not errors
                                           or err.rstrip().splitlines()[-1] != errors[-1]):
        why = "the last line of stderr is not a 'permgroup: error:' line"
    if not why and outcome == "interrupted" and "permgroup: interrupted" not in err:
        why = "no 'permgroup: interrupted' line"
    if not why and outcome in ("answer", "interrupted") and case.check is not None:
        why = case.check(out, err) or ""
    if not why and seconds > case.limit + SLACK:
        why = f"{seconds:.0f} s, past {case.limit:g} s + {SLACK:g} s"
    if not why and peak > PEAK:
        why = f"peak {peak / 1e9:.1f} GB"
    said = (errors[-1].removeprefix("permgroup: error: ") if errors
            else (err.strip().splitlines() or [""])[-1] if outcome != "answer"
            else (out.strip().splitlines() or [""])[-1])
    return {"case": case.name, "outcome": outcome, "seconds": seconds, "peak": peak,
            "traceback": "Traceback" in err, "verdict": "FAIL" if why else "ok",
            "note": why or said}


def summary(rows: list[dict]) -> str:
    """The run in a few lines: cases passed, outcomes, tracebacks, the slowest
    case and the largest peak, and the cases that failed.

    >>> print(summary([{"case": "a", "outcome": "error", "seconds": 1.0, "peak": 5e7,
    ...                 "traceback": False, "verdict": "ok", "note": ""}]))
    # 1 of 1 cases pass; 0 fail
    # outcomes: 1 error; tracebacks: 0
    # slowest: 1.0 s (a); largest peak: 50 MB (a)
    """
    failed = [r for r in rows if r["verdict"] != "ok"]
    outcomes: dict[str, int] = {}
    for r in rows:
        outcomes[r["outcome"]] = outcomes.get(r["outcome"], 0) + 1
    slow = max(rows, key=lambda r: r["seconds"])
    big = max(rows, key=lambda r: r["peak"])
    lines = [f"# {len(rows) - len(failed)} of {len(rows)} cases pass; {len(failed)} fail",
             f"# outcomes: {', '.join(f'{n} {o}' for o, n in sorted(outcomes.items()))}; "
             f"tracebacks: {sum(r['traceback'] for r in rows)}",
             f"# slowest: {slow['seconds']:.1f} s ({slow['case']}); "
             f"largest peak: {big['peak'] / 1e6:.0f} MB ({big['case']})"]
    lines += [f"# FAIL {r['case']}: {r['note']}" for r in failed]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="run only the cases whose name contains one")
    args = parser.parse_args(argv)
    folder = Path(scratch_dir("permgroup-bad-inputs-"))
    env = dict(os.environ, PERMGROUP_CACHE=str(folder / "cache"),
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    chosen = [c for c in cases(files(folder))
              if not args.names or any(n.lower() in c.name.lower() for n in args.names)]
    print(f"{'case':<42} {'outcome':<12} {'s':>6} {'peak MB':>8} {'tb':<3} verdict  note",
          flush=True)
    rows = []
    for case in chosen:
        row = run(case, env)
        rows.append(row)
        print(f"{row['case'][:42]:<42} {row['outcome']:<12} {row['seconds']:>6.1f} "
              f"{row['peak'] / 1e6:>8.0f} {'yes' if row['traceback'] else 'no':<3} "
              f"{row['verdict']:<7}  {row['note'][:110]}", flush=True)
    if not rows:
        print("# no case matches")
        return 0
    print(summary(rows))
    print(machine_note())
    return min(sum(r["verdict"] != "ok" for r in rows), 100)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
