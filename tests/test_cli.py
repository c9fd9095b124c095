"""The command line as a new user meets it: argument errors, help, version,
unknown names and moves, what ``order`` says it counts.  Commands run in a
fresh process where the exit status and stderr are the point."""
from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from permgroup import __version__
from permgroup.cli import main
from puzzles import LIBRARY, PUZZLES, puzzle_names
from puzzles.formats import FORMATS
from tests.conftest import ROOT


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """The command in a fresh process, as a user types it."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "permgroup", *args], input=stdin,
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)


@pytest.fixture
def cli(capsys, monkeypatch):
    """The command in this process (faster): its exit status, stdout and stderr."""
    def call(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
        monkeypatch.chdir(ROOT)
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
        try:
            status = main(list(args))
        except SystemExit as exc:  # argparse: help, version, usage errors
            status = exc.code
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(args, status, out, err)
    return call


def assert_usage_error(result: subprocess.CompletedProcess, *words: str) -> None:
    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("permgroup: error: "), result.stderr
    for word in words:
        assert word in last, (word, last)


@pytest.mark.parametrize("args, words", [
    (["table", "minicube", "--metric", "foo"], ["--metric", "'foo'", "qtm", "htm"]),
    (["table", "minicube", "--metric", "HTM"], ["'HTM'"]),
    (["optimal", "skewb", "--metric", "stm"], ["'stm'"]),
    (["solve", "nosuchformat"], ["FORMAT", "'nosuchformat'", "uva11007", "santa2023"]),
    (["table", "gigaminx"], ["unknown puzzle 'gigaminx'", "minicube", "skewb", ".tws"]),
    (["order", "no/such/file.tws"], ["cannot read no/such/file.tws"]),
    (["solve", "uva11007", "examples/uva11007.txt", "--max-depth", "3"],
     ["uva11007 takes no --max-depth"]),
    (["solve", "zoj2477", "examples/zoj2477.txt", "--timeout", "3"],
     ["zoj2477 takes no --timeout", "--max-depth"]),
    (["solve", "zoj2477", "--max-depth", "three"], ["--max-depth", "'three'"]),
    (["table"], ["PUZZLE"]),
    ([], ["COMMAND"]),
    (["tabel", "minicube"], ["'tabel'"]),
    (["table", "cubic-eight", "--metric", "htm"], ["rolls", "'htm'"]),
])
def test_argument_errors_exit_2_with_one_named_line(cli, args, words):
    assert_usage_error(cli(*args), *words)


def test_a_bad_metric_in_a_fresh_process_is_one_line_not_a_traceback():
    result = run("table", "minicube", "--metric", "foo")
    assert_usage_error(result, "--metric")
    assert result.stdout == ""


def test_version(cli):
    result = cli("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"permgroup {__version__}"


def test_help_lists_formats_and_puzzles_with_a_line_each_and_examples(cli):
    top = cli("--help").stdout
    assert "examples:" in top and "The ``permgroup`` command line." not in top
    for command in ("solve", "table", "order", "optimal", "word"):
        assert f"    {command} " in top
    solve = cli("solve", "--help").stdout
    for name in FORMATS:
        line = next(l for l in solve.splitlines() if l.startswith(f"  {name} "))
        assert len(line.split()) > 3, line  # the name, then what it is
    assert "--max-depth N" in solve and "examples:" in solve and "FORMAT" in solve
    for command in ("table", "order", "optimal", "word"):
        text = cli(command, "--help").stdout
        listed = [l.split()[0] for l in text.split("PUZZLE names:")[1].splitlines()[1:]
                  if l.startswith("  ") and not l.startswith("  (")]
        names = list(puzzle_names())  # built-in puzzles, the library, the families
        assert listed[:len(names)] == names and len(names) > len(PUZZLES) + len(LIBRARY), command
        assert "examples:" in text and f"permgroup {command} " in text


def test_every_option_has_help():
    import argparse

    from permgroup.cli import parser

    def actions(p: argparse.ArgumentParser):
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    yield from actions(sub)
            else:
                yield action

    missing = [a.dest for a in actions(parser()) if not a.help and a.dest != "command"]
    assert not missing, missing


@pytest.mark.parametrize("puzzle, line, moves", [
    ("skewb", "URF Q", "URF, URB, DRF, ULF"),
    ("minicube", "R Q", "U, R, F, D, L, B"),
    ("3x3x3", "[R, Q]", "U, R, F, D, L, B"),
])
def test_an_unknown_move_names_the_valid_moves(cli, puzzle, line, moves):
    result = cli("optimal", puzzle, stdin=line + "\n")
    assert_usage_error(result, "line 1: ", "unknown move 'Q'", f"moves are {moves}")


def test_order_says_what_the_number_counts(capsys):
    from puzzles import cubic_eight

    assert main(["order", "cubic-eight"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"order: {cubic_eight.PUZZLE.group().order()}"
    assert "not a count of positions" in out[1]
    reached = int(out[2].split(": ")[1].split()[0])
    assert reached == sum(cubic_eight.table().distribution()) < cubic_eight.SPACE.size
    assert main(["order", "rubiksrevenge"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "order: 20922789888000"
    # 16 cells in four colours, four of each: 16! / 4!^4
    assert "colourings" in out[1] and "63,063,000" in out[1]
