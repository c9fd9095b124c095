"""The 3x3x3 cube.

States are 54-character facelet strings in URFDLB face order, each face read
row by row as seen from outside (:mod:`puzzles.cube_geometry`), in any six
colour letters.  Face turns never move the centres, so the target colour of a
face is the colour of its centre, and a colouring is exactly one group element:
:func:`element` reads the scheme off the centres and then finds each corner and
edge piece by piece.  A cube held another way up shows other centres on each
face and is read through them, so whole-cube rotations never matter (the 24
rotations are still recorded as :attr:`Puzzle.symmetries`).

A colouring made of real pieces is a position of the cube exactly when three
invariants hold: the corner twists add up to 0 (mod 3), the edge flips add up
to 0 (mod 2), and the corner and edge permutations have the same parity.
:func:`element` names the one that fails.

:func:`solve` answers any cube in about 19.5 face turns within a second, by
the two-phase search through ``<U, D, R2, L2, F2, B2>``
(:mod:`permgroup.search.subgroup_chain`).  Exact distances are far beyond a full
table (4.3·10¹⁹ positions), so they come from
search (:mod:`permgroup.search.exact`): a cached ball of every position within a few
moves of solved, met by iterative deepening with pattern-database bounds.

>>> solved = SOLVED
>>> solve(apply_moves(solved, "R U'"), max_depth=4)  # optimal, quarter turns
['U', "R'"]
>>> solve(apply_moves(solved, "R U F D"), max_depth=3) is None
True
>>> len(solve(apply_moves(solved, "R U F D")))  # two-phase, face turns
4
"""
from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from permgroup.search.ball import Ball, load_ball
from permgroup.spaces.element import PieceCoordinate
from permgroup.spaces.digits import DigitSpace, load_digit_space, piece_digits
from permgroup.errors import (InputError, InputTypeError, Stopped, UnreachableError,
                              require_string, require_whole)
from permgroup.metric import metric_moves
from permgroup.perm import Perm, act, parity
from permgroup.puzzle import Puzzle
from permgroup.formats.definition import Definition
from permgroup.formats.stickers import definition_of
from puzzles.cube_geometry import FACES, CubeGeometry

GEOMETRY = CubeGeometry(3)
CORNERS = tuple(p for p in GEOMETRY.cubies() if len(p) == 3)
EDGES = tuple(p for p in GEOMETRY.cubies() if len(p) == 2)
CENTRES = tuple(GEOMETRY.index(face, 1, 1) for face in FACES)
FACELETS = "a facelet string of 54 letters (URFDLB order)"
SOLVED = "".join(face * 9 for face in FACES)
OPPOSITE = {"U": "D", "D": "U", "R": "L", "L": "R", "F": "B", "B": "F"}

PUZZLE = Puzzle(
    name="cube3",
    degree=54,
    generators={face: GEOMETRY.face_turn(face) for face in FACES},
    solved=tuple(SOLVED),
    symmetries={f"rotate-{face}": GEOMETRY.rotation(face) for face in "URF"},
    pieces={"corner": CORNERS, "edge": EDGES},
    renderer="puzzles.cube_display:cube_drawing(3)",
)

#: radius of the ball a deep search meets (its size: 9.2 million positions in
#: the quarter-turn metric, 8.2 million in the half-turn metric)
DEEP_RADIUS = {"qtm": 7, "htm": 6}
#: seconds an exact search may take per position by default
TIME_LIMIT = 60.0
#: seconds the two-phase search improves on its first answer by default
TWO_PHASE_SECONDS = 1.0
#: radius of the ball ``table()`` builds and ``permgroup table cube3`` prints
TABLE_RADIUS = {"qtm": 5, "htm": 5}


# --- colourings -------------------------------------------------------------

def _piece_name(piece: Sequence[int]) -> str:
    """The usual name of a slot: up/down first, then front/back (``UFR``, ``FL``)."""
    return "".join(sorted((GEOMETRY.face_of(i) for i in piece), key="UDFBRL".index))


class Scheme:
    """The face colours of a solved cube (read off the centres), and for every
    colour tuple a piece can show, which piece it is and how it is turned.

    >>> s = Scheme("WRGYOB")  # white up, red right, green front, ...
    >>> s.solved[:12], len(s.piece_of)  # 8 corners x 3 twists + 12 edges x 2 flips
    ('WWWWWWWWWRRR', 48)
    >>> s.element(facelets(PUZZLE.move_array("U"), "WRGYOB")) == PUZZLE.move_array("U")
    True
    """

    def __init__(self, face_colours: str):
        self.face_colours = face_colours
        self.solved = "".join(c * 9 for c in face_colours)
        self.piece_of: dict[tuple[str, ...], tuple[int, int]] = {}
        for pieces in (CORNERS, EDGES):
            for k, piece in enumerate(pieces):
                colours = tuple(self.solved[i] for i in piece)
                for t in range(len(piece)):
                    # the piece seen from a slot whose tuple starts t places later
                    self.piece_of[colours[-t:] + colours[:-t] if t else colours] = (k, t)

    def element(self, state: str, what: str = "cube") -> Perm:
        """The group element whose colouring is ``state`` (checked: real pieces,
        each once, and the three invariants)."""
        image = list(range(54))
        forms = []
        for kind, pieces in (("corner", CORNERS), ("edge", EDGES)):
            at = [0] * len(pieces)
            tw = [0] * len(pieces)
            placed: dict[int, int] = {}
            for j, slot in enumerate(pieces):
                colours = tuple(state[i] for i in slot)
                found = self.piece_of.get(colours)
                if found is None:
                    raise InputError(f"{what}: the {kind} at {_piece_name(slot)} has colours "
                                     f"{' '.join(colours)}; {self._why_not(colours, kind)}")
                k, t = found
                if k in placed:
                    raise InputError(
                        f"{what}: the {kind} {'-'.join(self.solved[i] for i in pieces[k])} "
                        f"appears twice (at {_piece_name(pieces[placed[k]])} and "
                        f"{_piece_name(slot)})")
                placed[k] = j
                at[j], tw[j] = k, t
                home = pieces[k]
                for u in range(len(slot)):
                    image[home[u]] = slot[(u + t) % len(slot)]
            forms.append((at, tw))
        (c_at, c_tw), (e_at, e_tw) = forms
        if sum(c_tw) % 3:
            raise UnreachableError(
                f"{what}: not a position of the cube: the corner twist sum is "
                f"{sum(c_tw) % 3} (mod 3), not 0 (a twisted corner)")
        if sum(e_tw) % 2:
            raise UnreachableError(
                f"{what}: not a position of the cube: the edge flip sum is odd "
                "(a flipped edge)")
        if parity(c_at) != parity(e_at):
            raise UnreachableError(
                f"{what}: not a position of the cube: the permutation parity of the "
                "corners differs from that of the edges (two pieces swapped)")
        return tuple(image)

    def _why_not(self, colours: tuple[str, ...], kind: str) -> str:
        faces = [self.face_colours.index(c) for c in colours]
        letters = [FACES[f] for f in faces]
        if len(set(colours)) < len(colours):
            return f"no {kind} has a colour twice"
        for a in letters:
            if OPPOSITE[a] in letters:
                return f"no {kind} has the colours of two opposite faces"
        return f"that is the mirror image of a real {kind}"


def check_colouring(state: str, what: str = "cube") -> None:
    """Raise :class:`InputError` unless ``state`` has 54 stickers, six colours nine
    times each, and six different centres.

    >>> check_colouring(SOLVED)  # fine: returns None
    >>> check_colouring(SOLVED[:53])
    Traceback (most recent call last):
        ...
    permgroup.errors.InputError: cube: expected 54 stickers, got 53
    >>> check_colouring(SOLVED.replace("U", "R", 1), "case 2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    permgroup.errors.InputError: case 2: every colour must appear 9 times (six colours); ...
    """
    require_string(state, what, FACELETS)
    if len(state) != 54:
        raise InputError(f"{what}: expected 54 stickers, got {len(state)}")
    counts: dict[str, int] = {}
    for c in state:
        counts[c] = counts.get(c, 0) + 1
    wrong = {c: v for c, v in counts.items() if v != 9}
    if wrong or len(counts) != 6:
        shown = ", ".join(f"{c!r} {v} times" for c, v in sorted(wrong.items()))
        raise InputError(f"{what}: every colour must appear 9 times (six colours); "
                         f"found {len(counts)} colours" + (f", {shown}" if shown else ""))
    centres = "".join(state[i] for i in CENTRES)
    if len(set(centres)) != 6:
        raise InputError(f"{what}: the centres {' '.join(centres)} (faces {FACES}) are not "
                         "six different colours")


@lru_cache(maxsize=64)
def scheme(face_colours: str) -> Scheme:
    """The (cached) scheme with these centre colours, in URFDLB order.

    >>> scheme("WRGYOB") is scheme("WRGYOB"), scheme(FACES).solved == SOLVED
    (True, True)
    """
    return Scheme(face_colours)


def element(state: str, what: str = "cube") -> Perm:
    """The group element (array form over the 54 stickers) of a facelet string.

    Raises :class:`InputError` for malformed colourings and
    :class:`UnreachableError` (naming the invariant) for impossible ones.

    >>> element(apply_moves(SOLVED, "U")) == PUZZLE.move_array("U")
    True
    """
    check_colouring(state, what)
    return scheme("".join(state[i] for i in CENTRES)).element(state, what)


def apply_moves(state: str, moves: str | Sequence[str]) -> str:
    """The facelet string after turning ``moves`` (``"R U' F2"`` or a list).

    >>> apply_moves(SOLVED, "R R'") == SOLVED
    True
    """
    from permgroup.words import apply_word

    require_string(state, "cube", FACELETS)
    return "".join(apply_word(PUZZLE, state, moves))


def facelets(element: Perm, face_colours: str = FACES) -> str:
    """The colouring of ``element`` with the given centre colours (URFDLB).

    >>> facelets(PUZZLE.move_array("U")) == apply_moves(SOLVED, "U")
    True
    """
    if not isinstance(element, Sequence) or len(element) != 54:
        raise InputTypeError(f"facelets: expected a permutation of the 54 stickers (a tuple), got "
                             f"{type(element).__name__}")
    solved = "".join(c * 9 for c in face_colours)
    return "".join(act(solved, element))


def _piece_codes(pieces: tuple[tuple[int, ...], ...]) -> np.ndarray:
    """For the faces ``(a, b, ...)`` a slot's stickers show (7 for a colour no
    centre has), the code ``piece * size + twist``, or -1 for no real piece."""
    size = len(pieces[0])
    table = np.full(7**size, -1, dtype=np.int64)
    solved = scheme(FACES)
    for colours, (k, t) in solved.piece_of.items():
        if len(colours) == size:
            code = 0
            for c in colours:
                code = code * 7 + FACES.index(c)
            table[code] = k * size + t
    return table


_CORNER_CODES = _piece_codes(CORNERS)
_EDGE_CODES = _piece_codes(EDGES)


def slot_forms(codes: np.ndarray, whats: Sequence[str]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Corner and edge slot forms ``(at, tw)`` of many colourings at once.

    ``codes`` has one row of 54 character codes per cube (URFDLB order).  A row
    that fails any check is read again by :func:`element`, which raises the
    error naming what is wrong (``whats[i]`` says where the cube came from).

    >>> import numpy as np
    >>> codes = np.array([[ord(c) for c in apply_moves(SOLVED, "U")]])
    >>> at, tw = slot_forms(codes, ["cube 1"])["corner"]
    >>> at.tolist(), tw.tolist()  # U cycles the four U corners, twisting none
    ([[2, 0, 3, 1, 4, 5, 6, 7]], [[0, 0, 0, 0, 0, 0, 0, 0]])
    >>> flipped = SOLVED[:7] + "F" + SOLVED[8:19] + "U" + SOLVED[20:]  # the UF edge flipped
    >>> slot_forms(np.array([[ord(c) for c in flipped]]), ["cube 2"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    permgroup.errors.UnreachableError: cube 2: not a position of the cube: ... (a flipped edge)
    """
    codes = np.asarray(codes)
    n = len(codes)
    centres = codes[:, CENTRES]
    same = codes[:, :, None] == centres[:, None, :]
    faces = np.where(same.any(axis=2), same.argmax(axis=2), 6)
    ok = (faces[:, CENTRES] == np.arange(6)).all(axis=1)
    counts = np.bincount((np.arange(n)[:, None] * 7 + faces).ravel(), minlength=7 * n)
    ok &= (counts.reshape(n, 7)[:, :6] == 9).all(axis=1)
    forms = {}
    for kind, pieces, table in (("corner", CORNERS, _CORNER_CODES), ("edge", EDGES, _EDGE_CODES)):
        size = len(pieces[0])
        slot_faces = faces[:, np.array(pieces)]
        code = np.zeros(slot_faces.shape[:2], dtype=np.int64)
        for u in range(size):
            code = code * 7 + slot_faces[:, :, u]
        value = table[code]
        ok &= (value >= 0).all(axis=1)
        at, tw = np.divmod(np.maximum(value, 0), size)
        ok &= (np.sort(at, axis=1) == np.arange(len(pieces))).all(axis=1)
        ok &= tw.sum(axis=1) % size == 0
        forms[kind] = (at, tw)
    ok &= _parities(forms["corner"][0]) == _parities(forms["edge"][0])
    for i in np.flatnonzero(~ok):
        element("".join(map(chr, codes[i])), whats[i])  # raises, naming the fault
        raise AssertionError(f"{whats[i]}: the batch reader and element() disagree")
    return forms


def _parities(at: np.ndarray) -> np.ndarray:
    inversions = np.zeros(len(at), dtype=np.int64)
    for i in range(at.shape[1]):
        inversions += (at[:, i + 1:] < at[:, i:i + 1]).sum(axis=1)
    return inversions % 2


# --- search ---------------------------------------------------------------------

def moves(metric: str = "qtm") -> dict[str, Perm]:
    """The metric's moves by name (``"U"``, ``"U'"``, and ``"U2"`` in HTM).

    >>> list(moves())
    ['U', "U'", 'R', "R'", 'F', "F'", 'D', "D'", 'L', "L'", 'B', "B'"]
    >>> len(moves("htm")), moves()["U"] == PUZZLE.move_array("U")
    (18, True)
    """
    # one cache entry per metric, however it is passed
    return _moves(metric)


@lru_cache(maxsize=None)
def _moves(metric: str) -> dict[str, Perm]:
    return metric_moves(PUZZLE, metric)


def search_space(metric: str = "qtm") -> DigitSpace:
    """Positions as six digits: the places of edges 0-3, 4-7 and 8-10 (edge 11
    goes where the others are not), the edge flips, the corner twists and the
    corner permutation.  The first five pack into one 62-bit word, the corner
    permutation into a second word.

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> search_space("qtm").sizes  # cached per metric (and on disk)
    [11880, 11880, 1320, 2048, 2187, 40320]
    """
    # one cache entry per metric, however it is passed
    return _search_space(metric)


@lru_cache(maxsize=None)
def _search_space(metric: str) -> DigitSpace:
    named = moves(metric)
    corners = PieceCoordinate.from_moves("corner", CORNERS, named)
    edges = PieceCoordinate.from_moves("edge", EDGES, named)
    edge_digits = piece_digits(edges, [(0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10)])
    corner_perm, corner_twist = piece_digits(corners)
    return load_digit_space(edge_digits + [corner_twist, corner_perm], list(named),
                            {"puzzle": PUZZLE.fingerprint(), "metric": metric}, "cube3")


def digits(elements: Sequence[Perm], metric: str = "qtm") -> np.ndarray:
    """The ``(6, N)`` digits of elements in :func:`search_space`.

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> d = digits([tuple(range(54)), PUZZLE.move_array("U")])
    >>> d.shape, d[:, 1].tolist()  # U moves edges 0-3 and the corners, flips and twists nothing
    ((6, 2), [1989, 4360, 968, 0, 0, 10200])
    """
    return search_space(metric).of_elements(elements)


def _cache_key(metric: str) -> dict:
    space = search_space(metric)
    return {"puzzle": PUZZLE.fingerprint(), "metric": metric,
            "digits": [f.name for f in space.factors], "sizes": space.sizes}


_BALLS: dict[tuple[str, int], Ball] = {}


def ball(radius: int, metric: str = "qtm", progress=None) -> Ball:
    """Every position within ``radius`` moves of solved (cached on disk).

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> b = ball(2)
    >>> b.radius, b.distribution()
    (2, [1, 12, 114])
    """
    if (metric, radius) not in _BALLS:
        goal = digits([tuple(range(54))], metric)
        _BALLS[metric, radius] = load_ball(search_space(metric), goal, radius,
                                           _cache_key(metric), f"cube3-{metric}", progress)
    return _BALLS[metric, radius]


def table(metric: str = "qtm", progress=None) -> Ball:
    """The positions within a few moves (``TABLE_RADIUS``): a full table of the
    3x3x3 is out of reach, so ``permgroup table cube3`` prints the start of the
    distribution (1, 12, 114, 1068, 10011, 93840 in quarter turns).

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> table().distribution()
    [1, 12, 114, 1068, 10011, 93840]
    """
    return ball(TABLE_RADIUS[metric], metric, progress)


def pruning(metric: str = "qtm"):
    """Which move may follow which (:class:`permgroup.search.dfs.MovePruning`).

    >>> pruning().count_sequences(3)  # canonical quarter-turn sequences of length 0..3
    [1, 12, 114, 1068]
    """
    # one cache entry per metric, however it is passed
    return _pruning(metric)


@lru_cache(maxsize=None)
def _pruning(metric: str):
    from permgroup.search.dfs import MovePruning

    return MovePruning.of(list(moves(metric).values()))


def solve_elements(elements: Sequence[Perm], max_depth: int, metric: str = "qtm",
                   progress=None, time_limit: float | None = TIME_LIMIT, *,
                   cancel: threading.Event | None = None) -> list[list[str] | None]:
    """An optimal word for each element, ``None`` where more than ``max_depth``
    moves are needed; :class:`~permgroup.errors.Stopped` when one takes more
    than ``time_limit`` seconds (its ``answered`` holds the words before it)
    or ``cancel`` is set (a request's :class:`~permgroup.budget.Budget`'s).

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> cubes = [apply_moves(SOLVED, "R U"), SOLVED, apply_moves(SOLVED, "R U F D")]
    >>> solve_elements([element(c) for c in cubes], max_depth=3)
    [["U'", "R'"], [], None]
    """
    return solve_digits(digits(elements, metric), max_depth, metric, progress, time_limit,
                        cancel=cancel)


def corner_database(metric: str = "qtm", progress=None, build: bool = True):
    """The corners' pattern database (8!·3^7 = 88,179,840 entries, 4 bits
    each; built once in about 20 s and cached); with ``build=False``, ``None``
    when it is neither in memory nor in the cache.

    The corner digits it covers (the database itself is too big to build here):

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> sizes = {f.name: f.size for f in search_space("qtm").factors if f.name.startswith("corner")}
    >>> sizes, sizes["corner twist"] * sizes["corner permutation"]
    ({'corner twist': 2187, 'corner permutation': 40320}, 88179840)
    """
    from permgroup.search.pattern import load_pattern_database

    if metric not in _CORNER_DATABASES:
        space = search_space(metric)
        which = [i for i, f in enumerate(space.factors) if f.name.startswith("corner")]
        goal = digits([tuple(range(54))], metric)
        found = load_pattern_database(space, which, goal, _cache_key(metric),
                                      f"cube3-{metric}", progress, build=build)
        if found is None:
            return None
        _CORNER_DATABASES[metric] = found
    return _CORNER_DATABASES[metric]


_CORNER_DATABASES: dict = {}
#: seconds the corners' database may take to build on two busy cores: a shorter
#: budget does not start it
CORNER_BUILD_SECONDS = 30.0
#: deeper than this many moves past the ball, the search prunes with the corners
PATTERN_FROM = 5
#: seconds the ball of radius ``DEEP_RADIUS`` may take to build on two busy cores
#: (9.2 M positions in quarter turns): a case's shorter limit builds one a move
#: smaller (a second) when it is not cached
DEEP_BALL_SECONDS = 10.0


def solve_digits(states: np.ndarray, max_depth: int, metric: str = "qtm",
                 progress=None, time_limit: float | None = TIME_LIMIT, *,
                 cancel: threading.Event | None = None) -> list[list[str] | None]:
    """:func:`solve_elements` for positions given as columns of digits, each
    within its own ``time_limit`` (ZOJ 2477's limit is per cube).

    Positions inside the ball of radius ``min(max_depth, DEEP_RADIUS)`` are
    answered by walking it (all together); the others by IDA* towards that
    ball, pruned by the corner pattern database when the search goes more than
    ``PATTERN_FROM`` moves past the ball.  Neither is built when it is not
    cached and ``time_limit`` is shorter than its build
    (:data:`DEEP_BALL_SECONDS`, :data:`CORNER_BUILD_SECONDS`): a ball a move
    smaller, no database (the words as optimal, the search slower), so that a
    short limit is not spent ten times over on setup (ZOJ's three cases at
    0.5 s took 13.5 s building both).

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> solve_digits(digits([element(apply_moves(SOLVED, "F"))]), max_depth=2)
    [["F'"]]
    """
    from permgroup.search.exact import ida_star

    space = search_space(metric)
    names = space.move_names
    radius = min(max_depth, DEEP_RADIUS[metric])
    if time_limit is not None and time_limit < DEEP_BALL_SECONDS and \
            (metric, radius) not in _BALLS and radius > 1:
        cached = load_ball(space, digits([tuple(range(54))], metric), radius,
                           _cache_key(metric), f"cube3-{metric}", build=False)
        if cached is None:
            radius -= 1
        else:
            _BALLS[metric, radius] = cached
    near = ball(radius, metric, progress)
    words = near.walk(space, states)
    bounds = []
    if max_depth - radius > PATTERN_FROM and any(w is None for w in words):
        database = corner_database(metric, progress, build=time_limit is None
                                   or time_limit >= CORNER_BUILD_SECONDS)
        bounds = [] if database is None else [database]
    out: list[list[str] | None] = []
    for i, word in enumerate(words):
        if word is None and max_depth > radius:
            from permgroup.budget import Budget

            try:
                word = ida_star(space, states[:, i:i + 1], near, max_depth, bounds=bounds,
                                pruning=pruning(metric),
                                budget=Budget.of(time_limit, cancel=cancel))
            except Stopped as exc:
                if exc.reason == "the time limit":
                    exc.reason = f"the time limit of {time_limit:g} s"
                exc.answered = out
                raise
        out.append(None if word is None else [names[m] for m in word])
    return out


def solve(state: str, max_length: int | None = None, time_limit: float | None = None, *,
          optimal: bool = False, max_depth: int | None = None,
          metric: str | None = None) -> list[str] | None:
    """A list of face turns (``U``, ``U2``, ``U'``) solving any legal cube,
    found by the two-phase search (:func:`two_phase`) and checked by applying
    it: the shortest seen within ``time_limit`` seconds (1 unless given; the
    first answer is always given), stopping early at one of at most
    ``max_length`` turns.  About 19.5 turns on average with the default
    second; rarely more than 21.

    ``optimal=True`` (or giving ``max_depth`` or ``metric``) runs the exact
    search instead: an optimal list of turns in ``metric`` (``"qtm"`` unless
    given), or ``None`` if it needs more than ``max_depth`` (14 unless given).
    Its time grows about ninefold per quarter turn: 14 takes a fraction of a
    second, 16 a few seconds, 18 minutes; past ``time_limit`` seconds (60
    unless given) it stops with :class:`~permgroup.errors.Stopped`, which
    says how many turns were ruled out.

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> scrambled = apply_moves(SOLVED, "R U2 F' L D B2")
    >>> word = solve(scrambled, max_length=6)
    >>> len(word), apply_moves(scrambled, word) == SOLVED
    (6, True)
    >>> solve(apply_moves(SOLVED, "F2"), max_depth=3)
    ['F', 'F']
    >>> recoloured = "".join(c * 9 for c in "WRGYOB")  # any six colours
    >>> solve(apply_moves(recoloured, "R'"), max_depth=2)
    ['R']
    """
    from permgroup.budget import parse_time_limit
    from permgroup.elements import Element
    from permgroup.solution import solve as solve_path

    g = element(state)
    if max_length is not None:
        require_whole(max_length, "max_length")
    if max_depth is not None:
        require_whole(max_depth, "max_depth")
    exact = optimal or max_depth is not None or metric is not None
    if time_limit is None:
        time_limit = TIME_LIMIT if exact else TWO_PHASE_SECONDS
    time_limit = parse_time_limit(time_limit)
    if exact:
        return solve_elements([g], 14 if max_depth is None else max_depth, metric or "qtm",
                              time_limit=time_limit)[0]
    # the one solve path, its chain alone: this module's two-phase (solve_chain)
    return solve_path(definition(), Element(PUZZLE, g), metric="htm",
                      time_limit=time_limit, methods=("chain",), max_length=max_length).word


#: the deepest exact search the solve path asks for without a bound (God's
#: numbers: 26 quarter turns, 20 face turns)
GODS_NUMBER = {"qtm": 26, "htm": 20}


def solve_exact(position: Perm, metric: str, max_depth: int | None, budget) -> list[str] | None:
    """The solve path's exact search on this cube (:func:`permgroup.solve`): an
    optimal word solving the position made by the element ``position``, by
    :func:`solve_elements`, within ``budget``; ``None`` when it needs more
    than ``max_depth`` moves; :class:`~permgroup.errors.Stopped` when time runs out."""
    if metric not in GODS_NUMBER:
        return None
    depth = GODS_NUMBER[metric] if max_depth is None else min(max_depth, GODS_NUMBER[metric])
    if depth - DEEP_RADIUS[metric] > PATTERN_FROM and budget.left() < CORNER_BUILD_SECONDS \
            and corner_database(metric, build=False) is None:
        # a level of its build is not cut short: started in a short budget, it
        # would take the time of the methods after this one
        raise Stopped(f"the time left is too short to build the corners' database (up to "
                      f"{CORNER_BUILD_SECONDS:g} s, once)", 0)
    # the ball and the corners' database are built (and cached) within the budget
    return solve_elements([position], depth, metric, progress=budget.watch(),
                          time_limit=budget.left(), cancel=budget.cancel)[0]


def solve_chain(position: Perm, metric: str, max_length: int | None, budget
                ) -> list[str] | None:
    """The solve path's chain on this cube (:func:`permgroup.solve`): the
    two-phase search (:func:`two_phase`) for the position made by the element
    ``position``, the shortest word within ``budget`` (stopping at one of
    ``max_length`` turns); in quarter turns, its half turns are two moves.
    Its first answer is always given, even past the budget: it comes within a
    moment (the search ends by itself at the first answer)."""
    if metric not in GODS_NUMBER:
        return None
    chain = two_phase(budget=budget)
    word = chain.solve(position, max_length, budget)
    if word is None or metric == "htm":
        return word
    return [half for m in word for half in ([m[0], m[0]] if m.endswith("2") else [m])]


#: the subgroup the two-phase search reaches first: the corner and edge
#: orientations and the middle layer's edges are solved in it
PHASE_TWO = ("U", "U2", "U'", "D", "D2", "D'", "R2", "L2", "F2", "B2")


#: the radius of the ball of phase-two positions (5.3 million within 8 moves)
PHASE_TWO_BALL = 8
#: seconds the two-phase tables may take to build on two busy cores (23 s on a
#: quiet machine, 53 to 128 s measured under a load of 3 to 4): a shorter
#: budget builds the quick chain instead (about 10 s under that load)
TWO_PHASE_BUILD_SECONDS = 150.0
#: seconds kept for the quick chain when the full tables' build is stopped by
#: the budget (on a machine slower than the estimate)
QUICK_BUILD_SECONDS = 15.0


def two_phase(progress=None, budget=None):
    """The chain ``G ⊃ <U, D, R2, L2, F2, B2> ⊃ 1`` in face turns
    (:class:`permgroup.search.subgroup_chain.SubgroupChain`), tables from the
    cache, else built (once per process, cached for the next).

    Its phase 1 is bounded by an exact table over symmetry classes and its
    phase 2 ends in a ball of radius :data:`PHASE_TWO_BALL`.  Those take
    :data:`TWO_PHASE_BUILD_SECONDS` at most to build; with a ``budget`` (a
    :class:`~permgroup.budget.Budget`) of less time left, what is not cached
    is replaced by tables that take seconds (pattern databases over pairs of
    phase-1 digits, a ball one radius less: words about half a move longer
    at the same time), and the full chain is built by the first call that
    has the time.  A full build that has not ended when
    :data:`QUICK_BUILD_SECONDS` of the budget are left is stopped (the tables
    it finished are kept in the cache) and the quick chain is built instead.

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> from permgroup.budget import Budget
    >>> [stage.space.sizes for stage in two_phase(budget=Budget.of(5)).stages]
    [[2187, 2048, 495], [40320, 40320, 24]]
    """
    from permgroup.search.subgroup_chain import SubgroupChain

    quick = budget is not None and budget.left() < TWO_PHASE_BUILD_SECONDS
    if not _TWO_PHASE or not (quick or _full(_TWO_PHASE[0])):  # once per process and kind
        def chain(quick: bool, progress):
            return SubgroupChain("cube3", moves("htm"), PUZZLE.pieces, [PHASE_TWO],
                                 {"puzzle": PUZZLE.fingerprint()}, progress,
                                 symmetries=diagonal_turns(), last_stage_cap=10,
                                 first_answer_cap=10, last_stage_ball=PHASE_TWO_BALL,
                                 table_symmetries=[GEOMETRY.rotation("U"),
                                                   GEOMETRY.rotation("F"),
                                                   GEOMETRY.reflection()],
                                 quick=quick)

        if quick or budget is None:
            _TWO_PHASE[:] = [chain(quick, progress)]
        else:
            full = budget.share(1.0, at_most=budget.left() - QUICK_BUILD_SECONDS).watch()

            def watched(*level) -> None:
                if progress is not None:
                    progress(*level)
                full(*level[-2:])

            try:
                _TWO_PHASE[:] = [chain(False, watched)]
            except Stopped:
                if budget.cancel.is_set():
                    raise
                _TWO_PHASE[:] = [chain(True, progress)]
    return _TWO_PHASE[0]


def _full(chain) -> bool:
    """Whether the chain has the tables that take long to build (not a quick one)."""
    return chain.stages[0].exact is not None and chain.stages[-1].ball.radius == PHASE_TWO_BALL


_TWO_PHASE: list = []


def diagonal_turns() -> list[Perm]:
    """The whole-cube turns about the UFR-DBL diagonal (U to R to F, and back):
    the two-phase search also tries the cube so turned, where its middle layer
    is another one.

    >>> [[FACES[CENTRES.index(r[c])] for c in CENTRES[:3]] for r in diagonal_turns()]
    [['R', 'F', 'U'], ['F', 'U', 'R']]
    """
    u, r, f = CENTRES[:3]
    turns = {}
    for g in PUZZLE.symmetry_elements():
        if (g[u], g[r], g[f]) in ((r, f, u), (f, u, r)):
            turns[g[u]] = g
    return [turns[r], turns[f]]


def distance(state: str, max_depth: int = 14, metric: str = "qtm") -> int:
    """The least number of turns solving ``state`` (``-1`` beyond ``max_depth``).

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> scrambled = apply_moves(SOLVED, "R U F")
    >>> distance(scrambled, max_depth=3), distance(scrambled, max_depth=2)
    (3, -1)
    """
    word = solve(state, max_depth=max_depth, metric=metric)
    return -1 if word is None else len(word)


def random_element(rng) -> Perm:
    """A uniformly random position of the cube (``rng``: a numpy Generator):
    random corner and edge permutations of equal parity, random twists and
    flips with the sums fixed, so every position is equally likely.

    >>> import numpy as np
    >>> g = random_element(np.random.default_rng(1))
    >>> element(facelets(g)) == g
    True
    """
    while True:
        c_at, e_at = rng.permutation(8).tolist(), rng.permutation(12).tolist()
        if parity(c_at) == parity(e_at):
            break
    c_tw = rng.integers(0, 3, 8).tolist()
    c_tw[-1] = -sum(c_tw[:-1]) % 3
    e_tw = rng.integers(0, 2, 12).tolist()
    e_tw[-1] = sum(e_tw[:-1]) % 2
    image = list(range(54))
    for pieces, at, tw in ((CORNERS, c_at, c_tw), (EDGES, e_at, e_tw)):
        for j, slot in enumerate(pieces):
            home = pieces[at[j]]
            for u in range(len(slot)):
                image[home[u]] = slot[(u + tw[j]) % len(slot)]
    return tuple(image)


@lru_cache(maxsize=1)
def definition() -> Definition:
    """The one model of the 3x3x3 (what the PUZZLE name ``cube3`` resolves
    to): its corners and edges, this module's sticker view, and what it lends
    the solve path: as its own table the ball :func:`table`, its exact search
    (:func:`solve_exact`) and its two-phase chain (:func:`solve_chain`).

    >>> [(o.name, o.size) for o in definition().orbits], sorted(definition().hooks)
    ([('corner', 8), ('edge', 12)], ['solve_chain', 'solve_exact', 'table'])
    """
    return definition_of(PUZZLE, hooks={"table": table, "solve_exact": solve_exact,
                                        "solve_chain": solve_chain})
