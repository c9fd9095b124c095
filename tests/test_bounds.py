"""Work the user sizes is bounded (issue 36): powers in logarithmic time,
definitions numbered however the file likes, sizes and counts printed however
large, tables and searches refused before they start when their memory is
past the budget, out-of-core and Dask plans kept sane, the cache listed as it
is.  Refusals come before any allocation, so every case here is quick."""
from __future__ import annotations

import dataclasses
import io
import math
import random
import subprocess
import sys

import pytest

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


def test_an_order_of_any_number_of_digits_is_printed(cli, tmp_path):
    # S_2000's order has 5,736 digits, past Python's 4,300 for int -> str
    limit = sys.get_int_max_str_digits()
    path = tmp_path / "s2000.gap"
    path.write_text(f"M_S:=(1,2);\nM_C:=({','.join(map(str, range(1, 2001)))});\n"
                    "Gen:=[M_S,M_C];\n")
    result = cli("order", str(path))
    assert result.returncode == 0, result
    assert sys.get_int_max_str_digits() == limit   # raised for the command only
    try:
        sys.set_int_max_str_digits(0)
        assert result.stdout.splitlines()[0] == f"order: {math.factorial(2000)}"
    finally:
        sys.set_int_max_str_digits(limit)


# --- tables within a memory budget ---------------------------------------------------

@pytest.mark.parametrize("args, words", [
    (["lrx-13"], ["building the qtm table of lrx-13 (6,227,020,800 states, one byte a state)",
                  "--memory's default", "--memory SIZE", "out of core in shards on disk"]),
    (["lrx-13", "--packed"], ["lrx-13 (6,227,020,800 states, 2 bits a state)", "--memory SIZE"]),
    (["pancake-13"], ["pancake-13 (6,227,020,800 states, one byte a state)"]),
    (["lrx-14"], ["lrx-14 (87,178,291,200 states, one byte a state)", "21.8 GB of them"]),
])
def test_a_table_past_the_memory_budget_is_refused_before_it_starts(cli, args, words):
    # these ran for 23-150 s at 3+ GB until numpy could not allocate; nothing large is made now
    line = error_line(cli("table", *args))
    assert "more than the memory budget of" in line
    for word in words:
        assert word in line, (word, line)


def test_the_refusal_names_sizes_that_are_true():
    from permgroup.budget import Budget, MemoryBudgetError
    from permgroup.tables.registry import _planned_space, require_table, space_bytes, table_memory
    from puzzles import resolve

    space = _planned_space(resolve("pancake-9"), "qtm", "positions")[0]
    need = space_bytes(space) + table_memory(space, "byte")
    assert need >= space.size                      # at least the table itself
    require_table(Budget.of(memory=need), "pancake-9", "qtm", space, "byte")    # fits exactly
    with pytest.raises(MemoryBudgetError, match=r"pancake-9 \(362,880 states, one byte a state\)"
                                                r" needs .*; --packed \(form='2bit'\)"):
        require_table(Budget.of(memory=need - 1), "pancake-9", "qtm", space, "byte")
    assert not space.built   # the refusal and the sizes came before the move tables


def test_a_split_permutation_is_built_in_the_memory_it_announces():
    from permgroup.spaces.orbit import OrbitSpace
    from puzzles import resolve

    space = OrbitSpace(resolve("lrx-11"), tables=False)       # 11!/6! placements
    planned = space.nbytes
    space.build_tables()
    made = (space.row_next.nbytes + space.split.placement_table.nbytes
            + space.split.select.nbytes + space.split.parity.nbytes + space.inner_table.nbytes)
    assert made <= planned <= 2 * made


def test_a_build_keeps_within_what_it_announces():
    # the peak of the move tables' and the search's allocations (tracemalloc counts
    # numpy's buffers) against the estimate made before either
    import tracemalloc

    from permgroup.tables.bfs import bfs
    from permgroup.tables.registry import _planned_space, _ready, space_bytes, table_memory
    from puzzles import resolve

    definition = resolve("pancake-9")
    space = _planned_space(definition, "qtm", "positions")[0]
    estimate = space_bytes(space) + table_memory(space, "byte")
    tracemalloc.start()
    try:
        _ready(space)
        depths = bfs(space, [space.rank(definition.solved)]).depths
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert int((depths < 255).sum()) == 362_880
    assert space.size <= peak <= estimate


def test_out_of_core_in_too_little_memory_for_its_shards_is_refused(cli):
    from permgroup.budget import MemoryBudgetError
    from permgroup.tables.outofcore import MAX_SHARDS, least_memory

    assert least_memory(3_149_280) == 1_000_000                 # skewb: 2 shards in 1 MB
    assert -(-10 ** 10 // (2 * least_memory(10 ** 10))) <= MAX_SHARDS
    line = error_line(cli("table", "lrx-13", "--memory", "100MB"))
    assert "out of core" in line and "more than the memory budget of 100.0 MB" in line
    assert "--memory 537MB or more" in line
    with pytest.raises(MemoryBudgetError):
        from permgroup.tables.registry import load_or_build
        from puzzles import resolve
        load_or_build(resolve("pancake-13"), "qtm", "shards", memory="1MB")


def test_dask_workers_past_the_cores_and_a_scheduler_out_of_reach_are_one_line(cli, monkeypatch):
    pytest.importorskip("dask.distributed", reason="Dask is not installed")
    import os

    from permgroup.tables import dask_bfs

    made = []

    class Client:  # a local cluster is not started: what it would be given is seen
        def __init__(self, **options):
            made.append(options)
            raise InputError("no cluster in this test")

    import dask.distributed
    monkeypatch.setattr(dask.distributed, "Client", Client)
    with pytest.warns(UserWarning, match=r"--workers 100: this machine has \d+ cores?; using"):
        with pytest.raises(InputError, match="no cluster in this test"):
            dask_bfs.connect(workers=100)
    assert made[0]["n_workers"] == (os.cpu_count() or 1)
    monkeypatch.undo()
    monkeypatch.setattr(dask_bfs, "CONNECT_SECONDS", 1)
    line = error_line(cli("table", "topspin-6", "--dask", "--scheduler", "tcp://127.0.0.1:9"))
    assert line.endswith("cannot reach the Dask scheduler at tcp://127.0.0.1:9 "
                         "(no answer within 1 s)")


# --- the cache, out-of-core builds, pictures -------------------------------------------

def test_an_interrupted_out_of_core_build_keeps_its_levels_lists_them_and_goes_on(
        tmp_path, monkeypatch):
    import json

    import numpy as np

    from permgroup.cache import cache_entries
    from permgroup.errors import Interrupted
    from permgroup.spaces.product import FactorSpace
    from permgroup.spaces.space import Factor
    from permgroup.tables import outofcore

    ring = FactorSpace([Factor("cell", 40, np.array([[*range(1, 40), 0], [39, *range(39)]]))])
    folder = tmp_path / "ring-qtm-0123456789abcdef.outofcore"
    write = outofcore._FileTransport._write

    def interrupted(self, name, chunks):  # Ctrl-C once a file of level 3 is written
        written = write(self, name, chunks)
        if name.startswith("frontier-3-"):
            raise KeyboardInterrupt
        return written

    monkeypatch.setattr(outofcore._FileTransport, "_write", interrupted)
    with pytest.raises(Interrupted, match=r"stopped after level 2; the same command goes on"):
        outofcore.build_out_of_core(ring, [0], folder, shard_ranks=8, key="k")
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["levels"] == [1, 2, 2]
    # the level under way is gone; what a resume needs is there
    assert {p.name for p in folder.iterdir()} == {"manifest.json", *manifest["shards"],
                                                   *manifest["frontier"]}
    [entry] = cache_entries(tmp_path)
    assert entry.form == ("unfinished out-of-core build (3 levels, "
                          f"{len(list(folder.iterdir()))} files; the same command goes on)")
    assert entry.size == sum(p.stat().st_size for p in folder.iterdir())
    monkeypatch.undo()
    table = outofcore.build_out_of_core(ring, [0], folder, shard_ranks=8, key="k")
    assert table.distribution() == [1] + [2] * 19 + [1]
    [entry] = cache_entries(tmp_path)
    assert entry.form == "table (2 bits a state, out of core)"


def test_a_picture_too_large_is_refused_before_it_is_drawn():
    from permgroup import explore

    lrx = explore.load_puzzle("lrx-200")
    with pytest.raises(InputError, match=r"a picture of 10,001 states of lrx-200 would take "
                                         r"about 5\d\d\.\d MB of SVG, more than 16.0 MB: draw "
                                         r"at most 2\d\d moves at a time"):
        explore.draw(lrx, "L " * 10000)      # once 543 MB of SVG
    assert str(explore.draw(lrx, "L " * 100)).count("<g ") == 101


# --- many moves: transpositions of every pair of points ----------------------------------

def test_which_moves_commute_is_found_from_the_points_they_share():
    import numpy as np

    from permgroup.moves import commuting

    rng = np.random.default_rng(36)
    base = []
    for _ in range(40):   # moves of small supports on 12 points, some disjoint
        p = np.arange(12)
        points = rng.choice(12, size=rng.integers(2, 5), replace=False)
        p[points] = rng.permutation(points)
        base.append(p)
    base = np.array(base, dtype=np.int32)
    brute = np.array([[np.array_equal(a[b], b[a]) for b in base] for a in base])
    assert (commuting(base) == brute).all()
    assert not brute.all() and brute.sum() > len(base)     # both kinds of pair occur


def test_a_solver_model_past_the_memory_budget_is_refused_before_it_is_built(monkeypatch):
    from permgroup import budget, explore
    from permgroup.budget import MemoryBudgetError

    monkeypatch.setattr(budget, "default_memory", lambda: 2 * 10 ** 6)
    # transpositions-200's 19,900 classes once took 3.2 GB arrays of every pair
    # the text names what commutators are built from (the solver's model serves both)
    with pytest.raises(MemoryBudgetError, match=r"^the table of where each pair of 435 classes of "
                                                r"moves meets \(189,225 pairs\), which commutators "
                                                r"are built from, needs 6.1 MB, more than the "
                                                r"memory budget of 2.0 MB; a puzzle of fewer moves"):
        explore.commutators("transpositions-30")


def test_htm_counts_a_bounded_number_of_powers():
    from permgroup.formats.definition import Definition, Orbit, OrbitState
    from permgroup.spaces.orbit import OrbitSpace

    n = 10_008   # a cycle of 10,007 pieces and one piece left: order 10,007
    cycle = OrbitState((*range(1, 10_007), 0, 10_007), (0,) * n)
    d = Definition("long", (Orbit("P", n),), {"P": OrbitState(tuple(range(n)), (0,) * n)},
                   {"T": {"P": cycle}})
    with pytest.raises(InputError, match=r"htm counts each power of a move as one move, and "
                                         r"move T has order 10007: too many powers"):
        OrbitSpace(d, "htm", tables=False)


def test_a_table_refusal_names_dask_only_where_it_would_work():
    from permgroup.budget import Budget, MemoryBudgetError
    from permgroup.formats import resolve
    from permgroup.tables.registry import _planned_space, require_table

    space = _planned_space(resolve("lrx-13"), "qtm", "positions")[0]  # planned: nothing built
    said = {}
    for memory, default in (("2GB", True), ("4GB", True), ("4GB", False)):
        with pytest.raises(MemoryBudgetError) as refused:
            require_table(Budget.of(memory=memory), "lrx-13", "qtm", space, "2bit",
                          default=default)
        said[memory, default] = str(refused.value)
    # the 2-bit table gathered from the workers takes 3.7 GB here; --memory
    # chooses a build in this process, so Dask is named under the default budget only
    assert "--dask (dask=True) builds it on Dask workers, 3.7 GB here" in said["4GB", True]
    assert "--dask" not in said["2GB", True] and "--dask" not in said["4GB", False]
    assert all("out of core in shards on disk" in text for text in said.values())


def test_a_word_too_long_to_expand_is_solved_from_its_element():
    from permgroup import explore, solve
    from permgroup.perm import compose, identity

    minicube = explore.load_puzzle("minicube")
    for text in ("(R U)5000000", "((R U)100000)100000"):  # 10^7 and 2*10^10 moves
        word = solve("minicube", text, time_limit=10).word
        made = minicube.move_array(text)   # by cycles, nothing expanded
        undone = minicube.move_array(" ".join(word)) if word else identity(minicube.degree)
        assert compose(made, undone) == identity(minicube.degree)


@pytest.mark.parametrize("name", ["pancake-256", "transpositions-200"])
def test_a_definition_too_large_for_a_table_counts_no_positions(name):
    from permgroup.formats import resolve
    from permgroup.tables.registry import position_count

    # an orbit of more than 127 pieces once overflowed the byte labels
    assert position_count(resolve(name)) is None


def test_tables_kept_in_memory_are_few_and_stand_for_their_files(tmp_path, monkeypatch):
    """One memo of tables (registry._KEPT), by cache file: at most TABLES_KEPT
    of them, the least recently asked for let go, and a table whose file has
    changed since it was kept is read again."""
    import os

    from permgroup.puzzle import Puzzle
    from permgroup.tables import registry

    monkeypatch.setenv("PERMGROUP_CACHE", str(tmp_path))
    monkeypatch.setattr(registry, "_KEPT", {})
    rings = [Puzzle(f"ring{n}", n, {"T": tuple(range(1, n)) + (0,)},
                    pieces={"dot": tuple((i,) for i in range(n))}) for n in range(3, 9)]
    tables = [registry.table(p) for p in rings]
    assert len(registry._KEPT) == registry.TABLES_KEPT
    assert registry.table(rings[-1]) is tables[-1]  # kept
    assert registry.table(rings[0]) is not tables[0]  # let go: read again from its file
    necklace = Puzzle("necklace", 6, {"turn": (1, 2, 3, 4, 5, 0)}, solved="aaabbb")
    first = registry.load_or_build(necklace, form="byte")
    assert registry.load_or_build(necklace, form="byte") is first
    os.utime(registry.cache_path(necklace), ns=(0, 0))  # the file changed under it
    again = registry.load_or_build(necklace, form="byte")
    assert again is not first and again.distribution() == first.distribution()
