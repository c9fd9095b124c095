"""Fuzzing the command line as a careless or hostile user would (issue 36):
damaged definition files, Santa files, words and options.  Every run ends in
exit status 0 with an answer this file checks by its own means, or exit
status 2 with one ``permgroup: error:`` line; never a traceback, never a
wrong answer, and within its time limit.

The examples are derandomized (the same ones every run, so CI is stable) and
few: the point is breadth over the grammar of each input, not volume.
"""
from __future__ import annotations

import ast
import contextlib
import csv
import io
import math
import re
import sys
import time

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from permgroup.cli import main
from tests.conftest import DATA, ROOT

FUZZ = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def run(args: list[str], stdin: str = "") -> tuple[int, str, str, float]:
    """The command in this process: exit status, stdout, stderr and seconds of
    CPU (a time limit is checked against the work done, which a machine
    shared by other jobs does not stretch as it stretches the wall clock)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()))
    began = time.process_time()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(args)
            except SystemExit as exc:  # argparse: usage errors
                code = exc.code
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue(), time.process_time() - began


def assert_clear(code: int, err: str) -> None:
    """Exit 0, or exit 2 with a ``permgroup: error:`` line last (santa2023
    also names each row not solved on such a line); no traceback."""
    assert code in (0, 2), (code, err)
    assert "Traceback" not in err, err
    if code == 2:
        assert err.rstrip().splitlines()[-1].startswith("permgroup: error: "), err


# --- definition files: real ones, damaged ------------------------------------

SOURCES = {
    ".tws": (ROOT / "puzzles" / "definitions" / "skewb.tws").read_bytes(),
    ".kpuzzle.json": (ROOT / "puzzles" / "definitions" / "2x2x2.kpuzzle.json").read_bytes(),
    ".gap": (DATA / "gap" / "ring.gap").read_bytes(),
}
NUMBERS = [b"-1", b"0", b"1", b"2", b"3", b"7", b"99", b"4294967296", b"18446744073709551616",
           b"1e3", b"", b"x"]
JUNK = [b"Move", b"End", b"Set", b"{", b"}", b"[", b"]", b"(", b")", b",", b":", b";", b'"',
        b"\xff", b"\xef\xbb\xbf", b"\x00", b"\r\n", b"\n\n", b"#", "é".encode(), b"M_M_T"]


@st.composite
def damaged(draw) -> tuple[str, bytes]:
    suffix = draw(st.sampled_from(sorted(SOURCES)))
    data = SOURCES[suffix]
    for _ in range(draw(st.integers(1, 3))):
        numbers = [m.span() for m in re.finditer(rb"-?\d+", data)]
        kind = draw(st.sampled_from(["number", "junk", "cut", "delete line", "repeat line"]))
        if kind == "number" and numbers:
            a, b = draw(st.sampled_from(numbers))
            data = data[:a] + draw(st.sampled_from(NUMBERS)) + data[b:]
        elif kind == "junk":
            at = draw(st.integers(0, len(data)))
            data = data[:at] + draw(st.sampled_from(JUNK)) + data[at:]
        elif kind == "cut":
            data = data[:draw(st.integers(0, len(data)))]
        else:
            lines = data.split(b"\n")
            k = draw(st.integers(0, len(lines) - 1))
            lines[k:k + 1] = [] if kind == "delete line" else [lines[k], lines[k]]
            data = b"\n".join(lines)
    return suffix, data


@FUZZ
@given(damaged())
def test_a_damaged_definition_file_is_refused_clearly_or_its_order_is_sympys(
        tmp_path_factory, case):
    from permgroup.formats import read_definition
    from permgroup.formats.stickers import to_puzzle

    suffix, data = case
    path = tmp_path_factory.mktemp("def") / f"fuzzed{suffix}"
    path.write_bytes(data)
    code, out, err, _ = run(["order", str(path)])
    assert_clear(code, err)
    if code == 0:  # the order printed is sympy's order of the same moves
        order = int(re.search(r"^order: (\d+)$", out, re.M).group(1))
        assert order == to_puzzle(read_definition(path)).group().order()


# --- Santa 2023 files ----------------------------------------------------------

INFO_ROWS = [line for line in (DATA / "santa2023" / "puzzle_info.csv").read_text().splitlines()
             if line.startswith(("puzzle_type", "wreath_6/6", "cube_2/2/2"))]
MOVES = {kind: {name: np.array(p) for name, p in ast.literal_eval(moves).items()}
         for kind, moves in csv.reader(INFO_ROWS[1:])}
for _moves in MOVES.values():  # Santa's inverse of each move, named -name
    _moves.update({f"-{name}": np.argsort(p) for name, p in list(_moves.items())})
GOALS = {"wreath_6/6": "C;A;C;A;A;A;B;B;B;B",
         "cube_2/2/2": ";".join(c for c in "ABCDEF" for _ in range(4))}


def apply_santa(state: list[str], moves: dict, word: list[str]) -> list[str]:
    """Santa's convention, written here independently: a move p takes the
    state s to s[p]."""
    s = np.array(state)
    for name in word:
        s = s[moves[name]]
    return list(s)


@st.composite
def santa_file(draw) -> tuple[bytes, dict]:
    rows, wanted = ["id,puzzle_type,solution_state,initial_state,num_wildcards"], {}
    for ident in range(draw(st.integers(1, 2))):
        kind = draw(st.sampled_from(sorted(GOALS)))
        goal = GOALS[kind].split(";")
        names = sorted(n for n in MOVES[kind] if not n.startswith("-"))
        if draw(st.booleans()):  # reachable: moves from the goal
            start = apply_santa(goal, MOVES[kind], draw(st.lists(st.sampled_from(names),
                                                                 max_size=6)))
        else:  # any arrangement: reachable or not
            start = draw(st.permutations(goal))
        wildcards = draw(st.sampled_from(["0", "0", "1", "2", "-1", "", "x", "99"]))
        fields = [str(ident), kind, ";".join(goal), ";".join(start), wildcards]
        if draw(st.integers(0, 4)) == 0:  # damage one field
            k = draw(st.integers(0, 4))
            fields[k] = draw(st.sampled_from(["", "Z", "A;A", "nope/1", "0", "é;" + fields[k]]))
        rows.append(",".join(fields))
        wanted[fields[0]] = (fields[1], fields[3].split(";"), fields[2].split(";"), fields[4])
    text = "\n".join(rows) + "\n"
    data = text.encode()
    form = draw(st.sampled_from(["plain", "plain", "bom", "crlf", "latin-1"]))
    if form == "bom":
        data = b"\xef\xbb\xbf" + data
    elif form == "crlf":
        data = text.replace("\n", "\r\n").encode()
    elif form == "latin-1":
        data = text.encode("latin-1", errors="replace")
    return data, wanted


@settings(FUZZ, max_examples=12)
@given(santa_file())
def test_a_fuzzed_santa_file_gets_checked_rows_or_one_error_line(tmp_path_factory, case):
    data, wanted = case
    folder = tmp_path_factory.mktemp("santa")
    (folder / "info.csv").write_text("\n".join(INFO_ROWS) + "\n")
    (folder / "puzzles.csv").write_bytes(data)
    code, out, err, seconds = run(["solve", "santa2023", str(folder / "puzzles.csv"),
                                   "--info", str(folder / "info.csv"), "--time-limit", "1"])
    assert_clear(code, err)
    assert seconds < len(wanted) * 1 + 10
    lines = out.splitlines()
    if lines:
        assert lines[0] == "id,moves"
    for line in lines[1:]:  # every row written solves its puzzle
        ident, word = line.split(",")
        kind, start, goal, wildcards = wanted[ident]
        final = apply_santa(start, MOVES[kind], word.split(".") if word else [])
        assert sum(a != b for a, b in zip(final, goal)) <= int(wildcards)
    if code == 0:
        assert len(lines) == len(wanted) + 1


# --- words -----------------------------------------------------------------------

SKEWB_MOVES = ["URF", "URB", "DRF", "ULF"]


def inverse(letters: list[tuple[str, int]]) -> list[tuple[str, int]]:
    return [(name, -k) for name, k in reversed(letters)]


@st.composite
def alg(draw, depth: int = 0) -> tuple[str, list[tuple[str, int]]]:
    """An alg and its letters, expanded here by the definitions of alg notation."""
    units = []
    for _ in range(draw(st.integers(1, 3))):
        nested = ["group", "commutator", "conjugate"] if depth < 2 else []
        kind = draw(st.sampled_from(["move"] * 3 + nested))
        if kind == "move":
            text, letters = draw(st.sampled_from(SKEWB_MOVES)), []
        else:
            (a, first), (b, second) = draw(alg(depth + 1)), draw(alg(depth + 1))
            if kind == "group":
                text, letters = f"({a} {b})", first + second
            elif kind == "commutator":
                text = f"[{a}, {b}]"
                letters = first + second + inverse(first) + inverse(second)
            else:
                text, letters = f"[{a}: {b}]", first + second + inverse(first)
        amount = draw(st.sampled_from(["", "", "2", "'", "2'", "3"]))
        k = (int(amount.rstrip("'")) if amount.rstrip("'") else 1) * (-1 if "'" in amount else 1)
        if kind == "move":
            letters = [(text, k)]
        else:
            letters = letters * k if k > 0 else inverse(letters) * -k
        units.append((text + amount, letters))
    return " ".join(t for t, _ in units), [x for _, ls in units for x in ls]


@st.composite
def word_lines(draw) -> tuple[str, list]:
    lines, expected = [], []
    for _ in range(draw(st.integers(1, 3))):
        text, letters = draw(alg())
        if draw(st.integers(0, 3)) == 0:  # damage it: it may stay valid, or not
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(st.sampled_from(["Q", "(", "]", ":", "'", "99", "é",
                                                     "\t", "URF0", ",,"])) + text[at:]
            letters = None
        lines.append(text)
        expected.append(letters)
    return "\n".join(lines) + "\n", expected


@settings(FUZZ, max_examples=15)
@given(word_lines())
def test_fuzzed_words_get_solving_words_or_one_error_line(case):
    from permgroup import explore
    from permgroup.perm import compose, identity, power

    text, expected = case
    code, out, err, _ = run(["word", "skewb"], stdin=text)
    assert_clear(code, err)
    skewb = explore.load_puzzle("skewb")

    def position(letters):
        g = identity(skewb.degree)
        for name, k in letters:
            g = compose(g, power(skewb.generators[name], k % 3))
        return g

    answers = [line for line in out.splitlines() if not line.startswith("#")]
    if code == 0:
        assert len(answers) == len(expected)
    for letters, answer in zip(expected, answers):
        if letters is None:
            continue
        made = position(letters)
        solving = [(m.rstrip("'"), -1 if m.endswith("'") else 1) for m in answer.split()]
        assert compose(made, position(solving)) == identity(skewb.degree), (letters, answer)


# --- options ---------------------------------------------------------------------

SECONDS = ["0.5", "2", "0", "-1", "nan", "inf", "x", ""]
COUNTS = ["0", "1", "2", "-1", "x", "2.5", ""]
VALUES = {"--metric": ["qtm", "htm", "gens", "HTM", ""], "--time-limit": SECONDS,
          "--memory": ["1MB", "50MB", "2GB", "0", "0.5", "", "lots", "1e9"],
          "--jobs": COUNTS, "--workers": COUNTS, "--max-depth": COUNTS, "--max-length": COUNTS,
          "--only": ["wreath_6/6", "0", "nope"], "--info": ["/nonexistent.csv", ""],
          "--scheduler": ["tcp://127.0.0.1:9"], "--packed": None, "--states": None}
#: each command's own options (another's is drawn now and then)
OPTIONS = {"order": [], "table": ["--metric", "--packed", "--memory", "--workers", "--scheduler"],
           "optimal": ["--metric", "--time-limit", "--memory"],
           "word": ["--metric", "--time-limit", "--memory", "--states"],
           "solve": ["--max-depth", "--max-length", "--info", "--time-limit", "--only", "--jobs"]}
COMMANDS = {
    "order": [["lrx-5"], ["skewb"], ["Skewb"], ["lrx-2"], ["nope.tws"]],
    "table": [["lrx-5"], ["lrx-6"], ["pancake-4"], ["skewb", "--metric", "gens"]],
    "optimal": [["lrx-5"], ["minicube"]],
    "word": [["lrx-5"], ["skewb"]],
    "solve": [[name, str(ROOT / "examples" / f"{name}.txt")]
              for name in ("uva11007", "minicube-pair", "zoj2477")]
    + [["santa2023", "/nonexistent.csv"]],
}
#: the sizes of the groups above, for checking what table prints
TOTALS = {"lrx-5": math.factorial(5), "lrx-6": math.factorial(6), "pancake-4": 24,
          "skewb": 3149280}


@st.composite
def command_line(draw) -> list[str]:
    command = draw(st.sampled_from(sorted(COMMANDS)))
    args = [command, *draw(st.sampled_from(COMMANDS[command]))]
    own = OPTIONS[command] or sorted(VALUES)
    pool = st.one_of(st.sampled_from(own), st.sampled_from(sorted(VALUES))) if own else \
        st.sampled_from(sorted(VALUES))
    for option in draw(st.lists(st.sampled_from(own) if draw(st.integers(0, 4)) else pool,
                                max_size=3, unique=True)):
        args += [option] if VALUES[option] is None else [option,
                                                         draw(st.sampled_from(VALUES[option]))]
    return args


@settings(FUZZ, max_examples=40)
@given(command_line())
def test_fuzzed_options_are_refused_clearly_or_answered_correctly(args):
    # lines of moves for optimal and word: one real line, one blank
    code, out, err, seconds = run(args, stdin="L X L\n\n" if "lrx-5" in args else "R U\n\n")
    assert_clear(code, err)
    if code == 0 and args[0] == "table":
        counts = [int(line.split("\t")[1]) for line in out.splitlines() if "\t" in line]
        assert sum(counts) == TOTALS[args[1]]
    if code == 0 and args[0] == "order" and args[1] == "lrx-5":
        assert "order: 120\n" in out
    assert seconds < 60 + 10
