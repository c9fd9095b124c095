"""UVa 11007 "Mini Cube": quarter turns to solve a 2x2x2 given as six faces.

The count, then per case six faces (Top, Front, Right,
Bottom, Back, Left), each a 4-letter line; output the least quarter-turn count.

The solved cube is W R Y B O G on Top Front Right Bottom Back Left; a case may
arrive in any orientation.

>>> solve_text("1\\n\\nWWWW\\nRRRR\\nYYYY\\nBBBB\\nOOOO\\nGGGG\\n")
'0\\n'
"""
from __future__ import annotations

from permgroup.errors import InputError
from puzzles import minicube
from puzzles.formats.lines import read_blocks

#: the input's face order, as URFDLB letters
FACE_ORDER = "UFRDBL"
FACE_NAMES = {"U": "Top", "F": "Front", "R": "Right", "D": "Bottom", "B": "Back", "L": "Left"}
COLOURS = frozenset("WRYBOG")
SCHEME = minicube.Scheme({"U": "W", "F": "R", "R": "Y", "D": "B", "B": "O", "L": "G"})


def read_cases(text: str) -> list[str]:
    """The cases as URFDLB facelet strings.

    >>> read_cases("1\\nWWWW\\nRRRR\\nYYYY\\nBBBB\\nOOOO\\nGGGG\\n")  # Top Front Right ...
    ['WWWWYYYYRRRRBBBBGGGGOOOO']
    >>> read_cases("1\\nWWWW\\nRRRR\\nYYYY\\nBBBB\\nOOOO\\nGGGX\\n")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    permgroup.errors.InputError: case 1, line 7, character 4: unknown colour 'X' (...)
    """
    cases = []
    for c, block in enumerate(read_blocks(text, 6, "face lines")):
        faces = {}
        for face, (number, text_line) in zip(FACE_ORDER, block):
            row = text_line.strip()
            if len(row) != 4:
                raise InputError(f"case {c + 1}, line {number}: face {FACE_NAMES[face]} has "
                                 f"{len(row)} characters, expected 4")
            if not COLOURS.issuperset(row):
                i, ch = next((i, ch) for i, ch in enumerate(row) if ch not in COLOURS)
                raise InputError(f"case {c + 1}, line {number}, character {i + 1}: "
                                 f"unknown colour {ch!r} (expected one of W R Y B O G)")
            faces[face] = row
        cases.append("".join(faces[f] for f in "URFDLB"))
    return cases


def solve_text(text: str, table_format: str = "bytes") -> str:
    """Answer every case of a UVa 11007 input (``table_format="packed"``: from
    the 2-bit table, all cases walked down together; ``"nibbles"``: from the
    4-bit table, a lookup each, as from the one-byte table).

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> solved = "WWWWYYYYRRRRBBBBGGGGOOOO"
    >>> solve_text(write_cases([minicube.apply_moves(solved, "F R'"), solved]))
    '2\\n0\\n'
    >>> solve_text(write_cases([minicube.apply_moves(solved, "F R'"), solved]), "packed")
    '2\\n0\\n'
    >>> solve_text(write_cases([minicube.apply_moves(solved, "F R'"), solved]), "nibbles")
    '2\\n0\\n'
    """
    t = minicube.table("qtm", table_format=table_format)
    if table_format == "packed":
        import numpy as np

        ranks = [t.space.rank(minicube.element(state, SCHEME, f"case {number}"))
                 for number, state in enumerate(read_cases(text), 1)]
        return "".join(f"{d}\n" for d in t.depths_of(np.array(ranks, dtype=np.int64)).tolist())
    out = []
    for number, state in enumerate(read_cases(text), 1):
        what = f"case {number}"
        out.append(t.depth(minicube.element(state, SCHEME, what)))
    return "".join(f"{d}\n" for d in out)


def write_cases(states: list[str]) -> str:
    """A UVa 11007 input holding these URFDLB facelet strings (W R Y B O G colours).

    >>> read_cases(write_cases(["WWWWYYYYRRRRBBBBGGGGOOOO"])) == ["WWWWYYYYRRRRBBBBGGGGOOOO"]
    True
    """
    blocks = []
    for state in states:
        faces = {f: state[4 * i: 4 * i + 4] for i, f in enumerate("URFDLB")}
        blocks.append("\n".join(faces[f] for f in FACE_ORDER) + "\n")
    return f"{len(states)}\n\n" + "\n".join(blocks)
