"""Coloured nets of n x n x n cubes as SVG, for notebooks.

>>> svg = net_svg("UUUURRRRFFFFDDDDLLLLBBBB")
>>> svg.startswith("<svg") and svg.count("<rect") == 24
True
"""
from __future__ import annotations

from html import escape
from math import isqrt

from puzzles.cube_geometry import FACES, net_faces

#: fill colours for the usual letters; other letters get a palette colour
FILLS = {
    "W": "#ffffff", "Y": "#ffd500", "R": "#c41e3a", "O": "#ff5800", "G": "#009e60",
    "B": "#0051ba",
}
PALETTE = ["#ffffff", "#ffd500", "#c41e3a", "#ff5800", "#009e60", "#0051ba", "#888888",
           "#9b59b6"]


def colour_map(state: str) -> dict[str, str]:
    """A fill colour for every letter of ``state``: standard names for W Y R O G B
    (any case), the face-letter scheme URFDLB as white/red/green/yellow/orange/blue,
    and distinct palette colours otherwise.

    >>> colour_map("UUUURRRRFFFFDDDDLLLLBBBB")["F"], colour_map("wwyy")
    ('#009e60', {'w': '#ffffff', 'y': '#ffd500'})
    >>> colour_map("XYZ")  # no scheme recognized: palette colours in letter order
    {'X': '#ffffff', 'Y': '#ffd500', 'Z': '#c41e3a'}
    """
    letters = sorted(set(state))
    if set(letters) <= set("URFDLB"):
        scheme = dict(zip("URFDLB", "WRGYOB"))
        return {c: FILLS[scheme[c]] for c in letters}
    upper = {c.upper() for c in letters}
    if upper <= set(FILLS) and len(upper) == len(letters):
        return {c: FILLS[c.upper()] for c in letters}
    return {c: PALETTE[i % len(PALETTE)] for i, c in enumerate(letters)}


def net_svg(state: str, size: int = 16, title: str | None = None) -> str:
    """The cross-shaped net (U above L F R B, D below) of a URFDLB facelet string.

    >>> from puzzles import cube3
    >>> svg = net_svg(cube3.SOLVED, title="solved")
    >>> svg.count("<rect"), "<title>solved</title>" in svg
    (54, True)
    >>> net_svg("UUUUUUU")
    Traceback (most recent call last):
        ...
    ValueError: 7 stickers is not a cube net
    """
    n = isqrt(len(state) // 6)
    if 6 * n * n != len(state):
        raise ValueError(f"{len(state)} stickers is not a cube net")
    fills = colour_map(state)
    gap = 2
    cells = []
    for f, face in enumerate(FACES):
        r0, c0 = net_faces(n)[face]
        for i in range(n * n):
            r, c = r0 + i // n, c0 + i % n
            x = c * size + (c // n) * gap
            y = r * size + (r // n) * gap
            colour = state[f * n * n + i]
            cells.append(
                f'<rect x="{x}" y="{y}" width="{size - 1}" height="{size - 1}" '
                f'fill="{fills[colour]}" stroke="#222" stroke-width="1">'
                f"<title>{face}{i}: {escape(colour)}</title></rect>"
            )
    width = 4 * n * size + 3 * gap + 1
    height = 3 * n * size + 2 * gap + 1
    caption = f"<title>{escape(title)}</title>" if title else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="-1 -1 {width + 1} {height + 1}">{caption}{"".join(cells)}</svg>')


class Net:
    """A facelet string that draws itself as a net in Jupyter.

    >>> Net("UUUURRRRFFFFDDDDLLLLBBBB")
    Net('UUUURRRRFFFFDDDDLLLLBBBB')
    """

    def __init__(self, state: str, title: str | None = None):
        self.state = state
        self.title = title

    def __repr__(self) -> str:
        return f"Net({self.state!r})"

    def _repr_svg_(self) -> str:
        return net_svg(self.state, title=self.title)
