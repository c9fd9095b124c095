"""The two-phase path of the generic solver (permgroup.solver.chain): Santa cube
rows and random scrambles solved, every word checked by the applier of
tests/test_santa.py (written from the competition's rules); refusals; the
tables read back from the cache."""
from __future__ import annotations

import os
import random
import time

import numpy as np
import pytest

from permgroup.budget import Budget
from permgroup.formats.santa import read_puzzle_info, read_puzzles, with_inverses
from permgroup.formats.text import read_text
from permgroup.solver import chain, find_word
from permgroup.solver.chain import chain_word
from permgroup.solver.exact import exact_word
from tests.test_santa import INFO, PUZZLES, allowed_moves, read_csv, wrong_positions

DATA = os.path.dirname(PUZZLES)
MORE = os.path.join(DATA, "cube_3-more.csv")


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """One empty cache folder for the module: the first test builds the cube's
    tables into it."""
    folder = str(tmp_path_factory.mktemp("chain-cache"))
    saved = os.environ.get("PERMGROUP_CACHE")
    os.environ["PERMGROUP_CACHE"] = folder
    chain._PLANS.clear()
    yield folder
    chain._PLANS.clear()
    if saved is None:
        del os.environ["PERMGROUP_CACHE"]
    else:
        os.environ["PERMGROUP_CACHE"] = saved


def rows_of(path, kind=None):
    info = read_puzzle_info(read_text(INFO))
    rows = read_puzzles(read_text(path), info)
    return [r for r in rows if kind is None or r.type == kind], \
        {k: with_inverses(m) for k, m in info.items()}


def csv_row(path, ident):
    return next(r for r in read_csv(path) if r["id"] == ident)


def test_santa_cube_rows_are_solved_and_checked(cache):
    rows, moves = rows_of(PUZZLES, "cube_3/3/3")
    more, _ = rows_of(MORE)
    applier = allowed_moves()
    # 140: every sticker distinct; 130: each face a checkerboard of two colours,
    # yet every piece shows its own colours
    for row in rows + more:
        word = chain_word(moves[row.type], row.start, row.goal, budget=Budget.of(30),
                          improve=0.5)
        assert word is not None, row.id
        source = PUZZLES if row in rows else MORE
        # solved exactly, wildcards or not (row 31 has 6)
        assert wrong_positions(csv_row(source, row.id), ".".join(word), applier) == 0
        # a two-phase word: the generic greedy gives about 80 moves here
        assert len(word) <= 36, (row.id, len(word))


def test_tables_are_read_back_from_the_cache(cache, monkeypatch):
    rows, moves = rows_of(PUZZLES, "cube_3/3/3")
    cube = moves["cube_3/3/3"]
    assert chain_word(cube, rows[0].start, rows[0].goal, budget=Budget.of(120),
                      improve=1.0) is not None
    names = os.listdir(cache)
    assert any(n.startswith("chain-") and n.endswith(".bytes") for n in names), names
    chain._PLANS.clear()  # as in a new process
    # no table may be built now (too slow for any time): an answer means they
    # were read from the cache
    monkeypatch.setattr(chain, "BUILD_RATE", 1e-9)
    assert chain_word(cube, rows[1].start, rows[1].goal, budget=Budget.of(60),
                      improve=1.0) is not None
    chain._PLANS.clear()
    assert sorted(os.listdir(cache)) == sorted(names)


def test_random_scrambles_are_solved(cache):
    rows, moves = rows_of(PUZZLES, "cube_3/3/3")
    cube = moves["cube_3/3/3"]
    applier = allowed_moves()["cube_3/3/3"]
    rng = random.Random(19)
    names = sorted(cube)
    for goal in (rows[0].goal, np.arange(54)):  # face colours, then every sticker distinct
        for _ in range(2):
            start = goal.copy()
            for name in (rng.choice(names) for _ in range(40)):
                start = start[cube[name]]
            word = chain_word(cube, start, goal, budget=Budget.of(60), improve=1.0)
            assert word is not None
            state = list(start)
            for name in word:  # the test's own applier: new[i] = old[p[i]]
                state = [state[j] for j in applier[name]]
            assert state == list(goal)


def test_the_2x2x2_against_the_exact_search(cache):
    rows, moves = rows_of(PUZZLES, "cube_2/2/2")
    applier = allowed_moves()
    for row in rows:
        word = chain_word(moves[row.type], row.start, row.goal, budget=Budget.of(60),
                          improve=1.0)
        optimal = exact_word(moves[row.type], row.start, row.goal, budget=Budget.of(60))
        assert wrong_positions(csv_row(PUZZLES, row.id), ".".join(word), applier) == 0
        assert len(optimal) <= len(word) <= len(optimal) + 4


def test_refusals_are_quick(cache):
    rows, moves = rows_of(PUZZLES)
    more, _ = rows_of(MORE)
    by_id = {r.id: r for r in rows + more}
    for ident in ("150", "284", "338", "358"):
        # 150: a 4x4x4 (alike centres, tables too large); a wreath and two globes
        row = by_id[ident]
        began = time.monotonic()
        assert chain_word(moves[row.type], row.start, row.goal, budget=Budget.of(60)) is None, ident
        assert time.monotonic() - began < 20, ident
    row = by_id["30"]
    cube = moves[row.type]
    # the down face given the up face's colour: two corners (and edges) look alike
    alike = np.where(row.goal == row.goal[-1], row.goal[0], row.goal)
    start = np.where(row.start == row.goal[-1], row.goal[0], row.start)
    assert chain_word(cube, start, alike, budget=Budget.of(60)) is None
    # one corner turned in place: the colours tell the position, but it is not
    # a position of the cube
    plan = chain.chain_plan(cube)
    corner = next(p for p in plan.pieces["orbit0"] if len(p) == 3)
    twisted = row.goal.copy()
    twisted[list(corner)] = row.goal[[corner[1], corner[2], corner[0]]]
    assert chain_word(cube, twisted, row.goal, budget=Budget.of(60)) is None


def test_a_megaminx_definition_is_refused():
    from permgroup import explore
    from permgroup.solution import gather_moves

    puzzle = explore.load_puzzle("megaminx")
    moves = gather_moves(puzzle)
    goal = np.arange(puzzle.degree)
    start = goal[moves[next(iter(moves))]]
    began = time.monotonic()
    assert chain_word(moves, start, goal, budget=Budget.of(60)) is None
    assert time.monotonic() - began < 20


def test_find_word_takes_the_chain_first(cache, monkeypatch):
    monkeypatch.setattr(chain, "SEARCH_SECONDS", 1.0)  # the answer's kind is the point
    rows, moves = rows_of(PUZZLES, "cube_3/3/3")
    row = rows[0]
    word = find_word(moves[row.type], row.start, row.goal, budget=Budget.of(60))
    assert wrong_positions(csv_row(PUZZLES, row.id), ".".join(word), allowed_moves()) == 0
    assert len(word) <= 36
