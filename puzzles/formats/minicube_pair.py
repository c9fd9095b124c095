"""Two 2x2x2 nets side by side: the quarter turns between them.

Per case an ignored line, then six lines
drawing two cube nets side by side (the second shifted 9 columns); output the
least number of quarter turns between them, ignoring orientation.

Solved colours: U Y, L O, F B, R R, B G, D W.  Only fixed columns are read, so
the filler between faces may be any character.
"""
from __future__ import annotations

from permgroup.errors import InputError
from puzzles import minicube
from puzzles.cube_geometry import net_faces
from puzzles.formats.lines import read_blocks

SCHEME = minicube.Scheme({"U": "Y", "L": "O", "F": "B", "R": "R", "B": "G", "D": "W"})
SECOND_NET_OFFSET = 9
#: (net row, net column) of each URFDLB sticker
CELLS = [
    (r0 + i // 2, c0 + i % 2)
    for face in "URFDLB"
    for r0, c0 in [net_faces(2)[face]]
    for i in range(4)
]


def read_cases(text: str) -> list[tuple[str, str]]:
    """The cases as pairs of URFDLB facelet strings.

    >>> text = write_cases([("YYYYRRRRBBBBWWWWOOOOGGGG", "YYYYBBBBOOOOWWWWGGGGRRRR")])
    >>> print(text, end="")
    1
    <BLANKLINE>
      YY       YY
      YY       YY
    OOBBRRGG GGOOBBRR
    OOBBRRGG GGOOBBRR
      WW       WW
      WW       WW
    >>> read_cases(text)
    [('YYYYRRRRBBBBWWWWOOOOGGGG', 'YYYYBBBBOOOOWWWWGGGGRRRR')]
    """
    cases = []
    for c, rows in enumerate(read_blocks(text, 6, "net lines")):
        cubes = []
        for offset in (0, SECOND_NET_OFFSET):
            stickers = []
            for r, col in CELLS:
                number, row = rows[r]
                at = col + offset
                if at >= len(row) or row[at] == " ":
                    raise InputError(f"case {c + 1}, line {number}: no sticker at column "
                                     f"{at + 1} (the line has {len(row)} characters)")
                if row[at] not in "YOBRGW":
                    raise InputError(f"case {c + 1}, line {number}, column {at + 1}: unknown "
                                     f"colour {row[at]!r} (expected one of Y O B R G W)")
                stickers.append(row[at])
            cubes.append("".join(stickers))
        cases.append((cubes[0], cubes[1]))
    return cases


def solve_text(text: str) -> str:
    """Answer every case.

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> s = "YYYYRRRRBBBBWWWWOOOOGGGG"
    >>> solve_text(write_cases([(s, minicube.apply_moves(s, "R U")), (s, s)]))
    '2\\n0\\n'
    """
    t = minicube.table("qtm")
    out = []
    for number, (a, b) in enumerate(read_cases(text), 1):
        p = _element(a, f"case {number}, first cube")
        q = _element(b, f"case {number}, second cube")
        out.append(t.distance(p, q))
    return "".join(f"{d}\n" for d in out)


def _element(state: str, what: str):
    return minicube.element(state, SCHEME, what)


def write_cases(pairs: list[tuple[str, str]], filler: str = " ") -> str:
    """An input holding these pairs of URFDLB facelet strings (Y O B R G W colours).

    >>> s = "YYYYRRRRBBBBWWWWOOOOGGGG"
    >>> read_cases(write_cases([(s, s)])) == [(s, s)]
    True
    """
    blocks = []
    for a, b in pairs:
        rows = [[filler] * 17 for _ in range(6)]
        for offset, state in ((0, a), (SECOND_NET_OFFSET, b)):
            for (r, c), colour in zip(CELLS, state):
                rows[r][c + offset] = colour
        blocks.append("\n" + "\n".join("".join(row).rstrip() for row in rows) + "\n")
    return f"{len(pairs)}\n" + "".join(blocks)
