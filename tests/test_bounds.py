"""Work the user sizes is bounded (issue 36): powers in logarithmic time,
definitions numbered however the file likes, sizes and counts printed however
large, tables and searches refused before they start when their memory is
past the budget, out-of-core and Dask plans kept sane, the cache listed as it
is.  Refusals come before any allocation, so every case here is quick."""
from __future__ import annotations

import dataclasses
import io
import random
import subprocess
import sys

import pytest

from permgroup import structure as structure_module
from permgroup.cli import main
from permgroup.errors import InputError
from permgroup.formats.definition import (Definition, Orbit, OrbitState, compose, identity,
                                          invert, move_order, power as position_power)
from permgroup.formats.gap import read_gap
from permgroup.formats.santa import read_puzzle_info
from permgroup.perm import compose as perm_compose
from permgroup.perm import identity as perm_identity
from permgroup.perm import inverse, power


def _power_by_loop(p, k):
    result, base = perm_identity(len(p)), p if k >= 0 else inverse(p)
    for _ in range(abs(k)):
        result = perm_compose(result, base)
    return result


def test_a_power_is_the_product_of_its_factors_for_any_exponent():
    rng = random.Random(36)
    for n in range(1, 10):
        p = list(range(n))
        rng.shuffle(p)
        for k in range(-15, 16):
            assert power(tuple(p), k) == _power_by_loop(tuple(p), k)
    # a 3-cycle and a 4-cycle: order 12, so 10^20 turns are 10^20 mod 12 = 4 turns
    p = (1, 2, 0, 4, 5, 6, 3)
    assert power(p, 10 ** 20) == _power_by_loop(p, 4)
    assert power(p, -10 ** 20) == _power_by_loop(p, -4)


def test_a_position_power_and_order_for_any_exponent():
    rng = random.Random(36)
    for _ in range(100):
        orbits = (Orbit("A", rng.randint(1, 6), rng.randint(1, 4)), Orbit("B", 3, 2))
        d = Definition("t", orbits, {}, {})
        a = {}
        for o in orbits:
            slots = list(range(o.size))
            rng.shuffle(slots)
            a[o.name] = OrbitState(tuple(slots), tuple(rng.randrange(o.orientations)
                                                       for _ in slots))
        d = dataclasses.replace(d, moves={"X": a})
        n, q = 1, a
        while q != identity(d):
            q, n = compose(d, q, a), n + 1
        assert move_order(d, "X") == n
        for k in (-7, -1, 0, 1, 5, 10 ** 20 + 3):
            expected = identity(d)
            for _ in range(abs(k) % n):
                expected = compose(d, expected, a if k >= 0 else invert(d, a))
            assert position_power(d, a, k) == expected


@pytest.fixture
def cli(capsys, monkeypatch):
    """The command in this process: its exit status, stdout and stderr."""
    def call(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
        status = main(list(args))
        out, err = capsys.readouterr()
        assert "Traceback" not in err
        return subprocess.CompletedProcess(args, status, out, err)
    return call


def error_line(result: subprocess.CompletedProcess) -> str:
    """The one ``permgroup: error:`` line of a refused command (exit status 2)."""
    assert result.returncode == 2, result
    lines = [line for line in result.stderr.splitlines() if line.startswith("permgroup: error:")]
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize("command, line, answer", [
    ("word", "R100000000000000000000", ""),           # 10^20 quarter turns: solved
    ("word", "R100000000000000000001", "R'"),         # one more quarter turn
    ("optimal", "R100000000000000000002", "R R"),     # a half turn, counted in qtm
])
def test_a_huge_power_in_a_line_of_moves_is_answered_at_once(cli, command, line, answer):
    result = cli(command, "minicube", stdin=line + "\n")
    assert result.returncode == 0, result
    assert result.stdout.splitlines()[0] == answer


def test_a_gap_file_may_number_its_stickers_sparsely():
    # one point numbered 30,000,000 once filled 3.2 GB; the stickers moved are what count
    d = read_gap("M_A:=(1,2,3);\nM_B:=(3,30000000);\n", "big.gap")
    assert [(o.size, o.orientations) for o in d.orbits] == [(4, 1)]
    from permgroup.formats.stickers import to_puzzle
    assert to_puzzle(d).group().order() == 24       # S4
    with pytest.raises(InputError, match=r"big.gap, line 1: move M_A: point 30000000 appears "
                                         r"twice"):
        read_gap("M_A:=(1,30000000)(30000000,2);", "big.gap")
    # ip sets name stickers by the file's numbers
    alike = read_gap("M_A:=(10,20,30,40000000);\nM_B:=(10,20);\nip:=[[10,30],[20,40000000]];",
                     "ip.gap")
    assert alike.solved["P1"].pieces == (0, 1, 0, 1)


def test_a_move_index_past_64_bits_is_refused_where_it_is():
    header = "puzzle_type,allowed_moves\n"
    with pytest.raises(InputError, match=r"info.csv, line 2, column allowed_moves \(t\): move "
                                         r"'a' is not a permutation of 0..2 "
                                         r"\(9223372036854775808 is out of range\)"):
        read_puzzle_info(header + f"t,\"{{'a': [1, {2 ** 63}, 0]}}\"\n", "info.csv")


@pytest.mark.parametrize("puzzle, bound", [("lrx-200", "~10^374"), ("pancake-256", "~10^506")])
def test_a_table_refused_for_its_size_says_the_size_however_large(cli, puzzle, bound):
    line = error_line(cli("table", puzzle))
    assert f"{puzzle}: up to {bound} positions, too many for a table" in line


def test_an_order_of_any_number_of_digits_is_printed(cli, monkeypatch):
    # S_2000's order has 5,736 digits, past Python's 4,300 for int -> str; the
    # structure of a small group stands in for it (S_2000's takes minutes)
    real, limit = structure_module.structure, sys.get_int_max_str_digits()
    huge = 10 ** 5000 + 7
    monkeypatch.setattr(structure_module, "structure",
                        lambda puzzle: dataclasses.replace(real(puzzle), order=huge))
    result = cli("order", "pancake-4")
    assert result.returncode == 0, result
    assert result.stdout.splitlines()[0] == "order: 1" + "0" * 4999 + "7"
    assert sys.get_int_max_str_digits() == limit   # raised for the command only
