"""Bad input from a careless or hostile user (issue 36): text that is not
UTF-8, numeric options out of range.  Each gets one ``permgroup: error:``
line naming what is wrong and exit status 2, never a traceback or a wrong
answer; text with a byte-order mark (as Excel saves it) is read."""
from __future__ import annotations

import re

import pytest

from permgroup.errors import InputError
from permgroup.formats import read_definition
from permgroup.formats.text import decode
from tests.conftest import DATA, ROOT
from tests import test_cli
from tests.test_cli import assert_usage_error

SANTA = DATA / "santa2023"
INFO = str(SANTA / "puzzle_info.csv")
cli = test_cli.cli  # the fixture: a command in this process
SKEWB = ROOT / "puzzles" / "definitions" / "skewb.tws"


def santa_rows(n: int) -> str:
    lines = (SANTA / "puzzles.csv").read_text(encoding="utf-8").splitlines()
    return "\n".join(lines[:n + 1]) + "\n"


def test_a_latin1_santa_file_is_refused_naming_line_and_byte_not_answered(cli, tmp_path):
    # è and é are distinct colours; a lossy decode made both U+FFFD and solved
    # the wrong puzzle, exiting 0
    text = santa_rows(3).replace("A;", "è;").replace("B;", "é;")
    path = tmp_path / "puzzles.csv"
    path.write_bytes(text.encode("latin-1"))
    result = cli("solve", "santa2023", str(path), "--info", INFO)
    assert_usage_error(result, f"{path}, line 2, byte 14: 0xe8 is not UTF-8")
    assert result.stdout == ""


@pytest.mark.parametrize("data, where", [
    (b"Name x\n\xff\n", "line 2, byte 1: 0xff"),
    (b"Name caf\xe9\n", "line 1, byte 9: 0xe9"),
    ("Name x\n".encode("utf-16"), "the file is UTF-16"),
])
def test_a_definition_file_that_is_not_utf8_is_refused(tmp_path, data, where):
    path = tmp_path / "bad.tws"
    path.write_bytes(data)
    with pytest.raises(InputError, match=where):
        read_definition(path)


def test_a_byte_order_mark_is_accepted_in_definitions_santa_files_and_stdin(cli, tmp_path):
    bom = b"\xef\xbb\xbf"
    tws = tmp_path / "skewb.tws"
    tws.write_bytes(bom + SKEWB.read_bytes())
    read, original = read_definition(tws), read_definition(SKEWB)
    assert read.orbits == original.orbits
    assert (read.solved, read.moves) == (original.solved, original.moves)
    csv = tmp_path / "puzzles.csv"
    csv.write_bytes(bom + santa_rows(1).encode())
    result = cli("solve", "santa2023", str(csv), "--info", INFO)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("id,moves\n0,")
    result = cli("word", "skewb", stdin="\ufeffURF URB\n")
    assert result.returncode == 0 and result.stdout.startswith("URB' URF'\n"), result


def test_decode_counts_lines_and_bytes_from_one():
    with pytest.raises(InputError, match=r"^s, line 3, byte 2: 0x80"):
        decode(b"a\n\nb\x80", "s")
    assert decode(b"", "s") == ""


@pytest.mark.parametrize("args, words", [
    (["optimal", "skewb", "--time-limit", "0"], ["--time-limit", "more than 0 seconds, got 0"]),
    (["word", "skewb", "--time-limit", "-1"], ["--time-limit", "got -1"]),
    (["word", "skewb", "--time-limit", "nan"], ["--time-limit", "got nan"]),
    (["word", "skewb", "--time-limit", "inf"], ["--time-limit", "finite"]),
    (["word", "skewb", "--time-limit", "soon"], ["--time-limit", "'soon'"]),
    (["solve", "santa2023", "--time-limit", "0"], ["--time-limit", "got 0"]),
    (["solve", "cube3-facelets", "--time-limit", "-1"], ["--time-limit", "got -1"]),
    (["solve", "santa2023", "--jobs", "0"], ["--jobs", "at least 1, got 0"]),
    (["solve", "santa2023", "--jobs", "-1"], ["--jobs", "at least 1, got -1"]),
    (["solve", "santa2023", "--jobs", "2.5"], ["--jobs", "whole number", "'2.5'"]),
    (["solve", "zoj2477", "--max-depth", "-1"], ["--max-depth", "at least 0"]),
    (["solve", "cube3-facelets", "--max-length", "-3"], ["--max-length", "at least 0"]),
    (["table", "skewb", "--memory", ""], ["--memory ''", "4GB"]),
    (["table", "skewb", "--memory", "0.5"], ["--memory '0.5'", "at least 1 MB"]),
    (["optimal", "skewb", "--memory", "10"], ["--memory '10'", "at least 1 MB"]),
    (["table", "skewb", "--workers", "0"], ["--workers", "at least 1"]),
    (["table", "skewb", "--workers", "3"], ["--workers is for a build on Dask", "--dask"]),
    (["table", "skewb", "--scheduler", "tcp://x:1"], ["--scheduler", "--dask"]),
])
def test_numeric_options_out_of_range_are_refused_before_any_work(cli, args, words):
    result = cli(*args)
    assert_usage_error(result, *words)
    assert result.stdout == ""


def test_ctrl_c_is_one_line_and_exit_130(cli, monkeypatch):
    import permgroup.cli

    def interrupted(args):
        print("answered so far")
        raise KeyboardInterrupt
    monkeypatch.setattr(permgroup.cli, "cmd_order", interrupted)
    result = cli("order", "skewb")
    assert result.returncode == 130
    assert result.stdout == "answered so far\n"
    assert result.stderr == "permgroup: interrupted\n"


def test_ctrl_c_in_santa2023_with_two_jobs_writes_the_rows_solved(tmp_path):
    """A real SIGINT to the process group, as a terminal sends it: the workers
    leave it to the parent, which writes the rows solved and one line."""
    import os
    import signal
    import subprocess
    import sys
    import threading
    import time

    script = tmp_path / "run.py"
    script.write_text(
        "import sys, time\n"
        "from puzzles.formats import santa2023\n"
        "real = santa2023.solve\n"
        "def solve(door, start, goal, **options):\n"
        "    if len(start) == 10:  # the wreaths wait for the Ctrl-C\n"
        "        time.sleep(300)\n"
        "    return real(door, start, goal, **options)\n"
        "santa2023.solve = solve\n"
        "from permgroup.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n")
    process = subprocess.Popen(
        [sys.executable, str(script), "solve", "santa2023", str(SANTA / "puzzles.csv"),
         "--info", INFO, "--only", "cube_2/2/2", "wreath_6/6", "--jobs", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)), start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    err: list[str] = []
    reader = threading.Thread(target=lambda: err.extend(iter(lambda: process.stderr.read(1), "")))
    reader.start()
    began = time.monotonic()
    while "2/4 rows" not in "".join(err) and time.monotonic() - began < 400:
        time.sleep(0.2)
    os.killpg(process.pid, signal.SIGINT)
    out = process.stdout.read()
    process.wait(60)
    reader.join(10)
    stderr = "".join(err)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert stderr.rstrip().splitlines()[-1] == (
        "permgroup: interrupted: 2 of 4 rows solved before Ctrl-C, written; 2 not finished")
    assert [line.split(",")[0] for line in out.splitlines()] == ["id", "0", "1"]
    from permgroup.formats.santa import apply_word, read_puzzle_info, read_puzzles, with_inverses
    from permgroup.formats.text import read_text

    info = read_puzzle_info(read_text(INFO))
    rows = {r.id: r for r in read_puzzles(read_text(SANTA / "puzzles.csv"), info)}
    for line in out.splitlines()[1:]:
        ident, word = line.split(",")
        row = rows[ident]
        final = apply_word(row.start, with_inverses(info[row.type]), word.split("."))
        assert row.mismatches(final) <= row.wildcards


# --- the Python API: wrong types and values say what was expected -------------

def _api_cases():
    import math

    from permgroup import explore
    from permgroup.elements import Element
    from puzzles import cube3, cubic_eight, families, minicube, torus

    skewb = explore.load_puzzle("skewb")
    solved3 = "".join(c * 9 for c in "URFDLB")
    return {
        "structure(None)": (lambda: explore.structure(None), TypeError,
                            "structure: expected a Puzzle"),
        "reachable(None)": (lambda: explore.reachable(None), TypeError, "reachable: expected"),
        "reachable('cube3')": (lambda: explore.reachable("cube3"), InputError, "which state?"),
        "reachable('cube3', 42)": (lambda: explore.reachable("cube3", 42), TypeError, "not int"),
        "commutators(42)": (lambda: explore.commutators(42), TypeError, "commutators: expected"),
        "commutators(per_effect=0)": (lambda: explore.commutators("cube3", per_effect=0),
                                      InputError, "per_effect must be at least 1"),
        "draw(p, 42)": (lambda: explore.draw(skewb, 42), TypeError, "draw: expected moves"),
        "draw(width=nan)": (lambda: explore.draw(skewb, "URF", width=math.nan), InputError,
                            "width must be a finite number above 0, got nan"),
        "draw(None)": (lambda: explore.draw(None), TypeError, "draw: expected a Puzzle"),
        "order(None)": (lambda: explore.order(None), TypeError, "order: expected"),
        "distribution(p, 'foo')": (lambda: explore.distribution(skewb, "foo"), InputError,
                                   "unknown metric 'foo'"),
        "subgroup(p, 42)": (lambda: explore.subgroup(skewb, 42), TypeError, "subgroup"),
        "load_puzzle(None)": (lambda: explore.load_puzzle(None), TypeError, "load_puzzle"),
        "define_puzzle({})": (lambda: explore.define_puzzle("x", {}), InputError, "moves must"),
        "define_puzzle('ab')": (lambda: explore.define_puzzle("x", {"a": "ab"}), InputError,
                                "x: move 'a' must be a sympy Permutation"),
        "distance(None, None)": (lambda: explore.distance(None, None), TypeError, "an Element"),
        "solve(p, None)": (lambda: explore.solve(skewb, None), TypeError, "a state is"),
        "solve(time_limit=-1)": (lambda: explore.solve(skewb, skewb.solved, time_limit=-1),
                                 InputError, "more than 0 seconds"),
        "commutator_for(42)": (lambda: explore.commutator_for(42), TypeError, "an Element"),
        "Element.from_word(p, 42)": (lambda: Element.from_word(skewb, 42), TypeError, "moves"),
        "Element(p, (0,))": (lambda: Element(skewb, (0,)), InputError, "not a permutation"),
        "minicube.distance(None, None)": (lambda: minicube.distance(None, None), TypeError,
                                          "first cube"),
        "minicube.apply_moves(42)": (lambda: minicube.apply_moves("U" * 24, 42), TypeError,
                                     "moves"),
        "cube3.solve(time_limit=nan)": (lambda: cube3.solve(solved3, time_limit=math.nan),
                                        InputError, "finite"),
        "cube3.solve(max_length=-1)": (lambda: cube3.solve(solved3, max_length=-1), InputError,
                                       "max_length must be at least 0"),
        "cube3.facelets(None)": (lambda: cube3.facelets(None), TypeError, "facelets"),
        "torus.apply_moves(42)": (lambda: torus.apply_moves("A" * 16, 42), TypeError, "moves"),
        "cubic_eight.distance(99)": (lambda: cubic_eight.distance(99, "WWWWEWWWW"), InputError,
                                     "expected a cell 0..8"),
        "cubic_eight.solve('x')": (lambda: cubic_eight.solve(0, "x"), InputError,
                                   "nine letters"),
        "families.lrx('x')": (lambda: families.lrx("x"), TypeError, "whole numbers"),
        "families.lrx(10**9)": (lambda: families.lrx(10 ** 9), InputError, "at most 256"),
    }


@pytest.mark.parametrize("case", list(_api_cases()))
def test_the_api_refuses_bad_arguments_with_one_line_naming_what_it_expected(case):
    call, kind, words = _api_cases()[case]
    with pytest.raises(InputError) as caught:  # InputTypeError is a TypeError too
        call()
    assert isinstance(caught.value, kind)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_numbers_name_a_familys_points():
    # a family's colours are point0, point1...; 0..n-1 stand for them
    from permgroup import explore

    assert explore.reachable("lrx-5", [0, 1, 2, 3, 4])
    assert explore.reachable("lrx-5", [1, 2, 3, 4, 0])  # one shift
    from permgroup.words import apply_word

    lrx = explore.load_puzzle("lrx-5")
    start = [1, 2, 3, 4, 0]
    word = explore.solve(lrx, start)
    assert len(word) == 1
    assert apply_word(lrx, [lrx.solved[i] for i in start], word) == lrx.solved


def test_draw_takes_a_puzzles_name_and_shows_what_it_is_in_a_console():
    from permgroup import explore

    svg = explore.draw("skewb", "URF")
    assert repr(svg).startswith("<SVG picture") and "<svg" not in repr(svg)
    assert svg._repr_svg_().startswith("<svg")


def test_a_power_of_a_move_whose_name_ends_in_a_digit_reads_as_the_hint_says(cli):
    # the hint "a number is a power: f02" named a move the reader then refused
    info = f"{INFO}#cube_2/2/2"
    result = cli("word", info, stdin="Q\n")
    assert_usage_error(result, "a number is a power: f02")
    result = cli("optimal", info, stdin="f02\n")
    assert result.returncode == 0 and result.stdout.split() in (["f0", "f0"], ["-f0", "-f0"])


def test_packed_builds_a_two_bit_table(cli):
    assert cli("table", "pyraminx-notips", "--packed").returncode == 0
    assert "2 bits a state" in cli("cache").stdout


def test_counts_of_one_are_singular(cli):
    result = cli("word", "skewb", stdin="URF\n")
    assert result.stdout.splitlines()[-1] == "# 1 line; proven optimal: all"


@pytest.mark.parametrize("args, stdin, words", [
    (["order", "megamix"], "", "(did you mean 'megaminx'?)"),
    (["order", "lrx5"], "", "(did you mean 'lrx-5'?)"),
    (["solve", "uva1107"], "", "'uva1107' (did you mean 'uva11007'?)"),
    (["table", "minicube", "--metric", "HTM"], "", "(did you mean 'htm'?)"),
    (["tabel", "minicube"], "", "(did you mean 'table'?)"),
    (["word", "minicube"], "r U\n", "unknown move 'r' (did you mean 'R'?)"),
])
def test_a_mistyped_name_gets_a_did_you_mean(cli, args, stdin, words):
    assert_usage_error(cli(*args, stdin=stdin), words)


@pytest.mark.parametrize("name", ["Skewb", "LRX-5"])
def test_a_name_in_another_case_is_the_puzzle(cli, name):
    result = cli("order", name)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == cli("order", name.lower()).stdout.splitlines()[0]


@pytest.mark.parametrize("puzzle", [str(DATA / "gap" / "ring.gap"), "cube-2"])
def test_order_never_says_a_bound_above_the_order_is_fewer(cli, puzzle):
    # ring.gap's order is 48: "at most 192 of them, fewer than the order" was false
    out = cli("order", puzzle).stdout
    order = int(out.splitlines()[0].removeprefix("order: "))
    bound = re.search(r"at most ([\d,]+) of them", out)
    # cube-2's stickers are all distinct (Santa's cube_2/2/2): its states are elements
    assert (bound is None) == (puzzle == "cube-2")
    if bound:
        assert int(bound.group(1).replace(",", "")) <= order
    if "fewer than the order" in out:
        assert int(bound.group(1).replace(",", "")) < order


def test_more_jobs_than_cores_are_cut_to_the_cores_with_a_warning(cli, monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    result = cli("solve", "uva11007", str(ROOT / "examples" / "uva11007.txt"), "--jobs", "64")
    assert "permgroup: warning: --jobs 64: this machine has 2 cores; using 2" in result.stderr
    assert_usage_error(result, "uva11007 takes no --jobs")
