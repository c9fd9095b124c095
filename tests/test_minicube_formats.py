"""The mini-cube contest formats through the command line: samples, worked
examples, tolerant reading, and one clear error (exit 2) for each kind of bad input."""
from __future__ import annotations

import random
import subprocess
import sys

import pytest

from permgroup.cli import main
from puzzles import minicube
from puzzles.formats import hdu2691, minicube_pair, uva11007
from tests.conftest import DATA

UVA_SOLVED = uva11007.SCHEME.solved  # URFDLB order
WORKED_UVA = """3

GWGW
WYRR
OOWY
YYBB
GBOO
RRGB

WWWW
YYRR
OOYY
BBBB
GGOO
RRGG

WRWR
RBRB
YYYY
BOBO
WOWO
GGGG
"""
WORKED_PAIR = """2

  YY       YB
  YY       YB
OOBBRRGG OOBWRRYG
OOBBRRGG OOBWRRYG
  WW       WG
  WW       WG

  YY       OY
  YY       OY
OOBBRRGG BBYRGGOW
OOBBRRGG OWBBYRGG
  WW       RR
  WW       WW
"""


def run(capsys, args, text=None, tmp_path=None):
    if text is not None:
        path = tmp_path / "input.txt"
        path.write_bytes(text.encode())
        args = args + [str(path)]
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("fmt, folder", [("uva11007", "uva11007"), ("hdu2691", "hdu2691")])
def test_judge_samples(capsys, fmt, folder):
    for sample in sorted((DATA / folder).glob("*.in")):
        code, out, err = run(capsys, ["solve", fmt, str(sample)])
        assert code == 0, err
        assert out == sample.with_suffix(".ans").read_text()


def test_worked_examples(capsys, tmp_path):
    assert run(capsys, ["solve", "uva11007"], WORKED_UVA, tmp_path)[1] == "2\n1\n1\n"
    assert run(capsys, ["solve", "minicube-pair"], WORKED_PAIR, tmp_path)[1] == "1\n2\n"


def test_tolerant_reading(capsys, tmp_path):
    messy = WORKED_UVA.replace("\n", "  \r\n").replace("\r\n\r\n", "\r\n\r\n\r\n")
    assert run(capsys, ["solve", "uva11007"], "\n\n" + messy, tmp_path)[1] == "2\n1\n1\n"
    messy_pair = WORKED_PAIR.replace("\n", " \r\n").replace(" ", ".")
    messy_pair = messy_pair.replace(".\r\n", "\r\n")
    assert run(capsys, ["solve", "minicube-pair"], messy_pair, tmp_path)[1] == "1\n2\n"


def test_stdin_and_module_entry_point():
    for command in ([sys.executable, "-m", "permgroup"], ["permgroup"]):
        result = subprocess.run(command + ["solve", "minicube-pair"], input=WORKED_PAIR.encode(),
                                capture_output=True, check=False)
        assert result.returncode == 0, result.stderr
        assert result.stdout == b"1\n2\n"


def test_random_cases_agree_with_distance(capsys, tmp_path):
    rng = random.Random(11)
    cubes = [minicube.scramble(rng, solved=UVA_SOLVED) for _ in range(40)]
    out = run(capsys, ["solve", "uva11007"], uva11007.write_cases(cubes), tmp_path)[1]
    assert out.split() == [str(minicube.distance(UVA_SOLVED, c)) for c in cubes]
    scheme = minicube_pair.SCHEME.solved
    pairs = [(minicube.scramble(rng, solved=scheme), minicube.scramble(rng, solved=scheme))
             for _ in range(40)]
    out = run(capsys, ["solve", "minicube-pair"], minicube_pair.write_cases(pairs, "#"),
              tmp_path)[1]
    assert out.split() == [str(minicube.distance(a, b)) for a, b in pairs]


def _uva_case(state: str) -> str:
    return uva11007.write_cases([state])


def _twisted(solved: str) -> str:
    s = list(solved)
    a, b, c = minicube.CORNERS[3]
    s[a], s[b], s[c] = solved[c], solved[a], solved[b]
    return "".join(s)


def _swap(state: str, i: int, j: int) -> str:
    s = list(state)
    s[i], s[j] = s[j], s[i]
    return "".join(s)


G = minicube.GEOMETRY
BAD_UVA = [
    ("", "empty input"),
    ("x\n", "line 1: expected the number of cases"),
    ("2\n\n" + "\n".join(["WWWW"] * 6) + "\n",
     "the count line says 2 cases but the input holds 1"),
    ("1\n\nWWWW\nRRRR\nYYYY\n", "case 1 is incomplete: 3 of the 6 face lines (from line 3)"),
    ("1\n\nWWWWW\nRRRR\nYYYY\nBBBB\nOOOO\nGGGG\n", "line 3: face Top has 5 characters"),
    ("1\n\nWWWW\nRXRR\nYYYY\nBBBB\nOOOO\nGGGG\n", "line 4, character 2: unknown colour 'X'"),
    (_uva_case(_swap(UVA_SOLVED, G.index("U", 0, 0), G.index("F", 1, 1)).replace("R", "W", 1)),
     "six colours four times"),
    (_uva_case(_swap(UVA_SOLVED, G.index("U", 1, 1), G.index("L", 1, 0))),
     "corner URF has colours GYR: Y and G are opposite colours"),
    (_uva_case(_swap(UVA_SOLVED, G.index("U", 1, 1), G.index("D", 0, 1))),
     "in mirror-image order"),
    (_uva_case(_swap(UVA_SOLVED, G.index("U", 1, 1), G.index("R", 0, 1))),
     "repeats a colour"),
    (_uva_case(_twisted(UVA_SOLVED)), "twisted corner"),
]


@pytest.mark.parametrize("text, message", BAD_UVA)
def test_bad_uva_input(capsys, tmp_path, text, message):
    code, out, err = run(capsys, ["solve", "uva11007"], text, tmp_path)
    assert code == 2
    assert message in err
    assert err.count("\n") == 1 and err.startswith("permgroup: error:")
    assert "Traceback" not in err


PAIR_SOLVED = minicube_pair.SCHEME.solved
BAD_PAIR = [
    (WORKED_PAIR.replace("OOBWRRYG\n", "OOBW\n", 1), "line 5: no sticker at column 14"),
    (WORKED_PAIR.replace("  YY       YB", "  YY       YX", 1), "unknown colour 'X'"),
    (minicube_pair.write_cases([(PAIR_SOLVED, _twisted(PAIR_SOLVED))]),
     "case 1, second cube: unreachable position"),
    (WORKED_PAIR.replace("2", "3", 1), "count line says 3 cases but the input holds 2"),
]


@pytest.mark.parametrize("text, message", BAD_PAIR)
def test_bad_pair_input(capsys, tmp_path, text, message):
    code, out, err = run(capsys, ["solve", "minicube-pair"], text, tmp_path)
    assert code == 2
    assert message in err, err
    assert err.count("\n") == 1


def test_hdu_any_letters_and_mismatched_schemes(capsys, tmp_path):
    rng = random.Random(5)
    solved = "PPPPQQQQSSSSTTTTVVVVXXXX"  # any six letters
    pairs = [(minicube.scramble(rng, solved=solved), minicube.scramble(rng, solved=solved))
             for _ in range(10)]
    out = run(capsys, ["solve", "hdu2691"], hdu2691.write_cases(pairs), tmp_path)[1]
    assert out.split() == [str(minicube.distance(a, b)) for a, b in pairs]
    mirrored = solved.replace("Q", "x").replace("V", "Q").replace("x", "V")  # swap R and L
    code, _, err = run(capsys, ["solve", "hdu2691"], hdu2691.write_cases([(solved, mirrored)]),
                       tmp_path)
    assert code == 2 and "case 1: the two cubes have different colour schemes" in err


def test_table_and_order_commands(capsys):
    code, out, _ = run(capsys, ["table", "minicube", "--metric", "htm"])
    assert code == 0
    assert [int(line.split()[1]) for line in out.splitlines() if not line.startswith("#")] == [
        1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644]
    code, out, _ = run(capsys, ["order", "minicube"])
    assert "order: 88179840" in out and "3674160" in out
