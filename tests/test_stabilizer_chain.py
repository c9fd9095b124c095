"""Stabilizer chains (permgroup.stabilizer_chain) and the orbit-by-orbit chain
of a group on many points (permgroup.orbit_chain).

Facts checked: every order equals sympy's ``order()`` (the puzzles of the
library, families, Santa types, and random groups built to tie orbits
together: copies of one action relabelled, its sign on two points, a second
action on other points); membership agrees with sympy's ``contains`` on
random elements, on elements mixed from two random elements factor by
factor, and on one transposition away; the proof each chain gives is the one
asked for; random elements are uniform over a small group (each element
drawn about equally often).
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from sympy.combinatorics import Permutation, PermutationGroup

from permgroup.orbit_chain import orbit_chain
from permgroup.perm_arrays import parity
from permgroup.stabilizer_chain import contains, schreier_sims
from puzzles import resolve
from tests.conftest import DATA

INFO = DATA / "santa2023" / "puzzle_info.csv"


def _sympy(gens, n):
    return PermutationGroup([Permutation(list(map(int, g)), size=n) for g in gens])


def _moves(name):
    puzzle = resolve(name).puzzle
    return np.array(list(puzzle.generators.values())), puzzle.degree


def test_a_chain_of_s5_is_proven_by_sims_criterion():
    chain = schreier_sims([(1, 2, 3, 4, 0), (1, 0, 2, 3, 4)])
    assert chain.order == 120 and chain.proven and "Sims" in chain.proof
    assert chain.orbit_sizes == [5, 4, 3, 2]
    assert contains(chain, (4, 3, 2, 1, 0))


def test_a_known_bound_proves_a_chain_without_sims_criterion():
    chain = schreier_sims([(1, 2, 3, 4, 0), (1, 0, 2, 3, 4)], bound=120)
    assert chain.order == 120 and chain.proven and "bound" in chain.proof
    with pytest.raises(ValueError, match="exceeds the bound"):
        schreier_sims([(1, 2, 3, 4, 0), (1, 0, 2, 3, 4)], bound=60)


def test_the_chain_of_an_action_carries_preimages():
    # the action on {0, 1} of a group on 4 points: order 2, each element lifted
    glue = schreier_sims([(1, 0, 3, 2), (0, 1, 3, 2)], points=[0, 1])
    assert glue.order == 2
    lift = glue.element_of(np.array([1, 0, 2, 3]))
    assert lift[:2].tolist() == [1, 0] and sorted(lift.tolist()) == [0, 1, 2, 3]


def _random_groups(seed: int, count: int):
    """Groups whose orbits are tied: copies of one random action relabelled,
    sometimes its sign on two more points, another random action, a square."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        d, k = int(rng.integers(3, 8)), int(rng.integers(2, 4))
        base = []
        for _ in range(k):
            p = np.arange(d)
            pts = rng.choice(d, int(rng.integers(2, d + 1)), replace=False)
            p[pts] = rng.permutation(pts)
            base.append(p)
        parts = []
        for _ in range(int(rng.integers(1, 4))):
            sigma = rng.permutation(d)
            parts.append([np.argsort(sigma)[g[sigma]] for g in base])
        if rng.random() < 0.5:
            parts.append([np.array([1, 0]) if parity(g) else np.array([0, 1]) for g in base])
        if rng.random() < 0.5:
            e = int(rng.integers(2, 6))
            parts.append([rng.permutation(e) for _ in range(k)])
        if rng.random() < 0.3:
            parts.append([g[g] for g in base])
        offsets = np.cumsum([0] + [len(part[0]) for part in parts])
        gens = np.array([np.concatenate([np.asarray(part[i]) + offsets[j]
                                         for j, part in enumerate(parts)]) for i in range(k)])
        shuffle = rng.permutation(gens.shape[1])
        yield np.argsort(shuffle)[gens[:, shuffle]], rng


def test_random_tied_groups_agree_with_sympy():
    for gens, rng in _random_groups(7, 20):
        n = gens.shape[1]
        group = _sympy(gens, n)
        chain = orbit_chain(gens)
        assert chain.order == group.order() and chain.proven
        assert schreier_sims(gens).order == group.order()
        elements = chain.random_elements(4, rng)
        assert all(group.contains(Permutation(e.tolist())) for e in elements)
        for f in chain.factors:
            points = f.points if f.shadows is None else np.concatenate([f.points,
                                                                       f.shadows.ravel()])
            mixed = elements[0].copy()
            mixed[points] = elements[1][points]
            swapped = elements[2].copy()
            swapped[points[:2]] = swapped[points[1::-1][:2]]
            for x in (mixed, swapped):
                assert bool(chain.contains(x)) == group.contains(Permutation(x.tolist()))


@pytest.mark.parametrize("name", ["cube3", "minicube", "skewb", "pyraminx", "dino",
                                  "jing-pyraminx", "pyraminx-faces", "3x3x3-2gen", "3p1",
                                  "cubic-eight", "lrx-9", "burnt-pancake-5", "topspin-9",
                                  "globe-3-4", "hungarian-6-2-6-2", "cube-3",
                                  f"{INFO}#cube_3/3/3", f"{INFO}#wreath_6/6",
                                  f"{INFO}#globe_3/4"])
def test_orders_equal_sympys(name):
    gens, n = _moves(name)
    chain = orbit_chain(gens, n)
    assert chain.order == _sympy(gens, n).order() and chain.proven


def test_the_4x4x4_santa_type_is_three_factors_glued_by_parities():
    gens, n = _moves(f"{INFO}#cube_4/4/4")
    chain = orbit_chain(gens, n)
    assert [(f.pieces, f.piece_size, f.describe()) for f in chain.factors] == [
        (8, 3, "order 44,089,920 (index 2)"), (24, 2, "A24 (index 2)"),
        (24, 1, "A24 (index 2)")]
    assert chain.glue.order == 4 and chain.proven
    # sympy's order (about 10 s) is 16972688908618238933770849245964147960401887232000000000
    assert chain.order == 16972688908618238933770849245964147960401887232000000000


def test_membership_gives_reasons():
    gens, n = _moves("cube3")
    chain = orbit_chain(gens, n)
    rng = np.random.default_rng(3)
    g = chain.random_elements(1, rng)[0]
    assert g in chain and chain.why_not(g) is None
    corner = chain.factors[0]
    x = g.copy()
    a, b = corner.points[:2]  # two stickers of one corner swapped: a mirror
    x[[a, b]] = x[[b, a]]
    assert x not in chain
    assert chain.why_not(x) == ("its arrangement of factor 0 (8 pieces of 3 points) is not "
                                "one the moves make")
    y = g.copy()
    a, b = corner.points[0], chain.factors[1].points[0]  # a corner and an edge sticker
    y[[a, b]] = y[[b, a]]
    assert chain.why_not(y) == "it takes a point of factor 0 out of it"
    z = g.copy()
    edge = chain.factors[1].points
    z[edge[:3]] = z[edge[[1, 2, 0]]]  # three edge stickers cycled: pieces broken
    assert z not in chain
    # two corners exchanged whole: right piece by piece, wrong parities together
    pieces = corner.points[corner.cyclic]
    swap = np.arange(54)
    swap[pieces[0]], swap[pieces[1]] = pieces[1], pieces[0]
    w = swap[g]
    assert w not in chain and "combination no element makes" in chain.why_not(w)


def test_random_elements_are_uniform():
    chain = orbit_chain([(1, 2, 0, 3, 4, 5), (0, 1, 2, 4, 5, 3), (1, 0, 2, 4, 3, 5)])
    drawn = Counter(map(tuple, chain.random_elements(1800, np.random.default_rng(5)).tolist()))
    assert len(drawn) == chain.order == 18
    assert max(drawn.values()) < 2 * min(drawn.values())


def test_a_giant_needs_no_chain():
    n = 40
    cycle = np.roll(np.arange(n), -1)
    swap = np.arange(n)
    swap[[0, 1]] = [1, 0]
    chain = orbit_chain(np.array([cycle, swap]))
    assert [f.describe() for f in chain.factors] == ["S40"]
    from math import factorial
    assert chain.order == factorial(40) and chain.proven
