"""A word for any position of any puzzle, from its moves alone.

:func:`find_word` takes a puzzle's moves (name -> gather array, every entry one
move), a start and a goal colouring and a number of positions allowed to differ
at the end.  Nothing in it knows a puzzle by name: the pieces, their orbits and
parities, and the short words that move few pieces all come from the moves.

The way (see ``docs/solving.md``):

0. on a puzzle of rings sharing cells (a wreath), an opening sorting most
   pieces between the rings by turns and commutators of turns; on one of
   rings meeting through flips (a globe), commutators of turns and flipped
   turns inserted at any point of the word (:mod:`~permgroup.solver.rings`);
   the rest solved as below;
1. the pieces and their orbits (:mod:`~permgroup.solver.pieces`);
2. tools: commutators ``[a, x b x⁻¹]`` whose two parts meet in one piece (a
   3-cycle), their inverses and conjugates, and the twists made of two of them
   (:mod:`~permgroup.solver.commutators`), and the commutators of products of
   commuting moves that do many such 3-cycles at once
   (:mod:`~permgroup.solver.parallel`), kept per puzzle; on a puzzle of
   distinct turning pieces whose 3-cycles differ in cost (a Megaminx), the
   pieces of the costlier ones placed first by search
   (:mod:`~permgroup.solver.blocks`);
3. the greedy descent (:mod:`~permgroup.solver.greedy`): whichever of a short
   move, a tool or a parallel commutator fixes the most stickers per move, again
   and again, the parities of orbits of distinct pieces made right when the
   first tool is chosen;
4. when the limit came first, the position reached finished with no deadline
   (:mod:`~permgroup.solver.finish`: a limit trades length, never the answer);
5. the word shortened (:mod:`~permgroup.solver.shorten`) and, when it is short
   or the puzzle's colourings few, a bidirectional search given the rest of
   the time for a shorter one (:mod:`~permgroup.solver.exact`).

Every word is applied to the start and compared with the goal before it is
returned.

>>> import numpy as np
>>> t = np.array([1, 2, 3, 0]); u = np.array([0, 2, 1, 3])
>>> moves = {"t": t, "-t": np.argsort(t), "u": u}
>>> from permgroup.budget import Budget
>>> word = find_word(moves, np.array([3, 2, 1, 0]), np.array([0, 1, 2, 3]), budget=Budget.of(5))
>>> state = np.array([3, 2, 1, 0])
>>> for name in word:
...     state = state[moves[name]]
>>> state.tolist()
[0, 1, 2, 3]
"""
from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from permgroup.budget import Budget
from permgroup.errors import InputError, Stopped, counted
from permgroup.solver.commutators import (ToolTable, base_commutators, cheap_letters,
                                          inverse_tool, paired_rows, turning_tools)
from permgroup.solver.cycles import OrbitCycles, orbit_cycles
from permgroup.solver.greedy import greedy
from permgroup.moves import MoveSet
from permgroup.solver.parallel import Shapes
from permgroup.solver.pieces import Pieces, orbit_of_position
from permgroup.solver.shorten import meet_shortcuts, short_words, shorten

#: the tool table is grown a second level of conjugates only while it has fewer rows
#: (more are grown later, around the positions the greedy cannot fix)
MAX_BUILT_ROWS = 150_000
#: windows of the word are compared with the words of up to this many letters
SHORT_WORD_LETTERS = 3
#: greedy runs tried while time allows, the shortest word kept: (backward, compete)
#: (a backward run solves from the goal to the start and inverts the word)
VARIANTS = ((False, False), (True, True), (True, False), (False, True))
#: the share of the time limit within which further variants are started
VARIANT_SHARE = 0.5
#: the share of the time limit after which the greedy stops choosing and the
#: 3-cycles finish at once (the rest of the limit is for that) ...
GREEDY_SHARE = 0.7
#: ... and after which the descent stops: the rest is the reserve of the steps
#: after it (shortening the word, the last-resort finish), counted work whose
#: time is a share of the greedy's (cube-5 lines ended 4 s past a 10 s limit
#: when the descent took it all)
DESCENT_SHARE = 0.85
#: the share of the time limit after which the first reduction variant's rounds
#: hurry: later than the greedy's (nothing runs after it on a big cube, its
#: hurried rounds take a few seconds: 5 to 6 on Santa's row 283, cube_33/33/33
#: with every sticker its own label, whose insertions were cut at 1,430
#: positions wrong by GREEDY_SHARE with a third of its 261 s unused); the
#: descent's share, the reserve after it the same
REDUCTION_SHARE = DESCENT_SHARE
#: ... which is later where the reduction's word will be too long to be shortened
#: (SHORTEN_STATES: the reserve is for that), told by the positions wrong at the
#: start times the positions (a big cube's reduction fixes about a position a move
#: or less: Santa's cube_33/33/33 rows, 6,000 wrong of 6,534, take 7,000 to
#: 11,000 moves); there the reserve went unused (row 283, whose stickers are all
#: labelled apart, ended at 223 s of 261 with its insertions cut at 471 wrong and
#: the hurried rounds taking 2,416 moves for them, 0.19 a position against 0.35
#: for the last insertions)
UNSHORTENED_SHARE = 0.95
#: the reduction's words tried while time allows, the shortest kept: (backward,
#: commutator kinds scored a round); on Santa's cubes the shortest of these four
#: was 9 % shorter than the forward 400 alone (7 rows of cube_4 to cube_10); the
#: first is the one a big cube has time for (backward 1,500: 5 to 7 % shorter than
#: forward 400 on two cube_19/19/19 rows and a cube_33/33/33 row, in as much time);
#: third, whether commutators may be inserted among the small orbits' moves
#: (mostly shorter: Santa's 4x4x4 and 5x5x5 rows 150, 152, 210, 206 gave 96, 116,
#: 161, 115 moves inside against 114, 118, 179, 125 after; rows 200, 240, 241 the
#: other way, 137, 198, 191 against 126, 190, 187).  The kinds matter little
#: there (the 4x4x4's rounds hardly run): these four replace the four kinds.
#: Fourth, whether the commutators of two pairs are inserted too (the same four
#: again, while time allows, on puzzles of few pairs: on 16 rows of cube_4 and
#: cube_5 the shortest of the eight took 2,027 moves against 2,095 for the first four)
REDUCTION_VARIANTS = ((True, 1500, True, False), (False, 400, True, False),
                      (True, 1500, False, False), (False, 400, False, False),
                      (True, 1500, True, True), (False, 400, True, True),
                      (True, 1500, False, True), (False, 400, False, True))
#: after every variant, while the time allows, those of the pairs alone again with
#: the insertions looking at each of these many points of the word a step rather
#: than insertion.ANCHORS (48).  Santa's 5x5x5 and 6x6x6 rows ended after every
#: variant in 14 to 18 s of 60, and at 96 points the words were mostly shorter (rows
#: 205, 206, 211, 240: 106, 85, 109, 162 moves against 116, 97, 117, 186 for the
#: best at 48; at 200 points 108, 85, 109; 6x6x6 row 245 280 at 48, 268 at 96, 254
#: with 200 too)
REDUCTION_ANCHORS = (96, 200)
#: ... where the points times the pairs stay within this (four times what the
#: insertions' own points may hold, insertion.ANCHOR_ROWS): on a quicker machine
#: Santa's cube_19/19/19 rows ended at 42 s of their 87 with the variants at 96
#: points skipped (96 x 251,028 pairs); let in, side by side (load 1-2): rows
#: 277-280 9,599 -> 9,081 moves, row 281 (cube_33/33/33) 7,267 -> 7,063 (in 197 s
#: rather than 100, peak 1.7 GB rather than 1.1)
MORE_POINTS_ROWS = 48_000_000
#: before the runs at more points, on puzzles of at least this many positions and
#: fewer than reduction.EVERYWHERE_FROM (Santa's 6x6x6, 216), the four of the pairs
#: alone again with the last positions at every point of the word as on the big
#: cubes (:mod:`~permgroup.solver.everywhere`).  On Santa's 6x6x6 rows 245 and 250
#: the twelve words of the pairs alone summed 3,248 and 3,362 moves, with those
#: everywhere from 100 wrong 3,054 and 3,154 (the best 244 -> 240, 254 -> 242):
#: added rather than in place of the others.  Not below: on 4x4x4 and 5x5x5 rows
#: 160, 200, 205, 210, 211, 220, 230 the words kept were the same, and on the
#: globe_6/10 row 383 (140 positions, where the rings' opening weighs candidates
#: by the words after them) 246 moves against 224
REDUCTION_EVERYWHERE = 200
#: the stages by search (permgroup.solver.staged) are tried first where they apply
#: (staged.CENTRE_ORBITS), with at most this share of the variants' time (at 0.5,
#: 14 s on Santa's 4x4x4, loaded, the centres' beam took 7 and the pairs' beam
#: ran out of time on row 151: 114 moves by the variants, 80 by the stages given 20 s)
STAGE_SHARE = 0.7
#: the greedy runs after the reduction's word only while the time left is at least
#: this many times what the reduction took (it takes several times as long)
GREEDY_AFTER = 2.0
#: the reduction's word is shortened while its states hold at most this many positions
#: (each state met is kept: a 33x33x33's word would need gigabytes)
SHORTEN_STATES = 20_000_000
#: the share of the time left for placing the pieces of costly 3-cycles by search
#: first (permgroup.solver.blocks), on puzzles of at most BLOCK_DEGREE positions
#: all labelled apart; on the Megaminx (60 s a row, loaded) 298 rather than 333 moves a row
BLOCK_SHARE = 0.4
BLOCK_DEGREE = 400
#: the exact search is tried when the greedy word is at most this long
EXACT_LENGTH = 40
#: its share of the time left
EXACT_SHARE = 0.5
#: ... or when the colourings of the start's colours are at most this many (the
#: search then ends with the shortest word, or with proof that there is none)
EXACT_STATES = 4_000_000
#: the most memory the exact search keeps (less when the budget has less)
EXACT_MEMORY = 1 << 30
#: seconds :func:`find_word` takes without a budget
TIME_LIMIT = 60.0
#: the share of the time left an opening's candidate word may take to be
#: finished, to be weighed by its finished length (:mod:`permgroup.solver.rings`:
#: on Santa's globes 0.7-2.3 s for a few cells; 2 cells cost 12-14 moves, 8 cost 52)
FINISH_SHARE = 0.1


@dataclass
class Model:
    """What the solver knows of one puzzle: its moves, pieces and tools."""

    moves: MoveSet
    pieces: Pieces
    position_orbit: np.ndarray
    table: ToolTable
    shapes: Shapes
    short_words: dict
    cycles: OrbitCycles
    #: False when the build was cut short by its budget (tools or 3-cycles may lack)
    complete: bool = True
    #: the last-resort 3-cycles of the orbits ``cycles`` lacks, made when first needed
    #: (permgroup.solver.finish)
    rescue: OrbitCycles | None = None
    #: the steps of the tool table's growth still to do (:func:`grow`): a budget
    #: cut it short, the next call of :func:`model` with time goes on with it
    growth: list | None = None
    #: the rows being conjugated when the growth was cut, and where their level began
    growing: tuple | None = None

    @property
    def grown(self) -> bool:
        """Whether the tool table's growth is done."""
        return not self.growth


_MODELS: dict[str, Model] = {}


def model(ms: MoveSet, budget: Budget | None = None, setup_length: int = 1, *,
          grow_within: Budget | None = None) -> Model:
    """The solver's model of a puzzle, built once per process and set of moves
    (``setup_length``: the longest setup of its base commutators, see
    :func:`~permgroup.solver.commutators.base_commutators`); its parts are cut
    short once ``budget`` has run out (the model is then not ``complete``,
    and built again whole when asked for with no budget), the growth of its
    tool table once ``grow_within`` has (none: grown to the end; a caller
    holding a word cuts it at its budget): the model is kept, and the next
    call goes on growing the table (:func:`grow`, to the end without
    ``grow_within``), so that later rows of a process have the table as it
    would have been."""
    key = f"{ms.fingerprint()}-{setup_length}"
    if key in _MODELS and (_MODELS[key].complete or budget is not None):
        built = _MODELS[key]
        if not built.grown:
            grow(built, grow_within)
        return built
    pieces = Pieces.of(ms)
    position_orbit = orbit_of_position(ms)
    base = base_commutators(ms, pieces, budget=budget, setup_length=setup_length)
    cycles, more = orbit_cycles(ms, pieces, position_orbit, budget)
    base = base + more
    base = base + [inverse_tool(ms, t) for t in base]
    table = ToolTable(ms, base)
    shapes = Shapes.find(ms, pieces)
    _MODELS.clear()  # one puzzle at a time: tables can be large
    complete = budget is None or not budget.expired
    _MODELS[key] = built = Model(ms, pieces, position_orbit, table, shapes,
                                 short_words(ms, SHORT_WORD_LETTERS), cycles, complete,
                                 growth=["level", "turns", "level"])
    grow(built, grow_within)
    return built


def grow(m: Model, budget: Budget | None = None) -> None:
    """Grow ``m``'s tool table (a level of conjugates by every cheap letter,
    the turns of pieces in place made of its tools, a second level while the
    table is smaller than :data:`MAX_BUILT_ROWS`) until ``budget`` runs out,
    going on from where a budget cut it before."""
    ms, table = m.moves, m.table
    letters = cheap_letters(ms, 1)
    while m.growth:
        if m.growth[0] == "turns":
            rows = paired_rows(table, m.pieces)
            table.add(turning_tools(ms, m.pieces, [table.tool(i) for i in rows.tolist()]))
        elif m.growing is None and (len(m.growth) == 1 and table.size >= MAX_BUILT_ROWS):
            pass  # no second level of a table this large
        else:
            rows, begun, todo = m.growing or (table.frontier, table.size, letters)
            table.grow(todo, rows, budget=budget)
            if table.cut:
                m.growing = (rows, begun, table.cut)
                return
            m.growing = None
            table.frontier = np.arange(begun, table.size)
        m.growth.pop(0)


def _prepare(ms: MoveSet, budget: Budget) -> None:
    """What the solver needs of ``ms`` whatever the time, built before the work
    that ends by ``budget``: the reduction's model where it applies (on
    Santa's globe_8/25), else the greedy's (cut short by ``budget``, its table
    not grown) with its orbits' 3-cycle setups, which the last-resort finish
    needs (on Santa's globe_3/33)."""
    from permgroup.solver.reduction import reduction_model

    red = reduction_model(ms, budget)
    if red is not None and red.small:
        return
    m = model(ms, budget, grow_within=budget.share(0))
    for k in m.cycles.orbits:
        if budget.expired:
            return
        m.cycles.orbit(k)


def colourings(state: np.ndarray) -> int:
    """How many arrangements of ``state``'s colours there are (the multinomial
    coefficient of their counts): at least the positions reachable from it.

    >>> colourings(np.array([0, 0, 1, 2]))
    12
    """
    from math import factorial, prod

    _, counts = np.unique(state, return_counts=True)
    return factorial(len(state)) // prod(factorial(int(c)) for c in counts)


def find_word(moves: Mapping[str, np.ndarray], start: np.ndarray, goal: np.ndarray, *,
              mismatches: int = 0, budget: Budget | None = None, owed: bool = True,
              chain: bool = True, rings: bool = True, polish: bool = True,
              check: bool = True) -> list[str]:
    """Move names taking ``start`` to within ``mismatches`` positions of ``goal``
    (see the module docstring), found within ``budget`` (its time, memory and
    cancel; a minute without one); :class:`InputError` naming why when there
    is none.  ``chain=False`` skips the chain of subgroups
    (:func:`permgroup.solve` tries it before).  A word is ``owed``: once the
    budget has run out the solver still finishes one (a limit trades length,
    never the answer); with ``owed=False`` (the caller holds a word) it stops
    there instead (:class:`~permgroup.errors.Stopped`).  ``rings=False`` skips
    the opening of a puzzle of rings sharing cells (:mod:`~permgroup.solver.rings`).
    ``polish=False`` skips the closing exact search unless nothing else found a
    word (the rest after an opening: a few moves saved at most, for up to a
    gigabyte of states).  ``check=False``: the word is not applied here, for a
    caller that checks it itself (:func:`permgroup.solve`, at its exit: on
    Santa's 33x33x33 each check of a 13,000-move word took 0.2 s)."""
    budget = budget if budget is not None else Budget.of(TIME_LIMIT)
    # past choose, the greedy stops choosing and the 3-cycles finish at once;
    # past descent, the descent stops; further variants start only within variants
    choose, descent = budget.share(GREEDY_SHARE), budget.share(DESCENT_SHARE)
    variants = budget.share(VARIANT_SHARE)
    ms = MoveSet.from_moves(moves)
    if not owed:  # the caller's word stands: each step of the setup is checked
        budget.check()
    start = np.asarray(start).astype(np.int64)
    goal = np.asarray(goal).astype(np.int64)
    if np.count_nonzero(start != goal) <= mismatches:
        return []
    if sorted(start.tolist()) != sorted(goal.tolist()) and mismatches == 0:
        raise InputError("the two states do not have the same colours")
    # a near-optimal word through a chain of subgroups, where the colours tell the
    # position and the chain's tables fit (permgroup.solver.chain)
    if chain:
        from permgroup.solver.chain import chain_word

        try:
            word = chain_word(moves, start, goal, ms=ms, budget=budget)
        except Stopped:
            # the chain's tables took longer to build than their estimate (a
            # loaded machine): a word is still owed when the caller holds none
            if not owed:
                raise
            word = None
        if word is not None:
            return word
        if not owed:
            budget.check()
    if rings:
        from permgroup.solver.rings import opening

        began = time.monotonic()
        # the rest's model and 3-cycles built first when a word is owed: the
        # opening's share is then of the time truly left (on Santa's
        # globe_3/33 they took 3 to 4 s after it, loaded, past a 10 s limit)

        def finished(state: np.ndarray) -> list[str] | None:
            # the rest of an opening's candidate word, to weigh it by its
            # finished length (None when the budget ends first)
            try:
                return find_word(moves, state, goal, mismatches=mismatches,
                                 budget=budget.share(FINISH_SHARE), owed=False, chain=False,
                                 rings=False, polish=False, check=False)
            except (Stopped, InputError):
                return None

        opened = opening(moves, start, goal, budget=budget, mismatches=mismatches,
                         prepare=(lambda: _prepare(ms, budget)) if owed else None,
                         finish=finished)
        if opened is not None and opened[0]:
            # most pieces sorted between the rings by turns and commutators of
            # turns; the rest from where that left off
            prefix, middle = opened
            # (not polished: on a fresh globe_4/7 row the exact search on the
            # last 10 moves of 194 took 1.4 GB)
            rest = find_word(moves, middle, goal, mismatches=mismatches, budget=budget,
                             owed=owed, chain=False, rings=False, polish=False, check=False)
            # stretches met again from both ends, across the seam too: the
            # insertions' words on look-alike cells (Santa's globe_1/16 row
            # 348 173 -> 171 moves, globe_6/8 row 378 241 -> 237); not once the
            # time is up (a word owed past it: on wreath_100/100 at a 5 s limit,
            # 0.7 s of CPU for the 2,900 moves of the last-resort finish's word)
            word = prefix + rest
            if not budget.expired:
                word = ms.names(meet_shortcuts(ms, start, ms.letters(word)))
            if check:  # the rest's word and the shortcuts, checked together
                word = _checked(moves, start, goal, word, mismatches)
            # the solver without the opening too, while the time left is at least
            # what the opening's word took (shorter on some of Santa's globe_1/16 rows)
            if budget.left() < time.monotonic() - began:
                return word
            try:
                alone = find_word(moves, start, goal, mismatches=mismatches, budget=budget,
                                  owed=False, chain=False, rings=False, check=check)
            except (Stopped, InputError):
                return word
            return alone if len(alone) < len(word) else word
    word, wrong = None, 0
    # the small orbits by search, the big ones by commutators that keep them
    # (permgroup.solver.reduction): quick where it applies, and on a big cube
    # the greedy's model alone would take the time limit
    shortened = np.count_nonzero(start != goal) * ms.degree <= SHORTEN_STATES
    reduced_in = _reduce_first(moves, ms, start, goal, mismatches, descent, choose, variants,
                               budget.share(REDUCTION_SHARE if shortened else UNSHORTENED_SHARE),
                               end=budget if owed else None)
    if reduced_in is not None:
        word, took = reduced_in
        wrong = int(np.count_nonzero(ms.apply(start, word) != goal))
        if budget.left() < GREEDY_AFTER * took:
            return _checked(moves, start, goal, ms.names(word), mismatches, check)
    if not owed:  # the caller's word stands: no model is built past the budget
        budget.check()
    # with no time left for the descent, the model's parts are built whole at
    # once (the finish needs them: not twice); its table grows until the
    # greedy's time to choose when a word is owed (past it the 3-cycles finish
    # at once: on Santa's globe_3/33, after the opening, a growth of 3 s that
    # nothing used; the last-resort finish grows the rest first: handed the cut
    # table, Santa's globe_8/25's first line took 21 s rather than 12),
    # else within the budget, and a growth cut goes on at the next call
    m = model(ms, None if descent.expired else budget, grow_within=choose if owed else budget)
    if not owed:
        budget.check()
    # the pieces whose 3-cycles cost most placed first by search, the descent
    # going on from there (permgroup.solver.blocks); not when the caller holds
    # a word (a scramble reversed: on the Megaminx's 100-move lines the search's
    # share doubled the time a line for words three times as long as it)
    origin, prefix = start, []
    if reduced_in is None and mismatches == 0 and len(np.unique(goal)) == len(goal) \
            and ms.degree <= BLOCK_DEGREE and not descent.expired and owed:
        from permgroup.solver.blocks import block_word, costly_pieces

        order = costly_pieces(m.pieces, m.cycles)
        if order:
            prefix = ms.letters(block_word(moves, m.pieces, order, start, goal,
                                           budget.share(BLOCK_SHARE)))
            start = ms.apply(start, prefix)
            # the 3-cycles at once, then the descent for the pieces left to
            # turn: from most pieces home, shorter than the greedy's choices
            # (on the Megaminx 209 moves rather than 257 after a prefix of 50)
            from permgroup.solver.finish import finish

            word = shorten(ms, start, finish(ms, m, start, goal), table=m.short_words)
            wrong = int(np.count_nonzero(ms.apply(start, word) != goal))
    for backward, compete in VARIANTS:
        began_variant = time.monotonic()
        # backward: a word taking the goal to the start, inverted (the same
        # permutation carries the start to the goal, mismatches and all)
        a, b = (goal, start) if backward else (start, goal)
        found, _ = greedy(ms, m.table, a, b, mismatches=mismatches,
                          hurry=choose, budget=descent, pieces=m.pieces,
                          position_orbit=m.position_orbit,
                          shapes=m.shapes, cycles=m.cycles, compete=compete, owed=owed)
        found = shorten(ms, a, found, table=m.short_words)
        if backward:
            found = ms.inverse(found)
        missed = int(np.count_nonzero(ms.apply(start, found) != goal))
        if word is None or (missed <= mismatches and (wrong > mismatches
                                                      or ms.cost(found) < ms.cost(word))):
            word, wrong = found, missed
        # another variant only while two more fit in its share of the time limit
        # (and none once the descent's time is over: the finish does the rest)
        spent = time.monotonic() - began_variant
        if (wrong <= mismatches and 2 * spent > variants.left()) or descent.expired:
            break
    if wrong > mismatches:
        if not owed:  # the greedy stopped unfinished: the caller's word stands
            raise Stopped(budget.stop_reason() or "the time limit", 0)
        # the last resort: finished with no deadline, from where the greedy stopped
        # (a limit trades length, never the answer; permgroup.solver.finish)
        from permgroup.solver.finish import finish

        # a model whose build or growth the deadline cut short is completed first
        more = finish(ms, m if m.complete and m.grown else model(ms), ms.apply(start, word),
                      goal, mismatches=mismatches)
        word = ms.extend(word, more)
        wrong = int(np.count_nonzero(ms.apply(start, word) != goal))
    if prefix:
        start, word = origin, ms.extend(prefix, word)
    best = ms.names(word) if wrong <= mismatches else None
    if best is None or (polish and (len(best) <= EXACT_LENGTH
                                    or colourings(start) <= EXACT_STATES)):
        from permgroup.solver.exact import exact_word

        part = budget.share(1 if best is None else EXACT_SHARE)
        try:
            shorter = exact_word(moves, start, goal, mismatches=mismatches,
                                 max_states=EXACT_STATES,
                                 budget=part.with_memory(min(part.memory, EXACT_MEMORY)))
            if best is None or len(shorter) < len(best):
                best = shorter
        except (InputError, Stopped):
            pass
    if best is None:
        raise InputError(f"no word found: {counted(wrong, 'position')} still wrong after "
                         f"{counted(ms.cost(word), 'move')} and no tool helps (the position may "
                         "be unreachable)")
    return _checked(moves, start, goal, best, mismatches, check)


def _checked(moves: Mapping[str, np.ndarray], start: np.ndarray, goal: np.ndarray,
             word: list[str], mismatches: int, check: bool = True) -> list[str]:
    """``word``, once it is applied to ``start`` and found within ``mismatches``
    positions of ``goal`` (at once without ``check``: the caller checks it)."""
    if not check:
        return word
    final = start
    for name in word:
        final = final[moves[name]]
    if np.count_nonzero(final != goal) > mismatches:
        raise AssertionError("the solver's word does not solve the position")
    return word


def _owed_word(moves: Mapping[str, np.ndarray], start: np.ndarray, goal: np.ndarray,
               budget: Budget) -> list[str]:
    """The generic solver's word, owed past ``budget``, with none of the ways
    that need setup (a chain, an opening, the closing search): the small
    orbits' word when their chain's tables do not fit in the time."""
    return find_word(moves, start, goal, budget=budget, chain=False, rings=False, polish=False)


def _reduce_first(moves: Mapping[str, np.ndarray], ms: MoveSet, start: np.ndarray,
                  goal: np.ndarray, mismatches: int, budget: Budget, choose: Budget,
                  variants: Budget, first: Budget | None = None, end: Budget | None = None
                  ) -> tuple[list, float] | None:
    """The shortest word of :func:`~permgroup.solver.reduction.reduction_word`
    (letters, shortened) over the :data:`REDUCTION_VARIANTS` (those of the pairs
    alone again with the insertions at :data:`REDUCTION_ANCHORS` points) that fit in
    ``variants`` or before ``first`` (at least the first, found or not; their
    rounds hurry once ``first`` has run out, default ``choose``, and after
    the stages by search once ``choose`` has), and the
    seconds one took at most, when the puzzle has small orbits for it to solve
    first; ``None`` otherwise or when it finds none.  ``end``: when the word is
    owed, the variants' rounds hurry early enough to end by it
    (:func:`~permgroup.solver.reduction.reduction_word`'s ``end``)."""
    from permgroup.solver.reduction import (EVERYWHERE_FROM, TWO_PAIRS_BELOW, reduction_model,
                                            reduction_word)
    from permgroup.solver.staged import stage_model, staged_word

    red = reduction_model(ms, budget)
    if red is None or not red.small:
        return None
    best, took = None, 0.0
    stages = stage_model(ms, red.pieces, red.small, goal, red.frozen, red.position_orbit)
    if stages is not None:
        # the centres, then the pairs, then the quotient by search
        # (permgroup.solver.staged); the reduction finishes what they leave
        t = time.monotonic()
        prefix = staged_word(moves, ms, stages, start, goal, variants.share(STAGE_SHARE))
        if prefix is not None:
            best = reduction_word(moves, ms, red, start, goal, mismatches=mismatches,
                                  hurry=choose, fallback=_owed_word, prefix=prefix)
            if best is not None and len(best) * ms.degree <= SHORTEN_STATES:
                best = shorten(ms, start, best)
        took = time.monotonic() - t
    # every variant at the insertions' points by default first (on Santa's 4x4x4
    # rows of the stages, run before them, the last ones are cut by the time and
    # one of two pairs may be the shortest: row 154, 87 moves rather than 83 when
    # the pairs alone at 96 points went first), then those of the pairs alone at more
    # points.  The first variant hurries at ``first`` where there are no stages, the others
    # at ``choose``, or at ``first`` where they fit only before that (a big cube: on
    # Santa's cube_19/19/19 the first ends at 30 to 45 s of 87, and the greedy
    # after it gave words twice as long; every later variant hurrying at ``first``
    # gave cube_10/10/10 rows 272 and 273 1,421 moves against 1,403: fewer variants)
    late = first if stages is None and first is not None else choose
    runs = [v + (None, None) for v in REDUCTION_VARIANTS]
    # the runs with the last positions at every point: at the default points,
    # then last at more points too (more words to choose from in the time a
    # 6x6x6 row leaves: Santa's twelve, alone at --jobs 2, 2,854 -> 2,838 moves,
    # no row longer, 197 -> 263 s of CPU)
    middle = REDUCTION_EVERYWHERE <= ms.degree < EVERYWHERE_FROM
    alone = [v for v in REDUCTION_VARIANTS if not v[3]]   # the pairs alone
    if middle:
        runs += [v + (None, True) for v in alone]
    runs += [v + (n, None) for n in REDUCTION_ANCHORS for v in alone]
    if middle:
        runs += [v + (n, True) for n in REDUCTION_ANCHORS for v in alone]
    for i, (backward, kinds, inside, two_pairs, anchors, everywhere) in enumerate(runs):
        # (a variant finding none is no reason to stop: on Santa's 4x4x4 row 200
        # the first ended with two look-alike positions no 3-cycle fixes, the
        # fourth gave 124 moves where the greedy gave 153)
        # (or while one fits before the rounds hurry: on a big cube the greedy
        # would not use the rest, on Santa's cube_19/19/19 rows the first
        # variant took 19 to 27 s of 87 and the greedy's word was twice as long)
        if took and 2 * took > variants.left() and took > late.left():
            break
        hurried = late if i == 0 or took > choose.left() else choose
        if two_pairs and (best is None or red.shapes.size > TWO_PAIRS_BELOW):
            # the commutators of two pairs only where the pairs alone found a
            # word and are few (on Santa's 6x6x6 row 255 no variant finds one,
            # and building them took the greedy's time: 422 moves against 348)
            continue
        if (anchors is not None or everywhere) and best is None:
            continue  # more points where the variants found none: no more words
        if anchors is not None and anchors * red.shapes.size > MORE_POINTS_ROWS:
            continue  # past the rows the insertions' gains may hold (a big cube's)
        t = time.monotonic()
        # backward: a word taking the goal to the start, inverted (the same
        # permutation carries the start to the goal, mismatches and all)
        a, b = (goal, start) if backward else (start, goal)
        found = reduction_word(moves, ms, red, a, b, mismatches=mismatches, hurry=hurried,
                               kinds=kinds, inside=inside,
                               two_pairs=two_pairs, fallback=_owed_word, anchors=anchors,
                               everywhere=everywhere,
                               end=end if i == 0 or hurried is first else None)
        if found is not None:
            if len(found) * ms.degree <= SHORTEN_STATES:
                found = shorten(ms, a, found)
            if backward:
                found = ms.inverse(found)
            if best is None or ms.cost(found) < ms.cost(best):
                best = found
        took = max(took, time.monotonic() - t)
    return None if best is None else (best, took)
