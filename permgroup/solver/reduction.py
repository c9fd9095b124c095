"""Solving by orbits: the small orbits by search, the big ones by commutators.

For a puzzle whose pieces fall into a few small orbits that turn in place
(corners, middle edges) and many big ones that never turn (a big cube's wings
and centres), :func:`reduction_word` solves in three steps:

1. the small orbits by a search on their projection
   (:mod:`~permgroup.solver.small_orbits`);
2. the parities of the big orbits of distinct pieces made right with moves
   that leave the small orbits alone (a GF(2) system over the parity matrix,
   :func:`~permgroup.solver.greedy.fix_parities`);
3. the big orbits by the commutator that fixes the most positions per move,
   again and again: a parallel commutator of commuting moves
   (:class:`~permgroup.solver.parallel.Shapes`, pairs meeting in one or two
   pieces, none moving a small orbit's position), or one 3-cycle conjugated
   into place (:class:`~permgroup.solver.cycles.OrbitCycles`); the 3-cycles
   finish what is left.

Every step of 3. keeps the small orbits solved, so nothing found early is
undone.  The model (pieces, 3-cycles, commutators) is built once per puzzle.

>>> import numpy as np
>>> from permgroup.moves import MoveSet
>>> # two 3-cycles of cells 0..4 meeting in cell 2, and a piece of two stickers flipped by v
>>> u = np.array([1, 2, 0, 3, 4, 5, 6]); w = np.array([0, 1, 3, 4, 2, 5, 6])
>>> v = np.array([0, 1, 2, 3, 4, 6, 5])
>>> moves = {"u": u, "-u": np.argsort(u), "w": w, "-w": np.argsort(w), "v": v}
>>> ms = MoveSet.from_moves(moves)
>>> red = reduction_model(ms)
>>> [red.pieces.orbits[k] for k in red.small]    # the piece that turns: solved first
[[5]]
>>> start, goal = np.array([4, 0, 1, 2, 3, 6, 5]), np.arange(7)
>>> word = reduction_word(moves, ms, red, start, goal)
>>> ms.apply(start, word).tolist()
[0, 1, 2, 3, 4, 5, 6]
"""
from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np

from permgroup.budget import Budget
from permgroup.moves import Letter, MoveSet
from permgroup.solver.cycles import OrbitCycles, orbit_cycles
from permgroup.solver.everywhere import insert_everywhere
from permgroup.solver.greedy import fix_parities
from permgroup.solver.insertion import CANCEL_CHECKED, Effects, insert_effects
from permgroup.solver.parallel import Shapes
from permgroup.solver.pieces import Pieces, orbit_of_position
from permgroup.solver.small_orbits import (Solver, keeping_classes, orbit_positions,
                                           small_orbits, solve_small_orbits)


@dataclass
class Reduction:
    """What :func:`reduction_word` knows of a puzzle (see the module docstring)."""

    pieces: Pieces
    position_orbit: np.ndarray
    cycles: OrbitCycles
    #: the small orbits and their positions
    small: list[int]
    frozen: np.ndarray
    #: the classes whose moves leave the small orbits alone
    keeping: list[int]
    shapes: Shapes
    _effects: Effects | None = None
    _two_pairs: Effects | None = None
    #: the small orbits' words found, by start and goal there (each variant of a
    #: row, and each row solved twice, asks again)
    _small_words: dict = field(default_factory=dict)

    def small_word(self, moves: Mapping[str, np.ndarray], start: np.ndarray,
                   goal: np.ndarray, budget: Budget, fallback: Solver | None = None
                   ) -> list[str] | None:
        """:func:`~permgroup.solver.small_orbits.solve_small_orbits` on the
        small orbits, made once for each start and goal there: given
        :data:`SMALL_SECONDS` (at most :data:`SMALL_SHARE` of ``budget``) to
        improve on its first word (on Santa's 5x5x5 rows 210 and 211, 24 and
        23 moves rather than 28 and 27); ``fallback``'s word when neither the
        chain nor the search finds one in time (not kept)."""
        positions = np.flatnonzero(self.frozen)
        key = start[positions].tobytes() + goal[positions].tobytes()
        if key not in self._small_words:
            fell_back = []  # the fallback's word is not kept: more time may find a shorter one

            def owed(*args):
                fell_back.append(True)
                return fallback(*args)

            found = solve_small_orbits(moves, start, goal, positions, budget=budget,
                                       improve=min(SMALL_SECONDS, SMALL_SHARE * budget.left()),
                                       fallback=None if fallback is None else owed)
            if found is None or fell_back:  # (nor is none: more time may find one)
                return found
            self._small_words[key] = found
        return list(self._small_words[key])

    def pair_effects(self, two_pairs: bool = False) -> Effects:
        """Each pair of :attr:`shapes` alone, as effects to insert in a word;
        with ``two_pairs`` (when the pairs are at most :data:`TWO_PAIRS_BELOW`),
        the commutators of two pairs sharing a row or a column that keep the
        small orbits too (each permutation once)."""
        shapes = self.shapes
        if self._effects is None:
            self._effects = Effects(shapes.pair_costs(), shapes.cache(), shapes.pair_word)
        if not two_pairs or shapes.size > TWO_PAIRS_BELOW:
            return self._effects
        if self._two_pairs is None:
            ms, frozen = shapes.ms, np.flatnonzero(self.frozen)
            words = [shapes.pair_word(p) for p in range(shapes.size)]
            seen = {ms.perm(w).tobytes() for w in words}
            for w in shapes.two_pair_words():
                p = ms.perm(w)
                if (p[frozen] == frozen).all() and p.tobytes() not in seen:
                    seen.add(p.tobytes())
                    words.append(w)
            self._two_pairs = Effects.of(ms, words)
        return self._two_pairs

    def combined(self, gains: np.ndarray) -> list[tuple[float, list[Letter]]]:
        """The best parallel commutators of two pairs or more (positions fixed
        per move, word) given each pair's gain (at a point of a word:
        :func:`~permgroup.solver.insertion.insert_effects`), the best first."""
        shapes = self.shapes
        # (the gains of the commutators of two pairs, after the pairs', are not the shapes')
        found = shapes.chosen({0: gains[:shapes.size]}, min_pairs=2, max_kinds=COMBINED_KINDS)
        return [(value, shapes.word(key, rows, cols))
                for value, key, rows, cols in found[:CANCEL_CHECKED]]


_MODELS: dict[str, Reduction | None] = {}


def reduction_model(ms: MoveSet, budget: Budget | None = None) -> Reduction | None:
    """The model of ``ms`` for :func:`reduction_word`, built once per process
    and puzzle; ``None`` when the way does not apply: no orbit is small, or
    every orbit is (it has no 3-cycle, or its pieces turn in place)."""
    key = ms.fingerprint()
    if key in _MODELS:
        return _MODELS[key]
    pieces = Pieces.of(ms)
    position_orbit = orbit_of_position(ms)
    cycles, _ = orbit_cycles(ms, pieces, position_orbit, budget)
    small = small_orbits(pieces, cycles)
    built = None
    if 0 < len(small) < len(pieces.orbits):  # (none small: nothing to solve first)
        frozen = np.zeros(ms.degree, dtype=bool)
        frozen[orbit_positions(pieces, small)] = True
        shapes = Shapes.find(ms, pieces, max_meet=2, frozen=frozen)
        built = Reduction(pieces, position_orbit, cycles, small, frozen,
                          keeping_classes(ms, np.flatnonzero(frozen)), shapes)
    if built is not None:  # one puzzle at a time: its tables can be large (the
        _MODELS.clear()     # small orbits' projection, solved on the way, has none)
    _MODELS[key] = built
    return built


def reduction_word(moves: Mapping[str, np.ndarray], ms: MoveSet, red: Reduction,
                   start: np.ndarray, goal: np.ndarray, *, mismatches: int = 0,
                   hurry: Budget | None = None, kinds: int | None = None, inside: bool = True,
                   two_pairs: bool = False, fallback: Solver | None = None,
                   prefix: list[Letter] | None = None, end: Budget | None = None,
                   anchors: int | None = None, everywhere: bool | None = None
                   ) -> list[Letter] | None:
    """A word (letters of ``ms``) taking ``start`` to within ``mismatches``
    positions of ``goal`` by the three steps of the module docstring, or
    ``None`` when a step cannot be done (the small orbits' search does not
    apply or finds nothing; no parity fix keeps them).  Once ``hurry``
    has run out (a minute without one) the rounds look at fewer commutators and
    take more of them (a longer word, sooner), to the end: the quickest finish
    (on a 19x19x19's first line, 5 s and 4,751 moves against 11 s and 7,543
    for the 3-cycles at once, which finish what the rounds leave).
    ``kinds``: the kinds of commutator scored a round (default
    :data:`ROUND_KINDS`; another number gives another word, often of another
    length: :func:`permgroup.solver.find_word` keeps the shortest of a few).
    ``inside``: the commutators may be inserted among the small orbits' moves
    too (they keep those orbits wherever they go), else only after them.
    ``two_pairs``: the commutators of two pairs are inserted too
    (:meth:`Reduction.pair_effects`).  ``fallback``: the small orbits'
    solver when the chain and the search find no word in time
    (:func:`~permgroup.solver.small_orbits.solve_small_orbits`).  ``prefix``: a
    word to go on from (the stages of :mod:`~permgroup.solver.staged`), the
    small orbits solved after it.  ``end``: when the word is owed by then, the
    rounds hurry (and the small orbits' search and the insertions stop) early
    enough for the hurried rounds to end by it (:func:`hurried_seconds` for
    the positions still wrong).  ``anchors``: the points of the word the
    insertions look at a step (default: as many as
    :data:`~permgroup.solver.insertion.ANCHOR_ROWS` allows, at most
    :data:`~permgroup.solver.insertion.ANCHORS`); other points, another word.
    ``everywhere``: the last :data:`EVERYWHERE_BELOW` positions at every point
    of the word (:func:`~permgroup.solver.everywhere.insert_everywhere`) or
    not; by default on puzzles of :data:`EVERYWHERE_FROM` to
    :data:`EVERYWHERE_TO` positions."""
    hurry = Budget.of(60) if hurry is None else hurry
    prefix = list(prefix or [])
    per_position = 0.0 if end is None else hurried_seconds(red, start, goal)

    def late(wrong: int) -> Budget:
        # hurry, or sooner: the hurried rounds' time for ``wrong`` positions before ``end``
        return _before(hurry, end, per_position * wrong)

    found = red.small_word(moves, ms.apply(start, prefix), goal,
                          late(int(np.count_nonzero(start != goal))), fallback)
    if found is None:
        return None
    word = ms.extend(prefix, ms.letters(found)) if prefix else ms.letters(found)
    state = ms.apply(start, word)
    # moves that leave the small orbits alone, while one fixes positions (before
    # the parities are made right: they change them)
    state, word = _free_moves(ms, red, state, goal, word, hurry)
    fix = fix_parities(ms, red.pieces, red.position_orbit, state, goal, classes=red.keeping)
    if fix is None:
        return None
    word, state = ms.extend(word, fix), ms.apply(state, fix)
    wrong = int(np.count_nonzero(state != goal))
    first = 0 if inside else len(word)
    inserted = False
    while wrong > mismatches:
        hurried = late(wrong).expired
        steps = _best_steps(ms, red, state, goal, hurry=hurried, kinds=kinds)
        if not steps and hurried:  # the few commutators looked at do not help: all of them
            steps = _best_steps(ms, red, state, goal, kinds=kinds)
        if not steps:
            break
        after = ms.apply(state, steps)
        if not (inserted or hurried) and \
                (wrong - np.count_nonzero(after != goal)) / ms.cost(steps) < INSERT_BELOW:
            # the commutators at the end fix little now: inserted inside the
            # word, where the moves after them carry them, they fix more (until
            # the deadline; hurried rounds then go on)
            effects = red.pair_effects(two_pairs)
            # the last few positions at every point of the word, then the
            # insertions again for what that leaves (on a big puzzle)
            if everywhere is None:
                everywhere = EVERYWHERE_FROM <= ms.degree <= EVERYWHERE_TO
            below = EVERYWHERE_BELOW if everywhere and ms.degree <= EVERYWHERE_TO else 0
            for lowest in sorted({max(mismatches, below), mismatches}, reverse=True):
                word = _insertions(ms, red, effects, start, goal, word, mismatches=lowest,
                                   first=first, hurry=late(wrong), anchors=anchors)
                if lowest > mismatches:
                    word = insert_everywhere(ms, effects, start, goal, word, frozen=red.frozen,
                                             mismatches=mismatches, first=first,
                                             budget=late(wrong),
                                             combined=red.combined if COMBINED_KINDS else None)
            word = _insert_by_pieces(ms, red, effects, start, goal, word, mismatches, first,
                                     late(PIECES_BELOW))
            state, inserted = ms.apply(start, word), True
            wrong = int(np.count_nonzero(state != goal))
            continue
        state, word = after, ms.extend(word, steps)
        wrong = int(np.count_nonzero(state != goal))
    if wrong > mismatches:
        more = red.cycles.solve(state, goal)
        word, state = ms.extend(word, more), ms.apply(state, more)
    if np.count_nonzero(state != goal) > mismatches:
        return None
    return word


def _insertions(ms: MoveSet, red: Reduction, effects: Effects, start: np.ndarray,
                goal: np.ndarray,
                word: list[Letter], *, mismatches: int, first: int, hurry: Budget,
                anchors: int | None = None) -> list[Letter]:
    """``word`` with pair commutators inserted inside it
    (:func:`~permgroup.solver.insertion.insert_effects`) while one fixes
    positions, until ``hurry`` runs out: a move inserted fixes more than one of
    the rounds (on a 19x19x19, about 0.5 positions a move from 1,200 wrong down
    to 30, against 0.3 for the hurried rounds that do what is left).  In slices
    of :data:`INSERT_SLICE` of the time left, each at points of the word placed
    afresh: other setups (on Santa's cube_19/19/19 rows 278 and 279, 3,053 and
    2,969 moves against 3,135 and 2,993 for one slice)."""
    wrong = int(np.count_nonzero(ms.apply(start, word) != goal))
    slices = 0
    while wrong > mismatches and not hurry.expired:
        part = hurry.share(INSERT_SLICE)
        word = insert_effects(ms, effects, start, goal, word, frozen=red.frozen,
                              mismatches=mismatches, first=first, budget=part, anchors=anchors,
                              combined=red.combined if COMBINED_KINDS else None,
                              phase=(slices * SLICE_PHASE) % 1)
        slices += 1
        now = int(np.count_nonzero(ms.apply(start, word) != goal))
        # a slice that ended by itself (no insertion fixes a position at its
        # points) is followed by one at points placed elsewhere, while they fix more
        if now >= wrong:
            break
        wrong = now
    return word


def _insert_by_pieces(ms: MoveSet, red: Reduction, effects: Effects, start: np.ndarray,
                      goal: np.ndarray,
                      word: list[Letter], mismatches: int, first: int, budget: Budget
                      ) -> list[Letter]:
    """``word`` with insertions leaving fewer pieces wrong, where no insertion
    fixes a position (two pairs of swapped pieces of look-alike colours), when
    that and the 3-cycles finishing what is left cost less than the 3-cycles
    alone (on Santa's 4x4x4 they cost 18 to 44 moves for the last 4 to 8
    positions)."""
    state = ms.apply(start, word)
    wrong = int(np.count_nonzero(state != goal))
    if wrong <= mismatches or wrong > PIECES_BELOW or budget.expired:
        return word
    more = insert_effects(ms, effects, start, goal, word, frozen=red.frozen,
                          mismatches=mismatches, first=first, budget=budget,
                          pieces=red.pieces.block_of)
    if more == word:
        return word
    after = ms.apply(start, more)
    if ms.cost(more) + ms.cost(red.cycles.solve(after, goal)) < \
            ms.cost(word) + ms.cost(red.cycles.solve(state, goal)):
        return more
    return word


def _free_moves(ms: MoveSet, red: Reduction, state: np.ndarray, goal: np.ndarray,
                word: list[Letter], budget: Budget) -> tuple[np.ndarray, list[Letter]]:
    """The state and word after single moves of classes that keep the small
    orbits, the one fixing the most positions per move each time, while one
    fixes more than :data:`FREE_GAIN` a move (within ``budget``)."""
    letters = [(c, e) for c in red.keeping for e in range(1, ms.orders[c])
               if ms.letter_cost((c, e)) <= 2]
    if not letters:
        return state, word
    perms = np.array([ms.powers[c][e] for c, e in letters])
    cost = np.array([ms.letter_cost(x) for x in letters], dtype=np.float64)
    while not budget.expired:
        right = int(np.count_nonzero(state == goal))
        gain = (state[perms] == goal).sum(1) - right
        score = gain / cost
        i = int(np.argmax(score))
        if score[i] <= FREE_GAIN:
            break
        state, word = state[perms[i]], ms.extend(word, [letters[i]])
    return state, word


#: the seconds the small orbits' chain may improve on its first word, at most this
#: share of the time left (the word serves every variant of the row)
SMALL_SECONDS = 2.5
SMALL_SHARE = 1 / 16

#: the rounds end when they fix fewer positions a move; insertions take over
#: (with the parallel commutators inserted too, earlier than 0.8: Santa's row
#: 281 7,273 moves rather than 7,503, row 277 1,997 rather than 2,099; from the
#: start, 100, the insertions were cut by the deadline: 7,645)
INSERT_BELOW = 1.6
#: ... and from this many positions wrong on, at every point of the word
#: (:func:`~permgroup.solver.everywhere.insert_everywhere`), then again (on
#: Santa's cube_10/10/10 the five rows' first variants 3,629 -> 3,459 moves;
#: from 200 wrong, 3,533: the insertions at 48 points with their parallel
#: commutators did more a move there)
EVERYWHERE_BELOW = 100
#: ... on puzzles of at least this many positions (the big cubes, from the
#: 7x7x7's 294; the middle cubes, at most 216, as they were: not measured)
EVERYWHERE_FROM = 250
#: ... and at most this many (Santa's cube_33/33/33, 6,534, row 281 side by
#: side in three runs: 7,201 -> 7,263, 7,281 -> 7,217, 7,273 -> 7,289 moves,
#: 10 to 30 s more; row 283 10,838 -> 10,756 once: not shown)
EVERYWHERE_TO = 3_000
#: ... in slices of this share of the time left (see :func:`_insertions`)
INSERT_SLICE = 0.15
#: each slice's points start this share of their spacing after the last one's
#: (modulo 1: the golden ratio's, never the same twice)
SLICE_PHASE = 0.618

#: the kinds of parallel commutator scored at each point of the insertions (0:
#: none; on Santa's row 281, cube_33/33/33 at the default limit, the rounds
#: ending at 0.8: 8,527 moves with none, 7,725 with 6, 7,503 with 16, 7,505 with
#: 48 in 40 s more)
COMBINED_KINDS = 16

#: the commutators of two pairs are inserted too (when asked) on puzzles of at
#: most this many pairs (Santa's 4x4x4 has 4,968, its 5x5x5 8,640: with them, 4 %
#: shorter a variant on rows 150, 151, 152, 205, 210, 211; the 6x6x6 more: building
#: theirs took 15 s; a 33x33x33 has 250,000)
TWO_PAIRS_BELOW = 10_000

#: insertions by pieces are tried when at most this many positions are left wrong
#: (the last few: with more, the insertions by positions stopped for time; kept
#: only when they and the 3-cycles after them cost less: on Santa's cube_33/33/33
#: the insertions by positions end with 40 to 80 wrong, and from 48 on row 282
#: they left 16, 215 moves with the 3-cycles against 267)
PIECES_BELOW = 100

#: a free move is made while it fixes more than this many positions a move
FREE_GAIN = 1.5


#: parallel commutators scored a round (the most promising kinds)
ROUND_KINDS = 400
#: after the best step of a round, the next ones are taken while they still fix
#: this share of the positions per move that the best did
ROUND_SHARE = 0.6
#: past the deadline: kinds scored a round, the share taken, the outer letters tried
HURRIED = (24, 0.3, 5)
#: ... and they look for a 3-cycle only when no commutator fixes a position or at
#: most this many positions are wrong (on Santa's cube_33/33/33, the rounds from
#: the start: 4.1 s of CPU and 14,043 moves against 5.4 to 6.4 s and 14,143 when
#: each round looked; cube_19/19/19 1.75 s and 4,711 against 2.27 s and 4,695;
#: at most 216 positions, cube_6/6/6's rounds are as before)
HURRIED_ALONE = 200
#: positions a hurried round fixes, for :func:`hurried_seconds` (about 46 on
#: Santa's cube_33/33/33 and cube_19/19/19 from the start, 22 on cube_6/6/6)
HURRIED_FIX = 30


def _best_steps(ms: MoveSet, red: Reduction, state: np.ndarray, goal: np.ndarray,
                hurry: bool = False, kinds: int | None = None) -> list[Letter]:
    """One round: the parallel commutator or 3-cycle fixing the most positions
    per move (the next one when its word does not fix what its score said),
    then the round's other candidates, scored again on the state they meet,
    while they fix nearly as much a move (scoring every commutator again
    after each would cost a round each)."""
    kinds, share, outers = HURRIED if hurry else (kinds or ROUND_KINDS, ROUND_SHARE, None)
    options = [(f[0], lambda f=f: red.shapes.word(f[1], f[2], f[3]))
               for f in red.shapes.ranked(state, goal, max_kinds=kinds, outers=outers)]
    # a 3-cycle is looked for only when it may beat the commutators (building
    # every orbit's setups takes long on a big puzzle), or when none of them
    # fixes what its score said
    cycled = False
    wrong = int(np.count_nonzero(state != goal))
    if not options or (not (hurry and wrong > HURRIED_ALONE)
                       and options[0][0] < red.cycles.most(turning=False)):
        options, cycled = options + _cycle_option(red, state, goal), True
    options.sort(key=lambda o: -o[0])
    done: list[Letter] = []
    top = None
    while True:
        for value, make in options:
            if top is not None and value < share * top:
                break
            step = make()
            after = ms.apply(state, step)
            now = int(np.count_nonzero(after != goal))
            if now >= wrong:
                continue
            if top is not None and (wrong - now) / max(ms.cost(step), 1) < share * top:
                continue
            top = value if top is None else top
            state, wrong, done = after, now, done + list(step)
        if done or cycled:
            return done
        options, cycled = _cycle_option(red, state, goal), True


def hurried_seconds(red: Reduction, state: np.ndarray, goal: np.ndarray) -> float:
    """About how long :func:`reduction_word`'s hurried rounds take a wrong
    position: one hurried round's scoring timed on ``state``, over the
    :data:`HURRIED_FIX` positions a round fixes (the small orbits' word and
    the 3-cycles at the end are in the margin).  What a word owed by a
    deadline keeps for them (on Santa's cube_33/33/33 the rounds from the
    start took 8 s, loaded, where a 10 s limit had left 1.5)."""
    began = time.monotonic()
    red.shapes.ranked(state, goal, max_kinds=HURRIED[0], outers=HURRIED[2])
    return (time.monotonic() - began) / HURRIED_FIX


def _before(budget: Budget, end: Budget | None, keep: float) -> Budget:
    """``budget``, ending at least ``keep`` seconds before ``end`` (if given).

    >>> _before(Budget.of(60), Budget.of(10), 4).left() < 6.1
    True
    """
    if end is None or end.deadline is None:
        return budget
    last = end.deadline - keep
    if budget.deadline is not None and budget.deadline <= last:
        return budget
    return replace(budget, deadline=last)


def _cycle_option(red: Reduction, state: np.ndarray, goal: np.ndarray) -> list:
    """The best 3-cycle as a round's option (score, word maker), if there is one."""
    cycle = red.cycles.best(state, goal, state != goal, turning=False)
    return [] if cycle is None else [(cycle[0], lambda c=cycle: c[1])]
