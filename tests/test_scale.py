"""Tighter, out-of-core and distributed tables against the plain one-byte tables.

Every layer must give exactly the distribution of the plain in-memory table,
the same codes (depth mod 3, a function of the graph alone), and the same
distances on random positions.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from permgroup.spaces.space import Factor
from permgroup.spaces.product import FactorSpace
import permgroup.tables.bfs as bfs_module
from permgroup.tables.bfs import bfs, packed_depths
from permgroup.tables.colouring_table import colouring_depths
from permgroup.tables.outofcore import build_out_of_core
from permgroup.tables.packed import read_codes
from permgroup.tables.store import UNSEEN_CODE
from permgroup.tables.store import UNSEEN, depth_distribution
from permgroup.tables.table import build_table, load_table
from permgroup.tables.registry import table_space
from puzzles import minicube, torus

ROOT = Path(__file__).resolve().parent.parent


def expected_codes(depths: np.ndarray) -> np.ndarray:
    return np.where(depths == UNSEEN, UNSEEN_CODE, depths % 3).astype(np.uint8)


@pytest.fixture(scope="module", params=["qtm", "htm"])
def cube(request):
    """The normalized 2x2x2 (3,674,160 states): space, source, plain depths."""
    plain = build_table(minicube.PUZZLE, request.param, anchor=minicube.ANCHOR)
    return plain.space, plain.space.identity, plain.depths


@pytest.fixture(scope="module")
def small_torus():
    """The 3x4 torus: 369,600 colourings, plain depths from the colouring table."""
    space, sources, _ = table_space(torus.torus_puzzle(3, 4))
    depths = colouring_depths(space, [space.solved])
    return space, sources, depths


def test_packed_cube_matches_plain(cube, monkeypatch):
    monkeypatch.setattr(bfs_module, "BLOCK", 1 << 18)
    space, source, depths = cube
    t = packed_depths(space, [source])
    assert t.distribution() == depth_distribution(depths)
    assert t.distribution()[:5] in ([1, 6, 27, 120, 534], [1, 9, 54, 321, 1847])
    assert np.array_equal(read_codes(t.packed, np.arange(space.size)), expected_codes(depths))
    assert t.packed.nbytes * 4 >= space.size and t.packed.nbytes < space.size // 3
    ranks = np.random.default_rng(5).integers(0, space.size, 3000)
    assert t.depths_of(ranks).tolist() == depths[ranks].astype(int).tolist()


def test_packed_path_is_optimal(cube):
    space, source, depths = cube
    t = packed_depths(space, [source])
    for rank in np.random.default_rng(6).integers(0, space.size, 20):
        moves = t.path(int(rank))
        here = np.array([source])
        for m in moves:
            here = space.step(here, m)
        assert int(here[0]) == rank and len(moves) == depths[rank]


def test_packed_torus_matches_colouring_table(small_torus, monkeypatch):
    monkeypatch.setattr(bfs_module, "BLOCK", 1 << 12)
    space, sources, depths = small_torus
    t = packed_depths(space, sources)
    assert t.distribution() == depth_distribution(depths)
    assert np.array_equal(read_codes(t.packed, np.arange(space.size)), expected_codes(depths))
    ranks = np.random.default_rng(7).integers(0, space.size, 2000)
    assert t.depths_of(ranks).tolist() == depths[ranks].astype(int).tolist()


def test_minicube_packed_format_answers_like_bytes():
    import random

    rng = random.Random(3)
    plain, packed = minicube.table("qtm"), minicube.table("qtm", table_format="packed")
    assert packed.distribution() == plain.distribution()
    pairs = [(minicube.scramble(rng), minicube.scramble(rng)) for _ in range(200)]
    for a, b in pairs:
        p, q = minicube.pair_elements(a, b)
        assert packed.distance(p, q) == plain.distance(p, q)


def test_single_lookups_walk_down_like_the_batch(cube):
    space, source, depths = cube
    t = packed_depths(space, [source])
    ranks = np.random.default_rng(5).integers(0, space.size, 300)
    assert [t.depth(int(r)) for r in ranks] == t.depths_of(ranks).tolist()
    for r in ranks[:40].tolist():
        here = source
        for m in t.path(r):  # the path's moves, applied from the source, end at r
            here = int(space.step(np.array([here]), m)[0])
        assert here == r and len(t.path(r)) == depths[r]


@pytest.mark.parametrize("metric", ["qtm", "htm"])
def test_minicube_nibble_table_answers_like_bytes(metric):
    import random

    rng = random.Random(4)
    plain = minicube.table(metric)
    nibbles = minicube.table(metric, table_format="nibbles")
    assert nibbles.bits == 4 and len(nibbles._entries) == (len(plain.depths) + 1) // 2
    assert nibbles.distribution() == plain.distribution()
    for _ in range(200):
        p, q = minicube.pair_elements(minicube.scramble(rng), minicube.scramble(rng))
        assert nibbles.distance(p, q) == plain.distance(p, q)
        assert len(nibbles.solve(p, q)) == plain.distance(p, q)


def test_a_cached_nibble_lookup_needs_no_numpy():
    minicube.table("qtm", table_format="nibbles")  # cached
    solved = "WWWWYYYYRRRRBBBBGGGGOOOO"
    state = minicube.apply_moves(solved, "F R' U2 F'")
    probe = ("import sys\nfrom puzzles import minicube\nfrom puzzles.formats import uva11007\n"
             f"e = minicube.element({state!r}, uva11007.SCHEME)\n"
             "print(minicube.table('qtm', table_format='nibbles').depth(e), "
             "'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout.split()
    assert out == ["5", "False"]


def test_a_deep_group_is_refused_a_nibble_table():
    from permgroup.perm import from_cycles
    from permgroup.puzzle import Puzzle

    ring = from_cycles([tuple(range(32))], 32)  # one move one way: diameter 31
    puzzle = Puzzle("ring32", 32, {"T": ring}, pieces={"wheel": (tuple(range(32)),)})
    with pytest.raises(ValueError, match="diameter 31 does not fit in 4 bits"):
        load_table(puzzle, ["T"], cache=False, bits=4)


def test_out_of_core_cube_matches_packed(cube, tmp_path):
    space, source, depths = cube
    progress = []
    # four shards, and too little memory to screen images against the table
    t = build_out_of_core(space, [source], tmp_path, memory="1MB", key="cube",
                          shard_ranks=1 << 20, piece_ranks=1 << 16,
                          progress=lambda d, c: progress.append(c))
    assert t.distribution() == depth_distribution(depths) == progress
    assert np.array_equal(np.asarray(t.packed), packed_depths(space, [source]).packed)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["manifest.json", "table.bin"]
    # a finished folder is read back, not rebuilt
    again = build_out_of_core(space, [source], tmp_path, memory="1MB", key="cube")
    assert again.distribution() == t.distribution()


def test_out_of_core_torus(small_torus, tmp_path):
    space, sources, depths = small_torus
    t = build_out_of_core(space, sources, tmp_path, shard_ranks=40000, piece_ranks=10000)
    assert t.distribution() == depth_distribution(depths)


def test_stale_lock_and_temporary_files_are_cleared(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (tmp_path / "lock").write_text(str(dead.pid))
    (tmp_path / "bucket-3-0.bin").write_bytes(b"x" * 16)
    (tmp_path / "manifest.json.999.tmp").write_bytes(b"{")
    ring = FactorSpace([Factor(
        "cell", 8, np.array([[1, 2, 3, 4, 5, 6, 7, 0], [7, 0, 1, 2, 3, 4, 5, 6]]))])
    t = build_out_of_core(ring, [0], tmp_path, shard_ranks=4)
    assert t.distribution() == [1, 2, 2, 2, 1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["manifest.json", "table.bin"]


def test_live_lock_is_refused(tmp_path):
    from permgroup.errors import InputError

    (tmp_path / "lock").write_text(str(os.getppid()))
    ring = FactorSpace([Factor(
        "cell", 4, np.array([[1, 2, 3, 0]]))])
    with pytest.raises(InputError, match="another build"):
        build_out_of_core(ring, [0], tmp_path, shard_ranks=4)


BUILD = """
import sys
from permgroup.tables.outofcore import build_out_of_core
from permgroup.tables.registry import table_space
from puzzles import minicube
space, sources, key = table_space(minicube.PUZZLE, "htm")
t = build_out_of_core(space, sources, sys.argv[1], memory="4MB", key=key)
print(t.distribution())
"""


@pytest.mark.slow
def test_out_of_core_resumes_after_sigkill(tmp_path):
    folder = tmp_path / "build"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = subprocess.Popen([sys.executable, "-c", BUILD, str(folder)], env=env,
                             stdout=subprocess.PIPE)
    manifest = folder / "manifest.json"
    deadline = time.monotonic() + 120
    level = 0
    while time.monotonic() < deadline and child.poll() is None:
        try:  # kill it once a few levels are committed, in the middle of the next
            level = len(__import__("json").loads(manifest.read_text())["levels"])
        except (FileNotFoundError, ValueError):
            level = 0
        # at once: levels 7 to 11 (3.6 of the 3.67 million states) are still to
        # come, where a pause here let a quiet machine finish the build first
        if level >= 7:
            break
        time.sleep(0.02)
    assert child.poll() is None, "the build ended before it could be killed"
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    left = {p.name for p in folder.iterdir()}
    assert "lock" in left and "table.bin" not in left
    out = subprocess.run([sys.executable, "-c", BUILD, str(folder)], env=env, check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    plain = build_table(minicube.PUZZLE, "htm", anchor=minicube.ANCHOR)
    assert out.strip() == str(plain.distribution())
    space, sources, _ = table_space(minicube.PUZZLE, "htm")
    resumed = np.fromfile(folder / "table.bin", dtype=np.uint8)
    assert np.array_equal(resumed, packed_depths(space, sources).packed)
    assert sorted(p.name for p in folder.iterdir()) == ["manifest.json", "table.bin"]


@pytest.fixture(scope="module")
def dask_client():
    pytest.importorskip("dask.distributed", reason="Dask is not installed: "
                        "pip install 'permgroup[distributed]' to test the distributed BFS")
    from permgroup.tables.dask_bfs import connect

    client = connect(workers=2, processes=False)
    yield client
    client.close()
    assert client.cluster.status.name == "closed"  # the client closes the cluster it started


def test_dask_cube_matches_plain(cube, dask_client):
    from permgroup.tables.dask_bfs import dask_depths

    space, source, depths = cube
    reports = []
    t = dask_depths(space, [source], client=dask_client, level_report=reports.append)
    assert t.distribution() == depth_distribution(depths)
    assert np.array_equal(read_codes(t.packed, np.arange(space.size)), expected_codes(depths))
    assert [r.count for r in reports] == t.distribution()[1:]
    assert all(r.shuffled >= 0 for r in reports) and sum(r.shuffled for r in reports) > 0
    ranks = np.random.default_rng(8).integers(0, space.size, 500)
    assert t.depths_of(ranks).tolist() == depths[ranks].astype(int).tolist()


def test_dask_torus_with_more_shards(small_torus, dask_client):
    from permgroup.tables.dask_bfs import dask_depths

    space, sources, depths = small_torus
    t = dask_depths(space, sources, client=dask_client, shards_per_worker=3)
    assert t.distribution() == depth_distribution(depths)


def test_command_line_tight_tables_print_the_plain_distribution(tmp_path, monkeypatch, capsys):
    from permgroup.cli import main

    monkeypatch.setenv("PERMGROUP_CACHE", str(tmp_path))
    assert main(["table", "minicube", "--metric", "htm"]) == 0
    plain = capsys.readouterr().out
    assert main(["table", "minicube", "--metric", "htm", "--packed"]) == 0
    assert capsys.readouterr().out == plain
    monkeypatch.setenv("PERMGROUP_CACHE", str(tmp_path / "out-of-core"))  # not the cached one
    assert main(["table", "minicube", "--metric", "htm", "--memory", "5MB"]) == 0
    assert capsys.readouterr().out == plain
    assert any((tmp_path / "out-of-core").glob("*.outofcore"))
    with pytest.raises(SystemExit) as refused:  # argparse checks the size first
        main(["table", "minicube", "--memory", "a lot"])
    assert refused.value.code == 2
    assert "--memory 'a lot'" in capsys.readouterr().err


@pytest.mark.slow
def test_command_line_dask_two_local_workers(tmp_path, monkeypatch, capsys):
    pytest.importorskip("dask.distributed", reason="Dask is not installed")
    from permgroup.cli import main

    monkeypatch.setenv("PERMGROUP_CACHE", str(tmp_path))
    assert main(["table", "minicube", "--dask", "--workers", "2"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[-1] == "# total 3674160, diameter 14"
    assert "2 workers" in captured.err and "bytes shuffled" in captured.err


# --- symmetry classes --------------------------------------------------------

#: classes of the 2x2x2 (3,674,160 positions up to orientation) under its 48
#: symmetries, and with inversion too (Jerry Bryan; Bruce Norskog, "Antisymmetry
#: and the 2x2x2 Cube", cube forum, 2007), and the latter's classes per QTM depth
CLASSES_48, CLASSES_96 = 77802, 40296
QTM_CLASSES_96 = [1, 1, 3, 4, 13, 35, 126, 398, 1301, 3952, 10086, 14658, 8619, 1091, 8]


@pytest.mark.slow
def test_cube_symmetry_classes_match_published_counts():
    from permgroup.tables.symmetry_table import (class_depths, conjugation_map, inversion_map,
                                          symmetry_classes)
    from puzzles.minicube import GEOMETRY

    plain = build_table(minicube.PUZZLE, "qtm", anchor=minicube.ANCHOR)
    space = plain.space
    identity = space.identity
    maps = [conjugation_map(space, s) for s in
            (GEOMETRY.rotation("U"), GEOMETRY.rotation("R"), GEOMETRY.reflection())]
    by_48 = symmetry_classes(maps)
    inverse = inversion_map(space.ranking, identity)
    by_96 = symmetry_classes(maps + [inverse])
    assert (len(by_48), len(by_96)) == (CLASSES_48, CLASSES_96)
    assert by_96.sizes.sum() == space.size and by_96.sizes.max() == 96
    t48 = class_depths(space, [identity], by_48)
    t96 = class_depths(space, [identity], by_96, also_from=inverse)
    assert t48.distribution() == t96.distribution() == plain.distribution()
    assert t96.class_distribution() == QTM_CLASSES_96
    ranks = np.random.default_rng(9).integers(0, space.size, 5000)
    assert t96.depths_of(ranks).tolist() == plain.depths[ranks].astype(int).tolist()


def test_torus_board_symmetries_keep_the_distribution(small_torus):
    """The 3x4 board's column shifts and left-right mirror fix the solved rows,
    row shifts fix them up to a renaming of colours; classes under these 24
    symmetries give the plain distribution with fewer entries."""
    from permgroup.perm import compose, from_cycles
    from permgroup.tables.symmetry_table import (class_depths, colouring_symmetry_map,
                                                 conjugate_moves, symmetry_classes, symmetry_maps)

    space, sources, depths = small_torus
    puzzle = torus.torus_puzzle(3, 4)
    moves = [puzzle.generators[n.rstrip("'")] if not n.endswith("'") else
             tuple(np.argsort(puzzle.generators[n.rstrip("'")]).tolist())
             for n in space.move_names]
    shift = from_cycles([[torus.cell(i, j, 4) for j in range(4)] for i in range(3)], 12)
    mirror = tuple(torus.cell(k // 4, 3 - k % 4, 4) for k in range(12))
    down = from_cycles([[torus.cell(i, j, 4) for i in range(3)] for j in range(4)], 12)
    # the last is a product of the first two: composed from their maps, not searched
    board = [shift, mirror, down, compose(shift, mirror)]
    maps = list(symmetry_maps(space, sources[0], conjugate_moves(moves, board)))
    direct = [colouring_symmetry_map(space, s) for s in board]
    assert all(np.array_equal(a, b) for a, b in zip(maps, direct))
    maps = maps[:3]
    classes = symmetry_classes(maps)
    t = class_depths(space, sources, classes)
    assert t.distribution() == depth_distribution(depths)
    assert space.size / 24 <= t.entries < space.size / 20
    ranks = np.random.default_rng(10).integers(0, space.size, 2000)
    assert t.depths_of(ranks).tolist() == depths[ranks].astype(int).tolist()
    # reversing row 0 alone is no symmetry
    with pytest.raises(ValueError, match="not a symmetry"):
        symmetry_maps(space, sources[0], [[1, 0] + list(range(2, space.n_moves))])


# --- the Skewb, defined piece by piece -----------------------------------------

#: the Skewb's positions per depth with one corner held (Jaap Scherphuis's
#: puzzle pages; God's number 11)
SKEWB = [1, 8, 48, 288, 1728, 10248, 59304, 315198, 1225483, 1455856, 81028, 90]


def skewb_definition():
    """The Skewb as orbits of pieces (a :class:`Definition`, what the readers of
    twsearch and KPuzzle files make), derived from its geometry: corner
    ``(-1, -1, -1)`` held still, turns of 120 degrees about the four corners
    that do not touch it."""
    import itertools

    from permgroup.formats.definition import Definition, Orbit, OrbitState

    corners = [c for c in itertools.product((-1, 1), repeat=3) if c != (-1, -1, -1)]
    corners = [(-1, -1, -1)] + corners
    normals = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]

    def stickers(c):
        # the corner's three face normals, the y one first, then going round
        ns = [(0, c[1], 0), (c[0], 0, 0), (0, 0, c[2])]
        if np.linalg.det(np.array(ns)) * c[0] * c[1] * c[2] < 0:
            ns = [ns[0], ns[2], ns[1]]
        return ns

    def turn(axis):
        s = np.array(axis)
        return lambda v: tuple(int(x) for x in s * np.roll(s * np.array(v), 1))

    moves = {}
    for name, axis in zip("ABCD", [(1, 1, 1), (1, 1, -1), (1, -1, 1), (-1, 1, 1)]):
        rot = turn(axis)
        half = lambda v: np.dot(v, axis) > 0
        pieces, orient = list(range(8)), [0] * 8
        for j, c in enumerate(corners):
            if half(c):
                i = corners.index(rot(c))
                pieces[i] = j
                orient[i] = stickers(rot(c)).index(rot(stickers(c)[0]))
        cpieces = list(range(6))
        for j, n in enumerate(normals):
            if half(n):
                cpieces[normals.index(rot(n))] = j
        moves[name] = {"CORNERS": OrbitState(tuple(pieces), tuple(orient)),
                       "CENTERS": OrbitState(tuple(cpieces), (0,) * 6)}
    solved = {"CORNERS": OrbitState(tuple(range(8)), (0,) * 8),
              "CENTERS": OrbitState(tuple(range(6)), (0,) * 6)}
    return Definition("skewb", (Orbit("CORNERS", 8, 3), Orbit("CENTERS", 6, 1)), solved, moves)


@pytest.fixture(scope="module")
def skewb():
    from permgroup.spaces.orbit import OrbitSpace

    definition = skewb_definition()
    space = OrbitSpace(definition, "qtm")
    sources = [space.rank(definition.solved)]
    return space, sources, bfs(space, sources).depths


@pytest.mark.slow
def test_skewb_every_layer_matches_plain(skewb, tmp_path, dask_client):
    from permgroup.tables.dask_bfs import dask_depths

    space, sources, depths = skewb
    assert depth_distribution(depths) == SKEWB and space.size == sum(SKEWB)
    packed = packed_depths(space, sources)
    assert packed.distribution() == SKEWB
    assert np.array_equal(read_codes(packed.packed, np.arange(space.size)),
                          expected_codes(depths))
    ranks = np.random.default_rng(12).integers(0, space.size, 3000)
    assert packed.depths_of(ranks).tolist() == depths[ranks].astype(int).tolist()
    out = build_out_of_core(space, sources, tmp_path, memory="1MB", shard_ranks=1 << 20,
                            piece_ranks=1 << 16)
    assert np.array_equal(np.asarray(out.packed), packed.packed)
    on_dask = dask_depths(space, sources, client=dask_client, shards_per_worker=2)
    assert np.array_equal(on_dask.packed, packed.packed)


ROW_BUILD = """
import sys, time
import permgroup.tables.bfs as bfs
import permgroup.tables.registry as registry
from permgroup.explore import load_definition

registry.CHECKPOINT_SECONDS = 0  # a checkpoint after every level
slow = sys.argv[1] == "slow"
plain_bfs = bfs.bfs

def traced(*args, levels=None, **kw):
    print("resumed at", -1 if levels is None else len(levels) - 1, flush=True)
    return plain_bfs(*args, levels=levels, **kw)

bfs.bfs = traced

def progress(depth, count):
    print("level", depth, count, flush=True)
    if slow:
        time.sleep(0.4)

t = registry.load_or_build(load_definition("pyraminx-notips"), "htm", memory="1GB",
                           progress=progress)
print("distribution", t.distribution(), flush=True)
"""


@pytest.mark.slow
def test_a_build_by_rows_resumes_after_sigkill(tmp_path, monkeypatch):
    from permgroup.explore import load_definition
    from permgroup.spaces.orbit import OrbitSpace

    env = dict(os.environ, PYTHONPATH=str(ROOT), PERMGROUP_CACHE=str(tmp_path))
    child = subprocess.Popen([sys.executable, "-c", ROW_BUILD, "slow"], env=env,
                             stdout=subprocess.PIPE, text=True)
    for line in child.stdout:  # killed in the middle of the level after depth 4
        if line.startswith("level 4 "):
            time.sleep(0.6)
            break
    assert child.poll() is None, "the build ended before it could be killed"
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert len(list(tmp_path.glob("*.checkpoint"))) == 1
    out = subprocess.run([sys.executable, "-c", ROW_BUILD, "fast"], env=env,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    [resumed_at] = [int(line.split()[-1]) for line in out if line.startswith("resumed at")]
    assert 4 <= resumed_at < 10, out
    definition = load_definition("pyraminx-notips")
    space = OrbitSpace(definition, "htm")
    depths = bfs(space, [space.rank(definition.solved)]).depths
    assert out[-1] == f"distribution {depth_distribution(depths)}"
    # levels up to the checkpoint are reported from it, then the BFS goes on
    assert [line.split()[1] for line in out if line.startswith("level")] == [
        str(d) for d in range(len(depth_distribution(depths)))]
    assert not any(tmp_path.glob("*.checkpoint"))
    from permgroup.tables.registry import load_or_build

    monkeypatch.setenv("PERMGROUP_CACHE", str(tmp_path))
    table = load_or_build(definition, "htm", "2bit")  # the resumed build's cached table
    assert np.array_equal(read_codes(table.packed, np.arange(space.size)), expected_codes(depths))


def test_memory_that_holds_a_byte_per_state_builds_by_rows_in_memory(tmp_path, monkeypatch):
    from permgroup.explore import load_definition
    from permgroup.spaces.orbit import OrbitSpace
    from permgroup.tables.registry import choose_form, load_or_build

    monkeypatch.setenv("PERMGROUP_CACHE", str(tmp_path))
    definition = load_definition("pyraminx-notips")
    space = OrbitSpace(definition, "htm")
    sources = [space.rank(definition.solved)]
    depths = bfs(space, sources).depths
    assert choose_form(space, "1GB") == "2bit" and choose_form(space, "100MB") == "shards"
    table = load_or_build(definition, "htm", memory="1GB")
    assert table.distribution() == depth_distribution(depths)
    assert np.array_equal(read_codes(table.packed, np.arange(space.size)), expected_codes(depths))
    assert not any(tmp_path.glob("*.outofcore")) and any(tmp_path.glob("*.packed2"))
    ranks = np.random.default_rng(3).integers(0, space.size, 500)
    assert table.depths_of(ranks).tolist() == depths[ranks].astype(int).tolist()
    again = load_or_build(definition, "htm", memory="100MB")  # the cached table
    assert again.distribution() == table.distribution()
