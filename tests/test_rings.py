"""Puzzles of rings (Santa's wreaths and globes): 3-cycles where no commutator
of two moves gives one, every reachable position solved (distinct labels and
colours alike), the last-resort finish, and small rings solved within their
God's number (a plain breadth-first search written here)."""
from __future__ import annotations

import random
from collections import deque

import numpy as np
import pytest

from permgroup.budget import Budget
from permgroup.solver import find_word
from permgroup.solver.descent import descent_cycles
from permgroup.moves import MoveSet
from permgroup.solver.pieces import Pieces
from tests.test_solver import SANTA, plain_apply


def two_rings(n: int, d: int) -> dict[str, np.ndarray]:
    """Two rings of ``n`` cells sharing cells 0 and ``d`` of the first (built
    here, independently of any puzzle file): ``a`` turns cells ``0..n-1``, ``b``
    turns 0, the new cells ``n..``, ``d`` and more new cells, each one step."""
    first = list(range(n))
    new = iter(range(n, 2 * n - 2))
    second = [0] + [next(new) for _ in range(n // 2 - 1)] + [d]
    second += [next(new) for _ in range(n - len(second))]
    moves = {}
    for name, ring in (("a", first), ("b", second)):
        p = list(range(2 * n - 2))
        for k, x in enumerate(ring):      # the cell at ring[k - 1] moves to ring[k]
            p[x] = ring[k - 1]
        moves[name] = np.array(p)
        moves["-" + name] = np.argsort(p)
    return moves


def colour_row(kind: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The start and goal of a fresh row of Santa's type ``kind`` with the
    colours of its competition rows (a position made by random moves)."""
    from puzzles.santa_types import random_rows

    row = random_rows(kind, 1, seed=seed, distinct=False)[0]
    labels = sorted(set(row["solution_state"].split(";")))
    goal = np.array([labels.index(x) for x in row["solution_state"].split(";")])
    start = np.array([labels.index(x) for x in row["initial_state"].split(";")])
    return start, goal


def scramble(moves, goal, steps, rng):
    return np.array(plain_apply(goal, [rng.choice(sorted(moves)) for _ in range(steps)], moves))


def test_three_cycles_of_rings_sharing_two_cells():
    """No commutator of two turns of these rings is a 3-cycle (any two turns
    meet in two cells); the descent finds some, each moving exactly three cells
    (applied to the identity by the plain applier)."""
    for moves in (two_rings(12, 3), {k: np.array(v) for k, v in _santa("wreath_6/6").items()}):
        ms = MoveSet.from_moves(moves)
        tools = descent_cycles(ms, Pieces.of(ms), [0])
        assert tools
        for t in tools:
            after = np.array(plain_apply(range(ms.degree), ms.names(t.word), moves))
            moved = np.flatnonzero(after != np.arange(ms.degree))
            assert len(moved) == 3 and sorted(after[moved]) == sorted(moved)


def _santa(kind):
    from permgroup.formats.santa import with_inverses

    return with_inverses(SANTA[kind])


@pytest.mark.parametrize("n, d", [(12, 3), (21, 6)])
def test_random_positions_of_distinct_rings_are_solved(n, d):
    """Positions made by random moves, every cell distinct, solved and checked
    by the plain applier (these were 'no tool helps' before the descent)."""
    moves = two_rings(n, d)
    goal = np.arange(2 * n - 2)
    rng = random.Random(n)
    for _ in range(2):
        start = scramble(moves, goal, 500, rng)
        word = find_word(moves, start, goal, budget=Budget.of(3))
        assert plain_apply(start, word, moves) == goal.tolist()


@pytest.mark.parametrize("kind", ["wreath_6/6", "globe_1/8", "globe_3/4"])
def test_random_positions_of_santa_rings_are_solved(kind):
    """Fresh positions of Santa's ring types, with distinct labels and with the
    colours of a row of the competition, solved and checked."""
    moves = _santa(kind)
    n = len(next(iter(moves.values())))
    rng = random.Random(7)
    for goal in (np.arange(n), np.array([i * 4 // n for i in range(n)])):
        start = scramble(moves, goal, 300, rng)
        word = find_word(moves, start, goal, budget=Budget.of(5))
        assert plain_apply(start, word, moves) == goal.tolist()


def test_a_time_limit_far_too_short_still_gives_a_word():
    """With a limit no search can meet, the last-resort finish answers: a
    limit trades length, never the answer."""
    moves = _santa("globe_3/4")
    goal = np.arange(32)
    start = scramble(moves, goal, 200, random.Random(2))
    word = find_word(moves, start, goal, budget=Budget.of(0.001))
    assert plain_apply(start, word, moves) == goal.tolist()


def bfs_distances(moves, goal):
    """Every position's distance to ``goal`` (plain breadth-first search)."""
    seen = {tuple(goal): 0}
    queue = deque([tuple(goal)])
    while queue:
        s = queue.popleft()
        for p in moves.values():
            t = tuple(s[i] for i in p)
            if t not in seen:
                seen[t] = seen[s] + 1
                queue.append(t)
    return seen


def test_small_rings_within_gods_number():
    """Two rings of four cells sharing two (720 positions): every word found is
    as short as the breadth-first search says (moves are self-inverse-closed,
    so distances to the goal are distances from it)."""
    moves = two_rings(4, 2)
    goal = np.arange(6)
    dist = bfs_distances(moves, goal)
    rng = random.Random(4)
    for _ in range(5):
        start = scramble(moves, goal, 40, rng)
        word = find_word(moves, start, goal, budget=Budget.of(10))
        assert plain_apply(start, word, moves) == goal.tolist()
        assert len(word) == dist[tuple(start)]


def test_santa_types_are_santas_moves_and_colours():
    """The generated types (puzzles/santa_types.py) have the moves of Santa's
    puzzle_info.csv, move for move, for every type in tests/data; cubes and
    wreaths have the colours of its rows' solved states."""
    from puzzles.santa_types import moves, solved_colours
    from tests.test_santa import PUZZLES, read_csv

    for kind, theirs in SANTA.items():
        assert moves(kind) == {k: v.tolist() for k, v in theirs.items()}
    for row in read_csv(PUZZLES):
        kind = row["puzzle_type"]
        if not kind.startswith("globe") and not row["solution_state"].startswith("N"):
            assert solved_colours(kind) == row["solution_state"].split(";")


def test_fresh_rows_of_a_new_type_are_reachable_and_solved():
    """A wreath and a globe Santa never had, in Santa's format, read by the
    Santa reader and solved by the driver (every row checked)."""
    import io
    import tempfile

    from puzzles.formats.santa2023 import solve_text
    from puzzles.santa_types import puzzle_info, puzzles_csv, random_rows

    kinds = ["wreath_9/9", "globe_2/5"]
    rows = [r for k in kinds for d in (False, True)
            for r in random_rows(k, 1, seed=1, distinct=d, first_id=0)]
    for i, r in enumerate(rows):
        r["id"] = i
    with tempfile.TemporaryDirectory() as folder:
        info = f"{folder}/puzzle_info.csv"
        with open(info, "w") as f:
            f.write(puzzle_info(kinds))
        out = solve_text(puzzles_csv(rows), info=info, time_limit=3, stream=io.StringIO())
    assert len(out.splitlines()) == 1 + len(rows)


@pytest.mark.parametrize("kind", ["wreath_12/12", "wreath_21/21"])
def test_fresh_distinct_positions_of_santas_wreaths_are_solved(kind):
    """Santa's wreath_12/12 and wreath_21/21 with every cell labelled apart,
    positions made by random moves (reachable): solved at a limit no search
    meets, by the last-resort finish, and at a few seconds (before the
    commutators of commutators: 'no tool helps' and 'no word found in 60 s')."""
    from puzzles.santa_types import moves as santa_moves, random_rows

    from permgroup.formats.santa import with_inverses

    moves = with_inverses({k: np.array(v) for k, v in santa_moves(kind).items()})
    for limit, row in zip((0.001, 3), random_rows(kind, 2, seed=5, distinct=True)):
        labels = row["solution_state"].split(";")
        goal = np.arange(len(labels))
        start = np.array([labels.index(x) for x in row["initial_state"].split(";")])
        assert len(set(labels)) == len(labels) and (start != goal).any()
        word = find_word(moves, start, goal, budget=Budget.of(limit))
        assert plain_apply(start, word, moves) == goal.tolist()


def test_the_last_resort_finish_is_counted_not_timed(monkeypatch):
    """The finish takes no deadline: each of its passes scans the tool table
    at most STEPS_PER_WRONG per wrong sticker and EXTRA_STEPS more times, and
    never grows the table past MAX_TABLE_ROWS (here twice the model's); the
    position is still solved (a cube's two corners turned in place, by the
    table's tools: no 3-cycle turns them alone)."""
    import sys

    from permgroup.solver import finish as last, model
    from permgroup.solver.commutators import ToolTable

    moves = _santa("cube_3/3/3")
    ms = MoveSet.from_moves(moves)
    goal = np.arange(ms.degree) // 9
    scrambled = scramble(moves, goal, 100, random.Random(9))
    m = model(ms)
    # the 3-cycles of stickers bring a scramble home alone; two corners turned
    # in place (a twist of the model's table) are left to the table's tools
    assert (ms.apply(scrambled, m.cycles.solve(scrambled, goal)) == goal).all()
    corners = set(m.pieces.orbits[0])

    def turned(i: int) -> set:   # the pieces row i moves
        pos = m.table.pos[i]
        return set(m.pieces.block_of[pos[pos < ms.degree]].tolist())

    twist = next(i for i in range(m.table.size)
                 if np.count_nonzero(m.table.pos[i] < ms.degree) == 6 and len(turned(i)) == 2
                 and turned(i) <= corners)
    start = ms.apply(goal, m.table.word(twist))
    cap = 2 * m.table.size
    monkeypatch.setattr(sys.modules["permgroup.solver.greedy"], "MAX_TABLE_ROWS", cap)
    scans = []
    gains = ToolTable.gains
    monkeypatch.setattr(ToolTable, "gains", lambda self, *a: scans.append(1) or gains(self, *a))
    word = last.finish(ms, m, start, goal)
    assert plain_apply(start, ms.names(word), moves) == goal.tolist()
    wrong = int(np.count_nonzero(start != goal))
    passes = 2 if last.rescue_cycles(ms, m) is not None else 1
    assert 0 < len(scans) <= passes * (last.STEPS_PER_WRONG * wrong + last.EXTRA_STEPS)
    assert m.table.size <= cap


def test_the_solve_path_answers_when_an_earlier_method_takes_all_the_time(monkeypatch):
    """permgroup.solve: when a method before the generic solver spends the
    whole time limit (a chain's tables built on a loaded machine), the generic
    solver still answers (a limit trades length, never the answer); a
    cancelled request still stops."""
    import threading
    import time

    import permgroup.solution as solution
    from permgroup.errors import Stopped
    from permgroup.formats.santa import moves_definition

    def slow(t, budget, bound, max_length=None):
        while not budget.expired:
            time.sleep(0.01)
        raise Stopped(budget.stop_reason())

    monkeypatch.setattr(solution, "_by_chain", slow)
    moves = _santa("globe_3/4")
    goal = np.arange(32) * 4 // 32
    start = scramble(moves, goal, 100, random.Random(3))
    found = solution.solve(solution.door(moves_definition("globe_3/4", SANTA["globe_3/4"])),
                           tuple(start.tolist()), tuple(goal.tolist()), time_limit=0.5)
    assert found.method == "greedy"
    assert plain_apply(start, found.word, moves) == goal.tolist()
    cancelled = Budget.of(time_limit=5)
    threading.Timer(0.1, cancelled.cancel.set).start()
    with pytest.raises(solution.NoWord):
        solution.solve(solution.door(moves_definition("globe_3/4", SANTA["globe_3/4"])),
                       tuple(start.tolist()), tuple(goal.tolist()), budget=cancelled)


def test_the_opening_sorts_pieces_between_rings():
    """Santa's wreath_33/33 with its colours, a position made by random moves:
    the opening's word (turns and commutators of turns, then commutators of
    turns by any amount inserted in it) reaches the state it says, here the
    goal (the beam alone left 9 of 34 cells wrong; checked by the plain
    applier); the solver's word through it solves the position.  Globes and
    cubes are not puzzles of rings only (their flips and face turns move
    several cycles)."""
    from puzzles.santa_types import moves as santa_moves

    from permgroup.formats.santa import with_inverses
    from permgroup.solver.rings import opening, rings_of

    moves = with_inverses({k: np.array(v) for k, v in santa_moves("wreath_33/33").items()})
    assert sorted(rings_of(moves)) in (["l", "r"], ["-l", "-r"], ["-l", "r"], ["l", "-r"])
    start, goal = colour_row("wreath_33/33", 3)
    word, state = opening(moves, start, goal)
    assert plain_apply(start, word, moves) == state.tolist()
    assert state.tolist() == goal.tolist()
    solved = find_word(moves, start, goal, budget=Budget.of(5))
    assert plain_apply(start, solved, moves) == goal.tolist()
    for kind in ("globe_3/4", "cube_3/3/3"):
        assert rings_of(_santa(kind)) is None


def test_commutators_inserted_sort_the_cells_of_a_globe():
    """Santa's globe_1/16 with its colours (runs of four cells), a position made
    by random moves: the opening of rings meeting through flips (ring turns
    commutated with flipped ring turns, inserted in the word) reaches the state
    it says with most cells home; the solver's word through it solves the
    position (both checked by the plain applier)."""
    from puzzles.santa_types import moves as santa_moves

    from permgroup.formats.santa import with_inverses
    from permgroup.solver.rings import opening, ring_classes

    moves = with_inverses({k: np.array(v) for k, v in santa_moves("globe_1/16").items()})
    ms = MoveSet.from_moves(moves)
    assert len(ring_classes(ms)) == 2 and len(ms.classes) == 2 + 32
    start, goal = colour_row("globe_1/16", 5)
    # 3 s: the opening's setup under a loaded suite can take most of 1 s
    word, state = opening(moves, start, goal, budget=Budget.of(3))
    assert plain_apply(start, word, moves) == state.tolist()
    assert np.count_nonzero(state != goal) < np.count_nonzero(start != goal) * 0.9
    solved = find_word(moves, start, goal, budget=Budget.of(1))
    assert plain_apply(start, solved, moves) == goal.tolist()


def test_the_insertions_words_are_weighed_by_their_finished_length():
    """Santa's globe_3/4 with its colours, a position made by random moves: a
    word of the insertions that leaves cells wrong is handed to the finish,
    and what comes back is the whole word from the start to the goal
    (checked by the plain applier); a finish that finds nothing leaves the
    insertions' word as it was."""
    from puzzles.santa_types import moves as santa_moves

    from permgroup.formats.santa import with_inverses
    from permgroup.solver.rings import best_insertions, ring_classes

    moves = with_inverses({k: np.array(v) for k, v in santa_moves("globe_3/4").items()})
    ms = MoveSet.from_moves(moves)
    start, goal = colour_row("globe_3/4", 3)
    asked = []

    def finish(word):
        asked.append(list(word))
        state = ms.apply(start, word)
        return ms.letters(find_word(moves, state, goal, budget=Budget.of(0.5), chain=False,
                                    rings=False, polish=False))

    rings = ring_classes(ms)
    flip = next(c for c in range(len(ms.classes)) if c not in rings)
    prefix = [(flip, 1), (rings[0], 1)]
    alone = best_insertions(ms, rings, start, goal, [prefix])
    left = np.count_nonzero(ms.apply(start, alone) != goal)
    word = best_insertions(ms, rings, start, goal, [prefix], finish=finish)
    assert asked == ([alone] if left else [])
    assert plain_apply(start, ms.names(word), moves) == goal.tolist()
    assert word[:len(alone)] == alone
    assert best_insertions(ms, rings, start, goal, [prefix], finish=lambda word: None) == alone


@pytest.mark.parametrize("kind", ["globe_3/4", "wreath_16/16"])
def test_small_rings_of_colours_take_the_insertions(kind):
    """Santa's globe_3/4 (32 cells) and wreath_16/16 (30) with their colours,
    a position made by random moves: the opening applies (it was left to the
    generic solver below 40 cells) and reaches the state it says with fewer
    cells wrong (checked by the plain applier)."""
    from puzzles.santa_types import moves as santa_moves

    from permgroup.formats.santa import with_inverses
    from permgroup.solver.rings import opening

    moves = with_inverses({k: np.array(v) for k, v in santa_moves(kind).items()})
    start, goal = colour_row(kind, 3)
    word, state = opening(moves, start, goal, budget=Budget.of(0.5))
    assert plain_apply(start, word, moves) == state.tolist()
    assert np.count_nonzero(state != goal) < np.count_nonzero(start != goal)


def test_the_flip_prefix_puts_cells_home_for_fewer_moves_than_the_insertions():
    """Santa's globe_1/16 with its colours, a position made by random moves:
    the beam over flips and ring turns that starts a globe's word puts cells
    home for fewer moves a cell than the insertions after it spend (checked
    by the plain applier)."""
    from puzzles.santa_types import moves as santa_moves

    from permgroup.formats.santa import with_inverses
    from permgroup.solver.rings import (INSERT_CELL_COST, PREFIX_WIDTHS, WIDTH, flip_prefixes,
                                        ring_classes)

    moves = with_inverses({k: np.array(v) for k, v in santa_moves("globe_1/16").items()})
    ms = MoveSet.from_moves(moves)
    start, goal = colour_row("globe_1/16", 5)
    first, *others = flip_prefixes(ms, ring_classes(ms), start, goal,
                                   (INSERT_CELL_COST, 0.0, INSERT_CELL_COST), budget=Budget.of(3),
                                   widths=PREFIX_WIDTHS[:3])
    # each cut once, those of the costs first (a cell costing nothing: no
    # prefix), then the path's other points
    assert others[0] == [] and len({tuple(w) for w in [first, *others]}) == 1 + len(others)
    # the cuts of the first beam's costs come first, those of wider beams after
    one = list(flip_prefixes(ms, ring_classes(ms), start, goal, (INSERT_CELL_COST, 0.0),
                             budget=Budget.of(3), widths=(WIDTH,)))
    assert [first, *others][:2] == one[:2] and len(others) + 1 >= len(one)
    word = ms.names(first)
    home = np.count_nonzero(start != goal) - np.count_nonzero(
        np.array(plain_apply(start, word, moves)) != goal)
    assert word and 0 < len(word) < INSERT_CELL_COST * home
