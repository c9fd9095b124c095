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

from permgroup.errors import InputError, UnreachableError
from permgroup.metric import Metric
from permgroup.perm import Perm, act, compose_all
from permgroup.puzzle import Puzzle
from permgroup.table import CayleyTable, load_table
from puzzles.cube_geometry import FACES, CubeGeometry

GEOMETRY = CubeGeometry(2)
#: the D sticker of the down-back-left corner: normalization keeps it at home
ANCHOR = GEOMETRY.index("D", 1, 0)
CORNERS = tuple(GEOMETRY.cubies())

PUZZLE = Puzzle(
    name="minicube",
    degree=24,
    generators={face: GEOMETRY.face_turn(face) for face in FACES},
    solved=tuple(face for face in FACES for _ in range(4)),
    symmetries={f"rotate-{face}": GEOMETRY.rotation(face) for face in "URF"},
    pieces={"corner": CORNERS},
)


_TABLES: dict[str, CayleyTable] = {}


def table(metric: str = "qtm", progress=None) -> CayleyTable:
    """The distance table (loaded from the cache, or built and cached)."""
    if metric not in _TABLES:
        _TABLES[metric] = load_table(PUZZLE, metric, anchor=ANCHOR, progress=progress)
    return _TABLES[metric]


# --- colourings -------------------------------------------------------------

class Scheme:
    """Which colour is on which face of the solved cube, up to orientation.

    Knows, for every corner colour triple read clockwise, the home corner and
    its twist, so that a colouring turns into a group element quickly.
    """

    def __init__(self, face_colours: dict[str, str]):
        self.face_colours = face_colours
        self.solved = "".join(face_colours[f] * 4 for f in FACES)
        self.corner_of: dict[tuple[str, ...], tuple[int, int]] = {}
        for k, corner in enumerate(CORNERS):
            colours = tuple(self.solved[i] for i in corner)
            for t in range(3):
                # seen from a slot starting t places later
                rotated = colours[-t:] + colours[:-t] if t else colours
                self.corner_of[rotated] = (k, t)

    @classmethod
    def infer(cls, state: str, what: str = "cube") -> Scheme:
        """The scheme of ``state`` (raises :class:`InputError` if there is none)."""
        check_colouring(state, what)
        in_corner = [{state[i] for i in corner} for corner in CORNERS]
        for k, colours in enumerate(in_corner):
            if len(colours) != 3:
                raise InputError(f"{what}: corner {_corner_name(k)} repeats a colour "
                                 f"({_corner_colours(state, k)})")
        opposite = {}
        for c in set(state):
            partners = {c}.union(*(s for s in in_corner if c in s))
            rest = set(state) - partners
            if len(rest) != 1:
                raise InputError(f"{what}: colour {c} has no single opposite colour "
                                 "(opposite colours never share a corner)")
            opposite[c] = rest.pop()
        anchor_corner = next(c for c in CORNERS if ANCHOR in c)
        faces = {GEOMETRY.face_of(i): state[i] for i in anchor_corner}
        faces["U"], faces["F"], faces["R"] = (opposite[faces["D"]], opposite[faces["B"]],
                                              opposite[faces["L"]])
        return cls(faces)

    def element(self, state: str, what: str = "cube") -> Perm:
        """The group element whose colouring (from this scheme's solved cube) is
        ``state``, before normalization."""
        image = [0] * 24
        used = [False] * 8
        for j, slot in enumerate(CORNERS):
            colours = (state[slot[0]], state[slot[1]], state[slot[2]])
            found = self.corner_of.get(colours)
            if found is None:
                raise InputError(f"{what}: corner {_corner_name(j)} has colours "
                                 f"{''.join(colours)}, which no corner of this colour "
                                 "scheme has")
            k, t = found
            if used[k]:
                raise InputError(f"{what}: corner {''.join(sorted(colours))} appears twice")
            used[k] = True
            home = CORNERS[k]
            for u in range(3):
                image[home[u]] = slot[(u + t) % 3]
        return tuple(image)


def check_colouring(state: str, what: str = "cube") -> None:
    """Raise :class:`InputError` unless ``state`` is 24 stickers, 6 colours x 4."""
    if len(state) != 24:
        raise InputError(f"{what}: expected 24 stickers, got {len(state)}")
    counts: dict[str, int] = {}
    for c in state:
        counts[c] = counts.get(c, 0) + 1
    if len(counts) != 6 or any(v != 4 for v in counts.values()):
        shown = ", ".join(f"{c}x{v}" for c, v in sorted(counts.items()))
        raise InputError(f"{what}: expected six colours four times each, got {shown}")


def _corner_name(k: int) -> str:
    return "".join(GEOMETRY.face_of(i) for i in CORNERS[k])


def _corner_colours(state: str, k: int) -> str:
    return "".join(state[i] for i in CORNERS[k])


def element(state: str, scheme: Scheme | None = None, what: str = "cube") -> Perm:
    """The normalized group element of a facelet string.

    Raises :class:`UnreachableError` for a colouring no sequence of turns
    reaches (a twisted corner).
    """
    scheme = scheme or Scheme.infer(state, what)
    model = table_model()
    g = model.normalize(scheme.element(state, what))
    for kind, defect in model.ranking.twist_defects(g).items():
        if defect:
            raise UnreachableError(
                f"{what}: unreachable position: the {kind} twists add up to {defect} "
                "(mod 3), not 0 — a twisted corner"
            )
    return g


@lru_cache(maxsize=None)
def table_model():
    from permgroup.table import CayleyModel

    return CayleyModel.of(PUZZLE, "qtm", anchor=ANCHOR)


def pair_elements(a: str, b: str) -> tuple[Perm, Perm]:
    """Normalized elements of two cubes, both read in the colour scheme of the first."""
    scheme = Scheme.infer(a, "first cube")
    check_colouring(b, "second cube")
    if set(a) != set(b):
        raise InputError("the two cubes use different colours")
    try:
        scheme.element(b, "second cube")
    except InputError:
        Scheme.infer(b, "second cube")  # names the fault if b is malformed on its own
        raise InputError("the two cubes have different colour schemes "
                         "(one is the mirror image of the other)") from None
    return element(a, scheme, "first cube"), element(b, scheme, "second cube")


def distance(a: str, b: str, metric: Metric = "qtm") -> int:
    """Least number of turns taking cube ``a`` to cube ``b``, up to orientation.

    >>> distance("UUUURRRRFFFFDDDDLLLLBBBB", "UUUURRRRFFFFDDDDLLLLBBBB")
    0
    """
    p, q = pair_elements(a, b)
    return table(metric).distance(p, q)


def solve(a: str, b: str, metric: Metric = "qtm") -> list[str]:
    """An optimal list of turns (``"R"``, ``"U'"``, ``"F2"``) taking ``a`` to ``b``.

    Applied to ``a`` with :func:`apply_moves`, it gives ``b`` up to orientation.
    """
    p, q = pair_elements(a, b)
    return table(metric).solve(p, q)


def apply_moves(state: str, moves: str | Sequence[str]) -> str:
    """The facelet string after turning ``moves`` (``"R U' F2"`` or a list).

    >>> apply_moves("UUUURRRRFFFFDDDDLLLLBBBB", "U")
    'UUUUBBRRRRFFDDDDFFLLLLBB'
    """
    names = moves.split() if isinstance(moves, str) else list(moves)
    try:
        perm = compose_all([PUZZLE.move_array(m) for m in names], 24)
    except KeyError as exc:
        raise InputError(str(exc.args[0])) from None
    return "".join(act(state, perm))


def same_state(a: str, b: str) -> bool:
    """Whether two facelet strings are the same cube up to orientation."""
    return distance(a, b) == 0
