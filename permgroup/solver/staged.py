"""Solving in stages by search: the centres' colouring, then the pieces paired,
then the small puzzle the pairs make.

On a big cube the moves that keep the colouring of the centres (the big orbits
of pieces of one sticker) once it is right are few (a cube's face turns), and
they carry some sets of positions of other orbits as one (the wings of an edge
seen on one face, with its middle edge on an odd cube): *blocks*.  Once the
centres are right and every block shows one colour, what is left is the small
puzzle those moves make on the blocks and the small orbits (a 3x3x3 seen from
the moves alone), which the chain of subgroups solves in about twenty moves.
So, from the moves alone (:func:`stage_model`):

1. the centres' colouring by a beam search over single moves on the centres'
   projection with two points more per orbit of pieces told apart, swapped by
   the moves odd there (:func:`_centre_view`: the later stages' moves are even
   there, and an odd wing parity leaves one edge flipped, which no pairing
   undoes), each state scored by the sum over colours of each colour's
   distance to its places (a breadth-first table over the sets of places of
   each colour in each orbit, :func:`subset_distances`) plus
   :data:`PARITY_PENALTY` while those points are wrong; where the beam stalls
   short of its end (a few centres swapped), the exact search finishes its
   best state; where that too finds nothing in time, the best state of right
   parities goes on, its few centres left to the caller;
2. the blocks made of one colour by a beam search over the moves keeping the
   centres and the macros ``s X s⁻¹`` that keep them too (``s`` a move that does
   not, ``X`` up to three of those that do), scored by the moves plus
   :data:`PAIR_WEIGHT` per block position of another colour; where it stalls
   on its last few blocks, one macro with a longer ``X`` (:func:`_last_macro`);
3. the quotient (each block one point) by :func:`~permgroup.solver.chain.chain_word`;
   where its colours are not reachable there (two edges swapped: which
   look-alike centre went where decides it), the chain solves the nearest goal
   that is, and the caller finishes the few positions left.

:func:`staged_word` returns that word; the caller (:func:`~permgroup.solver.reduction.reduction_word`
with ``prefix``) finishes what it leaves.  On Santa's 4x4x4 rows 150 to 163
the centres' stage ends on every row (19 to 28 moves); ten rows from 150 to
190 come out at 73 to 90 moves, the reduction's variants at 95 to 119
(docs/solving.md, 2026-11-28).  On its 5x5x5 and 6x6x6 the centres' beam over single
moves stalls far from its end (their centres are two and four orbits: the
stages are left to puzzles of one, :data:`CENTRE_ORBITS`), and on rows of
other colourings (checkered, every sticker labelled) no move keeps the
centres' colouring: the stages do not apply.

A ring of four places turned by ``t``: the distances of the sets of two places
to ``{0, 1}`` (the sets ``{0, 2}`` and ``{1, 3}`` never get there):

>>> import numpy as np
>>> t = np.array([1, 2, 3, 0])
>>> sorted(subset_distances(np.array([t, np.argsort(t)]), [0, 1], 4).depths.tolist())
[0, 1, 1, 2, 255, 255]
"""
from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import product
from math import comb
from typing import TYPE_CHECKING

import numpy as np

from permgroup.budget import Budget
from permgroup.errors import InputError, Stopped
from permgroup.moves import Letter, MoveSet
from permgroup.solver.beam import beam
from permgroup.solver.pieces import Pieces, orbit_of_position

if TYPE_CHECKING:  # pragma: no cover
    from permgroup.spaces.colouring import ColouringSpace

#: the stages apply when the centres are at most this many orbits (the one test of
#: whether they are tried): on Santa's 5x5x5 (2) and 6x6x6 (4) the centres' beam
#: over single moves stalls far from its end (2 to 4 s a row for nothing: 5x5x5
#: and 6x6x6 rows 949 and 911 moves without the stages, 955 and 925 with; with
#: the parities and 3,000 states a level, 5x5x5 rows 210 to 212 stall at 11 to 15
#: and their pairs are not made; one orbit after another, each by the macros keeping
#: those before, six 5x5x5 rows took 988 moves against 866: docs/solving.md)
CENTRE_ORBITS = 1
#: a colour's places in an orbit are scored by a table when their sets number at most this
TABLE_SETS = 2_000_000
#: the centres' beam: states kept a level (Santa's 4x4x4 rows 150 to 163: at 300,
#: ending where some state scored at most 6, the exact search finished 3 rows of
#: 9 within 1,000,000 states; at 3,000 on the centres and the parities, to the
#: end, 2 rows end there and 7 stall with two centres swapped, which the exact
#: search finishes in 6 moves: 19 to 28 moves in all, 4 to 7 s a row), and the
#: score added while the parities are wrong
CENTRE_WIDTH = 3000
PARITY_PENALTY = 4
#: the states the exact search finishing the centres may hold
CENTRE_STATES = 1_000_000
#: the pairing beam: states kept a level, moves charged per block position of
#: another colour, levels at most (Santa's 4x4x4 rows 150 to 158: 25 to 30 moves)
PAIR_WIDTH = 200
PAIR_WEIGHT = 3.0
PAIR_LEVELS = 40
#: where the time allows, the pairs and the quotient again with beams this many
#: times as wide, of this weight, ties broken from the last macro or not (another
#: tie order), the shortest word kept (Santa's 4x4x4, eight
#: rows from 150 to 190, from the centres' stage, 2 s each: row 152 88 moves, 80
#: twice as wide; row 160 84, 80 at weight 2; the others as long or longer)
PAIR_RETRIES = ((2, PAIR_WEIGHT, False), (1, 2.0, False), (1, PAIR_WEIGHT, True))
#: a beam gives up after this many levels with no better score (on Santa's
#: 5x5x5 the centres' beam stops far from its end: single moves are not enough)
STALL = 6
#: ... the pairing beam after this many (its best score stays put while setup moves
#: are made)
PAIR_STALL = 15
#: ... and where it stalls with at most this many block positions of another
#: colour, the stages go on (Santa's 4x4x4 rows 151 and 155, labelled as the
#: command line does: two wings left after 20 moves)
PAIR_LEFT = 4
#: the bytes a level of the pairing beam may hold (fewer states on a puzzle of many macros)
BEAM_BYTES = 64_000_000
#: the half turns and states of the search for two pieces swapped (:func:`_swap_word`)
SWAP_LETTERS = 8
SWAP_STATES = 300_000
#: seconds the chain may improve on its first word for the quotient (capped by
#: chain_word at a quarter of its share; by default a sixtieth of it: on Santa's
#: 4x4x4 rows 150 to 157, six rows, the stages alone 506 moves by default, 470 so)
QUOTIENT_IMPROVE = 2.0
#: the longest ``X`` of a macro ``s X s⁻¹``
MACRO_INNER = 3
#: ... and of the one macro tried where the pairing beam stalls on its last
#: blocks (:func:`_last_macro`: on a 4x4x4 the last two edges need ``X`` of five
#: quarter turns; Santa's row 151 stalled there, 106 moves by the variants)
LAST_INNER = 5


@dataclass
class SubsetTable:
    """The moves taking each set of points onto one set ``places`` (a
    colouring of two colours, :class:`~permgroup.spaces.colouring.ColouringSpace`,
    its table by :func:`~permgroup.tables.colouring_table.colouring_depths`):
    called on rows of booleans (the set's points ``True``), their distances,
    255 where no word takes the set there."""

    space: ColouringSpace
    depths: np.ndarray

    def __call__(self, inside: np.ndarray) -> np.ndarray:
        # the packed words of one bit a cell, cell 0 the most significant (as
        # ranking.pack makes them, a few times faster: the centres' beam scores
        # a hundred thousand states a level)
        codes = inside if self.space.index[True] else ~inside
        packed = np.packbits(codes, axis=1)
        words = np.zeros(len(codes), dtype=np.uint64)
        for byte in packed.T:
            words = (words << np.uint64(8)) | byte
        words >>= np.uint64(8 * packed.shape[1] - codes.shape[1])
        return self.depths[self.space.rank(words.astype(self.space.dtype))]


def subset_distances(perms: np.ndarray, places, n: int) -> SubsetTable:
    """The number of moves (gather arrays ``perms`` on ``n`` points, each one
    move) taking each set of ``len(places)`` points onto ``places``.

    >>> t = np.array([1, 2, 0])
    >>> table = subset_distances(np.array([t]), [0], 3)
    >>> table(np.eye(3, dtype=bool)).tolist()   # sets {0}, {1}, {2}
    [0, 1, 2]
    """
    from permgroup.spaces.colouring import ColouringSpace
    from permgroup.tables.colouring_table import colouring_depths

    inside = np.zeros(n, dtype=bool)
    inside[list(places)] = True
    # a gather array g moves the colour at g[j] to j: as a permutation of cells, g's inverse
    space = ColouringSpace([bool(x) for x in inside],
                           {str(i): tuple(np.argsort(g).tolist()) for i, g in enumerate(perms)})
    return SubsetTable(space, colouring_depths(space, [space.solved]))


@dataclass
class Stages:
    """What :func:`staged_word` knows of a puzzle and its goal (see the module docstring)."""

    #: the centres' positions, and the single letters with their gather arrays and costs
    centres: np.ndarray
    letters: list[Letter]
    perms: np.ndarray
    costs: np.ndarray
    #: per orbit of centres and colour: its positions' local indices, the colour,
    #: its number of places there and their table (:func:`subset_distances`)
    tables: list[tuple[np.ndarray, int, int, SubsetTable]]
    #: the classes keeping the centres' colouring
    outer: list[int]
    #: the blocks (each a tuple of positions) and the quotient's points
    blocks: list[tuple[int, ...]]
    points: list[tuple[int, ...]]
    #: the pairing stage's macros
    macros: list[list[Letter]]
    macro_perms: np.ndarray
    macro_costs: np.ndarray
    #: the orbits of pieces told apart whose parity the centres' stage sets
    #: (:func:`_parities`), each class's parity on them, and what tells them
    parity_orbits: list[int]
    parity: np.ndarray
    pieces: Pieces
    position_orbit: np.ndarray
    #: each letter's gather array on the centres' view (:func:`_centre_view`)
    view_perms: np.ndarray
    #: the colouring of two pieces swapped and the word taking the goal there
    #: (:func:`_swap_word`), once found; whether none was
    swap: tuple[np.ndarray, list[Letter]] | None = None
    swap_searched: bool = False
    #: the quotient and its pieces (:func:`_quotient`), built once
    quotient: tuple | None = None
    #: the middles of :func:`_last_macro` (words and gather arrays, a list a length), built once
    last_middles: list | None = None

    def centre_score(self, states: np.ndarray) -> np.ndarray:
        """The sum over colours of their distances to their places, each row of
        ``states`` (on the centres' view, :func:`_centre_view`)."""
        total = np.zeros(len(states), dtype=np.int64)
        for where, colour, _, table in self.tables:
            total += table(states[:, where] == colour)
        return total

    def fits(self, state: np.ndarray) -> bool:
        """Whether each orbit of centres holds as many of each colour as the goal
        (with wildcards it may not: then the stages do not apply)."""
        local = state[self.centres]
        return all(np.count_nonzero(local[where] == colour) == k
                   for where, colour, k, _ in self.tables)

    def unpaired(self, states: np.ndarray) -> np.ndarray:
        """The block positions showing another colour than their block's first, each row."""
        total = np.zeros(len(states), dtype=np.int64)
        for block in self.block_arrays:
            first = states[:, block[0]][:, None, :]
            total += (states[:, block[1:]] != first).sum(axis=(1, 2))
        return total

    def __post_init__(self) -> None:
        sizes = sorted({len(b) for b in self.blocks})
        #: the blocks of each size, as the columns of one array
        self.block_arrays = [np.array([b for b in self.blocks if len(b) == s]).T
                             for s in sizes]


_MODELS: dict[tuple[bytes, int], Stages | None] = {}


def stage_model(ms: MoveSet, pieces: Pieces, small: list[int], goal: np.ndarray,
                frozen: np.ndarray, position_orbit: np.ndarray) -> Stages | None:
    """The stages of ``ms`` toward ``goal`` (the small orbits ``small``, their
    positions ``frozen``), built once per puzzle and goal; ``None`` when they do
    not apply: no centres or more than :data:`CENTRE_ORBITS` orbits of them, no
    move keeps their colouring, no block, or a colour's places too many for a
    table."""
    # the gate is part of the key: a model refused under one gate is not
    # refused under another
    key = (ms.fingerprint().encode() + goal.tobytes(), CENTRE_ORBITS)
    if key not in _MODELS:
        _MODELS.clear()
        _MODELS[key] = _build(ms, pieces, small, goal, frozen, position_orbit)
    return _MODELS[key]


def _build(ms: MoveSet, pieces: Pieces, small: list[int], goal: np.ndarray,
           frozen: np.ndarray, position_orbit: np.ndarray) -> Stages | None:
    from permgroup.pieces import minimal_blocks

    big = [k for k in range(len(pieces.orbits)) if k not in small]
    centre_orbits = [[p for b in pieces.orbits[k] for p in pieces.blocks[b]]
                     for k in big if len(pieces.blocks[pieces.orbits[k][0]]) == 1]
    others = [p for k in big if len(pieces.blocks[pieces.orbits[k][0]]) > 1
              for b in pieces.orbits[k] for p in pieces.blocks[b]]
    if not 0 < len(centre_orbits) <= CENTRE_ORBITS or not others:
        return None
    centres = np.array(sorted(p for o in centre_orbits for p in o))
    outer = [c for c in range(len(ms.classes))
             if (goal[ms.powers[c][1][centres]] == goal[centres]).all()]
    if not outer or len(outer) == len(ms.classes):
        return None
    letters = [(c, e) for c in range(len(ms.classes)) for e in range(1, ms.orders[c])]
    perms = np.array([ms.powers[c][e] for c, e in letters])
    costs = np.array([ms.letter_cost(x) for x in letters], dtype=np.float64)
    local = np.full(ms.degree, -1)
    local[centres] = np.arange(len(centres))
    tables = []
    for orbit in centre_orbits:
        orbit = np.array(sorted(orbit))
        inside = np.full(ms.degree, -1)
        inside[orbit] = np.arange(len(orbit))
        moved = inside[perms[:, orbit]]
        for colour in np.unique(goal[orbit]):
            places = np.flatnonzero(goal[orbit] == colour)
            if comb(len(orbit), len(places)) > TABLE_SETS:
                return None
            tables.append((local[orbit], int(colour), len(places),
                           subset_distances(moved, places, len(orbit))))
    # the blocks: the largest set of one goal colour, of distinct pieces, off the
    # centres, that the outer moves carry as one, through each position of `others`
    gens = np.array([ms.powers[c][1] for c in outer])
    candidates = np.array(sorted(set(others) | set(np.flatnonzero(frozen).tolist())))
    block_of = pieces.block_of
    is_centre = np.zeros(ms.degree, dtype=bool)
    is_centre[centres] = True
    blocks: list[tuple[int, ...]] = []
    taken = np.zeros(ms.degree, dtype=bool)
    for p in others:
        if taken[p]:
            continue
        # the block through p grown one partner at a time, while the block
        # system it makes keeps every block of one goal colour, of distinct
        # pieces, off the centres and off the blocks taken
        joined, best = [int(p)], []
        for q in candidates[(goal[candidates] == goal[p]) & (block_of[candidates] != block_of[p])]:
            if any(int(q) in b for b in best[:1]):
                continue
            label = minimal_blocks(gens, joined + [int(q)])
            order = np.argsort(label, kind="stable")
            cuts = np.flatnonzero(np.diff(label[order])) + 1
            system = [b for b in np.split(order, cuts) if label[b[0]] >= 0]
            if any(is_centre[b].any() or taken[b].any() or (goal[b] != goal[b[0]]).any()
                   or len(set(block_of[b].tolist())) < len(b) for b in system):
                continue
            joined.append(int(q))
            best = sorted((tuple(int(x) for x in b) for b in system), key=lambda b: p not in b)
        if not best:
            return None
        blocks += best
        for b in best:
            taken[list(b)] = True
    rest = [(int(p),) for p in np.flatnonzero(frozen) if not taken[p]]
    points = blocks + rest
    macros = _macros(ms, outer, goal, centres)
    macro_perms = np.array([ms.perm(w) for w in macros])
    macro_costs = np.array([ms.cost(w) for w in macros], dtype=np.float64)
    # the other big orbits whose pieces the goal tells apart: their parity is
    # not changed by the later stages' moves (a cube's wings: otherwise one edge
    # is left flipped, which the quotient does not reach)
    told = pieces.piece_parities(goal, goal, position_orbit)
    parity_orbits = [k for k in big if len(pieces.blocks[pieces.orbits[k][0]]) > 1
                     and told[k] is not None]
    parity = pieces.parity_matrix()[:, parity_orbits]
    # the centres' view: the centres, then two points per orbit of parity_orbits,
    # swapped by each letter odd there
    view_perms = np.array([np.concatenate([local[g[centres]],
                                           len(centres) + _marks(parity[c] * e % 2 == 1)])
                           for (c, e), g in zip(letters, perms)])
    return Stages(centres, letters, perms, costs, tables, outer, blocks, points, macros,
                  macro_perms, macro_costs, parity_orbits, parity, pieces, position_orbit,
                  view_perms)


def _macros(ms: MoveSet, outer: list[int], goal: np.ndarray, centres: np.ndarray
            ) -> list[list[Letter]]:
    """The outer letters, and the words ``s X s⁻¹`` keeping the centres' colouring
    (``s`` a quarter turn of another class, ``X`` up to :data:`MACRO_INNER`
    outer quarter turns, no class twice in a row), each permutation once."""
    macros = [[(c, e)] for c in outer for e in range(1, ms.orders[c])]
    quarters = [(c, e) for c in outer for e in (1, ms.orders[c] - 1)]
    inner = [(c, e) for c in range(len(ms.classes)) if c not in outer
             for e in (1, ms.orders[c] - 1)]
    seen = {ms.perm(w).tobytes() for w in macros}
    # every X at once, as gather arrays (ms.perm of a word: out = out[letter]...)
    middles = [x for length in range(1, MACRO_INNER + 1)
               for x in product(quarters, repeat=length)
               if all(x[i][0] != x[i + 1][0] for i in range(length - 1))]
    xs = np.array([ms.perm(x) for x in middles])
    for s in inner:
        back = (s[0], ms.orders[s[0]] - s[1])
        first, last = ms.powers[s[0]][s[1]], ms.powers[back[0]][back[1]]
        perms = first[xs[:, last]]          # s, then X, then s⁻¹
        keeps = (goal[perms[:, centres]] == goal[centres]).all(axis=1)
        for i in np.flatnonzero(keeps):
            key = perms[i].astype(np.int32).tobytes()
            if key not in seen:
                seen.add(key)
                macros.append([s, *middles[i], back])
    return macros


def staged_word(moves: Mapping[str, np.ndarray], ms: MoveSet, stages: Stages,
                start: np.ndarray, goal: np.ndarray, budget: Budget) -> list[Letter] | None:
    """A word (letters of ``ms``) taking ``start`` through the three stages of the
    module docstring: the centres right, every block of one colour, then as
    much of the quotient as the chain solves (all of it, or all but a flip or a
    swap of two pieces); ``None`` when a stage finds nothing within ``budget``."""
    from permgroup.solver.exact import exact_word

    centres = stages.centres
    if not stages.fits(start):
        return None
    # the beams' states as bytes where the colours allow (their rows are many)
    dtype = np.uint8 if max(start.max(), goal.max()) < 256 else np.int32
    start, goal = start.astype(dtype), goal.astype(dtype)
    a, b = _centre_view(stages, start, goal)
    n = len(centres)

    def score(states: np.ndarray) -> np.ndarray:
        wrong = (states[:, n:] != b[n:]).any(axis=1)
        return stages.centre_score(states) + PARITY_PENALTY * wrong

    found, best = beam(a, stages.view_perms, stages.costs, score, weight=100.0,
                       width=CENTRE_WIDTH, levels=40, enough=0, stall=STALL, budget=budget)
    steps, state = (found[0].path, found[0].state) if found else (best.path, best.state)
    word = [stages.letters[i] for i in steps]
    if not found and best.score:
        # the beam stalled a few centres short (two swapped): the exact search
        # finishes them, over the letters of one move
        ones = [i for i, x in enumerate(stages.letters) if ms.letter_cost(x) == 1]
        try:
            finish = exact_word({str(i): stages.view_perms[i] for i in ones}, state, b,
                                budget=budget.share(0.3), max_states=CENTRE_STATES)
            word += [stages.letters[int(i)] for i in finish]
        except (Stopped, InputError):
            # none in time: the few centres left go on to the end (every later
            # move keeps how many are right), where the caller's insertions fix
            # them; the parities made right by the letter costing the centres
            # least where they are not (else the pairs cannot all be made: one
            # edge is left flipped)
            if (state[n:] != b[n:]).any():
                after = state[stages.view_perms]
                right = np.flatnonzero((after[:, n:] == b[n:]).all(axis=1))
                if not len(right):
                    return None
                i = int(right[np.argmin(stages.centre_score(after[right]))])
                word.append(stages.letters[i])
    centred = word
    most = BEAM_BYTES // (len(stages.macros) * ms.degree * dtype().itemsize)
    word = None
    # then again with other beams while the time allows (each another
    # tie order, at times a shorter pairing), the shortest whole word kept
    for wider, weight, backward in ((1, PAIR_WEIGHT, False), *PAIR_RETRIES):
        began = time.monotonic()
        width = max(8, min(wider * PAIR_WIDTH, most))
        other = _pair_word(moves, ms, stages, start, centred, goal, width, budget, weight,
                           backward)
        if other is not None and (word is None or _worse(ms, start, goal, word, other)):
            word = other
        if budget.left() < 2 * (time.monotonic() - began):
            break
    return word


def _worse(ms: MoveSet, start: np.ndarray, goal: np.ndarray, word: list[Letter],
           other: list[Letter]) -> bool:
    """Whether ``word`` leaves more positions wrong than ``other``, or as many
    and costs more."""
    def key(w: list[Letter]) -> tuple[int, int]:
        return int(np.count_nonzero(ms.apply(start, w) != goal)), ms.cost(w)
    return key(other) < key(word)


def _pair_word(moves: Mapping[str, np.ndarray], ms: MoveSet, stages: Stages,
               start: np.ndarray, word: list[Letter], goal: np.ndarray, width: int,
               budget: Budget, weight: float = PAIR_WEIGHT, backward: bool = False
               ) -> list[Letter] | None:
    """``word`` (the centres right from ``start``) and the stages after it: the
    pairs by a beam of ``width`` states (its ties broken from the last macro
    where ``backward``), then the quotient (:func:`staged_word`)."""
    state = ms.apply(start, word)
    order = np.arange(len(stages.macros))[::-1 if backward else 1]
    found, best = beam(state, stages.macro_perms[order], stages.macro_costs[order], stages.unpaired,
                       weight=weight, width=width, levels=PAIR_LEVELS, enough=0,
                       stall=PAIR_STALL, budget=budget)
    last: list[Letter] = []
    if not found:
        if best.score > PAIR_LEFT:
            return None
        # the last blocks stall the beam (their macro is longer than those
        # made): one longer macro pairs them, else the quotient is solved
        # around them and the caller's insertions finish them
        last = _last_macro(moves, ms, stages, best.state, goal, budget) or []
        if not best.path and not last:
            return None
        found = [best]
    # of the pairings found, the first whose quotient the chain can solve
    # outright (on a 4x4x4, half of them leave two edges swapped: 7 half turns more)
    first = next((r for r in found if _quotient_reachable(moves, ms, stages, r.state, goal)),
                 found[0])
    word = ms.extend(word, [x for i in first.path for x in stages.macros[order[i]]] + last)
    state = ms.apply(start, word)
    rest = _quotient_word(moves, ms, stages, state, goal, budget)
    return word if rest is None else ms.extend(word, ms.letters(rest))


def _last_macro(moves: Mapping[str, np.ndarray], ms: MoveSet, stages: Stages,
                state: np.ndarray, goal: np.ndarray, budget: Budget) -> list[Letter] | None:
    """A macro ``s X s⁻¹`` (``s`` a quarter turn of a class not keeping the
    centres, ``X`` of :data:`MACRO_INNER` + 1 to :data:`LAST_INNER` outer
    quarter turns, no class twice in a row) after which ``state`` has every
    block of one colour and its centres as they were: the shortest, one whose
    quotient the chain solves outright where there is one; ``None`` when none
    is (or none fits in :data:`BEAM_BYTES` or ``budget``)."""
    if stages.last_middles is None:
        quarters = [(c, e) for c in stages.outer for e in (1, ms.orders[c] - 1)]
        words: list[tuple[Letter, ...]] = [()]
        perms = np.arange(ms.degree, dtype=np.int16 if ms.degree < 1 << 15 else np.int32)[None]
        powers = np.array([ms.powers[c][e] for c, e in quarters]).astype(perms.dtype)
        levels = []
        for length in range(1, LAST_INNER + 1):
            if len(words) * len(quarters) * perms.itemsize * ms.degree > BEAM_BYTES:
                break
            grown = [(i, j) for j, q in enumerate(quarters) for i, x in enumerate(words)
                     if not x or x[-1][0] != q[0]]
            rows, steps = np.array(grown, dtype=np.int64).reshape(-1, 2).T
            # ms.perm of a word: out = out[letter] for each letter in turn
            perms = np.take_along_axis(perms[rows], powers[steps], axis=1)
            words = [words[i] + (quarters[j],) for i, j in grown]
            if length > MACRO_INNER:
                levels.append((words, perms))
        stages.last_middles = levels
    centres = stages.centres
    inner = [(c, e) for c in range(len(ms.classes)) if c not in stages.outer
             for e in (1, ms.orders[c] - 1)]
    for words, perms in stages.last_middles:
        hits: list[list[Letter]] = []
        for s in inner:
            if budget.expired:
                return None
            back = (s[0], ms.orders[s[0]] - s[1])
            after = state[ms.powers[s[0]][s[1]]][perms][:, ms.powers[back[0]][back[1]]]
            ok = (after[:, centres] == state[centres]).all(axis=1)
            ok[ok] = stages.unpaired(after[ok]) == 0
            for i in np.flatnonzero(ok):
                word = [s, *words[i], back]
                if _quotient_reachable(moves, ms, stages, after[i], goal):
                    return word
                hits.append(word)
        if hits:
            return hits[0]
    return None


def _centre_view(stages: Stages, state: np.ndarray, goal: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """``state`` and ``goal`` on the centres' view (the centres, then two
    points per orbit of :attr:`Stages.parity_orbits`, which the letters odd
    there swap: :attr:`Stages.view_perms`), the points of an orbit swapped in
    the goal when its parity in ``state`` is odd: a word between them puts the
    centres right and those orbits' parities too."""
    parities = stages.pieces.piece_parities(state, goal, stages.position_orbit)
    odd = np.array([parities[o] == 1 for o in stages.parity_orbits], dtype=bool)
    top = int(max(state.max(), goal.max())) + 1
    a = np.concatenate([state[stages.centres], top + _marks(np.zeros(len(odd), dtype=bool))])
    b = np.concatenate([goal[stages.centres], top + _marks(odd)])
    dtype = np.uint8 if top + 2 * len(odd) <= 256 else np.int32
    return a.astype(dtype), b.astype(dtype)


def _marks(odd: np.ndarray) -> np.ndarray:
    """The two marker points of each orbit of :attr:`Stages.parity_orbits` (``0,
    1``, ``2, 3``, ...), the two swapped where ``odd`` (a boolean an orbit): as
    a letter odd there moves them, and as the goal shows them when a state's
    parity there is odd.

    >>> _marks(np.array([False, True])).tolist()
    [0, 1, 3, 2]
    """
    marks = np.arange(2 * len(odd))
    return np.where(np.repeat(odd, 2), marks.reshape(-1, 2)[:, ::-1].reshape(-1), marks)


def _quotient_word(moves: Mapping[str, np.ndarray], ms: MoveSet, stages: Stages,
                   state: np.ndarray, goal: np.ndarray, budget: Budget) -> list[str] | None:
    """Move names solving the quotient of ``state`` (every block of one colour)
    by the chain; where the outer moves do not reach its goal (two edges
    swapped), the goal with the two pieces :func:`_swap_word` swaps, then that
    word; else the nearest goal the chain reaches (one piece of two points
    turned, two swapped, or both), the rest left to the caller."""
    from permgroup.solver.chain import chain_word

    quotient, firsts, pairs, _, _ = _quotient(moves, ms, stages)
    a, b = state[firsts], goal[firsts]
    # the goals to try, each with the word after the chain's
    goals: list[tuple[np.ndarray, list[str]]] = [(b, [])]
    if len(pairs) > 1:
        swap = _swap_word(moves, ms, stages, pairs, goal, budget.share(0.3))
        if swap is not None:
            goals.append((swap[0][firsts], ms.names(ms.inverse(swap[1]))))
        (x0, x1), (y0, y1) = pairs[0], pairs[1]
        turned = b.copy()
        turned[[x0, x1]] = b[[x1, x0]]
        swapped = b.copy()
        swapped[[x0, x1, y0, y1]] = b[[y0, y1, x0, x1]]
        both = swapped.copy()
        both[[x0, x1]] = swapped[[x1, x0]]
        goals += [(swapped, []), (turned, []), (both, [])]
    for target, after in goals:
        if budget.expired:
            return None
        try:
            found = chain_word(quotient, a, target, budget=budget.share(0.3),
                               improve=QUOTIENT_IMPROVE)
        except Stopped:
            return None
        if found is not None:
            return found + after
    return None


def _quotient_reachable(moves: Mapping[str, np.ndarray], ms: MoveSet, stages: Stages,
                        state: np.ndarray, goal: np.ndarray) -> bool:
    """Whether the parities of the quotient's orbits of pieces told apart, in
    ``state`` (every block of one colour), are those of a word of the outer moves."""
    from permgroup.solver.greedy import gf2_solve

    _, firsts, _, pieces, where = _quotient(moves, ms, stages)
    now = pieces.piece_parities(state[firsts], goal[firsts], where)
    told = [k for k, p in enumerate(now) if p is not None]
    need = np.array([now[k] for k in told], dtype=np.uint8)
    return not need.any() or gf2_solve(pieces.parity_matrix()[:, told].T, need) is not None


def _quotient(moves: Mapping[str, np.ndarray], ms: MoveSet, stages: Stages
              ) -> tuple[dict[str, np.ndarray], np.ndarray, list[tuple[int, ...]], Pieces,
                         np.ndarray]:
    """The outer moves on the quotient's points (each block one point), the
    first position of each point, the quotient's pieces of two points (a
    cube's edges), its pieces and each point's orbit; built once per
    :class:`Stages` (each pairing found asks)."""
    if stages.quotient is None:
        point_of = np.full(ms.degree, -1)
        for i, point in enumerate(stages.points):
            point_of[list(point)] = i
        firsts = np.array([p[0] for p in stages.points])
        quotient = {name: point_of[np.asarray(g)[firsts]] for name, g in moves.items()
                    if ms.letters([name])[0][0] in stages.outer}
        qms = MoveSet.from_moves(quotient)
        pieces = Pieces.of(qms)
        pairs = [pieces.blocks[k] for o in pieces.orbits if len(pieces.blocks[o[0]]) == 2
                 for k in o]
        # 0 rather than -1 for a point no outer move moves (no piece holds it)
        where = np.maximum(orbit_of_position(qms), 0)
        stages.quotient = (quotient, firsts, pairs, pieces, where)
    return stages.quotient


def _swap_word(moves: Mapping[str, np.ndarray], ms: MoveSet, stages: Stages,
               pairs: list[tuple[int, ...]], goal: np.ndarray, budget: Budget
               ) -> tuple[np.ndarray, list[Letter]] | None:
    """A colouring of two pieces of ``pairs`` (quotient points) swapped and a
    word of half turns taking ``goal`` there, keeping everything else (the
    look-alike centres it moves among themselves look the same: on a 4x4x4
    the two edges no outer move swaps alone, in 7 half turns), found once per
    puzzle by the exact search (at most :data:`SWAP_LETTERS` half turns);
    ``None`` when none is found within ``budget``."""
    from permgroup.solver.exact import exact_word

    if stages.swap is not None or stages.swap_searched:
        return stages.swap
    halves = {f"{c}": ms.powers[c][2] for c in range(len(ms.classes)) if ms.orders[c] % 2 == 0}
    points = stages.points
    for i, j in ((i, j) for i in range(len(pairs)) for j in range(i + 1, len(pairs))):
        for y in (pairs[j], pairs[j][::-1]):
            if budget.expired:
                return None
            target = goal.copy()
            for u, v in zip(pairs[i], y):
                target[list(points[u])] = goal[points[v][0]]
                target[list(points[v])] = goal[points[u][0]]
            try:
                found = exact_word(halves, goal, target, budget=budget,
                                   max_states=SWAP_STATES, max_depth=SWAP_LETTERS)
            except (Stopped, InputError):
                continue
            if found is not None:
                stages.swap = target, [(int(c), 2) for c in found]
                return stages.swap
    stages.swap_searched = True
    return None
