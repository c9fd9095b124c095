"""Pictures of states: one shape per position, filled with the colour it shows.

A :class:`Drawing` places every position of a puzzle in the plane (a polygon,
or a round token) and says what fill each position has when the puzzle is
solved.  A state is drawn by giving each position the fill of its colour's
home: the colour a position shows is a label of the solved colouring, and a
label found only on positions of one fill is drawn in that fill (a cube's
``"U"`` in the U face's white, a definition file's ``"corner3.1"`` in the fill
of the face where that facelet sits when solved).  Labels the solved colouring
does not have, or whose home positions have different fills (identical pieces
spread over faces), take palette colours, one per label.

Where a drawing comes from: :attr:`permgroup.puzzle.Puzzle.renderer` names a
function returning the puzzle's :class:`Drawing` (``"module:function"``, or
``"module:function(arguments)"`` with Python literals); it is built once per
process.  A puzzle without one whose moves show a shape a plugin of the
catalog knows (:func:`permgroup.catalog.renderer_for`: a library solid's, a
Santa type's) takes that shape's; any
other is drawn as strips of numbered squares, one row of pieces per kind,
wrapped to a width (:func:`strips`).

>>> from permgroup.puzzle import Puzzle
>>> d = Drawing(shapes=(((0, 0), (10, 0), (10, 10)), Circle(20, 5, 5)), home=("#ffffff", "#c41e3a"),
...             width=30, height=10)
>>> svg = drawing_svg(d, solved=("a", "b"), colours=("b", "a"))
>>> svg.count("data-position="), 'fill="#c41e3a"' in svg.split("<circle")[0]
(2, True)
"""
from __future__ import annotations

import ast
import importlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from html import escape
from math import ceil, isqrt
from typing import TYPE_CHECKING, Union

from permgroup.budget import size_text
from permgroup.errors import InputError

if TYPE_CHECKING:  # pragma: no cover
    from permgroup.puzzle import Puzzle

Point = tuple[float, float]

#: the fills of labels that name colours (any case)
COLOUR_LETTERS = {"W": "#ffffff", "Y": "#ffd500", "R": "#c41e3a", "O": "#ff5800", "G": "#009e60",
                  "B": "#0051ba"}

#: fills for labels without a home fill, in the order the labels are met
PALETTE = ("#ffffff", "#ffd500", "#c41e3a", "#ff5800", "#009e60", "#0051ba", "#888888",
           "#9b59b6", "#8b4513", "#ff69b4", "#00ced1", "#000000")

#: widest picture a strip drawing makes before it wraps (pixels)
STRIP_WIDTH = 440

#: above this many positions a picture carries no per-shape tooltips (size)
TOOLTIP_LIMIT = 1500


@dataclass(frozen=True)
class Circle:
    """A round token centred at ``(x, y)``."""

    x: float
    y: float
    r: float


Shape = Union[tuple[Point, ...], Circle]


@dataclass(frozen=True)
class Drawing:
    """Where each position of a puzzle is drawn.

    ``shapes[i]`` is position ``i``'s polygon (its corners) or :class:`Circle`,
    in a picture of ``width`` x ``height`` units, y downwards; ``home[i]`` its
    fill when the puzzle is solved (no ``home``: each colour a fill of its
    own, :func:`label_fills`).  ``fixed`` are shapes that show no
    position (the centres a definition leaves out) with their fills;
    ``captions`` texts ``(x, y, text)``; ``numbered`` puts in each shape the
    number of the piece it shows (its home position, or ``names`` of it).
    ``scale`` is pixels per unit.
    """

    shapes: tuple[Shape, ...]
    home: tuple[str, ...]
    width: float
    height: float
    fixed: tuple[tuple[Shape, str], ...] = ()
    captions: tuple[tuple[float, float, str], ...] = ()
    numbered: bool = False
    scale: float = 1.0
    font: float = 9.0
    names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.home and len(self.home) != len(self.shapes):
            raise ValueError(f"a drawing of {len(self.shapes)} shapes with {len(self.home)} fills")

    def select(self, positions: Sequence[int]) -> Drawing:
        """The drawing of a puzzle whose position ``k`` is this drawing's
        ``positions[k]``; the shapes of the others stay as fixed shapes.

        >>> d = Drawing(((((0, 0), (1, 0), (1, 1)),) * 3), ("#000000", "#ffffff", "#ffd500"), 1, 1)
        >>> e = d.select([2, 0])
        >>> e.home, [fill for _, fill in e.fixed]
        (('#ffd500', '#000000'), ['#ffffff'])
        """
        if not self.home:
            raise ValueError("select needs the drawing's home fills")
        chosen = set(positions)
        if len(chosen) != len(positions) or not chosen <= set(range(len(self.shapes))):
            raise ValueError("positions must be distinct positions of the drawing")
        rest = tuple((self.shapes[i], self.home[i]) for i in range(len(self.shapes))
                     if i not in chosen)
        return replace(self, shapes=tuple(self.shapes[i] for i in positions),
                       home=tuple(self.home[i] for i in positions), fixed=self.fixed + rest,
                       names=tuple(self.names[i] for i in positions) if self.names else ())

    def points(self) -> list[Point]:
        """Every extreme point of every shape (a circle's four), for bounds."""
        result: list[Point] = []
        for shape in (*self.shapes, *(s for s, _ in self.fixed)):
            if isinstance(shape, Circle):
                result += [(shape.x - shape.r, shape.y - shape.r), (shape.x + shape.r, shape.y + shape.r)]
            else:
                result += list(shape)
        return result


# --- colours ------------------------------------------------------------------

def label_fills(labels: Sequence) -> dict:
    """A fill for each distinct label: the colour it names when every label
    is a colour letter (W Y R O G B, any case, no two the same colour), else
    palette colours in the order the labels are met.

    >>> label_fills("RRGY")
    {'R': '#c41e3a', 'G': '#009e60', 'Y': '#ffd500'}
    >>> label_fills(["a", "b"])
    {'a': '#ffffff', 'b': '#ffd500'}
    """
    distinct = list(dict.fromkeys(labels))
    upper = {str(c).upper() for c in distinct}
    if upper <= set(COLOUR_LETTERS) and len(upper) == len(distinct):
        return {c: COLOUR_LETTERS[str(c).upper()] for c in distinct}
    return {c: PALETTE[i % len(PALETTE)] for i, c in enumerate(distinct)}


def position_fills(home: Sequence[str], solved: Sequence, colours: Sequence) -> list[str]:
    """The fill of each position showing ``colours``: each label takes the fill
    of its home positions (where ``solved`` has it) when they share one, else a
    colour of its own (:func:`label_fills`, labels of ``solved`` first, so a
    label keeps its colour from state to state).  Without home fills
    (``home`` empty) every label has a colour of its own.

    >>> position_fills(["#fff", "#fff", "#000"], "aab", "baa")
    ['#000', '#fff', '#fff']
    >>> position_fills(["#fff", "#000"], "ab", "xa")  # x is no solved label
    ['#ffffff', '#fff']
    >>> position_fills((), "RRGG", "GRRG")
    ['#009e60', '#c41e3a', '#c41e3a', '#009e60']
    """
    homes: dict = {}
    for fill, label in zip(home, solved):
        homes.setdefault(label, set()).add(fill)
    own = label_fills([c for c in (*solved, *colours) if len(homes.get(c, ())) != 1])
    return [own[c] if c in own else next(iter(homes[c])) for c in colours]


def ink(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (``#rrggbb``).

    >>> ink("#ffffff"), ink("#0051ba")
    ('#000', '#fff')
    """
    try:
        r, g, b = (int(fill[k:k + 2], 16) for k in (1, 3, 5))
    except ValueError:
        return "#000"
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def piece_numbers(solved: Sequence, colours: Sequence, names: Sequence[str] = ()) -> list[str]:
    """What a numbered shape shows: the home position of the label it shows
    (or ``names`` of it) when that label has exactly one, else the label
    itself when short.

    >>> piece_numbers((0, 1, 2), (2, 0, 1)), piece_numbers("aab", "baa")
    (['2', '0', '1'], ['2', 'a', 'a'])
    >>> piece_numbers((0, 1), (1, 0), names=("one", ""))
    ['', 'one']
    """
    where: dict = {}
    for i, label in enumerate(solved):
        where.setdefault(label, []).append(i)
    numbers = []
    for label in colours:
        homes = where.get(label, [])
        if len(homes) == 1:
            numbers.append(names[homes[0]] if names else str(homes[0]))
        else:
            numbers.append(str(label) if len(str(label)) <= 3 else "")
    return numbers


# --- SVG ----------------------------------------------------------------------

def _shape_svg(shape: Shape, scale: float, attributes: str, inner: str = "") -> str:
    if isinstance(shape, Circle):
        return (f'<circle cx="{shape.x * scale:.1f}" cy="{shape.y * scale:.1f}" '
                f'r="{shape.r * scale:.1f}" {attributes}>{inner}</circle>')
    corners = " ".join(f"{x * scale:.1f},{y * scale:.1f}" for x, y in shape)
    return f'<polygon points="{corners}" {attributes}>{inner}</polygon>'


def _centre(shape: Shape) -> Point:
    if isinstance(shape, Circle):
        return shape.x, shape.y
    return (sum(x for x, _ in shape) / len(shape), sum(y for _, y in shape) / len(shape))


def _body(drawing: Drawing, solved: Sequence, colours: Sequence,
          fills: Sequence[str] | None = None) -> str:
    """The shapes and texts of ``colours`` in ``drawing`` (in ``fills`` when
    given), without the frame."""
    n = len(drawing.shapes)
    if len(colours) != n:
        raise ValueError(f"{len(colours)} colours for a drawing of {n} positions")
    solved = tuple(solved) or tuple(range(n))
    if fills is None:
        fills = position_fills(drawing.home, solved, colours)
    s = drawing.scale
    stroke = 'stroke="#222" stroke-width="0.8" stroke-linejoin="round"'
    parts = [_shape_svg(shape, s, f'fill="{fill}" {stroke}') for shape, fill in drawing.fixed]
    tips = n <= TOOLTIP_LIMIT
    for i, (shape, fill) in enumerate(zip(drawing.shapes, fills)):
        tip = f"<title>{i}: {escape(str(colours[i]))}</title>" if tips else ""
        parts.append(_shape_svg(shape, s, f'data-position="{i}" fill="{fill}" {stroke}', tip))
    if drawing.numbered:
        size = round(drawing.font * s, 1)
        for shape, fill, text in zip(drawing.shapes, fills,
                                     piece_numbers(solved, colours, drawing.names)):
            if text:
                x, y = _centre(shape)
                parts.append(f'<text x="{x * s:.1f}" y="{y * s + size * 0.35:.1f}" '
                             f'font-size="{size:g}" text-anchor="middle" fill="{ink(fill)}" '
                             f'pointer-events="none">{escape(text)}</text>')
    for x, y, text in drawing.captions:
        parts.append(f'<text x="{x * s:.1f}" y="{y * s:.1f}" font-size="{round(11 * s, 1):g}" '
                     f'fill="#444">{escape(text)}</text>')
    return "".join(parts)


def _frame(width: float, height: float, body: str, title: str | None = None) -> str:
    caption = f"<title>{escape(title)}</title>" if title else ""
    width, height = ceil(width - 1e-6), ceil(height - 1e-6)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif">{caption}{body}</svg>')


def drawing_svg(drawing: Drawing, solved: Sequence, colours: Sequence,
                title: str | None = None, fills: Sequence[str] | None = None) -> str:
    """The SVG of ``colours`` (a state of the puzzle whose solved colouring is
    ``solved``, or ``()`` for positions all distinct) in ``drawing``, in
    ``fills`` when given (else :func:`position_fills`).  Each position is one
    ``<polygon>`` or ``<circle>`` carrying ``data-position="i"``; fixed
    shapes carry none."""
    return _frame(drawing.width * drawing.scale, drawing.height * drawing.scale,
                  _body(drawing, solved, colours, fills), title)


# --- drawings without geometry ------------------------------------------------

def grid(count: int, per_row: int | None = None, size: float = 22) -> Drawing:
    """``count`` positions as a grid of numbered squares, each label in a
    colour of its own: ``per_row`` a row, else a square board when the count
    is a square, else rows of 12.

    >>> d = grid(6, 3)
    >>> d.width, d.height, d.numbered
    (66, 44, True)
    """
    if per_row is None:
        root = isqrt(count)
        per_row = root if root * root == count else min(count, 12)
    per_row = max(per_row, 1)
    shapes = []
    for i in range(count):
        x, y = (i % per_row) * size, (i // per_row) * size
        shapes.append(((x + 1, y + 1), (x + size - 1, y + 1), (x + size - 1, y + size - 1),
                       (x + 1, y + size - 1)))
    return Drawing(tuple(shapes), (), min(count, per_row) * size, -(-count // per_row) * size,
                   numbered=True)


def strips(puzzle: Puzzle, size: float = 20, width: float = STRIP_WIDTH) -> Drawing:
    """The drawing of a puzzle without geometry: one block of rows per kind of
    piece (its name above), each piece its stickers side by side, pieces
    wrapped to ``width``; then the positions in no piece (kind ``other``).  A
    puzzle whose pieces are single stickers is a :func:`grid`.

    >>> from permgroup.puzzle import Puzzle
    >>> p = Puzzle("bars", 5, {"A": (1, 0, 3, 2, 4)}, pieces={"bar": ((0, 1), (2, 3))})
    >>> d = strips(p)
    >>> len(d.shapes), [text for _, _, text in d.captions]
    (5, ['bar', 'other'])
    """
    solved = puzzle.solved or tuple(range(puzzle.degree))
    groups = [(kind, list(pieces)) for kind, pieces in puzzle.pieces.items()]
    if all(len(p) == 1 for _, pieces in groups for p in pieces):
        return grid(puzzle.degree)
    covered = {x for _, pieces in groups for p in pieces for x in p}
    loose = [(x,) for x in range(puzzle.degree) if x not in covered]
    if loose:
        groups.append(("other", loose))
    gap, line = size * 0.4, size + 4
    shapes: dict[int, tuple[Point, ...]] = {}
    captions = []
    y, widest = 0.0, 0.0
    for kind, pieces in groups:
        captions.append((0.0, y + 11, kind))
        y += 15
        x = 0.0
        for piece in pieces:
            span = len(piece) * size
            if x and x + span > width:
                x, y = 0.0, y + line
            for u, s in enumerate(piece):
                left = x + u * size
                shapes[s] = ((left + 0.5, y + 0.5), (left + size - 0.5, y + 0.5),
                             (left + size - 0.5, y + size - 0.5), (left + 0.5, y + size - 0.5))
            x += span + gap
            widest = max(widest, x - gap)
        y += line + 4
    return Drawing(tuple(shapes[i] for i in range(puzzle.degree)), (),
                   max(widest, 60.0) + 1, y, captions=tuple(captions), numbered=True, font=8)


# --- which drawing --------------------------------------------------------------

@lru_cache(maxsize=64)
def _made(renderer: str) -> Drawing:
    module, _, call = renderer.partition(":")
    name, _, rest = call.partition("(")
    arguments = ast.literal_eval(f"({rest[:-1]},)") if rest else ()
    return getattr(importlib.import_module(module), name)(*arguments)


@lru_cache(maxsize=64)
def _recognised(puzzle: Puzzle) -> str:
    """The renderer of a puzzle made without one (a definition read by hand,
    a puzzle of your own) whose shape a plugin of the catalog knows, else ``""``."""
    from permgroup.catalog import renderer_for

    return renderer_for(puzzle)


def drawing_of(puzzle: Puzzle) -> Drawing:
    """The puzzle's drawing: its renderer's (or, without one, that of the
    shape its moves show, :func:`permgroup.catalog.renderer_for`) when it has
    one for its number of positions, else :func:`strips`.

    >>> from permgroup.puzzle import Puzzle
    >>> len(drawing_of(Puzzle("p", 2, {"A": (1, 0)})).shapes)
    2
    """
    renderer = puzzle.renderer or _recognised(puzzle)
    if renderer:
        made = _made(renderer)
        if len(made.shapes) == puzzle.degree:
            return made
    return strips(puzzle)


def picture(puzzle: Puzzle, colours: Sequence, title: str | None = None) -> str:
    """The SVG of a state (the colour at each position) of ``puzzle``.

    >>> from permgroup.puzzle import Puzzle
    >>> picture(Puzzle("p", 2, {"A": (1, 0)}), (0, 1)).count("data-position=")
    2
    """
    return drawing_svg(drawing_of(puzzle), puzzle.solved, colours, title)


#: the largest picture of a sequence drawn (bytes of SVG): a browser or a
#: notebook struggles well before a picture of hundreds of megabytes
MAX_PICTURE_BYTES = 16 * 10**6


def sequence_svg(puzzle: Puzzle, states: Sequence[Sequence], labels: Sequence[str],
                 width: float = 900, frame: float = 200) -> str:
    """States side by side, each with its label below, each picture at most
    ``frame`` pixels wide, wrapped into rows no wider than ``width`` pixels
    (the steps of a word).

    >>> from permgroup.puzzle import Puzzle
    >>> p = Puzzle("p", 2, {"A": (1, 0)})
    >>> svg = sequence_svg(p, [(0, 1), (1, 0)], ["start", "A"])
    >>> svg.count("<svg"), svg.count("data-position="), svg.count("<g ")
    (1, 4, 2)
    >>> sequence_svg(p, [(0, 1)] * 10**6, ["A"] * 10**6)   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: a picture of 1,000,000 states of p would take about ... MB of SVG, more than 16.0 MB: draw at most ... moves at a time
    """
    drawing = drawing_of(puzzle)
    drawing = replace(drawing, scale=drawing.scale * min(1.0, frame / (drawing.width * drawing.scale)))
    w, h = drawing.width * drawing.scale, drawing.height * drawing.scale
    gap, label_h = 12, 16
    per_row = max(1, int((width + gap) // (w + gap)))
    cells = []
    for k, (colours, label) in enumerate(zip(states, labels)):
        x, y = (k % per_row) * (w + gap), (k // per_row) * (h + label_h + gap)
        cells.append(f'<g transform="translate({x:.0f},{y:.0f})">'
                     f'{_body(drawing, puzzle.solved, colours)}'
                     f'<text x="{w / 2:.0f}" y="{h + 13:.0f}" font-size="12" '
                     f'text-anchor="middle">{escape(label)}</text></g>')
        if k == 0 and len(cells[0]) * len(states) > MAX_PICTURE_BYTES:
            fit = max(1, MAX_PICTURE_BYTES // len(cells[0]))
            raise InputError(f"a picture of {len(states):,} states of {puzzle.name} would take "
                             f"about {size_text(len(cells[0]) * len(states))} of SVG, more than "
                             f"{size_text(MAX_PICTURE_BYTES)}: draw at most {fit - 1:,} moves "
                             "at a time")
    rows = -(-len(cells) // per_row)
    total_w = max(min(len(cells), per_row) * (w + gap) - gap, 0)
    total_h = max(rows * (h + label_h + gap) - gap, 0)
    return _frame(total_w, total_h, "".join(cells))


__all__ = ["Circle", "Drawing", "COLOUR_LETTERS", "PALETTE", "label_fills", "position_fills",
           "piece_numbers", "ink",
           "drawing_svg", "grid", "strips", "drawing_of", "picture", "sequence_svg"]
