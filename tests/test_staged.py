"""The stages by search (permgroup.solver.staged) on Santa's 4x4x4: the centres,
the pairs, the quotient."""
from __future__ import annotations

import random
from collections import deque
from itertools import combinations

import numpy as np

from permgroup.budget import Budget
from permgroup.formats.santa import read_puzzle_info, with_inverses
from permgroup.formats.text import read_text
from permgroup.moves import MoveSet
from permgroup.solver.reduction import reduction_model
from permgroup.solver.staged import stage_model, staged_word, subset_distances
from tests.test_santa import INFO

SANTA = read_puzzle_info(read_text(INFO))
#: Santa's goal colouring of the 4x4x4: six faces of sixteen
GOAL = np.arange(96) // 16


def test_subset_distances_match_a_search_over_sets():
    """The table of a colour's four places on the 2x2x2 against a plain
    breadth-first search over frozensets."""
    moves = with_inverses(SANTA["cube_2/2/2"])
    perms = np.array([np.asarray(p) for p in moves.values()])
    places = [0, 1, 2, 3]
    table = subset_distances(perms, places, 24)
    seen = {frozenset(places): 0}
    todo = deque([frozenset(places)])
    while todo:
        here = todo.popleft()
        for p in perms:
            # the colour at `here` after p is gathered from there: before, at p[here]
            before = frozenset(int(p[i]) for i in here)
            if before not in seen:
                seen[before] = seen[here] + 1
                todo.append(before)
    sets = list(combinations(range(24), 4))
    assert len(table.depths) == len(sets)
    inside = np.zeros((len(sets), 24), dtype=bool)
    inside[np.repeat(np.arange(len(sets)), 4), np.array(sets).ravel()] = True
    found = table(inside)
    # the sets the moves cannot bring there (a sticker never turns onto another
    # of its corner) are marked 255
    assert 0 < len(seen) < len(sets)
    assert found.tolist() == [seen.get(frozenset(s), 255) for s in sets]


def test_the_4x4x4_stages_from_its_moves():
    """The moves keeping the centres' colouring are the face turns; they carry
    the wings in 24 pairs of one colour; every macro keeps the centres."""
    ms = MoveSet.from_moves(with_inverses(SANTA["cube_4/4/4"]))
    red = reduction_model(ms)
    stages = stage_model(ms, red.pieces, red.small, GOAL, red.frozen, red.position_orbit)
    assert stages is not None
    assert len(stages.centres) == 24 and len(stages.outer) == 6
    assert not set(stages.outer) & set(red.keeping)   # the face turns move the corners
    assert len(stages.blocks) == 24 and all(len(b) == 2 for b in stages.blocks)
    for b in stages.blocks:
        assert GOAL[b[0]] == GOAL[b[1]] and red.pieces.block_of[b[0]] != red.pieces.block_of[b[1]]
        for c in stages.outer:   # a face turn carries a block onto a block
            image = {int(x) for x in np.argsort(ms.powers[c][1])[list(b)]}
            assert any(image == set(other) for other in stages.blocks)
    assert len(stages.points) == 24 + 24     # the blocks and the corners' stickers
    for p in stages.macro_perms:
        assert (GOAL[p[stages.centres]] == GOAL[stages.centres]).all()
    assert any(len(w) > 1 for w in stages.macros)


def test_staged_word_solves_centres_then_pairs(monkeypatch):
    """A few moves from the goal: the word's first part puts the centres
    right, the rest pairs every block (the quotient left out here: its chain's
    tables take seconds to build); the word is what it says."""
    import permgroup.solver.staged as staged

    monkeypatch.setattr(staged, "_quotient_word", lambda *a: [])
    moves = with_inverses(SANTA["cube_4/4/4"])
    ms = MoveSet.from_moves(moves)
    red = reduction_model(ms)
    stages = stage_model(ms, red.pieces, red.small, GOAL, red.frozen, red.position_orbit)
    rng = random.Random(5)
    start = ms.apply(GOAL, [(rng.randrange(12), rng.choice([1, 3])) for _ in range(8)])
    word = staged_word(moves, ms, stages, start, GOAL, Budget.of(20))
    assert word is not None
    after = ms.apply(start, word)
    assert (after[stages.centres] == GOAL[stages.centres]).all()
    assert stages.unpaired(after[None])[0] == 0
    assert all(len(set(after[list(b)].tolist())) == 1 for b in stages.blocks)


def test_two_edges_swapped_by_half_turns():
    """The swap the face turns cannot make alone (a 4x4x4's two edges): found
    from the moves by the exact search over half turns, the look-alike
    centres it moves looking the same."""
    from permgroup.solver.staged import _quotient, _swap_word

    moves = with_inverses(SANTA["cube_4/4/4"])
    ms = MoveSet.from_moves(moves)
    red = reduction_model(ms)
    stages = stage_model(ms, red.pieces, red.small, GOAL, red.frozen, red.position_orbit)
    quotient, firsts, pairs, _, _ = _quotient(moves, ms, stages)
    assert len(quotient) == 12 and len(firsts) == 48 and len(pairs) == 12   # a 3x3x3's edges
    found = _swap_word(moves, ms, stages, pairs, GOAL, Budget.of(20))
    assert found is not None
    target, word = found
    assert all(e == 2 for _, e in word) and len(word) <= 8
    assert np.array_equal(ms.apply(GOAL, word), target)
    # two edges: four wings of two stickers (those of a colour both edges show alike)
    changed = np.flatnonzero(target != GOAL)
    assert 0 < len(changed) <= 8
    assert set(changed.tolist()) <= {p for b in stages.blocks for p in b}
    assert (target[stages.centres] == GOAL[stages.centres]).all()
    assert stages.unpaired(target[None])[0] == 0


def test_the_last_two_pairs_by_a_longer_macro():
    """Two edges' wings swapped by a macro ``s X s⁻¹`` of five outer quarter
    turns in ``X`` (longer than the pairing beam's; Santa's row 151 stalled
    there): the last macro's search pairs them again, centres kept."""
    from permgroup.solver.staged import MACRO_INNER, _last_macro

    moves = with_inverses(SANTA["cube_4/4/4"])
    ms = MoveSet.from_moves(moves)
    red = reduction_model(ms)
    stages = stage_model(ms, red.pieces, red.small, GOAL, red.frozen, red.position_orbit)
    macro = [(1, 1), (11, 3), (4, 3), (0, 1), (11, 1), (4, 1), (1, 3)]
    assert all(c in stages.outer for c, _ in macro[1:-1]) and macro[0][0] not in stages.outer
    start = ms.apply(GOAL, ms.inverse(macro))
    assert (start[stages.centres] == GOAL[stages.centres]).all()
    assert stages.unpaired(start[None])[0] > 0
    # no macro of the beam pairs them in one step
    assert (stages.unpaired(start[stages.macro_perms]) > 0).all()
    word = _last_macro(moves, ms, stages, start, GOAL, Budget.of(20))
    assert word is not None and len(word) - 2 > MACRO_INNER
    after = ms.apply(start, word)
    assert (after[stages.centres] == GOAL[stages.centres]).all()
    assert stages.unpaired(after[None])[0] == 0
