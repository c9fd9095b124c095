"""The 2x2x2 mini cube.

States are 24-character facelet strings in URFDLB face order, each face read
row by row as seen from outside (:mod:`puzzles.cube_geometry`), in any six colour
letters.  Whole-cube orientation does not matter: a state is normalized so that
its down-back-left corner is at home, and those normalized states are exactly
the fixed-corner subgroup (order 3,674,160).

The colour scheme is read off the cube itself: opposite colours are the pairs
that never share a corner, and the corner at down-back-left fixes which colour
goes on which face.

>>> solved = "UUUURRRRFFFFDDDDLLLLBBBB"
>>> distance(solved, apply_moves(solved, "R U"))
2
>>> solve(solved, apply_moves(solved, "F U'"))
['F', "U'"]
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from permgroup.errors import InputError, UnreachableError, require_string, require_whole
from permgroup.metric import Metric
from permgroup.perm import Perm, act
from permgroup.puzzle import Puzzle
from permgroup.tables.table import CayleyTable, load_table
from permgroup.formats.definition import Definition
from permgroup.formats.stickers import definition_of
from puzzles.cube_geometry import FACES, CubeGeometry

GEOMETRY = CubeGeometry(2)
#: the D sticker of the down-back-left corner: normalization keeps it at home
ANCHOR = GEOMETRY.index("D", 1, 0)
FACELETS = "a facelet string of 24 letters (URFDLB order)"
CORNERS = tuple(GEOMETRY.cubies())

PUZZLE = Puzzle(
    name="minicube",
    degree=24,
    generators={face: GEOMETRY.face_turn(face) for face in FACES},
    solved=tuple(face for face in FACES for _ in range(4)),
    symmetries={f"rotate-{face}": GEOMETRY.rotation(face) for face in "URF"},
    pieces={"corner": CORNERS},
    renderer="puzzles.cube_display:cube_drawing(2)",
)


_TABLES: dict[tuple[str, str], CayleyTable] = {}


def table(metric: str = "qtm", progress=None, table_format: str = "bytes") -> CayleyTable:
    """The distance table (loaded from the cache, or built and cached);
    ``table_format="packed"`` gives the 2-bit form (a quarter of the size, a
    lookup walks down), ``"nibbles"`` the 4-bit one (half the size, looked up
    like the one-byte table): :func:`permgroup.tables.table.load_table`.

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> t = table()  # about half a second to build, then cached
    >>> t.diameter, t.distribution()[:5]
    (14, [1, 6, 27, 120, 534])
    >>> table(table_format="packed").distribution() == t.distribution()
    True
    >>> table(table_format="nibbles").distribution() == t.distribution()
    True
    """
    if (metric, table_format) not in _TABLES:
        bits = {"bytes": 8, "nibbles": 4, "packed": 2}.get(table_format)
        if bits is None:
            raise ValueError(f"unknown table format {table_format!r}: "
                             "'bytes', 'nibbles' or 'packed'")
        _TABLES[metric, table_format] = load_table(PUZZLE, metric, anchor=ANCHOR,
                                                   progress=progress, bits=bits)
    return _TABLES[metric, table_format]


# --- colourings -------------------------------------------------------------

class Scheme:
    """Which colour is on which face of the solved cube, up to orientation.

    Knows, for every corner colour triple read clockwise, the home corner and
    its twist, so that a colouring turns into a group element quickly.
    Build one with :func:`scheme` (cached) or :meth:`infer`.

    >>> s = Scheme({"U": "W", "R": "R", "F": "G", "D": "Y", "L": "O", "B": "B"})
    >>> s.solved, len(s.corner_of)  # 8 corners x 3 twists
    ('WWWWRRRRGGGGYYYYOOOOBBBB', 24)
    >>> s.element(apply_moves(s.solved, "U")) == PUZZLE.move_array("U")
    True
    """

    def __init__(self, face_colours: dict[str, str]):
        self.face_colours = dict(face_colours)
        self.solved = "".join(self.face_colours[f] * 4 for f in FACES)
        self.corner_of: dict[tuple[str, ...], tuple[int, int]] = {}
        for k, corner in enumerate(CORNERS):
            colours = tuple(self.solved[i] for i in corner)
            for t in range(3):
                # the same corner seen from a slot whose tuple starts t places later
                rotated = colours[-t:] + colours[:-t] if t else colours
                self.corner_of[rotated] = (k, t)

    @staticmethod
    def infer(state: str, what: str = "cube") -> Scheme:
        """The scheme of ``state``, with its down-back-left corner at home.

        Only the three opposites of that corner's colours are needed here;
        :meth:`element` then checks every corner against the scheme (which also
        settles the colour counts, so they are counted only to explain a fault).
        """
        require_string(state, what, FACELETS)
        if len(state) != 24:
            check_colouring(state, what)
        triples = [(state[a], state[b], state[c]) for a, b, c in CORNERS]
        faces = {GEOMETRY.face_of(i): state[i] for i in ANCHOR_CORNER}
        colours = set(state)
        for face, across in (("D", "U"), ("B", "F"), ("L", "R")):
            colour = faces[face]
            partners = set()
            for t in triples:
                if colour in t:
                    partners.update(t)
            rest = colours - partners
            if len(rest) != 1:
                check_colouring(state, what)
                raise InputError(_corner_fault(state, what) or
                                 f"{what}: colour {colour} has no single opposite colour "
                                 "(opposite colours never share a corner)")
            faces[across] = rest.pop()
        return scheme(tuple(faces[f] for f in FACES))

    def element(self, state: str, what: str = "cube") -> Perm:
        """The group element whose colouring (from this scheme's solved cube) is
        ``state``, before normalization."""
        image = [0] * 24
        found_pieces = set()
        corner_of = self.corner_of
        for j, (a, b, c) in enumerate(CORNERS):
            found = corner_of.get((state[a], state[b], state[c]))
            if found is None:
                check_colouring(state, what)
                raise InputError(self._corner_fault(state, j, what))
            k, t = found
            found_pieces.add(k)
            for home, position in PLACEMENTS[j][t][k]:
                image[home] = position
        if len(found_pieces) != 8:
            check_colouring(state, what)
            raise InputError(f"{what}: some corner appears twice "
                             f"(only {len(found_pieces)} different corners)")
        return tuple(image)


    def _corner_fault(self, state: str, j: int, what: str) -> str:
        colours = _corner_colours(state, j)
        start = f"{what}: corner {_corner_name(j)} has colours {colours}"
        if len(set(colours)) < 3:
            return f"{start}: it repeats a colour"
        faces = self.face_colours
        for x, y in ((faces["U"], faces["D"]), (faces["F"], faces["B"]),
                     (faces["R"], faces["L"])):
            if x in colours and y in colours:
                return f"{start}: {x} and {y} are opposite colours"
        if any(set(colours) == set(key) for key in self.corner_of):
            return f"{start} in mirror-image order, which no corner can show"
        return f"{start}, which no corner of this colour scheme has"


@lru_cache(maxsize=64)
def scheme(face_colours: tuple[str, ...]) -> Scheme:
    """The scheme with these colours on the URFDLB faces (cached).

    >>> scheme(tuple("WRGYOB")) is scheme(tuple("WRGYOB"))
    True
    >>> scheme(tuple("WRGYOB")).solved
    'WWWWRRRRGGGGYYYYOOOOBBBB'
    """
    return Scheme(dict(zip(FACES, face_colours)))


ANCHOR_CORNER = next(c for c in CORNERS if ANCHOR in c)
#: PLACEMENTS[j][t][k]: where piece k's stickers go when it sits in slot j with twist t
PLACEMENTS = [
    [[tuple((home[u], slot[(u + t) % 3]) for u in range(3)) for home in CORNERS]
     for t in range(3)]
    for slot in CORNERS
]


def _corner_fault(state: str, what: str) -> str | None:
    """A message for the first corner that repeats a colour or joins opposite
    colours (inferred from the other corners), if there is one."""
    triples = [{state[i] for i in corner} for corner in CORNERS]
    for k, colours in enumerate(triples):
        if len(colours) != 3:
            return (f"{what}: corner {_corner_name(k)} repeats a colour "
                    f"({_corner_colours(state, k)})")
    for k, colours in enumerate(triples):
        for x in sorted(colours):
            for y in sorted(colours):
                if x < y and _never_together_elsewhere(triples, k, x, y):
                    return (f"{what}: corner {_corner_name(k)} has colours "
                            f"{_corner_colours(state, k)}: {x} and {y} are opposite colours "
                            "(no other corner holds both)")
    return None


def _never_together_elsewhere(triples: list[set[str]], k: int, x: str, y: str) -> bool:
    return not any(x in t and y in t for i, t in enumerate(triples) if i != k)


def check_colouring(state: str, what: str = "cube") -> None:
    """Raise :class:`InputError` unless ``state`` is 24 stickers, 6 colours x 4.

    >>> check_colouring("UUUURRRRFFFFDDDDLLLLBBBB")  # fine: returns None
    >>> check_colouring("UUUURRRRFFFFDDDDLLLLBBBU", "case 3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    permgroup.errors.InputError: case 3: expected six colours four times each, got Bx3, ..., Ux5
    """
    require_string(state, what, FACELETS)
    if len(state) != 24:
        raise InputError(f"{what}: expected 24 stickers, got {len(state)}")
    counts = {c: state.count(c) for c in set(state)}
    if len(counts) != 6 or any(v != 4 for v in counts.values()):
        shown = ", ".join(f"{c}x{v}" for c, v in sorted(counts.items()))
        raise InputError(f"{what}: expected six colours four times each, got {shown}")


def _corner_name(k: int) -> str:
    return "".join(GEOMETRY.face_of(i) for i in CORNERS[k])


def _corner_colours(state: str, k: int) -> str:
    return "".join(state[i] for i in CORNERS[k])


def element(state: str, scheme: Scheme | None = None, what: str = "cube") -> Perm:
    """The normalized group element of a facelet string (scheme inferred if not given).

    Raises :class:`UnreachableError` for a colouring no sequence of turns
    reaches (a twisted corner).

    >>> solved = "UUUURRRRFFFFDDDDLLLLBBBB"
    >>> element(solved) == tuple(range(24))
    True
    >>> element(apply_moves(solved, "U")) == PUZZLE.move_array("U")
    True
    >>> element("BUUURRRRFFFFDDDDULLLBLBB")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    permgroup.errors.UnreachableError: cube: unreachable position: ... — a twisted corner
    """
    scheme = scheme or Scheme.infer(state, what)
    return _normalized(scheme.element(state, what), what)


def _normalized(raw: Perm, what: str) -> Perm:
    model = table_model()
    g = model.normalize(raw)
    for kind, defect in model.ranking.twist_defects(g).items():
        if defect:
            raise UnreachableError(
                f"{what}: unreachable position: the {kind} twists add up to {defect} "
                "(mod 3), not 0 — a twisted corner"
            )
    return g


@lru_cache(maxsize=None)
def table_model():
    """The ranking and normalization of the mini cube (no table needed).

    >>> model = table_model()
    >>> model.ranking.size, model.move_names  # D, L, B are these up to a rotation
    (3674160, ['U', "U'", 'R', "R'", 'F', "F'"])
    """
    from permgroup.spaces.element import ElementSpace

    return ElementSpace(PUZZLE, "qtm", anchor=ANCHOR)


def pair_elements(a: str, b: str) -> tuple[Perm, Perm]:
    """Normalized elements of two cubes, both read in the colour scheme of the first.

    >>> solved = "UUUURRRRFFFFDDDDLLLLBBBB"
    >>> p, q = pair_elements(solved, apply_moves(solved, "R"))
    >>> p == tuple(range(24)), q == PUZZLE.move_array("R")
    (True, True)
    >>> pair_elements(solved, "WWWWRRRRGGGGYYYYOOOOBBBB")
    Traceback (most recent call last):
        ...
    permgroup.errors.InputError: the two cubes use different colours
    """
    scheme = Scheme.infer(a, "first cube")
    require_string(b, "second cube", FACELETS)
    if len(b) != 24:
        check_colouring(b, "second cube")
    if set(a) != set(b):
        check_colouring(b, "second cube")
        raise InputError("the two cubes use different colours")
    try:
        raw_b = scheme.element(b, "second cube")
    except InputError:
        check_colouring(b, "second cube")
        fault = _corner_fault(b, "second cube")
        if fault:
            raise InputError(fault) from None
        raise InputError("the two cubes have different colour schemes "
                         "(one is the mirror image of the other)") from None
    return _normalized(scheme.element(a, "first cube"), "first cube"), _normalized(
        raw_b, "second cube")


def distance(a: str, b: str, metric: Metric = "qtm") -> int:
    """Least number of turns taking cube ``a`` to cube ``b``, up to orientation.

    >>> distance("UUUURRRRFFFFDDDDLLLLBBBB", "UUUURRRRFFFFDDDDLLLLBBBB")
    0
    """
    from permgroup.elements import Element
    from permgroup.solution import distance as distance_path

    p, q = pair_elements(a, b)
    return distance_path(definition(), Element(PUZZLE, p), Element(PUZZLE, q),
                         metric=metric)


def solve(a: str, b: str, metric: Metric = "qtm") -> list[str]:
    """An optimal list of turns (``"R"``, ``"U'"``, ``"F2"``) taking ``a`` to ``b``.

    Applied to ``a`` with :func:`apply_moves`, it gives ``b`` up to orientation.

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> solved = "UUUURRRRFFFFDDDDLLLLBBBB"
    >>> solve(solved, apply_moves(solved, "R U R'"))
    ['R', 'U', "R'"]
    """
    from permgroup.elements import Element
    from permgroup.solution import solve as solve_path

    p, q = pair_elements(a, b)
    return solve_path(definition(), Element(PUZZLE, p), Element(PUZZLE, q),
                      metric=metric, optimal=True, time_limit=None).word


def apply_moves(state: str, moves: str | Sequence[str]) -> str:
    """The facelet string after turning ``moves`` (``"R U' F2"`` or a list).

    >>> apply_moves("UUUURRRRFFFFDDDDLLLLBBBB", "U")
    'UUUUBBRRRRFFDDDDFFLLLLBB'
    """
    from permgroup.words import apply_word

    require_string(state, "cube", FACELETS)
    return "".join(apply_word(PUZZLE, state, moves))


def same_state(a: str, b: str) -> bool:
    """Whether two facelet strings are the same cube up to orientation.

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> from permgroup.perm import act
    >>> solved = "UUUURRRRFFFFDDDDLLLLBBBB"
    >>> turned = "".join(act(solved, GEOMETRY.rotation("U")))  # the whole cube turned
    >>> turned, same_state(solved, turned), same_state(solved, apply_moves(solved, "R"))
    ('UUUUBBBBRRRRDDDDFFFFLLLL', True, False)
    """
    return distance(a, b) == 0


def scramble(rng, length: int = 40, solved: str = "UUUURRRRFFFFDDDDLLLLBBBB") -> str:
    """A random cube: ``length`` random quarter turns, then a random whole-cube
    rotation, from ``solved`` (``rng`` is a ``random.Random``, or a seed).

    >>> import random
    >>> len(scramble(random.Random(1)))
    24
    """
    import random

    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    turns = [rng.choice(FACES) + rng.choice(("", "'"))
             for _ in range(require_whole(length, "length"))]
    rotation = rng.choice(PUZZLE.symmetry_elements())
    return "".join(act(apply_moves(solved, turns), rotation))


@lru_cache(maxsize=1)
def definition() -> Definition:
    """The one model of the mini cube (what the PUZZLE name ``minicube``
    resolves to): its eight corners, this module's sticker view and its own
    table over the classes up to rotation.

    >>> definition().puzzle is PUZZLE, [(o.size, o.orientations) for o in definition().orbits]
    (True, [(8, 3)])
    """
    return definition_of(PUZZLE, hooks={"table": table})
