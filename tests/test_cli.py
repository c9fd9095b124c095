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
    (["solve", "zoj2477", "examples/zoj2477.txt", "--jobs", "3"],
     ["zoj2477 takes no --jobs", "--max-depth"]),
    (["solve", "cube3-facelets", "examples/cube3-facelets.txt", "--timeout", "3"],
     ["unrecognized arguments: --timeout"]),
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


# --- bounded work: time limits, memory budgets, progress, the cache -----------------

T_PERM = "R U R' U' R' F R2 U' R' U' R U R' F'"  # 15 quarter turns from solved


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PERMGROUP_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_optimal_gives_up_on_time_with_one_line_per_unanswered_case(cli):
    import time

    began = time.monotonic()
    result = cli("optimal", "3x3x3", "--time-limit", "1", stdin=f"{T_PERM}\nR U\n")
    assert time.monotonic() - began < 15
    assert result.returncode == 0, result.stderr
    first, second, summary = result.stdout.splitlines()
    assert first.startswith("# line 1: no optimal solution within the time limit of 1 s")
    ruled_out = int(first.split("every word of up to ")[1].split()[0])
    assert 0 < ruled_out < 15  # a true lower bound: the T-perm takes 15
    assert second == "U' R'"
    assert summary.startswith("# 2 lines: 1 answered, 1 not (line 1)")


def test_optimal_stays_within_its_memory_budget(cli):
    result = cli("optimal", "3x3x3", "--memory", "30MB", stdin=T_PERM + "\n")
    assert result.stdout.startswith("# line 1: no optimal solution within the memory budget "
                                    "of 30,000,000 bytes")
    assert_usage_error(cli("optimal", "3x3x3", "--memory", "lots"), "--memory 'lots'")


def test_optimal_minicube_uses_the_rotation_normalised_table(cli, fresh_cache, monkeypatch):
    from permgroup.cache import cache_entries
    from puzzles import minicube

    monkeypatch.setattr(minicube, "_TABLES", {})  # none in memory: the cache is used

    solved = "UUUURRRRFFFFDDDDLLLLBBBB"
    lines = ["R U R' U'", "", "F2 [R, U] D' B L"]
    result = cli("optimal", "minicube", stdin="\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    answers = result.stdout.splitlines()
    assert len(answers) == 3 and answers[1] == ""
    for line, answer in zip(lines, answers):
        position = minicube.apply_moves(solved, line.replace("[R, U]", "R U R' U'"))
        # applied to the position as it is, the answer solves it (up to orientation)
        assert minicube.same_state(minicube.apply_moves(position, answer), solved)
        assert len(answer.split()) == minicube.distance(position, solved)
    (entry,) = cache_entries()  # one table, a byte for each state up to rotation
    assert (entry.puzzle, entry.metric, entry.form) == ("minicube", "qtm", "table (1 byte a state)")
    assert 3_674_160 < entry.size < 3_674_160 + 1000
    # the same file permgroup table minicube loads
    table = cli("table", "minicube")
    assert table.stdout.endswith("# total 3674160, diameter 14\n")
    assert table.stderr == "minicube (qtm): loaded from the cache\n"
    assert_usage_error(cli("optimal", "minicube", stdin="R x\n"), "line 1", "unknown move 'x'",
                       "moves are U, R, F, D, L, B")


def test_a_build_shows_a_bar_on_stderr_then_one_line_from_the_cache(cli, fresh_cache,
                                                                   monkeypatch):
    from permgroup import progress

    monkeypatch.setattr(progress, "DELAY", 0)
    built = cli("table", "pyraminx-notips")
    assert built.stdout.endswith("# total 933120, diameter 11\n")
    assert "pyraminx-notips (qtm)" in built.stderr and "933k" in built.stderr
    loaded = cli("table", "pyraminx-notips")
    assert loaded.stdout == built.stdout
    assert loaded.stderr == "pyraminx-notips (qtm): loaded from the cache\n"


def test_cache_lists_and_clears(cli, fresh_cache):
    assert cli("cache").stdout == f"# the cache folder {fresh_cache} is empty\n"
    cli("table", "pyraminx-notips")
    cli("table", "skewb", "--metric", "htm")
    listed = cli("cache").stdout.splitlines()
    assert listed[0].split() == ["puzzle", "metric", "form", "size", "date"]
    rows = {tuple(line.split()[:2]) for line in listed[1:-1]}
    assert rows == {("pyraminx-notips", "qtm"), ("skewb", "htm")}
    assert "table (1 byte a state)" in listed[1] and "933.4 kB" in listed[1]
    assert listed[-1] == f"# 2 tables, 4.1 MB in {fresh_cache}"
    assert cli("cache", "clear", "skewb").stdout == \
        f"# removed 1 table, 3.1 MB, from {fresh_cache}\n"
    assert [line.split()[0] for line in cli("cache").stdout.splitlines()[1:-1]] == \
        ["pyraminx-notips"]
    assert cli("cache", "clear", "skewb").stdout == f"# no cached table of skewb in {fresh_cache}\n"
    cli("cache", "clear")
    assert list(fresh_cache.iterdir()) == []
    assert_usage_error(cli("cache", "purge"), "'purge'")


def test_zoj2477_deep_search_stops_at_its_time_limit_naming_the_case(cli, tmp_path):
    from puzzles import cube3
    from puzzles.formats.zoj2477 import format_case

    superflip = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"
    cases = [cube3.apply_moves(cube3.SOLVED, w) for w in ("R U", superflip, "F")]
    path = tmp_path / "in.txt"
    path.write_text("3\n" + "".join(map(format_case, cases)))
    result = cli("solve", "zoj2477", str(path), "--max-depth", "30", "--time-limit", "0.5")
    assert result.stdout == "2\n4 -1\n2 -1\n"
    assert_usage_error(result, "case 2: no answer within the time limit of 0.5 s",
                       "1 later case not tried")
