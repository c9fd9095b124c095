"""Whether a state can be reached, and if not, why, in the puzzle's own terms.

The laws come from the group's structure (:mod:`permgroup.structure`, each
proven from the generators): pieces stay in their orbits and keep their
stickers together in cyclic order; an orbit whose moves are all even keeps an
even arrangement; parities tied across orbits stay tied; orientation sums stay
fixed.  When the structure is proven these laws decide membership exactly (a
state obeying them is reachable); otherwise the stabilizer chain's membership
test (:meth:`permgroup.orbit_chain.OrbitChain.why_not`) decides what they
leave open.

A state is an element (a permutation of the stickers) or a colouring.  A
colouring is read piece by piece: each slot must show the colours of some
piece in an order a turn gives; pieces that look alike may be exchanged, which
frees the parity (and, for a piece whose colours repeat, the turn) of their
orbit.

>>> from permgroup.explore import load_puzzle
>>> from permgroup.elements import Element
>>> cube = load_puzzle("cube3")
>>> print(reachable(cube, Element.from_word(cube, "R U")))
reachable
>>> print(reachable(cube, Element(cube, _cycle(cube, cube.pieces["corner"][0]))))
not reachable: the corner twists add up to 1 (mod 3): every move keeps that sum at 0
>>> print(reachable(cube, Element(cube, _cycle(cube, (0, 1)))))
not reachable: corner 0 (stickers 0, 36, 47) would go to a place among the edges: no sequence of moves takes a corner there
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from html import escape

from permgroup.elements import Element, state_colours
from permgroup.perm import parity
from permgroup.puzzle import Puzzle


@dataclass(frozen=True)
class Reachability:
    """The answer: ``bool()`` of it says whether the state is reachable,
    ``reasons`` why not (empty when it is), ``method`` how it was decided;
    ``decided`` is false when laws that hold did not settle it (a reachable
    answer then means "no law forbids it").  ``element``: the permutation of
    the stickers that makes the state from solved, when the colours tell it
    (every piece told apart from the others of its orbit), else ``None``."""

    reachable: bool
    reasons: tuple[str, ...]
    method: str
    decided: bool = True
    element: tuple[int, ...] | None = field(default=None, repr=False, compare=False)

    def __bool__(self) -> bool:
        return self.reachable

    def __str__(self) -> str:
        return "reachable" if self.reachable else "not reachable: " + "; ".join(self.reasons)

    def _repr_html_(self) -> str:
        if self.reachable:
            return f"<div><b>reachable</b> ({escape(self.method)})</div>"
        items = "".join(f"<li>{escape(r)}</li>" for r in self.reasons)
        return f"<div><b>not reachable</b> ({escape(self.method)})<ul>{items}</ul></div>"


def _cycle(puzzle: Puzzle, stickers: Sequence[int]) -> tuple[int, ...]:
    """The permutation cycling ``stickers`` (for examples)."""
    p = list(range(puzzle.degree))
    for a, b in zip(stickers, [*stickers[1:], stickers[0]]):
        p[a] = b
    return tuple(p)


def _name(kind: str, slot: int, piece: Sequence[int]) -> str:
    return f"{kind} {slot} (stickers {', '.join(map(str, piece))})"


def _orbit_word(kind: str) -> str:
    import re

    return "pieces" if re.fullmatch(r"P\d+[a-z]?", kind) else re.sub(r"\d+$", "", kind) + "s"


def reachable(puzzle: Puzzle, state, *, quick: bool = False) -> Reachability:
    """Whether ``state`` (an :class:`Element`, a :class:`State` or a sequence of
    colours) can be reached from solved, with the reasons when it cannot (see
    the module docstring).  ``quick``: only the laws read off the moves
    (:func:`permgroup.structure.laws`), no chain, within about a second
    on any puzzle; a state that obeys them is ``decided=False`` unless they
    are proven complete.

    >>> from permgroup.puzzle import Puzzle
    >>> ring = Puzzle("ring", 4, {"T": (1, 2, 3, 0)}, solved="abcd")
    >>> print(reachable(ring, "dabc")), print(reachable(ring, "abdc"))
    reachable
    not reachable: ...
    (None, None)
    >>> reachable(ring, "dabc").element
    (1, 2, 3, 0)
    """
    from permgroup.structure import laws as laws_of, structure

    laws = laws_of(puzzle, quick=True) if quick else structure(puzzle).laws
    exact = not quick
    if isinstance(state, Element):
        return replace(_element(puzzle, state.perm, laws, exact=exact), element=state.perm)
    colours = state_colours(puzzle, state)
    if len(colours) != puzzle.degree:
        return Reachability(False, (f"the state has {len(colours)} positions; {puzzle.name} "
                                    f"has {puzzle.degree}",), "size")
    solved = tuple(puzzle.solved) if puzzle.solved else tuple(range(puzzle.degree))
    if Counter(map(str, colours)) != Counter(map(str, solved)):
        have, want = Counter(map(str, colours)), Counter(map(str, solved))
        diff = [f"{c!r}: {have.get(c, 0)} here, {want.get(c, 0)} when solved"
                for c in sorted(set(have) | set(want)) if have.get(c, 0) != want.get(c, 0)]
        return Reachability(False, ("the colour counts differ (" + "; ".join(diff) + ")",),
                            "colour counts")
    return _colouring(puzzle, colours, solved, laws, exact)


def _fixed_positions(puzzle: Puzzle, laws) -> set[int]:
    inside = {x for pieces in laws.kinds.values() for p in pieces for x in p}
    return set(range(puzzle.degree)) - inside


def _element(puzzle: Puzzle, perm: Sequence[int], laws, exact: bool,
             free_parity: set[int] = frozenset(), free_twist: set[int] = frozenset()
             ) -> Reachability:
    """The laws on an element; ``free_*``: orbits whose parity or turn is free
    (identical pieces)."""
    reasons = []
    names = list(laws.kinds)
    for x in sorted(_fixed_positions(puzzle, laws)):
        if perm[x] != x:
            reasons.append(f"position {x} never moves, but the state moves it")
            break
    where_of: dict[int, tuple[int, int, int]] = {}
    for o, pieces in enumerate(laws.kinds.values()):
        for slot, piece in enumerate(pieces):
            for r, x in enumerate(piece):
                where_of[x] = (o, slot, r)
    wheres, twists = [], []
    for o, (kind, pieces) in enumerate(laws.kinds.items()):
        where, twist = [], []
        for slot, piece in enumerate(pieces):
            target = where_of.get(perm[piece[0]])
            if target is None or target[0] != o:
                other = "a position that never moves" if target is None else \
                    f"a place among the {_orbit_word(names[target[0]])}"
                reasons.append(f"{_name(kind, slot, piece)} would go to {other}: no sequence "
                               f"of moves takes a {_orbit_word(kind)[:-1]} there")
                return Reachability(False, tuple(reasons), "orbits of pieces")
            _, to, r = target
            k = len(piece)
            images = [perm[x] for x in piece]
            if images != [pieces[to][(u + r) % k] for u in range(k)]:
                how = ("mirrored" if sorted(images) == sorted(pieces[to])
                       else "broken apart")
                reasons.append(f"{_name(kind, slot, piece)} would be {how}: the moves keep "
                               "a piece's stickers together in their order")
                return Reachability(False, tuple(reasons), "pieces")
            if r % laws.steps[o] and o not in free_twist:
                reasons.append(f"{_name(kind, slot, piece)} would sit turned in a way no "
                               "move turns it")
                return Reachability(False, tuple(reasons), "pieces")
            where.append(to)
            twist.append(r // laws.steps[o])
        wheres.append(where)
        twists.append(twist)
    parities = [parity(w) for w in wheres]
    for o, kind in enumerate(laws.kind):
        if kind == "A" and parities[o] and o not in free_parity and len(wheres[o]) > 1:
            reasons.append(f"the {_orbit_word(names[o])} would be an odd permutation; every "
                           f"move is even on them")
    parity_of = [parities[o] for o in laws.parity_orbits]
    for d in laws.relations:
        orbits = [laws.parity_orbits[j] for j, x in enumerate(d) if x]
        if any(o in free_parity for o in orbits):
            continue
        if sum(parity_of[j] for j, x in enumerate(d) if x) % 2:
            said = ", ".join(f"{_orbit_word(names[o])[:-1]} parity "
                             f"{'odd' if parities[o] else 'even'}" for o in orbits)
            reasons.append(f"parity: {said}; every move changes "
                           + ("both or neither" if len(orbits) == 2 else "an even number of them"))
    for p, orbits, c, d in laws.orientation_laws:
        touched = [o for o, x in zip(orbits, c) if x]
        if any(o in free_twist for o in touched) or any(
                laws.parity_orbits[j] in free_parity for j, x in enumerate(d) if x):
            continue
        sums = {o: sum(twists[o]) % p for o in orbits}
        value = (sum(x * sums[o] for o, x in zip(orbits, c))
                 + sum(x * parity_of[j] for j, x in enumerate(d))) % p
        if value:
            what = "flips" if p == 2 else "twists"
            said = " and ".join(f"the {_orbit_word(names[o])[:-1]} {what} add up to "
                                f"{sums[o]} (mod {p})" for o in touched)
            tie = (" with the parity of the " + ", ".join(
                _orbit_word(names[laws.parity_orbits[j]]) for j, x in enumerate(d) if x)
                if any(d) else "")
            reasons.append(f"{said}{tie}: every move keeps "
                           + ("that sum" if len(touched) == 1 and not any(d) else "that law")
                           + " at 0")
    if reasons:
        return Reachability(False, tuple(reasons), "invariants proven from the generators")
    if laws.proven:
        return Reachability(True, (), "invariants proven from the generators")
    if not exact:
        return Reachability(True, (), "invariants (the structure is not fully proven)",
                            decided=False)
    import numpy as np

    from permgroup.orbit_chain import puzzle_chain

    chain = puzzle_chain(puzzle)
    why = chain.why_not(np.asarray(perm))
    if why is None:
        return Reachability(True, (), "stabilizer chain membership")
    return Reachability(False, (f"the moves do not make this arrangement: {why} (the "
                                "stabilizer chain's membership test)",),
                        "stabilizer chain membership")


def _colouring(puzzle: Puzzle, colours: tuple, solved: tuple, laws, exact: bool = True
               ) -> Reachability:
    """Read a colouring piece by piece into one element, with the orbits whose
    parity or turns identical pieces leave free."""
    perm = list(range(puzzle.degree))
    for x in _fixed_positions(puzzle, laws):
        if colours[x] != solved[x]:
            return Reachability(False, (f"position {x} never moves, but shows {colours[x]!r} "
                                        f"instead of {solved[x]!r}",), "fixed positions")
    free_parity, free_twist = set(), set()
    for o, (kind, pieces) in enumerate(laws.kinds.items()):
        looks = [tuple(solved[x] for x in p) for p in pieces]
        k = len(pieces[0])
        # the turns a move can give a piece of this orbit, tried first: a piece
        # shown turned otherwise is read as another piece that looks like it so
        # turned (a 4x4x4's two wings of one edge), when there is one
        turns = [r for r in range(k) if r % laws.steps[o] == 0]
        turns += [r for r in range(k) if r % laws.steps[o]]
        if len({min(look[r:] + look[:r] for r in turns[:k // laws.steps[o]])
                for look in looks}) < len(looks):
            free_parity.add(o)
        if any(len(set(look)) < len(look) for look in looks):
            free_twist.add(o)
        used = [False] * len(pieces)
        for slot, piece in enumerate(pieces):
            shown = tuple(colours[x] for x in piece)
            match = None
            for r in turns:
                for j, look in enumerate(looks):
                    if not used[j] and all(look[u] == shown[(u + r) % k] for u in range(k)):
                        match = (j, r)
                        break
                if match:
                    break
            if match is None:
                if any(sorted(map(str, look)) == sorted(map(str, shown)) for look in looks):
                    why = (f"{_name(kind, slot, piece)} shows {shown}, a piece's colours in "
                           "an order no turn gives (mirrored), or a piece already used "
                           "elsewhere")
                else:
                    why = f"{_name(kind, slot, piece)} shows {shown}, which no piece has"
                return Reachability(False, (why,), "pieces")
            j, r = match
            used[j] = True
            # the piece of home slot j sits in this slot, turned by r
            for u in range(k):
                perm[pieces[j][u]] = piece[(u + r) % k]
    if free_parity or free_twist:
        result = _element(puzzle, perm, laws, exact=False, free_parity=free_parity,
                          free_twist=free_twist)
        if result.reachable and not laws.proven and exact:
            import numpy as np

            from permgroup.orbit_chain import puzzle_chain

            if puzzle_chain(puzzle).contains(np.asarray(perm)):
                return Reachability(True, (), "stabilizer chain membership of one reading of "
                                              "the pieces")
            return Reachability(False, ("not decided: the laws found hold, the structure is "
                                        "not fully proven, and this reading of the alike "
                                        "pieces is not in the group",), "undecided",
                                decided=False)
        return result
    result = _element(puzzle, perm, laws, exact=exact)
    # the pieces are all told apart: the colouring is this element's
    return replace(result, element=tuple(perm)) if result.reachable else result
