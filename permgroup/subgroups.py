"""Subgroups a GAP user asks for, computed from chains: the stabilizer of
points or of a set, the normal closure of elements, the derived series,
whether a group is solvable.

Deriving a series builds a chain per term: meant for groups whose chains
take well under a second (up to a Rubik's cube); whether a group is solvable
is answered at once when an orbit's local subgroup is a giant.

Each subgroup is given by generators (numpy rows) and its chain
(:func:`permgroup.orbit_chain.orbit_chain`), and each is proven:

* a point stabilizer ``G_p`` by its order: uniform random elements of ``G``
  times the inverse of the transversal element with the same image of ``p``
  are uniform elements of ``G_p``; a few generate it, and the chain of what
  they generate reaching ``|G| / |p^G|`` (orbit–stabilizer) proves it is all
  of ``G_p`` (several points: one after another); a set's stabilizer the same
  way, over the orbit of the set (when it has not too many images);
* a normal closure by membership: every conjugate of a generator by a
  generator of the whole group lies in it;
* the derived subgroup is the normal closure of the commutators of pairs of
  generators.

>>> import numpy as np
>>> s4 = np.array([[1, 2, 3, 0], [1, 0, 2, 3]])
>>> [c.order for c in derived_series(s4)]
[24, 12, 4, 1]
>>> is_solvable(s4), stabilizer(s4, [0]).order
(True, 6)
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from permgroup.budget import Budget
from permgroup.errors import InputError
from permgroup.orbit_chain import OrbitChain, orbit_chain
from permgroup.perm_arrays import (INDEX, commutator, compose, identity, invert,
                                   unique_rows)

#: the largest orbit whose transversal a stabilizer keeps (rows of the degree)
MAX_ORBIT = 20_000
#: random Schreier generators tried at a time, and rounds of them
BATCH, ROUNDS = 4, 12


def _chain_of(group: np.ndarray | OrbitChain, budget: Budget | None) -> OrbitChain:
    return group if isinstance(group, OrbitChain) else orbit_chain(
        np.asarray(group, dtype=INDEX), budget=budget)


def orbit_transversal(gens: np.ndarray, point: int, limit: int = MAX_ORBIT
                      ) -> tuple[np.ndarray, np.ndarray]:
    """The orbit of ``point`` under ``gens`` (breadth first) and, for each
    orbit point, an element taking ``point`` there (rows); ``InputError``
    past ``limit`` points.

    >>> orbit, reps = orbit_transversal(np.array([[1, 2, 0]]), 0)
    >>> orbit.tolist(), reps[:, 0].tolist()
    ([0, 1, 2], [0, 1, 2])
    """
    from permgroup.levels import DenseKeys, by_moves, levels

    n = gens.shape[1]
    start = np.array([point])
    orbit, reps = [start], [identity(n)[None]]
    size = 1
    step = by_moves(lambda points, m: gens[m][points], len(gens))
    for level in levels(start, step, seen=DenseKeys(n, start)):
        size += len(level.states)
        if size > limit:
            raise InputError(f"the orbit of point {point} has more than {limit:,} points: "
                             "too many for its transversal")
        orbit.append(level.states)
        reps.append(compose(reps[-1][level.parent], gens[level.move]))
    return np.concatenate(orbit), np.concatenate(reps)


def stabilizer(group: np.ndarray | OrbitChain, points: Sequence[int], *,
               budget: Budget | None = None, seed: int = 0) -> OrbitChain:
    """The chain of the elements fixing each of ``points`` (see the module
    docstring); its ``generators`` generate it.

    >>> stabilizer(np.array([[1, 2, 3, 4, 0], [1, 0, 2, 3, 4]]), [0, 1]).order
    6
    """
    chain = _chain_of(group, budget)
    rng = np.random.default_rng(seed)
    for point in points:
        chain = _point_stabilizer(chain, int(point), rng, budget)
    return chain


def _point_stabilizer(chain: OrbitChain, point: int, rng: np.random.Generator,
                      budget: Budget | None) -> OrbitChain:
    gens = chain.generators[(chain.generators != identity(chain.degree)).any(axis=1)]
    if not len(gens) or (gens[:, point] == point).all():
        return chain
    orbit, reps = orbit_transversal(gens, point)
    where = np.full(chain.degree, -1, dtype=INDEX)
    where[orbit] = np.arange(len(orbit))
    target = chain.order // len(orbit)
    found = np.empty((0, chain.degree), dtype=INDEX)
    # the moves that fix the point are in the stabilizer already
    found = np.concatenate([found, gens[gens[:, point] == point]])
    for _ in range(ROUNDS):
        if budget is not None:
            budget.check()
        g = chain.random_elements(BATCH, rng)
        schreier = compose(g, invert(reps[where[g[:, point]]]))
        found = np.concatenate([found, schreier[(schreier != identity(chain.degree))
                                                .any(axis=1)]])
        if not len(found):
            continue
        sub = orbit_chain(found, chain.degree, budget=budget)
        if sub.order == target:
            sub.proof = (f"{sub.proof}; the stabilizer of point {point}: order |G| / "
                         f"|orbit| = {chain.order} / {len(orbit)}")
            return sub
    if target == 1:
        return orbit_chain(identity(chain.degree)[None], chain.degree)
    raise InputError(f"the stabilizer of point {point} was not generated by "
                     f"{ROUNDS * BATCH} random Schreier generators")


def set_stabilizer(group: np.ndarray | OrbitChain, points: Sequence[int], *,
                   budget: Budget | None = None, seed: int = 0,
                   limit: int = 50_000_000) -> OrbitChain:
    """The chain of the elements mapping the set ``points`` onto itself
    (GAP's ``Stabilizer(G, set, OnSets)``): the orbit of the set under the
    group, breadth first with an element taking the set to each image, then
    random Schreier generators until their chain has the order ``|G|`` over
    the orbit's size.  ``InputError`` when the orbit would hold more than
    ``limit`` entries (images times points).

    >>> set_stabilizer(np.array([[1, 2, 3, 0], [1, 0, 2, 3]]), [0, 1]).order
    4
    """
    chain = _chain_of(group, budget)
    n = chain.degree
    gens = chain.generators[(chain.generators != identity(n)).any(axis=1)]
    start = np.zeros(n, dtype=bool)
    start[list(points)] = True
    if not len(gens) or all((start[g] == start).all() for g in gens):
        return chain
    # images of the set (as masks), each with an element taking the set there
    keys = {start.tobytes(): 0}
    masks, reps = [start], [identity(n)]
    i = 0
    while i < len(masks):
        if budget is not None:
            budget.check()
        for g in gens:
            image = np.zeros(n, dtype=bool)
            image[g[masks[i]]] = True
            key = image.tobytes()
            if key not in keys:
                if (len(masks) + 1) * n > limit:
                    raise InputError(f"the set has more than {len(masks):,} images under the "
                                     "group: too many to find its stabilizer this way")
                keys[key] = len(masks)
                masks.append(image)
                reps.append(compose(reps[i], g))
        i += 1
    reps = np.array(reps)
    rng = np.random.default_rng(seed)
    target = chain.order // len(masks)
    found = gens[[bool((start[g] == start).all()) for g in gens]]
    for _ in range(ROUNDS):
        g = chain.random_elements(BATCH, rng)
        images = np.zeros((len(g), n), dtype=bool)
        images[np.repeat(np.arange(len(g)), len(points)), g[:, list(points)].ravel()] = True
        where = [keys[row.tobytes()] for row in images]
        schreier = compose(g, invert(reps[where]))
        found = np.concatenate([found, schreier[(schreier != identity(n)).any(axis=1)]])
        sub = orbit_chain(found, n, budget=budget) if len(found) else None
        if sub is not None and sub.order == target:
            sub.proof = (f"{sub.proof}; the stabilizer of a set of {len(points)} points: order "
                         f"|G| / |orbit of the set| = {chain.order} / {len(masks)}")
            return sub
    if target == 1:
        return orbit_chain(identity(n)[None], n)
    raise InputError(f"the set's stabilizer was not generated by {ROUNDS * BATCH} random "
                     "Schreier generators")


def normal_closure(gens: np.ndarray, of: np.ndarray | OrbitChain, *,
                   budget: Budget | None = None, seed: int = 0) -> OrbitChain:
    """The chain of the smallest subgroup holding ``gens`` that every element
    of ``of`` (generators, or a chain whose generators are used) normalizes:
    conjugates by random elements of ``of``'s group first (they generate it
    quickly), then conjugates by each generator join until all lie in it.

    >>> normal_closure(np.array([[1, 2, 0, 3]]), np.array([[1, 0, 2, 3], [0, 1, 3, 2]])).order
    12
    """
    whole = of if isinstance(of, OrbitChain) else None
    of = of.generators if whole is not None else np.asarray(of, dtype=INDEX)
    n = of.shape[1]
    gens = unique_rows(np.asarray(gens, dtype=INDEX).reshape(-1, n))
    gens = gens[(gens != identity(n)).any(axis=1)]
    of = of[(of != identity(n)).any(axis=1)]
    if not len(gens):
        return orbit_chain(identity(n)[None], n, budget=budget)
    if whole is not None and len(of):
        rng = np.random.default_rng(seed)
        g = whole.random_elements(2 * BATCH, rng)
        x = gens[rng.integers(len(gens), size=len(g))]
        gens = np.concatenate([gens, compose(compose(invert(g), x), g)])
    while True:
        chain = orbit_chain(gens, n, budget=budget)
        conjugates = compose(compose(np.repeat(invert(of), len(gens), axis=0),
                                     np.tile(gens, (len(of), 1))), np.repeat(of, len(gens), axis=0))
        outside = ~np.asarray(chain.contains(conjugates), dtype=bool)
        if not outside.any():
            return chain
        gens = unique_rows(np.concatenate([gens, conjugates[outside]]))


def derived_subgroup(group: np.ndarray | OrbitChain, *, budget: Budget | None = None
                     ) -> OrbitChain:
    """The chain of ``[G, G]``: the normal closure of the commutators of
    pairs of generators."""
    chain = _chain_of(group, budget)
    gens = chain.generators[(chain.generators != identity(chain.degree)).any(axis=1)]
    a, b = np.triu_indices(len(gens), 1)
    comms = commutator(gens[a], gens[b]) if len(a) else gens[:0]
    return normal_closure(comms, chain, budget=budget)


def derived_series(group: np.ndarray | OrbitChain, *, budget: Budget | None = None,
                   ) -> list[OrbitChain]:
    """``G ≥ G' ≥ G'' ≥ ...`` down to the first term equal to the next (the
    identity for a solvable group), each as a chain."""
    chain = _chain_of(group, budget)
    series = [chain]
    while series[-1].order > 1:
        nxt = derived_subgroup(series[-1], budget=budget)
        if nxt.order == series[-1].order:
            break
        series.append(nxt)
    return series


def is_solvable(group: np.ndarray | OrbitChain, *, budget: Budget | None = None) -> bool:
    """Whether the derived series reaches the identity; at once ``False``
    when some orbit's local subgroup is ``A_n`` or ``S_n`` with ``n ≥ 5``
    (a non-abelian simple section)."""
    chain = _chain_of(group, budget)
    if any(f.local.kind in ("A", "S") and f.size >= 5 for f in chain.factors):
        return False
    for f in chain.factors:  # a subgroup of a solvable group is solvable
        if f.local.kind == "chain" and f.size < chain.degree and \
                not is_solvable(f.local.chain.strong_generators, budget=budget):
            return False
    return derived_series(chain, budget=budget)[-1].order == 1
